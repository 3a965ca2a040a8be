#include "models/spatial/spatial_contact_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <variant>

namespace routh {

namespace {

// The contact's directions (columns n, t₁, t₂) and their rates along the motion.
struct ContactFrame {
  Eigen::Matrix3d directions;
  Eigen::Matrix3d rates;
};

ContactFrame contact_frame(const Eigen::Vector3d& normal, const Eigen::Vector3d& normal_rate) {
  Eigen::Index axis = 0;
  normal.cwiseAbs().minCoeff(&axis);
  const Eigen::Vector3d e = Eigen::Vector3d::Unit(axis);
  const Eigen::Vector3d w = normal.cross(e);
  const double length = w.norm();  // ≥ √(2/3): e is n's smallest component
  const Eigen::Vector3d t2 = w / length;
  const Eigen::Vector3d w_rate = normal_rate.cross(e);
  const Eigen::Vector3d t2_rate = (w_rate - t2 * t2.dot(w_rate)) / length;
  ContactFrame frame;
  frame.directions.col(0) = normal;
  frame.directions.col(1) = t2.cross(normal);
  frame.directions.col(2) = t2;
  frame.rates.col(0) = normal_rate;
  frame.rates.col(1) = t2_rate.cross(normal) + t2.cross(normal_rate);
  frame.rates.col(2) = t2_rate;
  return frame;
}

// A contact point on one side: its offset from the body's centre of mass and the offset's rate
// (world axes), ȧ in the header comment.
struct ContactPoint {
  Eigen::Vector3d offset_m = Eigen::Vector3d::Zero();
  Eigen::Vector3d offset_rate_m_s = Eigen::Vector3d::Zero();
};

ContactPoint material_point(const SpatialBodyMotion& body, const Eigen::Vector3d& point_m) {
  const Eigen::Vector3d offset = body.rotation * point_m;
  return {offset, body.world_angular_velocity.cross(offset)};
}

// A rim end: its point and its rate over the body (body frame), and its support.
struct RimEnd {
  Eigen::Vector3d point_m;
  Eigen::Vector3d rate_m_s = Eigen::Vector3d::Zero();
  double support_m = std::numeric_limits<double>::infinity();
};

// The rim's tilt direction û and its rate, e(ψ) and 0 while the rim is flat, and the depth ρ |μ|
// of its deepest point below its centre's level.
struct TiltLine {
  bool flat = true;
  Eigen::Vector2d direction;
  Eigen::Vector2d rate = Eigen::Vector2d::Zero();
  double depth_m = 0.0;
};

TiltLine tilt_line(const SpatialContact& rim, const SpatialBodyMotion& body,
                   const Eigen::Vector3d& normal, const Eigen::Vector2d& base) {
  const Eigen::Vector3d m = body.rotation.transpose() * normal;
  const double tilt = m.head<2>().norm();
  TiltLine line{.direction = base};
  line.depth_m = rim.radius_m * tilt;
  if (line.depth_m < kFlatRim_m) return line;  // flat: the header comment
  line.flat = false;
  line.direction = m.head<2>() / tilt;
  const Eigen::Vector2d mu_rate = (-body.angular_velocity.cross(m)).head<2>();
  line.rate = (mu_rate - line.direction * line.direction.dot(mu_rate)) / tilt;
  return line;
}

// The base's axes: e(ψ) and e(ψ + 90°).
Eigen::Vector2d across(const Eigen::Vector2d& base) { return {-base.y(), base.x()}; }

// +1 if w points to the base's positive side along e(ψ) (along e(ψ + 90°) on a tie), else −1:
// the naming convention.
double positive_side(const Eigen::Vector2d& w, const Eigen::Vector2d& base) {
  const double along = w.dot(base);
  return (along > 0.0 || (along == 0.0 && w.dot(across(base)) > 0.0)) ? 1.0 : -1.0;
}

constexpr double kSmallestNormal = std::numeric_limits<double>::min();

// A tilt line's end (the header comment).
RimEnd tilt_line_end(const SpatialContact& rim, const SpatialBodyMotion& body,
                     const Eigen::Vector3d& normal, const Eigen::Vector2d& base, bool held) {
  const TiltLine line = tilt_line(rim, body, normal, base);
  const double sigma = rim.rim_side;
  RimEnd end{rim.point_m};
  // σ ρ (−û · e(ψ)), its sign the convention's on a tie (û · e(ψ) = 0) too: an end whose support
  // reads 0 there while the convention still names it the deepest point is opened and closed again
  // at the same instant, and its hand-over is lost (Euler's disk, at t = 0.643 s)
  const Eigen::Vector2d deepest = -line.direction;
  end.support_m = line.flat ? rim.radius_m
                            : sigma * positive_side(deepest, base) * rim.radius_m *
                                  std::max(std::abs(deepest.dot(base)), kSmallestNormal);
  // held while tilted: the deepest point, past the end of its name's half-rim; else its name's
  const double along = (held && !line.flat) ? -1.0 : sigma * positive_side(line.direction, base);
  end.point_m.head<2>() += rim.radius_m * along * line.direction;
  end.rate_m_s.head<2>() = rim.radius_m * along * line.rate;
  return end;
}

// A fixed rim point (the header comment): its material point, held or within the flat band; open
// beyond the band, off the base it belongs to, the rim's highest point, which lies 2ρ |μ| above
// the deepest. Its support: how far the rim may still tilt before it leaves the band.
RimEnd fixed_rim_point(const SpatialContact& rim, const SpatialBodyMotion& body,
                       const Eigen::Vector3d& normal, const Eigen::Vector2d& base, bool held) {
  const TiltLine line = tilt_line(rim, body, normal, base);
  RimEnd end{rim.point_m};
  end.support_m = kFlatRim_m - line.depth_m;
  if (held || line.flat) {
    end.point_m.head<2>() += flat_base_point(rim, base);
    return end;
  }
  end.point_m.head<2>() = rim.radius_m * line.direction;
  end.rate_m_s.head<2>() = rim.radius_m * line.rate;
  return end;
}

// Both sides of a contact: the normal and its rate, the point on body a and the point on b (a
// plane's point is fixed, offset from its reference point).
struct ContactPair {
  Eigen::Vector3d normal;
  Eigen::Vector3d normal_rate = Eigen::Vector3d::Zero();
  ContactPoint body;
  ContactPoint other;
  Eigen::Vector3d other_origin_m;  ///< x_b, or the plane's point
  double support_m = std::numeric_limits<double>::infinity();
};

ContactPair sphere_pair(const SpatialContact& contact, const SpatialBodyMotion& a,
                        const SpatialBodyMotion& b) {
  const ContactPoint centre_a = material_point(a, contact.point_m);
  const ContactPoint centre_b = material_point(b, contact.other_point_m);
  const Eigen::Vector3d apart = a.position_m + centre_a.offset_m - b.position_m - centre_b.offset_m;
  const double distance = apart.norm();
  ContactPair pair;
  pair.other_origin_m = b.position_m;
  // coincident centres have no line: any normal keeps the rows finite (the overlap check ends
  // such a run long before)
  pair.normal = distance > 0.0 ? Eigen::Vector3d(apart / distance) : Eigen::Vector3d::UnitZ();
  if (distance > 0.0) {
    const Eigen::Vector3d closing =
        a.velocity_m_s + centre_a.offset_rate_m_s - b.velocity_m_s - centre_b.offset_rate_m_s;
    pair.normal_rate = (closing - pair.normal * pair.normal.dot(closing)) / distance;
  }
  pair.body.offset_m = centre_a.offset_m - contact.radius_m * pair.normal;
  pair.body.offset_rate_m_s = centre_a.offset_rate_m_s - contact.radius_m * pair.normal_rate;
  pair.other.offset_m = centre_b.offset_m + contact.other_radius_m * pair.normal;
  pair.other.offset_rate_m_s = centre_b.offset_rate_m_s + contact.other_radius_m * pair.normal_rate;
  return pair;
}

ContactPair plane_pair(const SpatialContact& contact, const SpatialBodyMotion& body,
                       const SpatialPlane& plane, const Eigen::Vector2d& base, bool held) {
  ContactPair pair;
  pair.normal = plane.normal;
  pair.other_origin_m = plane.point_m;
  switch (contact.feature) {
    case SpatialFeature::sphere:
      pair.body = material_point(body, contact.point_m);
      pair.body.offset_m -= contact.radius_m * plane.normal;
      break;
    case SpatialFeature::tilt_line_end:
    case SpatialFeature::fixed_rim_point: {
      const RimEnd end = contact.feature == SpatialFeature::tilt_line_end
                             ? tilt_line_end(contact, body, plane.normal, base, held)
                             : fixed_rim_point(contact, body, plane.normal, base, held);
      pair.body = material_point(body, end.point_m);
      pair.body.offset_rate_m_s += body.rotation * end.rate_m_s;
      pair.support_m = end.support_m;
      break;
    }
    case SpatialFeature::corner:
    case SpatialFeature::sphere_pair: pair.body = material_point(body, contact.point_m); break;
  }
  return pair;
}

ContactPair contact_pair(const SpatialContact& contact, const SpatialBodyMotion& body,
                         const SpatialBodyMotion* other, const SpatialPlane* plane,
                         const Eigen::Vector2d& base, bool held) {
  return other ? sphere_pair(contact, body, *other) : plane_pair(contact, body, *plane, base, held);
}

double gap_of(const ContactPair& pair, const SpatialBodyMotion& body) {
  return pair.normal.dot(body.position_m + pair.body.offset_m - pair.other_origin_m -
                         pair.other.offset_m);
}

std::string corner_name(int corner) {
  std::string name;
  for (const char* axis : {"x", "y", "z"}) {
    name += axis;
    name += (corner & 1) ? '+' : '-';
    corner >>= 1;
  }
  return name;
}

}  // namespace

std::vector<SpatialContact> spatial_contacts(const SpatialBodiesDescription& description,
                                             std::vector<std::string>& names) {
  std::vector<SpatialContact> contacts;
  names.clear();
  int rims = 0;
  const auto add = [&](SpatialContact contact, const std::string& name) {
    contacts.push_back(contact);
    names.push_back(name);
  };
  for (std::size_t b = 0; b < description.bodies.size(); ++b) {
    const SpatialBody& body = description.bodies[b];
    for (std::size_t p = 0; p < description.planes.size(); ++p) {
      const std::string& plane = description.planes[p].name;
      SpatialContact contact;
      contact.body = static_cast<int>(b);
      contact.plane = static_cast<int>(p);
      if (const auto* sphere = std::get_if<SphereShape>(&body.shape)) {
        contact.feature = SpatialFeature::sphere;
        contact.point_m = sphere->centre_m;
        contact.radius_m = sphere->radius_m;
        add(contact, body.name + "/" + plane);
      } else if (const auto* box = std::get_if<BoxShape>(&body.shape)) {
        contact.feature = SpatialFeature::corner;
        for (int corner = 0; corner < 8; ++corner) {
          const Eigen::Vector3d signs((corner & 1) ? 1.0 : -1.0, (corner & 2) ? 1.0 : -1.0,
                                      (corner & 4) ? 1.0 : -1.0);
          contact.point_m = 0.5 * signs.cwiseProduct(box->size_m);
          add(contact, body.name + "." + corner_name(corner) + "/" + plane);
        }
      } else {
        const auto& cylinder = std::get<CylinderShape>(body.shape);
        contact.radius_m = cylinder.radius_m;
        for (const char* rim : {"top_rim", "bottom_rim"}) {
          contact.rim = rims++;
          contact.point_m =
              Eigen::Vector3d(0.0, 0.0, (rim[0] == 't' ? 0.5 : -0.5) * cylinder.height_m);
          for (const char* end : {"x+", "x-", "y+", "y-"}) {
            contact.feature =
                end[0] == 'x' ? SpatialFeature::tilt_line_end : SpatialFeature::fixed_rim_point;
            contact.rim_side = end[1] == '+' ? 1.0 : -1.0;
            add(contact, body.name + "." + rim + "." + end + "/" + plane);
          }
        }
      }
    }
  }
  if (!description.collide_bodies) return contacts;
  for (std::size_t a = 0; a < description.bodies.size(); ++a) {
    const auto* sphere = std::get_if<SphereShape>(&description.bodies[a].shape);
    if (!sphere) continue;
    for (std::size_t b = a + 1; b < description.bodies.size(); ++b) {
      const auto* other = std::get_if<SphereShape>(&description.bodies[b].shape);
      if (!other) continue;
      SpatialContact contact;
      contact.feature = SpatialFeature::sphere_pair;
      contact.body = static_cast<int>(a);
      contact.other = static_cast<int>(b);
      contact.point_m = sphere->centre_m;
      contact.radius_m = sphere->radius_m;
      contact.other_point_m = other->centre_m;
      contact.other_radius_m = other->radius_m;
      add(contact, description.bodies[a].name + "/" + description.bodies[b].name);
    }
  }
  return contacts;
}

double spatial_contact_gap(const SpatialContact& contact, const SpatialBodyMotion& body,
                           const SpatialBodyMotion* other, const SpatialPlane* plane,
                           const Eigen::Vector2d& base) {
  return gap_of(contact_pair(contact, body, other, plane, base, /*held=*/false), body);
}

SpatialContactRows spatial_contact_rows(const SpatialContact& contact,
                                        const SpatialBodyMotion& body,
                                        const SpatialBodyMotion* other, const SpatialPlane* plane,
                                        const Eigen::Vector2d& base, bool held) {
  const ContactPair pair = contact_pair(contact, body, other, plane, base, held);
  const ContactFrame frame = contact_frame(pair.normal, pair.normal_rate);
  const Eigen::Vector3d zero = Eigen::Vector3d::Zero();
  const Eigen::Vector3d& other_velocity = other ? other->velocity_m_s : zero;
  const Eigen::Vector3d& other_omega = other ? other->world_angular_velocity : zero;
  const Eigen::Vector3d relative_velocity = body.velocity_m_s +
                                            body.world_angular_velocity.cross(pair.body.offset_m) -
                                            other_velocity - other_omega.cross(pair.other.offset_m);
  const Eigen::Vector3d offset_acceleration =
      body.world_angular_velocity.cross(pair.body.offset_rate_m_s) -
      other_omega.cross(pair.other.offset_rate_m_s);
  SpatialContactRows rows;
  rows.gap_m = gap_of(pair, body);
  rows.support_m = pair.support_m;
  rows.other_rows.setZero();
  for (int i = 0; i < 3; ++i) {
    const Eigen::Vector3d d = frame.directions.col(i);
    rows.body_rows.row(i) << d.transpose(),
        (body.rotation.transpose() * pair.body.offset_m.cross(d)).transpose();
    if (other) {
      rows.other_rows.row(i) << -d.transpose(),
          -(other->rotation.transpose() * pair.other.offset_m.cross(d)).transpose();
    }
    rows.jacobian_dot_v[i] = frame.rates.col(i).dot(relative_velocity) + d.dot(offset_acceleration);
  }
  return rows;
}

bool rim_lies_flat(const SpatialContact& end, const SpatialBodyMotion& body,
                   const SpatialPlane& plane) {
  return tilt_line(end, body, plane.normal, Eigen::Vector2d::UnitX()).flat;
}

Eigen::Vector2d flat_base_point(const SpatialContact& end, const Eigen::Vector2d& base) {
  const Eigen::Vector2d axis = end.feature == SpatialFeature::tilt_line_end ? base : across(base);
  return end.rim_side * end.radius_m * axis;
}

}  // namespace routh
