#pragma once
// How deep one rectangle's corners enter another over a run, from the coordinates alone (never
// from the simulator's contact kinematics): the geometric check of a stack's blocks.

#include <Eigen/Core>
#include <algorithm>
#include <cmath>

#include "trajectory_memory.hpp"

namespace routh::test {

/// The deepest any corner of the rectangle `inner` (half sizes, coordinates x, y, θ from q index
/// `inner_q`) lies inside the rectangle `outer` over a run's samples [m] (0: never inside).
inline double deepest_corner_inside(const TrajectoryMemory& trajectory,
                                    const Eigen::Vector2d& outer_half, int outer_q,
                                    const Eigen::Vector2d& inner_half, int inner_q) {
  const auto turn = [](double theta) {
    return Eigen::Matrix2d{{std::cos(theta), -std::sin(theta)}, {std::sin(theta), std::cos(theta)}};
  };
  double deepest = 0.0;
  for (const auto& sample : trajectory.samples) {
    const Eigen::Vector2d outer_origin(sample.q[outer_q], sample.q[outer_q + 1]);
    const Eigen::Vector2d inner_origin(sample.q[inner_q], sample.q[inner_q + 1]);
    const Eigen::Matrix2d outer_turn = turn(sample.q[outer_q + 2]);
    const Eigen::Matrix2d inner_turn = turn(sample.q[inner_q + 2]);
    for (const double sx : {-1.0, 1.0}) {
      for (const double sy : {-1.0, 1.0}) {
        const Eigen::Vector2d corner =
            inner_origin + inner_turn * inner_half.cwiseProduct(Eigen::Vector2d(sx, sy));
        const Eigen::Vector2d local = outer_turn.transpose() * (corner - outer_origin);
        deepest = std::max(deepest, std::min(outer_half.x() - std::abs(local.x()),
                                             outer_half.y() - std::abs(local.y())));
      }
    }
  }
  return deepest;
}

}  // namespace routh::test
