// The broad phase's step bound (planar_broad_phase.hpp, broad_phase_step_bound_s): the broad
// phase lists only contacts within a margin of a body's size, so the simulator must not let a
// body move or turn farther than that margin within one step, or a fast body passes through
// another between two steps' ends with a positive gap at both.

#include <doctest/doctest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "models/planar/planar_broad_phase.hpp"
#include "models/planar/planar_tree.hpp"
#include "tests/support/scenario_run.hpp"

namespace {

using Eigen::Vector2d;
using Eigen::VectorXd;

constexpr double kPi = 3.14159265358979323846;

// A free body, a 0.6 m × 0.8 m block (bounding radius 0.5 m about its centre) or a disk of
// radius 0.5 m centred on its origin, and, with `other`, a small block it can touch (at rest in
// the tests, so that it bounds nothing); the bound is for bodies that can touch bodies.
std::unique_ptr<routh::PlanarTree> one_body(bool disk, bool other = true) {
  routh::PlanarTreeBuilder builder;
  const int body = builder.add_body(
      "body", disk ? routh::uniform_disk(0.5, 1.0) : routh::uniform_rectangle(0.6, 0.8, 1.0),
      routh::free_joint("body.x", "body.y", "body.theta"));
  if (disk) {
    builder.set_shape(body, routh::DiskShape{0.5, Vector2d::Zero()});
  } else {
    builder.set_shape(body, routh::rectangle_shape(0.6, 0.8));
  }
  if (other) {
    const int small = builder.add_body("other", routh::uniform_rectangle(0.1, 0.1, 1.0),
                                       routh::free_joint("other.x", "other.y", "other.theta"));
    builder.set_shape(small, routh::rectangle_shape(0.1, 0.1));
  }
  builder.add_obstacle("floor", routh::floor_at(-10.0));
  return builder.build();
}

double bound_s(const routh::PlanarTree& tree, const Vector2d& velocity, double omega) {
  VectorXd q = VectorXd::Zero(tree.coordinate_count());
  VectorXd v = VectorXd::Zero(tree.coordinate_count());
  v.head<3>() << velocity, omega;
  if (tree.coordinate_count() > 3) q[3] = 5.0;  // the other block 5 m aside
  return tree.broad_phase_step_bound_s(q, v, *tree.make_workspace());
}

}  // namespace

TEST_CASE("broad-phase step bound: a sixth of the bounding radius at the body's fastest point") {
  const auto block = one_body(false);
  const double radius_m = 0.5;  // half the block's diagonal, √(0.3² + 0.4²)
  // translating at 5 m/s: R / 6 / 5
  CHECK(bound_s(*block, {3.0, 4.0}, 0.0) == doctest::Approx(radius_m / 6.0 / 5.0).epsilon(1e-14));
  // translating and turning at 2 rad/s: its corners move at up to 5 + 2 R
  CHECK(bound_s(*block, {3.0, 4.0}, 2.0) ==
        doctest::Approx(radius_m / 6.0 / (5.0 + 2.0 * radius_m)).epsilon(1e-14));
  // spinning in place: R/6 / (ω R), a sixth of a radian of turn, less than the 15° (π/12) that
  // keeps two bodies within the broad phase's normal-cone tolerance even at 1.5 times the bound
  const double turn_rad = 40.0 * bound_s(*block, {0.0, 0.0}, 40.0);
  CHECK(turn_rad == doctest::Approx(1.0 / 6.0).epsilon(1e-14));
  CHECK(1.5 * turn_rad < kPi / 12.0);
  // at rest: no bound
  CHECK(bound_s(*block, {0.0, 0.0}, 0.0) == std::numeric_limits<double>::infinity());
}

TEST_CASE("broad-phase step bound: none for a body that touches only obstacles") {
  // a half-plane cannot be passed through within a step: a contact closed against it is behind
  // it, and listed, at the step's end
  const auto alone = one_body(false, false);
  CHECK(bound_s(*alone, {3.0, 4.0}, 2.0) == std::numeric_limits<double>::infinity());
}

TEST_CASE("broad-phase step bound: turning a disk about its centre moves none of its outline") {
  const auto disk = one_body(true);
  CHECK(bound_s(*disk, {0.0, 0.0}, 500.0) == std::numeric_limits<double>::infinity());
  CHECK(bound_s(*disk, {0.0, -2.0}, 500.0) == doctest::Approx(0.5 / 6.0 / 2.0).epsilon(1e-14));
}

// Before the bound, steps grew to max_step (0.05 s) in free flight, in which a disk at 60 m/s
// moves 3 m: it passed through a resting disk of radius 0.04 m without an impact (the campaign's
// disks:111 did so at 6 m/s relative).
TEST_CASE("broad-phase step bound: a disk at 60 m/s strikes a resting disk instead of passing") {
  const double start_m = -10.0, speed = 60.0, radius_m = 0.04;  // two_disks: 0.04 m, 1 kg each
  const routh::test::ScenarioRun run = routh::test::run_shipped_scenario(
      "two_disks.yaml",
      {"duration=0.5", "initial.q={disk1.x: -10, disk1.y: 0, disk2.x: 0, disk2.y: 0}",
       "initial.v={disk1.x: 60}", "contact.restitution=1", "contact.friction=0"});
  REQUIRE(run.outcome.status == routh::RunStatus::completed);
  CHECK(run.outcome.impacts == 1);
  REQUIRE(run.trajectory.events.size() >= 1);
  // head-on, equal masses, e = 1, no friction: the disks exchange velocities at contact
  const double t_impact = (-start_m - 2.0 * radius_m) / speed;
  CHECK(run.trajectory.events.front().t == doctest::Approx(t_impact).epsilon(1e-12));
  const VectorXd& q = run.outcome.final_state.q;
  const VectorXd& v = run.outcome.final_state.v;
  const std::vector<std::string>& names = run.scenario.model->coordinate_names();
  const auto index = [&](const std::string& name) {
    return std::find(names.begin(), names.end(), name) - names.begin();
  };
  const auto x1 = index("disk1.x"), x2 = index("disk2.x");
  CHECK(v[x1] == doctest::Approx(0.0).scale(speed).epsilon(1e-12));
  CHECK(v[x2] == doctest::Approx(speed).epsilon(1e-12));
  CHECK(q[x1] == doctest::Approx(start_m + speed * t_impact).epsilon(1e-9));
  CHECK(q[x2] == doctest::Approx(speed * (0.5 - t_impact)).epsilon(1e-9));
}
