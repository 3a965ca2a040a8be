// Validation of uniform spheres in 3D (models/spatial) run as `routh run` runs them, through the
// scenario loader: the shipped bowling_ball, masse_shot, spinning_ball_bounce and two_spheres_3d,
// with `--set` overrides for their variations, against closed forms written here from the
// scenario's own parameters, and a seeded campaign of random throws of one to three balls.
//
// A uniform ball of mass m and radius r on the floor z = 0 touches it at ρ = −r ẑ from its centre;
// its contact point moves at u = v + ω × ρ (ω in the world frame). Along the floor's tangent plane
// an impulse or force P at that point changes u by (1/m + r²/I) P = 7 P / (2m) (I = 2/5 m r²),
// along the normal by P / m, and the two do not couple: the slip keeps its direction under
// Coulomb friction, and normal restitution is the same whether Poisson's, Newton's or Stronge's.

#include <doctest/doctest.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cmath>
#include <iomanip>
#include <numbers>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "models/spatial/spatial_bodies.hpp"
#include "sim/text.hpp"
#include "support/printed_value.hpp"
#include "support/random_source.hpp"
#include "support/sanitizers.hpp"
#include "support/scenario_run.hpp"
#include "support/scratch_files.hpp"
#include "support/trajectory_checks.hpp"

namespace {

using routh::EventKind;
using routh::RunStatus;
using routh::test::ScenarioRun;
using routh::test::TrajectoryMemory;

constexpr double kGravity = 9.81;  // [m/s²], the spatial models' default gravity

// Relative error of a quantity that a law or a rotation computes in a few operations.
constexpr double kRoundOff = 1e-13;
// Relative error of the world-frame spin R ω over a run: the orientation R and the body-frame ω
// are integrated at relative tolerance 3e-11 (the default), each step's error bounded by it.
constexpr double kIntegratedSpin = 1e-10;

// The single-contact spatial laws a scenario's contact.law may name.
constexpr const char* kSpatialLaws[] = {"sliding_ode", "sliding_ode_energetic", "park", "newton"};

// A number written so that YAML reads back the same double.
std::string exact(double value) {
  std::ostringstream out;
  out << std::setprecision(17) << value;
  return out.str();
}

const routh::SpatialBody& spatial_body(const routh::Scenario& scenario, int body) {
  return dynamic_cast<const routh::SpatialBodies&>(*scenario.model)
      .description()
      .bodies[static_cast<std::size_t>(body)];
}

double sphere_radius(const routh::Scenario& scenario, int body) {
  return std::get<routh::SphereShape>(spatial_body(scenario, body).shape).radius_m;
}

// Body b's centre, velocity, orientation and angular velocity (world frame) in (q, v).
struct BodyState {
  Eigen::Vector3d centre, velocity, omega_body, omega;
  Eigen::Quaterniond orientation;
};
BodyState body_state(const Eigen::VectorXd& q, const Eigen::VectorXd& v, int b) {
  const int i = routh::spatial_coordinate_start(b), j = routh::spatial_velocity_start(b);
  BodyState state;
  state.centre = q.segment<3>(i);
  state.orientation = Eigen::Quaterniond(q[i + 3], q[i + 4], q[i + 5], q[i + 6]).normalized();
  state.velocity = v.segment<3>(j);
  state.omega_body = v.segment<3>(j + 3);
  state.omega = state.orientation * state.omega_body;
  return state;
}

// The tangential slip u = v + ω × (−r ẑ) of a ball on the floor z = 0 (its z part is dropped).
Eigen::Vector3d floor_slip(const BodyState& ball, double radius) {
  Eigen::Vector3d u = ball.velocity + ball.omega.cross(Eigen::Vector3d(0.0, 0.0, -radius));
  u.z() = 0.0;
  return u;
}

// The first and the last sample at time t: the states just before and just after its events.
struct EventSamples {
  const TrajectoryMemory::Sample* before = nullptr;
  const TrajectoryMemory::Sample* after = nullptr;
};
EventSamples samples_at(const TrajectoryMemory& trajectory, double t) {
  EventSamples found;
  for (const auto& sample : trajectory.samples) {
    if (sample.t != t) continue;
    if (found.before == nullptr) found.before = &sample;
    found.after = &sample;
  }
  return found;
}

// "{ball.vx: 1, ball.wz: 2}" from names and values: a whole `initial.v` or `initial.q` map.
std::string yaml_map(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string text = "{";
  for (const auto& [key, value] : entries) {
    text += routh::cat(text.size() > 1 ? ", " : "", key, ": ", value);
  }
  return text + "}";
}

}  // namespace

// --- 1. sliding to rolling ---------------------------------------------------------------------

TEST_CASE(
    "spatial sphere validation: bowling_ball and masse_shot slide along Coriolis' parabola and "
    "roll from t* = 2|u0|/(7 mu g)") {
  // Coriolis, "Théorie mathématique des effets du jeu de billard" (1835); Giacaglia. While the ball
  // slides, friction −μ m g û₀ acts against the slip's fixed direction û₀: the centre accelerates
  // at −μ g û₀ (a parabola, p = p₀ + v₀ t − ½ μ g t² û₀), the spin at (5 μ g / 2r) ẑ × û₀, and the
  // slip shrinks at (7/2) μ g until it vanishes at t* = 2|u₀| / (7 μ g). From then on the ball
  // rolls straight at v₀ − (2/7) u₀, having lost m |u₀|² / 7 of kinetic energy. The torque
  // (−r ẑ) × F is horizontal: the spin about the vertical never changes.
  for (const std::string name : {"bowling_ball.yaml", "masse_shot.yaml"}) {
    CAPTURE(name);
    const ScenarioRun run = routh::test::run_shipped_scenario(name);
    REQUIRE(run.outcome.status == RunStatus::completed);
    const double r = sphere_radius(run.scenario, 0), m = spatial_body(run.scenario, 0).mass_kg;
    const double mu = run.scenario.settings.contacts[0].kinetic_friction;
    const BodyState start = body_state(run.scenario.initial.q, run.scenario.initial.v, 0);
    const Eigen::Vector3d u0 = floor_slip(start, r), slip_direction = u0.normalized();
    const double t_star = 2.0 * u0.norm() / (7.0 * mu * kGravity);
    const Eigen::Vector3d v_roll = start.velocity - (2.0 / 7.0) * u0;
    const Eigen::Vector3d spin_rate =
        (2.5 * mu * kGravity / r) * Eigen::Vector3d::UnitZ().cross(slip_direction);
    REQUIRE(t_star < run.scenario.settings.duration);

    const std::vector<double> sticks = run.trajectory.times_of(EventKind::stick);
    REQUIRE(sticks.size() == 1);
    CHECK(sticks[0] == doctest::Approx(t_star).epsilon(1e-9));
    CHECK(run.outcome.impacts == 0);

    const auto sliding_centre = [&](double t) {
      return Eigen::Vector3d(start.centre + start.velocity * t -
                             0.5 * mu * kGravity * t * t * slip_direction);
    };
    double worst_path = 0.0, worst_velocity = 0.0, worst_spin = 0.0, worst_turn = 0.0, spin = 0.0;
    for (const auto& sample : run.trajectory.samples) {
      const BodyState ball = body_state(sample.q, sample.v, 0);
      const double t = std::min(sample.t, t_star), after = sample.t - t;
      const Eigen::Vector3d centre = sliding_centre(t) + v_roll * after;
      const Eigen::Vector3d velocity =
          after > 0.0 ? v_roll
                      : Eigen::Vector3d(start.velocity - mu * kGravity * t * slip_direction);
      worst_path = std::max(worst_path, (ball.centre - centre).norm());
      worst_velocity = std::max(worst_velocity, (ball.velocity - velocity).norm());
      worst_spin = std::max(worst_spin, (ball.omega - (start.omega + spin_rate * t)).norm());
      spin = std::max(spin, ball.omega.norm());
      // the slip's direction: its part across û₀
      worst_turn = std::max(worst_turn, floor_slip(ball, r).cross(slip_direction).norm());
    }
    MESSAGE(name, ": t* = ", t_star, " s, stick at ", sticks[0],
            " s; largest deviation from the "
            "closed form: path ",
            worst_path, " m, velocity ", worst_velocity, " m/s, spin ", worst_spin,
            " rad/s, slip across u0 ", worst_turn, " m/s");
    CHECK(worst_path < 1e-9);
    CHECK(worst_velocity < 1e-9);
    CHECK(worst_spin < kIntegratedSpin * spin);
    CHECK(worst_turn < 1e-9);

    const BodyState end = body_state(run.outcome.final_state.q, run.outcome.final_state.v, 0);
    CHECK((end.velocity - v_roll).norm() < 1e-9);
    CHECK(floor_slip(end, r).norm() < 1e-9);
    CHECK(std::abs(end.omega.z() - start.omega.z()) < kIntegratedSpin * spin);
    const double lost = run.trajectory.samples.front().energy.kinetic -
                        run.trajectory.samples.back().energy.kinetic;
    CHECK(lost == doctest::Approx(m * u0.squaredNorm() / 7.0).epsilon(1e-9));
  }
}

TEST_CASE("spatial sphere validation: bowling_ball's figures are those its comment states") {
  // The scenario's comment: u₀ = (8, 3.255) m/s, t* = 1.258 s, v = (5.714, −0.930) m/s after,
  // 77.4 J dissipated; masse_shot's: u₀ = (2.7145, 1.143) m/s, t* = 0.429 s, v = (0.2244,
  // −0.3266) m/s. Written to the digits printed there, from the closed forms above.
  struct Stated {
    const char* name;
    double ux, uy, t_star, vx, vy, lost;
    int decimals;
  };
  for (const Stated& stated :
       {Stated{"bowling_ball.yaml", 8.0, 3.255, 1.258, 5.714, -0.930, 77.4, 3},
        Stated{"masse_shot.yaml", 2.7145, 1.143, 0.429, 0.2244, -0.3266, -1.0, 4}}) {
    CAPTURE(std::string(stated.name));
    const routh::Scenario scenario =
        routh::load_scenario(routh::test::shipped_scenario(stated.name));
    const double r = sphere_radius(scenario, 0), m = spatial_body(scenario, 0).mass_kg;
    const double mu = scenario.settings.contacts[0].kinetic_friction;
    const BodyState start = body_state(scenario.initial.q, scenario.initial.v, 0);
    const Eigen::Vector3d u0 = floor_slip(start, r);
    const Eigen::Vector3d v_roll = start.velocity - (2.0 / 7.0) * u0;
    CHECK_PRINTED(u0.x(), stated.ux, stated.decimals);
    CHECK_PRINTED(u0.y(), stated.uy, stated.decimals);
    CHECK_PRINTED(2.0 * u0.norm() / (7.0 * mu * kGravity), stated.t_star, 3);
    CHECK_PRINTED(v_roll.x(), stated.vx, stated.decimals);
    CHECK_PRINTED(v_roll.y(), stated.vy, stated.decimals);
    if (stated.lost > 0.0) CHECK_PRINTED(m * u0.squaredNorm() / 7.0, stated.lost, 1);
  }
}

TEST_CASE(
    "spatial sphere validation: a rolling ball spinning about the vertical keeps v and omega") {
  // Routh, "Advanced Rigid Dynamics", §243: a uniform ball rolling on a level floor feels only the
  // normal reaction, whatever its spin about the vertical, so v and ω stay; with an isotropic
  // inertia ω is also constant in the body frame (Euler's equations without torque).
  const double r =
      sphere_radius(routh::load_scenario(routh::test::shipped_scenario("bowling_ball.yaml")), 0);
  const double vx = 6.0, vy = -2.5, spin = 15.0;  // [m/s], [rad/s] about the vertical
  // rolling: v + ω × (−r ẑ) = (v_x − r ω_y, v_y + r ω_x) = 0
  const Eigen::Vector3d v0(vx, vy, 0.0), omega0(-vy / r, vx / r, spin);
  const ScenarioRun run = routh::test::run_shipped_scenario(
      "bowling_ball.yaml", {routh::cat("initial.v=", yaml_map({{"ball.vx", exact(v0.x())},
                                                               {"ball.vy", exact(v0.y())},
                                                               {"ball.wx", exact(omega0.x())},
                                                               {"ball.wy", exact(omega0.y())},
                                                               {"ball.wz", exact(omega0.z())}}))});
  REQUIRE(run.outcome.status == RunStatus::completed);
  REQUIRE(floor_slip(body_state(run.scenario.initial.q, run.scenario.initial.v, 0), r).norm() <
          1e-15);
  CHECK(run.outcome.events == 0);
  double worst_v = 0.0, worst_omega = 0.0, worst_height = 0.0;
  for (const auto& sample : run.trajectory.samples) {
    const BodyState ball = body_state(sample.q, sample.v, 0);
    worst_v = std::max(worst_v, (ball.velocity - v0).norm());
    worst_omega = std::max(worst_omega, (ball.omega_body - omega0).norm());
    worst_omega = std::max(worst_omega, (ball.omega - omega0).norm());
    worst_height = std::max(worst_height, std::abs(ball.centre.z() - r));
  }
  MESSAGE("rolling for ", run.scenario.settings.duration, " s: |Δv| ≤ ", worst_v, " m/s, |Δω| ≤ ",
          worst_omega, " rad/s, |z − r| ≤ ", worst_height, " m");
  CHECK(worst_v < 1e-12);
  CHECK(worst_omega < 1e-12);
  CHECK(worst_height < 1e-12);
}

// --- 2. an oblique spinning bounce -------------------------------------------------------------

namespace {

// The velocities of a uniform ball just after it strikes the floor with restitution e and
// friction μ: the normal impulse (1 + e) m |v_n|, and a tangential one that opposes the slip u_t
// (which keeps its direction) and stops it if μ ≥ μ* = 2|u_t| / (7 (1 + e) |v_n|), else is
// μ times the normal one. (Routh, "Elementary Rigid Dynamics", §187; Stronge, "Impact
// Mechanics", §5.2, a sphere on a half-space.)
struct BounceAnswer {
  Eigen::Vector3d velocity, omega;
  bool slip_halts;
};
BounceAnswer bounce(const BodyState& ball, double m, double r, double e, double mu) {
  const double approach = -ball.velocity.z();
  const Eigen::Vector3d slip = floor_slip(ball, r);
  const double normal = (1.0 + e) * m * approach;
  const double halting = 2.0 * slip.norm() / (7.0 * (1.0 + e) * approach);  // μ*
  const Eigen::Vector3d tangential = mu >= halting
                                         ? Eigen::Vector3d(-(2.0 / 7.0) * m * slip)
                                         : Eigen::Vector3d(-mu * normal * slip.normalized());
  const Eigen::Vector3d impulse = tangential + normal * Eigen::Vector3d::UnitZ();
  const double inertia = 0.4 * m * r * r;
  return {ball.velocity + impulse / m,
          ball.omega + Eigen::Vector3d(0.0, 0.0, -r).cross(impulse) / inertia, mu >= halting};
}

}  // namespace

TEST_CASE(
    "spatial sphere validation: an oblique spinning bounce matches the uniform ball's closed form "
    "in both regimes, under every single-contact spatial law") {
  // spinning_ball_bounce.yaml dropped from 0.5 m with a slip along neither axis and a spin about
  // the vertical; friction at half and at twice the μ* that halts the slip, for each law.
  const std::string v_map = yaml_map({{"ball.vx", "1.0"},
                                      {"ball.vy", "-0.6"},
                                      {"ball.wx", "12"},
                                      {"ball.wy", "-20"},
                                      {"ball.wz", "30"}});
  const routh::Scenario dropped =
      routh::load_scenario(routh::test::shipped_scenario("spinning_ball_bounce.yaml"),
                           std::vector<std::string>{routh::cat("initial.v=", v_map)});
  const double r = sphere_radius(dropped, 0), m = spatial_body(dropped, 0).mass_kg;
  const double e = dropped.settings.contacts[0].restitution;
  const BodyState start = body_state(dropped.initial.q, dropped.initial.v, 0);
  const double drop = start.centre.z() - r;
  const double t1 = std::sqrt(2.0 * drop / kGravity);  // free fall to the floor
  const double halting =
      2.0 * floor_slip(start, r).norm() / (7.0 * (1.0 + e) * std::sqrt(2.0 * kGravity * drop));
  MESSAGE("first impact at ", t1, " s, slip ", floor_slip(start, r).transpose(),
          " m/s, the slip halts for mu >= ", halting);
  for (const double mu : {0.5 * halting, 2.0 * halting}) {
    for (const std::string law : kSpatialLaws) {
      CAPTURE(mu);
      CAPTURE(law);
      const ScenarioRun run = routh::test::run_shipped_scenario(
          "spinning_ball_bounce.yaml",
          {"duration=0.4", routh::cat("initial.v=", v_map), routh::cat("contact.law=", law),
           routh::cat("contact.friction=", exact(mu))});
      REQUIRE(run.outcome.status == RunStatus::completed);
      const std::vector<double> impacts = run.trajectory.times_of(EventKind::impact);
      REQUIRE(impacts.size() == 1);
      CHECK(impacts[0] == doctest::Approx(t1).epsilon(1e-9));
      const EventSamples at = samples_at(run.trajectory, impacts[0]);
      REQUIRE(at.before != at.after);
      const BodyState before = body_state(at.before->q, at.before->v, 0);
      const BodyState after = body_state(at.after->q, at.after->v, 0);
      // the flight before it: v_t and ω unchanged, v_z = −g t
      CHECK((before.omega - start.omega).norm() < 1e-12);
      CHECK(before.velocity.z() == doctest::Approx(-kGravity * impacts[0]).epsilon(1e-12));
      const BounceAnswer expected = bounce(before, m, r, e, mu);
      CHECK(expected.slip_halts == (mu > halting));
      const double velocity_error = (after.velocity - expected.velocity).norm();
      const double omega_error = (after.omega - expected.omega).norm();
      MESSAGE(law, " mu = ", mu, ": |v+ − closed form| = ", velocity_error,
              " m/s, |ω+ − closed form| = ", omega_error, " rad/s");
      CHECK(velocity_error < kRoundOff * before.velocity.norm());
      CHECK(omega_error < kRoundOff * before.omega.norm());
      // no moment about the normal: ω_z is kept to the round-off of forming R ω_body
      CHECK(std::abs(after.omega.z() - before.omega.z()) < kRoundOff * before.omega.norm());
    }
  }
}

// --- 3. Zeno, then rolling ---------------------------------------------------------------------

TEST_CASE(
    "spatial sphere validation: spinning_ball_bounce rests at the Zeno limit and rolls on at "
    "(5 v0 + 2 r omega_y)/7") {
  // Bounces of a ball dropped from h with restitution e accumulate at t∞ = t₁ (1 + 2e/(1 − e)),
  // t₁ = √(2h/g): each flight lasts e times the previous one, 2 e^k √(2gh)/g (Newton). Neither the
  // impulses at the contact point nor gravity through the centre has a moment about the lowest
  // point, so the angular momentum about it, m r v_x + I ω_y for a ball moving along x, is kept
  // and the rolling ball (v_x = r ω_y) moves at (5 v₀ + 2 r ω_y)/7.
  const ScenarioRun run = routh::test::run_shipped_scenario("spinning_ball_bounce.yaml");
  REQUIRE(run.outcome.status == RunStatus::completed);
  const double r = sphere_radius(run.scenario, 0),
               e = run.scenario.settings.contacts[0].restitution;
  const BodyState start = body_state(run.scenario.initial.q, run.scenario.initial.v, 0);
  const double t1 = std::sqrt(2.0 * (start.centre.z() - r) / kGravity);
  const double t_rest = t1 * (1.0 + 2.0 * e / (1.0 - e));
  const double v_roll = (5.0 * start.velocity.x() + 2.0 * r * start.omega.y()) / 7.0;
  const std::vector<double> zeno = run.trajectory.times_of(EventKind::zeno);
  const std::vector<double> rest = run.trajectory.times_of(EventKind::rest);
  const std::vector<double> impacts = run.trajectory.times_of(EventKind::impact);
  MESSAGE(impacts.size(), " impacts, the first at ", impacts.front(), " s (t1 = ", t1,
          " s), the last at ", impacts.back(), " s; zeno at ", (zeno.empty() ? -1.0 : zeno[0]),
          " s, rest at ", (rest.empty() ? -1.0 : rest[0]), " s; t∞ = ", t_rest, " s");
  // the zeno event comes at the impact that reveals the accumulation, the rest at its limit
  REQUIRE(zeno.size() == 1);
  REQUIRE(rest.size() == 1);
  CHECK(zeno[0] <= rest[0]);
  const double closed = rest[0];
  MESSAGE("the ball rests ", closed - t_rest, " s from t∞");
  CHECK(closed == doctest::Approx(t_rest).epsilon(1e-9));
  CHECK(impacts.front() == doctest::Approx(t1).epsilon(1e-9));
  // the first impact halts the slip
  const EventSamples first = samples_at(run.trajectory, impacts.front());
  REQUIRE(first.after != nullptr);
  CHECK(floor_slip(body_state(first.after->q, first.after->v, 0), r).norm() < 1e-12);
  double worst_speed = 0.0;
  for (const auto& sample : run.trajectory.samples) {
    if (sample.t <= closed) continue;
    const BodyState ball = body_state(sample.q, sample.v, 0);
    worst_speed = std::max(worst_speed, (ball.velocity - v_roll * Eigen::Vector3d::UnitX()).norm());
    CHECK(std::abs(ball.centre.z() - r) < 1e-9);
    CHECK(floor_slip(ball, r).norm() < 1e-9);
  }
  MESSAGE("rolling at ", v_roll, " m/s to within ", worst_speed, " m/s");
  CHECK(worst_speed < 1e-9);
}

// --- 4. paper 000's example 2 in 3D --------------------------------------------------------------

namespace {

// Paper 000 (Shen & Townsend), Example 2, printed in cm/s: v₁ = 1.5 i + 28.555 j, ω₁ = −9.391,
// v₂ = 13.5 i − 2.5742 j, ω₂ = 1.6089 rad/s, F̂ = 13.5 (tests/test_paper000_spheres.cpp), here in
// m/s and N s (two more decimals).
void check_paper_velocities(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                            const Eigen::Quaterniond& turn) {
  const BodyState one = body_state(q, v, 0), two = body_state(q, v, 1);
  const Eigen::Vector3d v1 = turn.inverse() * one.velocity, v2 = turn.inverse() * two.velocity;
  const Eigen::Vector3d w1 = turn.inverse() * one.omega, w2 = turn.inverse() * two.omega;
  CHECK_PRINTED(v1.x(), 0.015, 6);
  CHECK_PRINTED(v1.y(), 0.28555, 5);
  CHECK_PRINTED(w1.z(), -9.391, 3);
  CHECK_PRINTED(v2.x(), 0.135, 6);
  CHECK_PRINTED(v2.y(), -0.025742, 6);
  CHECK_PRINTED(w2.z(), 1.6089, 4);
  // the motion stays in the plane of the line of centres and the velocities
  CHECK(std::abs(v1.z()) + std::abs(v2.z()) < 1e-15);
  CHECK(w1.head<2>().norm() + w2.head<2>().norm() < 1e-12);
}

}  // namespace

TEST_CASE(
    "spatial sphere validation: two_spheres_3d gives paper 000's example 2 under every law, and "
    "the same world velocities after a rigid rotation of the scene") {
  const ScenarioRun flat = routh::test::run_shipped_scenario("two_spheres_3d.yaml");
  REQUIRE(flat.outcome.status == RunStatus::completed);
  REQUIRE(flat.outcome.impacts == 1);
  const std::vector<double> impacts = flat.trajectory.times_of(EventKind::impact);
  CHECK(impacts[0] == doctest::Approx(0.1).epsilon(1e-9));  // started 0.1 s before it
  const routh::EventRecord& impact = flat.trajectory.events[0];
  REQUIRE(impact.kind == EventKind::impact);
  CHECK_PRINTED(impact.impulse[0], 0.135, 6);                                    // F̂
  CHECK_PRINTED(std::hypot(impact.impulse[1], impact.impulse[2]), 0.025742, 6);  // τ̂
  check_paper_velocities(flat.outcome.final_state.q, flat.outcome.final_state.v,
                         Eigen::Quaterniond::Identity());
  // the spheres' W has no normal–tangential coupling, so every law's answer is the paper's
  for (const std::string law : kSpatialLaws) {
    CAPTURE(law);
    const ScenarioRun run =
        routh::test::run_shipped_scenario("two_spheres_3d.yaml", {routh::cat("contact.law=", law)});
    REQUIRE(run.outcome.status == RunStatus::completed);
    check_paper_velocities(run.outcome.final_state.q, run.outcome.final_state.v,
                           Eigen::Quaterniond::Identity());
  }

  // The scene turned by an arbitrary rotation R: positions and velocities R p, R v, each body's
  // orientation R (from the identity); ω is in the body frame and stays. Newton–Euler and the
  // contact laws are frame-free, so every world velocity after the impact is R times the
  // unrotated one (Goldstein, "Classical Mechanics", §4: the equations are vector equations).
  const Eigen::Quaterniond turn(
      Eigen::AngleAxisd(2.1, Eigen::Vector3d(0.3, -1.2, 0.8).normalized()));
  std::vector<std::pair<std::string, std::string>> q_map, v_map;
  for (int b = 0; b < 2; ++b) {
    const BodyState body = body_state(flat.scenario.initial.q, flat.scenario.initial.v, b);
    const std::string name = routh::cat("sphere", b + 1);
    const Eigen::Vector3d p = turn * body.centre, u = turn * body.velocity;
    const Eigen::Quaterniond o = turn * body.orientation;
    for (int k = 0; k < 3; ++k) {
      q_map.emplace_back(routh::cat(name, ".", "xyz"[k]), exact(p[k]));
      v_map.emplace_back(routh::cat(name, ".v", "xyz"[k]), exact(u[k]));
      v_map.emplace_back(routh::cat(name, ".w", "xyz"[k]), exact(body.omega_body[k]));
    }
    q_map.emplace_back(routh::cat(name, ".orientation"),
                       routh::cat("[", exact(o.w()), ", ", exact(o.x()), ", ", exact(o.y()), ", ",
                                  exact(o.z()), "]"));
  }
  const ScenarioRun turned = routh::test::run_shipped_scenario(
      "two_spheres_3d.yaml",
      {routh::cat("initial.q=", yaml_map(q_map)), routh::cat("initial.v=", yaml_map(v_map))});
  REQUIRE(turned.outcome.status == RunStatus::completed);
  REQUIRE(turned.outcome.impacts == 1);
  check_paper_velocities(turned.outcome.final_state.q, turned.outcome.final_state.v, turn);
  double worst = 0.0;
  for (int b = 0; b < 2; ++b) {
    const BodyState plain = body_state(flat.outcome.final_state.q, flat.outcome.final_state.v, b);
    const BodyState moved =
        body_state(turned.outcome.final_state.q, turned.outcome.final_state.v, b);
    worst = std::max(worst, (moved.velocity - turn * plain.velocity).norm());
    worst = std::max(worst, (moved.omega - turn * plain.omega).norm());
    worst = std::max(worst, (moved.omega_body - plain.omega_body).norm());
  }
  MESSAGE(
      "rotated scene: largest difference of a post-impact world velocity from R times the "
      "unrotated one: ",
      worst);
  CHECK(worst < 1e-12);
}

// --- 5. a property campaign ----------------------------------------------------------------------

namespace {

// 2000 throws run in about 7 s. (Throws 516, 1728, 1769 and 1860 of this seed once crawled: a
// ball resting on a ball that rolls on the floor starts to slip on it, or its slip dwindles, its
// direction stiff while slow, until such slips were aligned with their accelerations:
// aligned_slip.hpp.)
constexpr int kThrows = routh::test::kSanitized ? 100 : 2000;  // sanitized: 50 times slower
// [s] A throw that needs more wall time than this crawls: a defect, reported as its status.
constexpr double kWallTimeLimit_s = 1.0;
constexpr double kOverlapTolerance_m = 1e-9;  // how deep a ball may sink into the floor or another
constexpr double kUnitTolerance = 1e-9;       // how far |q| of an orientation may drift from 1
// How much T + V may rise between two samples with no event between them: friction only takes
// energy, so only the integrator's error (tolerances 3e-11) can add any, relative to the energy.
constexpr double kSmoothEnergyTolerance = 1e-9;

struct Ball {
  double radius, mass;
  Eigen::Vector3d centre, velocity, omega_body;
  Eigen::Quaterniond orientation;
};

struct Throw {
  std::vector<Ball> balls;
  double friction, restitution;
  std::string law;
};

// One to three balls of random size and mass on a ring of radius 0.35 m about the origin, thrown
// towards its centre (so that most meet there, in the air or on the floor) with random spins and
// orientations; some start resting on the floor, the others above it.
Throw random_throw(routh::test::RandomSource& random) {
  Throw draw;
  const int count = 1 + static_cast<int>(random.uniform(0.0, 3.0));
  for (int k = 0; k < count; ++k) {
    Ball ball;
    ball.radius = random.uniform(0.02, 0.1);
    ball.mass = random.decade(-1.5, 0.7);
    const double angle = 2.0 * std::numbers::pi * k / count + random.uniform(-0.3, 0.3);
    const Eigen::Vector3d inward(-std::cos(angle), -std::sin(angle), 0.0);
    const bool resting = random.chance(0.3);
    ball.centre = -0.35 * inward;
    ball.centre.z() = ball.radius + (resting ? 0.0 : random.uniform(0.0, 0.4));
    ball.velocity = random.uniform(0.3, 3.0) * inward +
                    random.uniform(-0.5, 0.5) * Eigen::Vector3d::UnitZ().cross(inward);
    ball.velocity.z() = resting ? 0.0 : random.uniform(-1.5, 1.0);
    for (int i = 0; i < 3; ++i) ball.omega_body[i] = random.uniform(-40.0, 40.0);
    // uniform on the unit quaternions (Shoemake)
    const double u1 = random.uniform(0.0, 1.0), u2 = random.uniform(0.0, 2.0 * std::numbers::pi),
                 u3 = random.uniform(0.0, 2.0 * std::numbers::pi);
    ball.orientation =
        Eigen::Quaterniond(std::sqrt(u1) * std::cos(u3), std::sqrt(1.0 - u1) * std::sin(u2),
                           std::sqrt(1.0 - u1) * std::cos(u2), std::sqrt(u1) * std::sin(u3));
    draw.balls.push_back(ball);
  }
  draw.friction = random.uniform(0.0, 1.0);
  draw.restitution = random.uniform(0.0, 0.95);
  draw.law = kSpatialLaws[static_cast<int>(random.uniform(0.0, std::size(kSpatialLaws)))];
  return draw;
}

// The throw as a scenario file, every number exact.
std::string throw_yaml(const Throw& draw) {
  std::ostringstream text;
  text << "name: throw\nduration: 0.5\nmodel:\n  dimension: 3\n  bodies:\n";
  for (std::size_t k = 0; k < draw.balls.size(); ++k) {
    text << "    - {name: b" << k << ", mass: " << exact(draw.balls[k].mass)
         << ", shape: {sphere: {radius: " << exact(draw.balls[k].radius) << "}}}\n";
  }
  text << "  obstacles:\n    - {type: plane, point: [0, 0, 0], normal: [0, 0, 1]}\ninitial:\n";
  std::vector<std::pair<std::string, std::string>> q, v;
  for (std::size_t k = 0; k < draw.balls.size(); ++k) {
    const Ball& ball = draw.balls[k];
    const std::string name = routh::cat("b", k);
    for (int i = 0; i < 3; ++i) {
      q.emplace_back(routh::cat(name, ".", "xyz"[i]), exact(ball.centre[i]));
      v.emplace_back(routh::cat(name, ".v", "xyz"[i]), exact(ball.velocity[i]));
      v.emplace_back(routh::cat(name, ".w", "xyz"[i]), exact(ball.omega_body[i]));
    }
    const Eigen::Quaterniond& o = ball.orientation;
    q.emplace_back(routh::cat(name, ".orientation"),
                   routh::cat("[", exact(o.w()), ", ", exact(o.x()), ", ", exact(o.y()), ", ",
                              exact(o.z()), "]"));
  }
  text << "  q: " << yaml_map(q) << "\n  v: " << yaml_map(v) << "\n";
  text << "contact: {law: " << draw.law << ", restitution: " << exact(draw.restitution)
       << ", friction: " << exact(draw.friction) << "}\noutput: {rate: 50}\n";
  return text.str();
}

// "" if the run of `draw` holds every property; else the first it breaks. The geometry is the
// throw's own (radii), never routh's contact kinematics.
std::string first_violation(const Throw& draw, const ScenarioRun& run) {
  if (run.outcome.status != RunStatus::completed) {
    return routh::cat("status ", to_string(run.outcome.status),
                      " at t = ", run.outcome.final_state.t, " s: ", run.outcome.detail);
  }
  if (std::string bad = routh::test::first_non_finite_sample(run.trajectory); !bad.empty()) {
    return bad;
  }
  if (std::string bad = routh::test::first_energy_raising_event(run.trajectory); !bad.empty()) {
    return bad;
  }
  const auto& samples = run.trajectory.samples;
  const int count = static_cast<int>(draw.balls.size());
  for (std::size_t s = 0; s < samples.size(); ++s) {
    const auto& sample = samples[s];
    if (s > 0 && samples[s - 1].t < sample.t) {
      const double before = samples[s - 1].energy.total(), now = sample.energy.total();
      if (now - before > kSmoothEnergyTolerance * (1.0 + std::abs(before))) {
        return routh::cat("T + V rises between t = ", samples[s - 1].t, " s and ", sample.t,
                          " s, from ", exact(before), " J to ", exact(now), " J");
      }
    }
    for (int b = 0; b < count; ++b) {
      const int i = routh::spatial_coordinate_start(b);
      const double norm = sample.q.segment<4>(i + 3).norm();
      if (std::abs(norm - 1.0) > kUnitTolerance) {
        return routh::cat("|q| of b", b, " is ", exact(norm), " at t = ", sample.t, " s");
      }
      const Ball& ball = draw.balls[static_cast<std::size_t>(b)];
      if (sample.q[i + 2] - ball.radius < -kOverlapTolerance_m) {
        return routh::cat("b", b, " is ", ball.radius - sample.q[i + 2],
                          " m deep in the floor at t = ", sample.t, " s");
      }
      for (int c = b + 1; c < count; ++c) {
        const int j = routh::spatial_coordinate_start(c);
        const double gap = (sample.q.segment<3>(i) - sample.q.segment<3>(j)).norm() - ball.radius -
                           draw.balls[static_cast<std::size_t>(c)].radius;
        if (gap < -kOverlapTolerance_m) {
          return routh::cat("b", b, " and b", c, " overlap by ", -gap, " m at t = ", sample.t,
                            " s");
        }
      }
    }
  }
  return "";
}

}  // namespace

TEST_CASE(
    "spatial sphere validation: 2000 seeded random throws (100 sanitized) of one to three balls "
    "complete, finite, "
    "never gaining energy unflagged, with unit quaternions and no overlap") {
  routh::test::RandomSource random(20261127);
  int failures = 0, ball_impacts = 0, impacts = 0;
  std::string reproducers;
  for (int k = 0; k < kThrows; ++k) {
    const Throw draw = random_throw(random);
    const std::string yaml = throw_yaml(draw);
    ScenarioRun run{routh::load_scenario(routh::test::write_problem(yaml, "throw.yaml")), {}, {}};
    run.scenario.settings.wall_time_limit = kWallTimeLimit_s;
    run.outcome = routh::simulate(*run.scenario.model, run.scenario.initial, run.scenario.settings,
                                  run.trajectory);
    impacts += run.outcome.impacts;
    for (const routh::EventRecord& event : run.trajectory.events) {
      if (event.kind != EventKind::impact) continue;
      for (int contact : event.contacts) {
        const std::string& name =
            run.scenario.model->contact_names()[static_cast<std::size_t>(contact)];
        if (name.find("floor") == std::string::npos) ++ball_impacts;
      }
    }
    const std::string violation = first_violation(draw, run);
    if (violation.empty()) continue;
    if (++failures <= 5) reproducers += routh::cat("throw ", k, ": ", violation, "\n", yaml, "\n");
  }
  MESSAGE(kThrows, " throws, ", impacts, " impacts, ", ball_impacts,
          " of them at a ball-ball contact; ", failures, " failed");
  CHECK_MESSAGE(failures == 0, reproducers);
  CHECK(ball_impacts > kThrows / 4);  // the campaign does test impacts between balls
}
