#pragma once
// The broad phase of free rigid bodies in 3D (MechanicalSystem::nearby_contacts): which contacts
// (spatial_contact_geometry.hpp) may close soon, in O(B P + S log S + near pairs) for B bodies,
// P planes and S spheres that collide with each other.
//
// Margin, as the planar broad phase's (models/planar/planar_broad_phase.hpp): each body is bounded
// by the sphere about its centre of mass of radius R (bounding_radius()). A body is near a plane
// when that sphere comes closer than m = ½ R, two spheres are near when their bounding spheres
// come closer than m = ½ max(R_a, R_b); a near group's contact is listed when its gap, open, is
// below the same m.
// Near sphere pairs are found by sweep and prune along the world x (Baraff, "Dynamic simulation of
// non-penetrating rigid bodies", 1992, §6.2): two bounding spheres within the pair margin have
// overlapping extents [x − 1.5 R, x + 1.5 R], so sorting the extents by their lower ends and
// scanning each one's followers up to its upper end meets every near pair.
// A contact left out cannot close before the next call as long as no body point moves farther than
// kBroadPhaseReach R in between (broad_phase_step_bound_s()); against a plane, a half-space, no
// bound is needed: a contact that closed within a step is behind its plane, and listed, at its end.

#include <string>
#include <utility>
#include <vector>

#include "models/spatial/rigid_body_kinematics.hpp"
#include "models/spatial/spatial_contact_geometry.hpp"

namespace routh {

/// The radius [m] of the sphere about the body origin that holds `shape`.
double bounding_radius(const SpatialShape& shape);

/// The contacts of a description, grouped for the broad phase.
struct SpatialContactSet {
  std::vector<SpatialContact> contacts;
  std::vector<std::string> names;
  int rim_count = 0;  ///< the cylinders' rims against the planes (SpatialContact::rim)
  /// Body b's contacts against plane p are group_first[b P + p] … group_first[b P + p + 1] − 1.
  std::vector<int> group_first;
  int plane_count = 0;
  /// The sphere pairs: the bodies taking part, ascending, and their contacts from pair_first on,
  /// pair (i, j), i < j in that list, at pair_first + sphere_pair_offset(i, j).
  std::vector<int> sphere_bodies;
  int pair_first = 0;
  std::vector<double> bounding_radii_m;
  /// Whether turning moves none of the body's outline (a sphere centred on its centre of mass).
  std::vector<bool> round_about_origin;
};

SpatialContactSet make_spatial_contact_set(const SpatialBodiesDescription& description);

/// The index of the contact of sphere pair (i, j), i < j, among the pairs.
int sphere_pair_offset(const SpatialContactSet& set, int i, int j);

/// The sweep's scratch and its answer, sized once.
struct SphereSweep {
  struct Extent {
    double low_m;
    double high_m;
    int sphere;  ///< index in sphere_bodies
  };
  std::vector<Extent> extents;
  /// The pairs (i, j), i < j (indices in sphere_bodies), whose bounding spheres come closer than
  /// ½ max(R_i, R_j), and a few more (those whose extents overlap).
  std::vector<std::pair<int, int>> near_pairs;
};

/// Fills sweep.near_pairs at the bodies' poses.
void sweep_sphere_pairs(const SpatialContactSet& set, const std::vector<SpatialBodyMotion>& bodies,
                        SphereSweep& sweep);

/// The longest time [s] over which, moving with the bodies' velocities, no sphere that collides
/// with another moves a point farther than kBroadPhaseReach R (at speed |v| + |ω| R, or |v| for a
/// sphere centred on its centre of mass); infinite without sphere pairs.
double spatial_broad_phase_step_bound_s(const SpatialContactSet& set,
                                        const std::vector<SpatialBodyMotion>& bodies);

/// e(ψ) of `contact`'s rim from `bases`, one per rim (spatial_contact_geometry.hpp); e_x for a
/// contact on no rim.
inline Eigen::Vector2d base_of(const SpatialContact& contact,
                               const std::vector<Eigen::Vector2d>& bases) {
  return contact.rim < 0 ? Eigen::Vector2d::UnitX() : bases[static_cast<std::size_t>(contact.rim)];
}

/// The nearby contacts, ascending, into `nearby` (no allocation once it has the capacity); `bases`
/// as above.
void nearby_spatial_contacts(const SpatialContactSet& set,
                             const SpatialBodiesDescription& description,
                             const std::vector<SpatialBodyMotion>& bodies,
                             const std::vector<Eigen::Vector2d>& bases, SphereSweep& sweep,
                             std::vector<int>& nearby);

}  // namespace routh
