#include "sim/scenario/scenario_run.hpp"

namespace routh {

SimulationOutcome run_scenario(const Scenario& scenario, TrajectoryObserver& observer,
                               double wall_time_limit) {
  if (!(wall_time_limit > 0.0)) {
    return simulate(*scenario.model, scenario.initial, scenario.settings, observer);
  }
  SimulationSettings settings = scenario.settings;
  settings.wall_time_limit = wall_time_limit;
  return simulate(*scenario.model, scenario.initial, settings, observer);
}

}  // namespace routh
