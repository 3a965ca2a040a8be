#include "tools/routh/impact_command.hpp"

#include <iostream>
#include <optional>
#include <string>

#include "sim/impact/law_catalogue.hpp"
#include "sim/json_writer.hpp"
#include "sim/scenario/impact_problem_file.hpp"
#include "sim/scenario/yaml_input.hpp"
#include "sim/text.hpp"
#include "tools/routh/impact_report.hpp"

namespace routh::cli {

namespace {

struct ImpactOptions {
  std::string problem_path;
  std::optional<std::string> law;  ///< --law: overrides the file's law
};

// Explains on stderr what is wrong with the command line.
std::optional<ImpactOptions> usage_error(std::string_view message) {
  std::cerr << "routh impact: " << message << '\n' << kImpactUsage;
  return std::nullopt;
}

std::optional<ImpactOptions> parse_options(CommandArguments arguments) {
  ImpactOptions options;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string_view argument = arguments[i];
    if (argument == "--law" && i + 1 < arguments.size()) {
      options.law = std::string(arguments[++i]);
    } else if (argument.starts_with("-")) {
      return usage_error(cat("unknown option or missing value: '", argument, "'"));
    } else if (!options.problem_path.empty()) {
      return usage_error(cat("unexpected argument '", argument, "': give one problem file"));
    } else {
      options.problem_path = argument;
    }
  }
  if (options.problem_path.empty()) return usage_error("missing the problem file");
  if (options.law && find_law(*options.law) == nullptr) {
    return usage_error(unknown_law_message(*options.law));
  }
  return options;
}

std::string_view failure_reason(ImpactStatus status) {
  switch (status) {
    case ImpactStatus::unsupported: return "the problem is outside the law's scope";
    case ImpactStatus::invalid_problem: return "the law rejected the problem as invalid";
    case ImpactStatus::no_solution:
      return "the law's equations have no admissible solution for this problem";
    case ImpactStatus::non_finite: return "the law's arithmetic produced a non-finite number";
    case ImpactStatus::solved:
    case ImpactStatus::no_impact: break;
  }
  return "";
}

}  // namespace

int run_impact_command(CommandArguments arguments) {
  if (asks_for_help(arguments)) {
    std::cout << kImpactUsage;
    return kExitSuccess;
  }
  const std::optional<ImpactOptions> options = parse_options(arguments);
  if (!options) return kExitUsage;
  return run_reporting_errors("impact", options->problem_path, [&] {
    const ImpactProblemFile file = load_impact_problem_file(options->problem_path);
    for (const std::string& warning : file.warnings) std::cerr << warning << '\n';
    const LawEntry& law = chosen_law(options->law, file, options->problem_path);
    const bool approaches = some_contact_approaches(file.problem);
    const ImpactResult result = solve_impact(law, file.problem);
    write_impact_report(std::cout, law.name, file, result);
    if (!approaches) {
      std::cerr << options->problem_path
                << ": no contact approaches (every u_n >= 0): no impact, nothing changes\n";
    }
    if (result.status == ImpactStatus::solved || result.status == ImpactStatus::no_impact) {
      return kExitSuccess;
    }
    std::cerr << "routh impact: law '" << law.name << "' cannot solve " << options->problem_path
              << ": " << to_string(result.status) << ": " << failure_reason(result.status)
              << " (its scope: " << to_string(law.scope) << ")\n";
    return kExitBadInput;
  });
}

}  // namespace routh::cli
