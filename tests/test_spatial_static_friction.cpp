// Static friction of an indeterminate spatial set that program (3) of
// sim/simulation/spatial_static_friction.hpp decides, on hand-made sets. First a rigid body
// touching a floor (normal +z) at A = (0.3, 0, 0) and a wall (normal +x) at B = (0, 0, 0.4). Its
// one force-free distribution is the squeeze along the line AB: a force s u at A and −s u at B,
// u = (B − A)/|B − A| = (−0.6, 0, 0.8), equal and opposite on one line, so that it moves nothing.
// In the contacts' frames (A: n = z, t1 = x, t2 = y; B: n = x, t1 = y, t2 = z) the squeeze pushes
// A with (n, t1, t2) = (0.8, −0.6, 0) and B with (0.6, 0, −0.8): inside a cone of μs = 0.9 at A
// (0.6/0.8 = 0.75), outside it at B (0.8/0.6 = 1.33). Every distribution is λ0 + s N; the
// reference below scans s and evaluates the quadratic cones directly. Then two corners on a
// floor at A = (0, 0, 0) and B = (1, 0, 0), whose squeeze pushes A with (n, t1, t2) = (0, 1, 0)
// and B with (0, −1, 0).

#include <doctest/doctest.h>

#include <Eigen/Core>
#include <cmath>
#include <limits>
#include <vector>

#include "sim/simulation/spatial_static_friction.hpp"

namespace routh {
namespace {

constexpr double kFriction = 0.9;

// λ = (N_A, T1_A, T2_A, N_B, T1_B, T2_B); the squeeze's direction, unit length.
Eigen::MatrixXd squeeze() {
  Eigen::MatrixXd N(6, 1);
  N << 0.8, -0.6, 0.0, 0.6, 0.0, -0.8;
  return N / N.norm();
}

Eigen::MatrixXd squeeze_on_floor() {
  Eigen::MatrixXd N(6, 1);
  N << 0.0, 1.0, 0.0, 0.0, -1.0, 0.0;
  return N / N.norm();
}

std::vector<SpatialSetContact> two_sticking_corners() {
  return {{0, true, kFriction}, {3, true, kFriction}};
}

// The least of both contacts' μs λ_n − ‖λ_t‖ and λ_n [N]: positive exactly when λ pushes at both
// and lies strictly inside both quadratic cones.
double least_margin(const Eigen::VectorXd& lambda) {
  double least = std::numeric_limits<double>::infinity();
  for (const int normal : {0, 3}) {
    least = std::min(
        {least, lambda[normal], kFriction * lambda[normal] - lambda.segment(normal + 1, 2).norm()});
  }
  return least;
}

// The largest least_margin over λ0 + s N, s on a grid of 1e-4 N in [−50, 50] N.
double best_margin_by_scan(const Eigen::VectorXd& particular,
                           const Eigen::MatrixXd& force_free = squeeze()) {
  const Eigen::VectorXd N = force_free.col(0);
  double best = -std::numeric_limits<double>::infinity();
  for (int i = -500000; i <= 500000; ++i)
    best = std::max(best, least_margin(particular + 1e-4 * i * N));
  return best;
}

// The two corners' set distributed from λ0 = `particular` over `force_free`: it must stick, with
// a finite positive reserve and forces λ0 + s N that push at both corners strictly inside both
// cones.
void check_distribution_sticks(const Eigen::VectorXd& particular,
                               const Eigen::MatrixXd& force_free) {
  Eigen::VectorXd lambda = particular;
  const double reserve =
      distribute_spatial_static_friction(two_sticking_corners(), force_free, lambda);
  CHECK(std::isfinite(reserve));
  CHECK(reserve > 0.0);
  const Eigen::VectorXd shift = lambda - particular;
  CHECK((shift - force_free * (force_free.transpose() * shift)).norm() < 1e-12);
  CHECK(least_margin(lambda) > 0.0);
}

TEST_CASE(
    "spatial static friction: a set whose minimum-norm forces pull at a wall sticks when squeezing "
    "its corners pushes inside both cones") {
  // A distribution inside both cones (A: (1, 0.2, 0.1), B: (1, 0.1, 0.3)), shifted along the
  // squeeze until both normal forces pull: the stage is handed that λ0
  Eigen::VectorXd inside(6);
  inside << 1.0, 0.2, 0.1, 1.0, 0.1, 0.3;
  const Eigen::VectorXd particular = inside - 3.0 * squeeze().col(0);
  REQUIRE(particular[0] < 0.0);
  REQUIRE(particular[3] < 0.0);
  REQUIRE(best_margin_by_scan(particular) > 0.0);
  check_distribution_sticks(particular, squeeze());
}

TEST_CASE(
    "spatial static friction: a pulling set that no squeeze puts inside both cones keeps its "
    "forces without a verdict") {
  // λ0: A pulls with 2 N, B carries nothing. With the squeeze s (0.8, −0.6, 0, 0.6, 0, −0.8),
  // A lies inside its cone only for 0.9 (−2 + 0.8 s) > 0.6 s, s > 15 N, and B, pushing only for
  // s > 0, for no s (0.9 · 0.6 s < 0.8 s)
  Eigen::VectorXd particular(6);
  particular << -2.0, 0.0, 0.0, 0.0, 0.0, 0.0;
  REQUIRE(best_margin_by_scan(particular) <= 0.0);
  Eigen::VectorXd lambda = particular;
  const double reserve =
      distribute_spatial_static_friction(two_sticking_corners(), squeeze(), lambda);
  CHECK(reserve == std::numeric_limits<double>::infinity());
  CHECK(lambda == particular);
}

TEST_CASE(
    "spatial static friction: a set whose split in proportion to the cones leaves one sticks when "
    "a squeeze puts it inside both") {
  // A lightly loaded corner A (λ_n = 0.1 N) needs 0.08 N across AB, which no squeeze changes
  // (0.89 of its cone), and the two share 0.6 N along AB. The split that minimizes
  // Σ ‖λ_t‖² / (μs λ_n) (the header's (1)) gives each a share of 0.6 N in proportion to its cone,
  // which puts A outside its own; a squeeze that leaves A none of the 0.6 N holds both.
  Eigen::VectorXd particular(6);
  particular << 0.1, 0.3, 0.08, 1.0, 0.3, 0.0;
  const double along = 0.6 * 0.1 / (0.1 + 1.0);  // A's proportional share
  REQUIRE(std::hypot(along, 0.08) > kFriction * 0.1);
  REQUIRE(best_margin_by_scan(particular, squeeze_on_floor()) > 0.0);
  check_distribution_sticks(particular, squeeze_on_floor());
}

}  // namespace
}  // namespace routh
