#include "sim/sweep/sweep.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <limits>
#include <optional>
#include <stdexcept>
#include <thread>

#include "sim/recorder/file_room.hpp"
#include "sim/recorder/output_placement.hpp"
#include "sim/recorder/sweep_table.hpp"
#include "sim/scenario/scenario_file.hpp"
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

// The files a sweep reads, which none of its outputs may replace: the sweep file, the base
// scenario and the record files of its first run (loaded as check_first_run loads it).
std::vector<ReadInput> sweep_inputs(const SweepPlan& plan) {
  std::vector<ReadInput> inputs{{plan.sweep_path, "the sweep file"},
                                {plan.base_path, "the base scenario"}};
  const Scenario first = load_scenario(plan.base_path, run_overrides(plan, run_values(plan, 0)));
  for (const std::filesystem::path& record : first.record_files) {
    inputs.push_back({record, cat("the record file ", record.string())});
  }
  return inputs;
}

// The output rule (output_placement.hpp) for every file and folder the sweep writes, before any
// is touched: each its own name; none an input, a device or a FIFO, even with --force; an
// existing one only with --force (start again) or --resume (continue); the trajectories folder,
// if it exists, a folder.
void check_sweep_outputs(const SweepPlan& plan, const SweepOptions& options,
                         const SweepPaths& paths) {
  namespace fs = std::filesystem;
  const std::vector<ReadInput> inputs = sweep_inputs(plan);
  std::vector<fs::path> files{paths.table, paths.journal};
  if (plan.output.csv) files.push_back(paths.csv);
  std::vector<fs::path> outputs = files;
  if (plan.output.trajectories) outputs.push_back(paths.trajectories);
  check_distinct_outputs(outputs);
  for (const fs::path& file : files) check_output(file, inputs, true);
  if (!options.resume && !options.force) {
    for (const fs::path& output : outputs) {
      if (fs::exists(fs::symlink_status(output))) {
        throw OutputRefused(cat(output.string(),
                                " exists: continue the sweep with --resume, or start it again "
                                "with --force"),
                            EEXIST);
      }
    }
  }
  std::error_code error;
  if (plan.output.trajectories && fs::exists(paths.trajectories, error) &&
      !fs::is_directory(paths.trajectories, error)) {
    throw OutputRefused(cat("trajectories folder ", paths.trajectories.string(),
                            " exists and is not a folder; choose another output file"),
                        EINVAL);
  }
}

// Rank 0: makes the output ready; returns the first run to do, or kAlreadyComplete. With
// --force the journal starts again; the table and the CSV are replaced only when the new ones
// are written (SweepTableWriter and the CSV writer rename their temporary files onto them).
// `lock` holds the journal while this process writes it: a journal another sweep holds is
// refused before it is removed (--force) or appended to (--resume).
std::int64_t prepare_output(const SweepPlan& plan, const SweepOptions& options,
                            const SweepPaths& paths, std::optional<OutputLock>& lock) {
  namespace fs = std::filesystem;
  check_sweep_outputs(plan, options, paths);
  if (fs::exists(paths.journal)) lock.emplace(paths.journal);
  if (options.force) fs::remove(paths.journal);
  if (!paths.table.parent_path().empty()) create_output_folder(paths.table.parent_path());
  if (plan.output.trajectories) create_output_folder(paths.trajectories);
  const std::string fingerprint = sweep_fingerprint(plan.sweep_text, base_text(plan));
  if (fs::exists(paths.journal)) {
    const JournalScan scan = scan_journal(paths.journal, fingerprint, sweep_columns(plan));
    fs::resize_file(paths.journal, scan.valid_bytes);  // drops a torn last line
    return scan.rows;
  }
  if (!options.force && fs::exists(paths.table)) {
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
  lock.emplace(paths.journal);
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
  std::optional<OutputLock> lock;  // rank 0's hold on the journal, until the sweep returns
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
