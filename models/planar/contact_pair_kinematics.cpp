#include "models/planar/contact_pair_kinematics.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <type_traits>

namespace routh {

namespace {

// z-component of a × b.
double cross(const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  return a.x() * b.y() - a.y() * b.x();
}

// The terms of m·v_X(p) + spin ω_X for p at `arm` from X's origin: m·(ȯ + ω arm⊥) + spin ω =
// m·ȯ + (arm × m + spin) ω.
VelocityTerms terms(const Eigen::Vector2d& m, const Eigen::Vector2d& arm_m, double spin_m = 0.0) {
  return {m, cross(arm_m, m) + spin_m};
}

ContactRow sum(const ContactRow& a, const ContactRow& b) {
  return {{a.body.linear + b.body.linear, a.body.angular_m + b.body.angular_m},
          {a.other.linear + b.other.linear, a.other.angular_m + b.other.angular_m},
          a.velocity_product + b.velocity_product};
}

// A circle of A (centre c at `arm` from A's origin, radius r ≥ 0) against B's line through e
// with unit normal n (world axes; n turns with B, ṅ = ω_B n⊥ = −ω_B t, ṫ = ω_B n). With
// d = n·(c − e) and w = v_A(c) − v_B(c), the relative velocity of the two bodies' material points
// at c:
//     g   = d − r
//     u_n = n·w                    (ġ = ṅ·(c − e) + n·(v_A(c) − v_B(e)), and v_B(c) − v_B(e) =
//                                   ω_B (c − e)⊥ cancels ṅ·(c − e))
//     u_t = t·w + r ω_A − d ω_B    (A's rim point c − r n, B's foot c − d n, both on the normal)
// Along the motion at v̇ = 0, c moves with A through B's velocity field, so
// ẇ = a_A(c) − a_B(c) − ω_B w⊥, with a_X the material points' bias accelerations; with ḋ = u_n:
//     J̇v_n = n·(a_A − a_B) − 2 ω_B t·w
//     J̇v_t = t·(a_A − a_B) + ω_B n·w + r ω̇_A − d ω̇_B
// Against the ground (ω_B = 0, a_B = 0) these are the obstacle contact's n·p̈ and t·p̈ + r ω̇.
PairKinematics circle_against_line(const BodyMotion& a, const Eigen::Vector2d& arm_m,
                                   double radius_m, const BodyMotion& b,
                                   const Eigen::Vector2d& line_point_m,
                                   const Eigen::Vector2d& normal) {
  const Eigen::Vector2d centre = a.origin_m + arm_m;
  const Eigen::Vector2d arm_b = centre - b.origin_m;
  const Eigen::Vector2d t(normal.y(), -normal.x());
  const double d = normal.dot(centre - line_point_m);
  const Eigen::Vector2d w = material_velocity(a, arm_m) - material_velocity(b, arm_b);
  const Eigen::Vector2d bias =
      material_bias_acceleration(a, arm_m) - material_bias_acceleration(b, arm_b);
  const double omega_b = b.angular_velocity;
  PairKinematics k;
  k.gap_m = d - radius_m;
  k.normal = {terms(normal, arm_m), terms(-normal, arm_b),
              normal.dot(bias) - 2.0 * omega_b * t.dot(w)};
  k.tangential = {terms(t, arm_m, radius_m), terms(-t, arm_b, -d),
                  t.dot(bias) + omega_b * normal.dot(w) + radius_m * a.angular_bias_acceleration -
                      d * b.angular_bias_acceleration};
  return k;
}

// A circle of A (centre c at `arm` from A's origin, radius r) against a circle of B (centre c_B
// at `arm_b` from B's origin, radius r_B ≥ 0; 0 a corner). With ρ = |c − c_B|, n = (c − c_B)/ρ
// and w = v_A(c) − v_B(c_B), the velocity of the centres:
//     g   = ρ − r − r_B,     u_n = n·w = ρ̇,
//     u_t = t·w + r ω_A + r_B ω_B     (the rim points c − r n and c_B + r_B n)
// The centres are material points, so ẇ = a_A(c) − a_B(c_B); the normal turns with the line of
// centres, ṅ = (t·w / ρ) t, ṫ = −(t·w / ρ) n:
//     J̇v_n = n·(a_A − a_B) + (t·w)²/ρ
//     J̇v_t = t·(a_A − a_B) − (t·w)(n·w)/ρ + r ω̇_A + r_B ω̇_B
// At ρ = 0 (coincident centres, deep inside each other) n is undefined: +y, without curvature.
PairKinematics circle_against_circle(const BodyMotion& a, const Eigen::Vector2d& arm_m,
                                     double radius_m, const BodyMotion& b,
                                     const Eigen::Vector2d& other_arm_m, double other_radius_m) {
  const Eigen::Vector2d between = (a.origin_m + arm_m) - (b.origin_m + other_arm_m);
  const double rho = between.norm();
  const Eigen::Vector2d n = rho > 0.0 ? Eigen::Vector2d(between / rho) : Eigen::Vector2d::UnitY();
  const double curvature = rho > 0.0 ? 1.0 / rho : 0.0;  // [1/m]
  const Eigen::Vector2d t(n.y(), -n.x());
  const Eigen::Vector2d w = material_velocity(a, arm_m) - material_velocity(b, other_arm_m);
  const Eigen::Vector2d bias =
      material_bias_acceleration(a, arm_m) - material_bias_acceleration(b, other_arm_m);
  const double w_n = n.dot(w), w_t = t.dot(w);
  PairKinematics k;
  k.gap_m = rho - radius_m - other_radius_m;
  k.normal = {terms(n, arm_m), terms(-n, other_arm_m), n.dot(bias) + w_t * w_t * curvature};
  k.tangential = {terms(t, arm_m, radius_m), terms(-t, other_arm_m, other_radius_m),
                  t.dot(bias) - w_t * w_n * curvature + radius_m * a.angular_bias_acceleration +
                      other_radius_m * b.angular_bias_acceleration};
  return k;
}

// A circle of A beyond the end `end_m` (world, fixed on B) of a stretch of B's edge, `outward`
// the unit tangent pointing away from the stretch: g = |c − end| − r + outward·(c − end), the
// distance to the end plus how far beyond it. It equals the inside gap d − r at the end when
// d ≥ 0, and exceeds outward·(c − end) > 0 beyond it unless the circle overlaps the end. Both
// terms are primitives, and rows add: the normal row is ġ's (the gradient of a non-unit
// "normal"); the tangential row is that of the circle about the end.
PairKinematics beyond_end(const BodyMotion& a, const Eigen::Vector2d& arm_m, double radius_m,
                          const BodyMotion& b, const Eigen::Vector2d& end_m,
                          const Eigen::Vector2d& outward) {
  PairKinematics k = circle_against_circle(a, arm_m, radius_m, b, end_m - b.origin_m, 0.0);
  const PairKinematics beyond = circle_against_line(a, arm_m, 0.0, b, end_m, outward);
  k.gap_m += beyond.gap_m;
  k.normal = sum(k.normal, beyond.normal);
  return k;
}

// Whether a point is deeper behind a polygon's edge than deepest_touch_m(): past the middle of the
// body, where the edge cannot be touched. (A segment's faces are left to the broad phase: on one
// face's back lies the other face, which a point reaches through the segment's line.)
bool is_behind(const EdgeFeature& feature, const EdgePosition& edge) {
  return feature.depth_m > 0.0 && edge.distance_m < deepest_touch_m(feature);
}

// A point behind a polygon's edge (is_behind). It came there beside the edge or round its end,
// never through it, so its gap reads positive: g = L − d (the edge's length plus how far behind),
// with the outward normal reversed so that the rows are its rates. Only a point moving from there
// towards the edge through the body (d rising past deepest_touch_m()) sees the gap jump to ≤ 0;
// without it, the extent's ends, where a point passes from beside the body to behind the edge,
// would be a jump from > 0 to < 0: a landing located where nothing lands.
PairKinematics behind_edge(const BodyMotion& a, const Eigen::Vector2d& arm_m, const BodyMotion& b,
                           const EdgePosition& edge) {
  PairKinematics k = circle_against_line(a, arm_m, 0.0, b, edge.start_m, -edge.normal);
  k.gap_m += edge.length_m;
  return k;
}

}  // namespace

EdgePosition edge_position(const BodyMotion& other, const EdgeFeature& edge,
                           const Eigen::Vector2d& point_m) {
  const Eigen::Vector2d run = edge.end_m - edge.start_m;  // body frame
  EdgePosition position;
  position.length_m = run.norm();
  position.start_m = other.origin_m + other.rotation * edge.start_m;
  position.tangent = other.rotation * run / position.length_m;
  position.normal = {position.tangent.y(), -position.tangent.x()};
  position.along_m = position.tangent.dot(point_m - position.start_m);
  position.distance_m = position.normal.dot(point_m - position.start_m);
  return position;
}

double deepest_touch_m(const EdgeFeature& edge) {
  constexpr double kSegmentSide = 1e-9;  // relative to its length
  return edge.depth_m > 0.0 ? -0.5 * edge.depth_m
                            : -kSegmentSide * (edge.end_m - edge.start_m).norm();
}

bool within_cone(const BodyMotion& body, const NormalCone& cone, const Eigen::Vector2d& direction,
                 double tolerance_rad) {
  const double widest = std::min(cone.half_angle_rad + tolerance_rad, std::numbers::pi);
  return (body.rotation * cone.axis).dot(direction) >= std::cos(widest) * direction.norm();
}

// A point or circle against a ground-fixed half-plane: g = n·(p − p₀) − r; no end.
PairKinematics pair_kinematics(const ContactGeometry& contact, const BodyMotion& body,
                               const BodyMotion& ground) {
  return circle_against_line(body, body.rotation * contact.centre_m, contact.radius_m, ground,
                             contact.obstacle.point_m, contact.obstacle.normal);
}

// Within the extent [a, b] the vertex p touches the edge's line: g = d, n the edge's normal.
// Beyond it, g is the distance to the extent's nearer end plus the distance beyond it
// (beyond_end): continuous at the end when d ≥ 0, and > 0 beyond it, so that a vertex passing
// beside a face never reads as touching it. Support: the signed distance min(s − a, b − s) to the
// extent's nearer end, ≤ 0 exactly when the vertex is beyond it.
// Held closed, the vertex slides on the edge's line past the extent's ends, g = d: the
// dynamics it constrains stay smooth on the step in which it slides off, whose support crossing
// opens it; the distance beyond, whose rate at the end is −2 u_t along the line, would change the
// constraint's direction at the end by a right angle, and no step could cross it.
PairKinematics pair_kinematics(const VertexEdgeContact& contact, const BodyMotion& body,
                               const BodyMotion& other, bool held) {
  const Eigen::Vector2d arm = body.rotation * contact.vertex_m;
  const EdgePosition edge = edge_position(other, contact.edge, body.origin_m + arm);
  const double s = edge.along_m;
  PairKinematics k;
  if (held) {
    k = circle_against_line(body, arm, 0.0, other, edge.start_m, edge.normal);
  } else if (s < contact.extent_start_m) {
    k = beyond_end(body, arm, 0.0, other, edge.start_m + contact.extent_start_m * edge.tangent,
                   -edge.tangent);
  } else if (s > contact.extent_end_m) {
    k = beyond_end(body, arm, 0.0, other, edge.start_m + contact.extent_end_m * edge.tangent,
                   edge.tangent);
  } else if (is_behind(contact.edge, edge)) {
    k = behind_edge(body, arm, other, edge);
  } else {
    k = circle_against_line(body, arm, 0.0, other, edge.start_m, edge.normal);
  }
  k.support_m = std::min(s - contact.extent_start_m, contact.extent_end_m - s);
  return k;
}

// Along the edge (0 ≤ s ≤ L, s of the disk's centre) the disk touches the edge's line:
// g = d − r. Past the end (s > L) it touches the end corner, which this edge owns:
// g = |c − e₁| − r, n = (c − e₁)/|c − e₁|; the gap and the Jacobian are continuous at s = L (c − e₁
// = d n there), only J̇v gains the corner's curvature. Before the start (s < 0) the corner is the
// previous edge's: g = |c − e₀| − r − s (beyond_end), continuous at s = 0 and > 0 before it.
// Support: min(s, L − s), the signed distance from the flat part's nearer end: it crosses zero
// when the contact point rolls or slides off the flat part, onto the owned corner (s = L) or
// off the start (s = 0), and stays ≤ 0 while the contact is the corner, which may touch: a
// closed corner has no end of its own (the next edge's candidate takes over by its gap). A centre
// behind the edge's line beyond deepest_touch_m() cannot touch it (behind_edge). Held closed
// (as a vertex, above), the disk rolls on the edge's line before its start.
PairKinematics pair_kinematics(const DiskEdgeContact& contact, const BodyMotion& body,
                               const BodyMotion& other, bool held) {
  const Eigen::Vector2d arm = body.rotation * contact.disk.centre_m;
  const double r = contact.disk.radius_m;
  const EdgePosition edge = edge_position(other, contact.edge, body.origin_m + arm);
  const double s = edge.along_m;
  PairKinematics k;
  if (s > edge.length_m) {
    k = circle_against_circle(body, arm, r, other, other.rotation * contact.edge.end_m, 0.0);
  } else if (s < 0.0 && !held) {
    k = beyond_end(body, arm, r, other, edge.start_m, -edge.tangent);
  } else if (is_behind(contact.edge, edge) && !held) {
    k = behind_edge(body, arm, other, edge);
  } else {
    k = circle_against_line(body, arm, r, other, edge.start_m, edge.normal);
  }
  k.support_m = std::min(s, edge.length_m - s);
  return k;
}

// g = |c_A − c_B| − r_A − r_B; no end.
PairKinematics pair_kinematics(const DiskDiskContact& contact, const BodyMotion& body,
                               const BodyMotion& other) {
  return circle_against_circle(body, body.rotation * contact.disk.centre_m, contact.disk.radius_m,
                               other, other.rotation * contact.other_disk.centre_m,
                               contact.other_disk.radius_m);
}

PairKinematics pair_kinematics(const TreeContact& contact, const TreeMotion& motion, bool held) {
  return std::visit(
      [&](const auto& c) {
        const BodyMotion& body = body_motion(motion, c.body);
        const BodyMotion& other = body_motion(motion, contact_other_body(contact));
        if constexpr (std::is_same_v<std::decay_t<decltype(c)>, VertexEdgeContact> ||
                      std::is_same_v<std::decay_t<decltype(c)>, DiskEdgeContact>) {
          return pair_kinematics(c, body, other, held);
        } else {
          return pair_kinematics(c, body, other);
        }
      },
      contact);
}

const BodyMotion& body_motion(const TreeMotion& motion, int body) {
  return body == kGround ? motion.ground : motion.bodies[static_cast<std::size_t>(body)];
}

int contact_body(const TreeContact& contact) {
  return std::visit([](const auto& c) { return c.body; }, contact);
}

int contact_other_body(const TreeContact& contact) {
  return std::visit(
      [](const auto& c) {
        if constexpr (std::is_same_v<std::decay_t<decltype(c)>, ContactGeometry>) {
          return kGround;
        } else {
          return c.other;
        }
      },
      contact);
}

}  // namespace routh
