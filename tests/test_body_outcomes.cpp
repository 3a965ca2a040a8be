// Each watched body's own outcome figures (RunSummary::bodies, BODY.figure in /summary, in
// `routh run --summary`, `routh info` and a sweep's columns), checked against references written
// here from the physics alone: Housner's rocking equation on a corner under a sine pulse (one
// block, and a two-block stack rocking as one rigid body), Coulomb sliding of a block on a
// shaken base, the thresholds g tan α of each mode, and a sliding block's travel v0² / (2 μd g).

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include "sim/recorder/sweep_table.hpp"
#include "sim/recorder/trajectory_summary.hpp"
#include "sim/simulation/outcome_figures.hpp"
#include "sim/simulation/rocking_slenderness.hpp"
#include "sim/text.hpp"
#include "support/routh_process.hpp"
#include "support/scenario_run.hpp"
#include "support/scratch_files.hpp"

namespace {

using routh::BodyOutcome;
using routh::cat;
using routh::test::ScenarioRun;

constexpr double kGravity = 9.81;  // [m/s²], as the models use
// [m/s²]: an excitation's "N g" is N standard gravities (docs/excitation.md)
constexpr double kStandardGravity = 9.80665;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A one-cycle sine pulse a_g(t) = A sin(2π (t − t₀) / T) on [t₀, t₀ + T], zero elsewhere [m/s²]
// (docs/excitation.md).
struct SinePulse {
  double amplitude, period, start;
  double operator()(double t) const {
    if (t < start || t > start + period) return 0.0;
    return amplitude * std::sin(2.0 * std::numbers::pi * (t - start) / period);
  }
};

// A rigid body rocking on a corner of its base under a horizontal ground acceleration a_g(t):
// with r = R(θ)(±c_x, c_y) its centre of mass from the pivot (the left corner for θ > 0, the
// right for θ < 0; c_x the half-width of the base about the centre, c_y its height), the moments
// about the pivot of gravity and of the inertial force −m a_g give
//     I_O θ̈ = m (a_g r_y − g r_x)
// (Housner 1963; the sign of a_g that tips the body onto its left corner is positive). It lifts
// off a flat base when |a_g| reaches g c_x / c_y = g tan α. An impact at θ = 0 moves the pivot to
// the other corner and keeps `restitution` of θ̇ (Housner's r = 1 − (3/2) sin²α for a block).
struct RockingBody {
  double mass_kg, inertia_about_corner_kg_m2, half_base_m, height_m;

  // θ̈ on the corner `side` (+1 left, −1 right) at tilt θ under a_g
  double acceleration(double a_g, double theta, double side) const {
    const double c = std::cos(theta), s = std::sin(theta);
    const double r_x = side * half_base_m * c - height_m * s;
    const double r_y = side * half_base_m * s + height_m * c;
    return mass_kg * (a_g * r_y - kGravity * r_x) / inertia_about_corner_kg_m2;
  }
};

struct RockingHistory {
  bool overturned = false;
  double overturn_time = kNaN;  // [s], where |θ| reached π/2
  int impacts = 0;              // landings before it overturned (or the end)
  double max_abs_theta = 0.0;   // [rad] over [t_up, t_end]
};

// Classical RK4 with steps of `dt` from the uplift on the left corner at t_up (where
// a_g h = g b) to t_end. θ crossing 0 is a landing on the other corner, placed by linear
// interpolation within its step, after which the body rocks on that corner with `restitution`
// of its θ̇.
RockingHistory rock(const RockingBody& body, const std::function<double(double)>& a_g, double t_up,
                    double t_end, double restitution, double dt = 1e-5) {
  RockingHistory history;
  double t = t_up, theta = 0.0, rate = 0.0, side = 1.0;
  while (t < t_end) {
    const double h = std::min(dt, t_end - t);
    const auto f = [&](double time, double th) { return body.acceleration(a_g(time), th, side); };
    const double k1x = rate, k1v = f(t, theta);
    const double k2x = rate + 0.5 * h * k1v, k2v = f(t + 0.5 * h, theta + 0.5 * h * k1x);
    const double k3x = rate + 0.5 * h * k2v, k3v = f(t + 0.5 * h, theta + 0.5 * h * k2x);
    const double k4x = rate + h * k3v, k4v = f(t + h, theta + h * k3x);
    const double next_theta = theta + h / 6.0 * (k1x + 2.0 * k2x + 2.0 * k3x + k4x);
    const double next_rate = rate + h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
    if (next_theta * side < 0.0) {  // lands on the other corner
      t += h * theta / (theta - next_theta);
      ++history.impacts;
      theta = 0.0;
      rate = restitution * next_rate;
      side = -side;
      continue;
    }
    if (std::abs(next_theta) >= 0.5 * std::numbers::pi) {
      const double target = std::copysign(0.5 * std::numbers::pi, next_theta);
      history.overturned = true;
      history.overturn_time = t + h * (target - theta) / (next_theta - theta);
      history.max_abs_theta = 0.5 * std::numbers::pi;
      return history;
    }
    t += h;
    theta = next_theta;
    rate = next_rate;
    history.max_abs_theta = std::max(history.max_abs_theta, std::abs(theta));
  }
  return history;
}

// A uniform block of width w and height h, mass m, rocking on a bottom corner: I_O = m (w² + h²)/3.
RockingBody block(double width_m, double height_m, double mass_kg = 1.0) {
  return {mass_kg, mass_kg * (width_m * width_m + height_m * height_m) / 3.0, 0.5 * width_m,
          0.5 * height_m};
}

// When a pulse first tips a body of threshold g c_x / c_y onto its left corner [s].
double uplift_time(const RockingBody& body, const SinePulse& pulse) {
  const double threshold = kGravity * body.half_base_m / body.height_m;
  return pulse.start +
         pulse.period / (2.0 * std::numbers::pi) * std::asin(threshold / pulse.amplitude);
}

const BodyOutcome& body_named(const routh::SimulationOutcome& outcome, const std::string& name) {
  const auto found = std::find_if(outcome.summary.bodies.begin(), outcome.summary.bodies.end(),
                                  [&](const BodyOutcome& b) { return b.body == name; });
  REQUIRE(found != outcome.summary.bodies.end());
  return *found;
}

// The figure `name` of the outcome's table (outcome_figures), as a number.
double figure(const routh::SimulationOutcome& outcome, const std::string& name) {
  for (const routh::OutcomeFigure& f : routh::outcome_figures(outcome)) {
    if (f.name != name) continue;
    if (const auto* count = std::get_if<std::int64_t>(&f.value)) {
      return static_cast<double>(*count);
    }
    return std::get<double>(f.value);
  }
  FAIL("no figure ", name);
  return kNaN;
}

// rocking_block_pulse.yaml's block: 0.2 m × 1.0 m, tan α = 0.2. Friction 1000 keeps the pivot
// stuck to the end of a fall (test_run_outcomes.cpp says why μ = 10 does not), as the reference
// assumes.
ScenarioRun pulse_run(double amplitude_g, double period_s, double duration_s) {
  return routh::test::run_shipped_scenario("rocking_block_pulse.yaml",
                                           {cat("excitation.0.pulse.amplitude=", amplitude_g, " g"),
                                            cat("excitation.0.pulse.period=", period_s),
                                            cat("duration=", duration_s), "contact.friction=1000"});
}

}  // namespace

TEST_CASE(
    "body outcomes: a slender block under a sine pulse overturns without impact where Housner's "
    "equation says, and its own figures are the whole model's") {
  // Zhang & Makris (2001), "Rocking response of free-standing blocks under cycloidal pulses": a
  // strong long pulse overturns the block before it ever returns to its base (mode 2).
  const RockingBody body = block(0.2, 1.0);
  const SinePulse pulse{0.6 * kStandardGravity, 1.0, 0.2};
  // the first excursion never lands, so no restitution enters the reference
  const RockingHistory reference = rock(body, pulse, uplift_time(body, pulse), 2.0, 0.0);
  REQUIRE(reference.overturned);
  REQUIRE(reference.impacts == 0);

  const ScenarioRun run = pulse_run(0.6, 1.0, 2.0);
  REQUIRE(run.outcome.status == routh::RunStatus::completed);
  REQUIRE(run.outcome.summary.bodies.size() == 1);
  const BodyOutcome& outcome = body_named(run.outcome, "block");
  CHECK(outcome.overturned);
  CHECK(std::abs(outcome.overturn_time - reference.overturn_time) < 1e-6);
  CHECK(figure(run.outcome, "block.impacts_before_overturn") == 0.0);
  // the whole model's impacts include the landing on its side, after it overturned
  CHECK(run.outcome.impacts > 0);

  // one body: its figures are the whole model's
  const routh::RunSummary& summary = run.outcome.summary;
  CHECK(outcome.max_abs_theta == summary.max_abs_theta);
  CHECK(outcome.max_slide == summary.max_slide);
  CHECK(outcome.overturned == summary.overturned);
  CHECK(outcome.overturn_time == summary.overturn_time);
  // a symmetric block: α₊ = α₋ = atan(b/h)
  CHECK(outcome.max_theta_over_alpha ==
        doctest::Approx(outcome.max_abs_theta / std::atan(0.1 / 0.5)).epsilon(1e-12));
  MESSAGE("overturned at ", outcome.overturn_time,
          " s; Housner's equation: ", reference.overturn_time, " s");
}

TEST_CASE(
    "body outcomes: a weaker sine pulse overturns the block after one impact, whatever the "
    "rocking restitution") {
  // At 0.3 g the block lands once and the pulse's last half throws it over the other corner
  // (Zhang & Makris's mode 1). The reference gives one impact for every restitution of θ̇ from
  // 0.7 to 1 (Housner's r = 1 − 1.5 sin²α = 0.942 among them): the count does not hang on the law.
  const RockingBody body = block(0.2, 1.0);
  const SinePulse pulse{0.3 * kStandardGravity, 1.0, 0.2};
  const double alpha = std::atan(0.2);
  for (const double restitution : {0.7, 1.0 - 1.5 * std::pow(std::sin(alpha), 2), 1.0}) {
    CAPTURE(restitution);
    const RockingHistory reference = rock(body, pulse, uplift_time(body, pulse), 3.0, restitution);
    REQUIRE(reference.overturned);
    REQUIRE(reference.impacts == 1);
  }
  const ScenarioRun run = pulse_run(0.3, 1.0, 3.0);
  REQUIRE(run.outcome.status == routh::RunStatus::completed);
  const BodyOutcome& outcome = body_named(run.outcome, "block");
  CHECK(outcome.overturned);
  CHECK(figure(run.outcome, "block.impacts_before_overturn") == 1.0);
  CHECK(run.outcome.impacts > 1);  // and the landing after it overturned

  // at 0.15 g (below g tan α = 0.2 g) it never lifts: not overturned, −1 impacts before
  const ScenarioRun still = pulse_run(0.15, 1.0, 1.5);
  const BodyOutcome& resting = body_named(still.outcome, "block");
  CHECK_FALSE(resting.overturned);
  CHECK(std::isnan(resting.overturn_time));
  CHECK(figure(still.outcome, "block.impacts_before_overturn") == -1.0);
  CHECK(resting.max_abs_theta < 1e-9);
  CHECK(std::abs(resting.residual_rotation) < 1e-9);
}

TEST_CASE(
    "body outcomes: on a shaken two-block stack only the top block rocks, as the thresholds "
    "g tan α of each mode say") {
  // stacked_blocks.yaml: block2 (0.15 m × 0.6 m) on block1 (0.6 m × 0.3 m, 10 kg) under
  // 3.5 m/s² at 3 Hz. The top block lifts at g b/h = 2.45 m/s²; the stack would rock on the
  // floor about block1's corner at g c_x / c_y with c the stack's centre of mass from it, and
  // slide at μ g = 6.9 m/s².
  const double amplitude = 3.5, frequency = 3.0;
  const double top_threshold = kGravity * 0.075 / 0.3;
  const double stack_height = (10.0 * 0.15 + 1.0 * (0.3 + 0.3)) / 11.0;
  const double stack_threshold = kGravity * 0.3 / stack_height;
  REQUIRE(top_threshold < amplitude);
  REQUIRE(amplitude < std::min(stack_threshold, 0.7 * kGravity));

  const ScenarioRun run = routh::test::run_shipped_scenario("stacked_blocks.yaml", {"duration=1"});
  REQUIRE(run.outcome.status == routh::RunStatus::completed);
  REQUIRE(run.outcome.summary.bodies.size() == 2);
  const BodyOutcome& bottom = body_named(run.outcome, "block1");
  const BodyOutcome& top = body_named(run.outcome, "block2");
  CHECK(bottom.max_abs_theta < 1e-9);
  CHECK(bottom.max_slide < 1e-9);
  CHECK(top.max_abs_theta > 0.01);
  CHECK_FALSE(top.overturned);
  // the first lift-off is the top block's, where a_g first reaches its threshold
  const double expected_uplift =
      std::asin(top_threshold / amplitude) / (2.0 * std::numbers::pi * frequency);
  CHECK(run.outcome.summary.uplift_time == doctest::Approx(expected_uplift).epsilon(1e-9));
  // the whole model's rotation is the top block's
  CHECK(run.outcome.summary.max_abs_theta == top.max_abs_theta);
  CHECK(top.max_theta_over_alpha ==
        doctest::Approx(top.max_abs_theta / std::atan(0.075 / 0.3)).epsilon(1e-12));
}

TEST_CASE(
    "body outcomes: a stack with a stocky top rocks as one rigid body, as its rocking equation "
    "says") {
  // A 2 kg block 0.16 m × 0.2 m (tan α = 0.8) on a 10 kg block 0.2 m × 1.0 m. Together their
  // centre of mass stands c = (0.1, 0.6) m from the bottom block's corner: the stack lifts at
  // g 0.1/0.6 = 1.64 m/s², the top block alone would need g 0.8 = 7.8 m/s². Under a 0.25 g
  // sine pulse of 1 s the stack rocks as one on the floor; the run ends before it lands again,
  // so no impact enters the reference.
  const std::string scenario =
      "duration: 0.9\n"
      "model:\n"
      "  type: stacked_blocks\n"
      "  blocks: 2\n"
      "  names: [base, top]\n"
      "  width: [0.2, 0.16]\n"
      "  height: [1.0, 0.2]\n"
      "  mass: [10, 2]\n"
      "initial: {}\n"
      "contact:\n"
      "  law: poisson\n"
      "  multi_contact_law: multipoint_energetic\n"
      "  restitution: 0.0\n"
      "  friction: 1000\n"
      "excitation:\n"
      "  - pulse: {shape: sine, amplitude: 0.25 g, period: 1.0, direction: x, start: 0.2}\n"
      "output: {rate: 100}\n";
  const std::string path = routh::test::write_problem(scenario, "stack_as_one.yaml");
  const ScenarioRun run = routh::test::run_scenario_file(path);
  REQUIRE(run.outcome.status == routh::RunStatus::completed);

  // the composite about the bottom block's left corner: each block's I about its centre,
  // m (w² + h²)/12, moved to the corner
  const double base_inertia = 10.0 * (0.04 + 1.0) / 12.0 + 10.0 * (0.1 * 0.1 + 0.5 * 0.5);
  const double top_inertia = 2.0 * (0.16 * 0.16 + 0.04) / 12.0 + 2.0 * (0.1 * 0.1 + 1.1 * 1.1);
  const RockingBody stack{12.0, base_inertia + top_inertia, 0.1, (10.0 * 0.5 + 2.0 * 1.1) / 12.0};
  const SinePulse pulse{0.25 * kStandardGravity, 1.0, 0.2};
  const RockingHistory reference = rock(stack, pulse, uplift_time(stack, pulse), 0.9, 0.0);
  REQUIRE(reference.impacts == 0);
  REQUIRE(reference.max_abs_theta > 0.02);

  const BodyOutcome& base = body_named(run.outcome, "base");
  const BodyOutcome& top = body_named(run.outcome, "top");
  CHECK(run.outcome.impacts == 0);
  CHECK(base.max_abs_theta == doctest::Approx(reference.max_abs_theta).epsilon(1e-6));
  CHECK(top.max_abs_theta == doctest::Approx(reference.max_abs_theta).epsilon(1e-6));
  // each over its own slenderness: tan α = 0.1/0.5 and 0.08/0.1
  CHECK(base.max_theta_over_alpha ==
        doctest::Approx(reference.max_abs_theta / std::atan(0.2)).epsilon(1e-6));
  CHECK(top.max_theta_over_alpha ==
        doctest::Approx(reference.max_abs_theta / std::atan(0.8)).epsilon(1e-6));
  MESSAGE("stack's largest tilt ", base.max_abs_theta,
          " rad; its rocking equation: ", reference.max_abs_theta, " rad");
}

TEST_CASE(
    "body outcomes: a stocky top block slides on its base as Coulomb's law says, and the base "
    "stays put") {
  // A 1 kg block 0.4 m × 0.1 m (tan α = 4: it never rocks) on a 10 kg block 0.6 m × 0.3 m; μ = 0.2
  // between them, 0.8 on the floor. Under a 0.4 g sine pulse of 0.5 s the base holds (the floor
  // must bear 10 a_g + 0.2 g ≤ 0.8 · 11 g), and the top slides on it whenever it moves or
  // |a_g| > μ g, with  ẍ = −a_g − μ g sgn ẋ  (relative to the base, which moves with the
  // ground).
  const std::string scenario =
      "duration: 1.2\n"
      "model:\n"
      "  type: stacked_blocks\n"
      "  blocks: 2\n"
      "  names: [base, top]\n"
      "  width: [0.6, 0.4]\n"
      "  height: [0.3, 0.1]\n"
      "  mass: [10, 1]\n"
      "initial: {}\n"
      "contact:\n"
      "  law: poisson\n"
      "  multi_contact_law: multipoint_energetic\n"
      "  restitution: 0.0\n"
      "  friction: 0.2\n"
      "  contacts:\n"
      "    base.bottom_left/floor: {friction: 0.8}\n"
      "    base.bottom_right/floor: {friction: 0.8}\n"
      "excitation:\n"
      "  - pulse: {shape: sine, amplitude: 0.4 g, period: 0.5, direction: x, start: 0.2}\n"
      "output: {rate: 100}\n";
  const std::string path = routh::test::write_problem(scenario, "top_slides.yaml");
  const ScenarioRun run = routh::test::run_scenario_file(path);
  REQUIRE(run.outcome.status == routh::RunStatus::completed);

  // Coulomb sliding by RK4 (steps of 1e-5 s), the slip's sign fixed within a step; a step whose
  // slip changes sign ends at the stop (bisection), where the block sticks if |a_g| ≤ μ g.
  const SinePulse pulse{0.4 * kStandardGravity, 0.5, 0.2};
  const double mu_g = 0.2 * kGravity, dt = 1e-5;
  double t = 0.0, x = 0.0, v = 0.0, max_slide = 0.0;
  while (t < 1.2) {
    const double h = std::min(dt, 1.2 - t);
    if (v == 0.0 && std::abs(pulse(t + 0.5 * h)) <= mu_g) {  // sticks through the step
      t += h;
      continue;
    }
    const double sign = v != 0.0 ? (v > 0.0 ? 1.0 : -1.0) : (pulse(t + 0.5 * h) > 0.0 ? -1.0 : 1.0);
    const auto a = [&](double time) { return -pulse(time) - mu_g * sign; };
    // ẋ = v, v̇ = a(t): RK4 of a right-hand side of t alone is Simpson's rule
    const auto advance = [&](double span, double& x1, double& v1) {
      const double a0 = a(t), am = a(t + 0.5 * span), a1 = a(t + span);
      v1 = v + span / 6.0 * (a0 + 4.0 * am + a1);
      x1 = x + span * v + span * span / 6.0 * (a0 + 2.0 * am);
    };
    double x1 = 0.0, v1 = 0.0;
    advance(h, x1, v1);
    if (v1 * sign < 0.0) {  // stops within the step
      double low = 0.0, high = h;
      for (int i = 0; i < 60; ++i) {
        const double mid = 0.5 * (low + high);
        advance(mid, x1, v1);
        (v1 * sign > 0.0 ? low : high) = mid;
      }
      advance(low, x1, v1);
      t += low;
      x = x1;
      v = 0.0;
    } else {
      t += h;
      x = x1;
      v = v1;
    }
    max_slide = std::max(max_slide, std::abs(x));
  }
  REQUIRE(v == 0.0);  // at rest on the base by the end
  REQUIRE(max_slide > 0.01);

  const BodyOutcome& base = body_named(run.outcome, "base");
  const BodyOutcome& top = body_named(run.outcome, "top");
  CHECK(base.max_slide < 1e-9);
  CHECK(base.max_abs_theta < 1e-9);
  CHECK(top.max_abs_theta < 1e-9);
  CHECK(top.max_slide == doctest::Approx(max_slide).epsilon(1e-6));
  CHECK(top.residual_slide == doctest::Approx(x).epsilon(1e-6));
  CHECK(std::abs(top.residual_rotation) < 1e-9);
  MESSAGE("top slid at most ", top.max_slide, " m and ended ", top.residual_slide,
          " m away; Coulomb's law: ", max_slide, " m and ", x, " m");
}

TEST_CASE("body outcomes: a sliding block's residual slide is its travel v0² / (2 μd g)") {
  // sliding_block.yaml: 0.4 m × 0.2 m launched flat along +x at v0 = 2 m/s, μd = 0.4: it
  // decelerates at μd g and sticks after v0² / (2 μd g), without turning.
  const ScenarioRun run = routh::test::run_shipped_scenario("sliding_block.yaml");
  REQUIRE(run.outcome.status == routh::RunStatus::completed);
  const double travel = 2.0 * 2.0 / (2.0 * 0.4 * kGravity);
  const BodyOutcome& body = body_named(run.outcome, "block");
  CHECK(body.residual_slide == doctest::Approx(travel).epsilon(1e-8));
  CHECK(body.max_slide == doctest::Approx(travel).epsilon(1e-8));
  CHECK(std::abs(body.residual_rotation) < 1e-12);
  CHECK(body.max_abs_theta < 1e-12);
  CHECK_FALSE(body.overturned);
}

TEST_CASE(
    "body outcomes: a spatial box's slenderness is about the base edge it leans to, a cylinder's "
    "about its rim") {
  // A box 0.2 × 0.4 × 1.0 m standing on its 0.2 × 0.4 face: tilted about the body y axis it
  // rocks on an edge 0.1 m from its axis (tan α = 0.1/0.5), about x on one 0.2 m away
  // (tan α = 0.2/0.5). A cylinder of radius r and height h: tan α = r / (h/2) in every direction.
  routh::UprightFrame box{.coordinate = 3, .rate = 3, .up_axis = Eigen::Vector3d::UnitZ()};
  routh::StandingBase base;
  for (const double x : {-0.1, 0.1}) {
    for (const double y : {-0.2, 0.2}) base.corners_m.emplace_back(x, y, -0.5);
  }
  Eigen::VectorXd q = Eigen::VectorXd::Zero(7);
  const auto tilted = [&](const Eigen::Vector3d& axis, double angle) {
    const Eigen::Quaterniond turn(Eigen::AngleAxisd(angle, axis));
    q.segment<4>(3) << turn.w(), turn.x(), turn.y(), turn.z();
    return q;
  };
  const double tilt = 0.05;
  CHECK(routh::tilt_over_slenderness(box, base, tilted(Eigen::Vector3d::UnitY(), tilt)) ==
        doctest::Approx(tilt / std::atan(0.2)).epsilon(1e-9));
  CHECK(routh::tilt_over_slenderness(box, base, tilted(Eigen::Vector3d::UnitX(), -tilt)) ==
        doctest::Approx(tilt / std::atan(0.4)).epsilon(1e-9));
  // the same lean after a spin about the vertical: the body-frame lean is what counts
  const Eigen::Quaterniond spun =
      Eigen::Quaterniond(Eigen::AngleAxisd(tilt, Eigen::Vector3d::UnitY())) *
      Eigen::Quaterniond(Eigen::AngleAxisd(0.5 * std::numbers::pi, Eigen::Vector3d::UnitZ()));
  q.segment<4>(3) << spun.w(), spun.x(), spun.y(), spun.z();
  CHECK(routh::tilt_over_slenderness(box, base, q) ==
        doctest::Approx(tilt / std::atan(0.4)).epsilon(1e-9));

  const routh::StandingBase disk{{Eigen::Vector3d(0.0, 0.0, -0.3)}, 0.15};
  for (const double direction : {0.0, 0.7, 2.0}) {
    const Eigen::Vector3d axis(std::cos(direction), std::sin(direction), 0.0);
    CHECK(routh::tilt_over_slenderness(box, disk, tilted(axis, tilt)) ==
          doctest::Approx(tilt / std::atan(0.15 / 0.3)).epsilon(1e-9));
  }
}

TEST_CASE(
    "body outcomes: a box in space released at half its critical angle rocks to θ/α = 1/2 and "
    "rests upright") {
  // rocking_block_3d.yaml: a 0.2 × 0.2 × 1.0 m box released from rest on a bottom edge at
  // α/2 = atan(0.2)/2; its largest tilt is the release (the impacts only take energy away), and
  // it comes to rest standing on its base.
  const ScenarioRun run = routh::test::run_shipped_scenario("rocking_block_3d.yaml");
  REQUIRE(run.outcome.status == routh::RunStatus::completed);
  const BodyOutcome& box = body_named(run.outcome, "block");
  CHECK(box.max_abs_theta == run.outcome.summary.max_abs_theta);
  CHECK(box.max_theta_over_alpha == doctest::Approx(0.5).epsilon(1e-12));
  CHECK(std::abs(box.residual_rotation) < 1e-9);
  CHECK_FALSE(box.overturned);
  CHECK(figure(run.outcome, "block.impacts_before_overturn") == -1.0);
  CHECK(std::isnan(box.max_slide));  // not measured in space
}

TEST_CASE(
    "body outcomes: routh run --summary, routh info and a sweep's columns carry each body's "
    "figures") {
  const std::string stack = routh::test::shipped_scenario("stacked_blocks.yaml");
  const ScenarioRun run =
      routh::test::run_shipped_scenario("stacked_blocks.yaml", {"duration=0.5"});
  REQUIRE(run.outcome.status == routh::RunStatus::completed);

  const routh::test::RouthRun single = routh::test::run_routh(
      cat("run '", stack, "' -o stack.h5 --force --summary --set duration=0.5"));
  REQUIRE_MESSAGE(single.exit_code == 0, single.err);
  for (const routh::OutcomeFigure& f : routh::outcome_figures(run.outcome)) {
    CAPTURE(f.name);
    CHECK(single.out.find(cat("\"", f.name, "\":")) != std::string::npos);
  }
  // the file's /summary, as routh info reads it, in the table's order
  const routh::TrajectorySummary file =
      routh::summarize_trajectory(routh::test::scratch() / "stack.h5");
  std::vector<std::string> numbers;
  for (const routh::OutcomeFigure& f : routh::outcome_figures(run.outcome)) {
    if (!std::holds_alternative<std::string>(f.value)) numbers.push_back(f.name);
  }
  REQUIRE(file.outcome.size() == numbers.size());
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    CAPTURE(numbers[i]);
    CHECK(file.outcome[i].first == numbers[i]);
    const double expected = figure(run.outcome, numbers[i]);
    if (std::isnan(expected)) {
      CHECK(std::isnan(file.outcome[i].second));
    } else {
      CHECK(file.outcome[i].second == expected);
    }
  }
  const routh::test::RouthRun info = routh::test::run_routh("info stack.h5");
  REQUIRE_MESSAGE(info.exit_code == 0, info.err);
  CHECK(info.out.find("max_theta_over_alpha") != std::string::npos);
  CHECK(info.out.find("block1") != std::string::npos);
  CHECK(info.out.find("block2") != std::string::npos);

  // a sweep over the blocks' names: run 1 has no block2, so its block2 columns are −1 and NaN
  routh::test::write_problem(cat("base: '", stack, "'\n",
                                 "grid:\n"
                                 "  duration: [0.5]\n"
                                 "  model.names: [[block1, block2], [block1, statue]]\n"
                                 "output: {file: stack_sweep.h5}\n"),
                             "stack_sweep.yaml");
  const routh::test::RouthRun sweep =
      routh::test::run_routh("sweep stack_sweep.yaml --force --jobs 1");
  REQUIRE_MESSAGE(sweep.exit_code == 0, sweep.err);
  const routh::SweepTable table =
      routh::read_sweep_table(routh::test::scratch() / "stack_sweep.h5");
  REQUIRE(table.rows.size() == 2);
  const auto column = [&](const std::string& name) {
    const auto found = std::find_if(table.columns.begin(), table.columns.end(),
                                    [&](const routh::TableColumn& c) { return c.name == name; });
    REQUIRE(found != table.columns.end());
    return static_cast<std::size_t>(found - table.columns.begin());
  };
  // after the whole model's figures, block1's then block2's
  CHECK(column("block1.max_abs_theta") > column("final_time"));
  CHECK(column("block2.max_abs_theta") > column("block1.residual_slide"));
  CHECK(table.columns[column("block2.max_slide")].unit == "m");
  for (const BodyOutcome& body : run.outcome.summary.bodies) {
    CAPTURE(body.body);
    CHECK(std::get<double>(table.rows[0][column(body.body + ".max_abs_theta")]) ==
          body.max_abs_theta);
    CHECK(std::get<std::int64_t>(table.rows[0][column(body.body + ".impacts_before_overturn")]) ==
          -1);
  }
  CHECK(std::get<double>(table.rows[1][column("block1.max_abs_theta")]) ==
        run.outcome.summary.bodies[0].max_abs_theta);
  CHECK(std::isnan(std::get<double>(table.rows[1][column("block2.max_abs_theta")])));
  CHECK(std::get<std::int64_t>(table.rows[1][column("block2.overturned")]) == -1);
}
