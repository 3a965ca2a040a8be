#include "tools/routh/info_command.hpp"

#include <exception>
#include <iostream>
#include <string>

#include "sim/recorder/trajectory_summary.hpp"
#include "sim/text.hpp"
#include "tools/routh/trajectory_report.hpp"

namespace routh::cli {

namespace {

void print_summary(const std::string& path, const TrajectorySummary& summary) {
  std::ostream& out = std::cout;
  out << "file         " << path << '\n'
      << "format       " << summary.format << " version " << summary.format_version
      << " (written by routh " << summary.routh_version << ")\n"
      << "law          " << summary.law << '\n'
      << "status       " << summary.status
      << (summary.status_detail.empty() ? "" : cat(" (", summary.status_detail, ")")) << '\n';
  out << "samples      " << summary.sample_count << '\n';
  if (summary.sample_count > 0) {
    out << "time         " << cat(summary.t_first) << " s to " << cat(summary.t_last)
        << " s (duration " << cat(summary.t_last - summary.t_first) << " s)\n";
  }
  out << "coordinates  " << summary.coordinate_names.size() << ':';
  for (std::size_t i = 0; i < summary.coordinate_names.size(); ++i) {
    out << (i == 0 ? " " : ", ") << summary.coordinate_names[i];
    if (i < summary.coordinate_units.size()) out << " [" << summary.coordinate_units[i] << ']';
  }
  out << '\n' << "contacts     " << summary.contact_names.size();
  for (std::size_t i = 0; i < summary.contact_names.size(); ++i) {
    out << (i == 0 ? ": " : ", ") << summary.contact_names[i];
  }
  out << '\n';
  print_physics_report(out, summary, 13);
  if (!summary.outcome.empty()) {
    out << "outcome      ";
    for (std::size_t i = 0; i < summary.outcome.size(); ++i) {
      out << (i == 0 ? "" : ", ") << summary.outcome[i].first << " "
          << cat(summary.outcome[i].second);
    }
    out << '\n';
  }
  out << "scenario     " << summary.scenario_bytes << " bytes of YAML in /scenario\n";
  for (const std::string& warning : summary.warnings) out << "warning      " << warning << '\n';
}

}  // namespace

int run_info_command(CommandArguments arguments) {
  if (asks_for_help(arguments)) {
    std::cout << kInfoUsage;
    return kExitSuccess;
  }
  if (arguments.size() != 1) {
    std::cerr << "routh info: expected one trajectory file\n" << kInfoUsage;
    return kExitUsage;
  }
  const std::string path(arguments.front());
  return run_reporting_errors("info", path, [&] {
    print_summary(path, summarize_trajectory(path));
    return kExitSuccess;
  });
}

}  // namespace routh::cli
