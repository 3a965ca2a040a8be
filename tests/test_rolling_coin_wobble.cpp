// The wobble of a coin rolling nearly upright: the period of its lean's oscillation, from the
// linearised equations of the rolling disk, against a whole run of a thin cylinder rolling on its
// rim (models/spatial/spatial_contact_geometry.hpp) and against the test's own integration of
// the nonlinear equations of the same cylinder.
//
// Source: the rolling disk's small oscillations about its upright straight roll, Routh, "The
// Advanced Part of a Treatise on the Dynamics of a System of Rigid Bodies" (the disc rolling on a
// rough plane), and Neimark and Fufaev, "Dynamics of Nonholonomic Systems" (the rolling disc);
// derived here from the Newton–Euler equations as follows.
//
// A body of revolution of mass m, moments A about a diameter and C about its axis (a uniform
// cylinder of radius a and height h: A = m a²/4 + m h²/12, C = m a²/2), rolls without slip on the
// floor z = 0 on its rim. In the frame of Résal, e₃ the axis, e₁ horizontal in the disk's plane
// (the rolling direction), e₂ = e₃ × e₁, which does not spin with the disk, its lean θ and heading
// ψ give ẑ = cos θ e₂ − sin θ e₃, the frame turns at Ω = θ̇ e₁ + ψ̇ ẑ and the disk at
//     ω = Ω + (spin) e₃ = (θ̇, ψ̇ cos θ, ω₃).
// It touches the floor at the deepest point P of its lower rim (θ > 0: the one on e₃'s side),
// G − P = ρ = a e₂ − (h/2) e₃, fixed in the frame, so rolling (P at rest) gives v_G = ω × ρ and a_G
// = ω̇′ × ρ + Ω × (ω × ρ), ω̇′ the rate of ω's components. The floor's force F acts at P: m a_G = F −
// m g ẑ and I ω̇′ + Ω × (I ω) = (P − G) × F, I = diag(A, A, C); eliminating F,
//     I ω̇′ + Ω × (I ω) + m ρ × (ω̇′ × ρ + Ω × (ω × ρ) + g ẑ) = 0,                   (1)
// three linear equations for ω̇′ = (θ̈, d(ψ̇ cos θ)/dt, ω̇₃): the nonlinear motion, integrated
// below (RK4) for the state (θ, θ̇, ψ̇, ω₃). For a thin disk (ρ = a e₂), linearised about the
// straight roll θ = θ̇ = ψ̇ = 0, ω₃ = ω = V/a (V the centre's speed), (1) reads
//     (A + m a²) θ̈ + (C + m a²) ω ψ̇ − m g a θ = 0,     A ψ̈ − C ω θ̇ = 0,     ω̇₃ = 0.
// The second gives ψ̇ = (C ω / A)(θ − θ₀) from a start at lean θ₀ without turning, and then
//     θ̈ + Ω_w² θ = Ω_w² θ_c,     Ω_w² = [C (C + m a²) ω² − m g a A] / [A (A + m a²)],      (2)
// θ_c = θ₀ C (C + m a²) ω² / [A (A + m a²) Ω_w²]: the lean oscillates between θ₀ and
// θ_max = 2θ_c − θ₀ with the period 2π/Ω_w, stable where Ω_w² > 0, i.e. above the critical
// speed V² = g a · m a² A / [C (C + m a²)], g a/3 for the uniform disk.
//
// Why a start leaning at θ₀ and not upright with a lean rate: a cylinder upright stands on both
// rims, and a lean crossing zero passes its weight from one rim to the other through an impact of
// the landing rim (it rocks like Housner's block about the rolling direction, a block of
// half-width h/2), which the thin disk of (2) does not do. Started leaning at θ₀ without turning,
// its lean never comes back to zero: it rolls on one rim throughout, the other at least h sin θ₀
// above the floor. With h at the loader's smallest (1e-6 m), the rim's offset h/2 changes the
// period by less than 1e-8 (the integration below, which keeps it): (2) is the thin disk's.

#include <doctest/doctest.h>

#include <Eigen/Core>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <numbers>
#include <string>
#include <vector>

#include "models/spatial/spatial_bodies.hpp"
#include "sim/text.hpp"
#include "support/scenario_run.hpp"
#include "support/scratch_files.hpp"

namespace {

using routh::test::ScenarioRun;

// The coin: radius a, height h (the thinnest cylinder the loader takes), mass m; rolling at V,
// 2.5 times the uniform disk's critical speed √(g a/3) = 0.198 m/s, leaning θ₀ at the start.
constexpr double kRadius = 0.012, kHeight = 1e-6, kMass = 0.006, kSpeed = 0.5, kLean = 0.01;
constexpr double kGravity = 9.81;    // [m/s²], the spatial models' default
constexpr double kDuration = 0.55;   // [s], five periods and a little
constexpr double kOutputRate = 1e4;  // [Hz]

constexpr double kSpin = kSpeed / kRadius;  // ω
constexpr double kDiameterMoment =
    kMass * kRadius * kRadius / 4.0 + kMass * kHeight * kHeight / 12.0;
constexpr double kAxialMoment = kMass * kRadius * kRadius / 2.0;

// Ω_w of equation (2) [rad/s].
double wobble_frequency() {
  const double A = kDiameterMoment, C = kAxialMoment, ma2 = kMass * kRadius * kRadius;
  return std::sqrt((C * (C + ma2) * kSpin * kSpin - kMass * kGravity * kRadius * A) /
                   (A * (A + ma2)));
}

// θ_max = 2θ_c − θ₀ of equation (2): the largest lean of the linearised motion.
double largest_lean() {
  const double A = kDiameterMoment, C = kAxialMoment, ma2 = kMass * kRadius * kRadius;
  const double Omega = wobble_frequency();
  const double centre = kLean * C * (C + ma2) * kSpin * kSpin / (A * (A + ma2) * Omega * Omega);
  return 2.0 * centre - kLean;
}

// The relative error of (2)'s period for the motion of lean up to θ_max: (2) drops terms of
// relative size θ² (sin θ against θ, cos θ against 1, products of θ̇ and ψ̇ ~ θ).
double linearisation_error() { return largest_lean() * largest_lean(); }

// The run's period against the test's integration of the same cylinder: both integrate the motion
// to ~1e-10, and the zero crossings of the lean rate are read from samples Δt = 1e-4 s apart by
// linear interpolation, which errs by some Ω_w² Δt³/60 (the rate's curvature vanishes at its
// zeros but for the nonlinear harmonics, of relative size θ_c (θ_max − θ₀)): under 1e-9 of the
// period.
constexpr double kSameMotion = 1e-8;

// --- the nonlinear equations (1), integrated ---------------------------------------------------

struct DiskState {
  double lean, lean_rate, heading_rate, axial_spin;  // θ, θ̇, ψ̇, ω₃
};

DiskState disk_rates(const DiskState& s) {
  const double cos_lean = std::cos(s.lean), sin_lean = std::sin(s.lean);
  const Eigen::Matrix3d I =
      Eigen::Vector3d(kDiameterMoment, kDiameterMoment, kAxialMoment).asDiagonal();
  const Eigen::Vector3d rho(0.0, kRadius, -0.5 * kHeight);  // G − P
  const Eigen::Vector3d frame(s.lean_rate, s.heading_rate * cos_lean,
                              -s.heading_rate * sin_lean);  // Ω
  const Eigen::Vector3d omega(s.lean_rate, s.heading_rate * cos_lean, s.axial_spin);
  const Eigen::Vector3d up(0.0, cos_lean, -sin_lean);  // ẑ
  // (1) as M ω̇′ = r, with ρ × (ω̇′ × ρ) = (ρ·ρ) ω̇′ − ρ (ρ·ω̇′)
  const Eigen::Matrix3d M =
      I + kMass * (rho.squaredNorm() * Eigen::Matrix3d::Identity() - rho * rho.transpose());
  const Eigen::Vector3d r =
      -frame.cross(I * omega) - kMass * rho.cross(frame.cross(omega.cross(rho)) + kGravity * up);
  const Eigen::Vector3d rate = M.partialPivLu().solve(r);  // (θ̈, d(ψ̇ cos θ)/dt, ω̇₃)
  return {s.lean_rate, rate[0], (rate[1] + s.heading_rate * s.lean_rate * sin_lean) / cos_lean,
          rate[2]};
}

DiskState shifted(const DiskState& s, const DiskState& d, double k) {
  return {s.lean + k * d.lean, s.lean_rate + k * d.lean_rate, s.heading_rate + k * d.heading_rate,
          s.axial_spin + k * d.axial_spin};
}

DiskState rk4_step(const DiskState& s, double dt) {
  const DiskState k1 = disk_rates(s), k2 = disk_rates(shifted(s, k1, dt / 2)),
                  k3 = disk_rates(shifted(s, k2, dt / 2)), k4 = disk_rates(shifted(s, k3, dt));
  return shifted(shifted(shifted(shifted(s, k1, dt / 6), k2, dt / 3), k3, dt / 3), k4, dt / 6);
}

// The instant where a rate sampled f0 at t0 and f1 at t1 crosses zero, by linear interpolation.
double crossing(double t0, double f0, double t1, double f1) {
  return t0 + (t1 - t0) * f0 / (f0 - f1);
}

// The period from the zero crossings of the lean rate: two half-periods between each pair.
double period_of(const std::vector<double>& crossings) {
  REQUIRE(crossings.size() >= 10);
  return 2.0 * (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
}

// The lean rate's zero crossings of the integrated motion, from θ₀ at rest in lean and heading,
// spinning at ω, by RK4 steps of 1e-5 s (an error of order (Ω_w dt)⁴ ~ 1e-13 per step).
std::vector<double> integrated_crossings() {
  constexpr double kStep = 1e-5;
  std::vector<double> crossings;
  DiskState s{kLean, 0.0, 0.0, kSpin};
  for (double t = 0.0; t < kDuration; t += kStep) {
    const DiskState next = rk4_step(s, kStep);
    if (s.lean_rate * next.lean_rate < 0.0) {
      crossings.push_back(crossing(t, s.lean_rate, t + kStep, next.lean_rate));
    }
    s = next;
  }
  return crossings;
}

// --- routh's run --------------------------------------------------------------------------------

// The coin with its axis along −y turned by θ₀ about x (the rolling direction): its axis
// (0, −cos θ₀, −sin θ₀), the rim at body z = +h/2 below, its deepest point on the floor, the centre
// at a cos θ₀ + (h/2) sin θ₀. Spinning at ω about its axis alone (ψ̇ = θ̇ = 0), the centre moves
// at ω × ρ = (V, 0, 0): rolling.
std::string leaning_coin() {
  using routh::cat;
  const auto exact = std::setprecision(17);
  return cat(
      "name: wobbling_coin\nduration: ", kDuration,
      "\nmodel:\n  dimension: 3\n  bodies:\n    - {name: coin, mass: ", exact, kMass,
      ", shape: {cylinder: {radius: ", kRadius, ", height: ", kHeight,
      "}}}\n  obstacles:\n    - {type: plane, name: floor, point: [0, 0, 0], normal: [0, 0, 1]}"
      "\ninitial:\n  q: {coin.z: ",
      kRadius * std::cos(kLean) + 0.5 * kHeight * std::sin(kLean), ", coin.orientation: {rpy: [",
      0.5 * std::numbers::pi + kLean, ", 0, 0]}}\n  v: {coin.vx: ", kSpeed, ", coin.wz: ", -kSpin,
      "}\ncontact:\n  law: lcp\n  restitution: 0.0\n  friction: 0.5\noutput:\n  rate: ",
      kOutputRate, "\n");
}

// The run's lean rate up to the factor −1/cos θ: the axis n turns at ω × n, and sin θ = −n_z.
double axis_sink_rate(const routh::SpatialBodies& bodies, const Eigen::VectorXd& q,
                      const Eigen::VectorXd& v) {
  const Eigen::Quaterniond orientation = bodies.orientation(q, 0);
  const Eigen::Vector3d axis = orientation * Eigen::Vector3d::UnitZ();
  const Eigen::Vector3d omega = orientation * Eigen::Vector3d(v.tail<3>());
  return omega.cross(axis).z();
}

std::vector<double> run_crossings(const ScenarioRun& run) {
  const auto& bodies = dynamic_cast<const routh::SpatialBodies&>(*run.scenario.model);
  std::vector<double> crossings;
  double t0 = 0.0, f0 = 0.0;
  for (const auto& sample : run.trajectory.samples) {
    if (sample.kind != routh::SampleKind::output) continue;
    const double f1 = axis_sink_rate(bodies, sample.q, sample.v);
    if (f0 * f1 < 0.0) crossings.push_back(crossing(t0, f0, sample.t, f1));
    t0 = sample.t, f0 = f1;
  }
  return crossings;
}

}  // namespace

TEST_CASE("rolling coin wobble: the integrated rolling disk wobbles at the linearised period") {
  // the test's own reference, checked against the closed form before the run is
  const double period = 2.0 * std::numbers::pi / wobble_frequency();
  const double integrated = period_of(integrated_crossings());
  MESSAGE("closed form ", period, " s, integrated ", integrated, " s");
  CHECK(std::abs(integrated / period - 1.0) < linearisation_error());
}

TEST_CASE(
    "rolling coin wobble: a thin coin rolling nearly upright wobbles at the linearised period") {
  const ScenarioRun run = routh::test::run_scenario_file(
      routh::test::write_problem(leaning_coin(), "wobbling_coin.yaml"));
  REQUIRE(run.outcome.status == routh::RunStatus::completed);
  // it rolls on its lower rim (body z = +h/2, "top") throughout: no impact, and every event a
  // hand-over of the rolling contact from one name of the rim's tilt-line ends to the other, as
  // the deepest point passes the body's y axis; no slip, no lift-off
  CHECK(run.outcome.impacts == 0);
  const std::vector<std::string>& names = run.scenario.model->contact_names();
  std::vector<std::string> handed_over;
  for (const auto& event : run.trajectory.events) {
    CAPTURE(event.t);
    CHECK(event.kind == routh::EventKind::edge_end);
    REQUIRE(event.contacts.size() == 1);
    handed_over.push_back(names[static_cast<std::size_t>(event.contacts[0])]);
  }
  REQUIRE(handed_over.size() >= 2);
  for (std::size_t k = 0; k < handed_over.size(); ++k) {
    CAPTURE(k);
    CHECK(handed_over[k] == handed_over[k % 2]);
    CHECK(handed_over[k].starts_with("coin.top_rim.x"));
  }
  CHECK(handed_over[0] != handed_over[1]);
  // and it ends as it rolled: one contact closed and sticking, the name the last hand-over gave
  // the deepest point
  const std::string& rolling =
      handed_over.back() == handed_over[0] ? handed_over[1] : handed_over[0];
  const std::vector<routh::ContactMode>& modes = run.outcome.final_state.modes;
  REQUIRE(modes.size() == names.size());
  for (std::size_t k = 0; k < modes.size(); ++k) {
    CAPTURE(names[k]);
    CHECK(modes[k] == (names[k] == rolling ? routh::ContactMode::stick : routh::ContactMode::open));
  }
  // rolling does no work
  const double energy = run.trajectory.samples.front().energy.total();
  double energy_error = 0.0;
  for (const auto& sample : run.trajectory.samples) {
    energy_error = std::max(energy_error, std::abs(sample.energy.total() - energy));
  }
  CHECK(energy_error < 1e-9 * energy);

  const double closed_form = 2.0 * std::numbers::pi / wobble_frequency();
  const double integrated = period_of(integrated_crossings());
  const double measured = period_of(run_crossings(run));
  MESSAGE("wobble period: closed form ", closed_form, " s, integrated ", integrated, " s, routh ",
          measured, " s (relative to the closed form ", measured / closed_form - 1.0,
          ", to the integration ", measured / integrated - 1.0, ")");
  CHECK(std::abs(measured / closed_form - 1.0) < linearisation_error());
  CHECK(std::abs(measured / integrated - 1.0) < kSameMotion);
}

namespace {

// The shipped rolling coin (scenarios/rolling_coin.yaml: a = 0.012 m, h = 0.002 m, m = 0.006 kg,
// upright at V = 0.5 m/s) given a lean rate ε about the rolling direction x, its contact point
// kept at rest (v_y = −a ε). Its rims rock it about x (plastic slaps, each keeping nearly all of
// the lean rate, the rest speed ending them), and it rolls on at V: the slaps take at most the
// lean's kinetic energy ½ (A + m a²) ε², and nothing else does work.
constexpr double kShippedRadius = 0.012, kShippedHeight = 0.002, kShippedMass = 0.006;

ScenarioRun nudged_shipped_coin(double lean_rate) {
  ScenarioRun run{routh::load_scenario(routh::test::shipped_scenario("rolling_coin.yaml")), {}, {}};
  REQUIRE(run.scenario.initial.v.size() == 6);
  run.scenario.initial.v[1] = -kShippedRadius * lean_rate;  // vy
  run.scenario.initial.v[3] = lean_rate;                    // wx (the body's x is the world's)
  run.scenario.settings.wall_time_limit = 5.0;  // [s]: a regression stops here, not hangs
  run.outcome = routh::simulate(*run.scenario.model, run.scenario.initial, run.scenario.settings,
                                run.trajectory);
  return run;
}

double lean_energy(double lean_rate) {
  const double moment = 1.25 * kShippedMass * kShippedRadius * kShippedRadius +
                        kShippedMass * kShippedHeight * kShippedHeight / 12.0;  // A + m a²
  return 0.5 * moment * lean_rate * lean_rate;
}

}  // namespace

TEST_CASE(
    "rolling coin wobble: the shipped coin nudged by a lean rate rolls on where a fixed rim point "
    "comes to the bottom") {
  // An upright cylinder's fixed rim points y± come to the bottom exactly where the deepest point
  // crosses the body's y axis, the instant its tilt-line ends hand over
  // (spatial_contact_geometry.hpp). Outside the flat band they are off the base they belong to
  // and read the rim's highest point: with the lean's residue they do not touch down there (an
  // impact at 1e-8..1e-6 m/s, after which settling held two material points of one rim 7e-8 m
  // apart and took 61 % of the energy, or the hand-over was missed and the held ends climbed
  // until the run ended in interpenetration). Of ε in {0.2, 0.1, 0.0589, 0.03, 0.01, 0.005,
  // 0.002, 0.001, 5e-4, 2e-4, 1e-4} rad/s, run as shipped (1 s, output at 1 kHz), 0.0589, 0.01,
  // 0.005, 0.002 and 0.001 ended so (at 1e-3 the rims part at h ε/2 = 1e-6 m/s, the rest speed).
  for (const double lean_rate :
       {0.2, 0.1, 0.0589, 0.03, 0.01, 0.005, 0.002, 0.001, 5e-4, 2e-4, 1e-4}) {
    CAPTURE(lean_rate);
    const ScenarioRun run = nudged_shipped_coin(lean_rate);
    CHECK(run.outcome.status == routh::RunStatus::completed);
    const double energy = run.trajectory.samples.front().energy.total();
    for (const auto& sample : run.trajectory.samples) {
      CAPTURE(sample.t);
      CHECK(sample.energy.total() <= energy * (1.0 + 1e-9));
      CHECK(sample.energy.total() >= energy - lean_energy(lean_rate) - 1e-9 * energy);
    }
  }
}
