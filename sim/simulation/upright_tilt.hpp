#pragma once
// How far a free body has turned from standing upright: the figure its overturn witness watches
// and the run's max_abs_theta reports (OverturnWatch, outcome_tracking.hpp).
//   planar   |θ − θ₀|, θ the body's angle and θ₀ its upright angle;
//   spatial  φ = acos((R a) · ẑ) ∈ [0, π], the angle between the world's up ẑ (against gravity)
//            and the body's up axis a (body frame) turned by its orientation R = R(q).
// Its rate, whose sign changes mark its extremes within a step:
//   planar   θ̇ (d|θ − θ₀|/dt = ±θ̇);
//   spatial  ċ with c = (R a) · ẑ = cos φ: ċ = (R (ω × a)) · ẑ for ω in the body frame, and
//            φ̇ = −ċ / sin φ, so φ has an extreme where ċ changes sign.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>

namespace routh {

/// What a body's turn from upright is measured on, and where it has overturned.
struct UprightFrame {
  int coordinate = 0;  ///< planar: θ's index in q; spatial: its quaternion's (w first)
  int rate = 0;        ///< planar: θ̇'s index in v; spatial: the first of ω's (body frame)
  double reference_rad = 0.0;  ///< planar: θ₀, the angle it stands upright at [rad]
  /// spatial: the unit body axis that points up while it stands upright; zero for a planar body
  Eigen::Vector3d up_axis = Eigen::Vector3d::Zero();
  /// The tilt at which it has overturned [rad]: a block or box lies on its side at π/2; a
  /// cylinder standing on its base falls once its centre of mass has passed over the rim point
  /// it rocks on, at atan(2r/h).
  double overturn_rad = 0.5 * std::numbers::pi;

  bool spatial() const { return up_axis.squaredNorm() > 0.0; }
};

/// R (q) a for a spatial body: its up axis in the world frame.
inline Eigen::Vector3d world_up_axis(const UprightFrame& frame, const Eigen::VectorXd& q) {
  const Eigen::Index i = frame.coordinate;
  const Eigen::Quaterniond rotation =
      Eigen::Quaterniond(q[i], q[i + 1], q[i + 2], q[i + 3]).normalized();
  return rotation * frame.up_axis;
}

/// The body's tilt from upright at q [rad].
inline double tilt_from_upright(const UprightFrame& frame, const Eigen::VectorXd& q) {
  if (!frame.spatial()) return std::abs(q[frame.coordinate] - frame.reference_rad);
  return std::acos(std::clamp(world_up_axis(frame, q).z(), -1.0, 1.0));
}

/// The rate whose sign changes mark the tilt's extremes (the header comment) at (q, v).
inline double tilt_turning_rate(const UprightFrame& frame, const Eigen::VectorXd& q,
                                const Eigen::VectorXd& v) {
  if (!frame.spatial()) return v[frame.rate];
  const Eigen::Index i = frame.coordinate;
  const Eigen::Quaterniond rotation =
      Eigen::Quaterniond(q[i], q[i + 1], q[i + 2], q[i + 3]).normalized();
  const Eigen::Vector3d omega = v.segment<3>(frame.rate);
  return (rotation * omega.cross(frame.up_axis)).z();
}

}  // namespace routh
