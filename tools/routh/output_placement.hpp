#pragma once
// Where `routh run` writes its trajectory so that a file in a campaign can be trusted: never over
// an existing file without --force, never over the scenario it reads, and never half-written under
// the target's name. The run writes to a temporary file beside the target (same directory, so the
// final rename is atomic) and renames it onto the target when the run ends; two runs naming the
// same target each write their own temporary file and cannot destroy each other's.

#include <filesystem>

namespace routh::cli {

struct OutputPlacement {
  std::filesystem::path target;     ///< the file the user asked for
  std::filesystem::path temporary;  ///< ".TARGET_NAME.tmp-PID" in the target's directory
  bool force = false;               ///< --force: replace an existing target
};

/// Checks the target before anything is written and names the temporary file (it creates
/// nothing). Throws std::runtime_error naming the file when the target is the scenario file
/// itself (same file, by device and inode, whatever the spelling; even with force), when,
/// without force, it already exists, or when its folder does not exist or cannot be written.
OutputPlacement plan_output(const std::filesystem::path& target,
                            const std::filesystem::path& scenario, bool force);

/// Renames the temporary file onto the target; with force it replaces an existing target. Without
/// force, a target that appeared since plan_output() is left alone and false is returned (the
/// temporary file keeps the run). Throws OutputWriteError naming both files when the rename
/// fails otherwise.
bool place_output(const OutputPlacement& placement);

}  // namespace routh::cli
