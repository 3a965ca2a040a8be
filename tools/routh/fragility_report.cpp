#include "tools/routh/fragility_report.hpp"

#include <charconv>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <system_error>

#include "sim/json_writer.hpp"
#include "sim/text.hpp"
#include "tools/routh/study_columns.hpp"

namespace routh::cli {

namespace {

// Whether run i exceeded the limit state, or why it has no outcome.
struct OutcomeRule {
  const SweepColumn* column = nullptr;
  std::optional<double> threshold;  ///< `COLUMN>VALUE`; nothing: a 0/1 column
};

OutcomeRule outcome_rule(const SweepColumns& table, const std::string& outcome) {
  const std::size_t at = outcome.find('>');
  if (at == std::string::npos) return {&numeric_column(table, outcome, "outcome"), std::nullopt};
  const std::string_view text = std::string_view(outcome).substr(at + 1);
  double value = 0.0;
  const auto parsed = std::from_chars(text.data(), text.data() + text.size(), value);
  if (parsed.ec != std::errc() || parsed.ptr != text.data() + text.size() ||
      !std::isfinite(value)) {
    throw std::invalid_argument(
        cat("outcome '", outcome, "': '", text, "' is not a number (COLUMN>VALUE)"));
  }
  return {&numeric_column(table, outcome.substr(0, at), "outcome"), value};
}

// 1 exceeded, 0 did not, nothing: no outcome (a 0/1 column's −1 for a run that never started).
std::optional<bool> exceeded(const OutcomeRule& rule, std::size_t row) {
  const double value = rule.column->number(row);
  if (std::isnan(value)) return std::nullopt;
  if (rule.threshold) return value > *rule.threshold;
  if (value == 0.0 || value == 1.0) return value == 1.0;
  return std::nullopt;
}

void write_interval(JsonWriter& json, const char* key,
                    const std::optional<ConfidenceInterval>& interval) {
  json.key(key);
  if (!interval) return json.null();
  json.begin_array(JsonLayout::one_line);
  json.value(interval->low);
  json.value(interval->high);
  json.end_array();
}

template <typename Value>
void write_levels(JsonWriter& json, const char* key, const FragilityStudy& study, Value value) {
  json.key(key);
  json.begin_array(JsonLayout::one_line);
  for (const FragilityLevel& level : study.levels) json.value(value(level));
  json.end_array();
}

}  // namespace

FragilityStudy study_fragility(const SweepColumns& table, const FragilityRequest& request) {
  const BootstrapSettings& bootstrap = request.bootstrap;
  if (!(bootstrap.confidence > 0.0 && bootstrap.confidence < 1.0)) {
    throw std::invalid_argument(cat("confidence ", bootstrap.confidence, " is not in (0, 1)"));
  }
  if (bootstrap.replicates < 0) {
    throw std::invalid_argument(cat(bootstrap.replicates, " bootstrap replicates: negative"));
  }
  if (bootstrap.seed > kLargestSeed) {
    throw std::invalid_argument(cat("seed ", bootstrap.seed, " is above 2^53"));
  }
  const SweepColumn& im = im_column(table, request.im);
  const OutcomeRule rule = outcome_rule(table, request.outcome);
  FragilityStudy study;
  study.outcome = request.outcome;
  study.im = im.name;
  study.im_unit = im.unit;
  study.bootstrap_settings = request.bootstrap;
  RunSelection selection = runs_with_outcomes(table, im);
  std::vector<double> levels_of_runs;
  std::vector<bool> outcomes;
  for (const std::size_t row : selection.rows) {
    const std::optional<bool> outcome = exceeded(rule, row);
    if (!outcome) {
      selection.exclude(cat(rule.column->name, rule.threshold ? " NaN" : " not 0 or 1"));
      continue;
    }
    levels_of_runs.push_back(im.number(row));
    outcomes.push_back(*outcome);
  }
  study.levels = group_levels(levels_of_runs, outcomes);
  study.runs_used = static_cast<std::int64_t>(outcomes.size());
  study.excluded = selection.excluded;
  study.excluded_count = selection.excluded_count();
  study.fit = fit_lognormal_fragility(study.levels);
  if (study.fit.status == FragilityFitStatus::fitted && request.bootstrap.replicates > 0) {
    study.bootstrap = bootstrap_fragility(study.levels, request.bootstrap);
  }
  return study;
}

void write_fragility_json(std::ostream& out, const FragilityStudy& study) {
  JsonWriter json(out);
  const bool fitted = study.fit.status == FragilityFitStatus::fitted;
  json.begin_object(JsonLayout::one_line);
  json.key("outcome"), json.value(study.outcome);
  json.key("im"), json.value(study.im);
  json.key("im_unit"), json.value(study.im_unit);
  json.key("status"), json.value(to_string(study.fit.status));
  json.key("message"), json.value(explanation(study.fit.status));
  json.key("median");
  fitted ? json.value(study.fit.median) : json.null();
  json.key("beta");
  fitted ? json.value(study.fit.beta) : json.null();
  json.key("log_likelihood");
  fitted ? json.value(study.fit.log_likelihood) : json.null();
  const std::optional<FragilityBootstrap>& bootstrap = study.bootstrap;
  write_interval(json, "median_interval", bootstrap ? bootstrap->median : std::nullopt);
  write_interval(json, "beta_interval", bootstrap ? bootstrap->beta : std::nullopt);
  json.key("confidence"), json.value(study.bootstrap_settings.confidence);
  json.key("bootstrap");
  json.begin_object(JsonLayout::one_line);
  json.key("replicates"), json.value(bootstrap ? bootstrap->replicates : std::int64_t{0});
  json.key("degenerate"), json.value(bootstrap ? bootstrap->degenerate : std::int64_t{0});
  json.key("scheme");
  bootstrap ? json.value(to_string(bootstrap->scheme)) : json.null();
  json.key("seed"), json.value(static_cast<double>(study.bootstrap_settings.seed));
  json.end_object();
  write_levels(json, "levels", study, [](const FragilityLevel& level) { return level.im; });
  write_levels(json, "runs", study, [](const FragilityLevel& level) { return level.runs; });
  write_levels(json, "exceeding", study,
               [](const FragilityLevel& level) { return level.exceeding; });
  write_levels(json, "fractions", study, [](const FragilityLevel& level) {
    return static_cast<double>(level.exceeding) / static_cast<double>(level.runs);
  });
  json.key("runs_used"), json.value(study.runs_used);
  json.key("excluded"), json.value(study.excluded_count);
  json.key("excluded_by_reason");
  json.begin_object(JsonLayout::one_line);
  for (const auto& [reason, count] : study.excluded) json.key(reason), json.value(count);
  json.end_object();
  json.end_object();
}

std::string fragility_json(const std::string& path, const FragilityRequest& request) {
  std::ostringstream out;
  write_fragility_json(out, study_fragility(read_sweep_columns(path), request));
  return out.str();
}

}  // namespace routh::cli
