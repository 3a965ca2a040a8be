#pragma once
// The trajectory's samples (trajectory_observer.hpp): regular samples at the output rate, read
// off each step's dense output, and the states before and after each event.

#include <Eigen/Core>

#include "sim/simulation/ode_state.hpp"
#include "sim/simulation/run_guards.hpp"
#include "sim/simulation/run_state.hpp"
#include "sim/simulation/simulation_settings.hpp"
#include "sim/simulation/system_evaluation.hpp"
#include "sim/simulation/trajectory_observer.hpp"

namespace routh {

/// Sends the state (t, q, v) and its energy to the observer as a sample of `kind`.
void sample(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, SampleKind kind,
            SystemEvaluation& evaluation, TrajectoryObserver& observer);

/// The regular samples due up to t_end (and the run's duration), off the step's dense output.
/// False when the run is to be interrupted (run_guards.hpp) before they are all out.
bool emit_samples_until(double t_end, const DenseStepper& stepper,
                        const SimulationSettings& settings, const WallClockLimit& wall_clock,
                        OutputClock& clock, RunWorkspace& workspace, TrajectoryObserver& observer);

/// An event at t_event took the place of a regular sample due there: the clock moves past it.
void skip_sample_at_event(double t_event, const SimulationSettings& settings, OutputClock& clock);

}  // namespace routh
