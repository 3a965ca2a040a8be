// Sweeps for earthquake studies (docs/sweeps.md): the `set` block of fixed overrides, values in g,
// the rocking block's pulse ratios of Zhang & Makris (2001, "Rocking response of free-standing
// blocks under cycloidal pulses") turned into the pulse's period and amplitude, and the CSV's
// reals in their shortest exact form (with ".0" when that looks like an integer).

#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "sim/recorder/sweep_table.hpp"
#include "sim/scenario/yaml_input.hpp"
#include "sim/sweep/sweep.hpp"
#include "sim/sweep/sweep_file.hpp"
#include "sim/sweep/sweep_run.hpp"
#include "sim/text.hpp"
#include "support/scratch_files.hpp"

namespace routh {
namespace {

using test::scratch;
using test::write_problem;

// The standard gravity of the `g` unit (ISO 80000-3), written out here rather than taken from
// routh, and the models' default gravity, which the ratios use.
constexpr double kStandardGravity = 9.80665;
constexpr double kModelGravity = 9.81;

// A block 2b × 2h = 0.2 m × 1.0 m under one cycle of a sine pulse: tan α = 0.2.
std::string pulse_block(const std::string& model_extra = "") {
  return cat(
      "duration: 2\n"
      "model: {type: rocking_block, width: 0.2, height: 1.0, mass: 1.0",
      model_extra,
      "}\n"
      "initial: {q: {theta: 0}}\n"
      "contact: {law: poisson, multi_contact_law: multipoint_energetic, restitution: 0.0,\n"
      "          friction: 3}\n"
      "excitation:\n"
      "  - pulse: {shape: sine, amplitude: 3.0, period: 0.5, direction: x, start: 0.1}\n"
      "output: {rate: 50}\n");
}

// The same block as one free body of `bodies:` on a floor, with `body_extra` in its map.
std::string free_rectangle(const std::string& body_extra = "") {
  return cat(
      "duration: 2\n"
      "model:\n"
      "  bodies: [{name: block, mass: 1.0, shape: {rectangle: {width: 0.2, height: 1.0}}",
      body_extra,
      "}]\n"
      "  obstacles: [{type: floor, position: 0}]\n"
      "initial: {q: {block.x: 0, block.y: 0.5, block.theta: 0}}\n"
      "contact: {law: poisson, multi_contact_law: multipoint_energetic, restitution: 0.0,\n"
      "          friction: 3}\n"
      "excitation:\n"
      "  - pulse: {shape: sine, amplitude: 3.0, period: 0.5, direction: x, start: 0.1}\n");
}

// Writes the base (pulse.yaml) and the sweep `name`; returns the sweep's plan.
SweepPlan study(const std::string& name, const std::string& sweep,
                const std::string& base = pulse_block()) {
  write_problem(base, "pulse.yaml");
  return read_sweep_file(write_problem(cat("base: pulse.yaml\n", sweep), name));
}

// The error read_sweep_file + check_first_run raise for `sweep`.
InputError study_error(const std::string& sweep, const std::string& base = pulse_block()) {
  try {
    check_first_run(study("bad_study.yaml", sweep, base));
  } catch (const InputError& error) {
    return error;
  }
  FAIL("no error for ", sweep);
  return InputError({}, "");
}

std::size_t column_of(const std::vector<TableColumn>& columns, const std::string& name) {
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (columns[c].name == name) return c;
  }
  FAIL("no column ", name);
  return 0;
}

double value(const SweepPlan& plan, std::int64_t run, std::size_t key) {
  return std::get<double>(run_values(plan, run)[key]);
}

// The CSV's lines split at commas (the test tables hold no quoted text).
std::vector<std::vector<std::string>> csv_cells(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::istringstream fields(line);
    for (std::string cell; std::getline(fields, cell, ',');) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.emplace_back();
    rows.push_back(cells);
  }
  return rows;
}

}  // namespace

TEST_CASE("sweep set: fixed overrides come first in every run and are not columns") {
  const SweepPlan plan = study("set.yaml",
                               "set: {duration: 1.5, contact.friction: {static: 2, kinetic: 1.5}}\n"
                               "grid: {excitation.0.pulse.amplitude: [2.0, 4.0]}\n");
  const std::vector<std::string> overrides = run_overrides(plan, run_values(plan, 1));
  REQUIRE(overrides.size() == 3);
  CHECK(overrides[0] == "duration=1.5");
  CHECK(overrides[1] == "contact.friction={static: 2, kinetic: 1.5}");
  CHECK(overrides[2] == "excitation.0.pulse.amplitude=4");
  const std::vector<TableColumn> columns = sweep_columns(plan);
  CHECK(columns[1].name == "excitation.0.pulse.amplitude");
  CHECK(columns[2].name == "status");
  check_first_run(plan);
}

TEST_CASE("sweep set: a key also swept and a refused value are errors at the set key") {
  struct Case {
    const char* what;
    std::string sweep;
    int line, column;
    const char* says;
  };
  const std::vector<Case> cases = {
      {"set and swept", "set: {duration: 3}\ngrid: {duration: [1, 2]}\n", 2, 17,
       "duration is already in the grid"},
      {"set and drawn",
       "set:\n  contact.restitution: 0.2\n"
       "random: {runs: 2, seed: 1, keys: {contact.restitution: {uniform: [0, 0.5]}}}\n",
       3, 24, "already in random"},
      {"refused value", "set:\n  duration: -1\ngrid: {excitation.0.pulse.amplitude: [2.0]}\n", 3,
       13, "run 0 sets duration=-1"},
      {"not a map", "set: [duration, 2]\ngrid: {duration: [1]}\n", 2, 6, "map of scenario keys"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    const InputError error = study_error(c.sweep);
    CHECK(std::filesystem::path(error.location().file).filename() == "bad_study.yaml");
    CHECK(error.location().line == c.line);
    CHECK(error.location().column == c.column);
    CHECK_MESSAGE(std::string(error.what()).find(c.says) != std::string::npos, error.what());
  }
}

TEST_CASE("sweep units: accelerations in g become m/s^2 columns and overrides") {
  const SweepPlan plan = study(
      "in_g.yaml",
      "grid:\n"
      "  excitation.0.pulse.amplitude: {from: 0.1 g, to: 1.0 g, count: 10}\n"
      "  excitation.0.pulse.start: [0.1, 0.2]\n"
      "random: {runs: 3, seed: 5, keys: {excitation.0.pulse.period: {uniform: [0.4, 0.6]}}}\n");
  const std::vector<TableColumn> columns = sweep_columns(plan);
  CHECK(columns[column_of(columns, "excitation.0.pulse.amplitude")].unit == "m/s^2");
  CHECK(columns[column_of(columns, "excitation.0.pulse.start")].unit.empty());
  // run 6 × 9 is amplitude 9 of 10: `to` itself, 1.0 g
  CHECK(value(plan, 0, 0) == 0.1 * kStandardGravity);
  CHECK(value(plan, 6 * 9, 0) == 1.0 * kStandardGravity);
  CHECK(
      value(plan, 6 * 3, 0) ==
      doctest::Approx(0.4 * kStandardGravity).epsilon(4 * std::numeric_limits<double>::epsilon()));
  CHECK(run_overrides(plan, run_values(plan, 0))[0] ==
        cat("excitation.0.pulse.amplitude=", round_trip(0.1 * kStandardGravity)));

  const SweepPlan listed =
      study("listed_g.yaml", "grid: {excitation.0.pulse.amplitude: [0.1 g, 2.5]}\n");
  CHECK(sweep_columns(listed)[1].unit == "m/s^2");
  CHECK(value(listed, 0, 0) == 0.1 * kStandardGravity);
  CHECK(value(listed, 1, 0) == 2.5);

  const SweepPlan drawn = study("drawn_g.yaml",
                                "random: {runs: 50, seed: 9, keys: {excitation.0.pulse.amplitude: "
                                "{normal: [0.3 g, 0.01 g]}, excitation.0.pulse.start: {uniform: "
                                "[0.1 g, 0.2 g]}}}\n");
  const std::vector<TableColumn> drawn_columns = sweep_columns(drawn);
  CHECK(drawn_columns[1].unit == "m/s^2");
  // the normal's mean and spread in m/s²: 50 draws average within 5 standard errors of the mean
  double sum = 0.0;
  for (std::int64_t run = 0; run < 50; ++run) {
    sum += value(drawn, run, 0);
    const double start = value(drawn, run, 1);
    CHECK((start >= 0.1 * kStandardGravity && start < 0.2 * kStandardGravity));
  }
  CHECK(std::abs(sum / 50 - 0.3 * kStandardGravity) < 5 * 0.01 * kStandardGravity / std::sqrt(50));

  // a unit other than g is text, which the scenario refuses at the grid key
  const InputError wrong = study_error("grid: {excitation.0.pulse.amplitude: [0.1 m]}\n");
  CHECK(wrong.location().line == 2);
  CHECK(std::string(wrong.what()).find("run 0 sets") != std::string::npos);
  const InputError range =
      study_error("grid: {excitation.0.pulse.amplitude: {from: 0.1 gee, to: 1 g, count: 2}}\n");
  CHECK(range.location().line == 2);
  CHECK(std::string(range.what()).find("acceleration in g") != std::string::npos);
}

TEST_CASE("sweep ratios: frequency and amplitude ratios give the closed-form pulse") {
  // Zhang & Makris (2001): ω_p = (ω_p / p) p, T_p = 2π / ω_p; a_p = (a_p / g tan α) g tan α,
  // with p = √(3 g / 4 R), R = √(b² + h²), tan α = b / h for the half-width b and half-height h.
  const auto check_scales = [](const SweepPlan& plan, double b, double h, double g) {
    const double p = std::sqrt(3.0 * g / (4.0 * std::sqrt(b * b + h * h)));
    const std::vector<std::string> keys = swept_keys(plan);
    REQUIRE(keys.size() == 4);
    CHECK(keys[2] == "excitation.0.pulse.period");
    CHECK(keys[3] == "excitation.0.pulse.amplitude");
    const std::vector<TableColumn> columns = sweep_columns(plan);
    CHECK(columns[3].unit == "s");
    CHECK(columns[4].unit == "m/s^2");
    for (std::int64_t run = 0; run < plan.run_count(); ++run) {
      const std::vector<SweepValue> values = run_values(plan, run);
      const double frequency_ratio = std::get<double>(values[0]);
      const double amplitude_ratio = std::get<double>(values[1]);
      CHECK(std::get<double>(values[2]) ==
            doctest::Approx(2.0 * std::numbers::pi / (frequency_ratio * p)).epsilon(1e-14));
      CHECK(std::get<double>(values[3]) ==
            doctest::Approx(amplitude_ratio * g * b / h).epsilon(1e-14));
      // the ratios are no scenario keys: the run sets the period and amplitude
      const std::vector<std::string> overrides = run_overrides(plan, values);
      REQUIRE(overrides.size() == plan.set.size() + 2);
      CHECK(overrides[plan.set.size()].starts_with("excitation.0.pulse.period="));
    }
  };
  const std::string grid =
      "grid:\n"
      "  excitation.0.pulse.frequency_ratio: {from: 1, to: 8, count: 3}\n"
      "  excitation.0.pulse.amplitude_ratio: [0.5, 2, 6]\n";
  check_scales(study("ratios.yaml", grid), 0.1, 0.5, kModelGravity);
  // the base after `set`: a squatter block on a lighter planet
  check_scales(study("ratios_set.yaml", "set: {model.width: 0.4, model.gravity: 3.71}\n" + grid),
               0.2, 0.5, 3.71);
  check_first_run(study("ratios.yaml", grid));
  // the same block as a free body of `bodies:`
  check_scales(study("ratios_free.yaml", grid, free_rectangle()), 0.1, 0.5, kModelGravity);
}

TEST_CASE("sweep ratios: a ratio sweep gives the outcomes of the same physical sweep") {
  const SweepPlan ratios = study("ratio_sweep.yaml",
                                 "grid:\n"
                                 "  excitation.0.pulse.frequency_ratio: [2, 4]\n"
                                 "  excitation.0.pulse.amplitude_ratio: [0.8, 3, 8]\n");
  // the physical values from the closed form, written as the user would write them
  const double b = 0.1, h = 0.5;
  const double p = std::sqrt(3.0 * kModelGravity / (4.0 * std::hypot(b, h)));
  std::string periods, amplitudes;
  for (const double ratio : {2.0, 4.0}) {
    periods += cat(periods.empty() ? "" : ", ", round_trip(2.0 * std::numbers::pi / (ratio * p)));
  }
  for (const double ratio : {0.8, 3.0, 8.0}) {
    amplitudes += cat(amplitudes.empty() ? "" : ", ", round_trip(ratio * (kModelGravity * b / h)));
  }
  const SweepPlan physical =
      study("physical_sweep.yaml", cat("grid:\n  excitation.0.pulse.period: [", periods,
                                       "]\n  excitation.0.pulse.amplitude: [", amplitudes, "]\n"));
  REQUIRE(ratios.run_count() == 6);
  REQUIRE(physical.run_count() == 6);
  const std::size_t ratio_status = status_column(ratios);
  const std::size_t physical_status = status_column(physical);
  int overturned = 0;
  for (std::int64_t run = 0; run < 6; ++run) {
    CAPTURE(run);
    const TableRow a = sweep_run(ratios, run, {});
    const TableRow b_row = sweep_run(physical, run, {});
    // the same physical values reach the scenario ...
    CHECK(std::get<double>(a[3]) == doctest::Approx(std::get<double>(b_row[1])).epsilon(1e-15));
    CHECK(std::get<double>(a[4]) == doctest::Approx(std::get<double>(b_row[2])).epsilon(1e-15));
    // ... and the outcome columns agree: status, impacts, overturned, ... (NaN equal to NaN)
    REQUIRE(a.size() - ratio_status == b_row.size() - physical_status);
    for (std::size_t c = 0; c + ratio_status < a.size(); ++c) {
      const Cell& x = a[ratio_status + c];
      const Cell& y = b_row[physical_status + c];
      const auto* real = std::get_if<double>(&x);
      CHECK(((real && std::isnan(*real) && std::isnan(std::get<double>(y))) || x == y));
    }
    overturned += std::get<std::int64_t>(a[column_of(sweep_columns(ratios), "overturned")]) == 1;
  }
  // the grid spans both outcomes: a weak pulse that does not topple it and a strong one that does
  CHECK(overturned > 0);
  CHECK(overturned < 6);
}

TEST_CASE("sweep ratios: the shipped overturning_ratios.yaml spans overturning_spectrum.yaml") {
  // overturning_spectrum.yaml lists its periods by hand, T_p = 2π / (p r) for r = 1, 1.25, ...,
  // 8 rounded to 4 decimals: the ratio sweep's periods are those to the rounding
  const std::string folder = cat(ROUTH_SOURCE_DIR, "/scenarios/sweeps/");
  const SweepPlan ratios = read_sweep_file(folder + "overturning_ratios.yaml");
  const SweepPlan spectrum = read_sweep_file(folder + "overturning_spectrum.yaml");
  check_first_run(ratios);
  REQUIRE(ratios.run_count() == 29 * 47);
  const GridAxis& periods = spectrum.grid[0];
  REQUIRE(periods.size() == 29);
  for (std::int64_t i = 0; i < 29; ++i) {
    CAPTURE(i);
    CHECK(std::abs(value(ratios, i * 47, 2) - std::get<double>(periods.value(i))) <= 0.5e-4);
  }
  // its weakest pulse, a_p = g tan α / 2, never lifts the block; its strongest at ω_p = p topples
  // it
  const std::vector<TableColumn> columns = sweep_columns(ratios);
  const TableRow weakest = sweep_run(ratios, 0, {});
  const TableRow strongest = sweep_run(ratios, 46, {});
  CHECK(std::get<std::string>(weakest[status_column(ratios)]) == "completed");
  CHECK(std::isnan(std::get<double>(weakest[column_of(columns, "uplift_time")])));
  CHECK(std::get<std::int64_t>(strongest[column_of(columns, "overturned")]) == 1);
}

TEST_CASE("sweep ratios: unsupported models, swept model keys and units are located errors") {
  const std::string ratio = "grid:\n  excitation.0.pulse.frequency_ratio: [2]\n";
  const InputError ball = study_error(
      ratio,
      "duration: 1\nmodel: {type: ball, radius: 0.1, mass: 1}\n"
      "initial: {q: {y: 0.2}}\n"
      "contact: {law: poisson, restitution: 0.5, friction: 0.5}\n"
      "excitation:\n  - pulse: {shape: sine, amplitude: 3.0, period: 0.5, direction: x}\n");
  CAPTURE(ball.what());
  CHECK(ball.location().line == 3);
  CHECK(std::string(ball.what()).find("rocking_block") != std::string::npos);
  CHECK(std::string(ball.what()).find("not this ball model") != std::string::npos);
  // a free rectangle whose inertia is not the uniform block's has another p
  const InputError heavy_top = study_error(ratio, free_rectangle(", inertia: 0.2"));
  CHECK(heavy_top.location().line == 3);
  CHECK(std::string(heavy_top.what()).find("uniform inertia") != std::string::npos);

  const InputError model = study_error(ratio + "  model.width: [0.2, 0.3]\n");
  CHECK(model.location().line == 4);
  CHECK(std::string(model.what()).find("cannot be swept beside") != std::string::npos);

  const InputError twice = study_error(ratio + "  excitation.0.pulse.period: [0.5]\n");
  CHECK(twice.location().line == 3);
  CHECK(std::string(twice.what()).find("sets excitation.0.pulse.period") != std::string::npos);

  const InputError in_g = study_error("grid:\n  excitation.0.pulse.amplitude_ratio: [0.2 g]\n");
  CHECK(in_g.location().line == 3);
  CHECK(std::string(in_g.what()).find("plain numbers") != std::string::npos);
}

TEST_CASE("sweep CSV: reals in their shortest exact form read back bit for bit") {
  const SweepPlan plan =
      study("exact.yaml", cat("set: {duration: 1}\n"
                              "grid:\n"
                              "  excitation.0.pulse.amplitude: {from: 0.1 g, to: 0.7 g, count: 4}\n"
                              "  excitation.0.pulse.start: [0.1, 0.2]\n"
                              "output: {file: ",
                              (scratch() / "exact.h5").string(), ", csv: true}\n"));
  SweepRanks ranks;
  const SweepResult result = run_sweep(plan, {1, false, true}, ranks);
  REQUIRE(result.end == SweepEnd::complete);
  const SweepTable table = read_sweep_table(scratch() / "exact.h5");
  const std::vector<std::vector<std::string>> csv = csv_cells(scratch() / "exact.csv");
  REQUIRE(csv.size() == table.rows.size() + 1);
  const std::size_t start = column_of(table.columns, "excitation.0.pulse.start");
  CHECK(csv[1][start] == "0.1");                                   // not 0.10000000000000001
  CHECK(csv[1][column_of(table.columns, "final_time")] == "1.0");  // a real, not the integer 1
  int reals = 0;
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    REQUIRE(csv[r + 1].size() == table.columns.size());
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      const auto* real = std::get_if<double>(&table.rows[r][c]);
      if (!real) continue;
      const double parsed = std::strtod(csv[r + 1][c].c_str(), nullptr);
      CAPTURE(csv[r + 1][c]);
      CHECK((std::isnan(*real) ? std::isnan(parsed)
                               : std::memcmp(real, &parsed, sizeof parsed) == 0));
      ++reals;
    }
  }
  CHECK(reals > 8 * 5);
}

}  // namespace routh
