// Runs per second of a fragility study: a slender rocking block under 20 ground-motion records ×
// 20 intensity levels × 25 random draws of μ and η = 10,000 runs, on 1 and 2 threads, and the
// sweep's own overhead per run against the same runs done directly (load_scenario + run_scenario in
// one thread, nothing written).
//
//   study_benchmark [--records N] [--levels N] [--draws N] [--repeats N]   (20, 20, 25, 3)
//
// The records are synthetic and made here, so the benchmark needs no data: record k is a sum of
// six sinusoids between 0.6 and 6 Hz with phases drawn from k, under a trapezoidal envelope
// (1 s rise, 3 s strong motion, 2 s decay), 6 s at 100 Hz, scaled to a PGA of 0.3 g; a
// two-column file as `routh run` reads any record. The level is the PGA the record is scaled to,
// `scale_to: {pga: ...}` from 0.075 g to 0.9 g (the block, tan α = 0.2, lifts off above 0.2 g).
// The impacts follow the calibrated rocking law (`law: rocking`, restitution = η); each run draws
// μ = contact.friction from U[0.4, 0.9) and η = contact.restitution from U[0.85, 0.95) (0.9 to
// 1.0 of Housner's η_H = 1 − 1.5 sin²α = 0.942).
//
// Columns: the median wall time of the repeats, runs per second, and the sweep's overhead per
// run, (sweep wall time − the direct runs' wall time) / runs, also as a share of a direct run.
// The same in the process's CPU time (every thread's), which other processes on a shared machine
// disturb less than the wall time: compare medians.
//
// Run: build/release/tools/bench/study_benchmark

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "sim/scenario/scenario_file.hpp"
#include "sim/scenario/scenario_run.hpp"
#include "sim/sweep/sweep.hpp"
#include "sim/sweep/sweep_file.hpp"
#include "sim/text.hpp"

namespace {

namespace fs = std::filesystem;
using routh::cat;

constexpr double kStandardGravity = 9.80665;  // [m/s²]
constexpr double kRecordPga = 0.3 * kStandardGravity;
constexpr double kRecordLength = 6.0;  // [s]
constexpr double kSampleRate = 100.0;  // [Hz]

// The rocking block of rocking_block_record.yaml; the record and the PGA it is scaled to are
// swept.
constexpr const char* kBase =
    "duration: 6\n"
    "model: {type: rocking_block, width: 0.2, height: 1.0, mass: 1.0}\n"
    "initial: {q: {theta: 0}}\n"
    "contact: {law: rocking, restitution: 0.9, friction: 0.7}\n"
    "excitation:\n"
    "  - record: {file: record_00.csv, direction: x, scale_to: {pga: 0.3 g}}\n"
    "output: {rate: 100}\n";

struct DiscardingObserver final : routh::TrajectoryObserver {
  void record_sample(double, const Eigen::VectorXd&, const Eigen::VectorXd&, const routh::Energy&,
                     routh::SampleKind) override {}
  void record_event(const routh::EventRecord&) override {}
};

// Record `k`: time [s] and acceleration [m/s²] per line.
void write_record(const fs::path& path, int k) {
  std::mt19937_64 generator(static_cast<std::uint64_t>(k) + 1);
  std::uniform_real_distribution<double> phase(0.0, 2.0 * std::numbers::pi);
  constexpr int kWaves = 6;
  std::vector<double> phases(kWaves);
  for (double& p : phases) p = phase(generator);
  const auto samples = static_cast<int>(kRecordLength * kSampleRate) + 1;
  std::vector<double> acceleration(samples);
  double peak = 0.0;
  for (int i = 0; i < samples; ++i) {
    const double t = i / kSampleRate;
    const double envelope = std::min({t / 1.0, 1.0, (kRecordLength - t) / 2.0});
    double sum = 0.0;
    for (int j = 0; j < kWaves; ++j) {
      const double frequency = 0.6 * std::pow(10.0, j / (kWaves - 1.0));  // 0.6 to 6 Hz
      sum += std::sin(2.0 * std::numbers::pi * frequency * t + phases[j]);
    }
    acceleration[i] = envelope * sum;
    peak = std::max(peak, std::abs(acceleration[i]));
  }
  std::ofstream out(path);
  out << "time,acceleration\n";
  for (int i = 0; i < samples; ++i) {
    out << routh::round_trip(i / kSampleRate) << ','
        << routh::round_trip(acceleration[i] * kRecordPga / peak) << '\n';
  }
}

std::string study_sweep(int records, int levels, int draws) {
  std::string files;
  for (int k = 0; k < records; ++k) {
    files += cat(k > 0 ? ", " : "", "record_", k < 10 ? "0" : "", k, ".csv");
  }
  return cat(
      "base: block.yaml\n"
      "grid:\n"
      "  excitation.0.record.file: [",
      files,
      "]\n"
      "  excitation.0.record.scale_to.pga: {from: 0.075 g, to: 0.9 g, count: ",
      levels,
      "}\n"
      "random:\n"
      "  runs: ",
      draws,
      "\n"
      "  seed: 23\n"
      "  keys:\n"
      "    contact.friction: {uniform: [0.4, 0.9]}\n"
      "    contact.restitution: {uniform: [0.85, 0.95]}\n"
      "output: {file: study.h5}\n");
}

// Wall and CPU seconds (the process's, every thread's) of `work`.
struct Timing {
  double wall = 0.0;
  double cpu = 0.0;
};

Timing seconds(const std::function<void()>& work) {
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  work();
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
          static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC};
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

int option(int argc, char** argv, const std::string& name, int fallback) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (argv[i] == name) return std::max(1, std::atoi(argv[i + 1]));
  }
  return fallback;
}

}  // namespace

int main(int argc, char** argv) {
  const int records = option(argc, argv, "--records", 20);
  const int levels = option(argc, argv, "--levels", 20);
  const int draws = option(argc, argv, "--draws", 25);
  const int repeats = option(argc, argv, "--repeats", 3);
  const fs::path folder = fs::temp_directory_path() / cat("routh_study_bench_", ::getpid());
  fs::create_directories(folder);
  for (int k = 0; k < records; ++k) {
    write_record(folder / cat("record_", k < 10 ? "0" : "", k, ".csv"), k);
  }
  std::ofstream(folder / "block.yaml") << kBase;
  std::ofstream(folder / "study.yaml") << study_sweep(records, levels, draws);
  fs::current_path(folder);
  const routh::SweepPlan plan = routh::read_sweep_file("study.yaml");
  const auto runs = static_cast<double>(plan.run_count());

  const auto direct = [&] {
    for (std::int64_t run = 0; run < plan.run_count(); ++run) {
      const routh::Scenario scenario = routh::load_scenario(
          plan.base_path, routh::run_overrides(plan, routh::run_values(plan, run)));
      DiscardingObserver discard;
      routh::run_scenario(scenario, discard);
    }
  };
  const auto sweep = [&](int jobs) {
    return [&plan, jobs] {
      routh::SweepRanks ranks;
      routh::run_sweep(plan, {jobs, false, true}, ranks);
    };
  };
  // the three interleaved in each repeat, so that a busy spell of the shared machine falls on
  // all of them rather than on one
  std::vector<Timing> direct_s, one_s, two_s;
  for (int repeat = 0; repeat < repeats; ++repeat) {
    direct_s.push_back(seconds(direct));
    one_s.push_back(seconds(sweep(1)));
    two_s.push_back(seconds(sweep(2)));
    std::printf(
        "  repeat %d: wall (CPU) direct %.2f (%.2f) s, sweep 1 thread %.2f (%.2f) s, "
        "2 threads %.2f (%.2f) s\n",
        repeat + 1, direct_s.back().wall, direct_s.back().cpu, one_s.back().wall, one_s.back().cpu,
        two_s.back().wall, two_s.back().cpu);
    std::fflush(stdout);
  }
  const auto medians = [](const std::vector<Timing>& timings, double Timing::*part) {
    std::vector<double> values;
    for (const Timing& timing : timings) values.push_back(timing.*part);
    return median(values);
  };
  std::printf("study benchmark: %d records x %d levels x %d draws = %lld runs, median of %d\n",
              records, levels, draws, static_cast<long long>(plan.run_count()), repeats);
  std::printf("  %-24s %10s %10s %10s\n", "", "wall [s]", "runs/s", "CPU [s]");
  const auto row = [&](const char* name, const std::vector<Timing>& timings) {
    const double wall = medians(timings, &Timing::wall);
    std::printf("  %-24s %10.2f %10.1f %10.2f\n", name, wall, runs / wall,
                medians(timings, &Timing::cpu));
  };
  row("direct runs, 1 thread", direct_s);
  row("sweep, 1 thread", one_s);
  row("sweep, 2 threads", two_s);
  for (const auto part : {&Timing::wall, &Timing::cpu}) {
    const double direct_time = medians(direct_s, part);
    const double sweep_time = medians(one_s, part);
    std::printf(
        "  sweep overhead per run, %s time (1 thread vs direct): %+.1f us, %+.2f %% of a "
        "run  (target < 5 %%)\n",
        part == &Timing::wall ? "wall" : "CPU", 1e6 * (sweep_time - direct_time) / runs,
        100.0 * (sweep_time - direct_time) / direct_time);
  }
  std::printf("  speed-up 2 threads vs 1 (wall): %.2fx\n",
              medians(one_s, &Timing::wall) / medians(two_s, &Timing::wall));
  fs::current_path(fs::temp_directory_path());
  fs::remove_all(folder);
  return 0;
}
