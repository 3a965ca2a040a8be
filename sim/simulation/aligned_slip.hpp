#pragma once
// The slip direction of a spatial contact whose slip is slow: aligned with its acceleration.
//
// A spatial contact slipping at u_t feels friction −μd λ_n û with û = u_t/|u_t|, and its slip
// evolves by u̇_t = a_t(û). Written in polar form, u_t = |u_t| (cos θ, sin θ) in the contact's
// tangential frame,
//
//     d|u_t|/dt = û · a_t(û),      dθ/dt = (û × a_t(û)) / |u_t| = c(θ) / |u_t|,
//
// with c(θ) = û × a_t(û) the misalignment of the slip's acceleration with the slip. Near a
// root θ* of c the direction relaxes onto it at the rate |c'(θ*)|/|u_t|: instantly as the slip
// vanishes. A slip that starts from rest at the edge of the friction cone (the slip witness of a
// sticking contact fires where its friction reaches μs λ_n) grows from zero acceleration, as
// |u_t| ≈ ½ j t², and for the time it is slow its direction is a stiff variable: an explicit
// integrator must step below 3|u_t|/|c'|, a few 1e-11 s at a slip of 1e-10 m/s, and crawls (a
// ball on a rolling ball took 47 s of wall time for 2 ms). Physically that direction is slaved to
// the slow state: to leading order in the relaxation time τ = |u_t|/|c'(θ*)| it sits at the root,
// θ = θ*(q, v) with c(θ*) = 0 (a singular perturbation's slow manifold). The root is stable where
// c decreases through it, c'(θ*) < 0: the direction of Coulomb's law with maximum dissipation for
// a slip from rest (contact_modes.cpp, align_slips_from_rest, chooses it), which the force solve
// then follows as the state moves.
//
// So a contact that starts to slip from rest is *aligned*: at every evaluation of the dynamics its
// direction is the root of c nearest its reference û₀ (slip_reference.hpp), found by Newton's
// method on the angles of all aligned contacts of the solve at once (their slips are coupled
// through the bodies: the two corners of a box's slipping edge), each iteration one force solve
// per aligned contact and one more, to round-off. The right-hand side stays a smooth function of
// the state. Between steps (release_fast_slips) a contact is released to follow u_t/|u_t| once its
// relaxation time reaches kSlipRelaxationTime: the lag the alignment neglects is then at most
// that time's turn of θ*, and the direction it follows is no stiffer than the steps it is
// integrated with; one that follows a slip which dwindles while it turns is aligned again once it
// relaxes faster than kSlipRealignmentTime. A contact whose alignment fails (no root near, a
// singular Jacobian) keeps its reference for that solve, as before.

#include <Eigen/Core>
#include <vector>

#include "sim/simulation/contact_forces.hpp"
#include "sim/simulation/contact_mode.hpp"

namespace routh {

/// [s] A slowly slipping contact's direction stays aligned with its acceleration (above) while it
/// relaxes faster than this, τ = |u_t|/|c'(θ*)| < kSlipRelaxationTime. The error of the
/// alignment is that of neglecting τ against the turning of θ*; past it, a slip's direction
/// limits the integrator's steps to about 3τ.
inline constexpr double kSlipRelaxationTime = 1e-5;
/// [s] A contact that follows its slip is aligned again once it relaxes faster than this: a slip
/// that dwindles while its direction turns is as stiff as one that starts (a coin's rim hovering
/// at a slip of 1e-10 m/s, its direction jumping 20° per step). A quarter of the release time,
/// so that a contact near either does not switch back and forth from step to step.
inline constexpr double kSlipRealignmentTime = kSlipRelaxationTime / 4.0;
/// [m/s] Only slips slower than this are tried for realignment (each try costs a Newton
/// solve): a faster one would need |c'| > 4e3 m/s² per radian to relax within
/// kSlipRealignmentTime.
inline constexpr double kSlowSlip = 1e-2;
/// [rad] ... and only where the root lies within this angle of the slip: a slip that relaxes
/// within kSlipRealignmentTime points at its root to far better, and one far from every root is
/// not slaved to one (a root across a drum's sliding rim contact did work on it: 0.22 J).
inline constexpr double kRealignmentTurn = 0.05;

/// At most this many contacts of one solve are aligned at once (their Newton system is fixed in
/// size, so that the evaluation does not allocate); more keep their references.
inline constexpr int kMaxAlignedSlips = 8;

/// Scratch of align_slow_slips(): no allocation.
struct SlipAlignment {
  using Matrix =
      Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxAlignedSlips, kMaxAlignedSlips>;
  using Vector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxAlignedSlips, 1>;
  Eigen::Matrix<int, Eigen::Dynamic, 1, 0, kMaxAlignedSlips, 1> contacts;  ///< of the solve
  Vector misalignment;  ///< c_i at the current directions [m/s²]
  Matrix jacobian;      ///< ∂c_i/∂θ_j [m/s²/rad] at the last iteration
  Vector trial, step;
  ConstrainedAcceleration perturbed;  ///< the solves of the Jacobian's differences
  bool aligned = false;               ///< whether the latest alignment converged
};

/// Aligns the slip directions of the contacts of `modes` that slide and are `aligned` (per model
/// contact; `model_index[k]` is contact k's index in the model) with their accelerations: solves
/// c = 0 by Newton's method from `slips`, re-solving the forces into `out` with
/// constrained_acceleration(). On success `slips` and `out` hold the aligned solve; otherwise
/// they hold the solve from the directions they came with. `alignment` records which.
void align_slow_slips(const StateQuantities& quantities, const std::vector<ContactMode>& modes,
                      const std::vector<int>& model_index, const std::vector<bool>& aligned,
                      const ContactParameterTable& parameters, ContactForceWorkspace& workspace,
                      SlipAlignment& alignment, ConstrainedAcceleration& out,
                      SlipDirections& slips);

}  // namespace routh
