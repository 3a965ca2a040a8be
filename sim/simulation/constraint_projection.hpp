#pragma once
// Constraint projection (docs/simulation.md, step 6). Closed contacts drift off their constraints
// at the integrator's error level; beyond kDriftTolerance the state is projected back onto them in
// the kinetic-energy metric, the metric in which an impulse changes velocities (M Δv = Jᵀ Γ):
//
//     Δx = −M⁻¹Jᵀ (J M⁻¹ Jᵀ)⁻¹ r                                              (1)
//
// is the smallest change of x, measured by ½ Δxᵀ M Δx, that removes the residual r = J x of the
// rows J to first order. Positions are corrected with the closed contacts' gaps as r (Gauss–
// Newton passes, the gap being nonlinear in q), velocities with J v over the closed normal rows
// and the sticking contacts' tangential rows. Δx lives in velocity space (nv, where M and J do):
// q moves by the model's retraction, q ← q ⊕ (−Δx) (MechanicalSystem::integrate), and is
// normalized after the passes (MechanicalSystem::normalize).

#include <Eigen/Core>
#include <vector>

#include "sim/simulation/contact_mode.hpp"
#include "sim/simulation/system_evaluation.hpp"

namespace routh {

/// [m] gaps of closed contacts beyond this are projected away (the issue asks for gaps below
/// 1e-9 m; the integrator's drift per step is of the order of its tolerance, 3e-11).
inline constexpr double kDriftTolerance = 1e-10;

/// Equation (1): the kinetic-metric correction of the residual `residual` of the rows `J` at q.
/// Full-pivot LU copes with redundant rows (two corners of a block flat on the floor).
Eigen::VectorXd kinetic_metric_correction(SystemEvaluation& evaluation, const Eigen::VectorXd& q,
                                          const Eigen::MatrixXd& J,
                                          const Eigen::VectorXd& residual);

/// v ← the kinetic-energy-closest velocity with u_n = 0 at every closed contact and u_t = 0 at
/// every sticking one.
void project_velocity_onto_closed_contacts(SystemEvaluation& evaluation,
                                           const std::vector<ContactMode>& modes,
                                           const Eigen::VectorXd& q, Eigen::VectorXd& v);

/// The largest |gap| of a closed contact [m], from the gaps of one evaluation.
double closed_contact_drift(const std::vector<ContactMode>& modes, const Eigen::VectorXd& gap);

/// If the closed contacts' gaps `gap` (at q; every active contact's) exceed kDriftTolerance,
/// moves q back onto the constraints, without moving an open contact from a non-negative gap to
/// a negative one (its landing is the gap witness's to find), and projects v onto their tangent
/// space, and says so.
bool remove_drift(SystemEvaluation& evaluation, const std::vector<ContactMode>& modes,
                  const Eigen::VectorXd& gap, Eigen::VectorXd& q, Eigen::VectorXd& v);

}  // namespace routh
