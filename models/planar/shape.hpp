#pragma once
// The shape of a planar rigid body, in its body frame: a disk or a convex polygon (a rectangle,
// any convex polygon, or a segment — a thin rod, the polygon of two vertices). Shapes are what
// touches: every vertex and every disk can touch every obstacle, and every vertex, edge and disk
// can touch another body's (planar_contact_candidates.hpp). A uniform shape also gives the body
// its inertia (uniform_body()).

#include <Eigen/Core>
#include <string>
#include <variant>
#include <vector>

#include "models/planar/planar_body.hpp"

namespace routh {

/// A disk of radius r > 0 [m] centred at `centre_m` in the body frame.
struct DiskShape {
  double radius_m = 0.0;
  Eigen::Vector2d centre_m = Eigen::Vector2d::Zero();
};

/// A convex polygon, its vertices counter-clockwise in the body frame [m]. Edge i runs from vertex
/// i to vertex i + 1 (cyclically), its outward normal on its right. Two vertices make a segment,
/// a thin rod whose two edges are its two sides. Vertices and edges carry names for contacts
/// ("bottom_left", "top"); unnamed ones are called v0, v1, … and e0, e1, ….
struct PolygonShape {
  std::vector<Eigen::Vector2d> vertices_m;
  std::vector<std::string> vertex_names;  ///< empty, or one per vertex
  std::vector<std::string> edge_names;    ///< empty, or one per edge
};

using Shape = std::variant<DiskShape, PolygonShape>;

/// A w × h rectangle centred on the body origin; vertices bottom_left, bottom_right, top_right,
/// top_left, edges bottom, right, top, left.
PolygonShape rectangle_shape(double width_m, double height_m);

/// A segment of length L from (−L/2, 0) to (L/2, 0), vertices left_end, right_end, edges bottom
/// (its side facing −y) and top.
PolygonShape segment_shape(double length_m);

/// A segment between two points of the body frame, with its two vertices' names; its edges are
/// e0 (from a to b, facing right of that direction) and e1 (back from b to a).
PolygonShape segment_between(const Eigen::Vector2d& a_m, const Eigen::Vector2d& b_m,
                             std::string a_name, std::string b_name);

/// Area [m²], centroid [m] (body frame) and polar moment of area about the centroid [m⁴] of a
/// shape; a segment has zero area, its centroid at its middle and the moment of a thin rod per
/// unit mass (L²/12) in `rod_moment_per_mass`.
struct ShapeGeometry {
  double area_m2 = 0.0;
  Eigen::Vector2d centroid_m = Eigen::Vector2d::Zero();
  double polar_moment_m4 = 0.0;      ///< ∫ |r − c|² dA
  double rod_moment_per_mass = 0.0;  ///< segments only: L²/12 [m²]
};
ShapeGeometry shape_geometry(const Shape& shape);

/// A body of mass m [kg] spread uniformly over `shape` (a segment: along its length): centre of
/// mass at the centroid, I = m · polar moment / area (m L²/12 for a segment).
PlanarBody uniform_body(const Shape& shape, double mass_kg);

/// Checks a shape (throws std::invalid_argument naming what is wrong): a disk's radius > 0; a
/// polygon's ≥ 2 finite vertices, convex, counter-clockwise, no repeated vertex, names one per
/// vertex/edge when given. `what` names the body in the message.
void check_shape(const Shape& shape, const std::string& what);

/// The largest distance from the body origin to any point of the shape [m] (broad phase).
double bounding_radius(const Shape& shape);

/// The largest distance between two points of the shape [m]: a disk's diameter, a polygon's
/// longest vertex-to-vertex span (a segment's length, a rectangle's diagonal).
double shape_size(const Shape& shape);

/// Signed distance [m] of `point_m` (body frame) from a convex polygon: its distance from the
/// nearest edge, negative inside. A segment has no inside: its distance is never negative.
double signed_distance(const PolygonShape& polygon, const Eigen::Vector2d& point_m);

/// How far [m] `point_m` (body frame) lies outside `shape`: 0 on it or inside it.
double distance_outside(const Shape& shape, const Eigen::Vector2d& point_m);

}  // namespace routh
