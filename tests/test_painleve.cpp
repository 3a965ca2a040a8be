// Painlevé's paradox in the simulator: a rod sliding on one end with friction large enough that
// no contact force can keep the end on the floor while it slides, and yet the floor stops it
// from leaving. The simulator reports a `painleve` event and resolves it by an impact without
// collision (tangential impact) of the scenario's law (simulator.cpp, resolve_painleve).

#include <doctest/doctest.h>

#include <cmath>

#include "models/named_models.hpp"
#include "sim/impact/poisson.hpp"
#include "sim/simulation/simulator.hpp"
#include "support/trajectory_memory.hpp"

namespace {

constexpr double kGravity = 9.81;

// A 1 m, 1 kg rod whose left end touches the floor at angle θ from it, sliding with the
// centre's velocity (ẋ, 0) and spin ω, under Poisson's law with restitution e and friction μ.
routh::SimulationOutcome slide_rod(double theta, double x_dot, double omega, double mu, double e,
                                   double duration, routh::test::TrajectoryMemory& trajectory) {
  routh::ModelOptions options;
  options.gravity_m_s2 = kGravity;
  const auto rod = routh::make_rod(1.0, 1.0, options);
  routh::SimulationState initial;
  initial.q = Eigen::Vector3d(0.0, 0.5 * std::sin(theta), theta);
  // the end's normal velocity ẏ − l cosθ ω vanishes
  initial.v = Eigen::Vector3d(x_dot, 0.5 * std::cos(theta) * omega, omega);
  routh::SimulationSettings settings;
  settings.duration = duration;
  settings.law = routh::solve_poisson;
  settings.contacts.assign(2, {e, mu, mu});
  return routh::simulate(*rod, initial, settings, trajectory);
}

// du_n/dΓ_n = a + c μ of the left end sliding outward (σ = −1) at θ: contact space of the rod
// with l²/I = 3, a = 1 + 3cos²θ, c = −3 sinθ cosθ; Painlevé where it is negative.
double sliding_normal_rate(double theta, double mu) {
  return 1.0 + 3.0 * std::cos(theta) * std::cos(theta) -
         3.0 * mu * std::sin(theta) * std::cos(theta);
}

}  // namespace

TEST_CASE("painleve: a rod sliding in Painlevé's configuration stops by a tangential impact") {
  const double theta = M_PI / 3.0, mu = 1.5;
  REQUIRE(sliding_normal_rate(theta, mu) < 0.0);
  routh::test::TrajectoryMemory trajectory;
  const auto outcome = slide_rod(theta, -1.0, 0.0, mu, 0.0, 0.01, trajectory);
  CHECK(outcome.status == routh::RunStatus::completed);
  REQUIRE(trajectory.events.size() >= 2);
  const routh::EventRecord& paradox = trajectory.events[0];
  CHECK(paradox.kind == routh::EventKind::painleve);
  CHECK(paradox.t == 0.0);
  CHECK(paradox.contacts == std::vector<int>{0});
  const routh::EventRecord& impact = trajectory.events[1];
  REQUIRE(impact.kind == routh::EventKind::impact);
  CHECK(impact.u_pre[0] == 0.0);
  // The slip stops, the plastic impact leaves the end on the floor, and energy is lost.
  CHECK(impact.u_post[0] == doctest::Approx(0.0).scale(1.0).epsilon(1e-12));
  CHECK(impact.u_post[1] == doctest::Approx(0.0).scale(1.0).epsilon(1e-12));
  CHECK(impact.impulse[0] > 0.0);
  CHECK(impact.delta_T < 0.0);
  // Afterwards the end stays on the floor: the rod's end height never dips below −1e-9 m.
  for (const auto& sample : trajectory.samples) {
    const double end_height = sample.q[1] - 0.5 * std::sin(sample.q[2]);
    CHECK(end_height >= -1e-9);
  }
}

TEST_CASE("painleve: below the threshold friction the rod slides without a paradox") {
  const double theta = M_PI / 3.0, mu = 1.0;
  REQUIRE(sliding_normal_rate(theta, mu) > 0.0);
  routh::test::TrajectoryMemory trajectory;
  const auto outcome = slide_rod(theta, -1.0, 0.0, mu, 0.0, 0.01, trajectory);
  CHECK(outcome.status == routh::RunStatus::completed);
  CHECK(trajectory.times_of(routh::EventKind::painleve).empty());
  CHECK(trajectory.times_of(routh::EventKind::impact).empty());
}
