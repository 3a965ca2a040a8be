#include "models/spatial/rigid_body_kinematics.hpp"

#include <cmath>

namespace routh {

Eigen::Quaterniond stored_quaternion(const Eigen::VectorXd& q, int start) {
  return {q[start], q[start + 1], q[start + 2], q[start + 3]};
}

Eigen::Quaterniond rotation_quaternion(const Eigen::Vector3d& rotation_vector) {
  const double half_angle = 0.5 * rotation_vector.norm();
  // sin(α)/α by its series where the division would lose digits (α² / 6 < 1e-17)
  const double sinc =
      half_angle < 1e-8 ? 1.0 - half_angle * half_angle / 6.0 : std::sin(half_angle) / half_angle;
  const Eigen::Vector3d axis_part = 0.5 * sinc * rotation_vector;
  return {std::cos(half_angle), axis_part.x(), axis_part.y(), axis_part.z()};
}

Eigen::Vector4d quaternion_rate(const Eigen::Quaterniond& q, const Eigen::Vector3d& omega) {
  // (w, u) ⊗ (0, ω) = (−u·ω, w ω + u × ω)
  const Eigen::Vector3d u = q.vec();
  const Eigen::Vector3d vector_rate = 0.5 * (q.w() * omega + u.cross(omega));
  return {-0.5 * u.dot(omega), vector_rate.x(), vector_rate.y(), vector_rate.z()};
}

void read_body_motion(const Eigen::VectorXd& q, const Eigen::VectorXd& v, int coordinate_start,
                      int velocity_start, SpatialBodyMotion& motion) {
  motion.position_m = q.segment<3>(coordinate_start);
  motion.rotation = stored_quaternion(q, coordinate_start + 3).normalized().toRotationMatrix();
  motion.velocity_m_s = v.segment<3>(velocity_start);
  motion.angular_velocity = v.segment<3>(velocity_start + 3);
  motion.world_angular_velocity = motion.rotation * motion.angular_velocity;
}

}  // namespace routh
