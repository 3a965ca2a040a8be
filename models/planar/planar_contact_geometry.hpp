#pragma once
// Contact geometry in the plane: a point or circle fixed on a body against a ground-fixed
// half-plane (a floor, a wall, a slope, any orientation).
//
// Conventions (docs/design.md §2): the gap is g = n·(p − p₀) − r for a circle of centre p and
// radius r (r = 0: a point), with n the half-plane's unit normal pointing into the free side. The
// tangent is n turned 90° clockwise, t = (n_y, −n_x), so that a floor (n = (0, 1)) has t = (1, 0) =
// +x; a wall facing +x (n = (1, 0)) has t = (0, −1). The contact velocity is u = (u_n, u_t) with
// u_n = n·ṗ and u_t = t·ṗ + r ω, the slip of the body's material point at the contact
// (p − r n, moving at ṗ + ω × (−r n)).

#include <Eigen/Core>

namespace routh {

/// The free side {p : n·(p − p₀) ≥ 0} of a ground-fixed line.
struct HalfPlane {
  Eigen::Vector2d point_m = Eigen::Vector2d::Zero();  ///< p₀, any point of the boundary [m]
  Eigen::Vector2d normal = Eigen::Vector2d::UnitY();  ///< n, unit, into the free side

  /// Tangent t = n turned 90° clockwise (t = +x for a floor).
  Eigen::Vector2d tangent() const { return {normal.y(), -normal.x()}; }
  /// Signed distance n·(p − p₀) of a point from the boundary [m].
  double distance(const Eigen::Vector2d& p_m) const { return normal.dot(p_m - point_m); }
};

/// The floor y ≥ height [m].
inline HalfPlane floor_at(double height_m) { return {{0.0, height_m}, Eigen::Vector2d::UnitY()}; }

/// A vertical wall at x = position [m]; `free_side_positive` says the free side is x ≥ position.
inline HalfPlane wall_at(double position_m, bool free_side_positive) {
  return {{position_m, 0.0}, Eigen::Vector2d(free_side_positive ? 1.0 : -1.0, 0.0)};
}

/// A point (radius 0) or circle fixed on a body, touching one half-plane obstacle.
struct ContactGeometry {
  int body = 0;                                        ///< index of the body carrying it
  Eigen::Vector2d centre_m = Eigen::Vector2d::Zero();  ///< in the body frame [m]
  double radius_m = 0.0;                               ///< r ≥ 0 [m]
  HalfPlane obstacle;
};

}  // namespace routh
