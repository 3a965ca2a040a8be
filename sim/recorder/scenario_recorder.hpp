#pragma once
// The trajectory recorder of one scenario's run, as `routh run` and a sweep's per-run files open
// it: the header from the scenario (law, effective YAML, coordinates, contacts, the model's
// description) and, when the
// scenario is excited, the ground acceleration recorded with every sample.

#include <filesystem>

#include "sim/recorder/trajectory_recorder.hpp"
#include "sim/scenario/scenario_file.hpp"

namespace routh {

/// Creates `path` for `scenario`'s run (TrajectoryRecorder's constructor; throws as it does).
TrajectoryRecorder open_scenario_recorder(const Scenario& scenario,
                                          const std::filesystem::path& path);

}  // namespace routh
