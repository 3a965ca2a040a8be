#include "sim/simulation/rocking_slenderness.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>

namespace routh {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The up axis a and the lean l in the body frame, upright pose, of a body tilted at q; l = 0
// where it stands exactly upright.
struct Lean {
  Eigen::Vector3d up, direction;
};

Lean lean_of(const UprightFrame& frame, const Eigen::VectorXd& q) {
  if (!frame.spatial()) {
    // the world's up ŷ and −x̂ (the lean of θ − θ₀ > 0) in a frame turned by θ₀
    const double c = std::cos(frame.reference_rad), s = std::sin(frame.reference_rad);
    const double tilt = q[frame.coordinate] - frame.reference_rad;
    const Eigen::Vector3d left(-c, s, 0.0);
    return {{s, c, 0.0},
            tilt > 0.0   ? left
            : tilt < 0.0 ? Eigen::Vector3d(-left)
                         : Eigen::Vector3d::Zero()};
  }
  const Eigen::Index i = frame.coordinate;
  const Eigen::Quaterniond rotation =
      Eigen::Quaterniond(q[i], q[i + 1], q[i + 2], q[i + 3]).normalized();
  const Eigen::Vector3d up_world = rotation * frame.up_axis;
  Eigen::Vector3d lean = rotation.conjugate() * Eigen::Vector3d(up_world.x(), up_world.y(), 0.0);
  lean -= lean.dot(frame.up_axis) * frame.up_axis;
  const double norm = lean.norm();
  return {frame.up_axis, norm > 0.0 ? Eigen::Vector3d(lean / norm) : Eigen::Vector3d::Zero()};
}

}  // namespace

double slenderness_rad(const StandingBase& base, const Eigen::Vector3d& up,
                       const Eigen::Vector3d& lean) {
  if (base.corners_m.empty()) return kNaN;
  double reach_m = -std::numeric_limits<double>::infinity();
  double height_m = -std::numeric_limits<double>::infinity();
  for (const Eigen::Vector3d& corner : base.corners_m) {
    reach_m = std::max(reach_m, corner.dot(lean));
    height_m = std::max(height_m, -corner.dot(up));
  }
  reach_m += base.rounding_m;
  if (!(reach_m > 0.0 && height_m > 0.0)) return kNaN;
  return std::atan2(reach_m, height_m);
}

double tilt_over_slenderness(const UprightFrame& frame, const StandingBase& base,
                             const Eigen::VectorXd& q) {
  const Lean lean = lean_of(frame, q);
  if (lean.direction.isZero()) return base.corners_m.empty() ? kNaN : 0.0;
  return tilt_from_upright(frame, q) / slenderness_rad(base, lean.up, lean.direction);
}

}  // namespace routh
