#include "tools/routh/recorded_run.hpp"

#include "sim/recorder/scenario_recorder.hpp"
#include "sim/recorder/trajectory_recorder.hpp"
#include "sim/text.hpp"

namespace routh::cli {

SimulationOutcome record_scenario_run(
    const Scenario& scenario, const std::filesystem::path& path,
    const std::function<SimulationOutcome(TrajectoryObserver&)>& simulate) {
  TrajectoryRecorder recorder = open_scenario_recorder(scenario, path);
  const SimulationOutcome outcome = simulate(recorder);
  recorder.set_run_status(outcome.status, outcome.detail);
  recorder.set_summary(outcome);
  recorder.close();
  return outcome;
}

std::vector<ReadInput> run_inputs(const std::optional<std::filesystem::path>& scenario_path,
                                  const Scenario& scenario) {
  std::vector<ReadInput> inputs;
  if (scenario_path) inputs.push_back({*scenario_path, "the scenario file"});
  for (const std::filesystem::path& record : scenario.record_files) {
    inputs.push_back({record, cat("the record file ", record.string())});
  }
  return inputs;
}

}  // namespace routh::cli
