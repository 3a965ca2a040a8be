#pragma once
// How deep one rectangle's corners enter another over a run, and how deep two rectangles overlap,
// from the coordinates alone (never from the simulator's contact kinematics): the geometric
// checks of a stack's blocks.

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "trajectory_memory.hpp"

namespace routh::test {

namespace detail {

inline Eigen::Matrix2d turn(double theta) {
  return Eigen::Matrix2d{{std::cos(theta), -std::sin(theta)}, {std::sin(theta), std::cos(theta)}};
}

// The corners of a rectangle of half sizes `half` whose centre and angle are q[index … index + 2].
inline std::array<Eigen::Vector2d, 4> corners(const Eigen::VectorXd& q, int index,
                                              const Eigen::Vector2d& half) {
  const Eigen::Vector2d origin(q[index], q[index + 1]);
  const Eigen::Matrix2d rotation = turn(q[index + 2]);
  return {origin + rotation * Eigen::Vector2d(-half.x(), -half.y()),
          origin + rotation * Eigen::Vector2d(half.x(), -half.y()),
          origin + rotation * Eigen::Vector2d(half.x(), half.y()),
          origin + rotation * Eigen::Vector2d(-half.x(), half.y())};
}

}  // namespace detail

/// The deepest any corner of the rectangle `inner` (half sizes, coordinates x, y, θ from q index
/// `inner_q`) lies inside the rectangle `outer` over a run's samples [m] (0: never inside).
inline double deepest_corner_inside(const TrajectoryMemory& trajectory,
                                    const Eigen::Vector2d& outer_half, int outer_q,
                                    const Eigen::Vector2d& inner_half, int inner_q) {
  using detail::turn;
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

/// The deepest overlap of two rectangles over a run's samples [m] (≤ 0: always apart): by the
/// separating-axis theorem, the least overlap of their projections on the four edge normals
/// (Ericson, "Real-Time Collision Detection", 2005, §5.2.1). It sees what no corner depth does:
/// two blocks of a column whose side faces stay flush while one sinks into the other's top at
/// their coincident corners, each corner on the other's side face (inside by 4e-10 m), the
/// blocks overlapping by 3.3e-6 m.
inline double deepest_rectangle_overlap(const TrajectoryMemory& trajectory,
                                        const Eigen::Vector2d& a_half, int a_q,
                                        const Eigen::Vector2d& b_half, int b_q) {
  double deepest = -std::numeric_limits<double>::infinity();
  for (const auto& sample : trajectory.samples) {
    const auto a = detail::corners(sample.q, a_q, a_half);
    const auto b = detail::corners(sample.q, b_q, b_half);
    double least = std::numeric_limits<double>::infinity();
    for (const auto* polygon : {&a, &b}) {
      for (std::size_t i = 0; i < 4; ++i) {
        const Eigen::Vector2d edge = (*polygon)[(i + 1) % 4] - (*polygon)[i];
        const Eigen::Vector2d axis = Eigen::Vector2d(edge.y(), -edge.x()).normalized();
        double a_lo = std::numeric_limits<double>::infinity(), a_hi = -a_lo, b_lo = a_lo,
               b_hi = -a_lo;
        for (const Eigen::Vector2d& p : a) {
          a_lo = std::min(a_lo, axis.dot(p)), a_hi = std::max(a_hi, axis.dot(p));
        }
        for (const Eigen::Vector2d& p : b) {
          b_lo = std::min(b_lo, axis.dot(p)), b_hi = std::max(b_hi, axis.dot(p));
        }
        least = std::min(least, std::min(a_hi - b_lo, b_hi - a_lo));
      }
    }
    deepest = std::max(deepest, least);
  }
  return deepest;
}

}  // namespace routh::test
