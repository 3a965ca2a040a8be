#pragma once
// One run of a sweep: its scenario (the base with the run's overrides), simulated by the same
// run_scenario() as `routh run`, reduced to one table row.
//
// Columns, in order (units in each dataset's `units` attribute):
//   run                 int64    the run index (sweep_file.hpp says how it maps to the values)
//   <each swept key>    float64  for numbers (m/s^2 when given in g), text otherwise (choice
//                                values are text); then the keys pulse ratios set [s, m/s^2]
//   status              text     a RunStatus name (run_status.hpp), or input_error (the run's
//                                scenario was refused, e.g. a drawn value out of range) or error
//                                (anything else thrown)
//   status_code         int64    what `routh run` would exit with: 0 completed (or stopped on an
//                                event asked for), 3–9 trouble, 130 interrupted, 1 input_error
//                                or error
//   message             text     why a run did not complete, "" when it did
//   impacts, events     int64    counts; −1 when the run could not start
//   uplift_time, overturn_time   float64 [s], NaN if none
//   overturned          int64    0 or 1; −1 when the run could not start
//   overturned_body     text
//   max_abs_theta       float64 [rad], max_abs_theta_time [s], max_slide [m],
//   dissipated_energy   float64 [J],
//   final_time          float64 [s]; NaN when the run could not start
//   then per body that run 0 watches (SweepPlan::watched_bodies), in its order, BODY.:
//   max_abs_theta [rad], max_theta_over_alpha [-], overturned (int64 0/1), overturn_time [s],
//   impacts_before_overturn (int64, −1 if it did not overturn), max_slide [m],
//   residual_rotation [rad], residual_slide [m] (outcome_figures.hpp); −1 and NaN in a run
//   whose model lacks the body or that could not start
//   and last, when the base scenario has an excitation, its ground motion (docs/sweeps.md):
//   record              text     the first record signal's file, relative to the base scenario's
//                                folder; "" without a record
//   pga [m/s²], pgv [m/s], pgd [m], arias [m/s], cav [m/s], d5_95 [s]   float64: the intensity
//                                measures (intensity_measures.hpp) of the ground acceleration as
//                                applied along the first signal's direction over [0, duration];
//                                NaN when the run could not start
// Wall time is not a column: the table is the same on any machine and any number of workers.

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "sim/recorder/file_room.hpp"
#include "sim/recorder/sweep_table.hpp"
#include "sim/simulation/simulator.hpp"
#include "sim/sweep/sweep_file.hpp"

namespace routh {

/// The table's columns for `plan`, in the order above.
std::vector<TableColumn> sweep_columns(const SweepPlan& plan);

/// The row of a run of `plan` that simulated and ended with `outcome`.
TableRow outcome_row(const SweepPlan& plan, std::int64_t run, std::span<const SweepValue> values,
                     const SimulationOutcome& outcome);

/// Loads and runs run `run` of `plan`, writing its trajectory to `trajectory_file` unless that is
/// empty. Never throws for the run's own trouble: a refused scenario or an exception becomes a
/// row with status input_error or error and its message, so the other runs go on. A trajectory
/// that cannot be written (a full disk, a size limit, a vanished folder) is the sweep's trouble,
/// not the run's: it throws OutputWriteError (file_room.hpp) and the run has no row.
TableRow sweep_run(const SweepPlan& plan, std::int64_t run,
                   const std::filesystem::path& trajectory_file);

/// The index of the status column and of the run column, for readers of a row.
inline constexpr std::size_t kRunColumn = 0;
std::size_t status_column(const SweepPlan& plan);

}  // namespace routh
