// How a run's cost grows with the number of bodies: whole runs of generated many-body scenarios,
// each written as YAML and read through the scenario loader as `routh run` reads a file, then
// simulated without output (a TrajectoryObserver that drops everything: the simulator alone).
//
//   rocking_block              scenarios/rocking_block.yaml as shipped: the one-body reference
//   tower/blocks:N             one tower of N = 1, 5, 10, 20 blocks under harmonic shaking
//   towers/count:T             T = 1, 4, 9 towers of 5 blocks, 1 m apart, under the same shaking
//   drum_column/drums:D        a column of D = 5, 10, 20 equal marble drums under a sine pulse
//   chain/links:L              a 0.9 m chain of L = 5, 20, 50 links falling onto the floor
//   chain_dop853/links:L       the same chains integrated with DOP853 (integrator.stepper)
//   wall/blocks:30             a running-bond wall of 30 blocks on the floor, shaken
//   ball_pile/balls:N          N = 5, 20, 50 spheres tossed into a box of planes (dimension: 3)
//
// Counters of each row: `events` and `impacts` of one run, `sim_s` the simulated time it reached,
// `events_per_s` and `ms_per_event` (wall time), `wall_per_sim_s` (wall seconds per simulated
// second), and the same two from the thread's CPU time (`cpu_ms_per_event`, `cpu_per_sim_s`),
// which other processes on a busy machine disturb less. The label is the run's status: `completed`,
// or the trouble status it ended in (`sim_s` says when). After the table, the ratios
// are printed from the rows' medians (or their single runs without --benchmark_repetitions), and
// how the ball pile's cost grows with its spheres.
//
// Run: build/release/tools/bench/scaling_benchmark --benchmark_repetitions=3
//      (tools/setup.sh bench runs it so; docs/benchmarks.md says how to read it)

#include <benchmark/benchmark.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "sim/scenario/scenario_file.hpp"
#include "sim/scenario/scenario_run.hpp"
#include "sim/simulation/run_status.hpp"
#include "sim/text.hpp"

namespace {

namespace fs = std::filesystem;
using routh::cat;

// A row that has not finished after this much wall time ends with status time_limit: the whole
// section must stay near a minute even when a scenario gets stuck [s].
constexpr double kRowWallLimit = 5.0;

/// Drops the trajectory: the timing measures the simulator alone.
struct DiscardingObserver final : routh::TrajectoryObserver {
  void record_sample(double, const Eigen::VectorXd&, const Eigen::VectorXd&, const routh::Energy&,
                     routh::SampleKind) override {}
  void record_event(const routh::EventRecord&) override {}
};

std::string yaml_list(const std::vector<double>& values) {
  std::string text;
  for (double value : values) text += cat(text.empty() ? "" : ", ", value);
  return cat("[", text, "]");
}

// --- the scenarios

// A tower is the shipped stack's design (scenarios/stacked_blocks.yaml): flat layers, 0.6 m ×
// 0.075 m and 2.5 kg, under a slender top block, 0.15 m × `top_height` and 1 kg. The shaking,
// 3.5 m/s² at 3 Hz, exceeds the top's uplift threshold g b/h (2.45 m/s² for a 0.6 m top) and no
// layer's (19.6 m/s² for the top layer, which carries the slender block), and stays below μ g
// = 6.9 m/s²: the top rocks, the layers neither rock nor slide. Tower k stands at x = k m;
// `top_heights` gives each tower's top, so that towers rock out of step.
std::string towers_yaml(int towers, int blocks_per_tower, double duration_s) {
  std::vector<double> widths, heights, masses;
  std::string positions;
  for (int tower = 0; tower < towers; ++tower) {
    for (int block = 0; block < blocks_per_tower; ++block) {
      const bool top = block == blocks_per_tower - 1;
      widths.push_back(top ? 0.15 : 0.6);
      heights.push_back(top ? 0.6 + 0.06 * tower : 0.075);
      masses.push_back(top ? 1.0 : 2.5);
      positions += cat(positions.empty() ? "" : ", ", "block", tower * blocks_per_tower + block + 1,
                       ".x: ", tower);
    }
  }
  return cat("name: towers\nduration: ", duration_s,
             "\nmodel:\n  type: stacked_blocks\n  blocks: ", towers * blocks_per_tower,
             "\n  width: ", yaml_list(widths), "\n  height: ", yaml_list(heights),
             "\n  mass: ", yaml_list(masses), "\ninitial:\n  q: {", positions,
             "}\ncontact:\n  law: poisson\n  restitution: 0.0\n"
             "  friction: {static: 0.7, kinetic: 0.7}\n"
             "excitation:\n  harmonic: {amplitude: 3.5, frequency: 3, direction: x}\n");
}

// Equal marble drums, 0.6 m in diameter and 0.5 m high (2700 kg/m³ × π 0.3² × 0.5 m = 382 kg),
// stacked into a column on the floor; marble on marble μ = 0.7, plastic impacts. One cycle of a
// sine pulse of 0.4 g and 0.5 s: above the column's uplift threshold g b/H (0.24 g for 5 drums,
// 0.06 g for 20), so it rocks on its base, and its joints open and close.
std::string drum_column_yaml(int drums) {
  return cat("name: drum_column\nduration: 3\nmodel:\n  type: stacked_blocks\n  blocks: ", drums,
             "\n  width: 0.6\n  height: 0.5\n  mass: 382\ninitial: {}\n"
             "contact:\n  law: poisson\n  restitution: 0.0\n"
             "  friction: {static: 0.7, kinetic: 0.7}\n"
             "excitation:\n  pulse: {shape: sine, amplitude: 0.4 g, period: 0.5, direction: x, "
             "start: 0.1, cycles: 1}\n");
}

// The shipped chain's 0.9 m and 1 kg split into `links` equal links, released straight out along
// +x (scenarios/chain_on_floor.yaml): it swings down onto the floor 0.6 m below the pivot, and
// every link end strikes it, for 3 s. `stepper`: integrator.stepper, at the default tolerances.
std::string chain_yaml(int links, const std::string& stepper) {
  std::string q;
  for (int link = 0; link < links; ++link) q += cat(q.empty() ? "" : ", ", "90 deg");
  return cat("name: chain\nduration: 3\nmodel:\n  type: chain\n  links: ", links,
             "\n  length: ", 0.9 / links, "\n  mass: ", 1.0 / links,
             "\n  obstacle: {type: floor, position: -0.6}\ninitial:\n  q: [", q,
             "]\nintegrator: {stepper: ", stepper,
             "}\ncontact:\n  law: poisson\n  restitution: 0.3\n"
             "  friction: {static: 0.5, kinetic: 0.4}\n");
}

// A dry-stone wall in running bond: courses of 0.4 m × 0.2 m stones (35 kg: 2200 kg/m³ and
// 0.2 m deep), `stones` to the odd courses, `stones` - 1 and a half stone at each end to the even
// ones, so that every joint sits over the middle of a stone below. Four courses of 7: 30 blocks.
// Shaken at 0.3 g and 2.5 Hz, below μ g = 0.6 g and far below the panel's rocking threshold
// g L/H, it should ride the motion as one body.
std::string wall_yaml(int courses, int stones) {
  constexpr double kLength = 0.4, kHeight = 0.2, kMass = 35.2;  // [m], [m], [kg]
  std::vector<double> widths, masses;
  std::string positions;
  int block = 0;
  for (int course = 0; course < courses; ++course) {
    const bool offset = course % 2 == 1;
    std::vector<double> lengths(static_cast<std::size_t>(offset ? stones + 1 : stones), kLength);
    if (offset) lengths.front() = lengths.back() = kLength / 2.0;
    double left = 0.0;
    for (double length : lengths) {
      widths.push_back(length);
      masses.push_back(kMass * length / kLength);
      positions += cat(positions.empty() ? "" : ", ", "block", ++block, ".x: ", left + length / 2);
      left += length;
    }
  }
  return cat("name: wall\nduration: 2\nmodel:\n  type: stacked_blocks\n  blocks: ", block,
             "\n  width: ", yaml_list(widths), "\n  height: ", kHeight,
             "\n  mass: ", yaml_list(masses), "\ninitial:\n  q: {", positions,
             "}\ncontact:\n  law: poisson\n  restitution: 0.0\n"
             "  friction: {static: 0.6, kinetic: 0.6}\n"
             "excitation:\n  harmonic: {amplitude: 0.3 g, frequency: 2.5, direction: x}\n");
}

// Spheres of 5 cm radius and 0.5 kg (uniform) tossed into an open box of planes: a floor and
// four walls 0.3 m from its centre. They start on a lattice of 4 × 4 sites per layer, 0.15 m
// apart and layered from 0.1 m up, each moved by up to 2 cm along every axis and thrown at up to
// 0.5 m/s along every axis (seeded, so every run and every machine tosses the same pile): sites
// 0.15 m apart moved 0.02 m each keep the spheres 0.11 m apart, more than their 0.1 m diameter,
// 3 cm above the floor and 5 mm from the walls. They bounce (e = 0.5, μ = 0.3) on the floor, the
// walls and each other and heap up. A run is the pile's first 0.2 s, its densest in events: the
// lowest layer lands and the next falls onto it. 50 spheres take under a second of CPU for it,
// and several times as long for 0.3 s.
constexpr double kBallPileDuration = 0.2;  // [s]

std::string ball_pile_yaml(int balls, double duration_s) {
  constexpr double kRadius = 0.05, kMass = 0.5, kHalfWidth = 0.3;   // [m], [kg], [m]
  constexpr double kSpacing = 0.15, kLowest = 0.1, kJitter = 0.02;  // [m]
  constexpr double kThrow = 0.5;                                    // [m/s]
  constexpr int kPerRow = 4;
  std::mt19937 generator(22);  // the draws are the engine's own, the same on every platform
  const auto draw = [&](double amplitude) {  // uniform in [-amplitude, amplitude)
    return amplitude * (2.0 * static_cast<double>(generator()) / 4294967296.0 - 1.0);
  };
  std::string bodies, positions, velocities;
  for (int ball = 0; ball < balls; ++ball) {
    const int row = ball / kPerRow % kPerRow, column = ball % kPerRow;
    const int layer = ball / (kPerRow * kPerRow);
    const double x = (column - (kPerRow - 1) / 2.0) * kSpacing + draw(kJitter);
    const double y = (row - (kPerRow - 1) / 2.0) * kSpacing + draw(kJitter);
    const double z = kLowest + layer * kSpacing + draw(kJitter);
    const std::string name = cat("ball", ball + 1);
    bodies += cat("    - {name: ", name, ", mass: ", kMass, ", shape: {sphere: {radius: ", kRadius,
                  "}}}\n");
    positions += cat(positions.empty() ? "" : ", ", name, ".x: ", x, ", ", name, ".y: ", y, ", ",
                     name, ".z: ", z);
    const double vx = draw(kThrow), vy = draw(kThrow), vz = draw(kThrow);  // in this order
    velocities += cat(velocities.empty() ? "" : ", ", name, ".vx: ", vx, ", ", name, ".vy: ", vy,
                      ", ", name, ".vz: ", vz);
  }
  const auto plane = [](const char* name, double x, double y, const char* normal) {
    return cat("    - {type: plane, name: ", name, ", point: [", x, ", ", y,
               ", 0], normal: ", normal, "}\n");
  };
  const std::string walls =
      plane("floor", 0.0, 0.0, "[0, 0, 1]") + plane("east", kHalfWidth, 0.0, "[-1, 0, 0]") +
      plane("west", -kHalfWidth, 0.0, "[1, 0, 0]") + plane("north", 0.0, kHalfWidth, "[0, -1, 0]") +
      plane("south", 0.0, -kHalfWidth, "[0, 1, 0]");
  return cat("name: ball_pile\nduration: ", duration_s, "\nmodel:\n  dimension: 3\n  bodies:\n",
             bodies, "  obstacles:\n", walls,
             "  collisions: {between_bodies: true}\ninitial:\n  q: {", positions, "}\n  v: {",
             velocities, "}\ncontact:\n  restitution: 0.5\n  friction: 0.3\n");
}

// --- the rows

fs::path scratch_folder() {
  const fs::path folder = fs::temp_directory_path() / cat("routh_scaling_benchmark_", ::getpid());
  fs::create_directories(folder);
  return folder;
}

// Loads `yaml` as `routh run` loads a file: written to a scratch file first.
routh::Scenario load_text(const std::string& name, const std::string& yaml) {
  const fs::path path = scratch_folder() / cat(name, ".yaml");
  std::ofstream(path) << yaml;
  routh::Scenario scenario = routh::load_scenario(path.string());
  fs::remove(path);
  return scenario;
}

// The CPU time this thread has used [s]: on a shared machine, where the wall time of a run
// also counts the time other processes held the cores, the figure that does not depend on them.
double thread_cpu_seconds() {
  timespec now{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

// One whole run per iteration, timed by hand (UseManualTime) so that loading is left out.
void run_rows(benchmark::State& state, const std::function<routh::Scenario()>& load) {
  const routh::Scenario scenario = load();
  routh::SimulationOutcome outcome;
  double wall_s = 0.0, cpu_s = 0.0;
  for (auto _ : state) {
    DiscardingObserver discard;
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = thread_cpu_seconds();
    outcome = routh::run_scenario(scenario, discard, kRowWallLimit);
    cpu_s += thread_cpu_seconds() - cpu_start;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    state.SetIterationTime(seconds);
    wall_s += seconds;
  }
  const double runs = static_cast<double>(state.iterations());
  const double run_s = wall_s / runs, run_cpu_s = cpu_s / runs;
  const double sim_s = outcome.final_state.t;
  const int events = std::max(outcome.events, 1);
  state.counters["events"] = outcome.events;
  state.counters["impacts"] = outcome.impacts;
  state.counters["sim_s"] = sim_s;
  state.counters["events_per_s"] = outcome.events / run_s;
  state.counters["ms_per_event"] = run_s * 1e3 / events;
  state.counters["wall_per_sim_s"] = sim_s > 0.0 ? run_s / sim_s : 0.0;
  state.counters["cpu_ms_per_event"] = run_cpu_s * 1e3 / events;
  state.counters["cpu_per_sim_s"] = sim_s > 0.0 ? run_cpu_s / sim_s : 0.0;
  // the status alone, the same in every repetition (sim_s says where it stopped), so that
  // Google Benchmark keeps it on the aggregate rows too
  state.SetLabel(std::string(to_string(outcome.status)));
}

fs::path shipped(const std::string& name) {
  return fs::path(ROUTH_SOURCE_DIR) / "scenarios" / name;
}

void register_rows() {
  const auto row = [](const std::string& name, std::function<routh::Scenario()> load) {
    benchmark::RegisterBenchmark(name.c_str(),
                                 [load](benchmark::State& state) { run_rows(state, load); })
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
  };
  row("rocking_block", [] { return routh::load_scenario(shipped("rocking_block.yaml").string()); });
  for (int blocks : {1, 5, 10, 20}) {
    row(cat("tower/blocks:", blocks),
        [blocks] { return load_text("tower", towers_yaml(1, blocks, 2.0)); });
  }
  for (int towers : {1, 4, 9}) {
    row(cat("towers/count:", towers),
        [towers] { return load_text("towers", towers_yaml(towers, 5, 2.0)); });
  }
  for (int drums : {5, 10, 20}) {
    row(cat("drum_column/drums:", drums),
        [drums] { return load_text("drum_column", drum_column_yaml(drums)); });
  }
  for (int links : {5, 20, 50}) {
    row(cat("chain/links:", links),
        [links] { return load_text("chain", chain_yaml(links, "dopri5")); });
  }
  for (int links : {5, 20, 50}) {
    row(cat("chain_dop853/links:", links),
        [links] { return load_text("chain", chain_yaml(links, "dop853")); });
  }
  row("wall/blocks:30", [] { return load_text("wall", wall_yaml(4, 7)); });
  for (int balls : {5, 20, 50}) {
    row(cat("ball_pile/balls:", balls),
        [balls] { return load_text("ball_pile", ball_pile_yaml(balls, kBallPileDuration)); });
  }
}

// --- the ratios, from the rows' medians

/// Keeps each row's median counters (or its single run's) while the console prints the table.
class RatioReporter final : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      const bool median = run.run_type == Run::RT_Aggregate && run.aggregate_name == "median";
      // the row's name as registered, without the /iterations:1/manual_time Google adds
      const std::string& row = run.run_name.function_name;
      if (median || (run.run_type == Run::RT_Iteration && !medians_.contains(row))) {
        medians_[row] = run.counters;
      }
    }
    ConsoleReporter::ReportRuns(runs);
  }

  /// A row's median counter, or nothing when the row did not run (--benchmark_filter).
  std::optional<double> counter(const std::string& row, const std::string& name) const {
    const auto found = medians_.find(row);
    if (found == medians_.end() || !found->second.contains(name)) return std::nullopt;
    return found->second.at(name).value;
  }

 private:
  std::map<std::string, benchmark::UserCounters> medians_;
};

/// One ratio, its target and whether it is met; "not measured" when a row it needs did not run.
void print_ratio(const std::string& what, std::optional<double> value, const char* target,
                 bool (*met)(double)) {
  if (!value) {
    std::printf("  %-62s %8s  (target %s: not measured, a row it needs did not run)\n",
                what.c_str(), "-", target);
    return;
  }
  std::printf("  %-62s %8.2f  (target %s: %s)\n", what.c_str(), *value, target,
              met(*value) ? "met" : "MISSED");
}

/// A growth with no target: how much more a larger model costs.
void print_growth(const std::string& what, std::optional<double> value) {
  if (!value) {
    std::printf("  %-62s %8s  (not measured, a row it needs did not run)\n", what.c_str(), "-");
    return;
  }
  std::printf("  %-62s %8.2f  (growth, no target)\n", what.c_str(), *value);
}

std::optional<double> ratio(std::optional<double> numerator, std::optional<double> denominator) {
  if (!numerator || !denominator) return std::nullopt;
  return *numerator / *denominator;
}

// Each ratio (and the ball pile's growth of its cost per event with its spheres) twice: from the
// wall times, which the targets speak of, and from the CPU times, which a busy machine
// disturbs less.
void print_ratios(const RatioReporter& rows) {
  std::printf(
      "\nthe issue's ratios and the ball pile's growth, from the rows above (medians when "
      "repeated)\n");
  for (const auto& [clock, per_sim_s, per_event] :
       {std::array<std::string, 3>{"wall", "wall_per_sim_s", "ms_per_event"},
        std::array<std::string, 3>{"CPU", "cpu_per_sim_s", "cpu_ms_per_event"}}) {
    print_ratio(
        cat("4 towers / 1 tower, ", clock, " time per simulated second"),
        ratio(rows.counter("towers/count:4", per_sim_s), rows.counter("towers/count:1", per_sim_s)),
        "<= 5", [](double r) { return r <= 5.0; });
    print_ratio(cat("20-drum column / rocking block, ", clock, " ms per event"),
                ratio(rows.counter("drum_column/drums:20", per_event),
                      rows.counter("rocking_block", per_event)),
                "<= 20", [](double r) { return r <= 20.0; });
    constexpr double kChainToday = 1.7 / 3.0;  // s per simulated s when the issue was written
    for (const std::string stepper : {"chain", "chain_dop853"}) {
      print_ratio(cat("20-link ", stepper, ": speed-up over the issue's 1.7 s (", clock, ")"),
                  ratio(kChainToday, rows.counter(cat(stepper, "/links:20"), per_sim_s)), ">= 10",
                  [](double r) { return r >= 10.0; });
    }
    for (int balls : {20, 50}) {
      print_growth(cat("ball pile: ", balls, " balls / 5 balls, ", clock, " ms per event"),
                   ratio(rows.counter(cat("ball_pile/balls:", balls), per_event),
                         rows.counter("ball_pile/balls:5", per_event)));
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  register_rows();
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  fs::remove_all(scratch_folder());
  print_ratios(reporter);
  return 0;
}
