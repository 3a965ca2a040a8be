#pragma once
// A scenario run as the command line asks for it, and everything `routh run` checks before it
// writes: the scenario file with its --set overrides (model, laws, contact parameters,
// excitation and its record files, output settings) and where the trajectory would go
// (sim/recorder/output_placement.hpp). `routh run` goes on to simulate; `routh check` stops here,
// so it refuses exactly what run would refuse before its first write.

#include <optional>
#include <string>
#include <vector>

#include "sim/recorder/output_placement.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "tools/routh/command.hpp"

namespace routh::cli {

/// The arguments `routh run` and `routh check` share.
struct RunRequest {
  std::string scenario_path;
  std::vector<std::string> overrides;  ///< --set, in order
  std::optional<std::string> output;   ///< -o FILE: output.file, over any --set of it
  bool force = false;                  ///< --force: replace an existing output file
};

/// Takes arguments[i] into `request` (advancing i past its value): -o FILE, --set
/// key.path=value, --force or the scenario file. Returns the usage error, "" when there is none;
/// a command reads its own options first and passes every other argument here, which makes an
/// unknown option an error.
std::string read_run_argument(CommandArguments arguments, std::size_t& i, RunRequest& request);

/// After the last argument: the usage error, "" when there is none.
std::string finish_run_request(const RunRequest& request);

/// The scenario loaded and the output placed, nothing written yet.
struct PreparedRun {
  Scenario scenario;
  OutputPlacement placement;
};

/// Loads the scenario (its warnings go to stderr) and plans its output. Throws InputError
/// (file:line:column, or the --set override) or std::runtime_error naming the output file.
PreparedRun prepare_run(const RunRequest& request);

}  // namespace routh::cli
