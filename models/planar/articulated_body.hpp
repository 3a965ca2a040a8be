#pragma once
// M(q)⁻¹ of a planar tree without forming M: the articulated-body factorization (Featherstone,
// "Rigid Body Dynamics Algorithms", 2008, §7.2–7.3; Jain, "Robot and Multibody Dynamics", 2011,
// ch. 7, for the general velocity recursion used here). Costs O(B) per factorization and O(n) per
// solve, where forming M costs O(Σ depth²) and factoring it O(n³): a chain of n links whose
// every evaluation applies M⁻¹ to f and to a few contact directions pays n, not n³.
//
// Each body's velocity is the planar spatial vector V = (ω, ȯ): its angular velocity and the
// velocity of its frame's origin o, world axes. A joint gives the recursion
//     V_i = Φ_i V_p + H_i v_i,     Φ_i = [ c  0 ; d⊥  I₂ ],     d = o_i − o_p,
// with c = 1 when the child carries its parent's angle (relative angles, prismatic joints) and 0
// for an absolute angle; H_i's columns are (0, R_p a_k) per translation axis a_k and (1, 0, 0)
// for the rotation (planar_joint.hpp). The body's kinetic energy is ½ Vᵀ M_i V with
//     M_i = [ I + m|r|²  m r⊥ᵀ ; m r⊥  m I₂ ],     r = R_i c the centre of mass from o_i,
// so that M = Σ J_iᵀ M_i J_i (J_i = ∂V_i/∂v), the M of planar_tree.hpp. Articulated inertias,
// leaves first (Featherstone eqs. 7.37–7.40 with X replaced by Φ):
//     P_i = M_i + Σ_children Φ_cᵀ P_c⁺ Φ_c,   U_i = P_i H_i,   D_i = H_iᵀ U_i,
//     P_i⁺ = P_i − U_i D_i⁻¹ U_iᵀ.
// Solving M x = b then takes one inward and one outward pass (eqs. 7.41–7.46 without velocity
// products or external forces):
//     inward:   u_i = b_i − H_iᵀ z_i,   z_p += Φ_iᵀ (z_i + U_i D_i⁻¹ u_i)
//     outward:  x_i = D_i⁻¹ (u_i − U_iᵀ Φ_i a_p),   a_i = Φ_i a_p + H_i x_i   (a of the ground 0).
// The inward pass is u = L b and the outward one x = Lᵀ D⁻¹ u for one matrix L (Jain's
// innovations factorization M⁻¹ = [I − H ψ K]ᵀ D⁻¹ [I − H ψ K], eq. 7.23), so that
// G = D^(−½) L, the inward pass alone, is a factor with M⁻¹ = Gᵀ G (solve_half()).

#include <Eigen/Core>
#include <vector>

#include "models/planar/planar_body.hpp"
#include "models/planar/planar_joint.hpp"
#include "models/planar/planar_kinematics.hpp"
#include "sim/dynamics/mechanical_system.hpp"

namespace routh {

/// A joint's velocity map and its body's articulated inertia at one q (see the header comment).
/// Fixed 3 × 3 blocks whatever the joint's dofs (1 or 3), its unused columns zero: at these
/// sizes fixed-size arithmetic costs a fraction of sized-at-run-time blocks.
struct ArticulatedBody {
  int parent = kGround;
  int first = 0;  ///< index in v of the joint's first dof
  int dofs = 1;
  double carries = 1.0;                                ///< c: 1 when ω_i contains ω_p, else 0
  Eigen::Vector2d arm_perp = Eigen::Vector2d::Zero();  ///< d⊥ [m]
  Eigen::Matrix3d H;                                   ///< columns 0 … dofs − 1
  Eigen::Matrix3d P;                                   ///< P_i, then (after its joint) P_i⁺
  Eigen::Matrix3d U;                                   ///< P_i H_i, its first dofs columns
  Eigen::Matrix3d D_inverse;                           ///< D_i⁻¹, its leading dofs × dofs
  Eigen::Matrix3d D_inverse_root;  ///< C⁻¹ with D_i = C Cᵀ (Cholesky), so D_i⁻¹ = C⁻ᵀ C⁻¹
};

/// The articulated-body factorization of one planar tree's M(q): the InverseMass the tree hands
/// out (StateQuantities::inverse_mass), valid until its next factorization.
class ArticulatedInverseMass final : public InverseMass {
 public:
  /// Factors M at the pose in `motion` (forward_kinematics at q) for the tree of `joints` and
  /// `bodies` whose joints start at `first_coordinate` in v. Does not allocate once sized.
  void factor(const std::vector<PlanarJoint>& joints, const std::vector<PlanarBody>& bodies,
              const std::vector<int>& first_coordinate, const TreeMotion& motion);
  void solve(Eigen::Ref<Eigen::MatrixXd> columns) const override;
  void solve_half(Eigen::Ref<Eigen::MatrixXd> columns) const override;

 private:
  void inward_pass(const Eigen::Ref<const Eigen::MatrixXd>& b) const;

  std::vector<ArticulatedBody> bodies_;
  // scratch of a solve, per body and column: z_i, a_i and u_i (its first dofs entries)
  mutable Eigen::Matrix3Xd z_, a_, u_;
};

}  // namespace routh
