#include "models/planar/planar_broad_phase.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <variant>

namespace routh {

namespace {

// Whether a vertex behind an edge's line belongs to that edge: it lies less than kExtentHair of
// the edge's length behind it (at the face: resting on it, or at a corner, where a resting
// contact's drift may sink it a little deeper behind this edge than behind the neighbour), or
// it is no deeper behind it than behind those neighbouring edges' lines that it may touch (to
// 1e-9 of the edge's length). Sunk into a convex polygon, a point belongs to the face it is
// least deep behind (the separating axis of least penetration; Ericson, "Real-Time Collision
// Detection", 2005, §5.2.1): a block resting on another with its corner near the lower one's far
// side lies at the end of that side's extent, within half the lower block's width behind it, and
// touches the top, not the side. A neighbour whose reversed normal is outside the vertex's
// normal cone is no rival: the vertex cannot touch it, its body's own edge would (a block's
// corner sunk a little into another's top at that block's corner lies nearer the side face
// than the top, but the block reaches over the top and is pushed out through it; reading it as
// the side's left it touching neither face, and the block fell in).
bool nearest_face(const VertexEdgeContact& contact, const EdgePosition& edge,
                  const BodyMotion& body, const BodyMotion& other) {
  constexpr double kTie = 1e-9;  // relative to the edge's length
  if (edge.distance_m >= -kExtentHair * edge.length_m) return true;
  const Eigen::Vector2d from_start = edge.along_m * edge.tangent + edge.distance_m * edge.normal;
  const auto behind = [&](const Eigen::Vector2d& normal, const Eigen::Vector2d& from_line) {
    const Eigen::Vector2d outward = other.rotation * normal;
    if (normal.isZero(0.0) ||
        !within_cone(body, contact.vertex_normals, -outward, kNormalConeTolerance_rad)) {
      return -std::numeric_limits<double>::infinity();  // unknown, or no rival
    }
    return outward.dot(from_line);
  };
  const double deepest =
      std::max(behind(contact.edge.previous_normal, from_start),
               behind(contact.edge.next_normal, from_start - edge.length_m * edge.tangent));
  return edge.distance_m >= deepest - kTie * edge.length_m;
}

// Whether a vertex within the hair of a segment's line where both of its faces exist (each is
// touched to 1e-9 of the length behind its line: deepest_touch_m()) may touch this face. The two
// faces have opposite normals and rows: handed together to an impact law, they make D singular
// (a vertex struck against both was answered with impulses of 1e15 N s that cancel but for
// round-off, and the kinetic energy rose). A vertex touches a face only from the side where its
// own body lies, the face whose outward normal points against the body, away from the axis of
// the vertex's normal cone (near the vertex the body lies about −axis): n·axis < 0, one of the two
// faces. With the body along the line to within kAlongLine (two segments lying flat on each
// other), that side is the drift's, not the geometry's: both faces are listed, and the simulator
// keeps the one that was already active (MechanicalSystem::opposite_face_contact).
bool may_touch_this_face(const VertexEdgeContact& contact, const EdgePosition& edge,
                         const BodyMotion& body, const TreeMotion& motion) {
  constexpr double kAlongLine = 1e-6;  // sine of the angle, far above a closed contact's drift
  if (contact.edge.depth_m > 0.0 || edge.distance_m >= -deepest_touch_m(contact.edge)) {
    return true;  // a polygon's edge, or the other face does not exist
  }
  const double facing = (body.rotation * contact.vertex_normals.axis).dot(edge.normal);
  if (std::abs(facing) >= kAlongLine || contact.joined_body < 0) return facing < kAlongLine;
  // A joint's vertex whose own link lies along the line (a chain's link flat on another link)
  // touches from the side where the link jointed there lies: a face on the other side would
  // hold the joint against it while that link crossed the line.
  const BodyMotion& joined = body_motion(motion, contact.joined_body);
  return (joined.rotation * contact.joined_normals.axis).dot(edge.normal) < kAlongLine;
}

bool exists(const ContactGeometry&, const PairKinematics&, const TreeMotion&, const BodyMotion&,
            const BodyMotion&) {
  return true;
}

bool exists(const VertexEdgeContact& contact, const PairKinematics& kinematics,
            const TreeMotion& motion, const BodyMotion& body, const BodyMotion& other) {
  if (kinematics.support_m < 0.0) return true;  // beyond the extent: by its gap alone
  const Eigen::Vector2d vertex = body.origin_m + body.rotation * contact.vertex_m;
  const EdgePosition edge = edge_position(other, contact.edge, vertex);
  return edge.distance_m > deepest_touch_m(contact.edge) &&
         nearest_face(contact, edge, body, other) &&
         may_touch_this_face(contact, edge, body, motion) &&
         within_cone(body, contact.vertex_normals, -edge.normal, kNormalConeTolerance_rad);
}

bool exists(const DiskEdgeContact& contact, const PairKinematics&, const TreeMotion&,
            const BodyMotion& body, const BodyMotion& other) {
  const Eigen::Vector2d centre = body.origin_m + body.rotation * contact.disk.centre_m;
  const EdgePosition edge = edge_position(other, contact.edge, centre);
  if (edge.along_m < 0.0) return true;  // before the start: by its gap alone
  if (edge.along_m > edge.length_m) {   // the owned corner
    const Eigen::Vector2d corner = other.origin_m + other.rotation * contact.edge.end_m;
    return within_cone(other, contact.corner_normals, centre - corner, kNormalConeTolerance_rad);
  }
  return edge.distance_m > deepest_touch_m(contact.edge);
}

bool exists(const DiskDiskContact&, const PairKinematics&, const TreeMotion&, const BodyMotion&,
            const BodyMotion&) {
  return true;
}

bool is_nearby(const TreeContact& contact, const TreeMotion& motion, double margin_m) {
  const PairKinematics kinematics = pair_kinematics(contact, motion);
  if (!(kinematics.gap_m < margin_m)) return false;
  return std::visit(
      [&](const auto& c) {
        return exists(c, kinematics, motion, body_motion(motion, c.body),
                      body_motion(motion, contact_other_body(contact)));
      },
      contact);
}

void add_nearby(const PlanarContactSet& set, const TreeMotion& motion, int first, int end,
                double margin_m, std::vector<int>& nearby) {
  for (int k = first; k < end; ++k) {
    if (is_nearby(set.contacts[static_cast<std::size_t>(k)], motion, margin_m)) {
      nearby.push_back(k);
    }
  }
}

}  // namespace

double broad_phase_step_bound_s(const PlanarContactSet& set, const TreeMotion& motion) {
  double bound_s = std::numeric_limits<double>::infinity();
  for (std::size_t b = 0; b < set.bounding_radii_m.size(); ++b) {
    const double radius_m = set.bounding_radii_m[b];
    if (!(radius_m > 0.0) || !set.collides_with_bodies[b]) continue;
    const BodyMotion& body = body_motion(motion, static_cast<int>(b));
    const double turning_m_s =
        set.round_about_origin[b] ? 0.0 : std::abs(body.angular_velocity) * radius_m;
    const double speed = body.origin_velocity.norm() + turning_m_s;
    if (speed > 0.0) bound_s = std::min(bound_s, kBroadPhaseReach * radius_m / speed);
  }
  return bound_s;
}

void nearby_planar_contacts(const PlanarContactSet& set, const TreeMotion& motion,
                            std::vector<int>& nearby) {
  nearby.clear();
  for (int k = 0; k < set.listed_count; ++k) nearby.push_back(k);
  for (const ObstacleContacts& group : set.obstacle_groups) {
    const double radius_m = set.bounding_radii_m[static_cast<std::size_t>(group.body)];
    const double margin_m = 0.5 * radius_m;
    const BodyMotion& body = body_motion(motion, group.body);
    if (group.surface.distance(body.origin_m) - radius_m >= margin_m) continue;
    add_nearby(set, motion, group.first, group.end, margin_m, nearby);
  }
  for (const BodyPairContacts& group : set.pair_groups) {
    const double radius_m = set.bounding_radii_m[static_cast<std::size_t>(group.body)];
    const double other_radius_m = set.bounding_radii_m[static_cast<std::size_t>(group.other)];
    const double margin_m = 0.5 * std::max(radius_m, other_radius_m);
    const double apart_m =
        (body_motion(motion, group.body).origin_m - body_motion(motion, group.other).origin_m)
            .norm() -
        radius_m - other_radius_m;
    if (apart_m >= margin_m) continue;
    add_nearby(set, motion, group.first, group.end, margin_m, nearby);
  }
}

}  // namespace routh
