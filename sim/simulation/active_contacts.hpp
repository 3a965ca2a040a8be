#pragma once
// The active contacts (docs/simulation.md, "Active contacts"): which of the model's contacts the
// stages evaluate. Those the model's broad phase finds near (MechanicalSystem::nearby_contacts)
// and every closed one; contacts that come near within a step join before its events are
// located, those gone far leave after it is accepted, and at an event the set is that of the
// event's state. The broad phase assumes that no body moves farther than its margin between two
// calls: the steps are bounded accordingly (MechanicalSystem::broad_phase_step_bound_s).
//
// The stages number the active contacts 0 … contacts − 1 in the order of
// SystemEvaluation::active; the event log and the final state name the model's.

#include <Eigen/Core>
#include <vector>

#include "sim/simulation/contact_mode.hpp"
#include "sim/simulation/ode_state.hpp"
#include "sim/simulation/run_state.hpp"
#include "sim/simulation/system_evaluation.hpp"
#include "sim/simulation/witnesses.hpp"

namespace routh {

/// The active index of the model's contact `contact`, or −1 when it is not active.
int local_index(const SystemEvaluation& evaluation, int contact);

/// The modes by the model's contact index (inactive contacts are open).
std::vector<ContactMode> model_modes(const SystemEvaluation& evaluation,
                                     const std::vector<ContactMode>& modes);

/// The contacts to evaluate at q, into workspace.wanted (model indices, ascending): those the
/// model's broad phase finds nearby, and every closed one. `fired`: at an event, the model's
/// index of the contact whose witness fired it (else −1).
void wanted_contacts(const Eigen::VectorXd& q, const std::vector<ContactMode>& modes,
                     RunWorkspace& workspace, int fired = -1);

/// Makes `wanted` the active contacts, carrying the modes of those that stay (new ones are open)
/// and watching them; false when the set is unchanged.
bool activate(const std::vector<int>& wanted, RunState& state, RunWorkspace& workspace);

/// Before a step's events are located: contacts that came near during the step join. True when
/// the set grew, so that the step's start is to be sampled again with them. The contacts wanted
/// at the step's end stay in workspace.wanted for narrow_after_step().
bool widen_for_step(const DenseStepper& stepper, RunState& state, RunWorkspace& workspace);

/// After a step is accepted at x: contacts gone far leave. The broad phase of x is
/// widen_for_step()'s, unless the drift projection `projected` x since. True when the set
/// changed, so that x is to be sampled again.
bool narrow_after_step(const OdeState& x, bool projected, RunState& state, RunWorkspace& workspace);

/// The contacts of an event's state q, before it is settled or struck, and the fired witness with
/// its contact's index among them.
Witness contacts_at_event(const Eigen::VectorXd& q, Witness fired, RunState& state,
                          RunWorkspace& workspace);

/// The next step is proposed no longer than the broad phase's bound at its start.
void bound_next_step(DenseStepper& stepper, RunWorkspace& workspace);

/// Whether the step just taken outran the broad phase's bound at its end; it is then to be taken
/// again from its start, no longer than that bound (the stepper is set up for it).
bool outran_broad_phase(DenseStepper& stepper, RunWorkspace& workspace);

}  // namespace routh
