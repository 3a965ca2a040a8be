// Property campaign of the simulation stages with spatial contacts: random drops of the test
// sphere and cube (support/spatial_body_on_plane.hpp) with random friction, restitution, spins
// and orientations end without trouble, stay finite, and never gain energy unflagged.
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>

#include "sim/impact/law_catalogue.hpp"
#include "sim/simulation/simulator.hpp"
#include "support/random_source.hpp"
#include "support/spatial_body_on_plane.hpp"
#include "support/trajectory_memory.hpp"

namespace {

using routh::test::SpatialBodyOnPlane;

constexpr int kCubeDrops = 10;

// One drop: no trouble status, finite samples, and the total energy never above its value at
// the previous sample by more than round-off, unless an event between them carries a flag (an
// impact law that reports an energy gain says so).
void check_drop(const SpatialBodyOnPlane& body, routh::test::RandomSource& random, double lowest) {
  routh::SimulationSettings settings;
  settings.duration = 1.0;
  settings.output_rate = 100.0;
  settings.law = routh::find_law("sliding_ode")->solve;
  settings.multi_contact_law = routh::find_law("lcp")->solve;
  const double mu = random.uniform(0.0, 0.8);
  settings.contacts.assign(static_cast<std::size_t>(body.contact_count()),
                           {random.uniform(0.0, 0.8), mu, mu});
  routh::SimulationState initial;
  // uniform on the unit quaternions (Shoemake): from the seeded source, not Eigen's std::rand
  const double u1 = random.uniform(0.0, 1.0), u2 = random.uniform(0.0, 2.0 * M_PI),
               u3 = random.uniform(0.0, 2.0 * M_PI);
  const Eigen::Quaterniond turn(std::sqrt(u1) * std::cos(u3), std::sqrt(1.0 - u1) * std::sin(u2),
                                std::sqrt(1.0 - u1) * std::cos(u2), std::sqrt(u1) * std::sin(u3));
  initial.q.resize(7);
  initial.q << 0.0, 0.0, lowest + random.uniform(0.01, 0.1), turn.w(), turn.x(), turn.y(), turn.z();
  initial.v.resize(6);
  for (int i = 0; i < 6; ++i) initial.v[i] = random.uniform(-2.0, 2.0);
  initial.v[2] = random.uniform(-1.0, 0.0);
  CAPTURE(initial.q.transpose());
  CAPTURE(initial.v.transpose());
  CAPTURE(mu);
  CAPTURE(settings.contacts[0].restitution);
  routh::test::TrajectoryMemory trajectory;
  const routh::SimulationOutcome outcome = routh::simulate(body, initial, settings, trajectory);
  CAPTURE(outcome.detail);
  CHECK(outcome.status == routh::RunStatus::completed);
  bool flagged = false;
  for (const auto& event : trajectory.events) flagged = flagged || !event.flags.empty();
  double previous = std::numeric_limits<double>::infinity();
  for (const auto& sample : trajectory.samples) {
    REQUIRE(sample.q.allFinite());
    REQUIRE(sample.v.allFinite());
    const double energy = sample.energy.kinetic + sample.energy.potential;
    if (!flagged) CHECK(energy <= previous + 1e-9 * (1.0 + std::abs(previous)));
    previous = energy;
  }
}

}  // namespace

TEST_CASE("spatial contact properties: random drops of a ball end without trouble") {
  routh::test::RandomSource random(20261127);
  const SpatialBodyOnPlane ball = SpatialBodyOnPlane::sphere(0.2, 0.05, 9.81);
  for (int drop = 0; drop < 20; ++drop) {
    CAPTURE(drop);
    check_drop(ball, random, 0.05);
  }
}

TEST_CASE("spatial contact properties: random drops of a cube end without trouble") {
  routh::test::RandomSource random(11272026);
  const SpatialBodyOnPlane cube = SpatialBodyOnPlane::cube(1.0, 0.1, 9.81);
  for (int drop = 0; drop < kCubeDrops; ++drop) {
    CAPTURE(drop);
    check_drop(cube, random, 0.05 * std::sqrt(3.0));
  }
}
