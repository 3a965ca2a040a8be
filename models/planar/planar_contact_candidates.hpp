#pragma once
// The contacts of a planar tree (planar_tree.hpp): the listed ones, then the candidates its shapes
// generate, in this order:
//   1. per shaped body, per obstacle, per vertex (or the disk), in their orders:
//      BODY.VERTEX/OBSTACLE, or BODY/OBSTACLE for a disk;
//   2. with collide_bodies, per pair of bodies a < b that no joint joins (parent and child never
//      touch): every vertex of a against every edge of b (a.VERTEX/b.EDGE), a's disk against
//      every edge of b (a/b.EDGE), the same with b against a, then the two disks (a/b, the normal
//      pointing from b toward a).
// Then `contact_aliases` renames some (an alias of a name that no contact has is an error).
//
// Dropped, since they can never act or would repeat another contact:
//   - a vertex fixed to the ground (at the origin of a body on a revolute joint to the ground, a
//     pendulum's pivot end) against the obstacles: its gap never changes;
//   - a child's vertex at its revolute joint where its parent has a vertex too (a chain's links
//     share their ends), against the obstacles and against every body that the parent's vertex
//     touches: the parent's vertex is the same material point, and both would give the same
//     Jacobian rows. Against a body joined to the parent (and so never touched by its vertex),
//     the child's vertex stays.
//
// Extents: a vertex of body i against an edge of body j (length L) exists while it projects within
// [−ε, L + ε] if i > j and [ε, L − ε] otherwise, ε = 1e-6 L. Two equal-width blocks stacked corner
// on corner then touch once per corner: the upper-indexed body's corner on the other's edge end
// (widened), never also the lower-indexed body's corner on the upper's edge end (shrunk), which
// would give D two equal rows. Where only one of the two corners is a joint's (a vertex where a
// revolute joint joins it to another body's vertex, a chain's link ends), the free corner owns
// the meeting whatever the order: the joint's edge ends are widened for it, the free corner's
// edge ends shrunk for the joint's vertex. A joint's corner is no corner of one convex body: the
// next link goes on from it, and the two links' faces make a V there. A free corner sliding along
// one into the joint meets the other (the shrunk ends left a gap of 2ε between them, through which
// it passed), and the joint's vertex, whose normals are its own link's alone, is not struck
// against the free corner's faces where the next link lies across them. A joint's vertex knows
// the body joined there and that body's normals at it (VertexEdgeContact::joined_body). A disk
// against an edge has the extent [0, L] and owns the end corner (contact_pair_kinematics.hpp).

#include <string>
#include <vector>

#include "models/planar/contact_pair_kinematics.hpp"
#include "models/planar/planar_contact_geometry.hpp"

namespace routh {

struct PlanarTreeDescription;

/// Relative half-width ε/L by which a vertex–edge extent is widened or shrunk.
inline constexpr double kExtentHair = 1e-6;

/// The contacts of one body against one obstacle: indices [first, end).
struct ObstacleContacts {
  int body = 0;
  HalfPlane surface;
  int first = 0;
  int end = 0;
};

/// The contacts between two bodies, body < other: indices [first, end).
struct BodyPairContacts {
  int body = 0;
  int other = 0;
  int first = 0;
  int end = 0;
};

/// Every contact of a tree, its name, and the groups the broad phase tests as a whole.
struct PlanarContactSet {
  std::vector<TreeContact> contacts;  ///< the listed ones first
  std::vector<std::string> names;     ///< after the aliases
  int listed_count = 0;
  std::vector<ObstacleContacts> obstacle_groups;  ///< ascending indices, after the listed
  std::vector<BodyPairContacts> pair_groups;      ///< ascending indices, after the obstacles'
  std::vector<double> bounding_radii_m;           ///< per body (bounding_radius), 0: no shape
  std::vector<bool> round_about_origin;    ///< per body: a disk centred on its origin (turning it
                                           ///< moves none of its outline)
  std::vector<bool> collides_with_bodies;  ///< per body: in some pair group
  /// Per contact: the same vertex against the other face of the same segment, or −1
  /// (MechanicalSystem::opposite_face_contact).
  std::vector<int> opposite_faces;
};

/// The contacts of a checked description (PlanarTree checks it first).
PlanarContactSet planar_contact_set(const PlanarTreeDescription& description);

}  // namespace routh
