#pragma once
// One run of a loaded scenario: the single entry point that `routh run`, the benchmarks, the
// tests (and sweeps and the Python package) share, so that all of them run a scenario the same
// way. What happens to the trajectory is the observer's business: the HDF5 recorder writes it, a
// test keeps it in memory, a benchmark discards it.

#include "sim/scenario/scenario_file.hpp"
#include "sim/simulation/simulator.hpp"
#include "sim/simulation/trajectory_observer.hpp"

namespace routh {

/// Simulates `scenario`'s model from its initial state with its settings, reporting to
/// `observer`. `wall_time_limit` [s], when positive, overrides the settings' limit.
SimulationOutcome run_scenario(const Scenario& scenario, TrajectoryObserver& observer,
                               double wall_time_limit = 0.0);

}  // namespace routh
