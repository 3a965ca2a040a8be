#include "sim/sweep/sweep_run.hpp"

#include <exception>
#include <limits>
#include <string>

#include "sim/recorder/scenario_recorder.hpp"
#include "sim/recorder/trajectory_recorder.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/scenario/scenario_run.hpp"
#include "sim/scenario/yaml_input.hpp"

namespace routh {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::int64_t kInputErrorCode = 1;  // routh run's code for bad input

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

TableRow failed_row(std::int64_t run, std::span<const SweepValue> values, std::string status,
                    std::string message) {
  TableRow row = key_cells(run, values);
  row.insert(row.end(), {Cell(std::move(status)), Cell(kInputErrorCode), Cell(std::move(message)),
                         Cell(std::int64_t{-1}), Cell(std::int64_t{-1}), Cell(kNaN), Cell(kNaN),
                         Cell(std::int64_t{-1}), Cell(std::string()), Cell(kNaN), Cell(kNaN),
                         Cell(kNaN), Cell(kNaN), Cell(kNaN)});
  return row;
}

SimulationOutcome simulate_run(const Scenario& scenario,
                               const std::filesystem::path& trajectory_file) {
  if (trajectory_file.empty()) {
    DiscardingObserver discard;
    return run_scenario(scenario, discard);
  }
  std::filesystem::remove(trajectory_file);  // a resumed sweep runs again a run a kill cut short
  TrajectoryRecorder recorder = open_scenario_recorder(scenario, trajectory_file);
  const SimulationOutcome outcome = run_scenario(scenario, recorder);
  recorder.set_run_status(outcome.status, outcome.detail);
  recorder.set_summary(outcome);
  recorder.close();
  return outcome;
}

}  // namespace

std::vector<TableColumn> sweep_columns(const SweepPlan& plan) {
  std::vector<TableColumn> columns{{"run", CellType::integer, ""}};
  const std::vector<std::string> keys = swept_keys(plan);
  const std::vector<bool> numeric = swept_key_is_numeric(plan);
  for (std::size_t k = 0; k < keys.size(); ++k) {
    columns.push_back({keys[k], numeric[k] ? CellType::real : CellType::text, ""});
  }
  columns.insert(columns.end(), {{"status", CellType::text, ""},
                                 {"status_code", CellType::integer, ""},
                                 {"message", CellType::text, ""},
                                 {"impacts", CellType::integer, ""},
                                 {"events", CellType::integer, ""},
                                 {"uplift_time", CellType::real, "s"},
                                 {"overturn_time", CellType::real, "s"},
                                 {"overturned", CellType::integer, ""},
                                 {"overturned_body", CellType::text, ""},
                                 {"max_abs_theta", CellType::real, "rad"},
                                 {"max_abs_theta_time", CellType::real, "s"},
                                 {"max_slide", CellType::real, "m"},
                                 {"dissipated_energy", CellType::real, "J"},
                                 {"final_time", CellType::real, "s"}});
  return columns;
}

std::size_t status_column(const SweepPlan& plan) { return 1 + swept_keys(plan).size(); }

TableRow outcome_row(std::int64_t run, std::span<const SweepValue> values,
                     const SimulationOutcome& outcome) {
  const RunSummary& summary = outcome.summary;
  TableRow row = key_cells(run, values);
  row.insert(
      row.end(),
      {Cell(std::string(to_string(outcome.status))), Cell(std::int64_t{exit_code(outcome.status)}),
       Cell(outcome.detail), Cell(std::int64_t{outcome.impacts}),
       Cell(std::int64_t{outcome.events}), Cell(summary.uplift_time), Cell(summary.overturn_time),
       Cell(std::int64_t{summary.overturned ? 1 : 0}), Cell(summary.overturned_body),
       Cell(summary.max_abs_theta), Cell(summary.max_abs_theta_time), Cell(summary.max_slide),
       Cell(summary.dissipated_energy), Cell(outcome.final_state.t)});
  return row;
}

TableRow sweep_run(const SweepPlan& plan, std::int64_t run,
                   const std::filesystem::path& trajectory_file) {
  const std::vector<SweepValue> values = run_values(plan, run);
  try {
    const Scenario scenario = load_scenario(plan.base_path, run_overrides(plan, values));
    return outcome_row(run, values, simulate_run(scenario, trajectory_file));
  } catch (const InputError& error) {
    return failed_row(run, values, "input_error", error.what());
  } catch (const std::exception& error) {
    return failed_row(run, values, "error", error.what());
  }
}

}  // namespace routh
