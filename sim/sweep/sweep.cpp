#include "sim/sweep/sweep.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <limits>
#include <optional>
#include <stdexcept>
#include <thread>

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

// The files a sweep reads, which none of its outputs may replace: the sweep file, the base
// scenario and the record files of its first run (loaded as check_first_run loads it).
std::vector<InputFile> sweep_inputs(const SweepPlan& plan) {
  std::vector<InputFile> inputs{{plan.sweep_path, "the sweep file"},
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
  const std::vector<InputFile> inputs = sweep_inputs(plan);
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
  if (!paths.table.parent_path().empty()) fs::create_directories(paths.table.parent_path());
  if (plan.output.trajectories) fs::create_directories(paths.trajectories);
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

// The other ranks' rows and end, received on rank 0 until each has said it is done.
void receive_remote_rows(SweepRanks& ranks, RowSequencer& sequencer) {
  while (std::optional<std::string> line = ranks.receive_row()) {
    const std::int64_t run = line_run(*line);
    sequencer.push(run, std::move(*line));
  }
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
  if (first_run == kNotStarted) return {SweepEnd::not_started, 0, 0};
  if (first_run == kAlreadyComplete) return {SweepEnd::already_complete, plan.run_count(), 0};

  const RunShare share{first_run, ranks.rank(), ranks.ranks()};
  const ShareOptions share_options{
      options.jobs, kWindowPerJob * std::max(1, options.jobs),
      plan.output.trajectories ? paths.trajectories : std::filesystem::path()};
  if (ranks.rank() != 0) {
    const ShareEnd end =
        run_share(plan, share, share_options,
                  {[&](std::int64_t, std::string&& line) { ranks.send_row(line); },
                   [] { return std::numeric_limits<std::int64_t>::max(); }, [] {}});
    ranks.send_done();
    return {end == ShareEnd::stopped ? SweepEnd::stopped : SweepEnd::complete, 0, 0};
  }

  std::optional<SweepJournal> journal;
  journal.emplace(SweepJournal::append_to(paths.journal));
  RowSequencer sequencer(*journal, first_run);
  const auto report = [&] {
    if (progress) progress({sequencer.written(), first_run, plan.run_count()});
  };
  run_share(plan, share, share_options,
            {[&](std::int64_t run, std::string&& line) { sequencer.push(run, std::move(line)); },
             [&] { return sequencer.written(); },
             [&] {
               receive_remote_rows(ranks, sequencer);
               report();
             }});
  while (!ranks.others_done()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    receive_remote_rows(ranks, sequencer);
  }
  report();
  journal.reset();
  const std::int64_t rows = write_sweep_table(plan, paths);
  const bool complete = rows == plan.run_count();
  if (complete) std::filesystem::remove(paths.journal);
  // rank 0's share may finish while another rank was stopped: the table says which
  return {complete ? SweepEnd::complete : SweepEnd::stopped, rows, rows - first_run};
}

}  // namespace routh
