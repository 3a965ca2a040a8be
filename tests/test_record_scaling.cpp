// Scaling a record to an intensity measure (`scale_to`, excitation_input.hpp, docs/excitation.md)
// and the ground-motion columns of a sweep table (sweep_run.hpp): the scale is the target over the
// unscaled record's measure, worked out here from the record's own samples (the peak, the
// trapezoidal velocity, an RK4 oscillator); the effective scenario shows both and reads back; the
// errors are located; a sweep over `scale_to.pga` gives runs whose `pga` column is the target.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "sim/excitation/excitation.hpp"
#include "sim/recorder/sweep_table.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/scenario/yaml_input.hpp"
#include "sim/text.hpp"
#include "support/routh_process.hpp"
#include "support/scratch_files.hpp"

namespace routh {

namespace {

constexpr double kG = 9.80665;  // the `g` of amplitudes [m/s²]

// The test's record: 200 samples at 100 Hz [m/s²], a decaying two-tone motion.
std::vector<double> motion() {
  std::vector<double> a;
  for (int i = 0; i < 200; ++i) {
    const double t = 0.01 * i;
    a.push_back(std::exp(-t) * (1.5 * std::sin(9.0 * t) - 0.7 * std::sin(31.0 * t)));
  }
  return a;
}

std::string motion_csv() {
  std::string text = "time,acceleration\n";
  const std::vector<double> a = motion();
  char line[80];
  for (std::size_t i = 0; i < a.size(); ++i) {
    std::snprintf(line, sizeof line, "%.17g,%.17g\n", 0.01 * static_cast<double>(i), a[i]);
    text += line;
  }
  return text;
}

double peak(const std::vector<double>& values) {
  double largest = 0.0;
  for (double value : values) largest = std::max(largest, std::abs(value));
  return largest;
}

// The peak of v = ∫a by the trapezoidal rule, from rest.
double peak_velocity(const std::vector<double>& a, double dt) {
  double v = 0.0, largest = 0.0;
  for (std::size_t i = 0; i + 1 < a.size(); ++i) {
    v += dt * (a[i] + a[i + 1]) / 2.0;
    largest = std::max(largest, std::abs(v));
  }
  return largest;
}

// ω² max|u| of u'' + 2ζωu' + ω²u = −a, a linear between samples, by RK4 at dt / 400.
double rk4_sa(const std::vector<double>& a, double dt, double period, double damping) {
  const double omega = 2.0 * std::numbers::pi / period;
  const int substeps = 400;
  const double h = dt / substeps;
  double u = 0.0, v = 0.0, largest = 0.0;
  for (std::size_t i = 0; i + 1 < a.size(); ++i) {
    const auto f = [&](double s, double x, double x_dot) {
      return -(a[i] + (a[i + 1] - a[i]) * s / dt) - 2.0 * damping * omega * x_dot -
             omega * omega * x;
    };
    for (int k = 0; k < substeps; ++k) {
      const double s = k * h;
      const double k1u = v, k1v = f(s, u, v);
      const double k2u = v + 0.5 * h * k1v, k2v = f(s + 0.5 * h, u + 0.5 * h * k1u, k2u);
      const double k3u = v + 0.5 * h * k2v, k3v = f(s + 0.5 * h, u + 0.5 * h * k2u, k3u);
      const double k4u = v + h * k3v, k4v = f(s + h, u + h * k3u, k4u);
      u += h / 6.0 * (k1u + 2.0 * k2u + 2.0 * k3u + k4u);
      v += h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
      largest = std::max(largest, std::abs(u));
    }
  }
  return omega * omega * largest;
}

const std::string kBlock =
    "duration: 2\n"
    "model: {type: rocking_block, width: 0.2, height: 1.0, mass: 1.0}\n"
    "initial: {q: {theta: 0}}\n"
    "contact: {law: poisson, multi_contact_law: multipoint_energetic, restitution: 0, "
    "friction: 3}\n"
    "output: {rate: 100}\n";

Scenario load_scaled(const std::string& record_keys) {
  test::write_problem(motion_csv(), "scaling_motion.csv");
  return load_scenario(test::write_problem(
      kBlock + "excitation:\n  - record: {file: scaling_motion.csv, " + record_keys + "}\n",
      "scaled.yaml"));
}

double scale_of(const Scenario& scenario) {
  return std::get<RecordSignal>(scenario.excitation->front().signal).scale;
}

std::string load_error(const std::string& record_keys) {
  try {
    load_scaled(record_keys);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("record scaling: scale_to a PGA, a PGV or an Sa is the target over the record's own") {
  const std::vector<double> a = motion();
  const Scenario by_pga = load_scaled("scale_to: {pga: 0.4 g}");
  CHECK(scale_of(by_pga) == doctest::Approx(0.4 * kG / peak(a)).epsilon(1e-15));
  const Scenario by_pgv = load_scaled("scale_to: {pgv: 0.3}");
  CHECK(scale_of(by_pgv) == doctest::Approx(0.3 / peak_velocity(a, 0.01)).epsilon(1e-12));
  const Scenario by_sa = load_scaled("scale_to: {sa: {period: 0.5, damping: 0.1, value: 0.6 g}}");
  // the turning values between substeps are within about 1e-5 here (oscillator_response.hpp)
  CHECK(scale_of(by_sa) == doctest::Approx(0.6 * kG / rk4_sa(a, 0.01, 0.5, 0.1)).epsilon(1e-4));
  // damping defaults to 5 %: a different scale
  const Scenario default_damping = load_scaled("scale_to: {sa: {period: 0.5, value: 0.6 g}}");
  CHECK(scale_of(default_damping) ==
        doctest::Approx(0.6 * kG / rk4_sa(a, 0.01, 0.5, 0.05)).epsilon(1e-4));
  // the ground acceleration applied is the scaled record's: its largest sample is the target PGA
  double applied = 0.0;
  for (int i = 0; i < 200; ++i) {
    applied = std::max(applied, std::abs(ground_acceleration(*by_pga.excitation, 0.01 * i).x()));
  }
  CHECK(applied == doctest::Approx(0.4 * kG).epsilon(1e-14));
  // --set changes the target (the value in m/s² or N g) as it changes any key
  const std::vector<std::string> overrides = {"excitation.0.record.scale_to.pga=2.5",
                                              "excitation.1.record.scale_to.pga=0.1 g"};
  const Scenario two = load_scenario(
      test::write_problem(kBlock + "excitation:\n"
                                   "  - record: {file: scaling_motion.csv, scale_to: {pga: 1}}\n"
                                   "  - record: {file: scaling_motion.csv, scale_to: {pga: 1}}\n",
                          "two_records.yaml"),
      overrides);
  CHECK(std::get<RecordSignal>((*two.excitation)[0].signal).scale ==
        doctest::Approx(2.5 / peak(a)).epsilon(1e-15));
  CHECK(std::get<RecordSignal>((*two.excitation)[1].signal).scale ==
        doctest::Approx(0.1 * kG / peak(a)).epsilon(1e-15));
}

TEST_CASE("record scaling: the effective scenario shows the scale and the target, and reads back") {
  const Scenario scenario = load_scaled("scale_to: {sa: {period: 0.5, value: 0.6 g}}");
  const YAML::Node record = YAML::Load(scenario.effective_yaml)["excitation"][0]["record"];
  CHECK(record["scale"].as<double>() == scale_of(scenario));
  CHECK(record["scale_to"]["sa"]["period"].as<double>() == 0.5);
  CHECK(record["scale_to"]["sa"]["damping"].as<double>() == 0.05);
  CHECK(record["scale_to"]["sa"]["value"].as<double>() == 0.6 * kG);
  const Scenario again =
      load_scenario(test::write_problem(scenario.effective_yaml, "scaled_again.yaml"));
  CHECK(again.effective_yaml == scenario.effective_yaml);
  CHECK(scale_of(again) == scale_of(scenario));
  // a record scaled by `scale` alone has no scale_to in its effective scenario
  const Scenario plain = load_scaled("scale: 2");
  CHECK(!YAML::Load(plain.effective_yaml)["excitation"][0]["record"]["scale_to"]);
  CHECK(
      load_scenario(test::write_problem(plain.effective_yaml, "plain_again.yaml")).effective_yaml ==
      plain.effective_yaml);
}

TEST_CASE("record scaling: bad scale_to targets are errors at the value") {
  CHECK(contains(load_error("scale: 2, scale_to: {pga: 1.0}"),
                 "scaled.yaml:7:47: excitation[0].record.scale = 2: and scale_to: give one"));
  CHECK(contains(load_error("scale_to: {pgx: 1.0}"),
                 "scaled.yaml:7:56: excitation[0].record.scale_to.pgx = 1.0: unknown intensity "
                 "measure 'pgx': scale_to takes pga [m/s^2 or N g], pgv [m/s] or sa"));
  CHECK(contains(load_error("scale_to: {pga: 1.0, pgv: 0.2}"),
                 "excitation[0].record.scale_to: must be one intensity measure and its value"));
  CHECK(contains(load_error("scale_to: {pga: -1.0}"), "scale_to.pga = -1.0: must be above 0"));
  CHECK(contains(load_error("scale_to: {sa: {period: 0.5, value: 1, dumping: 0.05}}"),
                 "unknown key 'dumping'; did you mean 'damping'?"));
  CHECK(contains(load_error("scale_to: {sa: {period: 0.5, damping: 1, value: 1}}"),
                 "scale_to.sa.damping = 1: must be in [0, 0.99]"));
  CHECK(contains(load_error("scale_to: {pga: 900 g}"),
                 "scale_to.pga = 900 g: is 8825.985 m/s^2: must be in [-1000, 1000] m/s^2"));
  // a record that is zero throughout has no PGA to scale; a tiny one would need too large a scale
  const auto error_with = [](const std::string& samples, const std::string& name) {
    test::write_problem(samples, name);
    try {
      load_scenario(test::write_problem(
          kBlock + "excitation:\n  - record: {file: " + name + ", scale_to: {pga: 1}}\n",
          "other_record.yaml"));
    } catch (const InputError& error) {
      return std::string(error.what());
    }
    return std::string();
  };
  CHECK(contains(error_with("0,0\n0.01,0\n0.02,0\n", "zero_motion.csv"),
                 "other_record.yaml:7:47: excitation[0].record.scale_to: the record's pga is 0: "
                 "no scale brings it to 1"));
  CHECK(contains(error_with("0,0\n0.01,1e-4\n0.02,0\n", "tiny_motion.csv"),
                 "other_record.yaml:7:47: excitation[0].record.scale_to: needs scale 10000 (the "
                 "record's pga is 0.0001): must be in [-1000, 1000]"));
}

TEST_CASE("record scaling: a sweep over scale_to.pga, and the table's ground-motion columns") {
  // 3 runs of 0.5 s over a base scaled to 0.1 g; each run's PGA, as applied, is its target; its
  // PGV is the target's share of the record's own trapezoidal PGV over the samples in 0.5 s.
  test::write_problem(motion_csv(), "scaling_motion.csv");
  test::write_problem(
      "duration: 0.5\n"
      "model: {type: rocking_block, width: 0.4, height: 1.0, mass: 1.0}\n"
      "initial: {q: {theta: 0}}\n"
      "contact: {law: poisson, restitution: 0.5, friction: 3}\n"
      "output: {rate: 100}\n"
      "excitation:\n  - record: {file: scaling_motion.csv, scale_to: {pga: 0.1 g}}\n",
      "scaled_base.yaml");
  const std::string sweep = test::write_problem(
      "base: scaled_base.yaml\n"
      "grid:\n  excitation.0.record.scale_to.pga: [1.0, 2.0, 3.9]\n",
      "scale_to_sweep.yaml");
  const test::RouthRun run =
      test::run_routh(cat("sweep '", sweep, "' -o '",
                          (test::scratch() / "scale_to_sweep.h5").string(), "' --force --jobs 1"));
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  const SweepTable table = read_sweep_table(test::scratch() / "scale_to_sweep.h5");
  const auto column = [&](const std::string& name) {
    const auto found = std::find_if(table.columns.begin(), table.columns.end(),
                                    [&](const TableColumn& c) { return c.name == name; });
    REQUIRE_MESSAGE(found != table.columns.end(), "no column ", name);
    return static_cast<std::size_t>(found - table.columns.begin());
  };
  REQUIRE(table.rows.size() == 3);
  CHECK(table.columns[column("pga")].unit == "m/s^2");
  CHECK(table.columns[column("d5_95")].unit == "s");
  const std::vector<double> a = motion();
  const std::vector<double> first_half(a.begin(), a.begin() + 51);  // t ≤ 0.5 s
  const double targets[] = {1.0, 2.0, 3.9};
  for (std::size_t r = 0; r < 3; ++r) {
    CAPTURE(r);
    const TableRow& row = table.rows[r];
    CHECK(std::get<std::string>(row[column("status")]) == "completed");
    CHECK(std::get<std::string>(row[column("record")]) == "scaling_motion.csv");
    const double scale = targets[r] / peak(a);
    // the largest sample of the record comes before 0.5 s
    CHECK(std::get<double>(row[column("pga")]) == doctest::Approx(targets[r]).epsilon(1e-14));
    CHECK(std::get<double>(row[column("pgv")]) ==
          doctest::Approx(scale * peak_velocity(first_half, 0.01)).epsilon(1e-12));
    CHECK(std::get<double>(row[column("d5_95")]) > 0.0);
    CHECK(std::get<double>(row[column("d5_95")]) < 0.5);
  }
  // a run that cannot start (a target below 0) has no record and NaN measures
  const std::string failing = test::write_problem(
      "base: scaled_base.yaml\n"
      "grid:\n  excitation.0.record.scale_to.pga: [1.0, -1.0]\n",
      "failing_sweep.yaml");
  const test::RouthRun failed =
      test::run_routh(cat("sweep '", failing, "' -o '",
                          (test::scratch() / "failing_sweep.h5").string(), "' --force --jobs 1"));
  CHECK(failed.exit_code == 0);  // every run is in the table, whatever its status
  const SweepTable partial = read_sweep_table(test::scratch() / "failing_sweep.h5");
  REQUIRE(partial.rows.size() == 2);
  CHECK(std::get<std::string>(partial.rows[1][column("status")]) == "input_error");
  CHECK(std::get<std::string>(partial.rows[1][column("record")]).empty());
  CHECK(std::isnan(std::get<double>(partial.rows[1][column("pga")])));
  CHECK(std::isnan(std::get<double>(partial.rows[1][column("d5_95")])));
}

}  // namespace routh
