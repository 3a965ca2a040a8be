#pragma once
// The forcing's breakpoints (a ground motion's start, end and record samples:
// SimulationSettings::next_breakpoint) bound the steps. A step that would pass the next
// breakpoint b is shortened to end at b⁻, the last double before b, so that every stage of it
// (dopri5's last one sits at the step's end) sees the forcing on b's left. From b⁻ the run goes on
// at b itself, where the stepper's first stage sees the forcing on b's right: the state is carried
// over unchanged (one ulp of time, far below the integrator's error) and the contact modes are
// settled again under the new forcing, which may have jumped (a cosine pulse lifts a block at
// its first instant).

#include <optional>

#include "sim/simulation/ode_state.hpp"
#include "sim/simulation/simulation_settings.hpp"

namespace routh {

/// The breakpoint b, before the run's end, that the stepper stands at b⁻ of; nothing otherwise.
std::optional<double> breakpoint_reached(const DenseStepper& stepper,
                                         const SimulationSettings& settings);

/// Shortens the step the stepper proposes when it would pass the next breakpoint before the run's
/// end: it ends at b⁻.
void end_step_before_breakpoint(DenseStepper& stepper, const SimulationSettings& settings);

}  // namespace routh
