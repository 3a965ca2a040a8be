#include "models/planar/articulated_body.hpp"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <cmath>

namespace routh {

namespace {

// M_i of a body at its pose: the inertia about its frame's origin, in (ω, ȯ) coordinates.
Eigen::Matrix3d spatial_inertia(const PlanarBody& body, const BodyMotion& motion) {
  const double m = body.mass_kg;
  const Eigen::Vector2d r_perp = perpendicular(motion.rotation * body.centre_of_mass_m);
  Eigen::Matrix3d inertia;
  inertia(0, 0) = body.inertia_kg_m2 + m * r_perp.squaredNorm();
  inertia.block<2, 1>(1, 0) = m * r_perp;
  inertia.block<1, 2>(0, 1) = m * r_perp.transpose();
  inertia.block<2, 2>(1, 1) = m * Eigen::Matrix2d::Identity();
  return inertia;
}

// P_p += Φ_iᵀ P_i⁺ Φ_i, written out. With P = [p₀₀ pᵀ; p Q] and Φ = [c 0; d⊥ I₂]:
//     Φᵀ P Φ = [c² p₀₀ + 2c p·d⊥ + d⊥ᵀ Q d⊥   wᵀ; w   Q],     w = c p + Q d⊥.
void add_congruence(const ArticulatedBody& body, Eigen::Matrix3d& parent_inertia) {
  const Eigen::Matrix3d& P = body.P;
  const double c = body.carries;
  const Eigen::Vector2d& d = body.arm_perp;
  const Eigen::Vector2d p = P.block<2, 1>(1, 0);
  const Eigen::Matrix2d Q = P.block<2, 2>(1, 1);
  const Eigen::Vector2d w = c * p + Q * d;
  parent_inertia(0, 0) += c * c * P(0, 0) + 2.0 * c * p.dot(d) + d.dot(Q * d);
  parent_inertia.block<2, 1>(1, 0) += w;
  parent_inertia.block<1, 2>(0, 1) += w.transpose();
  parent_inertia.block<2, 2>(1, 1) += Q;
}

// Φ_i a and Φ_iᵀ z, written out: Φ has five nonzeros.
Eigen::Vector3d map_velocity(const ArticulatedBody& body, const Eigen::Vector3d& a) {
  return {body.carries * a[0], a[1] + a[0] * body.arm_perp.x(), a[2] + a[0] * body.arm_perp.y()};
}
// (in scalars: a Vector3d stored and read back as its tail stalls the load on the store)
void add_mapped_force(const ArticulatedBody& body, double z0, double z1, double z2,
                      Eigen::Ref<Eigen::Vector3d> parent_z) {
  parent_z[0] += body.carries * z0 + body.arm_perp.x() * z1 + body.arm_perp.y() * z2;
  parent_z[1] += z1;
  parent_z[2] += z2;
}

// The joint's columns of H_i: (0, R_p a_k) per translation, then (1, 0, 0) for the rotation.
void joint_columns(const PlanarJoint& joint, const BodyMotion& parent, ArticulatedBody& body) {
  const int translations = joint.translation_count();
  body.dofs = joint.dof_count();
  body.H.setZero();
  for (int k = 0; k < translations; ++k) {
    const Eigen::Vector2d axis =
        joint.type == JointType::free ? Eigen::Vector2d::Unit(k) : Eigen::Vector2d(joint.axis);
    body.H.block<2, 1>(1, k) = parent.rotation * axis;
  }
  if (joint.rotates()) body.H(0, translations) = 1.0;
}

// U_i, D_i⁻¹ and P_i⁺ from P_i: a scalar D for one dof, a 3 × 3 one for a free joint.
void close_joint(ArticulatedBody& body) {
  if (body.dofs == 1) {  // the other columns of U and D⁻¹ are never read
    const Eigen::Vector3d U = body.P * body.H.col(0);
    const double D_inverse = 1.0 / body.H.col(0).dot(U);
    body.U.col(0) = U;
    body.D_inverse(0, 0) = D_inverse;
    body.D_inverse_root(0, 0) = std::sqrt(D_inverse);
    body.P -= D_inverse * U * U.transpose();
    return;
  }
  body.U.noalias() = body.P * body.H;
  const Eigen::Matrix3d D = body.H.transpose() * body.U;
  body.D_inverse = D.inverse();
  body.D_inverse_root = Eigen::LLT<Eigen::Matrix3d>(D).matrixL().solve(Eigen::Matrix3d::Identity());
  body.P -= body.U * body.D_inverse * body.U.transpose();
}

}  // namespace

void ArticulatedInverseMass::factor(const std::vector<PlanarJoint>& joints,
                                    const std::vector<PlanarBody>& bodies,
                                    const std::vector<int>& first_coordinate,
                                    const TreeMotion& motion) {
  const std::size_t count = joints.size();
  bodies_.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    const PlanarJoint& joint = joints[i];
    ArticulatedBody& body = bodies_[i];
    const BodyMotion& parent = joint.parent == kGround
                                   ? motion.ground
                                   : motion.bodies[static_cast<std::size_t>(joint.parent)];
    const BodyMotion& child = motion.bodies[i];
    body.parent = joint.parent;
    body.first = first_coordinate[i];
    body.carries =
        !joint.rotates() || joint.angle_reference == AngleReference::relative ? 1.0 : 0.0;
    body.arm_perp = perpendicular(child.origin_m - parent.origin_m);
    joint_columns(joint, parent, body);
    body.P = spatial_inertia(bodies[i], child);
  }
  for (std::size_t i = count; i-- > 0;) {  // leaves first: children come after their parents
    ArticulatedBody& body = bodies_[i];
    close_joint(body);
    if (body.parent != kGround)
      add_congruence(body, bodies_[static_cast<std::size_t>(body.parent)].P);
  }
}

// The columns go through each body together: a column's pass is a chain of dependent
// operations from leaf to root and back, and several side by side keep the processor busy.
// One dof (revolute, prismatic) has scalar u_i and D_i⁻¹: the common case, written out.
void ArticulatedInverseMass::inward_pass(const Eigen::Ref<const Eigen::MatrixXd>& b) const {
  const auto count = static_cast<Eigen::Index>(bodies_.size());
  const Eigen::Index m = b.cols();
  // columns [i m, (i + 1) m) of z_, a_ and u_ are body i's
  z_.setZero(3, count * m);
  a_.resize(3, count * m);
  u_.resize(3, count * m);
  for (Eigen::Index i = count; i-- > 0;) {  // u_i, and the parent's z
    const ArticulatedBody& body = bodies_[static_cast<std::size_t>(i)];
    const bool root = body.parent == kGround;
    for (Eigen::Index j = 0; j < m; ++j) {
      const Eigen::Vector3d z = z_.col(i * m + j);
      Eigen::Vector3d passed;  // z_i + U_i D_i⁻¹ u_i
      if (body.dofs == 1) {
        const double u = b(body.first, j) - body.H.col(0).dot(z);
        u_(0, i * m + j) = u;
        passed = z + (body.D_inverse(0, 0) * u) * body.U.col(0);
      } else {
        const Eigen::Vector3d u = b.block<3, 1>(body.first, j) - body.H.transpose() * z;
        u_.col(i * m + j) = u;
        passed = z + body.U * (body.D_inverse * u);
      }
      if (!root)
        add_mapped_force(body, passed[0], passed[1], passed[2], z_.col(body.parent * m + j));
    }
  }
}

void ArticulatedInverseMass::solve(Eigen::Ref<Eigen::MatrixXd> x) const {
  inward_pass(x);
  const auto count = static_cast<Eigen::Index>(bodies_.size());
  const Eigen::Index m = x.cols();
  for (Eigen::Index i = 0; i < count; ++i) {  // outward: x_i and a_i
    const ArticulatedBody& body = bodies_[static_cast<std::size_t>(i)];
    for (Eigen::Index j = 0; j < m; ++j) {
      const Eigen::Vector3d a_parent = body.parent == kGround
                                           ? Eigen::Vector3d::Zero()
                                           : map_velocity(body, a_.col(body.parent * m + j));
      if (body.dofs == 1) {
        const double rate = body.D_inverse(0, 0) * (u_(0, i * m + j) - body.U.col(0).dot(a_parent));
        x(body.first, j) = rate;
        a_.col(i * m + j) = a_parent + rate * body.H.col(0);
      } else {
        const Eigen::Vector3d rates =
            body.D_inverse * (u_.col(i * m + j) - body.U.transpose() * a_parent);
        x.block<3, 1>(body.first, j) = rates;
        a_.col(i * m + j) = a_parent + body.H * rates;
      }
    }
  }
}

void ArticulatedInverseMass::solve_half(Eigen::Ref<Eigen::MatrixXd> x) const {
  inward_pass(x);
  const Eigen::Index m = x.cols();
  for (std::size_t b = 0; b < bodies_.size(); ++b) {  // G b = D^(−½) u, body by body
    const ArticulatedBody& body = bodies_[b];
    const auto i = static_cast<Eigen::Index>(b);
    for (Eigen::Index j = 0; j < m; ++j) {
      if (body.dofs == 1) {
        x(body.first, j) = body.D_inverse_root(0, 0) * u_(0, i * m + j);
      } else {
        x.block<3, 1>(body.first, j) = body.D_inverse_root * u_.col(i * m + j);
      }
    }
  }
}

}  // namespace routh
