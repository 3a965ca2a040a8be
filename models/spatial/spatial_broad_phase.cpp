#include "models/spatial/spatial_broad_phase.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <variant>

#include "models/planar/planar_broad_phase.hpp"

namespace routh {

namespace {

// The pair margin's reach along x: both bounding spheres and ½ max(R_a, R_b) ≤ ½ R_a + ½ R_b.
constexpr double kExtentPerRadius = 1.5;

}  // namespace

double bounding_radius(const SpatialShape& shape) {
  if (const auto* sphere = std::get_if<SphereShape>(&shape))
    return sphere->centre_m.norm() + sphere->radius_m;
  if (const auto* box = std::get_if<BoxShape>(&shape)) return 0.5 * box->size_m.norm();
  const auto& cylinder = std::get<CylinderShape>(shape);
  return std::hypot(cylinder.radius_m, 0.5 * cylinder.height_m);
}

SpatialContactSet make_spatial_contact_set(const SpatialBodiesDescription& description) {
  SpatialContactSet set;
  set.contacts = spatial_contacts(description, set.names);
  for (const SpatialContact& contact : set.contacts)
    set.rim_count = std::max(set.rim_count, contact.rim + 1);
  set.plane_count = static_cast<int>(description.planes.size());
  const auto bodies = static_cast<int>(description.bodies.size());
  set.group_first.assign(static_cast<std::size_t>(bodies * set.plane_count) + 1, 0);
  // contacts come body by body, plane by plane, then the pairs
  std::size_t k = 0;
  for (int group = 0; group < bodies * set.plane_count; ++group) {
    set.group_first[static_cast<std::size_t>(group)] = static_cast<int>(k);
    while (k < set.contacts.size() && set.contacts[k].plane >= 0 &&
           set.contacts[k].body * set.plane_count + set.contacts[k].plane == group) {
      ++k;
    }
  }
  set.group_first.back() = static_cast<int>(k);
  set.pair_first = static_cast<int>(k);
  for (int b = 0; b < bodies; ++b) {
    const SpatialShape& shape = description.bodies[static_cast<std::size_t>(b)].shape;
    set.bounding_radii_m.push_back(bounding_radius(shape));
    const auto* sphere = std::get_if<SphereShape>(&shape);
    set.round_about_origin.push_back(sphere && sphere->centre_m.isZero(0.0));
    if (sphere && description.collide_bodies) set.sphere_bodies.push_back(b);
  }
  if (set.sphere_bodies.size() < 2) set.sphere_bodies.clear();
  return set;
}

int sphere_pair_offset(const SpatialContactSet& set, int i, int j) {
  const auto spheres = static_cast<int>(set.sphere_bodies.size());
  return i * spheres - i * (i + 1) / 2 + (j - i - 1);
}

void sweep_sphere_pairs(const SpatialContactSet& set, const std::vector<SpatialBodyMotion>& bodies,
                        SphereSweep& sweep) {
  sweep.extents.clear();
  sweep.near_pairs.clear();
  for (std::size_t i = 0; i < set.sphere_bodies.size(); ++i) {
    const auto b = static_cast<std::size_t>(set.sphere_bodies[i]);
    const double x = bodies[b].position_m.x();
    const double reach = kExtentPerRadius * set.bounding_radii_m[b];
    sweep.extents.push_back({x - reach, x + reach, static_cast<int>(i)});
  }
  std::sort(
      sweep.extents.begin(), sweep.extents.end(),
      [](const SphereSweep::Extent& a, const SphereSweep::Extent& b) { return a.low_m < b.low_m; });
  for (std::size_t e = 0; e < sweep.extents.size(); ++e) {
    const SphereSweep::Extent& extent = sweep.extents[e];
    for (std::size_t f = e + 1; f < sweep.extents.size(); ++f) {
      const SphereSweep::Extent& follower = sweep.extents[f];
      if (follower.low_m > extent.high_m) break;
      sweep.near_pairs.emplace_back(std::min(extent.sphere, follower.sphere),
                                    std::max(extent.sphere, follower.sphere));
    }
  }
}

double spatial_broad_phase_step_bound_s(const SpatialContactSet& set,
                                        const std::vector<SpatialBodyMotion>& bodies) {
  double bound_s = std::numeric_limits<double>::infinity();
  for (const int body : set.sphere_bodies) {
    const auto b = static_cast<std::size_t>(body);
    const double radius_m = set.bounding_radii_m[b];
    const double turning_m_s =
        set.round_about_origin[b] ? 0.0 : bodies[b].angular_velocity.norm() * radius_m;
    const double speed_m_s = bodies[b].velocity_m_s.norm() + turning_m_s;
    if (speed_m_s > 0.0) bound_s = std::min(bound_s, kBroadPhaseReach * radius_m / speed_m_s);
  }
  return bound_s;
}

void nearby_spatial_contacts(const SpatialContactSet& set,
                             const SpatialBodiesDescription& description,
                             const std::vector<SpatialBodyMotion>& bodies,
                             const std::vector<Eigen::Vector2d>& bases, SphereSweep& sweep,
                             std::vector<int>& nearby) {
  nearby.clear();
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const double margin_m = 0.5 * set.bounding_radii_m[b];
    for (int p = 0; p < set.plane_count; ++p) {
      const SpatialPlane& plane = description.planes[static_cast<std::size_t>(p)];
      const double clearance_m = plane.normal.dot(bodies[b].position_m - plane.point_m);
      if (clearance_m - set.bounding_radii_m[b] >= margin_m) continue;
      const auto group =
          b * static_cast<std::size_t>(set.plane_count) + static_cast<std::size_t>(p);
      for (int k = set.group_first[group]; k < set.group_first[group + 1]; ++k) {
        const SpatialContact& contact = set.contacts[static_cast<std::size_t>(k)];
        if (spatial_contact_gap(contact, bodies[b], nullptr, &plane, base_of(contact, bases)) <
            margin_m) {
          nearby.push_back(k);
        }
      }
    }
  }
  sweep_sphere_pairs(set, bodies, sweep);
  const std::size_t plane_contacts = nearby.size();
  for (const auto& [i, j] : sweep.near_pairs) {
    const auto a = static_cast<std::size_t>(set.sphere_bodies[static_cast<std::size_t>(i)]);
    const auto b = static_cast<std::size_t>(set.sphere_bodies[static_cast<std::size_t>(j)]);
    const double margin_m = 0.5 * std::max(set.bounding_radii_m[a], set.bounding_radii_m[b]);
    const int k = set.pair_first + sphere_pair_offset(set, i, j);
    if (spatial_contact_gap(set.contacts[static_cast<std::size_t>(k)], bodies[a], &bodies[b],
                            nullptr, Eigen::Vector2d::UnitX()) < margin_m) {  // no rim
      nearby.push_back(k);
    }
  }
  std::sort(nearby.begin() + static_cast<long>(plane_contacts), nearby.end());
}

}  // namespace routh
