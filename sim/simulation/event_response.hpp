#pragma once
// What an event changes (docs/simulation.md, steps 3–5): an impact's velocity jump and the modes
// it leaves; a mode event's new modes, settled for the whole contact set; Painlevé's tangential
// impact when no mode is consistent. Each stage changes v and the modes in place and reports
// its event rows (and whether the run must end) to the loop, which records them.

#include <Eigen/Core>
#include <vector>

#include "sim/simulation/contact_mode.hpp"
#include "sim/simulation/event_record.hpp"
#include "sim/simulation/run_state.hpp"
#include "sim/simulation/simulation_settings.hpp"
#include "sim/simulation/witnesses.hpp"

namespace routh {

/// A bare event row of `kind` at t on the active contact `contact`, its mode as the status.
EventRecord mode_event(double t, EventKind kind, int contact,
                       const std::vector<ContactMode>& modes);

/// An open contact's gap closed at (t, q, v⁻): the approaching contacts are struck
/// (impact_step.hpp), v becomes v⁺, the modes are settled, and the rest rule decides whether the
/// motion comes to rest (zeno_rest.hpp).
StageReport respond_to_impact(double t, const Eigen::VectorXd& q, Eigen::VectorXd& v,
                              const SimulationSettings& settings, RunState& state,
                              RunWorkspace& workspace);

/// A mode witness fired at (t, q, v): a body overturned (outcome_tracking.hpp), or a contact left
/// its edge's end (it opens) or a normal force, friction margin or slip reached zero (a flat base
/// then turns toward its load first: base_orientation.hpp), and the whole contact set is settled
/// again, what changed logged.
StageReport respond_to_mode_event(double t, const Witness& witness, const Eigen::VectorXd& q,
                                  Eigen::VectorXd& v, const SimulationSettings& settings,
                                  RunState& state, RunWorkspace& workspace);

/// Settles the modes at (t, q, v) (contact_modes.hpp), logging what changed when asked, and
/// resolves Painlevé's paradox if no mode is consistent.
StageReport settle_modes(double t, const Eigen::VectorXd& q, Eigen::VectorXd& v, bool log_changes,
                         const SimulationSettings& settings, RunState& state,
                         RunWorkspace& workspace);

}  // namespace routh
