#include "tools/routh/run_command.hpp"

#include <unistd.h>

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "sim/recorder/trajectory_recorder.hpp"
#include "sim/recorder/trajectory_summary.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/scenario/scenario_run.hpp"
#include "sim/scenario/yaml_input.hpp"
#include "sim/simulation/simulator.hpp"
#include "sim/simulation/stop_request.hpp"
#include "sim/text.hpp"
#include "tools/routh/trajectory_report.hpp"

namespace routh::cli {

namespace {

using Clock = std::chrono::steady_clock;

struct RunOptions {
  std::string scenario_path;
  std::vector<std::string> overrides;  ///< --set, then -o as output.file
  double time_limit_s = 0.0;           ///< --time-limit [s] of wall-clock time; 0: none
};

std::optional<RunOptions> usage_error(std::string_view message) {
  std::cerr << "routh run: " << message << '\n' << kRunUsage;
  return std::nullopt;
}

// A YAML scalar that reads back as exactly `text` (a file name may hold ':' or '#').
std::string yaml_quoted(std::string_view text) {
  YAML::Emitter out;
  out << YAML::DoubleQuoted << std::string(text);
  return out.c_str();
}

// --time-limit's value: a finite number of seconds > 0.
std::optional<double> seconds(std::string_view text) {
  double value = 0.0;
  const auto parsed = std::from_chars(text.data(), text.data() + text.size(), value);
  if (parsed.ec != std::errc() || parsed.ptr != text.data() + text.size()) return std::nullopt;
  if (!std::isfinite(value) || !(value > 0.0)) return std::nullopt;
  return value;
}

std::optional<RunOptions> parse_options(CommandArguments arguments) {
  RunOptions options;
  std::optional<std::string> output;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string_view argument = arguments[i];
    const bool has_value = i + 1 < arguments.size();
    if ((argument == "-o" || argument == "--output") && has_value) {
      output = std::string(arguments[++i]);
    } else if (argument == "--set" && has_value) {
      const std::string_view item = arguments[++i];
      if (item.find('=') == std::string_view::npos || item.front() == '=') {
        return usage_error(cat("--set ", item, ": expected key.path=value"));
      }
      options.overrides.emplace_back(item);
    } else if (argument == "--time-limit" && has_value) {
      const std::string_view value = arguments[++i];
      const std::optional<double> limit = seconds(value);
      if (!limit) {
        return usage_error(cat("--time-limit ", value, ": expected a number of seconds > 0"));
      }
      options.time_limit_s = *limit;
    } else if (argument.starts_with("-")) {
      return usage_error(cat("unknown option or missing value: '", argument, "'"));
    } else if (!options.scenario_path.empty()) {
      return usage_error(cat("unexpected argument '", argument, "': give one scenario file"));
    } else {
      options.scenario_path = argument;
    }
  }
  if (options.scenario_path.empty()) return usage_error("missing the scenario file");
  if (output) options.overrides.push_back(cat("output.file=", yaml_quoted(*output)));
  return options;
}

// Forwards everything to the recorder and, on a terminal, keeps one progress line up to date
// (at most 10 times a second, so printing never slows the run).
class ProgressObserver final : public TrajectoryObserver {
 public:
  ProgressObserver(TrajectoryObserver& next, double duration_s, bool show)
      : next_(next), duration_s_(duration_s), show_(show) {}

  void record_sample(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                     const Energy& energy) override {
    next_.record_sample(t, q, v, energy);
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
              << " rad at t = " << cat(summary.max_abs_theta_time) << " s\n";
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

}  // namespace

int run_run_command(CommandArguments arguments) {
  if (asks_for_help(arguments)) {
    std::cout << kRunUsage;
    return kExitSuccess;
  }
  const std::optional<RunOptions> options = parse_options(arguments);
  if (!options) return kExitUsage;
  return run_reporting_errors("run", options->scenario_path, [&] {
    const Scenario scenario = load_scenario(options->scenario_path, options->overrides);
    for (const std::string& warning : scenario.warnings) std::cerr << warning << '\n';
    const MechanicalSystem& model = *scenario.model;
    TrajectoryRecorder recorder(
        scenario.output_file,
        RecorderHeader{scenario.law, scenario.effective_yaml, model.coordinate_names(),
                       model.coordinate_units(), model.contact_names()});
    if (scenario.excitation) {
      recorder.record_ground_acceleration([excitation = scenario.excitation](double t) {
        return ground_acceleration(*excitation, t);
      });
    }
    const StopRequestHandlers stop_handlers;
    ProgressObserver progress(recorder, scenario.settings.duration, ::isatty(STDERR_FILENO) == 1);
    const Clock::time_point start = Clock::now();
    const SimulationOutcome outcome = run_scenario(scenario, progress, options->time_limit_s);
    const double wall_s = std::chrono::duration<double>(Clock::now() - start).count();
    progress.finish();
    recorder.set_run_status(outcome.status, outcome.detail);
    recorder.set_summary(outcome);
    recorder.close();
    print_summary(scenario, outcome, wall_s);
    if (exit_code(outcome.status) == kExitSuccess) return kExitSuccess;
    std::cerr << "routh run: " << options->scenario_path
              << ": the run did not complete: " << to_string(outcome.status) << " ("
              << outcome.detail << ") at t = " << cat(outcome.final_state.t) << " s\n";
    return exit_code(outcome.status);
  });
}

}  // namespace routh::cli
