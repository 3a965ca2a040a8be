#include "models/planar/body_overlap.hpp"

#include <algorithm>
#include <cmath>
#include <variant>

#include "models/planar/contact_pair_kinematics.hpp"
#include "models/planar/planar_tree.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

Eigen::Vector2d world(const BodyMotion& body, const Eigen::Vector2d& local_m) {
  return body.origin_m + body.rotation * local_m;
}

// The interval [lo, hi] of a polygon's projection on `axis` (world frame).
std::pair<double, double> projection(const PolygonShape& polygon, const BodyMotion& body,
                                     const Eigen::Vector2d& axis) {
  double lo = kInfinity, hi = -kInfinity;
  for (const Eigen::Vector2d& vertex : polygon.vertices_m) {
    const double s = axis.dot(world(body, vertex));
    lo = std::min(lo, s);
    hi = std::max(hi, s);
  }
  return {lo, hi};
}

// The least overlap of the projections of a and b on the normals of a's edges.
double least_overlap_on_normals(const PolygonShape& a, const BodyMotion& a_motion,
                                const PolygonShape& b, const BodyMotion& b_motion) {
  double least = kInfinity;
  const std::size_t n = a.vertices_m.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Eigen::Vector2d edge = a.vertices_m[(i + 1) % n] - a.vertices_m[i];
    if (edge.isZero(0.0)) continue;
    const Eigen::Vector2d axis =
        a_motion.rotation * Eigen::Vector2d(edge.y(), -edge.x()).normalized();
    const auto [a_lo, a_hi] = projection(a, a_motion, axis);
    const auto [b_lo, b_hi] = projection(b, b_motion, axis);
    least = std::min(least, std::min(a_hi - b_lo, b_hi - a_lo));
  }
  return least;
}

double overlap(const DiskShape& a, const BodyMotion& a_motion, const DiskShape& b,
               const BodyMotion& b_motion) {
  return a.radius_m + b.radius_m -
         (world(a_motion, a.centre_m) - world(b_motion, b.centre_m)).norm();
}

double overlap(const DiskShape& disk, const BodyMotion& disk_motion, const PolygonShape& polygon,
               const BodyMotion& polygon_motion) {
  const Eigen::Vector2d centre = world(disk_motion, disk.centre_m);
  return disk.radius_m -
         signed_distance(polygon, polygon_motion.rotation.transpose() *
                                      (centre - polygon_motion.origin_m));  // its body frame
}

double overlap(const PolygonShape& polygon, const BodyMotion& polygon_motion, const DiskShape& disk,
               const BodyMotion& disk_motion) {
  return overlap(disk, disk_motion, polygon, polygon_motion);
}

double overlap(const PolygonShape& a, const BodyMotion& a_motion, const PolygonShape& b,
               const BodyMotion& b_motion) {
  return std::min(least_overlap_on_normals(a, a_motion, b, b_motion),
                  least_overlap_on_normals(b, b_motion, a, a_motion));
}

double depth_behind(const HalfPlane& surface, const DiskShape& disk, const BodyMotion& body) {
  return disk.radius_m - surface.distance(world(body, disk.centre_m));
}

double depth_behind(const HalfPlane& surface, const PolygonShape& polygon, const BodyMotion& body) {
  double deepest = -kInfinity;
  for (const Eigen::Vector2d& vertex : polygon.vertices_m) {
    deepest = std::max(deepest, -surface.distance(world(body, vertex)));
  }
  return deepest;
}

}  // namespace

BodyOverlap deepest_body_overlap(const PlanarTreeDescription& description,
                                 const PlanarContactSet& set, const TreeMotion& motion) {
  BodyOverlap deepest;
  const auto note = [&](double depth_m, int body, int other, int obstacle) {
    if (depth_m > deepest.depth_m) deepest = {depth_m, body, other, obstacle};
  };
  for (std::size_t b = 0; b < description.shapes.size(); ++b) {
    if (!description.shapes[b]) continue;
    const BodyMotion& body = body_motion(motion, static_cast<int>(b));
    for (std::size_t o = 0; o < description.obstacles.size(); ++o) {
      const HalfPlane& surface = description.obstacles[o].surface;
      if (surface.distance(body.origin_m) >= set.bounding_radii_m[b]) continue;
      note(std::visit([&](const auto& shape) { return depth_behind(surface, shape, body); },
                      *description.shapes[b]),
           static_cast<int>(b), -1, static_cast<int>(o));
    }
  }
  for (const BodyPairContacts& pair : set.pair_groups) {
    const BodyMotion& a = body_motion(motion, pair.body);
    const BodyMotion& b = body_motion(motion, pair.other);
    const auto ia = static_cast<std::size_t>(pair.body), ib = static_cast<std::size_t>(pair.other);
    if ((a.origin_m - b.origin_m).norm() >= set.bounding_radii_m[ia] + set.bounding_radii_m[ib]) {
      continue;
    }
    note(std::visit([&](const auto& sa, const auto& sb) { return overlap(sa, a, sb, b); },
                    *description.shapes[ia], *description.shapes[ib]),
         pair.body, pair.other, -1);
  }
  return deepest;
}

std::string describe(const BodyOverlap& overlap, const PlanarTreeDescription& description) {
  const std::string& body = description.body_names.at(static_cast<std::size_t>(overlap.body));
  const std::string& other =
      overlap.other >= 0
          ? description.body_names.at(static_cast<std::size_t>(overlap.other))
          : description.obstacles.at(static_cast<std::size_t>(overlap.obstacle)).name;
  return cat(body, " and ", other);
}

}  // namespace routh
