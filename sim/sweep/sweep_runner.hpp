#pragma once
// Running a share of a sweep's runs on worker threads. Workers take the share's runs in
// increasing index order; the calling thread receives each finished row (in the order they
// finish) and keeps the workers from getting more than `window` runs ahead of the rows written,
// which bounds the reorder buffer (sweep_sequencer.hpp) whatever the runs' lengths.
//
// Stopping: once stop_requested() (SIGINT/SIGTERM, stop_request.hpp) no run starts; runs in
// flight see the same flag, end `interrupted` at their next step, and their rows are dropped, so
// a resumed sweep runs them again. A fault (a row or trajectory that cannot be written) stops
// the share too: no run starts, the runs in flight finish, and their rows are dropped.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

#include "sim/sweep/sweep_file.hpp"

namespace routh {

/// Which runs this process does: indices i ≥ first_run with i mod ranks = rank (a strided share
/// between MPI ranks; rank 0 of 1 does them all).
struct RunShare {
  std::int64_t first_run = 0;
  int rank = 0;
  int ranks = 1;
};

struct ShareOptions {
  int jobs = 1;                        ///< worker threads
  std::int64_t window = 256;           ///< the most runs started past the rows written
  std::filesystem::path trajectories;  ///< folder for one trajectory file per run; empty: none
};

/// The calling thread's part. `deliver` gets each kept row as its journal line
/// (sweep_journal.hpp) with its run index; `written` returns the index of the first run whose row
/// is not yet written (INT64_MAX where rows are not written here, e.g. on a rank other than 0);
/// `poll` is called at least every 10 ms (MPI messages, progress) and returns true to stop the
/// share as a stop request would (e.g. rank 0 asked the others to stop).
struct ShareCallbacks {
  std::function<void(std::int64_t run, std::string&& line)> deliver;
  std::function<std::int64_t()> written;
  std::function<bool()> poll;
};

enum class ShareEnd { finished, stopped };

/// Runs the share and returns when every one of its runs was delivered, or, after a stop request,
/// when the runs in flight have ended. Anything a worker or a callback throws (an output that
/// cannot be written) stops the share the same way and is rethrown once the workers have left;
/// rows finished after it are not delivered.
ShareEnd run_share(const SweepPlan& plan, const RunShare& share, const ShareOptions& options,
                   const ShareCallbacks& callbacks);

/// The file name of run `run`'s trajectory: "run_000042.h5" (six digits at least).
std::string trajectory_file_name(std::int64_t run);

}  // namespace routh
