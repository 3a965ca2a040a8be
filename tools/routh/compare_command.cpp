#include "tools/routh/compare_command.hpp"

#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "sim/impact/law_catalogue.hpp"
#include "sim/json_writer.hpp"
#include "sim/scenario/impact_problem_file.hpp"
#include "sim/scenario/yaml_input.hpp"
#include "sim/simulation/event_record.hpp"
#include "sim/text.hpp"
#include "tools/routh/aligned_columns.hpp"
#include "tools/routh/impact_report.hpp"

namespace routh::cli {

namespace {

struct CompareOptions {
  std::string problem_path;
  std::vector<const LawEntry*> laws;  ///< empty: every law whose scope covers the problem
  bool json = false;
};

std::optional<CompareOptions> usage_error(std::string_view message) {
  std::cerr << "routh compare: " << message << '\n' << kCompareUsage;
  return std::nullopt;
}

// "park,lcp" → the catalogue entries, or the first unknown name.
std::optional<CompareOptions> add_laws(std::string_view list, CompareOptions options) {
  for (std::size_t begin = 0; begin <= list.size();) {
    const std::size_t end = std::min(list.find(',', begin), list.size());
    const std::string_view name = list.substr(begin, end - begin);
    const LawEntry* law = find_law(name);
    if (law == nullptr) return usage_error(unknown_law_message(name));
    options.laws.push_back(law);
    begin = end + 1;
  }
  return options;
}

std::optional<CompareOptions> parse_options(CommandArguments arguments) {
  CompareOptions options;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string_view argument = arguments[i];
    if (argument == "--laws" && i + 1 < arguments.size()) {
      std::optional<CompareOptions> with_laws = add_laws(arguments[++i], std::move(options));
      if (!with_laws) return std::nullopt;
      options = std::move(*with_laws);
    } else if (argument == "--json") {
      options.json = true;
    } else if (argument.starts_with("-")) {
      return usage_error(cat("unknown option or missing value: '", argument, "'"));
    } else if (!options.problem_path.empty()) {
      return usage_error(cat("unexpected argument '", argument, "': give one problem file"));
    } else {
      options.problem_path = argument;
    }
  }
  if (options.problem_path.empty()) return usage_error("missing the problem file");
  return options;
}

std::string numbers(const ContactVector& values) {
  std::string text;
  for (const double value : values) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%s%.6g", text.empty() ? "" : " ", value);
    text += buffer;
  }
  return text;
}

// "energy_gain,nonphysical_normal_dissipation", or "-" when none is raised
std::string flag_names(const ImpactFlags& flags) {
  const std::string names = describe_flags(flags);
  return names.empty() ? "-" : names;
}

void print_table(const std::string& title, const std::vector<LawAnswer>& answers) {
  std::cout << title << '\n';
  std::vector<std::vector<std::string>> rows = {
      {"law", "status", "type", "impulse [N s]", "u_post [m/s]", "delta_T [J]", "flags"}};
  for (const LawAnswer& answer : answers) {
    const ImpactResult& r = answer.result;
    const bool solved = r.status == ImpactStatus::solved || r.status == ImpactStatus::no_impact;
    char delta_T[32];
    std::snprintf(delta_T, sizeof delta_T, "%.6g", r.delta_T);
    rows.push_back({std::string(answer.law->name), std::string(to_string(r.status)),
                    std::string(to_string(r.type)), solved ? numbers(r.impulse) : "-",
                    solved ? numbers(r.u_post) : "-", solved ? delta_T : "-", flag_names(r.flags)});
  }
  AlignedColumns columns;
  for (const auto& row : rows) columns.measure(row);
  for (const auto& row : rows) columns.print(std::cout, row);
}

}  // namespace

int run_compare_command(CommandArguments arguments) {
  if (asks_for_help(arguments)) {
    std::cout << kCompareUsage;
    return kExitSuccess;
  }
  const std::optional<CompareOptions> options = parse_options(arguments);
  if (!options) return kExitUsage;
  return run_reporting_errors("compare", options->problem_path, [&] {
    const ImpactProblemFile file = load_impact_problem_file(options->problem_path);
    for (const std::string& warning : file.warnings) std::cerr << warning << '\n';
    const std::vector<LawAnswer> answers = solve_laws(options->laws, file.problem);
    if (answers.empty()) {
      std::cerr << "routh compare: " << options->problem_path
                << ": no law in the catalogue handles this problem (see `routh laws`)\n";
      return kExitBadInput;
    }
    const std::string title = problem_title(file, options->problem_path);
    if (options->json) {
      write_comparison(std::cout, title, file, answers);
    } else {
      print_table(title, answers);
    }
    return kExitSuccess;
  });
}

}  // namespace routh::cli
