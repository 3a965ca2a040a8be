// Static friction in whole runs: a flat block (both bottom corners on the floor) under a
// horizontal ground acceleration a_g(t) along +x, steady or ramped, sticks while a_g < μs g and
// otherwise slides with μd, exactly as Coulomb's law and Newton's second law say in closed form.
//
// Source: Coulomb friction on a rigid block (e.g. Shenton 1996, "Criteria for initiation of
// slide, rock, and slide-rock rigid-body modes", J. Eng. Mech. 122(7)). In the ground frame the
// block of mass m carries the inertial load −m a_g. Sticking needs the total friction m a_g, so it
// holds while a_g ≤ μs g. Sliding (towards −x, friction +μd m g), the relative acceleration is
//     ẍ = −a_g + μd g.
// Neither corner lifts: sticking, moments about the centre give λ_n,right = m (g − (h/b) a_g)/2,
// and sliding λ_n,right = m g (1 − μd h/b)/2, both positive for a_g, μd g < g b/h, which every
// case below keeps (so it slides, never tips). How the friction splits between the two corners
// is statically indeterminate and is not tested: only the block's motion is.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "models/named_models.hpp"
#include "sim/impact/law_catalogue.hpp"
#include "sim/simulation/simulator.hpp"
#include "support/trajectory_checks.hpp"
#include "support/trajectory_memory.hpp"

namespace routh {
namespace {

constexpr double kGravity = 9.81;  // [m/s²], the models' default

struct FlatBlock {
  double b, h, mu_s, mu_d;  // [m], [m], [-], [-]
};

// Both corners on the floor at rest; ground acceleration a_g(t) along +x.
SimulationOutcome run_flat_block(const FlatBlock& block, GroundAcceleration a_g, double duration,
                                 test::TrajectoryMemory& trajectory) {
  ModelOptions options;
  options.gravity_m_s2 = kGravity;
  options.ground_acceleration = std::move(a_g);
  const auto model = make_rocking_block(2.0 * block.b, 2.0 * block.h, 1.0, options);
  SimulationSettings settings;
  settings.duration = duration;
  settings.output_rate = 100.0;
  settings.law = find_law("poisson")->solve;
  settings.multi_contact_law = find_law("multipoint_energetic")->solve;
  settings.contacts.assign(static_cast<std::size_t>(model->contact_count()),
                           {0.0, block.mu_s, block.mu_d});
  const SimulationState initial{
      0.0, Eigen::Vector3d(0.0, block.h, 0.0), Eigen::Vector3d::Zero(), {}};
  return simulate(*model, initial, settings, trajectory);
}

// The blocks: widths 0.2, 0.6 and 2 m, h/b = 0.25 and 0.5, μs = 0.2, 0.5, 0.8 with μd = 0.75 μs.
std::vector<FlatBlock> flat_blocks() {
  std::vector<FlatBlock> blocks;
  for (const double width : {0.2, 0.6, 2.0}) {
    for (const double aspect : {0.25, 0.5}) {
      for (const double mu_s : {0.2, 0.5, 0.8}) {
        const double b = 0.5 * width;
        blocks.push_back({b, aspect * b, mu_s, 0.75 * mu_s});
      }
    }
  }
  return blocks;
}

// Flat (θ = 0) and on the floor at every sample, to 1e-9 m.
void check_flat_on_floor(const FlatBlock& block, const test::TrajectoryMemory& trajectory) {
  const test::BlockCorners corners{block.b, block.h};
  for (const auto& s : trajectory.samples) {
    CAPTURE(s.t);
    CHECK(std::abs(s.q[2]) < 1e-9);
    const Eigen::Vector2d gap = corners.heights(s.q);
    CHECK(gap.cwiseAbs().maxCoeff() < 1e-9);
  }
}

// The block under a steady ground acceleration a_g for 0.5 s: completed, finite, and sampled.
test::TrajectoryMemory run_steady(const FlatBlock& block, double a_g) {
  test::TrajectoryMemory trajectory;
  const SimulationOutcome outcome = run_flat_block(
      block, [a_g](double) { return Eigen::Vector2d(a_g, 0.0); }, 0.5, trajectory);
  CHECK(outcome.status == RunStatus::completed);
  CHECK_MESSAGE(test::first_non_finite_sample(trajectory).empty(),
                test::first_non_finite_sample(trajectory));
  REQUIRE(trajectory.samples.size() > 40);
  return trajectory;
}

// The time the whole block starts to slide: when the last of its corners entered sliding (each
// corner's latest slip event). −1 if a corner never slipped.
double slide_start(const test::TrajectoryMemory& trajectory) {
  double start = 0.0;
  for (int k = 0; k < 2; ++k) {
    double latest = -1.0;
    for (const EventRecord& event : trajectory.events) {
      if (event.kind == EventKind::slip &&
          std::find(event.contacts.begin(), event.contacts.end(), k) != event.contacts.end())
        latest = event.t;
    }
    if (latest < 0.0) return -1.0;
    start = std::max(start, latest);
  }
  return start;
}

}  // namespace

TEST_CASE("campaign: static friction: a flat block under a steady a_g < μs g does not move") {
  const std::vector<FlatBlock> blocks = flat_blocks();
  int compared = 0;
  for (const FlatBlock& block : blocks) {
    for (const double level : {0.5, 0.95, 0.99}) {
      const double a_g = level * block.mu_s * kGravity;
      CAPTURE(block.b);
      CAPTURE(block.h);
      CAPTURE(block.mu_s);
      CAPTURE(a_g);
      REQUIRE(a_g < kGravity * block.b / block.h);  // it cannot tip
      const test::TrajectoryMemory trajectory = run_steady(block, a_g);
      for (const auto& s : trajectory.samples) {
        CAPTURE(s.t);
        CHECK(std::abs(s.q[0]) < 1e-12);
        CHECK(s.v.norm() < 1e-12);
      }
      check_flat_on_floor(block, trajectory);
      ++compared;
    }
  }
  CHECK(compared == 54);
}

TEST_CASE(
    "campaign: static friction: a flat block under a steady a_g > μs g slides with "
    "x(t) = −(a_g − μd g) t²/2") {
  // x(t) to 1e-9 relative: the motion is a parabola, which dopri5 integrates to round-off.
  const std::vector<FlatBlock> blocks = flat_blocks();
  int compared = 0;
  for (const FlatBlock& block : blocks) {
    for (const double level : {1.01, 1.05, 1.25}) {
      const double a_g = level * block.mu_s * kGravity;
      CAPTURE(block.b);
      CAPTURE(block.h);
      CAPTURE(block.mu_s);
      CAPTURE(a_g);
      REQUIRE(a_g < kGravity * block.b / block.h);  // it slides rather than tips
      const test::TrajectoryMemory trajectory = run_steady(block, a_g);
      const double acceleration = -(a_g - block.mu_d * kGravity);
      for (const auto& s : trajectory.samples) {
        CAPTURE(s.t);
        const double x = 0.5 * acceleration * s.t * s.t;
        CHECK(std::abs(s.q[0] - x) <= 1e-9 * std::abs(x) + 1e-15);
        CHECK(std::abs(s.v[0] - acceleration * s.t) <= 1e-9 * std::abs(acceleration * s.t) + 1e-15);
      }
      check_flat_on_floor(block, trajectory);
      ++compared;
    }
  }
  CHECK(compared == 54);
}

TEST_CASE(
    "campaign: static friction: under a slow ramp a_g = k t a flat block starts to slide at "
    "t = μs g / k") {
  // The ramp reaches μs g at t_s = 2 s (k = μs g / 2 per second). Before t_s the block does not
  // move; after it ẍ = −(k t − μd g), so from rest at t_s
  //     x(t) = −k (t³ − 3 t_s² t + 2 t_s³)/6 + μd g (t − t_s)²/2,
  // a cubic that dopri5 integrates to round-off: to 1e-9 relative. The slide starts when the
  // last corner enters sliding: to 1e-6 s (the witness is linear in t and located to 1e-12 s).
  const std::vector<FlatBlock> blocks = flat_blocks();
  int compared = 0;
  for (const FlatBlock& block : blocks) {
    const double t_s = 2.0, k = block.mu_s * kGravity / t_s, duration = t_s + 0.5;
    CAPTURE(block.b);
    CAPTURE(block.h);
    CAPTURE(block.mu_s);
    REQUIRE(k * duration < kGravity * block.b / block.h);  // it slides rather than tips
    test::TrajectoryMemory trajectory;
    const SimulationOutcome outcome = run_flat_block(
        block, [k](double t) { return Eigen::Vector2d(k * t, 0.0); }, duration, trajectory);
    CHECK(outcome.status == RunStatus::completed);
    CHECK_MESSAGE(test::first_non_finite_sample(trajectory).empty(),
                  test::first_non_finite_sample(trajectory));
    CHECK(std::abs(slide_start(trajectory) - t_s) < 1e-6);
    REQUIRE(trajectory.samples.size() > 200);
    for (const auto& s : trajectory.samples) {
      CAPTURE(s.t);
      if (s.t <= t_s - 1e-6) {
        CHECK(std::abs(s.q[0]) < 1e-12);
      } else if (s.t >= t_s + 1e-6) {
        const double t = s.t;
        const double x = -k * (t * t * t - 3.0 * t_s * t_s * t + 2.0 * t_s * t_s * t_s) / 6.0 +
                         block.mu_d * kGravity * (t - t_s) * (t - t_s) / 2.0;
        REQUIRE(x < 0.0);
        CHECK(std::abs(s.q[0] - x) <= 1e-9 * std::abs(x) + 1e-15);
      }
    }
    check_flat_on_floor(block, trajectory);
    ++compared;
  }
  CHECK(compared == 18);
}

}  // namespace routh
