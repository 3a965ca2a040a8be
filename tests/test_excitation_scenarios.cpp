// The scenario's `excitation` (excitation_input.hpp, docs/excitation.md) end to end: its forms
// and errors, records read from either format giving the same run, `scale` and `start` acting as
// documented, the shipped pulse and record scenarios, and /ground_acceleration in the file.

#include <doctest/doctest.h>
#include <hdf5.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

#include "sim/recorder/trajectory_summary.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/scenario/yaml_input.hpp"
#include "support/routh_process.hpp"
#include "support/scenario_run.hpp"
#include "support/scratch_files.hpp"
#include "support/trajectory_checks.hpp"

namespace routh {

namespace {

std::string number(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const std::string kBlock =
    "duration: 2\n"
    "model: {type: rocking_block, width: 0.2, height: 1.0, mass: 1.0}\n"
    "initial: {q: {theta: 0}}\n"
    "contact: {law: poisson, multi_contact_law: multipoint_energetic, restitution: 0, "
    "friction: 3}\n"
    "output: {rate: 100}\n";

std::string load_error(const std::string& excitation) {
  try {
    load_scenario(test::write_problem(kBlock + "excitation:\n" + excitation, "excited.yaml"));
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

// A motion of 100 Hz samples [g]: the test's own numbers.
std::vector<double> motion_in_g() {
  std::vector<double> values;
  for (int i = 0; i < 150; ++i) {
    const double t = 0.01 * i;
    values.push_back(0.4 * std::sin(std::numbers::pi * t / 1.5) *
                     std::sin(2.0 * std::numbers::pi * t / 0.5));
  }
  return values;
}

std::string peer_text(const std::vector<double>& values_g) {
  std::string text =
      "PEER NGA STRONG MOTION DATABASE RECORD\nSYNTHETIC TEST MOTION\n"
      "ACCELERATION TIME SERIES IN UNITS OF G\nNPTS=  " +
      std::to_string(values_g.size()) + ", DT=   .0100 SEC\n";
  for (std::size_t i = 0; i < values_g.size(); ++i) {
    text += "  " + number(values_g[i]) + ((i % 5 == 4) ? "\n" : "");
  }
  return text + "\n";
}

// time (as i · 0.01, the double PEER's i · DT gives), acceleration × factor
std::string csv_text(const std::vector<double>& values, double factor) {
  std::string text = "time,acceleration\n";
  for (std::size_t i = 0; i < values.size(); ++i) {
    text += number(static_cast<double>(i) * 0.01) + "," + number(values[i] * factor) + "\n";
  }
  return text;
}

bool same_run(const test::ScenarioRun& a, const test::ScenarioRun& b) {
  if (a.trajectory.samples.size() != b.trajectory.samples.size()) return false;
  if (a.trajectory.events.size() != b.trajectory.events.size()) return false;
  for (std::size_t i = 0; i < a.trajectory.samples.size(); ++i) {
    const auto &x = a.trajectory.samples[i], &y = b.trajectory.samples[i];
    if (x.t != y.t || x.q != y.q || x.v != y.v) return false;
  }
  for (std::size_t i = 0; i < a.trajectory.events.size(); ++i) {
    if (a.trajectory.events[i].t != b.trajectory.events[i].t) return false;
  }
  return true;
}

test::ScenarioRun run_excited(const std::string& excitation, const std::string& name) {
  return test::run_scenario_file(test::write_problem(kBlock + "excitation:\n" + excitation, name));
}

// An (N, 2) float64 dataset.
std::vector<double> read_rows(const std::string& path, const char* name, hsize_t* rows) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(file >= 0);
  const hid_t dataset = H5Dopen2(file, name, H5P_DEFAULT);
  REQUIRE(dataset >= 0);
  const hid_t space = H5Dget_space(dataset);
  hsize_t dims[2] = {0, 1};
  H5Sget_simple_extent_dims(space, dims, nullptr);
  std::vector<double> values(dims[0] * dims[1]);
  REQUIRE(H5Dread(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0);
  *rows = dims[0];
  H5Sclose(space);
  H5Dclose(dataset);
  H5Fclose(file);
  return values;
}

}  // namespace

TEST_CASE("excitation scenario: one signal or a list, amplitudes in m/s² or g, x or y") {
  const Scenario scenario = load_scenario(test::write_problem(
      kBlock + "excitation:\n"
               "  - pulse: {shape: cosine, amplitude: 0.5 g, period: 1, direction: y, start: 0}\n"
               "  - harmonic: {amplitude: -2, frequency: 1, phase: 90 deg}\n",
      "list.yaml"));
  // at t = 0: the cosine pulse's 0.5 g along y, the harmonic's −2 sin(90°) along x
  const Eigen::Vector2d a_g = scenario.planar->ground_acceleration(0.0);
  CHECK(a_g.x() == doctest::Approx(-2.0));
  CHECK(a_g.y() == 0.5 * 9.80665);
  CHECK(contains(scenario.effective_yaml, "amplitude: 4.903325"));
  // its breakpoints: the pulse's end; the harmonic lasts the run
  CHECK(scenario.settings.next_breakpoint(0.0) == 1.0);
  // the effective scenario reads back to the same text
  const Scenario again = load_scenario(test::write_problem(scenario.effective_yaml, "again.yaml"));
  CHECK(again.effective_yaml == scenario.effective_yaml);
  // no excitation: no breakpoints, no ground acceleration
  const Scenario still = load_scenario(test::write_problem(kBlock, "still.yaml"));
  CHECK(!still.settings.next_breakpoint);
  CHECK(still.excitation == nullptr);
}

TEST_CASE("excitation scenario: bad signals are errors at the value") {
  struct Bad {
    std::string excitation, expected;
  };
  const std::vector<Bad> cases = {
      {"  - pulses: {amplitude: 1, period: 1}\n",
       "excited.yaml:7:5: excitation[0]: unknown key 'pulses'; did you mean 'pulse'?"},
      {"  {pulse: {amplitude: 1, period: 1}, harmonic: {amplitude: 1, frequency: 1}}\n",
       "must hold one signal"},
      {"  - pulse: {shape: sin, amplitude: 1, period: 1}\n",
       "shape = sin: must be one of sine, cosine, ricker, rectangular, cycloidal_a, cycloidal_b, "
       "cycloidal_c, mavroeidis_papageorgiou; did you mean 'sine'?"},
      {"  - pulse: {shape: ricker, amplitude: 1, period: 1, cycles: 2}\n",
       "cycles = 2: does not apply to a ricker pulse (it takes amplitude, period, shape, "
       "direction and start)"},
      {"  - pulse: {amplitude: 0.5 G, period: 1}\n",
       "amplitude = 0.5 G: must be a number [m/s^2] or a number of g (9.80665 m/s^2), e.g. '0.3 "
       "g'"},
      {"  - pulse: {amplitude: 200 g, period: 1}\n",
       "amplitude = 200 g: is 1961.33 m/s^2: must be in [-1000, 1000] m/s^2"},
      {"  - harmonic: {amplitude: 1, frequency: 1, cycles: 0}\n", "cycles = 0: must be in (0, "},
      {"  - record: {file: nowhere.AT2}\n",
       "excited.yaml:7:20: excitation[0].record.file = nowhere.AT2: no record file at "},
      {"  []\n", "an empty list"},
  };
  for (const Bad& bad : cases) {
    CAPTURE(bad.excitation);
    const std::string error = load_error(bad.excitation);
    CAPTURE(error);
    CHECK(contains(error, bad.expected));
  }
  // a record file's own error names the record file and its line
  test::write_problem("t,a\n0,1\n0.01,2\n0.005,3\n", "unsorted.csv");
  CHECK(contains(load_error("  - record: {file: unsorted.csv}\n"),
                 "unsorted.csv:4:1: time 0.005 s is not after the previous sample's 0.01 s"));
  test::write_problem(peer_text({0.1, 0.2}), "two.AT2");
  // a `units:` that contradicts the header is an error at the header's statement
  CHECK(contains(load_error("  - record: {file: two.AT2, units: m/s2}\n"),
                 "two.AT2:3:38: the header states the accelerations in g, but the scenario says "
                 "units: m/s2 (leave units out, or say g)"));
  CHECK(contains(load_error("  - record: {file: two.AT2, scale: 600}\n"),
                 "scale = 600: the scaled record peaks at "));
}

TEST_CASE(
    "excitation scenario: an .AT2 and a .csv of the same motion give the same run, scale 2 "
    "is the motion doubled, start shifts the run") {
  const std::vector<double> motion = motion_in_g();
  test::write_problem(peer_text(motion), "motion.AT2");
  test::write_problem(csv_text(motion, 1.0), "motion.csv");
  test::write_problem(csv_text(motion, 2.0), "motion_doubled.csv");
  const test::ScenarioRun peer = run_excited("  - record: {file: motion.AT2}\n", "peer.yaml");
  const test::ScenarioRun csv =
      run_excited("  - record: {file: motion.csv, units: g}\n", "csv.yaml");
  REQUIRE(peer.outcome.status == RunStatus::completed);
  REQUIRE(peer.outcome.impacts > 0);  // the motion rocks the block: a run worth comparing
  CHECK(same_run(peer, csv));         // bit for bit

  const test::ScenarioRun scaled =
      run_excited("  - record: {file: motion.AT2, scale: 2}\n", "scaled.yaml");
  const test::ScenarioRun doubled =
      run_excited("  - record: {file: motion_doubled.csv, units: g}\n", "doubled.yaml");
  CHECK(same_run(scaled, doubled));  // ×2 is exact in every operation
  CHECK(!same_run(scaled, peer));

  const test::ScenarioRun shifted =
      run_excited("  - record: {file: motion.AT2, start: 0.5}\n", "shifted.yaml");
  // the uplift moves by the start (located to 1e-12 s each; the shifted sample instants
  // 0.5 + t_i round differently from t_i, by about 1e-16 s)
  CHECK(std::abs(shifted.outcome.summary.uplift_time - peer.outcome.summary.uplift_time - 0.5) <
        1e-9);
  const std::vector<double> impacts = peer.trajectory.times_of(EventKind::impact);
  const std::vector<double> impacts_shifted = shifted.trajectory.times_of(EventKind::impact);
  REQUIRE(!impacts_shifted.empty());
  CHECK(std::abs(impacts_shifted.front() - impacts.front() - 0.5) < 1e-8);
}

TEST_CASE(
    "excitation scenario: the shipped pulse and record scenarios complete, with no energy "
    "gained at an impact and no corner below the floor") {
  for (const std::string name : {"rocking_block_pulse.yaml", "rocking_block_record.yaml"}) {
    CAPTURE(name);
    const test::ScenarioRun run = test::run_shipped_scenario(name);
    CHECK(run.outcome.status == RunStatus::completed);
    CHECK(run.outcome.impacts > 0);
    CHECK(run.outcome.summary.uplift_time > 0.0);
    CHECK(test::first_energy_raising_event(run.trajectory) == "");
    CHECK(test::first_non_finite_sample(run.trajectory) == "");
    // both corners stay above the floor to the contact distance (1e-9 m) and a margin
    CHECK(test::first_corner_below_floor(run.trajectory, test::BlockCorners{0.1, 0.5}, 1e-8) == "");
  }
}

TEST_CASE("excitation scenario: routh run records /ground_acceleration beside /time") {
  const std::string scenario = test::write_problem(
      kBlock +
          "excitation:\n  - pulse: {shape: sine, amplitude: 1.5, period: 0.4, start: 0.1, "
          "direction: y}\n",
      "recorded.yaml");
  const test::RouthRun run = test::run_routh("run '" + scenario + "' -o recorded.h5");
  REQUIRE(run.exit_code == 0);
  const std::string file = (test::scratch() / "recorded.h5").string();
  hsize_t rows = 0, time_rows = 0;
  const std::vector<double> a_g = read_rows(file, "/ground_acceleration", &rows);
  const std::vector<double> time = read_rows(file, "/time", &time_rows);
  REQUIRE(rows == time_rows);
  REQUIRE(rows > 100);
  double peak = 0.0;
  for (hsize_t i = 0; i < rows; ++i) {
    const double t = time[i];
    const double expected =
        t >= 0.1 && t < 0.5 ? 1.5 * std::sin(2.0 * std::numbers::pi * (t - 0.1) / 0.4) : 0.0;
    CHECK(a_g[2 * i] == 0.0);
    CHECK(a_g[2 * i + 1] == doctest::Approx(expected).epsilon(1e-12));
    peak = std::max(peak, std::abs(expected));
  }
  // `routh info` reports the peaks over the samples
  const TrajectorySummary summary = summarize_trajectory(file);
  REQUIRE(summary.peak_ground_acceleration.has_value());
  CHECK(summary.peak_ground_acceleration->x() == 0.0);
  CHECK(summary.peak_ground_acceleration->y() == doctest::Approx(peak).epsilon(1e-12));
  CHECK(peak > 1.4);
  // an unexcited run has no such dataset
  const std::string still = test::write_problem(kBlock, "unexcited.yaml");
  REQUIRE(test::run_routh("run '" + still + "' -o unexcited.h5").exit_code == 0);
  CHECK_FALSE(summarize_trajectory(test::scratch() / "unexcited.h5").peak_ground_acceleration);
  const hid_t h5 = H5Fopen((test::scratch() / "unexcited.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(h5 >= 0);
  CHECK(H5Lexists(h5, "/ground_acceleration", H5P_DEFAULT) == 0);
  H5Fclose(h5);
}

}  // namespace routh
