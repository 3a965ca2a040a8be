#pragma once
// Forward kinematics of a planar tree by one outward recursion over the joints (Featherstone,
// "Rigid Body Dynamics Algorithms", 2008, §4.1–4.2, specialised to the plane). For every body it
// gives the pose of its frame, the Jacobians of its angle and origin with respect to v, the
// velocities, and the velocity-product accelerations J̇v (the accelerations when v̇ = 0).
//
// In the plane, a point at offset r [m] (world axes) from a body origin o moves with
//     ṗ = ȯ + ω r⊥,        p̈ = ö + ω̇ r⊥ − ω² r,        r⊥ = (−r_y, r_x),
// and there is no gyroscopic term: angular momentum about the centre of mass is I ω.

#include <Eigen/Core>
#include <cmath>
#include <vector>

#include "models/planar/planar_joint.hpp"

namespace routh {

/// The motion of one body frame at one state (q, v).
struct BodyMotion {
  Eigen::Vector2d origin_m = Eigen::Vector2d::Zero();         ///< o [m]
  double angle_rad = 0.0;                                     ///< φ, counter-clockwise [rad]
  Eigen::Matrix2d rotation = Eigen::Matrix2d::Identity();     ///< R(φ), body to world axes
  Eigen::Matrix<double, 2, Eigen::Dynamic> origin_jacobian;   ///< ∂ȯ/∂v [m], 2 × n
  Eigen::RowVectorXd angle_jacobian;                          ///< ∂ω/∂v [1], 1 × n
  Eigen::Vector2d origin_velocity = Eigen::Vector2d::Zero();  ///< ȯ [m/s]
  double angular_velocity = 0.0;                              ///< ω [rad/s]
  Eigen::Vector2d origin_bias_acceleration = Eigen::Vector2d::Zero();  ///< J̇_o v [m/s²]
  double angular_bias_acceleration = 0.0;                              ///< J̇_φ v [rad/s²]
};

/// A point fixed on a body: position, Jacobian, velocity and J̇v.
struct PointMotion {
  Eigen::Vector2d position_m;
  Eigen::Matrix<double, 2, Eigen::Dynamic> jacobian;  ///< ∂ṗ/∂v, 2 × n
  Eigen::Vector2d velocity_m_s;
  Eigen::Vector2d bias_acceleration_m_s2;  ///< J̇_p v
};

/// r⊥ = r turned 90° counter-clockwise: ω × r in the plane is ω r⊥.
inline Eigen::Vector2d perpendicular(const Eigen::Vector2d& r) { return {-r.y(), r.x()}; }

/// Rotation by φ [rad] counter-clockwise.
inline Eigen::Matrix2d rotation(double angle_rad) {
  const double c = std::cos(angle_rad), s = std::sin(angle_rad);
  return (Eigen::Matrix2d() << c, -s, s, c).finished();
}

/// Velocity [m/s] of `body`'s material point at arm r [m] (world axes) from its origin: ȯ + ω r⊥.
inline Eigen::Vector2d material_velocity(const BodyMotion& body, const Eigen::Vector2d& r_m) {
  return body.origin_velocity + body.angular_velocity * perpendicular(r_m);
}

/// J̇v of that material point [m/s²], its acceleration at v̇ = 0: ö + ω̇ r⊥ − ω² r.
inline Eigen::Vector2d material_bias_acceleration(const BodyMotion& body,
                                                  const Eigen::Vector2d& r_m) {
  const double omega = body.angular_velocity;
  return body.origin_bias_acceleration + body.angular_bias_acceleration * perpendicular(r_m) -
         omega * omega * r_m;
}

/// The motion of every body of a tree at one state, with the ground's (at rest): kept from one
/// state to the next, so that its Jacobians are sized once and the recursion does not allocate.
struct TreeMotion {
  BodyMotion ground;
  std::vector<BodyMotion> bodies;  ///< one per joint; joint i carries body i
};

/// Where a tree's joints sit among the velocities.
struct TreeColumns {
  std::vector<int> first_coordinate;  ///< per joint, the index in q (and v) of its first dof
  /// Per body, the velocities that move it, ascending: its joint's and its ancestors'. Its
  /// Jacobians are zero in the others, and the recursion writes only these: a body costs its
  /// depth in the tree, not the model's size (a free body its three).
  std::vector<std::vector<int>> body_velocities;
};

/// Fills `motion` at state (q, v); joints come parents first. With `bodies`, only the bodies i
/// with bodies[i] (which must hold every such body's parent too); the others' motion is left as
/// it was.
void forward_kinematics(const std::vector<PlanarJoint>& joints, const TreeColumns& columns,
                        const Eigen::VectorXd& q, const Eigen::VectorXd& v, TreeMotion& motion,
                        const std::vector<bool>* bodies = nullptr);

/// J_o + r⊥ J_φ into `jacobian` (2 × n): the Jacobian of the point at r [m] (world axes) from
/// `body`'s origin.
void point_jacobian(const BodyMotion& body, const Eigen::Vector2d& r_m,
                    Eigen::Matrix<double, 2, Eigen::Dynamic>& jacobian);
/// The same in the columns `velocities` only (those that move `body`; `jacobian` already 2 × n
/// and zero in the others).
void point_jacobian(const BodyMotion& body, const Eigen::Vector2d& r_m,
                    const std::vector<int>& velocities,
                    Eigen::Matrix<double, 2, Eigen::Dynamic>& jacobian);

/// The motion of the point at `offset_m` in the frame of a body moving as `body`, into `point`
/// (whose Jacobian keeps its storage from call to call).
void point_motion(const BodyMotion& body, const Eigen::Vector2d& offset_m, PointMotion& point);

}  // namespace routh
