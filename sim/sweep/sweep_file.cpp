#include "sim/sweep/sweep_file.hpp"

#include <yaml-cpp/yaml.h>

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <set>
#include <string_view>

#include "sim/scenario/input_file.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/scenario/yaml_input.hpp"
#include "sim/sweep/sweep_draws.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

constexpr double kMaxGridCount = 1e7;

constexpr std::array<std::string_view, 4> kTopKeys = {"base", "grid", "random", "output"};
constexpr std::array<std::string_view, 3> kRangeKeys = {"from", "to", "count"};
constexpr std::array<std::string_view, 3> kRandomKeys = {"runs", "seed", "keys"};
constexpr std::array<std::string_view, 3> kOutputKeys = {"file", "trajectories", "csv"};
constexpr std::array<std::string_view, 4> kDistributions = {"uniform", "normal", "lognormal",
                                                            "choice"};

// Any YAML value as one line of flow-style YAML, which reads back as the same value.
std::string flow_text(const YAML::Node& node) {
  YAML::Emitter out;
  out.SetMapFormat(YAML::Flow);
  out.SetSeqFormat(YAML::Flow);
  out << node;
  return out.c_str();
}

// An integer in [low, high].
std::int64_t read_integer_in(const InputNode& node, double low, double high) {
  const double value = read_number(node);
  if (value != std::floor(value) || value < low || value > high) {
    throw node.error(cat("must be an integer in [", low, ", ", high, "]"));
  }
  return static_cast<std::int64_t>(value);
}

bool read_flag(const InputNode& node) {
  bool value = false;
  if (!node.yaml().IsScalar() || !YAML::convert<bool>::decode(node.yaml(), value)) {
    throw node.error("expected true or false");
  }
  return value;
}

std::optional<double> as_number(const InputNode& node) {
  try {
    return read_number(node);
  } catch (const InputError&) {
    return std::nullopt;
  }
}

GridRange read_range(const InputNode& range) {
  check_keys(range, kRangeKeys);
  const double from = read_number(range.required("from"));
  const double to = read_number(range.required("to"));
  const InputNode count_node = range.required("count");
  const std::int64_t count = read_integer_in(count_node, 1, kMaxGridCount);
  if (count == 1 && from != to) {
    throw count_node.error("a range of one value needs from = to; give a list instead");
  }
  return {from, to, count};
}

GridAxis read_axis(const std::string& key, const InputNode& node) {
  GridAxis axis{key, node.location(), {}, std::nullopt, true};
  if (node.yaml().IsMap()) {
    axis.range = read_range(node);
    return axis;
  }
  if (!node.yaml().IsSequence() || node.yaml().size() == 0) {
    throw node.error("expected a non-empty list of values or a range {from, to, count}");
  }
  for (const InputNode& item : node.items()) {
    if (const std::optional<double> number = as_number(item)) {
      axis.values.emplace_back(*number);
    } else {
      axis.values.emplace_back(flow_text(item.yaml()));
      axis.numeric = false;
    }
  }
  // a column is one type: numbers written beside text become text
  if (!axis.numeric) {
    const std::vector<InputNode> items = node.items();
    for (std::size_t i = 0; i < items.size(); ++i) axis.values[i] = flow_text(items[i].yaml());
  }
  return axis;
}

// [a, b]: two numbers.
std::pair<double, double> read_pair(const InputNode& node, std::string_view what) {
  if (!node.yaml().IsSequence() || node.yaml().size() != 2) {
    throw node.error(cat("expected [", what, "]"));
  }
  const std::vector<InputNode> items = node.items();
  return {read_number(items[0]), read_number(items[1])};
}

RandomKey read_random_key(const std::string& key, const InputNode& node) {
  RandomKey random{key, node.location(), Distribution::uniform, 0.0, 0.0, {}};
  if (!node.yaml().IsMap() || node.yaml().size() != 1) {
    throw node.error(
        "expected one distribution: {uniform: [a, b]}, {normal: [mean, sd]}, "
        "{lognormal: [mu, sigma]} or {choice: [values...]}");
  }
  check_keys(node, kDistributions);
  const auto [name, parameters] = node.entries().front();
  if (name == "choice") {
    random.distribution = Distribution::choice;
    if (!parameters.yaml().IsSequence() || parameters.yaml().size() == 0) {
      throw parameters.error("expected a non-empty list of values");
    }
    for (const InputNode& item : parameters.items())
      random.choices.push_back(flow_text(item.yaml()));
    return random;
  }
  if (name == "uniform") {
    std::tie(random.a, random.b) = read_pair(parameters, "low, high");
    if (!(random.a < random.b)) throw parameters.error("needs low < high");
  } else {
    random.distribution = name == "normal" ? Distribution::normal : Distribution::lognormal;
    std::tie(random.a, random.b) = read_pair(
        parameters, name == "normal" ? "mean, standard deviation" : "mu, sigma (of the log)");
    if (!(random.b > 0.0)) throw parameters.error("the spread (second value) must be > 0");
  }
  return random;
}

void read_random(const InputNode& node, SweepPlan& plan) {
  check_keys(node, kRandomKeys);
  plan.draws_per_point =
      read_integer_in(node.required("runs"), 1, static_cast<double>(kMaxSweepRuns));
  // 2⁶³ − 1024: the largest double below 2⁶³, so the conversion to int64 is exact
  plan.seed =
      static_cast<std::uint64_t>(read_integer_in(node.required("seed"), 0, 0x1.fffffffffffffp62));
  const InputNode keys = node.required("keys");
  if (!keys.yaml().IsMap() || keys.yaml().size() == 0) {
    throw keys.error("expected a map of scenario keys to distributions");
  }
  for (const auto& [key, value] : keys.entries())
    plan.random.push_back(read_random_key(key, value));
}

void read_output(const InputNode& node, SweepPlan& plan) {
  check_keys(node, kOutputKeys);
  if (const auto file = node.find("file")) plan.output.file = read_string(*file);
  if (const auto trajectories = node.find("trajectories")) {
    plan.output.trajectories = read_flag(*trajectories);
  }
  if (const auto csv = node.find("csv")) plan.output.csv = read_flag(*csv);
}

void check_distinct_keys(const SweepPlan& plan) {
  std::set<std::string> seen;
  for (const GridAxis& axis : plan.grid) seen.insert(axis.key);
  for (const RandomKey& random : plan.random) {
    if (seen.contains(random.key)) {
      throw InputError(random.location,
                       cat(random.key, " is already in the grid: sweep a key one way"));
    }
  }
}

// The shortest text that reads back as exactly `value` (0.2, not 0.20000000000000001).
std::string number_text(double value) {
  std::array<char, 32> text{};
  const auto written = std::to_chars(text.data(), text.data() + text.size(), value);
  return std::string(text.data(), written.ptr);
}

SweepValue draw(const RandomKey& random, std::mt19937_64& generator) {
  switch (random.distribution) {
    case Distribution::uniform: return random.a + (random.b - random.a) * uniform_unit(generator);
    case Distribution::normal: return random.a + random.b * standard_normal(generator);
    case Distribution::lognormal: return std::exp(random.a + random.b * standard_normal(generator));
    case Distribution::choice: {
      const auto n = random.choices.size();
      const auto index = std::min(
          n - 1, static_cast<std::size_t>(uniform_unit(generator) * static_cast<double>(n)));
      return random.choices[index];
    }
  }
  throw std::logic_error("unknown distribution");
}

}  // namespace

std::int64_t GridAxis::size() const {
  return range ? range->count : static_cast<std::int64_t>(values.size());
}

SweepValue GridAxis::value(std::int64_t i) const {
  if (!range) return values[static_cast<std::size_t>(i)];
  // the last value is `to` itself, not from + (to − from) rounded
  if (i + 1 == range->count) return range->to;
  return range->from +
         (range->to - range->from) * static_cast<double>(i) / static_cast<double>(range->count - 1);
}

std::int64_t SweepPlan::grid_points() const {
  std::int64_t points = 1;
  for (const GridAxis& axis : grid) points *= axis.size();
  return points;
}

SweepPlan read_sweep_file(const std::string& path) {
  SweepPlan plan;
  plan.sweep_path = path;
  plan.sweep_text = read_input_file(path, kSweepInput);
  const InputNode root = parse_yaml_text(plan.sweep_text, path);
  if (!root.yaml().IsMap())
    throw root.error("must be a map of sweep keys (base, grid, random, output)");
  check_keys(root, kTopKeys);
  const InputNode base = root.required("base");
  plan.base_location = base.location();
  const std::filesystem::path base_path = read_string(base);
  plan.base_path =
      (base_path.is_absolute() ? base_path : std::filesystem::path(path).parent_path() / base_path)
          .string();
  // one that is there but not a regular file is refused, by its type, when it is read
  if (!std::filesystem::exists(plan.base_path)) {
    throw base.error(cat("no scenario file at ", plan.base_path));
  }
  const std::optional<InputNode> excitation =
      load_yaml_file(plan.base_path, kScenarioInput).find("excitation");
  plan.base_is_excited =
      excitation && !(excitation->yaml().IsScalar() && excitation->yaml().Scalar() == "none");
  std::int64_t points = 1;
  if (const auto grid = root.find("grid")) {
    if (!grid->yaml().IsMap() || grid->yaml().size() == 0) {
      throw grid->error("expected a map of scenario keys to value lists or ranges");
    }
    for (const auto& [key, values] : grid->entries()) {
      plan.grid.push_back(read_axis(key, values));
      // each factor is at most 1e7 and the product so far at most kMaxSweepRuns: no overflow
      points *= plan.grid.back().size();
      if (points > kMaxSweepRuns) {
        const InputNode at = values.yaml().IsMap() ? values.required("count") : values;
        throw at.error(cat("the grid has ", points, " points, more than the ", kMaxSweepRuns,
                           " runs a sweep may have"));
      }
    }
  }
  if (const auto random = root.find("random")) read_random(*random, plan);
  if (plan.grid.empty() && plan.random.empty()) {
    throw root.error("nothing to sweep: give a grid, random draws or both");
  }
  if (plan.run_count() > kMaxSweepRuns) {
    throw root.required("random").required("runs").error(
        cat("the sweep has ", plan.run_count(), " runs (", points, " grid points × ",
            plan.draws_per_point, " draws), more than the ", kMaxSweepRuns, " a sweep may have"));
  }
  check_distinct_keys(plan);
  plan.output.file = std::filesystem::path(path).stem().string() + ".h5";
  if (const auto output = root.find("output")) read_output(*output, plan);
  return plan;
}

std::vector<std::string> swept_keys(const SweepPlan& plan) {
  std::vector<std::string> keys;
  for (const GridAxis& axis : plan.grid) keys.push_back(axis.key);
  for (const RandomKey& random : plan.random) keys.push_back(random.key);
  return keys;
}

std::vector<InputLocation> swept_key_locations(const SweepPlan& plan) {
  std::vector<InputLocation> locations;
  for (const GridAxis& axis : plan.grid) locations.push_back(axis.location);
  for (const RandomKey& random : plan.random) locations.push_back(random.location);
  return locations;
}

std::vector<bool> swept_key_is_numeric(const SweepPlan& plan) {
  std::vector<bool> numeric;
  for (const GridAxis& axis : plan.grid) numeric.push_back(axis.numeric);
  for (const RandomKey& random : plan.random) {
    numeric.push_back(random.distribution != Distribution::choice);
  }
  return numeric;
}

std::vector<SweepValue> run_values(const SweepPlan& plan, std::int64_t run) {
  std::vector<SweepValue> values(plan.grid.size());
  // the grid point's index in mixed radix, the last axis the fastest digit
  std::int64_t point = run / plan.draws_per_point;
  for (std::size_t k = plan.grid.size(); k-- > 0;) {
    const std::int64_t size = plan.grid[k].size();
    values[k] = plan.grid[k].value(point % size);
    point /= size;
  }
  if (!plan.random.empty()) {
    std::mt19937_64 generator = run_generator(plan.seed, run);
    for (const RandomKey& random : plan.random) values.push_back(draw(random, generator));
  }
  return values;
}

std::vector<std::string> run_overrides(const SweepPlan& plan, std::span<const SweepValue> values) {
  const std::vector<std::string> keys = swept_keys(plan);
  std::vector<std::string> overrides;
  for (std::size_t k = 0; k < keys.size(); ++k) {
    const std::string text = std::holds_alternative<double>(values[k])
                                 ? number_text(std::get<double>(values[k]))
                                 : std::get<std::string>(values[k]);
    overrides.push_back(cat(keys[k], "=", text));
  }
  return overrides;
}

std::vector<std::string> check_first_run(const SweepPlan& plan) {
  const std::vector<std::string> overrides = run_overrides(plan, run_values(plan, 0));
  try {
    const Scenario first = load_scenario(plan.base_path, overrides);
    std::vector<std::string> bodies;
    for (const OverturnWatch& watch : first.settings.overturn_watch) bodies.push_back(watch.body);
    return bodies;
  } catch (const InputError& error) {
    const std::vector<InputLocation> locations = swept_key_locations(plan);
    for (std::size_t k = 0; k < overrides.size(); ++k) {
      if (error.location().file == cat("--set ", overrides[k])) {
        throw InputError(locations[k], cat("run 0 sets ", overrides[k], " in ", plan.base_path,
                                           ": ", error.message()));
      }
    }
    throw;
  }
}

}  // namespace routh
