#include "sim/sweep/sweep_run.hpp"

#include <algorithm>
#include <exception>
#include <limits>
#include <string>
#include <utility>

#include "sim/excitation/excitation_samples.hpp"
#include "sim/excitation/intensity_measures.hpp"
#include "sim/recorder/scenario_recorder.hpp"
#include "sim/recorder/trajectory_recorder.hpp"
#include "sim/scenario/input_file.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/scenario/scenario_run.hpp"
#include "sim/scenario/yaml_input.hpp"
#include "sim/simulation/outcome_figures.hpp"

namespace routh {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::int64_t kInputErrorCode = 1;  // routh run's code for bad input
// A cell's type by the index of its alternative in Cell (and in OutcomeFigure's value).
constexpr CellType kCellTypes[] = {CellType::integer, CellType::real, CellType::text};

// A sweep keeps a run's outcome only: samples and events go nowhere.
class DiscardingObserver final : public TrajectoryObserver {
 public:
  void record_sample(double, const Eigen::VectorXd&, const Eigen::VectorXd&, const Energy&,
                     SampleKind) override {}
  void record_event(const EventRecord&) override {}
};

TableRow key_cells(std::int64_t run, std::span<const SweepValue> values) {
  TableRow row{run};
  for (const SweepValue& value : values) {
    if (std::holds_alternative<double>(value)) {
      row.emplace_back(std::get<double>(value));
    } else {
      row.emplace_back(std::get<std::string>(value));
    }
  }
  return row;
}

// The cell of a figure a run does not have (it never ran, or its model lacks the body): -1 for a
// count or flag, NaN for a quantity, "" for a name.
Cell missing_cell(const OutcomeFigure& figure) {
  return figure.value.index() == 0   ? Cell(std::int64_t{-1})
         : figure.value.index() == 1 ? Cell(kNaN)
                                     : Cell(std::string());
}

// The per-body columns: body_figures() of each body run 0 watches, after the whole model's.
void append_body_columns(const SweepPlan& plan, std::vector<TableColumn>& columns) {
  for (const std::string& body : plan.watched_bodies) {
    for (const OutcomeFigure& figure : body_figures(BodyOutcome{.body = body})) {
      columns.push_back({figure.name, kCellTypes[figure.value.index()], std::string(figure.unit)});
    }
  }
}

// Their cells, from the same-named body among `bodies` (a run's; none for a run that never ran).
void append_body_cells(const SweepPlan& plan, std::span<const BodyOutcome> bodies, TableRow& row) {
  for (const std::string& name : plan.watched_bodies) {
    const auto body = std::find_if(bodies.begin(), bodies.end(),
                                   [&](const BodyOutcome& b) { return b.body == name; });
    if (body != bodies.end()) {
      for (OutcomeFigure& figure : body_figures(*body)) row.push_back(std::move(figure.value));
    } else {
      for (const OutcomeFigure& figure : body_figures(BodyOutcome{.body = name})) {
        row.push_back(missing_cell(figure));
      }
    }
  }
}

TableRow failed_row(const SweepPlan& plan, std::int64_t run, std::span<const SweepValue> values,
                    std::string status, std::string message) {
  TableRow row = key_cells(run, values);
  row.insert(row.end(), {Cell(std::move(status)), Cell(kInputErrorCode), Cell(std::move(message))});
  // a run that never ran has no figures
  for (const OutcomeFigure& figure : model_figures(SimulationOutcome{})) {
    row.push_back(missing_cell(figure));
  }
  append_body_cells(plan, {}, row);
  return row;
}

// A trajectory file that cannot be made (a vanished or unwritable folder) is the sweep's output
// fault, not the run's outcome.
TrajectoryRecorder open_run_trajectory(const Scenario& scenario,
                                       const std::filesystem::path& trajectory_file) {
  try {
    std::filesystem::remove(trajectory_file);  // a resumed sweep runs again a run a kill cut short
    return open_scenario_recorder(scenario, trajectory_file);
  } catch (const std::runtime_error& error) {
    throw OutputWriteError(error.what(), 0);
  }
}

SimulationOutcome simulate_run(const Scenario& scenario,
                               const std::filesystem::path& trajectory_file) {
  if (trajectory_file.empty()) {
    DiscardingObserver discard;
    return run_scenario(scenario, discard);
  }
  TrajectoryRecorder recorder = open_run_trajectory(scenario, trajectory_file);
  const SimulationOutcome outcome = run_scenario(scenario, recorder);
  recorder.set_run_status(outcome.status, outcome.detail);
  recorder.set_summary(outcome);
  recorder.close();
  return outcome;
}

// --- the ground motion's columns -----------------------------------------------------------
// When the base scenario has an excitation (plan.base_is_excited), after the outcome: the first
// record signal's file (relative to the base scenario's folder) and the intensity measures of the
// ground motion as applied along the first signal's direction over [0, duration]
// (excitation_samples.hpp). They cost O(samples) per run, as reading the record does.

void add_ground_motion_columns(std::vector<TableColumn>& columns) {
  columns.push_back({"record", CellType::text, ""});
  for (const MeasureField& field : kMeasureFields) {
    columns.push_back({std::string(field.name), CellType::real, std::string(field.unit)});
  }
}

// The cells of a run that never started: no record, NaN measures.
void add_missing_ground_motion(TableRow& row) {
  row.emplace_back(std::string());
  row.insert(row.end(), kMeasureFields.size(), Cell(kNaN));
}

void add_ground_motion(TableRow& row, const SweepPlan& plan, const Scenario& scenario) {
  const std::filesystem::path folder =
      std::filesystem::absolute(plan.base_path).parent_path().lexically_normal();
  row.emplace_back(scenario.record_files.empty()
                       ? std::string()
                       : scenario.record_files.front().lexically_relative(folder).string());
  IntensityMeasures measures;
  if (scenario.excitation) {
    const GroundMotionSamples samples = sample_excitation(
        *scenario.excitation, scenario.excitation->front().direction, scenario.settings.duration);
    measures = intensity_measures(samples.time_s, samples.acceleration_m_s2);
  }
  for (const MeasureField& field : kMeasureFields) row.emplace_back(measures.*field.value);
}

}  // namespace

std::vector<TableColumn> sweep_columns(const SweepPlan& plan) {
  std::vector<TableColumn> columns{{"run", CellType::integer, ""}};
  const std::vector<std::string> keys = swept_keys(plan);
  const std::vector<bool> numeric = swept_key_is_numeric(plan);
  const std::vector<std::string> units = swept_key_units(plan);
  for (std::size_t k = 0; k < keys.size(); ++k) {
    columns.push_back({keys[k], numeric[k] ? CellType::real : CellType::text, units[k]});
  }
  columns.insert(columns.end(), {{"status", CellType::text, ""},
                                 {"status_code", CellType::integer, ""},
                                 {"message", CellType::text, ""}});
  for (const OutcomeFigure& figure : model_figures(SimulationOutcome{})) {
    columns.push_back({figure.name, kCellTypes[figure.value.index()], std::string(figure.unit)});
  }
  append_body_columns(plan, columns);
  if (plan.base_is_excited) add_ground_motion_columns(columns);
  return columns;
}

std::size_t status_column(const SweepPlan& plan) { return 1 + swept_keys(plan).size(); }

TableRow outcome_row(const SweepPlan& plan, std::int64_t run, std::span<const SweepValue> values,
                     const SimulationOutcome& outcome) {
  TableRow row = key_cells(run, values);
  row.insert(row.end(), {Cell(std::string(to_string(outcome.status))),
                         Cell(std::int64_t{exit_code(outcome.status)}), Cell(outcome.detail)});
  for (OutcomeFigure& figure : model_figures(outcome)) row.push_back(std::move(figure.value));
  append_body_cells(plan, outcome.summary.bodies, row);
  return row;
}

TableRow sweep_run(const SweepPlan& plan, std::int64_t run,
                   const std::filesystem::path& trajectory_file) {
  const std::vector<SweepValue> values = run_values(plan, run);
  const auto failed = [&](std::string status, std::string message) {
    TableRow row = failed_row(plan, run, values, std::move(status), std::move(message));
    if (plan.base_is_excited) add_missing_ground_motion(row);
    return row;
  };
  try {
    const Scenario scenario = load_scenario(plan.base_path, run_overrides(plan, values));
    TableRow row = outcome_row(plan, run, values, simulate_run(scenario, trajectory_file));
    if (plan.base_is_excited) add_ground_motion(row, plan, scenario);
    return row;
  } catch (const InputInterrupted& interrupted) {
    // the sweep's own stop, met while the run's inputs were read: abandoned, as a run it cuts
    return failed("interrupted", interrupted.what());
  } catch (const InputError& error) {
    return failed("input_error", error.what());
  } catch (const OutputWriteError&) {
    throw;  // the sweep's fault: this run is not done
  } catch (const std::exception& error) {
    return failed("error", error.what());
  }
}

}  // namespace routh
