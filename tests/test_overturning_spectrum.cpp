// The overturning spectrum of a one-sine pulse (Housner 1963; Zhang & Makris 2001, "Rocking
// response of free-standing blocks under cycloidal pulses", J. Eng. Mech. 127(5)): as a function
// of the frequency ratio ω_p / p, a slender block overturns in two ways, after one impact
// (the pulse's first half tilts it, it lands, its second half throws it over the other corner:
// the lower branch, the minimum overturning acceleration) or without any impact (a stronger
// first half throws it over at once: the upper branch, above a safe region).
//
// For each point checked, the boundary amplitude is found twice by the same procedure: a scan
// upwards in steps of 5 % from g tan α for the first amplitude that overturns on the branch, then
// bisection between it and the last that did not; once deciding by routh runs (`stop_on:
// [overturn]`, the block reaching ±π/2), once by the independent RK4 integration of Housner's
// equation with Housner's restitution r = 1 − 1.5 sin²α (housner_rocking.hpp). The two must agree
// to the bisection's resolution, and routh's run at the boundary must be on the named branch.
//
// The block: 0.1 m × 1.0 m (b = 0.05, h = 0.5, α = atan 0.1 = 5.71°, p = 3.83 rad/s), g = 9.81;
// friction 10, so that the pivot sticks even under the upper branch's 0.7 g (Housner's model
// assumes it does); corner impacts plastic (e = 0) under Poisson's law, which with a sticking
// landing corner conserves the angular momentum about it: Housner's r.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

#include "support/housner_rocking.hpp"
#include "support/scenario_run.hpp"
#include "support/scratch_files.hpp"

namespace routh {

namespace {

constexpr double kHalfWidth = 0.05, kHalfHeight = 0.5;  // [m]
constexpr double kGravity = 9.81;                       // [m/s²], the models' g
constexpr double kStart = 0.1;                          // [s] the pulse's start
constexpr double kFreeTime = 6.0;  // [s] after the pulse: time enough to fall from near α
// Bisection to 1e-7 of g tan α: far above the ~1e-10 at which the two integrations could decide
// differently, far below the spectrum's features.
constexpr double kResolution = 1e-7;

const double kAlpha = std::atan(kHalfWidth / kHalfHeight);
const double kUplift = kGravity * std::tan(kAlpha);  // [m/s²]
const double kP = std::sqrt(3.0 * kGravity / (4.0 * std::hypot(kHalfWidth, kHalfHeight)));

std::string number(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

struct Decision {
  bool overturned = false;
  int impacts = 0;
};

// routh: the block under one sine pulse of `amplitude` and `period`.
Decision routh_decides(double amplitude, double period) {
  static const std::string kFile = test::write_problem(
      "duration: 1\n"
      "model: {type: rocking_block, width: 0.1, height: 1.0, mass: 1.0}\n"
      "initial: {q: {theta: 0}}\n"
      "contact: {law: poisson, multi_contact_law: multipoint_energetic, restitution: 0, "
      "friction: 10}\n"
      "events: {stop_on: [overturn]}\n"
      "output: {rate: 10}\n"
      "excitation:\n"
      "  - pulse: {shape: sine, amplitude: 1, period: 1, start: " +
          number(kStart) + "}\n",
      "spectrum_block.yaml");
  const test::ScenarioRun run =
      test::run_scenario_file(kFile, {"duration=" + number(kStart + period + kFreeTime),
                                      "excitation.0.pulse.amplitude=" + number(amplitude),
                                      "excitation.0.pulse.period=" + number(period)});
  REQUIRE((run.outcome.status == RunStatus::completed ||
           run.outcome.status == RunStatus::stopped_on_event));
  int impacts_before = 0;
  for (const EventRecord& event : run.trajectory.events) {
    if (event.kind == EventKind::impact &&
        (!run.outcome.summary.overturned || event.t < run.outcome.summary.overturn_time)) {
      ++impacts_before;
    }
  }
  return {run.outcome.summary.overturned, impacts_before};
}

// The independent integrator, on the same pulse.
Decision reference_decides(double amplitude, double period) {
  if (amplitude <= kUplift) return {};
  const auto ground = [=](double t) {
    return t >= kStart && t < kStart + period
               ? amplitude * std::sin(2.0 * std::numbers::pi * (t - kStart) / period)
               : 0.0;
  };
  const test::ShakenRockingBlock block{
      kHalfWidth, kHalfHeight, kGravity, ground, {kStart, kStart + period}};
  const double t_uplift =
      kStart + period / (2.0 * std::numbers::pi) * std::asin(kUplift / amplitude);
  Decision decision;
  decision.overturned = block.overturns(t_uplift, +1, kStart + period + kFreeTime, kStart + period,
                                        &decision.impacts);
  return decision;
}

// The branches of the spectrum: overturning at all (its lower envelope, the minimum overturning
// acceleration), or overturning without any impact.
enum class Branch { any, without_impact };

bool on_branch(const Decision& decision, Branch branch) {
  return decision.overturned && (branch == Branch::any || decision.impacts == 0);
}

// The smallest amplitude [m/s²] that overturns the block on `branch`, by a scan upwards in steps
// of 5 % from g tan α and bisection between the last amplitude that did not and the first that
// did, each decided by `decides`.
template <class Decide>
double minimum_overturning_amplitude(double period, Branch branch, Decide decides) {
  double safe = kUplift, overturns = kUplift;
  do {
    safe = overturns;
    overturns *= 1.05;
    REQUIRE(overturns < 100.0 * kUplift);
  } while (!on_branch(decides(overturns, period), branch));
  while (overturns - safe > kResolution * kUplift) {
    const double middle = 0.5 * (safe + overturns);
    (on_branch(decides(middle, period), branch) ? overturns : safe) = middle;
  }
  return overturns;
}

}  // namespace

TEST_CASE(
    "overturning spectrum: the one-sine pulse's overturning amplitudes, after one impact "
    "and without impact, agree with an independent integration of Housner's equation") {
  struct Point {
    double ratio;  // ω_p / p
    Branch branch;
    int impacts;  // before overturning, just above the boundary
  };
  for (const Point point :
       {Point{2.0, Branch::any, 1}, Point{5.0, Branch::any, 1},
        Point{2.0, Branch::without_impact, 0}, Point{5.0, Branch::without_impact, 0}}) {
    CAPTURE(point.ratio);
    CAPTURE(point.impacts);
    const double period = 2.0 * std::numbers::pi / (point.ratio * kP);  // T_p = 2π / ω_p [s]
    const double reference = minimum_overturning_amplitude(period, point.branch, reference_decides);
    const double routh = minimum_overturning_amplitude(period, point.branch, routh_decides);
    const Decision above = routh_decides(routh, period);
    MESSAGE("ω_p/p = " << point.ratio << ": a_p / (g tan α) = " << number(routh / kUplift)
                       << " (routh), " << number(reference / kUplift) << " (RK4); impacts before "
                       << "overturning " << above.impacts);
    CHECK(std::abs(routh - reference) <= 2.0 * kResolution * kUplift);
    CHECK(above.overturned);
    CHECK(above.impacts == point.impacts);
  }
}

}  // namespace routh
