#pragma once
// Acceleration-level contact forces for given contact modes (DESIGN §4 step 1). With the closed
// contacts' rows J_c and the force directions W (per sticking contact the columns J_nᵀ, J_tᵀ; per
// sliding contact the single column J_nᵀ − μd σ J_tᵀ, Coulomb's law with the slip direction σ),
//     M v̇ = f + W λ,      J_c v̇ + J̇_c v = 0   (closed contacts keep a_n = 0, sticking ones a_t =
//     0),
// so (J_c M⁻¹ W) λ = −(J_c M⁻¹ f + J̇_c v). The matrix is square. It is singular but consistent
// when the contacts are statically indeterminate (more constraint rows than the bodies have
// degrees of freedom; the minimum-norm forces are taken), and inconsistent in Painlevé's
// configurations (friction too large for a sliding contact to stay closed). The solution is valid
// while λ_n ≥ 0 for every closed contact and |λ_t| ≤ μs λ_n for every sticking one; the simulator
// watches both as witness functions.

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <vector>

#include "sim/dynamics/mechanical_system.hpp"
#include "sim/simulation/contact_mode.hpp"

namespace routh {

/// Per contact: the normal and tangential force [N] (zero for open contacts).
struct ContactForce {
  double normal = 0.0;
  double tangential = 0.0;
};

/// Scratch of the contact-force solve, reused between calls: no allocation once sized for the
/// current modes. The force unknowns (at most two per contact) fit the contact-space capacity.
struct ContactForceWorkspace {
  Eigen::MatrixXd inverted_mass_matrix;  ///< the M that `inverse_mass` inverts
  Eigen::LLT<Eigen::MatrixXd> mass;      ///< M = L Lᵀ
  Eigen::MatrixXd inverse_mass;          ///< M⁻¹
  Eigen::MatrixXd constraint_rows;       ///< J_c
  Eigen::MatrixXd force_directions;      ///< W
  Eigen::MatrixXd inverse_mass_W;        ///< M⁻¹ W
  ContactVector velocity_product;        ///< J̇_c v of the constrained rows
  ContactMatrix A;                       ///< J_c M⁻¹ W
  ContactVector b;                       ///< −(J_c M⁻¹ f + J̇_c v)
  ContactVector lambda;                  ///< the force unknowns
};

/// The outcome of the solve for one state.
struct ConstrainedAcceleration {
  Eigen::VectorXd acceleration;      ///< v̇ [m/s², rad/s²]
  std::vector<ContactForce> forces;  ///< per contact
  bool consistent = true;            ///< false when J_c M⁻¹ W is singular (Painlevé)
};

/// Whether any contact is closed: only then does the solve read the contact kinematics.
bool any_closed(const std::vector<ContactMode>& modes);

/// What constrained_acceleration() reads of the system at one state.
inline QuantityRequest constrained_acceleration_needs(const std::vector<ContactMode>& modes) {
  return {.mass_matrix = true, .generalized_force = true, .contacts = any_closed(modes)};
}

/// Solves for v̇ and the contact forces of the closed contacts in the given modes at one state,
/// from the system's quantities there (those constrained_acceleration_needs(modes) names).
/// `parameters` holds μd per contact (only sliding contacts use it).
void constrained_acceleration(const StateQuantities& state, const std::vector<ContactMode>& modes,
                              const ContactParameterList& parameters,
                              ContactForceWorkspace& workspace, ConstrainedAcceleration& out);

}  // namespace routh
