#include "sim/sweep/sweep.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>
#include <stdexcept>
#include <thread>

#include "sim/recorder/file_room.hpp"
#include "sim/recorder/sweep_table.hpp"
#include "sim/sweep/sweep_journal.hpp"
#include "sim/sweep/sweep_output.hpp"
#include "sim/sweep/sweep_run.hpp"
#include "sim/sweep/sweep_runner.hpp"
#include "sim/sweep/sweep_sequencer.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

constexpr std::int64_t kNotStarted = -1;
constexpr std::int64_t kAlreadyComplete = -2;
// runs started past the last row written, per worker: enough that a long run does not idle the
// others, few enough that the reorder buffer stays small (a row is a few hundred bytes)
constexpr std::int64_t kWindowPerJob = 64;

// Makes `folder` (and its parents), an output fault when it cannot be made.
void create_output_folder(const std::filesystem::path& folder) {
  try {
    std::filesystem::create_directories(folder);
  } catch (const std::filesystem::filesystem_error& error) {
    throw OutputWriteError(
        cat(folder.string(), ": cannot create the folder: ", error.code().message()),
        error.code().value());
  }
}

// Rank 0: makes the output ready and locks its journal in `lock`, first of all, so that a sweep
// on a table another sweep is writing touches nothing; returns the first run to do, or
// kAlreadyComplete.
std::int64_t prepare_output(const SweepPlan& plan, const SweepOptions& options,
                            const SweepPaths& paths, std::optional<JournalLock>& lock) {
  namespace fs = std::filesystem;
  if (fs::exists(paths.journal)) lock.emplace(JournalLock::take(paths.journal));
  if (options.force) {
    fs::remove(paths.journal);
    fs::remove(paths.table);
  }
  if (!options.resume && (fs::exists(paths.table) || fs::exists(paths.journal))) {
    throw std::runtime_error(cat((fs::exists(paths.table) ? paths.table : paths.journal).string(),
                                 " exists: continue the sweep with --resume, or start it again "
                                 "with --force"));
  }
  if (!paths.table.parent_path().empty()) create_output_folder(paths.table.parent_path());
  if (plan.output.trajectories) create_output_folder(paths.trajectories);
  const std::string fingerprint = sweep_fingerprint(plan.sweep_text, base_text(plan));
  if (fs::exists(paths.journal)) {
    const JournalScan scan = scan_journal(paths.journal, fingerprint, sweep_columns(plan));
    fs::resize_file(paths.journal, scan.valid_bytes);  // drops a torn last line
    return scan.rows;
  }
  if (fs::exists(paths.table)) {
    const SweepTable table = read_sweep_table(paths.table);
    if (table.sweep_text != plan.sweep_text || table.base_text != base_text(plan)) {
      throw std::runtime_error(cat(paths.table.string(),
                                   " holds another sweep (its sweep or base file differs); start "
                                   "again with --force"));
    }
    if (static_cast<std::int64_t>(table.rows.size()) == plan.run_count()) return kAlreadyComplete;
    throw std::runtime_error(cat(paths.table.string(), " holds ", table.rows.size(), " of ",
                                 plan.run_count(), " runs but its journal ", paths.journal.string(),
                                 " is gone: start again with --force"));
  }
  SweepJournal::create(paths.journal, fingerprint);
  lock.emplace(JournalLock::take(paths.journal));
  return 0;
}

// The other ranks' rows and ends, received on rank 0 until each has said it is done.
void receive_remote_rows(SweepRanks& ranks,
                         const std::function<void(std::int64_t, std::string&&)>& keep_row) {
  while (std::optional<std::string> line = ranks.receive_row()) {
    const std::int64_t run = line_run(*line);
    keep_row(run, std::move(*line));
  }
}

// Ranks other than 0: runs this rank's share and tells rank 0 how it ended.
SweepResult run_remote_share(const SweepPlan& plan, const RunShare& share,
                             const ShareOptions& share_options, SweepRanks& ranks) {
  std::string fault;
  ShareEnd end = ShareEnd::stopped;
  try {
    end = run_share(plan, share, share_options,
                    {[&](std::int64_t, std::string&& line) { ranks.send_row(line); },
                     [] { return std::numeric_limits<std::int64_t>::max(); },
                     [&] { return ranks.stop_received(); }});
  } catch (const OutputWriteError& error) {
    fault = error.what();
  }
  ranks.send_done(fault);
  // rank 0 asks the others to stop only after a fault, which it reports
  if (!fault.empty() || ranks.stop_received()) return {SweepEnd::output_fault, 0, 0, fault};
  return {end == ShareEnd::stopped ? SweepEnd::stopped : SweepEnd::complete, 0, 0, {}};
}

// Writes the table from the journal's `journaled` rows. After an output fault (`fault`), or when
// the table itself cannot be written, the result is output_fault: the journal keeps the rows,
// and the table too if it could be written (a size limit may leave room for it).
SweepResult write_table(const SweepPlan& plan, const SweepPaths& paths, std::int64_t journaled,
                        std::int64_t first_run, std::string fault) {
  std::int64_t rows = journaled;
  try {
    rows = write_sweep_table(plan, paths);
  } catch (const OutputWriteError& error) {
    if (fault.empty()) fault = error.what();
    return {SweepEnd::output_fault, journaled, journaled - first_run, fault, false};
  }
  if (!fault.empty()) return {SweepEnd::output_fault, rows, rows - first_run, fault, true};
  const bool complete = rows == plan.run_count();
  if (complete) std::filesystem::remove(paths.journal);
  // rank 0's share may finish while another rank was stopped: the table says which
  return {complete ? SweepEnd::complete : SweepEnd::stopped, rows, rows - first_run, {}, true};
}

}  // namespace

SweepResult run_sweep(const SweepPlan& plan, const SweepOptions& options, SweepRanks& ranks,
                      const std::function<void(const SweepProgress&)>& progress) {
  const SweepPaths paths = sweep_paths(plan);
  std::int64_t first_run = kNotStarted;
  std::optional<JournalLock> lock;  // rank 0's, held until the sweep returns
  if (ranks.rank() == 0) {
    try {
      first_run = prepare_output(plan, options, paths, lock);
    } catch (...) {
      ranks.broadcast(kNotStarted);
      throw;
    }
  }
  first_run = ranks.broadcast(first_run);
  if (first_run == kNotStarted) return {SweepEnd::not_started, 0, 0, {}};
  if (first_run == kAlreadyComplete) return {SweepEnd::already_complete, plan.run_count(), 0, {}};

  const RunShare share{first_run, ranks.rank(), ranks.ranks()};
  const ShareOptions share_options{
      options.jobs, kWindowPerJob * std::max(1, options.jobs),
      plan.output.trajectories ? paths.trajectories : std::filesystem::path()};
  if (ranks.rank() != 0) return run_remote_share(plan, share, share_options, ranks);

  std::optional<SweepJournal> journal;
  journal.emplace(SweepJournal::append_to(paths.journal));
  RowSequencer sequencer(*journal, first_run);
  // The first output fault here or on another rank ("" none): rows after it are dropped, every
  // rank stops, and what was journaled before it stays.
  std::string fault;
  const auto keep_row = [&](std::int64_t run, std::string&& line) {
    if (!fault.empty()) return;
    try {
      sequencer.push(run, std::move(line));
    } catch (const OutputWriteError& error) {
      fault = error.what();
    }
  };
  const auto report = [&] {
    if (progress) progress({sequencer.written(), first_run, plan.run_count()});
  };
  const auto faulted = [&] {
    if (fault.empty()) fault = ranks.remote_fault();
    return !fault.empty();
  };
  try {
    run_share(plan, share, share_options,
              {keep_row, [&] { return sequencer.written(); },
               [&] {
                 receive_remote_rows(ranks, keep_row);
                 report();
                 return faulted();
               }});
  } catch (const OutputWriteError& error) {
    if (fault.empty()) fault = error.what();
  }
  if (faulted()) ranks.send_stop();
  while (!ranks.others_done()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    receive_remote_rows(ranks, keep_row);
  }
  faulted();
  report();
  journal.reset();
  return write_table(plan, paths, sequencer.written(), first_run, fault);
}

}  // namespace routh
