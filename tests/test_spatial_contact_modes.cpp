// The simulation stages with spatial contacts (three rows: n, t1, t2), on a hand-written sphere and
// cube on a plane (support/spatial_body_on_plane.hpp), against closed forms.
#include <doctest/doctest.h>

#include <Eigen/Core>
#include <cmath>
#include <vector>

#include "sim/impact/law_catalogue.hpp"
#include "sim/simulation/simulator.hpp"
#include "support/spatial_body_on_plane.hpp"
#include "support/trajectory_memory.hpp"

namespace {

using routh::test::SpatialBodyOnPlane;

constexpr double kGravity = 9.81;  // [m/s²]

routh::SimulationSettings spatial_settings(const SpatialBodyOnPlane& body, double friction,
                                           double restitution, double duration) {
  routh::SimulationSettings settings;
  settings.duration = duration;
  settings.output_rate = 100.0;
  settings.law = routh::find_law("sliding_ode")->solve;
  settings.multi_contact_law = routh::find_law("lcp")->solve;
  settings.contacts.assign(static_cast<std::size_t>(body.contact_count()),
                           {restitution, friction, friction});
  return settings;
}

// q of a body at rest orientation, its centre at (x, y, z).
Eigen::VectorXd at(double x, double y, double z) {
  Eigen::VectorXd q(7);
  q << x, y, z, 1.0, 0.0, 0.0, 0.0;
  return q;
}

Eigen::VectorXd velocity(const Eigen::Vector3d& v, const Eigen::Vector3d& omega) {
  Eigen::VectorXd out(6);
  out << v, omega;
  return out;
}

// The sphere's contact slip u_t = v_t + ω × (−r e_z), tangential part.
Eigen::Vector2d ball_slip(const Eigen::VectorXd& v, double radius) {
  return {v[0] - radius * v[4], v[1] + radius * v[3]};
}

}  // namespace

TEST_CASE(
    "spatial contact modes: a sliding ball rolls at Coriolis' time, its slip direction fixed") {
  // Coriolis, "Théorie mathématique des effets du jeu de billard" (1835); Giacaglia: the slip
  // u = v + ω × (−r e_z) of a uniform ball sliding on a floor decelerates at (7/2) μ g along its
  // fixed direction, so rolling starts at t* = 2|u₀| / (7 μ g) with v = v₀ − (2/7) u₀, the
  // friction having dissipated m |u₀|² / 7; the spin about the normal is untouched.
  const double mass = 0.17, radius = 0.0286, mu = 0.3;
  const SpatialBodyOnPlane ball = SpatialBodyOnPlane::sphere(mass, radius, kGravity);
  routh::SimulationState initial;
  initial.q = at(0.0, 0.0, radius);
  const Eigen::Vector3d v0(2.0, 1.0, 0.0), omega0(5.0, -30.0, 12.0);
  initial.v = velocity(v0, omega0);
  const Eigen::Vector2d u0 = ball_slip(initial.v, radius);
  const double t_star = 2.0 * u0.norm() / (7.0 * mu * kGravity);
  const routh::SimulationSettings settings = spatial_settings(ball, mu, 0.0, 1.0);
  routh::test::TrajectoryMemory trajectory;
  const routh::SimulationOutcome outcome = routh::simulate(ball, initial, settings, trajectory);
  REQUIRE(outcome.status == routh::RunStatus::completed);
  const std::vector<double> sticks = trajectory.times_of(routh::EventKind::stick);
  REQUIRE(sticks.size() == 1);
  CHECK(sticks[0] == doctest::Approx(t_star).epsilon(1e-9));
  const Eigen::Vector2d v_roll = v0.head<2>() - (2.0 / 7.0) * u0;
  const double energy_lost = mass * u0.squaredNorm() / 7.0;
  const double energy0 = trajectory.samples.front().energy.kinetic;
  for (const auto& sample : trajectory.samples) {
    CAPTURE(sample.t);
    const Eigen::Vector2d u = ball_slip(sample.v, radius);
    if (sample.t < t_star - 1e-6) {
      // the slip keeps its direction: its component across u₀ is round-off
      CHECK(std::abs(u.x() * u0.y() - u.y() * u0.x()) / u0.norm() < 1e-10);
      CHECK(u.dot(u0) > 0.0);
    } else if (sample.t > t_star + 1e-6) {
      CHECK(u.norm() < 1e-10);
      CHECK((sample.v.head<2>() - v_roll).norm() < 1e-9);
      CHECK(std::abs(sample.v[5] - omega0.z()) < 1e-12);
      CHECK(energy0 - sample.energy.kinetic == doctest::Approx(energy_lost).epsilon(1e-8));
    }
  }
}

TEST_CASE("spatial contact modes: a rolling spinning ball keeps v and omega") {
  // Rolling without slip on a level floor with a spin about the normal: no force acts but the
  // normal reaction (Routh, "Advanced Rigid Dynamics", §243 with a uniform ball), so v and ω stay.
  const double mass = 1.0, radius = 0.1, mu = 0.4;
  const SpatialBodyOnPlane ball = SpatialBodyOnPlane::sphere(mass, radius, kGravity);
  routh::SimulationState initial;
  initial.q = at(0.0, 0.0, radius);
  const Eigen::Vector3d v0(0.6, -0.8, 0.0);
  const Eigen::Vector3d omega0(v0.y() / -radius, v0.x() / radius, 7.0);  // u_t = 0
  initial.v = velocity(v0, omega0);
  REQUIRE(ball_slip(initial.v, radius).norm() < 1e-15);
  routh::test::TrajectoryMemory trajectory;
  const routh::SimulationOutcome outcome =
      routh::simulate(ball, initial, spatial_settings(ball, mu, 0.0, 2.0), trajectory);
  REQUIRE(outcome.status == routh::RunStatus::completed);
  CHECK(outcome.events == 0);
  for (const auto& sample : trajectory.samples) {
    CAPTURE(sample.t);
    CHECK((sample.v - initial.v).cwiseAbs().maxCoeff() < 1e-12);
    CHECK(std::abs(sample.q[2] - radius) < 1e-12);
  }
}

TEST_CASE("spatial contact modes: a cube on an incline below its friction angle stays") {
  // Coulomb: a body on an incline sticks while tan β < μs. The cube rests on four corners, a
  // statically indeterminate set: its forces are the capacity-weighted split
  // (spatial_static_friction.hpp), each corner at tan β / μs of its cone. Heading 0.6 rad: the fall
  // line is along neither tangential row.
  const double mass = 2.0, edge = 0.2, mu = 0.5;
  for (const double tan_beta : {0.0, 0.3, 0.49}) {
    CAPTURE(tan_beta);
    const SpatialBodyOnPlane cube =
        SpatialBodyOnPlane::cube(mass, edge, kGravity, std::atan(tan_beta), 0.6);
    routh::SimulationState initial;
    initial.q = at(0.0, 0.0, 0.5 * edge);
    initial.v = Eigen::VectorXd::Zero(6);
    routh::test::TrajectoryMemory trajectory;
    const routh::SimulationOutcome outcome =
        routh::simulate(cube, initial, spatial_settings(cube, mu, 0.0, 10.0), trajectory);
    REQUIRE(outcome.status == routh::RunStatus::completed);
    CHECK(outcome.events == 0);
    CHECK((outcome.final_state.q - initial.q).cwiseAbs().maxCoeff() < 1e-12);
    CHECK(outcome.final_state.v.cwiseAbs().maxCoeff() < 1e-12);
  }
}

TEST_CASE("spatial contact modes: a cube on an incline above its friction angle slips from rest") {
  // Coulomb: above its friction angle (tan β > μ) a block released at rest slides down the fall
  // line with a = g (sin β − μ cos β), without turning (the friction of its four corners, each
  // opposing the same slip, has no moment about the normal through the centre of pressure).
  const double mass = 2.0, edge = 0.2, mu = 0.5, beta = std::atan(0.8), heading = 2.2;
  const SpatialBodyOnPlane cube = SpatialBodyOnPlane::cube(mass, edge, kGravity, beta, heading);
  routh::SimulationState initial;
  initial.q = at(0.0, 0.0, 0.5 * edge);
  initial.v = Eigen::VectorXd::Zero(6);
  routh::test::TrajectoryMemory trajectory;
  const routh::SimulationOutcome outcome =
      routh::simulate(cube, initial, spatial_settings(cube, mu, 0.0, 1.0), trajectory);
  REQUIRE(outcome.status == routh::RunStatus::completed);
  const double a = kGravity * (std::sin(beta) - mu * std::cos(beta));
  const Eigen::Vector2d fall(std::cos(heading), std::sin(heading));
  for (const auto& sample : trajectory.samples) {
    CAPTURE(sample.t);
    const double s = 0.5 * a * sample.t * sample.t;
    CHECK((sample.q.head<2>() - s * fall).norm() < 1e-9);
    CHECK((sample.v.head<2>() - a * sample.t * fall).norm() < 1e-9);
    CHECK(sample.v.tail<3>().norm() < 1e-9);
    CHECK(std::abs(sample.q[2] - 0.5 * edge) < 1e-9);
  }
}

TEST_CASE("spatial contact modes: a ball dropped with spin bounces, accumulates and rolls") {
  // A uniform ball that slips throughout its bounces (μ small against (2/7) |u_t| / ((1 + e)
  // |u_n|)) feels friction along its fixed slip direction only, at the impacts and sliding between
  // them, so its angular momentum about the contact point is conserved and it ends rolling with v =
  // v₀ − (2/7) u₀ (Routh, "Advanced Rigid Dynamics", §243; Coriolis). Its bounces (Newton's e in
  // the sliding_ode law) accumulate at the Zeno limit t₁ (1 + 2e/(1 − e)), t₁ = √(2h/g).
  const double mass = 0.17, radius = 0.0286, mu = 0.05, e = 0.5, height = 0.05;
  const SpatialBodyOnPlane ball = SpatialBodyOnPlane::sphere(mass, radius, kGravity);
  routh::SimulationState initial;
  initial.q = at(0.0, 0.0, radius + height);
  const Eigen::Vector3d v0(1.0, 0.5, 0.0), omega0(2.0, -10.0, 3.0);
  initial.v = velocity(v0, omega0);
  const Eigen::Vector2d u0 = ball_slip(initial.v, radius);
  routh::test::TrajectoryMemory trajectory;
  const routh::SimulationOutcome outcome =
      routh::simulate(ball, initial, spatial_settings(ball, mu, e, 2.0), trajectory);
  REQUIRE(outcome.status == routh::RunStatus::completed);
  const double t1 = std::sqrt(2.0 * height / kGravity);
  const std::vector<double> zeno = trajectory.times_of(routh::EventKind::zeno);
  REQUIRE(zeno.size() == 1);
  CHECK(zeno[0] == doctest::Approx(t1 * (1.0 + 2.0 * e / (1.0 - e))).epsilon(1e-6));
  const std::vector<double> sticks = trajectory.times_of(routh::EventKind::stick);
  REQUIRE(sticks.size() == 1);
  CHECK(sticks[0] > zeno[0]);
  const Eigen::Vector2d v_roll = v0.head<2>() - (2.0 / 7.0) * u0;
  double energy =
      trajectory.samples.front().energy.kinetic + trajectory.samples.front().energy.potential;
  for (const auto& sample : trajectory.samples) {
    CAPTURE(sample.t);
    const double now = sample.energy.kinetic + sample.energy.potential;
    CHECK(now <= energy + 1e-12);  // impacts and sliding only dissipate
    energy = std::min(energy, now);
    if (sample.t > sticks[0]) {
      CHECK((sample.v.head<2>() - v_roll).norm() < 1e-9);
      CHECK(ball_slip(sample.v, radius).norm() < 1e-10);
      CHECK(std::abs(sample.q[2] - radius) < 1e-9);
    }
  }
}
