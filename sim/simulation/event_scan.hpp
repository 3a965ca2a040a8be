#pragma once
// The event scan of the step just taken (docs/simulation.md, step 2): the witnesses' values at
// the step's ends, the earliest witness to trigger on it and where, located on the step's dense
// output (event_location.hpp), and the gap crossings that are no landing (a gap jumping across
// zero round an edge's end).

#include <cstddef>
#include <optional>
#include <vector>

#include "sim/simulation/contact_mode.hpp"
#include "sim/simulation/ode_state.hpp"
#include "sim/simulation/run_state.hpp"
#include "sim/simulation/simulation_settings.hpp"
#include "sim/simulation/witness_function.hpp"
#include "sim/simulation/witnesses.hpp"

namespace routh {

/// The earliest witness to trigger on a step (its index in RunState::witnesses), and where.
struct TriggeredWitness {
  std::size_t index = 0;
  WitnessCrossing crossing;
};

/// The values of `witnesses` of `modes` at (t, x), into `sample`.
void sample_witnesses_at(double t, const OdeState& x, const std::vector<ContactMode>& modes,
                         const std::vector<Witness>& witnesses, RunWorkspace& workspace,
                         WitnessSample& sample);

/// sample_witnesses_at() at an accepted step's end (t, x), reusing the force solve of dopri5's
/// last stage, which sits there (first same as last), when it is still in the workspace.
void sample_witnesses_at_step_end(double t, const OdeState& x,
                                  const std::vector<ContactMode>& modes,
                                  const std::vector<Witness>& witnesses, RunWorkspace& workspace,
                                  WitnessSample& sample);

/// The earliest of state.witnesses to trigger on the step just taken, from their values at its
/// ends (state.start, state.end), located on its dense output, no later than the run's duration;
/// nothing if none triggers. A support witness whose crossing overlaps the earliest, a gap's,
/// comes first: the gap may cross because the contacts change there.
std::optional<TriggeredWitness> earliest_trigger(const DenseStepper& stepper,
                                                 const SimulationSettings& settings,
                                                 const RunState& state, RunWorkspace& workspace);

/// The instant at which the impact `fired` (a gap's crossing) is taken: impact_instant() of
/// event_location.hpp on the contact's gap along the step's dense output, or the crossing's far
/// side where the gap jumps across zero from within the contact distance as the contact's point
/// jumps over its surface (its support changes by more than the contact distance): only the far
/// side touches there; larger jumps are no landing (crossing_is_no_landing()).
double impact_time(const TriggeredWitness& fired, const DenseStepper& stepper,
                   const SimulationSettings& settings, const RunState& state,
                   RunWorkspace& workspace);

/// Whether a gap crossing is no landing, because the contact does not exist there:
///  - the gap jumps: across the crossing it falls by far more than its rate explains, and on its
///    near side the contact does not touch (a point came round the end of an edge to its back;
///    contact_pair_kinematics.cpp), unless it enters its surface's extent there touching and
///    approaching (a rim's deepest point, sunk within the contact distance, passing from one
///    tilt-line end to the other: spatial_contact_geometry.hpp);
///  - the broad phase does not list the contact at the crossing's near side (a block's corner
///    resting at the corner of the block below, sliding onto its top, crosses the line of its
///    side face within that face's extent, widened by a hair; the corner's normal cone does not
///    face that side, planar_broad_phase.hpp). The impact stage, which works on the contacts
///    listed there, would find nothing approaching, and the gap would read the same crossing
///    again at the same instant (an event storm).
bool crossing_is_no_landing(const TriggeredWitness& fired, const DenseStepper& stepper,
                            const SimulationSettings& settings, const RunState& state,
                            RunWorkspace& workspace);

/// A landing hidden by a crossing that is no landing (a gap's jump): the earliest crossing on the
/// step of another open contact that was apart at the step's start and is sunk and approaching at
/// the jump's far side.
std::optional<TriggeredWitness> landing_hidden_by_jump(const TriggeredWitness& jump,
                                                       const DenseStepper& stepper,
                                                       const SimulationSettings& settings,
                                                       const RunState& state,
                                                       RunWorkspace& workspace);

}  // namespace routh
