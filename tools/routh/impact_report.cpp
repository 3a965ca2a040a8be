#include "tools/routh/impact_report.hpp"

#include "sim/scenario/yaml_input.hpp"

namespace routh::cli {

namespace {

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

}  // namespace

bool some_contact_approaches(const ImpactProblem& problem) {
  const int rows = rows_per_contact(problem.dimension);
  for (int k = 0; k < problem.contact_count(); ++k) {
    if (problem.u_pre[k * rows] < 0.0) return true;
  }
  return false;
}

ImpactResult solve_impact(const LawEntry& law, const ImpactProblem& problem) {
  if (some_contact_approaches(problem)) return law.solve(problem);
  ImpactResult result;
  result.status = ImpactStatus::no_impact;
  result.impulse.setZero(problem.u_pre.size());
  result.u_post = problem.u_pre;
  return result;
}

const LawEntry& chosen_law(const std::optional<std::string>& law, const ImpactProblemFile& file,
                           const std::string& path) {
  const std::optional<std::string>& name = law ? law : file.law;
  if (!name) {
    throw InputError({path, 0, 0}, "no law given: add 'law: NAME' to the file or pass --law NAME");
  }
  const LawEntry* entry = find_law(*name);
  if (entry == nullptr) throw InputError({path, 0, 0}, unknown_law_message(*name));
  return *entry;
}

std::vector<LawAnswer> solve_laws(std::span<const LawEntry* const> laws,
                                  const ImpactProblem& problem) {
  std::vector<LawAnswer> answers;
  if (!laws.empty()) {
    for (const LawEntry* law : laws) answers.push_back({law, solve_impact(*law, problem)});
    return answers;
  }
  for (const LawEntry& law : impact_laws()) {
    ImpactResult result = solve_impact(law, problem);
    if (result.status != ImpactStatus::unsupported) answers.push_back({&law, std::move(result)});
  }
  return answers;
}

std::string problem_title(const ImpactProblemFile& file, std::string_view path) {
  return file.name.empty() ? std::string(path) : file.name;
}

void write_warnings(JsonWriter& json, const ImpactProblemFile& file) {
  json.key("warnings");
  json.begin_array();
  for (const std::string& warning : file.warnings) json.value(warning);
  json.end_array();
}

void write_impact_members(JsonWriter& json, std::string_view law, const ImpactProblemFile& file,
                          const ImpactResult& result) {
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
}

void write_impact_report(std::ostream& out, std::string_view law, const ImpactProblemFile& file,
                         const ImpactResult& result) {
  JsonWriter json(out);
  json.begin_object();
  write_impact_members(json, law, file, result);
  write_warnings(json, file);
  json.end_object();
}

void write_comparison(std::ostream& out, std::string_view title, const ImpactProblemFile& file,
                      std::span<const LawAnswer> answers) {
  JsonWriter json(out);
  json.begin_object();
  json.key("problem");
  json.value(title);
  json.key("results");
  json.begin_array();
  for (const LawAnswer& answer : answers) {
    json.begin_object();
    write_impact_members(json, answer.law->name, file, answer.result);
    json.end_object();
  }
  json.end_array();
  write_warnings(json, file);
  json.end_object();
}

}  // namespace routh::cli
