#pragma once
// Reading a file that HDF5 may crash or hang on, in a child process: HDF5 1.10 trusts the
// addresses and sizes it reads, and some damaged files (bytes changed, or cut off) make it read
// out of bounds (SIGSEGV), fail an assertion (SIGABRT) or loop. The child does the reading and
// printing; the parent only waits, so it can still tell the user what happened.

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace routh::cli {

/// How a guarded reading ended: its exit code, or why it has none.
struct GuardedReading {
  std::optional<int> exit_code;  ///< the child's, when it returned
  std::string failure;  ///< otherwise, e.g. "reading it crashed (SIGSEGV)" or "... did not end"
};

/// Runs `read` in a forked child process (which ends with its return value) and waits for it at
/// most `time_limit`; kills it (SIGKILL) after that. Standard output and error are the child's
/// too, flushed before it ends. Throws std::runtime_error if no child can be started.
GuardedReading read_in_child(const std::function<int()>& read,
                             std::chrono::milliseconds time_limit);

/// A command that reads a sweep table (`routh fragility`, `routh ida`): runs `work` in a child
/// process (read_in_child, for at most kSweepStudyTimeLimit) and reports as
/// run_reporting_errors does, a damaged table (DamagedSweepTableError, or HDF5 crashing or
/// hanging on it) with kExitDamagedFile. Returns the exit code.
int run_on_sweep_table(std::string_view command, const std::string& path,
                       const std::function<int()>& work);

/// Reading a table and fitting its study take seconds; only a damaged file that makes HDF5 loop
/// takes this long.
inline constexpr std::chrono::minutes kSweepStudyTimeLimit{10};

}  // namespace routh::cli
