#include "sim/sweep/sweep_file.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <numbers>
#include <optional>
#include <string_view>

#include "sim/excitation/standard_gravity.hpp"
#include "sim/scenario/input_file.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/scenario/yaml_input.hpp"
#include "sim/sweep/sweep_draws.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

constexpr double kMaxGridCount = 1e7;

constexpr std::array<std::string_view, 5> kTopKeys = {"base", "set", "grid", "random", "output"};
constexpr std::array<std::string_view, 3> kRangeKeys = {"from", "to", "count"};
constexpr std::array<std::string_view, 3> kRandomKeys = {"runs", "seed", "keys"};
constexpr std::array<std::string_view, 3> kOutputKeys = {"file", "trajectories", "csv"};
constexpr std::array<std::string_view, 4> kDistributions = {"uniform", "normal", "lognormal",
                                                            "choice"};
// The unit of a column whose values were given in g.
constexpr std::string_view kAccelerationUnit = "m/s^2";
// The key suffixes of a rocking block's pulse ratios (sweep_file.hpp).
constexpr std::string_view kFrequencyRatio = ".pulse.frequency_ratio";
constexpr std::string_view kAmplitudeRatio = ".pulse.amplitude_ratio";
// A free body's inertia that is the uniform one to round-off (the model computes it in its own
// order of operations) is uniform.
constexpr double kUniformInertiaTolerance = 1e-12;

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

// A number, or an acceleration in g ("0.3 g") converted to m/s².
struct Quantity {
  double value = 0.0;
  bool in_g = false;
};

std::optional<Quantity> as_quantity(const InputNode& node) {
  if (const std::optional<double> number = as_number(node)) return Quantity{*number, false};
  if (const std::optional<double> in_g = number_with_unit(node, "g")) {
    return Quantity{*in_g * kGravityUnit_m_s2, true};
  }
  return std::nullopt;
}

Quantity read_quantity(const InputNode& node) {
  if (const std::optional<Quantity> quantity = as_quantity(node)) return *quantity;
  throw node.error("must be a number, or an acceleration in g (e.g. '0.3 g', g = 9.80665 m/s^2)");
}

void read_range(const InputNode& range, GridAxis& axis) {
  check_keys(range, kRangeKeys);
  const Quantity from = read_quantity(range.required("from"));
  const Quantity to = read_quantity(range.required("to"));
  const InputNode count_node = range.required("count");
  const std::int64_t count = read_integer_in(count_node, 1, kMaxGridCount);
  if (count == 1 && from.value != to.value) {
    throw count_node.error("a range of one value needs from = to; give a list instead");
  }
  axis.range = GridRange{from.value, to.value, count};
  if (from.in_g || to.in_g) axis.unit = kAccelerationUnit;
}

GridAxis read_axis(const std::string& key, const InputNode& node) {
  GridAxis axis{key, node.location(), {}, std::nullopt, true, ""};
  if (node.yaml().IsMap()) {
    read_range(node, axis);
    return axis;
  }
  if (!node.yaml().IsSequence() || node.yaml().size() == 0) {
    throw node.error("expected a non-empty list of values or a range {from, to, count}");
  }
  for (const InputNode& item : node.items()) {
    if (const std::optional<Quantity> quantity = as_quantity(item)) {
      axis.values.emplace_back(quantity->value);
      if (quantity->in_g) axis.unit = kAccelerationUnit;
    } else {
      axis.values.emplace_back(flow_text(item.yaml()));
      axis.numeric = false;
    }
  }
  // a column is one type: numbers written beside text become text, passed as written
  if (!axis.numeric) {
    const std::vector<InputNode> items = node.items();
    for (std::size_t i = 0; i < items.size(); ++i) axis.values[i] = flow_text(items[i].yaml());
    axis.unit.clear();
  }
  return axis;
}

// [a, b]: two numbers, or with `units` two quantities (in m/s² when given in g); sets `unit`
// when one was given in g.
std::pair<double, double> read_pair(const InputNode& node, std::string_view what, bool units,
                                    std::string& unit) {
  if (!node.yaml().IsSequence() || node.yaml().size() != 2) {
    throw node.error(cat("expected [", what, "]"));
  }
  const std::vector<InputNode> items = node.items();
  if (!units) return {read_number(items[0]), read_number(items[1])};
  const Quantity a = read_quantity(items[0]);
  const Quantity b = read_quantity(items[1]);
  if (a.in_g || b.in_g) unit = kAccelerationUnit;
  return {a.value, b.value};
}

RandomKey read_random_key(const std::string& key, const InputNode& node) {
  RandomKey random{key, node.location(), Distribution::uniform, 0.0, 0.0, {}, ""};
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
    std::tie(random.a, random.b) = read_pair(parameters, "low, high", true, random.unit);
    if (!(random.a < random.b)) throw parameters.error("needs low < high");
  } else {
    random.distribution = name == "normal" ? Distribution::normal : Distribution::lognormal;
    // a lognormal's parameters are those of the log of the value: numbers, not accelerations
    const bool normal = name == "normal";
    std::tie(random.a, random.b) =
        read_pair(parameters, normal ? "mean, standard deviation" : "mu, sigma (of the log)",
                  normal, random.unit);
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

void read_set(const InputNode& node, SweepPlan& plan) {
  if (!node.yaml().IsMap() || node.yaml().size() == 0) {
    throw node.error("expected a map of scenario keys to the values every run takes");
  }
  for (const auto& [key, value] : node.entries()) {
    plan.set.push_back({key, value.location(), flow_text(value.yaml())});
  }
}

// The key a swept pulse ratio sets in each run, or nothing for any other key.
std::optional<DerivedKey> derived_key(const std::string& key, std::size_t index) {
  if (key.ends_with(kFrequencyRatio)) {
    return DerivedKey{cat(key.substr(0, key.size() - kFrequencyRatio.size()), ".pulse.period"), "s",
                      index, true};
  }
  if (key.ends_with(kAmplitudeRatio)) {
    return DerivedKey{cat(key.substr(0, key.size() - kAmplitudeRatio.size()), ".pulse.amplitude"),
                      std::string(kAccelerationUnit), index, false};
  }
  return std::nullopt;
}

// Each scenario key a run takes is given one way: in the grid, in random, by a ratio or in set.
void check_distinct_keys(const SweepPlan& plan) {
  std::map<std::string, std::string> given;  // key → where it is given
  const auto give = [&](const std::string& key, const InputLocation& location,
                        const std::string& what, std::string where) {
    const auto [first, fresh] = given.emplace(key, std::move(where));
    if (!fresh) {
      throw InputError(location,
                       cat(what, " is already ", first->second, ": give each key one way"));
    }
  };
  for (const GridAxis& axis : plan.grid) give(axis.key, axis.location, axis.key, "in the grid");
  for (const RandomKey& random : plan.random) {
    give(random.key, random.location, random.key, "in random");
  }
  const std::vector<std::string> keys = swept_keys(plan);
  const std::vector<InputLocation> locations = swept_key_locations(plan);
  for (const DerivedKey& derived : plan.derived) {
    give(derived.key, locations[derived.ratio],
         cat(keys[derived.ratio], " sets ", derived.key, ", which"),
         cat("set by ", keys[derived.ratio]));
  }
  for (const SetKey& set : plan.set) give(set.key, set.location, set.key, "swept");
}

// An override of a run and where the sweep file gives it.
struct LocatedOverride {
  std::string text;  ///< "key=value"
  InputLocation location;
};

std::vector<LocatedOverride> set_overrides(const SweepPlan& plan) {
  std::vector<LocatedOverride> overrides;
  for (const SetKey& set : plan.set) {
    overrides.push_back({cat(set.key, "=", set.value), set.location});
  }
  return overrides;
}

// The set overrides, then the swept keys' (a ratio's through its derived key).
std::vector<LocatedOverride> located_overrides(const SweepPlan& plan,
                                               std::span<const SweepValue> values) {
  std::vector<LocatedOverride> overrides = set_overrides(plan);
  const std::vector<std::string> keys = swept_keys(plan);
  const std::vector<InputLocation> locations = swept_key_locations(plan);
  for (std::size_t k = 0; k < keys.size(); ++k) {
    // a ratio is no scenario key: the key derived from it is
    if (std::ranges::any_of(plan.derived, [&](const DerivedKey& d) { return d.ratio == k; })) {
      continue;
    }
    const std::string text = std::holds_alternative<double>(values[k])
                                 ? round_trip(std::get<double>(values[k]))
                                 : std::get<std::string>(values[k]);
    overrides.push_back({cat(keys[k], "=", text), locations[k]});
  }
  return overrides;
}

// The base scenario with `overrides`; an error one of them causes is reported at its key in the
// sweep file ("<who> sets KEY=VALUE in BASE: ..."), others where they are.
Scenario load_located(const SweepPlan& plan, std::span<const LocatedOverride> overrides,
                      std::string_view who) {
  std::vector<std::string> texts;
  for (const LocatedOverride& override : overrides) texts.push_back(override.text);
  try {
    return load_scenario(plan.base_path, texts);
  } catch (const InputError& error) {
    for (const LocatedOverride& override : overrides) {
      if (error.location().file == cat("--set ", override.text)) {
        throw InputError(override.location, cat(who, " sets ", override.text, " in ",
                                                plan.base_path, ": ", error.message()));
      }
    }
    throw;
  }
}

// The half-width b and half-height h of the base's uniform rectangular block standing on a
// floor: a rocking_block, or a `bodies:` model of one free body whose shape is a rectangle, with
// the uniform inertia m (w² + h²) / 12, and one obstacle, a floor; nothing for any other model.
std::optional<std::pair<double, double>> block_half_sizes(const std::string& model_type,
                                                          const YAML::Node& model) {
  if (model_type == "rocking_block") {
    return std::pair{model["width"].as<double>() / 2.0, model["height"].as<double>() / 2.0};
  }
  if (model_type != "multibody") return std::nullopt;
  const YAML::Node bodies = model["bodies"];
  const YAML::Node obstacles = model["obstacles"];
  if (bodies.size() != 1 || model["joints"].size() != 0 || obstacles.size() != 1 ||
      obstacles[0]["type"].as<std::string>() != "floor") {
    return std::nullopt;
  }
  const YAML::Node shape = bodies[0]["shape"];
  if (!shape || !shape.IsMap() || !shape["rectangle"]) return std::nullopt;
  const double width = shape["rectangle"]["width"].as<double>();
  const double height = shape["rectangle"]["height"].as<double>();
  const double uniform = bodies[0]["mass"].as<double>() * (width * width + height * height) / 12;
  if (std::abs(bodies[0]["inertia"].as<double>() - uniform) > kUniformInertiaTolerance * uniform) {
    return std::nullopt;
  }
  return std::pair{width / 2.0, height / 2.0};
}

// p and g tan α of the base model (with `set`), for the pulse ratio `key` written at `location`:
// a uniform block of width 2b and height 2h has tan α = b / h, R = √(b² + h²) and
// p = √(3 g / 4 R) (Housner 1963; Zhang & Makris 2001).
RockingScales rocking_scales(const SweepPlan& plan, const std::string& key,
                             const InputLocation& location) {
  const Scenario base = load_located(plan, set_overrides(plan), "the sweep");
  const YAML::Node model = YAML::Load(base.effective_yaml)["model"];
  const std::optional<std::pair<double, double>> half = block_half_sizes(base.model_type, model);
  if (!half) {
    throw InputError(location,
                     cat(key,
                         ": a pulse ratio needs a uniform rectangular block on a floor: a model of "
                         "type rocking_block, or of one free body with a rectangle shape, its "
                         "uniform inertia and a floor; not this ",
                         base.model_type, " model. Sweep the pulse's period and amplitude"));
  }
  const auto [b, h] = *half;
  const double g = model["gravity"].as<double>();
  if (!(g > 0.0)) {
    throw InputError(location, cat(key, ": a pulse ratio needs model.gravity > 0, not ", g));
  }
  return {std::sqrt(3.0 * g / (4.0 * std::hypot(b, h))), g * b / h};
}

// Finds the swept pulse ratios and the base block's scales they need; a ratio must be a number
// without a unit, and no model key may be swept beside it (p and tan α are the base's).
void read_derived_keys(SweepPlan& plan) {
  const std::vector<std::string> keys = swept_keys(plan);
  const std::vector<InputLocation> locations = swept_key_locations(plan);
  const std::vector<bool> numeric = swept_key_is_numeric(plan);
  const std::vector<std::string> units = swept_key_units(plan);
  for (std::size_t k = 0; k < keys.size(); ++k) {
    const std::optional<DerivedKey> derived = derived_key(keys[k], k);
    if (!derived) continue;
    if (!numeric[k] || !units[k].empty()) {
      throw InputError(locations[k], cat(keys[k], ": a ratio takes plain numbers"));
    }
    plan.derived.push_back(*derived);
  }
  if (plan.derived.empty()) return;
  const std::string& ratio = keys[plan.derived.front().ratio];
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (keys[k].starts_with("model.")) {
      throw InputError(locations[k], cat(keys[k], " cannot be swept beside ", ratio,
                                         ": a ratio's p and tan(alpha) are the base model's (set "
                                         "model keys in `set`)"));
    }
  }
  plan.rocking = rocking_scales(plan, ratio, locations[plan.derived.front().ratio]);
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
    throw root.error("must be a map of sweep keys (base, set, grid, random, output)");
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
  if (const auto set = root.find("set")) read_set(*set, plan);
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
  read_derived_keys(plan);
  check_distinct_keys(plan);
  plan.output.file = std::filesystem::path(path).stem().string() + ".h5";
  if (const auto output = root.find("output")) read_output(*output, plan);
  return plan;
}

std::vector<std::string> swept_keys(const SweepPlan& plan) {
  std::vector<std::string> keys;
  for (const GridAxis& axis : plan.grid) keys.push_back(axis.key);
  for (const RandomKey& random : plan.random) keys.push_back(random.key);
  for (const DerivedKey& derived : plan.derived) keys.push_back(derived.key);
  return keys;
}

std::vector<InputLocation> swept_key_locations(const SweepPlan& plan) {
  std::vector<InputLocation> locations;
  for (const GridAxis& axis : plan.grid) locations.push_back(axis.location);
  for (const RandomKey& random : plan.random) locations.push_back(random.location);
  for (const DerivedKey& derived : plan.derived) {
    const InputLocation ratio = locations[derived.ratio];
    locations.push_back(ratio);
  }
  return locations;
}

std::vector<bool> swept_key_is_numeric(const SweepPlan& plan) {
  std::vector<bool> numeric;
  for (const GridAxis& axis : plan.grid) numeric.push_back(axis.numeric);
  for (const RandomKey& random : plan.random) {
    numeric.push_back(random.distribution != Distribution::choice);
  }
  numeric.insert(numeric.end(), plan.derived.size(), true);
  return numeric;
}

std::vector<std::string> swept_key_units(const SweepPlan& plan) {
  std::vector<std::string> units;
  for (const GridAxis& axis : plan.grid) units.push_back(axis.unit);
  for (const RandomKey& random : plan.random) units.push_back(random.unit);
  for (const DerivedKey& derived : plan.derived) units.push_back(derived.unit);
  return units;
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
  // ω_p = ratio p, so T_p = 2π / (ratio p); a_p = ratio g tan α
  for (const DerivedKey& derived : plan.derived) {
    const double ratio = std::get<double>(values[derived.ratio]);
    values.emplace_back(derived.frequency ? 2.0 * std::numbers::pi / (ratio * plan.rocking.p)
                                          : ratio * plan.rocking.g_tan_alpha);
  }
  return values;
}

std::vector<std::string> run_overrides(const SweepPlan& plan, std::span<const SweepValue> values) {
  std::vector<std::string> overrides;
  for (LocatedOverride& override : located_overrides(plan, values)) {
    overrides.push_back(std::move(override.text));
  }
  return overrides;
}

std::vector<std::string> check_first_run(const SweepPlan& plan) {
  const Scenario first = load_located(plan, located_overrides(plan, run_values(plan, 0)), "run 0");
  std::vector<std::string> bodies;
  for (const OverturnWatch& watch : first.settings.overturn_watch) bodies.push_back(watch.body);
  return bodies;
}

}  // namespace routh
