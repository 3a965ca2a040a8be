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

/// The scenario argument that reads the scenario's YAML from standard input.
inline constexpr std::string_view kStandardInputArgument = "-";
/// Where an error in a scenario read from standard input is located: "<stdin>:LINE:COLUMN".
inline constexpr std::string_view kStandardInputSource = "<stdin>";

/// The arguments `routh run` and `routh check` share.
struct RunRequest {
  std::string scenario_path;           ///< the scenario file, or kStandardInputArgument
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

/// What messages name the scenario by: its file, or kStandardInputSource.
std::string scenario_source(const RunRequest& request);

/// The scenario loaded and the output placed, nothing written yet.
struct PreparedRun {
  Scenario scenario;
  OutputPlacement placement;
};

/// Loads the scenario (its warnings go to stderr), from its file or, for "-", from standard input
/// (at most the scenario file's size limit), and plans its output. Throws InputError
/// (file:line:column, or the --set override) or std::runtime_error naming the output file.
PreparedRun prepare_run(const RunRequest& request);

}  // namespace routh::cli
