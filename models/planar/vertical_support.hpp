#pragma once
// How far a convex shape must rise (or may sink) to rest on what lies beneath it: a floor or
// slope, or another shape. Used to complete initial states: a body whose height is not given is
// lowered from above onto its support, touching it with gap 0 and no penetration.
//
// A shape raised by s intersects another exactly when s ŷ lies in their Minkowski difference
// (lower − upper), a convex set; resting on top is the largest such s, the top of that set on the
// vertical through the origin.

#include <Eigen/Core>
#include <optional>
#include <vector>

#include "models/planar/planar_contact_geometry.hpp"

namespace routh {

/// A convex shape in world coordinates: the convex hull of `points_m` grown by `radius_m` (a disk:
/// its centre and radius; a polygon or segment: its vertices and 0).
struct PlacedShape {
  std::vector<Eigen::Vector2d> points_m;
  double radius_m = 0.0;
};

/// The vertical shift [m] that puts `upper` on top of `lower`, touching it (< 0: it may sink);
/// nullopt when their horizontal extents do not overlap (side by side, nothing to rest on),
/// or overlap only by the round-off of positions given as touching (1e-12 of their largest |x|).
std::optional<double> lift_to_rest_on(const PlacedShape& upper, const PlacedShape& lower);

/// The vertical shift [m] that puts `shape` on an upward-facing half-plane (n_y > 0), its lowest
/// point on the boundary.
double lift_to_rest_on(const PlacedShape& shape, const HalfPlane& obstacle);

}  // namespace routh
