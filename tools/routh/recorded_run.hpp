#pragma once
// A scenario's run recorded into its trajectory file, as `routh run` writes it. The Python
// package's routh.run goes through here too, so that its arrays are those of the file `routh run`
// writes, bit for bit.

#include <filesystem>
#include <functional>
#include <optional>
#include <vector>

#include "sim/recorder/output_placement.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/simulation/simulator.hpp"
#include "sim/simulation/trajectory_observer.hpp"

namespace routh::cli {

/// Creates the trajectory file at `path` for `scenario` (open_scenario_recorder), lets `simulate`
/// run the scenario (run_scenario) reporting to the observer it is given, the recorder or
/// something that forwards to it, then records the outcome's status and summary and closes the
/// file. Throws what the recorder and `simulate` throw (TrajectoryWriteError when a write fails);
/// the file is then closed, holding the run up to there.
SimulationOutcome record_scenario_run(
    const Scenario& scenario, const std::filesystem::path& path,
    const std::function<SimulationOutcome(TrajectoryObserver&)>& simulate);

/// The files a run of `scenario` reads, which its output may never replace: the scenario file
/// (none for a scenario given as text) and the record files of its excitation.
std::vector<ReadInput> run_inputs(const std::optional<std::filesystem::path>& scenario_path,
                                  const Scenario& scenario);

}  // namespace routh::cli
