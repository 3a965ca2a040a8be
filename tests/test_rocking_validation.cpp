// Rocking under a one-sine pulse against the literature, beyond tests/test_overturning_spectrum.cpp
// (which compares routh's overturning amplitudes, with Housner's impact, with an RK4 integration
// of the same nonlinear equation):
//  1. the overturning boundary without impact, against its closed form from the linearised
//     equation of motion (Housner 1963; Zhang & Makris 2001, "Rocking response of free-standing
//     blocks under cycloidal pulses", J. Eng. Mech. 127(5));
//  2. with a calibrated coefficient of restitution η = 0.9 η_H (law `rocking_over_housner`,
//     sim/impact/rocking.hpp), the minimum overturning amplitude (the branch with one impact) and
//     the largest tilt of a block that survives, against the RK4 integration of Housner's
//     equation with the impact rule ω⁺ = η ω⁻ (tests/support/housner_rocking.hpp).
//
// The closed form. Rocking on its left corner (θ > 0) under a_g(t) = a_p sin(ω_p τ), τ the time
// since the pulse's start, the block obeys θ̈ = −p² (sin(α − θ) − (a_g/g) cos(α − θ))
// (housner_rocking.hpp). For a slender block (α small, 0 ≤ θ ≤ α near the boundary) sin x ≈ x,
// cos x ≈ 1 and tan α ≈ α; with ψ = θ / tan α, A = a_p / (g tan α) and r = ω_p / p,
//     ψ'' = ψ − 1 + A sin(r s),   s = p τ.
// The block lifts at ψ = 0 when A sin φ_u = 1, φ_u = asin(1/A) (A > 1), and from rest there
//     ψ = 1 + B sin(r s) + c₁ cosh(s − s_u) + c₂ sinh(s − s_u),
//     B = −A / (1 + r²),  c₁ = −1 − B sin φ_u = −r² / (1 + r²),  c₂ = −B r cos φ_u,
// so c₁ + c₂ = r (√(A² − 1) − r) / (1 + r²). After the pulse (r s = 2π, s − s_u = Δ =
// (2π − φ_u) / r) the block is free: ψ − 1 = (ψ_e − 1) cosh + ψ'_e sinh, which grows without
// bound (overturns) iff C = ψ_e − 1 + ψ'_e > 0 and falls back to an impact iff C < 0. With
// ψ_e − 1 = c₁ cosh Δ + c₂ sinh Δ and ψ'_e = B r + c₁ sinh Δ + c₂ cosh Δ,
//     C = B r + (c₁ + c₂) e^Δ = r / (1 + r²) · ((√(A² − 1) − r) e^((2π − asin(1/A)) / r) − A).
// The minimum amplitude that overturns the block without impact is the root A* of
//     (√(A² − 1) − r) exp((2π − asin(1/A)) / r) = A,
// provided ψ stays positive during the pulse (no impact before its end), which the test checks on
// the same closed form. The linearisation drops terms of relative size α² (1 − cos α ≈ α²/2,
// tan α / α − 1 ≈ α²/3, the same in θ ≤ α), so routh's boundary, from the nonlinear equations,
// must agree with A* to a few α²: with tan α = 0.05, α² = 2.5e-3, and we ask for 2α².

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

constexpr double kHalfWidth = 0.025, kHalfHeight = 0.5;  // [m]: tan α = 0.05
constexpr double kGravity = 9.81;                        // [m/s²], the models' g
constexpr double kStart = 0.1;                           // [s] the pulse's start
constexpr double kFreeTime = 5.0;     // [s] after the pulse: time to leave the unstable equilibrium
constexpr double kCalibration = 0.9;  // η / η_H, as shake-table tests give it

const double kTanAlpha = kHalfWidth / kHalfHeight;
const double kUplift = kGravity * kTanAlpha;  // [m/s²]
const double kP = std::sqrt(3.0 * kGravity / (4.0 * std::hypot(kHalfWidth, kHalfHeight)));
const double kHousnerEta = 1.0 - 1.5 * std::pow(std::sin(std::atan(kTanAlpha)), 2);

std::string number(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

// --- the closed form (see the top of the file) ---------------------------------------------

// (√(A² − 1) − r) exp((2π − asin(1/A)) / r) − A: C up to a positive factor.
double linear_overturning_margin(double A, double r) {
  return (std::sqrt(A * A - 1.0) - r) *
             std::exp((2.0 * std::numbers::pi - std::asin(1.0 / A)) / r) -
         A;
}

// ψ at pulse phase φ = r s ∈ [φ_u, 2π].
double linear_tilt(double A, double r, double phase) {
  const double B = -A / (1.0 + r * r), uplift_phase = std::asin(1.0 / A);
  const double c1 = -r * r / (1.0 + r * r), c2 = -B * r * std::sqrt(1.0 - 1.0 / (A * A));
  const double s = (phase - uplift_phase) / r;
  return 1.0 + B * std::sin(phase) + c1 * std::cosh(s) + c2 * std::sinh(s);
}

// A*, by bisection on the margin, which is negative just above A = 1 and positive for large A.
double linear_no_impact_boundary(double r) {
  double low = 1.0, high = 2.0;
  while (linear_overturning_margin(high, r) < 0.0) high *= 2.0;
  while (high - low > 1e-13 * high) {
    const double middle = 0.5 * (low + high);
    (linear_overturning_margin(middle, r) < 0.0 ? low : high) = middle;
  }
  return high;
}

// --- routh and the RK4 reference -----------------------------------------------------------

struct Decision {
  bool overturned = false;
  int impacts = 0;    // before overturning
  double tilt = 0.0;  // the largest |θ| [rad]
};

// routh: the block under one sine pulse; with `calibrated`, impacts by `rocking_over_housner`
// at kCalibration, else Housner's impact by `poisson` with e = 0.
Decision routh_decides(double amplitude, double period, bool calibrated) {
  static const std::string kFile = test::write_problem(
      "duration: 1\n"
      "model: {type: rocking_block, width: " +
          number(2.0 * kHalfWidth) + ", height: " + number(2.0 * kHalfHeight) +
          ", mass: 1.0}\n"
          "initial: {q: {theta: 0}}\n"
          "contact: {law: poisson, multi_contact_law: multipoint_energetic, restitution: 0, "
          "friction: 10}\n"
          "events: {stop_on: [overturn]}\n"
          "output: {rate: 10}\n"
          "excitation:\n"
          "  - pulse: {shape: sine, amplitude: 1, period: 1, start: " +
          number(kStart) + "}\n",
      "validation_block.yaml");
  std::vector<std::string> overrides = {"duration=" + number(kStart + period + kFreeTime),
                                        "excitation.0.pulse.amplitude=" + number(amplitude),
                                        "excitation.0.pulse.period=" + number(period)};
  if (calibrated) {
    overrides.insert(overrides.end(), {"contact.law=rocking_over_housner",
                                       "contact.multi_contact_law=rocking_over_housner",
                                       "contact.restitution=" + number(kCalibration)});
  }
  const test::ScenarioRun run = test::run_scenario_file(kFile, overrides);
  REQUIRE((run.outcome.status == RunStatus::completed ||
           run.outcome.status == RunStatus::stopped_on_event));
  Decision decision{run.outcome.summary.overturned, 0, run.outcome.summary.max_abs_theta};
  for (const EventRecord& event : run.trajectory.events) {
    if (event.kind == EventKind::impact &&
        (!decision.overturned || event.t < run.outcome.summary.overturn_time)) {
      ++decision.impacts;
    }
  }
  return decision;
}

// The RK4 reference with ω⁺ = η ω⁻, η = kCalibration η_H.
Decision reference_decides(double amplitude, double period) {
  if (amplitude <= kUplift) return {};
  const auto ground = [=](double t) {
    return t >= kStart && t < kStart + period
               ? amplitude * std::sin(2.0 * std::numbers::pi * (t - kStart) / period)
               : 0.0;
  };
  test::ShakenRockingBlock block{
      kHalfWidth, kHalfHeight, kGravity, ground, {kStart, kStart + period}};
  block.eta = kCalibration * kHousnerEta;
  const double t_uplift =
      kStart + period / (2.0 * std::numbers::pi) * std::asin(kUplift / amplitude);
  Decision decision;
  decision.overturned = block.overturns(t_uplift, +1, kStart + period + kFreeTime, kStart + period,
                                        &decision.impacts, &decision.tilt);
  return decision;
}

// The overturning amplitude [m/s²] within [low, high] (low must not overturn, high must) to
// `resolution` of it, by bisection; without impact if `without_impact`.
template <class Decide>
double overturning_amplitude(double low, double high, double resolution, bool without_impact,
                             Decide decides) {
  const auto overturns = [&](double amplitude) {
    const Decision decision = decides(amplitude);
    return decision.overturned && (!without_impact || decision.impacts == 0);
  };
  REQUIRE_FALSE(overturns(low));
  REQUIRE(overturns(high));
  while (high - low > resolution * high) {
    const double middle = 0.5 * (low + high);
    (overturns(middle) ? high : low) = middle;
  }
  return high;
}

double period_of(double ratio) { return 2.0 * std::numbers::pi / (ratio * kP); }  // T_p [s]

}  // namespace

TEST_CASE(
    "rocking validation: the no-impact overturning boundary of a one-sine pulse is the "
    "closed form of the linearised equation") {
  for (const double ratio : {2.0, 4.0}) {  // ω_p / p
    CAPTURE(ratio);
    const double boundary = linear_no_impact_boundary(ratio);  // A*
    // the closed form's block does not land before the pulse ends
    for (double phase = std::asin(1.0 / boundary) + 1e-3; phase <= 2.0 * std::numbers::pi;
         phase += 1e-3) {
      REQUIRE(linear_tilt(boundary, ratio, phase) > 0.0);
    }
    const double period = period_of(ratio);
    const double routh = overturning_amplitude(
        0.95 * boundary * kUplift, 1.05 * boundary * kUplift, 1e-4, true,
        [&](double amplitude) { return routh_decides(amplitude, period, false); });
    MESSAGE("ω_p/p = " << ratio << ": a_p / (g tan α) = " << boundary << " (closed form), "
                       << routh / kUplift << " (routh)");
    CHECK(std::abs(routh / (boundary * kUplift) - 1.0) <= 2.0 * kTanAlpha * kTanAlpha);
  }
}

TEST_CASE(
    "rocking validation: with eta = 0.9 eta_H, the minimum overturning amplitude and the "
    "largest tilt agree with an RK4 integration of Housner's equation") {
  // Bisection to 1e-7 of the amplitude: the RK4 reference and routh decide alike to ~1e-10
  // (tests/test_overturning_spectrum.cpp), so they must agree to the resolution.
  constexpr double kResolution = 1e-7;
  for (const double ratio : {2.0, 3.0, 5.0}) {
    CAPTURE(ratio);
    const double period = period_of(ratio);
    const auto reference = [&](double amplitude) { return reference_decides(amplitude, period); };
    double safe = kUplift, overturns = kUplift;  // the reference: scan upwards in 5 % steps
    do {
      safe = overturns;
      overturns *= 1.05;
      REQUIRE(overturns < 100.0 * kUplift);
    } while (!reference(overturns).overturned);
    const double expected = overturning_amplitude(safe, overturns, kResolution, false, reference);
    const double routh = overturning_amplitude(
        expected * (1.0 - 1e-5), expected * (1.0 + 1e-5), kResolution, false,
        [&](double amplitude) { return routh_decides(amplitude, period, true); });
    const Decision above = routh_decides(routh, period, true);
    MESSAGE("ω_p/p = " << ratio << ": a_p / (g tan α) = " << number(routh / kUplift) << " (routh), "
                       << number(expected / kUplift) << " (RK4); impacts " << above.impacts);
    CHECK(std::abs(routh - expected) <= 2.0 * kResolution * expected);
    CHECK(above.impacts >= 1);  // the branch with impact

    // a block that survives, at 90 % of it, rocks as far in both
    const Decision survives = routh_decides(0.9 * expected, period, true);
    const Decision survives_reference = reference(0.9 * expected);
    CHECK_FALSE(survives.overturned);
    CHECK_FALSE(survives_reference.overturned);
    CHECK(survives.impacts >= 1);
    CHECK(survives.tilt == doctest::Approx(survives_reference.tilt).epsilon(1e-7));
  }
}

}  // namespace routh
