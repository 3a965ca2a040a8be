#include "tools/routh/run_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <variant>

#include "sim/json_writer.hpp"
#include "sim/recorder/output_placement.hpp"
#include "sim/recorder/trajectory_recorder.hpp"
#include "sim/recorder/trajectory_summary.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/scenario/scenario_run.hpp"
#include "sim/simulation/outcome_figures.hpp"
#include "sim/simulation/simulator.hpp"
#include "sim/simulation/stop_request.hpp"
#include "sim/text.hpp"
#include "tools/routh/recorded_run.hpp"
#include "tools/routh/run_request.hpp"
#include "tools/routh/trajectory_report.hpp"

namespace routh::cli {

namespace {

using Clock = std::chrono::steady_clock;

struct RunOptions {
  RunRequest request;         ///< the scenario, --set, -o and --force
  double time_limit_s = 0.0;  ///< --time-limit [s] of wall-clock time; 0: none
  bool summary_json = false;  ///< --summary: one JSON line instead of the report
};

std::optional<RunOptions> usage_error(std::string_view message) {
  std::cerr << "routh run: " << message << '\n' << kRunUsage;
  return std::nullopt;
}

// --time-limit's value: a number of seconds > 0; inf (or a limit the clock cannot count to) is
// no limit. 0, a negative number and nan are refused.
std::optional<double> seconds(std::string_view text) {
  double value = 0.0;
  const auto parsed = std::from_chars(text.data(), text.data() + text.size(), value);
  if (parsed.ec != std::errc() || parsed.ptr != text.data() + text.size()) return std::nullopt;
  if (!(value > 0.0)) return std::nullopt;
  return value;
}

std::optional<RunOptions> parse_options(CommandArguments arguments) {
  RunOptions options;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string_view argument = arguments[i];
    if (argument == "--time-limit" && i + 1 < arguments.size()) {
      const std::string_view value = arguments[++i];
      const std::optional<double> limit = seconds(value);
      if (!limit) {
        return usage_error(cat("--time-limit ", value, ": expected a number of seconds > 0"));
      }
      options.time_limit_s = *limit;
    } else if (argument == "--summary") {
      options.summary_json = true;
    } else if (const std::string error = read_run_argument(arguments, i, options.request);
               !error.empty()) {
      return usage_error(error);
    }
  }
  if (const std::string error = finish_run_request(options.request); !error.empty()) {
    return usage_error(error);
  }
  return options;
}

// Forwards everything to the recorder and, on a terminal, keeps one progress line up to date
// (at most 10 times a second, so printing never slows the run).
class ProgressObserver final : public TrajectoryObserver {
 public:
  ProgressObserver(TrajectoryObserver& next, double duration_s, bool show)
      : next_(next), duration_s_(duration_s), show_(show) {}

  void record_sample(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                     const Energy& energy, SampleKind kind) override {
    next_.record_sample(t, q, v, energy, kind);
    t_ = t;
    maybe_print();
  }
  void record_event(const EventRecord& event) override {
    next_.record_event(event);
    ++events_;
    maybe_print();
  }
  // Clears the progress line.
  void finish() {
    if (printed_) std::fprintf(stderr, "\r%*s\r", static_cast<int>(width_), "");
  }

 private:
  void maybe_print() {
    if (!show_) return;
    const Clock::time_point now = Clock::now();
    if (printed_ && now - last_print_ < std::chrono::milliseconds(100)) return;
    last_print_ = now;
    printed_ = true;
    const std::string line =
        cat("t = ", t_, " / ", duration_s_, " s (", static_cast<int>(100.0 * t_ / duration_s_),
            "%), ", events_, " events");
    width_ = std::max(width_, line.size());
    std::fprintf(stderr, "\r%-*s", static_cast<int>(width_), line.c_str());
    std::fflush(stderr);
  }

  TrajectoryObserver& next_;
  double duration_s_;
  bool show_;
  double t_ = 0.0;
  long events_ = 0;
  bool printed_ = false;
  std::size_t width_ = 0;
  Clock::time_point last_print_;
};

// The run's outcome, then what the written file says about its physics (read back, so the
// report is the file's, exactly as `routh info` gives it).
// The outcome figures a study asks for, when the run has free bodies or an uplift.
void print_outcome(const SimulationOutcome& outcome) {
  const RunSummary& summary = outcome.summary;
  if (!std::isnan(summary.uplift_time)) {
    std::cout << "uplift       t = " << cat(summary.uplift_time) << " s\n";
  }
  if (summary.overturned) {
    std::cout << "overturned   " << summary.overturned_body
              << " at t = " << cat(summary.overturn_time) << " s\n";
  }
  if (!std::isnan(summary.max_abs_theta_time)) {
    std::cout << "max |theta|  " << cat(summary.max_abs_theta)
              << " rad at t = " << cat(summary.max_abs_theta_time) << " s\n"
              << "max slide    " << cat(summary.max_slide) << " m\n";
  }
}

void print_summary(const Scenario& scenario, const SimulationOutcome& outcome, double wall_s) {
  std::cout << scenario.name << ": " << to_string(outcome.status) << '\n'
            << "simulated    " << cat(outcome.final_state.t) << " s of "
            << cat(scenario.settings.duration) << " s\n"
            << "impacts      " << outcome.impacts << '\n';
  print_outcome(outcome);
  std::cout << "wall time    " << cat(std::round(wall_s * 1e3) / 1e3) << " s\n"
            << "output       " << scenario.output_file.string() << '\n';
  print_physics_report(std::cout, summarize_trajectory(scenario.output_file), 13);
}

// --summary: the run's status, final time and every /summary figure, as one JSON line (the
// file's /summary, member for member, plus status and status_detail).
void print_summary_json(const SimulationOutcome& outcome) {
  JsonWriter json(std::cout);
  json.begin_object(JsonLayout::one_line);
  json.key("status");
  json.value(to_string(outcome.status));
  json.key("status_detail");
  json.value(outcome.detail);
  for (const OutcomeFigure& figure : outcome_figures(outcome)) {
    json.key(figure.name);
    std::visit([&](const auto& value) { json.value(value); }, figure.value);
  }
  json.end_object();  // ends the line
}

// The run into the temporary file, with a progress line on a terminal.
SimulationOutcome record_run(const Scenario& scenario, const std::filesystem::path& path,
                             double time_limit_s, double& wall_s) {
  return record_scenario_run(scenario, path, [&](TrajectoryObserver& recorder) {
    ProgressObserver progress(recorder, scenario.settings.duration, ::isatty(STDERR_FILENO) == 1);
    const Clock::time_point start = Clock::now();
    SimulationOutcome outcome;
    try {
      outcome = run_scenario(scenario, progress, time_limit_s);
    } catch (...) {
      progress.finish();
      throw;
    }
    wall_s = std::chrono::duration<double>(Clock::now() - start).count();
    progress.finish();
    return outcome;
  });
}

}  // namespace

int run_run_command(CommandArguments arguments) {
  if (asks_for_help(arguments)) {
    std::cout << kRunUsage;
    return kExitSuccess;
  }
  const std::optional<RunOptions> options = parse_options(arguments);
  if (!options) return kExitUsage;
  // before anything is written: a signal from here on stops the run cleanly
  const StopRequestHandlers stop_handlers;
  const std::string scenario_path = scenario_source(options->request);
  return run_reporting_errors("run", scenario_path, [&] {
    const PreparedRun prepared = prepare_run(options->request);
    const Scenario& scenario = prepared.scenario;
    const OutputPlacement& placement = prepared.placement;
    double wall_s = 0.0;
    SimulationOutcome outcome;
    try {
      outcome = record_run(scenario, placement.temporary, options->time_limit_s, wall_s);
    } catch (const TrajectoryWriteError& error) {
      print_command_error("run", scenario_path,
                          cat(error.what(), "; the trajectory up to there is kept in ",
                              placement.temporary.string()));
      return kExitOutputError;
    }
    if (!place_output(placement)) {
      print_command_error("run", scenario_path,
                          cat(placement.target.string(),
                              " appeared while the run was writing and was left alone; the "
                              "trajectory is kept in ",
                              placement.temporary.string(), " (use --force to replace)"));
      return kExitOutputError;
    }
    if (options->summary_json) {
      print_summary_json(outcome);
    } else {
      print_summary(scenario, outcome, wall_s);
    }
    if (exit_code(outcome.status) == kExitSuccess) return kExitSuccess;
    std::cerr << "routh run: " << scenario_path
              << ": the run did not complete: " << to_string(outcome.status) << " ("
              << outcome.detail << ") at t = " << cat(outcome.final_state.t) << " s\n";
    return exit_code(outcome.status);
  });
}

}  // namespace routh::cli
