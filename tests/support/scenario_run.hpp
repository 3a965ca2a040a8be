#pragma once
// Running a shipped scenario (scenarios/*.yaml) in memory, with `--set`-style overrides, as
// `routh run` would but without the HDF5 file: for tests of the simulator's physics on them.

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <string>
#include <vector>

#include "sim/scenario/scenario_file.hpp"
#include "sim/simulation/simulator.hpp"
#include "trajectory_memory.hpp"

namespace routh::test {

/// The shipped scenario file `name` (e.g. "rocking_block.yaml").
inline std::string shipped_scenario(const std::string& name) {
  return (std::filesystem::path(ROUTH_SOURCE_DIR) / "scenarios" / name).string();
}

/// Every shipped scenario file (scenarios/*.yaml, not the single-impact problems), sorted.
inline std::vector<std::string> shipped_scenarios() {
  std::vector<std::string> names;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::filesystem::path(ROUTH_SOURCE_DIR) / "scenarios")) {
    if (entry.is_regular_file() && entry.path().extension() == ".yaml")
      names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

/// Shipped scenarios that do not run to their end yet, each with what it ends in today: the
/// tests that run every shipped scenario leave them out, and their own tests are skipped, until
/// the simulator runs them. The scenarios are shipped as the physics asks; remove a line when its
/// scenario completes. (tests/python/conftest.py keeps the same list for the Python tests.)
struct NotYetRunning {
  const char* file;
  const char* reason;
};
inline constexpr NotYetRunning kNotYetRunning[] = {
    {"wall.yaml",
     "takes hours: the static friction of a set beyond kMaxIndeterminacy directions keeps its "
     "minimum-norm forces, which put the side joints of a course outside their cones; they slide "
     "at u_t ~ 1e-31 m/s and their slip witnesses cross zero on round-off, hundreds of mode "
     "events that change nothing, each settling the whole wall (0.025 s: 3 s of CPU; 0.032 s: "
     "144 s)"},
};

/// Whether the shipped scenario `name` (e.g. "wall.yaml") is in kNotYetRunning.
inline bool not_yet_running(const std::string& name) {
  return std::any_of(std::begin(kNotYetRunning), std::end(kNotYetRunning),
                     [&](const NotYetRunning& entry) { return name == entry.file; });
}

struct ScenarioRun {
  Scenario scenario;
  SimulationOutcome outcome;
  TrajectoryMemory trajectory;
};

/// Loads the scenario file at `path` with `overrides` ("key.path=value") and simulates it.
inline ScenarioRun run_scenario_file(const std::string& path,
                                     const std::vector<std::string>& overrides = {}) {
  ScenarioRun run{load_scenario(path, overrides), {}, {}};
  run.outcome =
      simulate(*run.scenario.model, run.scenario.initial, run.scenario.settings, run.trajectory);
  return run;
}

/// Loads the shipped scenario `name` with `overrides` and simulates it.
inline ScenarioRun run_shipped_scenario(const std::string& name,
                                        const std::vector<std::string>& overrides = {}) {
  return run_scenario_file(shipped_scenario(name), overrides);
}

}  // namespace routh::test
