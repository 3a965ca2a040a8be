#include "models/spatial/spatial_overlap.hpp"

#include <cmath>
#include <variant>

namespace routh {

double plane_overlap_m(const SpatialShape& shape, const SpatialBodyMotion& body,
                       const SpatialPlane& plane) {
  const Eigen::Vector3d m = body.rotation.transpose() * plane.normal;
  double support_m = 0.0;  // min over the shape of n · (p − x)
  if (const auto* sphere = std::get_if<SphereShape>(&shape)) {
    support_m = m.dot(sphere->centre_m) - sphere->radius_m;
  } else if (const auto* box = std::get_if<BoxShape>(&shape)) {
    support_m = -0.5 * m.cwiseAbs().dot(box->size_m);
  } else {
    const auto& cylinder = std::get<CylinderShape>(shape);
    support_m = -cylinder.radius_m * m.head<2>().norm() - 0.5 * cylinder.height_m * std::abs(m.z());
  }
  return -(plane.normal.dot(body.position_m - plane.point_m) + support_m);
}

double deepest_spatial_overlap_m(const SpatialContactSet& set,
                                 const SpatialBodiesDescription& description,
                                 const std::vector<SpatialBodyMotion>& bodies, SphereSweep& sweep,
                                 std::string* where) {
  double deepest_m = -std::numeric_limits<double>::infinity();
  const auto consider = [&](double overlap_m, const std::string& name, const std::string& other) {
    if (!(overlap_m > deepest_m)) return;
    deepest_m = overlap_m;
    if (where) *where = name + "/" + other;
  };
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const SpatialBody& body = description.bodies[b];
    for (const SpatialPlane& plane : description.planes)
      consider(plane_overlap_m(body.shape, bodies[b], plane), body.name, plane.name);
  }
  sweep_sphere_pairs(set, bodies, sweep);
  for (const auto& [i, j] : sweep.near_pairs) {
    const auto a = static_cast<std::size_t>(set.sphere_bodies[static_cast<std::size_t>(i)]);
    const auto b = static_cast<std::size_t>(set.sphere_bodies[static_cast<std::size_t>(j)]);
    const int k = set.pair_first + sphere_pair_offset(set, i, j);
    const double gap_m = spatial_contact_gap(set.contacts[static_cast<std::size_t>(k)], bodies[a],
                                             &bodies[b], nullptr, Eigen::Vector2d::UnitX());
    consider(-gap_m, description.bodies[a].name, description.bodies[b].name);
  }
  return deepest_m;
}

}  // namespace routh
