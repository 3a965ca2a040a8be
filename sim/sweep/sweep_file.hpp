#pragma once
// Sweep files (docs/sweeps.md, "The sweep file"): a base scenario and the values some of its keys
// take over many runs. Every bad input is an InputError naming the sweep file, line and column.
//
//   base: rocking_block.yaml          # the scenario, relative to this file
//   set: {duration: 6, contact.friction: 3}   # every run's fixed overrides, not columns
//   grid:                             # every combination, the LAST key varying fastest
//     excitation.0.harmonic.amplitude: {from: 0.5, to: 5.0, count: 10}   # linear, ends included
//     excitation.0.harmonic.frequency: [1, 2, 4]                          # a list of values
//   random:                           # Monte Carlo draws
//     runs: 100                       # draws per grid point (per sweep without a grid)
//     seed: 7                         # the draws depend on (seed, run index) only
//     keys:
//       model.width: {uniform: [0.1, 0.3]}         # [a, b), a < b
//       contact.restitution: {normal: [0.5, 0.05]} # [mean, standard deviation > 0]
//       model.mass: {lognormal: [0.0, 0.25]}       # [μ, σ > 0] OF THE LOG: value = exp(μ + σ z)
//       excitation.0.record.file: {choice: [a.AT2, b.AT2]}   # any YAML values, equally likely
//   output: {file: spectrum.h5, trajectories: false, csv: false}
//
// Runs. With a grid of G points and `random.runs` = R, the sweep has G × R runs: run index
// i = g × R + r is draw r at grid point g (so each grid point gets R draws); without a random
// part R = 1, without a grid G = 1. A key may be in the grid or in random, not both. Each run
// loads the base scenario with one `--set key=value` override per swept key, as `routh run`
// does, so key paths are the same (list indices included: `excitation.0.pulse.amplitude`).
// Numbers are passed in their shortest form that reads back exactly (std::to_chars), so the
// scenario gets exactly the value in the table.
//
// Units. A number in a range, a list or a uniform or normal distribution may be an acceleration
// in g ("0.3 g", g = 9.80665 m/s², kGravityUnit_m_s2): the column and the scenario get it in
// m/s², and the column's unit says so. Choice values stay text, passed as written.
//
// Rocking-block pulse ratios (Zhang & Makris 2001, "Rocking response of free-standing blocks
// under cycloidal pulses"): a swept `excitation.N.pulse.frequency_ratio` = ω_p / p or
// `excitation.N.pulse.amplitude_ratio` = a_p / (g tan α) is no scenario key; each run sets the
// pulse's `period` = 2π / (ratio p) [s] or `amplitude` = ratio g tan α [m/s²] instead, with
// p = √(3 g / 4 R) and tan α = b / h of the base model (after `set`), a uniform block of width
// 2b and height 2h (R = √(b² + h²)) on a floor: a `rocking_block`, or one free body of `bodies:`
// with a rectangle shape and the uniform inertia; and g its model.gravity. The table keeps the
// ratio's column and adds the physical key's after the swept ones. Model keys cannot be swept
// beside a ratio (p and tan α are the base's).
//
// Ranges: grid count in [1, 1e7]; a one-point range needs from = to; random.runs in [1, 1e9];
// the number of runs (the product of the counts and list lengths, times random.runs) at most
// kMaxSweepRuns, refused at the count, list or runs that passes it before anything is allocated
// or run; seed an integer in [0, 2⁶³). The file itself: see kSweepInput (input_file.hpp).

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "sim/scenario/yaml_input.hpp"

namespace routh {

/// The most runs a sweep may have.
inline constexpr std::int64_t kMaxSweepRuns = 1'000'000'000;

/// A swept key's value in one run: a number, or any other YAML value as its flow-style text.
using SweepValue = std::variant<double, std::string>;

/// {from, to, count}: count evenly spaced values, both ends included.
struct GridRange {
  double from = 0.0;
  double to = 0.0;
  std::int64_t count = 1;
};

/// A grid key and its values, in order: a range's are computed when asked for, so that a long
/// range costs no memory.
struct GridAxis {
  std::string key;
  InputLocation location;          ///< of the key in the sweep file
  std::vector<SweepValue> values;  ///< a list's values; empty for a range
  std::optional<GridRange> range;
  bool numeric = true;  ///< every value a number: a float64 column, otherwise text
  std::string unit;     ///< "m/s^2" when a value was given in g, otherwise ""

  std::int64_t size() const;
  /// Value `i`, 0 ≤ i < size().
  SweepValue value(std::int64_t i) const;
};

enum class Distribution { uniform, normal, lognormal, choice };

/// A randomly drawn key.
struct RandomKey {
  std::string key;
  InputLocation location;
  Distribution distribution = Distribution::uniform;
  double a = 0.0;  ///< uniform low, normal mean, lognormal μ (of the log)
  double b = 0.0;  ///< uniform high, normal standard deviation, lognormal σ (of the log)
  std::vector<std::string> choices;  ///< choice: the values as flow-style YAML text
  std::string unit;                  ///< "m/s^2" when a parameter was given in g, otherwise ""
};

/// A fixed override of `set:`, applied to every run before the swept keys; not a column.
struct SetKey {
  std::string key;
  InputLocation location;  ///< of its value in the sweep file
  std::string value;       ///< as flow-style YAML text
};

/// The scales that turn a rocking block's pulse ratios into physical values (Zhang & Makris
/// 2001): its frequency parameter p = √(3 g / 4 R) [rad/s] and the uplift acceleration g tan α
/// [m/s²], both with the model's gravity g.
struct RockingScales {
  double p = 0.0;
  double g_tan_alpha = 0.0;
};

/// A pulse key that a swept ratio sets in each run.
struct DerivedKey {
  std::string key;        ///< the scenario key set, e.g. excitation.0.pulse.period
  std::string unit;       ///< its column's unit
  std::size_t ratio = 0;  ///< the swept ratio's index in the swept keys (grid, then random)
  bool frequency = true;  ///< a frequency ratio (the period), otherwise an amplitude ratio
};

struct SweepOutput {
  std::filesystem::path file;  ///< relative: to the working directory, as a scenario's output
  bool trajectories = false;   ///< one trajectory file per run, in "<file stem>_runs/"
  bool csv = false;            ///< the table also as "<file stem>.csv"
};

struct SweepPlan {
  std::string sweep_path;  ///< as given
  std::string sweep_text;  ///< the sweep file's text
  std::string base_path;   ///< the base scenario, resolved against the sweep file's folder
  InputLocation base_location;
  /// The base scenario has an `excitation`: the table has the ground motion's columns
  /// (sweep_run.hpp).
  bool base_is_excited = false;
  std::vector<SetKey> set;
  std::vector<GridAxis> grid;
  std::int64_t draws_per_point = 1;  ///< random.runs, or 1
  std::uint64_t seed = 0;
  std::vector<RandomKey> random;
  std::vector<DerivedKey> derived;
  RockingScales rocking;  ///< the base model's, when `derived` is not empty
  SweepOutput output;
  /// The bodies run 0's scenario watches (OverturnWatch), in order: one set of per-body columns
  /// each (sweep_run.hpp). As check_first_run returns them; none until they are set.
  std::vector<std::string> watched_bodies;

  std::int64_t grid_points() const;
  std::int64_t run_count() const { return grid_points() * draws_per_point; }
};

/// Reads and checks a sweep file (not yet the scenarios it makes: see check_first_run).
SweepPlan read_sweep_file(const std::string& path);

/// The swept keys in table order: the grid's, then random's, each as written, then the keys
/// derived from pulse ratios.
std::vector<std::string> swept_keys(const SweepPlan& plan);
/// Where each swept key is written in the sweep file, in the order of swept_keys.
std::vector<InputLocation> swept_key_locations(const SweepPlan& plan);
/// Whether each swept key's column holds numbers (float64) or text, in the order of swept_keys.
std::vector<bool> swept_key_is_numeric(const SweepPlan& plan);
/// The unit of each swept key's column ("" when none is known), in the order of swept_keys.
std::vector<std::string> swept_key_units(const SweepPlan& plan);

/// The values of run `run` (0 ≤ run < run_count()), in the order of swept_keys.
std::vector<SweepValue> run_values(const SweepPlan& plan, std::int64_t run);

/// The scenario overrides of a run: "key=value", those of `set` first, then the swept keys in
/// the order of swept_keys (a pulse ratio gives none: its derived key does).
std::vector<std::string> run_overrides(const SweepPlan& plan, std::span<const SweepValue> values);

/// Loads the scenario of run 0, so that a typo in a key, a value the scenario refuses or a bad
/// base fails before any run starts. An error caused by a set or swept key's value is reported
/// at that key in the sweep file ("sweep.yaml:4:3: run 0 sets ..."), one caused by a derived key
/// at its ratio, others where they are. Returns the bodies run 0 watches, for
/// SweepPlan::watched_bodies.
std::vector<std::string> check_first_run(const SweepPlan& plan);

}  // namespace routh
