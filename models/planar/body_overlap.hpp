#pragma once
// How deep a tree's shaped bodies overlap each other or its obstacles: the check that contact
// detection missed nothing. Contacts are vertex–edge, disk–edge and disk–disk features whose gaps
// the simulator watches; two bodies can only come to overlap through a feature whose gap it did
// not see cross zero. The depth is measured on the shapes themselves, not on those features:
//  - a polygon (or segment) against a polygon: the separating-axis depth, the least overlap of
//    the two shapes' projections on the edge normals of either (Ericson, "Real-Time Collision
//    Detection", 2005, §5.2.1; for convex shapes in the plane a gap shows on one of them);
//  - a disk against a polygon: its radius less the signed distance of its centre from the
//    polygon (negative inside; a segment has no inside);
//  - two disks: r_a + r_b − |c_a − c_b|; a body against an obstacle: the depth of its deepest
//    vertex or of its disk behind the obstacle's line.
// Bodies that cannot touch (joined by a joint, or `collide_bodies` off) are not compared.

#include <limits>
#include <string>

#include "models/planar/planar_contact_candidates.hpp"
#include "models/planar/planar_kinematics.hpp"

namespace routh {

/// The deepest overlap at one state: `body` with `other` (a body's index) or with obstacle
/// `obstacle` (other = −1).
struct BodyOverlap {
  double depth_m = -std::numeric_limits<double>::infinity();  ///< ≤ 0: nothing overlaps
  int body = -1;
  int other = -1;
  int obstacle = -1;
};

/// The deepest overlap of `description`'s shaped bodies, at `motion` (positions only), among the
/// pairs and body–obstacle groups of `set` whose bounding circles meet.
BodyOverlap deepest_body_overlap(const PlanarTreeDescription& description,
                                 const PlanarContactSet& set, const TreeMotion& motion);

/// "block2 and block3" or "block1 and floor".
std::string describe(const BodyOverlap& overlap, const PlanarTreeDescription& description);

}  // namespace routh
