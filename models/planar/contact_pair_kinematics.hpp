#pragma once
// The contacts of a planar tree and the kinematics of each: a point or circle on a body against a
// ground-fixed half-plane (ContactGeometry), a vertex of one body against an edge of another, a
// disk against an edge (and the edge's end corner), and two disks.
//
// Conventions (docs/simulation.md; as planar_contact_geometry.hpp for obstacles): contact k acts
// between body A (`body`) and body B (`other`, or the ground). Its gap g ≥ 0 apart; n the unit
// normal from B toward A; t = (n_y, −n_x), n turned 90° clockwise. The rows of the contact Jacobian
// are
//     u_n = n·(v_A(p_A) − v_B(p_B)),     u_t = t·(v_A(p_A) − v_B(p_B)),
// v_X(p) the velocity of body X's material point at p, p_A the point of A's feature that touches
// (a vertex, or a disk's rim point c − r n), p_B the point of B's that it touches (the foot of the
// edge's normal through c, a corner, or a disk's rim point): the same point when g = 0, so that
// rolling without slip has u_t = 0.
//
// Every kind is made of two primitives, a circle of A (centre c, radius r ≥ 0, r = 0 a vertex)
//   - against a line of B (point e, unit normal n):  g = n·(c − e) − r,
//   - against a circle of B (centre c_B, radius r_B): g = |c − c_B| − r − r_B,
// whose Jacobian rows and velocity products J̇v (the contact accelerations at v̇ = 0, so that
// a = J v̇ + J̇v) are derived in contact_pair_kinematics.cpp.

#include <Eigen/Core>
#include <limits>
#include <variant>

#include "models/planar/planar_contact_geometry.hpp"
#include "models/planar/planar_kinematics.hpp"
#include "models/planar/shape.hpp"

namespace routh {

/// An edge of a body's polygon in its frame, running from `start_m` to `end_m` with the body on
/// its left (its outward normal on its right).
struct EdgeFeature {
  Eigen::Vector2d start_m = Eigen::Vector2d::Zero();
  Eigen::Vector2d end_m = Eigen::Vector2d::UnitX();
  double depth_m = 0.0;  ///< how far the polygon reaches behind the edge's line (0: a segment)
  /// Outward unit normals of the neighbouring edges, ending at `start_m` and starting at `end_m`
  /// (body frame); zero when unknown. The broad phase gives a vertex sunk behind this edge to it
  /// only if it is not deeper behind this edge than behind those (planar_broad_phase.hpp).
  Eigen::Vector2d previous_normal = Eigen::Vector2d::Zero();
  Eigen::Vector2d next_normal = Eigen::Vector2d::Zero();
};

/// The outward normals of a polygon's vertex, in its body frame: the directions within
/// `half_angle_rad` of `axis` (unit), between the normals of its two edges.
struct NormalCone {
  Eigen::Vector2d axis = Eigen::Vector2d::UnitY();
  double half_angle_rad = 0.0;
};

/// A vertex of body `body` against an edge of body `other` (another body). The contact exists
/// while the vertex projects within [extent_start_m, extent_end_m] along the edge from its start
/// (the edge, widened or shrunk by a hair: planar_contact_candidates.hpp).
struct VertexEdgeContact {
  int body = 0;
  int other = 0;
  Eigen::Vector2d vertex_m = Eigen::Vector2d::Zero();  ///< in body's frame
  NormalCone vertex_normals;                           ///< in body's frame
  EdgeFeature edge;                                    ///< in other's frame
  double extent_start_m = 0.0;
  double extent_end_m = 0.0;
  /// The body jointed to `body` at this vertex whose own vertex meets it there (a chain's
  /// neighbouring link), or −1; and that vertex's normals, in its frame.
  int joined_body = -1;
  NormalCone joined_normals;
};

/// A disk of body `body` against an edge of body `other`, and against the corner at the edge's
/// end, which the edge owns (the next edge's candidate never touches it).
struct DiskEdgeContact {
  int body = 0;
  int other = 0;
  DiskShape disk;             ///< in body's frame
  EdgeFeature edge;           ///< in other's frame
  NormalCone corner_normals;  ///< of the edge's end vertex, in other's frame
};

/// A disk of body `body` against a disk of body `other`.
struct DiskDiskContact {
  int body = 0;
  int other = 0;
  DiskShape disk;        ///< in body's frame
  DiskShape other_disk;  ///< in other's frame
};

using TreeContact =
    std::variant<ContactGeometry, VertexEdgeContact, DiskEdgeContact, DiskDiskContact>;

/// A Jacobian row's terms in one body's velocity: its part of u is linear·ȯ + angular·ω, ȯ the
/// body origin's velocity (the row's generalized force on that body, about its origin).
struct VelocityTerms {
  Eigen::Vector2d linear = Eigen::Vector2d::Zero();
  double angular_m = 0.0;
};

/// One row of a contact Jacobian and its velocity product.
struct ContactRow {
  VelocityTerms body;             ///< in A's velocity
  VelocityTerms other;            ///< in B's velocity (zero against the ground)
  double velocity_product = 0.0;  ///< J̇v [m/s²]
};

/// Gap [m], the two rows, and the support [m] (ContactKinematics::support) of one contact.
struct PairKinematics {
  double gap_m = 0.0;
  ContactRow normal;
  ContactRow tangential;
  double support_m = std::numeric_limits<double>::infinity();
};

/// Where a point lies relative to an edge (world axes): `along_m` from the edge's start along
/// it, `distance_m` in front of its line (> 0 outside the polygon).
struct EdgePosition {
  Eigen::Vector2d start_m;  ///< the edge's start, world
  Eigen::Vector2d tangent;  ///< unit, from start to end
  Eigen::Vector2d normal;   ///< unit, outward: the tangent turned 90° clockwise
  double length_m = 0.0;
  double along_m = 0.0;
  double distance_m = 0.0;
};
EdgePosition edge_position(const BodyMotion& other, const EdgeFeature& edge,
                           const Eigen::Vector2d& point_m);

/// How far behind an edge's line [m] (a negative distance) a vertex or a disk's centre may lie
/// and still touch the edge: half the polygon's depth, where the opposite side becomes nearer; a
/// segment (depth 0) is touched from in front only, to 1e-9 of its length.
double deepest_touch_m(const EdgeFeature& edge);

/// Whether the world direction `direction` lies within `cone` (of a body moving as `body`)
/// widened by `tolerance_rad`.
bool within_cone(const BodyMotion& body, const NormalCone& cone, const Eigen::Vector2d& direction,
                 double tolerance_rad);

/// Contact kinematics, `body` moving as A and `other` as B (the ground's motion for an
/// obstacle). See the .cpp for each kind's gap, normal and support. `held`: the contact is held
/// closed, and the edge's line goes on past the ends of its extent (QuantityRequest::
/// held_contacts), where an open contact's gap and rows are those of the distance beyond.
PairKinematics pair_kinematics(const ContactGeometry& contact, const BodyMotion& body,
                               const BodyMotion& ground);
PairKinematics pair_kinematics(const VertexEdgeContact& contact, const BodyMotion& body,
                               const BodyMotion& other, bool held = false);
PairKinematics pair_kinematics(const DiskEdgeContact& contact, const BodyMotion& body,
                               const BodyMotion& other, bool held = false);
PairKinematics pair_kinematics(const DiskDiskContact& contact, const BodyMotion& body,
                               const BodyMotion& other);

/// The kinematics of any contact, every body moving as in `motion`; `held` as above.
PairKinematics pair_kinematics(const TreeContact& contact, const TreeMotion& motion,
                               bool held = false);

/// The motion of body `body` in `motion`, the ground's for kGround.
const BodyMotion& body_motion(const TreeMotion& motion, int body);

/// The bodies a contact acts between: (body, other), other kGround for an obstacle.
int contact_body(const TreeContact& contact);
int contact_other_body(const TreeContact& contact);

}  // namespace routh
