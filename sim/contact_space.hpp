#pragma once
// Contact-space algebra (docs/laws.md). An impact changes the generalized velocities by
// Δv = M⁻¹ Jᵀ Γ, hence the contact velocities by Δu = J Δv = D Γ with D = J M⁻¹ Jᵀ, the inverse
// inertia that the contacts feel (paper 001's H, paper 004's D, paper 003's I − S). Every impact
// law works on D alone; these functions carry a problem between the two spaces.

#include <Eigen/Core>
#include <vector>

#include "sim/impact/impact_problem.hpp"

namespace routh {

/// Workspace for one configuration q: the products the mapping reuses.
struct ContactSpace {
  Eigen::MatrixXd inverse_mass_jacobian_transpose;  ///< M⁻¹ Jᵀ (n × m) [1/kg, 1/(kg m)]
  Eigen::MatrixXd jacobian;                         ///< J (m × n), rows normal then tangential
};

/// Factors M (symmetric positive definite, n × n) and forms M⁻¹Jᵀ by two triangular solves, never
/// M⁻¹ itself. Returns false, leaving `space` unusable, when M is not positive definite.
/// Any number of contact rows. Throws std::invalid_argument when J does not fit M.
bool factor_contact_space(const Eigen::MatrixXd& M, const Eigen::MatrixXd& J, ContactSpace& space);

/// The contact space of some of the contacts of `all`: rows `rows` of its J, in that order, and
/// the same columns of its M⁻¹Jᵀ, without factoring M again. Each column of M⁻¹Jᵀ is two
/// triangular solves of its own row of J, so these are the numbers that factoring M for the
/// chosen rows alone gives, to the last bit (tests/test_contact_space.cpp). An impact that grows
/// its contact set round by round solves for its candidates once and takes each round's set from
/// them.
void select_contact_rows(const ContactSpace& all, const std::vector<Eigen::Index>& rows,
                         ContactSpace& subset);

/// D = J (M⁻¹ Jᵀ), symmetrised against round-off.
ContactMatrix contact_space_inertia(const ContactSpace& space);

/// Δv = M⁻¹ Jᵀ Γ: the generalized velocity jump caused by contact impulses Γ.
Eigen::VectorXd generalized_velocity_change(const ContactSpace& space,
                                            const ContactVector& impulse);

/// The impact problem of generalized velocities v⁻ = `v`: D from (M, J) and u⁻ = J v⁻.
ImpactProblem generalized_impact_problem(const ContactSpace& space, const Eigen::VectorXd& v,
                                         ContactDimension dimension,
                                         const ContactParameterList& contacts);

/// ΔT = Γᵀu⁻ + ½ ΓᵀDΓ [J]: exact kinetic energy change of an impact, in contact space.
double kinetic_energy_change(const ContactMatrix& D, const ContactVector& u_pre,
                             const ContactVector& impulse);

/// T = ½ vᵀ M v [J], for cross-checks in generalized coordinates.
double kinetic_energy(const Eigen::MatrixXd& M, const Eigen::VectorXd& v);

}  // namespace routh
