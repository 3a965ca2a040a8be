#include "models/planar/planar_kinematics.hpp"

#include <cmath>

namespace routh {

namespace {

// The ground frame: at rest at the origin, its Jacobians zero rows of length n.
void set_ground_motion(Eigen::Index n, BodyMotion& ground) {
  ground = BodyMotion{};
  ground.origin_jacobian.setZero(2, n);
  ground.angle_jacobian.setZero(n);
}

// Translation axis k of a joint, in its parent's frame.
Eigen::Vector2d joint_axis(const PlanarJoint& joint, int k) {
  return joint.type == JointType::free ? Eigen::Vector2d::Unit(k) : Eigen::Vector2d(joint.axis);
}

// The translation part of a joint: the child origin is o_P + d with d = R(φ_P) (location + Σ a_k
// q_k), a_k the translation axes (parent frame). Differentiating twice with v̇ = 0:
//     ḋ = ω_P d⊥ + R ℓ̇,     d̈ = ω̇_P d⊥ − ω_P² d + 2 ω_P (R ℓ̇)⊥.
void translate(const PlanarJoint& joint, int first, const std::vector<int>& parent_velocities,
               const Eigen::VectorXd& q, const Eigen::VectorXd& v, const BodyMotion& parent,
               BodyMotion& child) {
  const Eigen::Matrix2d& R = parent.rotation;
  Eigen::Vector2d local = joint.location_m;
  Eigen::Vector2d sliding_velocity = Eigen::Vector2d::Zero();  // R ℓ̇ [m/s]
  for (int k = 0; k < joint.translation_count(); ++k) {
    local += joint_axis(joint, k) * q[first + k];
    sliding_velocity += R * joint_axis(joint, k) * v[first + k];
  }
  const Eigen::Vector2d d = R * local;
  const double omega = parent.angular_velocity;
  child.origin_m = parent.origin_m + d;
  // ∂ȯ/∂v = J_o,P + d⊥ J_φ,P, plus R a_k in the joint's own columns (where the parent's are 0)
  point_jacobian(parent, d, parent_velocities, child.origin_jacobian);
  for (int k = 0; k < joint.translation_count(); ++k) {
    child.origin_jacobian.col(first + k) = R * joint_axis(joint, k);
  }
  child.origin_velocity = parent.origin_velocity + omega * perpendicular(d) + sliding_velocity;
  child.origin_bias_acceleration =
      parent.origin_bias_acceleration + parent.angular_bias_acceleration * perpendicular(d) -
      omega * omega * d + 2.0 * omega * perpendicular(sliding_velocity);
}

// The rotation part: φ = φ_P + θ (relative) or θ (absolute); with v̇ = 0, ω̇ = ω̇_P or 0.
// A prismatic joint always carries the parent's angle.
void rotate(const PlanarJoint& joint, int first, const std::vector<int>& parent_velocities,
            const Eigen::VectorXd& q, const Eigen::VectorXd& v, const BodyMotion& parent,
            BodyMotion& child) {
  const bool carries = !joint.rotates() || joint.angle_reference == AngleReference::relative;
  child.angle_rad = carries ? parent.angle_rad : 0.0;
  child.angular_velocity = carries ? parent.angular_velocity : 0.0;
  child.angular_bias_acceleration = carries ? parent.angular_bias_acceleration : 0.0;
  // the columns the parent's angle moves in; a joint that does not carry it keeps them zero
  if (carries) {
    for (const int j : parent_velocities) child.angle_jacobian[j] = parent.angle_jacobian[j];
  }
  if (!joint.rotates()) {
    child.rotation = parent.rotation;
    return;
  }
  const int i = first + joint.translation_count();
  child.angle_rad += q[i];
  child.angular_velocity += v[i];
  child.angle_jacobian[i] = 1.0;  // the parent's is zero in the joint's own column
  child.rotation = rotation(child.angle_rad);
}

}  // namespace

void forward_kinematics(const std::vector<PlanarJoint>& joints, const TreeColumns& columns,
                        const Eigen::VectorXd& q, const Eigen::VectorXd& v, TreeMotion& motion,
                        const std::vector<bool>* wanted) {
  if (motion.ground.angle_jacobian.size() != q.size()) set_ground_motion(q.size(), motion.ground);
  std::vector<BodyMotion>& bodies = motion.bodies;
  if (bodies.size() != joints.size() || bodies.empty() ||
      bodies.front().angle_jacobian.size() != q.size()) {
    bodies.assign(joints.size(),
                  motion.ground);  // zero Jacobians, of which each body writes its columns
  }
  static const std::vector<int> kNone;
  for (std::size_t i = 0; i < joints.size(); ++i) {
    if (wanted && !(*wanted)[i]) continue;
    const PlanarJoint& joint = joints[i];
    const bool on_ground = joint.parent == kGround;
    const auto parent_index = static_cast<std::size_t>(joint.parent);
    const BodyMotion& parent = on_ground ? motion.ground : bodies[parent_index];
    const std::vector<int>& parent_velocities =
        on_ground ? kNone : columns.body_velocities[parent_index];
    translate(joint, columns.first_coordinate[i], parent_velocities, q, v, parent, bodies[i]);
    rotate(joint, columns.first_coordinate[i], parent_velocities, q, v, parent, bodies[i]);
  }
}

void point_jacobian(const BodyMotion& body, const Eigen::Vector2d& r_m,
                    Eigen::Matrix<double, 2, Eigen::Dynamic>& jacobian) {
  // a plain loop over the columns: at a few columns Eigen's expression set-up costs more
  const Eigen::Vector2d r_perp = perpendicular(r_m);
  const Eigen::Index n = body.angle_jacobian.size();
  jacobian.resize(2, n);
  for (Eigen::Index j = 0; j < n; ++j) {
    jacobian.col(j) = body.origin_jacobian.col(j) + r_perp * body.angle_jacobian[j];
  }
}

void point_jacobian(const BodyMotion& body, const Eigen::Vector2d& r_m,
                    const std::vector<int>& velocities,
                    Eigen::Matrix<double, 2, Eigen::Dynamic>& jacobian) {
  const Eigen::Vector2d r_perp = perpendicular(r_m);
  for (const int j : velocities) {
    jacobian.col(j) = body.origin_jacobian.col(j) + r_perp * body.angle_jacobian[j];
  }
}

void point_motion(const BodyMotion& body, const Eigen::Vector2d& offset_m, PointMotion& point) {
  const Eigen::Vector2d r = body.rotation * offset_m;
  point.position_m = body.origin_m + r;
  point_jacobian(body, r, point.jacobian);
  point.velocity_m_s = material_velocity(body, r);
  point.bias_acceleration_m_s2 = material_bias_acceleration(body, r);
}

}  // namespace routh
