// Validation of the ground motions (docs/excitation.md) on Housner's rocking block, against
// references computed here independently of routh's signals, model and integrator:
//  - the uplift time under each kind of signal: a rigid block at rest on both corners starts to
//    rock when a_g reaches g tan α (Housner 1963), solved for t in closed form from the signal's
//    own formula;
//  - θ(t) until the first impact, and that impact's time, under a pulse and under a record,
//    against classical RK4 of Housner's equation with ground acceleration (housner_rocking.hpp);
//  - the minimum overturning acceleration of a one-sine pulse (Zhang & Makris 2001), on both of
//    its branches, against the same bisection on the independent integrator.
//
// The block: 0.2 m × 1.0 m (b = 0.1, h = 0.5, α = atan 0.2 = 11.31°, p = 3.79 rad/s), g = 9.81
// as the models use; friction 3, enough that the pivot never slides (Housner's model assumes it
// sticks); corner impacts plastic (e = 0) under Poisson's law, which with a sticking landing
// corner conserves the angular momentum about it: Housner's r = 1 − 1.5 sin²α.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "support/housner_rocking.hpp"
#include "support/scenario_run.hpp"
#include "support/scratch_files.hpp"

namespace routh {

namespace {

constexpr double kHalfWidth = 0.1, kHalfHeight = 0.5;                    // [m]
constexpr double kGravity = 9.81;                                        // [m/s²], the models' g
const double kUpliftAcceleration = kGravity * kHalfWidth / kHalfHeight;  // g tan α [m/s²]

std::string number(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

// The block upright at rest, shaken by `excitation` (YAML list items, one per line).
std::string block_scenario(const std::string& excitation, double duration,
                           const std::string& events = "") {
  return "duration: " + number(duration) +
         "\nmodel: {type: rocking_block, width: 0.2, height: 1.0, mass: 1.0}\n"
         "initial: {q: {theta: 0}}\n"
         "contact: {law: poisson, multi_contact_law: multipoint_energetic, restitution: 0, "
         "friction: 3}\n"
         "output: {rate: 200}\n" +
         events + "excitation:\n" + excitation;
}

test::ScenarioRun run_block(const std::string& excitation, double duration,
                            const std::string& events = "") {
  return test::run_scenario_file(
      test::write_problem(block_scenario(excitation, duration, events), "shaken_block.yaml"));
}

// A two-column record file (time [s], acceleration [m/s²]) written to round-trip every double.
std::string write_csv_record(const std::vector<double>& times, const std::vector<double>& values,
                             const std::string& name) {
  std::string text = "time, acceleration\n";
  for (std::size_t i = 0; i < times.size(); ++i) {
    text += number(times[i]) + ", " + number(values[i]) + "\n";
  }
  return test::write_problem(text, name);
}

// The test's own linear interpolation of samples shifted by `start`, zero outside them.
double interpolated(const std::vector<double>& times, const std::vector<double>& values,
                    double start, double t) {
  const double tau = t - start;
  if (tau < times.front() || tau >= times.back()) return 0.0;
  std::size_t i = 0;
  while (times[i + 1] <= tau) ++i;
  const double w = (tau - times[i]) / (times[i + 1] - times[i]);
  return values[i] + (values[i + 1] - values[i]) * w;
}

// The first instant a linearly interpolated record reaches ±level (level > 0), and the sign of
// the acceleration there: the block tips onto its left corner (pivot +1) for +level.
struct Crossing {
  double t = std::numeric_limits<double>::quiet_NaN();
  int pivot = 0;
};
Crossing first_crossing(const std::vector<double>& times, const std::vector<double>& values,
                        double start, double level) {
  for (std::size_t i = 0; i + 1 < times.size(); ++i) {
    for (const int sign : {1, -1}) {
      const double a0 = sign * values[i], a1 = sign * values[i + 1];
      if (a0 < level && a1 >= level) {
        return {start + times[i] + (level - a0) / (a1 - a0) * (times[i + 1] - times[i]), sign};
      }
    }
  }
  return {};
}

// A shaped synthetic motion: 100 Hz samples of 3.5 sin(2π t / 0.6) m/s² under a sin² window
// over 3 s (the test's own numbers; any smooth enough motion would do).
struct SyntheticMotion {
  std::vector<double> times, values;
  SyntheticMotion() {
    for (int i = 0; i <= 300; ++i) {
      const double t = 0.01 * i;
      const double window = std::pow(std::sin(std::numbers::pi * t / 3.0), 2);
      times.push_back(t);
      values.push_back(3.5 * window * std::sin(2.0 * std::numbers::pi * t / 0.6));
    }
  }
};

test::ShakenRockingBlock reference_block(std::function<double(double)> ground,
                                         std::vector<double> kinks) {
  return test::ShakenRockingBlock{kHalfWidth, kHalfHeight, kGravity, std::move(ground),
                                  std::move(kinks)};
}

// θ from routh's regular samples strictly inside (t_uplift, t_impact), against the reference.
void check_rocking_until_first_impact(const test::ScenarioRun& run,
                                      const test::ShakenRockingBlock& reference, double t_uplift,
                                      int pivot, double duration) {
  REQUIRE(run.outcome.status == RunStatus::completed);
  const std::vector<double> impacts = run.trajectory.times_of(EventKind::impact);
  REQUIRE(!impacts.empty());
  std::vector<double> times;
  std::vector<double> theta;
  for (const auto& sample : run.trajectory.samples) {
    if (sample.t > t_uplift && sample.t < impacts.front()) {
      times.push_back(sample.t);
      theta.push_back(sample.q[2]);
    }
  }
  REQUIRE(times.size() > 20);
  const test::ShakenRockingBlock::Motion motion =
      reference.rock_until_first_impact(t_uplift, pivot, times, duration);
  double worst = 0.0;
  for (std::size_t i = 0; i < times.size(); ++i) {
    worst = std::max(worst, std::abs(theta[i] - motion.theta[i]));
  }
  MESSAGE("largest |θ − θ_RK4| " << worst << " rad over " << times.size()
                                 << " samples; first impact routh " << number(impacts.front())
                                 << " s, RK4 " << number(motion.first_impact) << " s");
  // 1e-6 rad: routh integrates at rtol 3e-11 and RK4 steps of 1e-4 s err by about 1e-13 rad;
  // the margin is for the uplift instant, located to the event tolerance 1e-12 s
  CHECK(worst < 1e-6);
  // 1e-8 s: impacts are isolated to 1e-12 s; the rate at θ = 0 is ~1 rad/s, so θ errors of
  // 1e-10 rad shift the crossing by ~1e-10 s
  CHECK(std::abs(impacts.front() - motion.first_impact) < 1e-8);
}

}  // namespace

TEST_CASE("ground motion: a block starts to rock when a_g reaches g tan α, under every signal") {
  struct Case {
    std::string name, excitation;
    double expected;  // [s], from the signal's formula
  };
  const double ac = kUpliftAcceleration;
  // ricker: a = A (1 − 2u²) e^{−u²}, u = π (t − t₀ − T) / T; its rising flank reaches ac at the
  // u in (−1/√2, 0) found by bisection (the side lobes, −0.446 A, stay above −ac for A = 4)
  const auto ricker_uplift = [ac](double amplitude, double period, double start) {
    double lo = -std::sqrt(0.5), hi = 0.0;
    for (int i = 0; i < 200; ++i) {
      const double mid = 0.5 * (lo + hi);
      ((1.0 - 2.0 * mid * mid) * std::exp(-mid * mid) * amplitude < ac ? lo : hi) = mid;
    }
    return start + period + hi * period / std::numbers::pi;
  };
  // Mavroeidis & Papageorgiou (2003): their velocity v(t), centred γ T_p / 2 after the start; its
  // derivative, by central differences here, reaches ac first where a scan finds it rising
  // through ac, refined by bisection
  const auto mavroeidis_papageorgiou_uplift = [ac](double velocity, double period, double gamma,
                                                   double phase, double start) {
    const double omega = 2.0 * std::numbers::pi / period;
    const auto v = [=](double t) {
      const double s = t - start - 0.5 * gamma * period;
      return 0.5 * velocity * (1.0 + std::cos(omega * s / gamma)) * std::cos(omega * s + phase);
    };
    const auto a = [&v](double t) { return (v(t + 1e-6) - v(t - 1e-6)) / 2e-6; };
    double lo = start;
    while (a(lo + 1e-4) < ac) lo += 1e-4;
    double hi = lo + 1e-4;
    for (int i = 0; i < 100; ++i) {
      const double mid = 0.5 * (lo + hi);
      (a(mid) < ac ? lo : hi) = mid;
    }
    return hi;
  };
  const std::vector<double> ramp_t = {0.0, 1.0, 2.0}, ramp_a = {0.0, 4.0, 0.0};
  const std::string ramp = write_csv_record(ramp_t, ramp_a, "ramp.csv");
  const std::vector<Case> cases = {
      {"harmonic", "  - harmonic: {amplitude: 3, frequency: 2, start: 0.3, cycles: 2}\n",
       0.3 + std::asin(ac / 3.0) / (2.0 * std::numbers::pi * 2.0)},
      {"sine pulse", "  - pulse: {shape: sine, amplitude: 3.5, period: 0.5, start: 0.2}\n",
       0.2 + 0.5 / (2.0 * std::numbers::pi) * std::asin(ac / 3.5)},
      // a cosine pulse jumps to its amplitude at its start: above ac, the block lifts at once
      {"cosine pulse", "  - pulse: {shape: cosine, amplitude: 3, period: 0.5, start: 0.25}\n",
       0.25},
      {"ricker pulse", "  - pulse: {shape: ricker, amplitude: 4, period: 0.4, start: 0.1}\n",
       ricker_uplift(4.0, 0.4, 0.1)},
      {"record", "  - record: {file: " + ramp + ", start: 0.5}\n",
       first_crossing(ramp_t, ramp_a, 0.5, ac).t},
      {"g units", "  - pulse: {shape: sine, amplitude: 0.3 g, period: 0.5, start: 0.2}\n",
       0.2 + 0.5 / (2.0 * std::numbers::pi) * std::asin(ac / (0.3 * 9.80665))},
      // the pulses that jump above ac at their start lift the block at once
      {"rectangular pulse",
       "  - pulse: {shape: rectangular, amplitude: 3, period: 0.5, start: 0.15}\n", 0.15},
      {"cycloidal type B",
       "  - pulse: {shape: cycloidal_b, velocity: 0.3, period: 0.5, start: "
       "0.25}\n",
       0.25},
      {"cycloidal type C1",
       "  - pulse: {shape: cycloidal_c, n: 1, velocity: 0.35, period: 0.5, start: 0.1}\n", 0.1},
      // Makris & Roussos's type A: a = (Ω V_p / 2) sin Ωτ, Ω = 2π / T_p
      {"cycloidal type A",
       "  - pulse: {shape: cycloidal_a, velocity: 0.5, period: 0.5, start: 0.2}\n",
       0.2 + std::asin(ac / (0.5 * 4.0 * std::numbers::pi * 0.5)) / (4.0 * std::numbers::pi)},
      {"Mavroeidis-Papageorgiou pulse",
       "  - pulse: {shape: mavroeidis_papageorgiou, velocity: 0.3, period: 0.5, gamma: 2, phase: "
       "90 deg, start: 0.1}\n",
       mavroeidis_papageorgiou_uplift(0.3, 0.5, 2.0, std::numbers::pi / 2.0, 0.1)},
  };
  for (const Case& item : cases) {
    CAPTURE(item.name);
    const test::ScenarioRun run = run_block(item.excitation, 1.0, "events: {stop_on: [uplift]}\n");
    MESSAGE(item.name << ": uplift " << number(run.outcome.summary.uplift_time)
                      << " s, closed form " << number(item.expected) << " s");
    // the liftoff is located to the event tolerance, 1e-12 s
    CHECK(std::abs(run.outcome.summary.uplift_time - item.expected) < 1e-9);
    // every signal here is positive at the uplift: it tips the block onto its left corner, the
    // right one lifts off
    std::vector<std::string> lifted;
    for (const EventRecord& event : run.trajectory.events) {
      if (event.kind != EventKind::liftoff) continue;
      for (int contact : event.contacts) {
        lifted.push_back(run.scenario.model->contact_names()[static_cast<std::size_t>(contact)]);
      }
    }
    CHECK(lifted == std::vector<std::string>{"right_corner"});
  }
}

TEST_CASE(
    "ground motion: θ(t) under a sine pulse follows Housner's equation until the first "
    "impact (RK4 reference)") {
  const double amplitude = 3.5, period = 0.5, start = 0.2, duration = 3.0;
  const test::ScenarioRun run =
      run_block("  - pulse: {shape: sine, amplitude: 3.5, period: 0.5, direction: x, start: 0.2}\n",
                duration);
  const auto ground = [=](double t) {
    return t >= start && t < start + period
               ? amplitude * std::sin(2.0 * std::numbers::pi * (t - start) / period)
               : 0.0;
  };
  const double t_uplift =
      start + period / (2.0 * std::numbers::pi) * std::asin(kUpliftAcceleration / amplitude);
  check_rocking_until_first_impact(run, reference_block(ground, {start, start + period}), t_uplift,
                                   +1, duration);
}

TEST_CASE(
    "ground motion: θ(t) under a record follows Housner's equation until the first impact "
    "(RK4 reference)") {
  const SyntheticMotion motion;
  const double start = 0.3, duration = 4.0;
  const std::string file = write_csv_record(motion.times, motion.values, "synthetic.csv");
  const test::ScenarioRun run =
      run_block("  - record: {file: " + file + ", start: 0.3}\n", duration);
  std::vector<double> kinks;
  for (double t : motion.times) kinks.push_back(start + t);
  const auto ground = [&](double t) { return interpolated(motion.times, motion.values, start, t); };
  const Crossing uplift = first_crossing(motion.times, motion.values, start, kUpliftAcceleration);
  CHECK(std::abs(run.outcome.summary.uplift_time - uplift.t) < 1e-9);
  check_rocking_until_first_impact(run, reference_block(ground, kinks), uplift.t, uplift.pivot,
                                   duration);
}

}  // namespace routh
