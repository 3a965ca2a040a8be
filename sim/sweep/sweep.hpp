#pragma once
// A whole sweep (docs/sweeps.md, `routh sweep`): prepares the output, runs this
// process's share of the runs on threads, journals the rows in run order, and writes the table.
//
// Output safety (sim/recorder/output_placement.hpp, the rule `routh run` follows too). No output
// may be the sweep file, the base scenario or a record file of the first run, nor a directory,
// device or FIFO, even with `force`; the table, journal, CSV and trajectories folder must have
// distinct names. Without `resume` or `force`, any of them existing is an error. `force` removes
// the journal and starts again; the table and CSV are replaced only when the new ones are
// renamed onto them. `resume` continues after the journal's good rows (sweep_journal.hpp); with
// no journal it starts afresh, unless the table already holds every run (then nothing is run).
// Rank 0 holds a lock on the journal while the sweep runs: a second sweep naming the same output
// is refused, whatever its flags (OutputRefused, EBUSY).
//
// Output faults. A journal line, trajectory or table that cannot be written (OutputWriteError:
// a full disk, a size limit, a vanished folder) stops every thread and rank like a stop request;
// the rows journaled before it stay, and the result says output_fault.
//
// Under MPI (sweep_ranks.hpp) rank 0 prepares and tells the others where to start; all ranks run
// their strided share; rank 0 journals every row and writes the table. The rows depend on the run
// index only, so the table is bit-identical whatever the numbers of threads and ranks.

#include <cstdint>
#include <functional>
#include <string>

#include "sim/sweep/sweep_file.hpp"
#include "sim/sweep/sweep_ranks.hpp"

namespace routh {

struct SweepOptions {
  int jobs = 1;  ///< worker threads in this process
  bool resume = false;
  bool force = false;
};

/// Where a sweep is, for a progress display (rank 0).
struct SweepProgress {
  std::int64_t written = 0;    ///< rows in the journal
  std::int64_t first_run = 0;  ///< rows there before this process started (a resume)
  std::int64_t run_count = 0;  ///< the sweep's runs
};

enum class SweepEnd {
  complete,          ///< every run is in the table
  already_complete,  ///< --resume found the table complete: nothing to do
  stopped,           ///< SIGINT/SIGTERM: the table holds the rows before the stop
  not_started,       ///< on a rank other than 0: rank 0 could not prepare the output
  /// a row or trajectory could not be written (a full disk, a size limit, a vanished folder):
  /// every rank stopped; the journal holds the rows before the fault, the table too if it could
  /// be written. A rank other than 0 that stopped for it has an empty `fault` (rank 0 says it)
  output_fault,
};

struct SweepResult {
  SweepEnd end = SweepEnd::complete;
  std::int64_t rows = 0;        ///< rows in the table, or in the journal after a fault (rank 0)
  std::int64_t rows_added = 0;  ///< of which this invocation ran (rank 0)
  std::string fault;            ///< output_fault: what could not be written, and why
  bool table_written = true;    ///< output_fault: whether the table holds the `rows`
};

/// Runs the sweep. Throws std::runtime_error when the output cannot be prepared (on rank 0; the
/// other ranks then return not_started): OutputRefused when an output breaks the rule (EBUSY:
/// another sweep is writing the table), OutputWriteError when a folder or the journal cannot be
/// created. A fault after that is the result's output_fault. `progress` is called on rank 0
/// after rows arrive, at most every 10 ms.
SweepResult run_sweep(const SweepPlan& plan, const SweepOptions& options, SweepRanks& ranks,
                      const std::function<void(const SweepProgress&)>& progress = {});

}  // namespace routh
