#include "tools/routh/impact_command.hpp"

#include <iostream>
#include <optional>
#include <string>

#include "sim/impact/law_catalogue.hpp"
#include "sim/scenario/impact_problem_file.hpp"
#include "sim/scenario/yaml_input.hpp"
#include "sim/text.hpp"
#include "tools/routh/json_writer.hpp"

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

const LawEntry& chosen_law(const ImpactOptions& options, const ImpactProblemFile& file) {
  if (options.law) return *find_law(*options.law);
  if (file.law) return *find_law(*file.law);
  throw InputError({options.problem_path, 0, 0},
                   "no law given: add 'law: NAME' to the file or pass --law NAME");
}

bool some_contact_approaches(const ImpactProblem& problem) {
  const int rows = rows_per_contact(problem.dimension);
  for (int k = 0; k < problem.contact_count(); ++k) {
    if (problem.u_pre[k * rows] < 0.0) return true;
  }
  return false;
}

// Nothing approaches, so nothing happens whatever the law: Γ = 0, u⁺ = u⁻.
ImpactResult no_impact(const ImpactProblem& problem) {
  ImpactResult result;
  result.status = ImpactStatus::no_impact;
  result.impulse.setZero(problem.u_pre.size());
  result.u_post = problem.u_pre;
  return result;
}

std::string_view failure_reason(ImpactStatus status) {
  switch (status) {
    case ImpactStatus::unsupported: return "the problem is outside the law's scope";
    case ImpactStatus::invalid_problem: return "the law rejected the problem as invalid";
    case ImpactStatus::no_solution:
      return "the law's equations have no admissible solution for this problem";
    case ImpactStatus::solved:
    case ImpactStatus::no_impact: break;
  }
  return "";
}

void write_numbers(JsonWriter& json, std::string_view key,
                   const Eigen::Ref<const Eigen::VectorXd>& numbers) {
  json.key(key);
  json.begin_array(JsonLayout::one_line);
  for (const double number : numbers) json.value(number);
  json.end_array();
}

void write_phases(JsonWriter& json, const PhaseTrace& phases) {
  json.key("phases");
  json.begin_array();
  for (const Phase& phase : phases) {
    json.begin_object(JsonLayout::one_line);
    json.key("kind");
    json.value(to_string(phase.kind));
    json.key("stage");
    json.value(to_string(phase.stage));
    json.key("from");
    json.value(phase.normal_impulse_from);
    json.key("to");
    json.value(phase.normal_impulse_to);
    json.end_object();
  }
  json.end_array();
}

void write_flags(JsonWriter& json, const ImpactFlags& flags) {
  json.key("flags");
  json.begin_array(JsonLayout::one_line);
  for (const ImpactFlag flag : kAllImpactFlags) {
    if (flags.has(flag)) json.value(to_string(flag));
  }
  json.end_array();
}

void write_result(std::ostream& out, std::string_view law, const ImpactProblemFile& file,
                  const ImpactResult& result) {
  JsonWriter json(out);
  json.begin_object();
  json.key("law");
  json.value(law);
  json.key("status");
  json.value(to_string(result.status));
  json.key("type");
  json.value(to_string(result.type));
  write_numbers(json, "impulse", result.impulse);
  write_numbers(json, "u_post", result.u_post);
  // v⁺ = v⁻ + M⁻¹ Jᵀ Γ, only when the law produced an impulse for every contact row
  if (file.generalized && result.impulse.size() == file.problem.u_pre.size()) {
    write_numbers(json, "v_post",
                  file.generalized->v_pre +
                      generalized_velocity_change(file.generalized->space, result.impulse));
  }
  json.key("delta_T");
  json.value(result.delta_T);
  json.key("W_n");
  json.value(result.normal_work);
  json.key("W_t");
  json.value(result.tangential_work);
  write_phases(json, result.phases);
  write_flags(json, result.flags);
  json.key("warnings");
  json.begin_array();
  for (const std::string& warning : file.warnings) json.value(warning);
  json.end_array();
  json.end_object();
}

}  // namespace

int run_impact_command(CommandArguments arguments) {
  if (asks_for_help(arguments)) {
    std::cout << kImpactUsage;
    return kExitSuccess;
  }
  const std::optional<ImpactOptions> options = parse_options(arguments);
  if (!options) return kExitUsage;
  try {
    const ImpactProblemFile file = load_impact_problem_file(options->problem_path);
    for (const std::string& warning : file.warnings) std::cerr << warning << '\n';
    const LawEntry& law = chosen_law(*options, file);
    const bool approaches = some_contact_approaches(file.problem);
    const ImpactResult result = approaches ? law.solve(file.problem) : no_impact(file.problem);
    write_result(std::cout, law.name, file, result);
    if (!approaches) {
      std::cerr << options->problem_path
                << ": no contact approaches (every u_n >= 0): no impact, nothing changes\n";
    }
    if (result.status == ImpactStatus::solved || result.status == ImpactStatus::no_impact) {
      return kExitSuccess;
    }
    std::cerr << "routh impact: law '" << law.name << "' cannot solve " << options->problem_path
              << ": " << to_string(result.status) << ": " << failure_reason(result.status)
              << " (its scope: " << law.scope << ")\n";
    return kExitBadInput;
  } catch (const InputError& error) {
    std::cerr << error.what() << '\n';
    return kExitBadInput;
  }
}

}  // namespace routh::cli
