#pragma once
// Where a sweep writes (beside its output file FILE.h5) and the last stage: the table, and the
// CSV when asked, written from the journal.
//
//   FILE.h5            the table (sweep_table.hpp), written when the sweep ends or stops
//   FILE.h5.journal    the finished rows (sweep_journal.hpp); removed once every run is in FILE
//   FILE.csv           the same table as CSV, when `output.csv` is true
//   FILE_runs/         one trajectory per run, run_000042.h5, when `output.trajectories` is true

#include <cstdint>
#include <filesystem>

#include "sim/sweep/sweep_file.hpp"

namespace routh {

struct SweepPaths {
  std::filesystem::path table;
  std::filesystem::path journal;
  std::filesystem::path csv;
  std::filesystem::path trajectories;
};

SweepPaths sweep_paths(const SweepPlan& plan);

/// The base scenario file's text.
std::string base_text(const SweepPlan& plan);

/// Writes the table (and the CSV when the plan asks) from the journal's good rows; each file is
/// written under a temporary name and renamed, so a kill leaves the previous one whole. Returns
/// the number of rows.
std::int64_t write_sweep_table(const SweepPlan& plan, const SweepPaths& paths);

}  // namespace routh
