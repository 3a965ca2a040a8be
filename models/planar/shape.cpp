#include "models/planar/shape.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <utility>

#include "sim/text.hpp"

namespace routh {

namespace {

// z-component of a × b: twice the signed area of the triangle (0, a, b), > 0 counter-clockwise.
double cross(const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  return a.x() * b.y() - a.y() * b.x();
}

// A polygon's area, centroid and polar moment by the shoelace sums over its edges (v_i, v_i+1),
// each the triangle (c₀, v_i, v_i+1) with c_i = v_i × v_i+1 (Bourke, "Calculating the area and
// centroid of a polygon", 1988; the moment is the same sum of triangle moments):
//     A = ½ Σ c_i,   C = Σ (v_i + v_i+1) c_i / (6 A),   J_0 = Σ (v_i² + v_i·v_i+1 + v_i+1²) c_i /
//     12,
// then J = J_0 − A |C|² about the centroid. Vertices are taken from their mean c₀, so that a
// polygon far from its body origin loses no digits in the sums.
ShapeGeometry polygon_geometry(const std::vector<Eigen::Vector2d>& vertices) {
  Eigen::Vector2d mean = Eigen::Vector2d::Zero();
  for (const Eigen::Vector2d& v : vertices) mean += v;
  mean /= static_cast<double>(vertices.size());
  ShapeGeometry geometry;
  if (vertices.size() == 2) {  // a thin rod: its moment per unit mass, no area
    geometry.centroid_m = mean;
    geometry.rod_moment_per_mass = (vertices[1] - vertices[0]).squaredNorm() / 12.0;
    return geometry;
  }
  double twice_area = 0.0;
  Eigen::Vector2d first_moment = Eigen::Vector2d::Zero();  // 6 A (C − c₀)
  double second_moment = 0.0;                              // 12 J about c₀
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    const Eigen::Vector2d a = vertices[i] - mean;
    const Eigen::Vector2d b = vertices[(i + 1) % vertices.size()] - mean;
    const double c = cross(a, b);
    twice_area += c;
    first_moment += (a + b) * c;
    second_moment += (a.squaredNorm() + a.dot(b) + b.squaredNorm()) * c;
  }
  geometry.area_m2 = 0.5 * twice_area;
  const Eigen::Vector2d offset = first_moment / (3.0 * twice_area);  // C − c₀
  geometry.centroid_m = mean + offset;
  geometry.polar_moment_m4 = second_moment / 12.0 - geometry.area_m2 * offset.squaredNorm();
  return geometry;
}

void check_names(const std::vector<std::string>& names, std::size_t count, const char* what,
                 const std::string& body) {
  if (names.empty()) return;
  if (names.size() != count) {
    throw std::invalid_argument(cat("shape of ", body, ": ", names.size(), " ", what,
                                    " names, not one per ", what, " (", count, ")"));
  }
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i].empty())
      throw std::invalid_argument(cat("shape of ", body, ": empty ", what, " name"));
    for (std::size_t j = 0; j < i; ++j) {
      if (names[i] == names[j]) {
        throw std::invalid_argument(
            cat("shape of ", body, ": ", what, " name '", names[i], "' is used twice"));
      }
    }
  }
}

void check_polygon(const PolygonShape& polygon, const std::string& body) {
  const std::vector<Eigen::Vector2d>& v = polygon.vertices_m;
  if (v.size() < 2) {
    throw std::invalid_argument(
        cat("shape of ", body, ": a polygon needs at least 2 vertices, not ", v.size()));
  }
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!v[i].allFinite()) {
      throw std::invalid_argument(cat("shape of ", body, ": vertex ", i, " is not finite"));
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (v[i] == v[j]) {
        throw std::invalid_argument(
            cat("shape of ", body, ": vertices ", j, " and ", i, " are the same point"));
      }
    }
  }
  check_names(polygon.vertex_names, v.size(), "vertex", body);
  check_names(polygon.edge_names, v.size(), "edge", body);
  if (v.size() == 2) return;  // a segment: any two distinct points
  // Convex and counter-clockwise: every turn is to the left, and the turns add up to one full
  // turn (a star polygon turns left everywhere but winds twice).
  double turning_rad = 0.0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const Eigen::Vector2d in = v[i] - v[(i + v.size() - 1) % v.size()];
    const Eigen::Vector2d out = v[(i + 1) % v.size()] - v[i];
    if (!(cross(in, out) > 0.0)) {
      throw std::invalid_argument(cat("shape of ", body,
                                      ": polygon turns right or goes straight at ", "vertex ", i,
                                      " (vertices must be convex, counter-clockwise)"));
    }
    turning_rad += std::atan2(cross(in, out), in.dot(out));
  }
  if (std::abs(turning_rad - 2.0 * std::numbers::pi) > 1e-6) {
    throw std::invalid_argument(cat("shape of ", body, ": polygon winds ",
                                    turning_rad / (2.0 * std::numbers::pi),
                                    " times (vertices must go once round, counter-clockwise)"));
  }
}

}  // namespace

PolygonShape rectangle_shape(double width_m, double height_m) {
  const double x = 0.5 * width_m, y = 0.5 * height_m;
  return {{{-x, -y}, {x, -y}, {x, y}, {-x, y}},
          {"bottom_left", "bottom_right", "top_right", "top_left"},
          {"bottom", "right", "top", "left"}};
}

PolygonShape segment_shape(double length_m) {
  PolygonShape segment =
      segment_between({-0.5 * length_m, 0.0}, {0.5 * length_m, 0.0}, "left_end", "right_end");
  segment.edge_names = {"bottom", "top"};
  return segment;
}

PolygonShape segment_between(const Eigen::Vector2d& a_m, const Eigen::Vector2d& b_m,
                             std::string a_name, std::string b_name) {
  return {{a_m, b_m}, {std::move(a_name), std::move(b_name)}, {}};
}

ShapeGeometry shape_geometry(const Shape& shape) {
  if (const auto* disk = std::get_if<DiskShape>(&shape)) {
    const double r2 = disk->radius_m * disk->radius_m;
    return {std::numbers::pi * r2, disk->centre_m, 0.5 * std::numbers::pi * r2 * r2, 0.0};
  }
  return polygon_geometry(std::get<PolygonShape>(shape).vertices_m);
}

PlanarBody uniform_body(const Shape& shape, double mass_kg) {
  check_shape(shape, "uniform body");
  const ShapeGeometry geometry = shape_geometry(shape);
  const double moment_per_mass = geometry.area_m2 > 0.0
                                     ? geometry.polar_moment_m4 / geometry.area_m2
                                     : geometry.rod_moment_per_mass;  // [m²]
  return {mass_kg, geometry.centroid_m, mass_kg * moment_per_mass};
}

void check_shape(const Shape& shape, const std::string& what) {
  if (const auto* disk = std::get_if<DiskShape>(&shape)) {
    if (!(disk->radius_m > 0.0) || !std::isfinite(disk->radius_m)) {
      throw std::invalid_argument(
          cat("shape of ", what, ": disk radius ", disk->radius_m, " m must be > 0"));
    }
    if (!disk->centre_m.allFinite()) {
      throw std::invalid_argument(cat("shape of ", what, ": disk centre is not finite"));
    }
    return;
  }
  check_polygon(std::get<PolygonShape>(shape), what);
}

double bounding_radius(const Shape& shape) {
  if (const auto* disk = std::get_if<DiskShape>(&shape)) {
    return disk->centre_m.norm() + disk->radius_m;
  }
  double radius = 0.0;
  for (const Eigen::Vector2d& v : std::get<PolygonShape>(shape).vertices_m) {
    radius = std::max(radius, v.norm());
  }
  return radius;
}

double shape_size(const Shape& shape) {
  if (const auto* disk = std::get_if<DiskShape>(&shape)) return 2.0 * disk->radius_m;
  const std::vector<Eigen::Vector2d>& vertices = std::get<PolygonShape>(shape).vertices_m;
  double size = 0.0;
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) size = std::max(size, (vertices[i] - vertices[j]).norm());
  }
  return size;
}

double signed_distance(const PolygonShape& polygon, const Eigen::Vector2d& point_m) {
  const std::size_t n = polygon.vertices_m.size();
  double distance = std::numeric_limits<double>::infinity();
  bool inside = n >= 3;
  for (std::size_t i = 0; i < n; ++i) {
    const Eigen::Vector2d& a = polygon.vertices_m[i];
    const Eigen::Vector2d ab = polygon.vertices_m[(i + 1) % n] - a;
    const Eigen::Vector2d ap = point_m - a;
    const double s = ab.isZero(0.0) ? 0.0 : std::clamp(ap.dot(ab) / ab.squaredNorm(), 0.0, 1.0);
    distance = std::min(distance, (ap - s * ab).norm());
    if (cross(ab, ap) < 0.0) inside = false;  // right of a counter-clockwise edge: outside
  }
  return inside ? -distance : distance;
}

double distance_outside(const Shape& shape, const Eigen::Vector2d& point_m) {
  if (const auto* disk = std::get_if<DiskShape>(&shape)) {
    return std::max(0.0, (point_m - disk->centre_m).norm() - disk->radius_m);
  }
  return std::max(0.0, signed_distance(std::get<PolygonShape>(shape), point_m));
}

}  // namespace routh
