#include "tools/routh/info_command.hpp"

#include <exception>
#include <iostream>
#include <string>

#include "sim/recorder/trajectory_summary.hpp"
#include "sim/text.hpp"

namespace routh::cli {

namespace {

// "impact 5, liftoff 1"
std::string counts(const std::vector<std::pair<std::string, std::int64_t>>& entries) {
  std::string text;
  for (const auto& [name, n] : entries) {
    if (!text.empty()) text += ", ";
    text += cat(name, " ", n);
  }
  return text;
}

std::string energy_line(const Energy& energy) {
  return cat(energy.total(), " J (kinetic ", energy.kinetic, ", potential ", energy.potential, ")");
}

void print_summary(const std::string& path, const TrajectorySummary& summary) {
  std::ostream& out = std::cout;
  out << "file         " << path << '\n'
      << "format       " << summary.format << " version " << summary.format_version
      << " (written by routh " << summary.routh_version << ")\n"
      << "law          " << summary.law << '\n';
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
  out << '\n' << "events       " << summary.event_count;
  if (summary.event_count > 0) out << ": " << counts(summary.events_by_kind);
  out << '\n';
  if (summary.sample_count > 0) {
    out << "energy start " << energy_line(summary.energy_first) << '\n'
        << "energy end   " << energy_line(summary.energy_last) << '\n'
        << "energy rise  " << cat(summary.max_energy_rise) << " J above the start at most";
    if (summary.max_energy_rise > 0.0) out << " (t = " << cat(summary.max_energy_rise_t) << " s)";
    out << '\n';
  }
  out << "flags        "
      << (summary.flags_seen.empty() ? std::string("none") : counts(summary.flags_seen)) << '\n';
  if (!summary.unusual_statuses.empty()) {
    out << "statuses     " << counts(summary.unusual_statuses) << '\n';
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
  try {
    print_summary(path, summarize_trajectory(path));
  } catch (const std::exception& error) {
    std::cerr << "routh info: " << error.what() << '\n';
    return kExitBadInput;
  }
  return kExitSuccess;
}

}  // namespace routh::cli
