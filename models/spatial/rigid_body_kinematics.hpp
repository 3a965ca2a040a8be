#pragma once
// Kinematics of one free rigid body in 3D whose orientation is a unit quaternion q and whose
// angular velocity ω is given in the body frame (models/spatial/spatial_bodies.hpp has the state
// layout). The rotation R turns body-frame vectors into world-frame ones; ω_w = R ω.
//
//     q̇ = ½ q ⊗ (0, ω)                    (Hamilton product; the body-frame form of the
//                                           kinematic equation, Shuster, "A survey of attitude
//                                           representations", 1993, eq. 306)
//     q(t) = q₀ ⊗ exp(ω t / 2)            its exact solution for a constant ω: the retraction
//     p = x + R r,  ṗ = v + ω_w × R r,    a point fixed at r on the body, and
//     p̈ = v̇ + R (ω̇ × r) + ω_w × (ω_w × R r)   its acceleration.
// With ω held constant in the body frame, ω_w is constant too: d(Rω)/dt = R (ω × ω) = 0. The
// velocity-product terms J̇v of the contacts use this.

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace routh {

/// The pose and velocities of one body at one state (q, v).
struct SpatialBodyMotion {
  Eigen::Vector3d position_m = Eigen::Vector3d::Zero();        ///< x, centre of mass [m]
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();      ///< R, body to world, from q/|q|
  Eigen::Vector3d velocity_m_s = Eigen::Vector3d::Zero();      ///< v [m/s], world frame
  Eigen::Vector3d angular_velocity = Eigen::Vector3d::Zero();  ///< ω [rad/s], body frame
  Eigen::Vector3d world_angular_velocity = Eigen::Vector3d::Zero();  ///< ω_w = R ω [rad/s]
};

/// The quaternion (qw, qx, qy, qz) stored at q[start …start + 3], as stored (not normalized).
Eigen::Quaterniond stored_quaternion(const Eigen::VectorXd& q, int start);

/// The unit quaternion exp(θ/2) of the rotation by the rotation vector θ [rad] (angle |θ| about
/// θ/|θ|), exact for every |θ| and smooth through 0.
Eigen::Quaterniond rotation_quaternion(const Eigen::Vector3d& rotation_vector);

/// q̇ = ½ q ⊗ (0, ω) for ω in the body frame, as (ẇ, ẋ, ẏ, ż).
Eigen::Vector4d quaternion_rate(const Eigen::Quaterniond& q, const Eigen::Vector3d& omega);

/// The motion of the body whose coordinates start at q[coordinate_start] and velocities at
/// v[velocity_start].
void read_body_motion(const Eigen::VectorXd& q, const Eigen::VectorXd& v, int coordinate_start,
                      int velocity_start, SpatialBodyMotion& motion);

}  // namespace routh
