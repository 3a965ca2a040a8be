// Runs per second of a sweep of the rocking block (harmonic amplitude × frequency, 16 × 16 = 256
// runs of 4 s), against the bare loop of the same runs, on 1 and 2 threads and (when mpirun is
// found and the build has MPI) 2 MPI ranks.
//
//   sweep_benchmark [--repeats N]        (default 7)
//
// Columns: the median wall time of N repeats and the runs per second it gives; ratios against
// the bare loop (load_scenario + run_scenario per run, one thread, nothing written), whose
// difference from the 1-thread sweep is the sweep's own overhead: once a sweep (the table, the
// journal, the threads: a 1-run sweep's time less its run's) and per run beyond that (a row). The
// MPI column includes mpirun's start-up and two process starts, so it is a whole command's time.
// The machine is shared: compare medians.
//
// Run: build/release/tools/bench/sweep_benchmark

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
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

constexpr int kDefaultRepeats = 7;

// A slender block (b/h = 0.2, uplift above a_g = g tan α ≈ 1.96 m/s²) shaken harmonically: the
// grid spans no uplift, rocking and overturning.
constexpr const char* kBase =
    "duration: 4\n"
    "model: {type: rocking_block, width: 0.2, height: 1.0, mass: 1.0}\n"
    "initial: {q: {theta: 0}}\n"
    "contact: {law: poisson, multi_contact_law: multipoint_energetic, restitution: 0.0,\n"
    "          friction: 0.7}\n"
    "excitation:\n"
    "  harmonic: {amplitude: 2.0, frequency: 2, direction: x}\n"
    "output: {rate: 100}\n";
constexpr const char* kSweep =
    "base: block.yaml\n"
    "grid:\n"
    "  excitation.harmonic.amplitude: {from: 1.0, to: 8.0, count: 16}\n"
    "  excitation.harmonic.frequency: {from: 0.5, to: 4.0, count: 16}\n"
    "output: {file: bench.h5}\n";
// The same sweep with one run: its time less one bare run is what a sweep costs once (creating
// and writing the table, the journal, the threads), however many runs it has.
constexpr const char* kOneRunSweep =
    "base: block.yaml\n"
    "grid:\n"
    "  excitation.harmonic.amplitude: [4.0]\n"
    "  excitation.harmonic.frequency: [2.0]\n"
    "output: {file: one.h5}\n";

struct DiscardingObserver final : routh::TrajectoryObserver {
  void record_sample(double, const Eigen::VectorXd&, const Eigen::VectorXd&, const routh::Energy&,
                     routh::SampleKind) override {}
  void record_event(const routh::EventRecord&) override {}
};

double seconds(const std::function<void()>& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

double median_time(int repeats, const std::function<void()>& work) {
  work();  // warm-up
  std::vector<double> times;
  for (int i = 0; i < repeats; ++i) times.push_back(seconds(work));
  return median(times);
}

}  // namespace

int main(int argc, char** argv) {
  int repeats = kDefaultRepeats;
  if (argc == 3 && std::string(argv[1]) == "--repeats") repeats = std::max(1, std::atoi(argv[2]));
  const fs::path folder = fs::temp_directory_path() / cat("routh_sweep_bench_", ::getpid());
  fs::create_directories(folder);
  std::ofstream(folder / "block.yaml") << kBase;
  std::ofstream(folder / "bench.yaml") << kSweep;
  std::ofstream(folder / "one.yaml") << kOneRunSweep;
  fs::current_path(folder);
  routh::SweepPlan plan = routh::read_sweep_file("bench.yaml");
  const auto runs = static_cast<double>(plan.run_count());

  const auto bare_time = [&](const routh::SweepPlan& sweep) {
    return median_time(repeats, [&] {
      for (std::int64_t run = 0; run < sweep.run_count(); ++run) {
        const routh::Scenario scenario = routh::load_scenario(
            sweep.base_path, routh::run_overrides(sweep, routh::run_values(sweep, run)));
        DiscardingObserver discard;
        routh::run_scenario(scenario, discard);
      }
    });
  };
  const auto sweep_time = [&](const routh::SweepPlan& sweep, int jobs) {
    routh::SweepRanks ranks;
    return median_time(repeats, [&] { routh::run_sweep(sweep, {jobs, false, true}, ranks); });
  };
  const double bare_s = bare_time(plan);
  const double one_s = sweep_time(plan, 1);
  const double two_s = sweep_time(plan, 2);
  const routh::SweepPlan one_run = routh::read_sweep_file("one.yaml");
  const double fixed_s = sweep_time(one_run, 1) - bare_time(one_run);

  std::printf("sweep benchmark: %lld runs of the rocking block, median of %d repeats\n",
              static_cast<long long>(plan.run_count()), repeats);
  std::printf("  %-28s %10s %10s %10s\n", "", "wall [s]", "runs/s", "ratio");
  const auto row = [&](const char* name, double s, double ratio) {
    std::printf("  %-28s %10.4f %10.1f %10.3f\n", name, s, runs / s, ratio);
  };
  row("bare run_scenario loop", bare_s, 1.0);
  row("sweep, 1 thread", one_s, bare_s / one_s);
  row("sweep, 2 threads", two_s, bare_s / two_s);
  std::printf("  sweep overhead (1 thread vs bare): %+.1f us a run, %+.1f %%\n",
              1e6 * (one_s - bare_s) / runs, 100.0 * (one_s - bare_s) / bare_s);
  std::printf(
      "    of which once a sweep (table, journal, threads; a 1-run sweep less its run): "
      "%.2f ms\n",
      1e3 * fixed_s);
  std::printf("    and per run beyond it: %+.1f us, %+.1f %% of a run  (target < 5 %%)\n",
              1e6 * (one_s - bare_s - fixed_s) / runs, 100.0 * (one_s - bare_s - fixed_s) / bare_s);
  std::printf("  speed-up 2 threads vs 1: %.2fx  (target >= 1.8x)\n", one_s / two_s);
  if (ROUTH_MPI_BUILD && std::system("command -v mpirun >/dev/null 2>&1") == 0) {
    const std::string command = cat("mpirun --allow-run-as-root --oversubscribe -n 2 '",
                                    ROUTH_BINARY, "' sweep bench.yaml --force >/dev/null 2>&1");
    const double mpi_s = median_time(repeats, [&] {
      if (std::system(command.c_str()) != 0) std::fprintf(stderr, "mpirun failed\n");
    });
    const std::string single =
        cat("'", ROUTH_BINARY, "' sweep bench.yaml --force --jobs 1 >/dev/null 2>&1");
    const double process_s = median_time(repeats, [&] {
      if (std::system(single.c_str()) != 0) std::fprintf(stderr, "routh sweep failed\n");
    });
    row("routh sweep --jobs 1", process_s, bare_s / process_s);
    row("mpirun -n 2 routh sweep", mpi_s, bare_s / mpi_s);
    std::printf("  speed-up mpirun -n 2 vs --jobs 1 (whole commands): %.2fx\n", process_s / mpi_s);
  }
  fs::current_path(fs::temp_directory_path());
  fs::remove_all(folder);
  return 0;
}
