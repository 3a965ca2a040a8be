#pragma once
// The slip direction of a spatial sliding contact (contact_mode.hpp, ContactMode::slide).
//
// A spatial contact slips with u_t = (J_t1 v, J_t2 v), and Coulomb's friction with maximum
// dissipation opposes it: −μd λ_n û with û = u_t/|u_t|, read from the state at every evaluation of
// the dynamics, so that a slip whose direction turns (a ball with sidespin) is followed
// continuously. Each sliding contact also keeps a reference direction û₀: the direction it slipped
// at the start of the current step, or, slipping from rest, the direction its acceleration takes
// (settling solves for it: contact_modes.cpp). The force solve uses
//
//     û = u_t/|u_t|   while u_t·û₀ > kSlipDirectionResolution,      else û₀,
//
// so that from rest, where u_t is zero or round-off, friction opposes the slip the contact is
// about to take, and past the instant its slip halts (u_t·û₀ crossing zero) the dynamics go on
// smoothly in the mode's direction, as a planar slide keeps its sign σ, until the slip witness
// u_t·û, which is then u_t·û₀, is located at its zero (witnesses.hpp). Within one step û₀ is
// fixed, so the right-hand side is a function of the state; the references move on only between
// steps (refresh_slip_references) and at events.
//
// The references are kept per contact of the model (SystemEvaluation::slip_reference), so that
// a contact keeps its direction when the broad phase changes the active set.

#include <Eigen/Core>
#include <vector>

#include "sim/dynamics/mechanical_system.hpp"
#include "sim/simulation/contact_forces.hpp"
#include "sim/simulation/contact_mode.hpp"
#include "sim/simulation/system_evaluation.hpp"

namespace routh {

/// [m/s] Below this slip along its reference a spatial contact's slip gives no direction of its
/// own (it slips from rest, or has halted): 1e4 times the round-off of a slip of 1 m/s.
inline constexpr double kSlipDirectionResolution = 1e-12;

/// Spatial contact k's slip u_t = (J_t1 v, J_t2 v) [m/s] (its rows 1 and 2 of 3).
Eigen::Vector2d spatial_slip(const ContactKinematics& kinematics, int k, const Eigen::VectorXd& v);

/// The direction a sliding contact's friction opposes, from its slip and its reference û₀ (above).
Eigen::Vector2d sliding_direction(const Eigen::Vector2d& slip, const Eigen::Vector2d& reference);

/// The slip directions of the `slide` contacts of `modes` at v into `slips` (per contact of
/// `kinematics`; `model_index[k]` is contact k's index in the model, `reference` is per model
/// contact). Empty when no contact slides spatially.
void slip_directions_at(const ContactKinematics& kinematics, const std::vector<ContactMode>& modes,
                        const std::vector<int>& model_index,
                        const std::vector<Eigen::Vector2d>& reference,
                        const std::vector<bool>& aligned, const Eigen::VectorXd& v,
                        SlipDirections& slips);

/// Active contact k's slip (u_t1, u_t2) [m/s] at v; a planar contact's second is 0.
Eigen::Vector2d slip_of(const ContactKinematics& kinematics, int rows_per_contact, int k,
                        const Eigen::VectorXd& v);

/// A contact force's tangential part (λ_t1, λ_t2) [N]; a planar contact's second is 0.
inline Eigen::Vector2d tangential_force(const ContactForce& force) {
  return {force.tangential, force.tangential_2};
}

/// The mode of active contact k sliding along `direction` (in its tangential frame, nonzero): for
/// a planar contact slide± by the sign of its first entry; for a spatial one `slide`, whose
/// reference û₀ becomes the unit `direction`.
ContactMode slide_along(SystemEvaluation& evaluation, int k, const Eigen::Vector2d& direction);

/// The unit direction active contact k's sliding `mode` slips along when its slip gives none: (σ,
/// 0) planar, û₀ spatial.
Eigen::Vector2d mode_direction(const SystemEvaluation& evaluation, int k, ContactMode mode);

/// What refresh_slip_references() found.
enum class SlipRefresh {
  unchanged,         ///< the dynamics at (q, v) are as the step left them
  dynamics_changed,  ///< a contact switched between following its slip and being aligned
  /// A contact slips against the direction its friction opposes (u_t·û < 0): its friction would
  /// drive the slip. Its slip witness u_t·û, below zero from the step's start, cannot see it (a
  /// rim contact whose point jumped round the rim at a hand-over, its settled reference left
  /// behind, gained 16 % of its energy that way): the modes must be settled again.
  slip_reversed,
};

/// Between steps: moves each spatial sliding contact's reference on to its direction at (t, q, v):
/// an aligned contact's to its alignment's root (aligned_slip.hpp), any other's to its slip's
/// direction where it slips on along the reference (u_t·û₀ > kSlipDirectionResolution). An
/// aligned contact is released to follow its slip once it relaxes slower than
/// kSlipRelaxationTime; one that follows a slip slower than kSlowSlip is aligned once it relaxes
/// faster than kSlipRealignmentTime (a slip that dwindles while its direction turns), where it
/// points at its root already (kRealignmentTurn).
SlipRefresh refresh_slip_references(SystemEvaluation& evaluation, double t,
                                    const std::vector<ContactMode>& modes, const Eigen::VectorXd& q,
                                    const Eigen::VectorXd& v);

}  // namespace routh
