#include "tools/routh/sweep_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <thread>

#include "sim/recorder/output_placement.hpp"
#include "sim/simulation/run_status.hpp"
#include "sim/simulation/stop_request.hpp"
#include "sim/sweep/sweep.hpp"
#include "sim/sweep/sweep_file.hpp"
#include "sim/sweep/sweep_ranks.hpp"
#include "sim/text.hpp"

namespace routh::cli {

namespace {

using Clock = std::chrono::steady_clock;

struct SweepCommandOptions {
  std::string sweep_path;
  std::optional<std::string> output;
  std::optional<int> jobs;
  SweepOptions sweep;
};

std::optional<SweepCommandOptions> usage_error(std::string_view message) {
  std::cerr << "routh sweep: " << message << '\n' << kSweepUsage;
  return std::nullopt;
}

std::optional<int> positive_count(std::string_view text) {
  int value = 0;
  const auto parsed = std::from_chars(text.data(), text.data() + text.size(), value);
  if (parsed.ec != std::errc() || parsed.ptr != text.data() + text.size() || value < 1) {
    return std::nullopt;
  }
  return value;
}

std::optional<SweepCommandOptions> parse_options(CommandArguments arguments) {
  SweepCommandOptions options;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string_view argument = arguments[i];
    const bool has_value = i + 1 < arguments.size();
    if ((argument == "-o" || argument == "--output") && has_value) {
      options.output = std::string(arguments[++i]);
    } else if (argument == "--jobs" && has_value) {
      options.jobs = positive_count(arguments[++i]);
      if (!options.jobs) return usage_error(cat("--jobs ", arguments[i], ": expected N ≥ 1"));
    } else if (argument == "--resume") {
      options.sweep.resume = true;
    } else if (argument == "--force") {
      options.sweep.force = true;
    } else if (argument.starts_with("-")) {
      return usage_error(cat("unknown option or missing value: '", argument, "'"));
    } else if (!options.sweep_path.empty()) {
      return usage_error(cat("unexpected argument '", argument, "': give one sweep file"));
    } else {
      options.sweep_path = argument;
    }
  }
  if (options.sweep_path.empty()) return usage_error("missing the sweep file");
  if (options.sweep.resume && options.sweep.force) {
    return usage_error("--resume continues a sweep and --force starts it again: give one");
  }
  return options;
}

// One line on stderr, rewritten at most 5 times a second: runs done / total, rate, time left.
class ProgressLine {
 public:
  explicit ProgressLine(bool show) : show_(show) {}

  void update(const SweepProgress& progress) {
    if (!show_) return;
    const Clock::time_point now = Clock::now();
    if (printed_ && now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
    printed_ = true;
    const double elapsed_s = std::chrono::duration<double>(now - start_).count();
    const auto done_now = static_cast<double>(progress.written - progress.first_run);
    const double rate = elapsed_s > 0.0 ? done_now / elapsed_s : 0.0;
    const auto left = static_cast<double>(progress.run_count - progress.written);
    const std::string eta = rate > 0.0 ? cat(std::ceil(left / rate), " s left") : "";
    std::fprintf(stderr, "\r%lld / %lld runs, %.1f runs/s, %s\033[K",
                 static_cast<long long>(progress.written),
                 static_cast<long long>(progress.run_count), rate, eta.c_str());
    std::fflush(stderr);
  }
  void finish() {
    if (printed_) std::fprintf(stderr, "\r\033[K");
  }

 private:
  bool show_;
  bool printed_ = false;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_;
};

std::string resume_command(const SweepCommandOptions& options) {
  return cat("routh sweep ", options.sweep_path, " --resume",
             options.output ? cat(" -o ", *options.output) : "");
}

int sweep(const SweepCommandOptions& options, SweepRanks& ranks) {
  SweepPlan plan = read_sweep_file(options.sweep_path);
  if (options.output) plan.output.file = *options.output;
  plan.watched_bodies = check_first_run(plan);
  SweepOptions sweep_options = options.sweep;
  const int cores = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  sweep_options.jobs = options.jobs.value_or(ranks.ranks() > 1 ? 1 : cores);
  const StopRequestHandlers stop_handlers;
  ProgressLine line(ranks.rank() == 0 && ::isatty(STDERR_FILENO) == 1);
  const Clock::time_point start = Clock::now();
  const SweepResult result = run_sweep(
      plan, sweep_options, ranks, [&](const SweepProgress& progress) { line.update(progress); });
  line.finish();
  const double wall_s = std::chrono::duration<double>(Clock::now() - start).count();
  if (result.end == SweepEnd::not_started) return kExitBadInput;
  if (ranks.rank() != 0) {
    if (result.end == SweepEnd::output_fault) {
      // rank 0 reports the faults, its own and the others'
      return kExitOutputError;
    }
    return result.end == SweepEnd::stopped ? exit_code(RunStatus::interrupted) : kExitSuccess;
  }
  const std::string table = plan.output.file.string();
  if (result.end == SweepEnd::already_complete) {
    std::cout << table << ": complete already, " << result.rows << " runs\n";
    return kExitSuccess;
  }
  if (result.end == SweepEnd::output_fault) {
    print_command_error("sweep", options.sweep_path, result.fault);
    std::cerr << "routh sweep: the " << result.rows << " of " << plan.run_count()
              << " runs done before it are kept in "
              << (result.table_written ? table + " and its journal" : table + ".journal")
              << "; make room and continue with: " << resume_command(options) << '\n';
    return kExitOutputError;
  }
  std::cout << table << ": " << result.rows << " of " << plan.run_count() << " runs; "
            << "ran " << result.rows_added << " in " << cat(std::round(wall_s * 1e3) / 1e3)
            << " s ("
            << cat(std::round(10.0 * static_cast<double>(result.rows_added) /
                              std::max(wall_s, 1e-9)) /
                   10.0)
            << " runs/s)\n";
  if (result.end == SweepEnd::complete) return kExitSuccess;
  std::cerr << "routh sweep: stopped; continue with: " << resume_command(options) << '\n';
  return exit_code(RunStatus::interrupted);
}

}  // namespace

int run_sweep_command(CommandArguments arguments) {
  if (asks_for_help(arguments)) {
    std::cout << kSweepUsage;
    return kExitSuccess;
  }
  const std::optional<SweepCommandOptions> options = parse_options(arguments);
  if (!options) return kExitUsage;
  SweepRanks ranks;
  return run_reporting_errors("sweep", options->sweep_path, [&] {
    try {
      return sweep(*options, ranks);
    } catch (const OutputRefused& error) {
      if (error.error_number() != EBUSY) throw;
      print_command_error("sweep", options->sweep_path, error.what());
      return kExitOutputInUse;
    } catch (...) {
      // every rank reads the same files and fails the same way: rank 0 says it once
      if (ranks.rank() != 0) return kExitBadInput;
      throw;
    }
  });
}

}  // namespace routh::cli
