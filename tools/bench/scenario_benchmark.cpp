// Whole-run wall time of the shipped scenarios, with and without HDF5 output, the issue's two
// planar speed targets and its 3D ones (a sphere bouncing within 1.5 times the planar ball's time,
// a die thrown to rest within 20 ms, the shipped spatial scenarios' medians) with the accuracy
// they must keep, and how the cost grows with a stack's blocks and a chain's links; or, with
// --memory, the peak resident memory of a run that streams 10⁷ samples to HDF5.
//
//   scenario_benchmark [--repeats N] [SCENARIO.yaml ...]     (default: scenarios/*.yaml but the
//                                                              many-body ones below, 21)
//   scenario_benchmark --memory [--samples N] [SCENARIO.yaml] (default: rocking_block, 10⁷)
//
// Each case is loaded once and simulated once to warm up, then N times per column: without output
// (a TrajectoryObserver that drops everything, so the table measures the simulator alone) and into
// a temporary HDF5 file (the recorder as `routh run` uses it). Wall times are medians with the
// fastest and slowest repeat: the machine is shared, so the median is the figure to compare.
//
// Run: tools/setup.sh bench   (or build/release/tools/bench/scenario_benchmark)

#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sim/recorder/scenario_recorder.hpp"
#include "sim/recorder/trajectory_recorder.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/scenario/scenario_run.hpp"
#include "sim/simulation/simulator.hpp"
#include "sim/text.hpp"

namespace {

namespace fs = std::filesystem;
using routh::cat;

constexpr int kDefaultRepeats = 21;
constexpr double kDefaultMemorySamples = 1e7;
constexpr double kGravity = 9.81;  // [m/s²], pinned in the ball target's scenario

/// Drops the trajectory: the timing without output measures the simulator alone.
struct DiscardingObserver final : routh::TrajectoryObserver {
  void record_sample(double, const Eigen::VectorXd&, const Eigen::VectorXd&, const routh::Energy&,
                     routh::SampleKind) override {}
  void record_event(const routh::EventRecord&) override {}
};

/// Keeps what the targets' checks read: each impact's time and the generalized
/// velocities just before and after it (the samples the simulator records around an event).
struct ImpactLog final : routh::TrajectoryObserver {
  struct Impact {
    double t;
    Eigen::VectorXd v_pre, v_post;
  };
  std::vector<Impact> impacts;

  void record_sample(double, const Eigen::VectorXd&, const Eigen::VectorXd& v, const routh::Energy&,
                     routh::SampleKind) override {
    if (awaiting_post_) impacts.back().v_post = v;
    awaiting_post_ = false;
    last_v_ = v;
  }
  void record_event(const routh::EventRecord& event) override {
    if (event.kind != routh::EventKind::impact) return;
    impacts.push_back({event.t, last_v_, {}});
    awaiting_post_ = true;
  }

 private:
  Eigen::VectorXd last_v_;
  bool awaiting_post_ = false;
};

struct Timing {
  double median_s, min_s, max_s;
};

Timing timing_of(std::vector<double> seconds) {
  std::sort(seconds.begin(), seconds.end());
  return {seconds[seconds.size() / 2], seconds.front(), seconds.back()};
}

double seconds_of(const std::function<void()>& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

fs::path scratch_file() {
  return fs::temp_directory_path() / cat("routh_scenario_benchmark_", ::getpid(), ".h5");
}

// The CPU time this thread has used [s]: on a shared machine, where a run's wall time also counts
// the time other processes held the cores, the steadier figure.
double thread_cpu_seconds() {
  timespec now{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

/// The repeats of a run without output, timed by the wall clock and by the thread's CPU time.
struct BareTiming {
  Timing wall, cpu;
};

BareTiming time_without_output(const routh::Scenario& scenario, int repeats) {
  std::vector<double> seconds, cpu_seconds;
  seconds.reserve(static_cast<std::size_t>(repeats));
  cpu_seconds.reserve(static_cast<std::size_t>(repeats));
  for (int i = 0; i < repeats; ++i) {
    DiscardingObserver discard;
    const double cpu_start = thread_cpu_seconds();
    seconds.push_back(seconds_of([&] { routh::run_scenario(scenario, discard); }));
    cpu_seconds.push_back(thread_cpu_seconds() - cpu_start);
  }
  return {timing_of(seconds), timing_of(cpu_seconds)};
}

// Times `write(recorder)` into a new file each repeat, creating and closing it included: that is
// what `routh run` pays.
Timing time_into_file(const routh::Scenario& scenario, int repeats,
                      const std::function<void(routh::TrajectoryRecorder&)>& write) {
  const fs::path path = scratch_file();
  std::vector<double> seconds;
  seconds.reserve(static_cast<std::size_t>(repeats));
  for (int i = 0; i < repeats; ++i) {
    fs::remove(path);  // as `routh run` writes: a new file, never one truncated in place
    seconds.push_back(seconds_of([&] {
      routh::TrajectoryRecorder recorder = routh::open_scenario_recorder(scenario, path);
      write(recorder);
      recorder.close();
    }));
  }
  fs::remove(path);
  return timing_of(seconds);
}

// The run into its file.
Timing time_with_hdf5(const routh::Scenario& scenario, int repeats) {
  return time_into_file(scenario, repeats, [&](routh::TrajectoryRecorder& recorder) {
    routh::run_scenario(scenario, recorder);
  });
}

// The file's own floor: created with the scenario's header and closed, with nothing in it.
Timing time_empty_file(const routh::Scenario& scenario, int repeats) {
  return time_into_file(scenario, repeats, [](routh::TrajectoryRecorder&) {});
}

std::string milliseconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", seconds * 1e3);
  return text;
}

void print_table_header() {
  std::printf("%-22s %7s %7s %11s %9s %9s %11s %14s %6s %15s\n", "scenario", "impacts", "events",
              "median [ms]", "min [ms]", "max [ms]", "events/s", "HDF5 med [ms]", "ratio",
              "empty file [ms]");
}

// One row: the run's counts, its wall time without output, its median with HDF5 output, their
// ratio (the issue's output cost, at most 1.5), and what an empty file costs of it.
void benchmark_row(const std::string& label, const routh::Scenario& scenario, int repeats) {
  DiscardingObserver warm_up;
  const routh::SimulationOutcome outcome = routh::run_scenario(scenario, warm_up);
  const Timing bare = time_without_output(scenario, repeats).wall;
  const Timing hdf5 = time_with_hdf5(scenario, repeats);
  const Timing empty = time_empty_file(scenario, repeats);
  std::printf("%-22s %7d %7d %11s %9s %9s %11.0f %14s %6.2f %15s%s\n", label.c_str(),
              outcome.impacts, outcome.events, milliseconds(bare.median_s).c_str(),
              milliseconds(bare.min_s).c_str(), milliseconds(bare.max_s).c_str(),
              outcome.events / bare.median_s, milliseconds(hdf5.median_s).c_str(),
              hdf5.median_s / bare.median_s, milliseconds(empty.median_s).c_str(),
              outcome.status == routh::RunStatus::completed
                  ? ""
                  : cat("  (", to_string(outcome.status), ")").c_str());
}

// --- the issue's targets

/// A named case of the issue: a scenario with the values that define it pinned by overrides, the
/// wall time it must meet without output (none: the median is reported alone), and the accuracy
/// it must keep while doing so.
struct Target {
  std::string name;
  fs::path scenario_file;
  std::vector<std::string> overrides;
  std::optional<double> target_s;
  std::function<std::string(const routh::Scenario&, const ImpactLog&,
                            const routh::SimulationOutcome&)>
      check;
};

// Closed form (as in tests/test_simulator.cpp): the first impact at √(2h/g), the k-th flight
// after it lasting 2 eᵏ v₁ / g. The last impact, below the rest speed, closes the contact. This
// ball's centre sits 0.1 m above the floor, so its gap resolves only to ulp(0.1 m) = 1.4e-17 m:
// 1e-11 s per impact at 1e-6 m/s. The impacts faster than 1e-4 m/s are reported apart. The same
// for the planar ball and the sphere.
std::string check_ball_impact_times(const routh::Scenario&, const ImpactLog& log,
                                    const routh::SimulationOutcome&) {
  constexpr double kDrop = 1.0, kRestitution = 0.9;  // [m], [1], pinned by the overrides
  constexpr double kResolvedSpeed = 1e-4;            // [m/s]
  double expected = std::sqrt(2.0 * kDrop / kGravity), speed = kGravity * expected;
  double worst = 0.0, worst_resolved = 0.0;
  int resolved = 0;
  for (std::size_t i = 0; i + 1 < log.impacts.size(); ++i) {
    const double error = std::abs(log.impacts[i].t - expected);
    worst = std::max(worst, error);
    if (speed >= kResolvedSpeed) worst_resolved = std::max(worst_resolved, error), ++resolved;
    speed *= kRestitution;
    expected += 2.0 * speed / kGravity;
  }
  return cat("impact times within ", worst_resolved, " s of the closed form for the ", resolved,
             " impacts faster than 1e-4 m/s, ", worst, " s for all ", log.impacts.size());
}

// Housner (1963): a plastic corner impact keeps 1 − 1.5 sin²α of the spin, α = atan(b/h). The
// last impact, too slow to rock on, lands the block flat on both corners.
std::string check_housner_ratio(const routh::Scenario& scenario, const ImpactLog& log,
                                const routh::SimulationOutcome&) {
  const double alpha = std::atan(0.2 / 1.0);  // width / height, pinned by the overrides
  const double housner = 1.0 - 1.5 * std::pow(std::sin(alpha), 2);
  const int theta = scenario.planar->coordinate_index("theta");
  double worst = 0.0;
  for (std::size_t i = 0; i + 1 < log.impacts.size(); ++i) {
    const ImpactLog::Impact& impact = log.impacts[i];
    worst = std::max(worst, std::abs(impact.v_post[theta] / impact.v_pre[theta] / housner - 1.0));
  }
  return cat("spin ratios within ", worst, " (relative) of 1 - 1.5 sin^2(alpha) (",
             log.impacts.size(), " impacts)");
}

// The planar ball first: the 3D targets compare the sphere with it.
std::vector<Target> issue_targets(const fs::path& scenarios) {
  return {
      {"ball 1 m, e 0.9, 10 s",
       scenarios / "bouncing_ball.yaml",
       {"model.radius=0.1", "model.gravity=9.81", "initial.q.y=1.1", "contact.restitution=0.9",
        "duration=10"},
       1e-3,
       check_ball_impact_times},
      {"Housner block to rest",
       scenarios / "rocking_block.yaml",
       {"model.width=0.2", "model.height=1.0", "model.gravity=9.81", "contact.restitution=0",
        "duration=10"},
       5e-3,
       check_housner_ratio},
  };
}

void print_target_header() {
  std::printf("%-22s %11s %9s %9s %12s %11s %-7s %s\n", "case", "median [ms]", "min [ms]",
              "max [ms]", "CPU med [ms]", "target [ms]", "", "accuracy");
}

// One case's wall time without output against its target (the wall time's median; the CPU
// time's beside it, which a busy machine disturbs less); the median, for the targets that follow
// from it (the 3D ball's, from the planar ball's).
double benchmark_target(const Target& target, int repeats) {
  const routh::Scenario scenario = routh::load_scenario(target.scenario_file, target.overrides);
  ImpactLog log;
  const routh::SimulationOutcome outcome = routh::run_scenario(scenario, log);
  const BareTiming timing = time_without_output(scenario, repeats);
  const Timing& bare = timing.wall;
  const bool met = target.target_s && bare.median_s <= *target.target_s;
  std::printf("%-22s %11s %9s %9s %12s %11s %-7s %s%s\n", target.name.c_str(),
              milliseconds(bare.median_s).c_str(), milliseconds(bare.min_s).c_str(),
              milliseconds(bare.max_s).c_str(), milliseconds(timing.cpu.median_s).c_str(),
              target.target_s ? milliseconds(*target.target_s).c_str() : "-",
              target.target_s ? (met ? "met" : "MISSED") : "",
              target.check(scenario, log, outcome).c_str(),
              outcome.status == routh::RunStatus::completed
                  ? ""
                  : cat("  (", to_string(outcome.status), ")").c_str());
  return bare.median_s;
}

// --- the 3D targets

// The spatial targets: the sphere within this factor of the planar ball's median.
constexpr double kSphereOverDisk = 1.5;

// scenarios/bouncing_ball.yaml in three dimensions: the same ball (0.1 m, 1 kg, uniform), its
// lowest point 1 m above the floor, e = 0.9 and the same friction, for the same 10 s, under the
// spatial default law (sliding_ode, which for a head-on impact is Poisson's restitution like the
// planar ball's). Its impacts are head-on, so the planar closed form of its impact times holds.
std::string sphere_bouncing_ball_yaml() {
  return "name: bouncing_ball_3d\nduration: 10\nmodel:\n  dimension: 3\n  gravity: 9.81\n"
         "  bodies:\n    - {name: ball, mass: 1.0, shape: {sphere: {radius: 0.1}}}\n"
         "  obstacles:\n    - {type: plane, name: floor, point: [0, 0, 0], normal: [0, 0, 1]}\n"
         "initial:\n  q: {ball.z: 1.1}\n"
         "contact:\n  restitution: 0.9\n  friction: {static: 0.5, kinetic: 0.4}\n";
}

fs::path scratch_yaml(const std::string& name) {
  return fs::temp_directory_path() /
         cat("routh_scenario_benchmark_", ::getpid(), "_", name, ".yaml");
}

// The index of the coordinate or velocity called `name` in `names`.
Eigen::Index index_of(const std::vector<std::string>& names, const std::string& name) {
  const auto found = std::find(names.begin(), names.end(), name);
  if (found == names.end()) throw std::invalid_argument(cat("no coordinate named ", name));
  return found - names.begin();
}

// The die's edge and the bowling ball's radius, pinned by the overrides [m].
constexpr double kDieEdge = 0.016, kBowlingBallRadius = 0.1085;

// A cube of edge a at rest on a face has its centre a/2 above the table and no velocity left.
std::string check_die_at_rest(const routh::Scenario& scenario, const ImpactLog& log,
                              const routh::SimulationOutcome& outcome) {
  const routh::MechanicalSystem& model = *scenario.model;
  const double height = outcome.final_state.q[index_of(model.coordinate_names(), "die.z")];
  return cat("at the end: speed ", outcome.final_state.v.lpNorm<Eigen::Infinity>(),
             " (largest component), centre ", std::abs(height - kDieEdge / 2.0),
             " m from a face's rest height; last of ", log.impacts.size(), " impacts at ",
             log.impacts.empty() ? 0.0 : log.impacts.back().t, " s");
}

// Coriolis (1835): a ball slipping at u₀ = v₀ + ω₀ × (−r ẑ) on a plane rolls, once friction has
// stopped the slip, at v₀ − (2/7) u₀ (for inertia 2/5 m r²), whatever μ.
std::string check_bowling_ball_rolls(const routh::Scenario& scenario, const ImpactLog&,
                                     const routh::SimulationOutcome& outcome) {
  const routh::MechanicalSystem& model = *scenario.model;
  const std::vector<std::string>& names = model.velocity_names();
  const Eigen::VectorXd& start = scenario.initial.v;
  const Eigen::Vector3d v0(start[index_of(names, "ball.vx")], start[index_of(names, "ball.vy")],
                           0.0);
  const Eigen::Vector3d w0(start[index_of(names, "ball.wx")], start[index_of(names, "ball.wy")],
                           start[index_of(names, "ball.wz")]);  // body = world axes at the start
  const Eigen::Vector3d slip = v0 + w0.cross(Eigen::Vector3d(0.0, 0.0, -kBowlingBallRadius));
  const Eigen::Vector3d rolling = v0 - 2.0 / 7.0 * slip;
  const Eigen::Vector3d end(outcome.final_state.v[index_of(names, "ball.vx")],
                            outcome.final_state.v[index_of(names, "ball.vy")], 0.0);
  return cat("rolls at the end within ", (end - rolling).norm(),
             " m/s of v0 - (2/7) u0 (Coriolis)");
}

// No check beyond the run's status: the case is timed for its median alone.
std::string no_check(const routh::Scenario&, const ImpactLog& log,
                     const routh::SimulationOutcome&) {
  return cat(log.impacts.size(), " impacts");
}

// The 3D cases: the sphere (written to `sphere_file`) against the planar ball's median, the die
// to rest, and the shipped spatial scenarios' medians. A shipped one that is absent is reported
// so and skipped.
std::vector<Target> spatial_targets(const fs::path& scenarios, const fs::path& sphere_file,
                                    double planar_ball_s) {
  return {
      {"sphere 1 m, e 0.9, 10 s",
       sphere_file,
       {},
       kSphereOverDisk * planar_ball_s,
       check_ball_impact_times},
      {"tumbling die to rest",
       scenarios / "tumbling_die.yaml",
       {cat("model.bodies.0.shape.box.size=[", kDieEdge, ", ", kDieEdge, ", ", kDieEdge, "]")},
       20e-3,
       check_die_at_rest},
      {"bowling_ball",
       scenarios / "bowling_ball.yaml",
       {cat("model.bodies.0.shape.sphere.radius=", kBowlingBallRadius)},
       std::nullopt,
       check_bowling_ball_rolls},
      {"euler_disk", scenarios / "euler_disk.yaml", {}, std::nullopt, no_check},
  };
}

void benchmark_spatial(const fs::path& scenarios, double planar_ball_s, int repeats) {
  std::printf(
      "\n3D bodies, without output (the sphere's target: %.1f x the planar ball's median)\n",
      kSphereOverDisk);
  print_target_header();
  const fs::path sphere = scratch_yaml("bouncing_ball_3d");
  std::ofstream(sphere) << sphere_bouncing_ball_yaml();
  for (const Target& target : spatial_targets(scenarios, sphere, planar_ball_s)) {
    if (!fs::exists(target.scenario_file)) {
      std::printf("%-22s (skipped: %s is not shipped)\n", target.name.c_str(),
                  target.scenario_file.filename().c_str());
      continue;
    }
    benchmark_target(target, repeats);
  }
  fs::remove(sphere);
}

// --- scaling: how a run's cost grows with the model's parts

/// A model of `parts` blocks or links: a shipped scenario with overrides.
struct ScalingCase {
  std::string family;         ///< the cases whose cost is compared with the family's first
  std::string scenario_file;  ///< in scenarios/
  int parts;
  std::vector<std::string> overrides;
  int repeats;
};

// A run of `parts` parts at most this long (about 8 s: 20 blocks) is repeated this few times.
constexpr int kLargeCaseParts = 20;
constexpr int kLargeCaseRepeats = 3;

std::string yaml_list(const std::vector<double>& values) {
  std::string text;
  for (double value : values) text += cat(text.empty() ? "" : ", ", value);
  return cat("[", text, "]");
}

// The shipped stack's slender top block (0.15 m × 0.6 m, uplift at g b/h = 2.45 m/s²) rocks under
// its 3.5 m/s², 3 Hz shaking on towers of up to five blocks, 1 m apart: four flat layers
// (0.6 m × 0.075 m, 2.5 kg) under a slender top. The layers neither rock nor slide, but every
// impact of a top also presses the resting layers beneath it, so an impact involves up to 2 + 4·2
// contacts, within the laws' 12; one column of 20 would exceed them. Each tower's top is a little
// taller than the last (0.6, 0.66, 0.72, 0.78 m), so the towers rock out of step and their impacts
// stay apart. One block: the slender top alone on the floor.
std::vector<std::string> stacked_towers(int blocks) {
  constexpr int kTowerBlocks = 5;
  constexpr std::array<double, 4> kTopHeights = {0.6, 0.66, 0.72, 0.78};  // [m]
  std::vector<double> widths, heights, masses;
  std::string positions;
  for (int block = 0; block < blocks; ++block) {
    const int tower = block / kTowerBlocks;
    const bool top = block % kTowerBlocks == kTowerBlocks - 1 || block == blocks - 1;
    widths.push_back(top ? 0.15 : 0.6);
    heights.push_back(top ? kTopHeights[static_cast<std::size_t>(tower) % kTopHeights.size()]
                          : 0.075);
    masses.push_back(top ? 1.0 : 2.5);
    positions += cat(positions.empty() ? "" : ", ", "block", block + 1, ".x: ", tower);
  }
  return {cat("model.blocks=", blocks), cat("model.width=", yaml_list(widths)),
          cat("model.height=", yaml_list(heights)), cat("model.mass=", yaml_list(masses)),
          cat("initial.q={", positions, "}")};
}

// The shipped chain's 0.9 m and 1 kg split into `links` equal links, released straight out along
// +x: it swings down onto the floor 0.6 m below the pivot, and every link end strikes it.
std::vector<std::string> chain_falling_on_floor(int links) {
  std::string q;
  for (int link = 0; link < links; ++link) q += cat(q.empty() ? "" : ", ", "90 deg");
  return {cat("model.links=", links), cat("model.length=", 0.9 / links),
          cat("model.mass=", 1.0 / links), cat("initial.q=[", q, "]")};
}

std::vector<ScalingCase> scaling_cases(int repeats) {
  std::vector<ScalingCase> cases;
  for (int blocks : {1, 5, 20}) {
    cases.push_back({"stacked_blocks", "stacked_blocks.yaml", blocks, stacked_towers(blocks),
                     blocks < kLargeCaseParts ? repeats : std::min(repeats, kLargeCaseRepeats)});
  }
  for (int links : {1, 5, 20}) {
    cases.push_back(
        {"chain_on_floor", "chain_on_floor.yaml", links, chain_falling_on_floor(links), repeats});
  }
  return cases;
}

// Cost per event relative to the family's first case: how the cost of an event grows with the
// parts, and with the contacts they bring (a stack's grow with the square of its blocks).
void benchmark_scaling(const fs::path& scenarios, int repeats) {
  std::printf("\nscaling, without output (%d repeats; %d for %d blocks)\n", repeats,
              std::min(repeats, kLargeCaseRepeats), kLargeCaseParts);
  std::printf("%-16s %6s %8s %7s %7s %11s %9s %9s %7s %13s\n", "model", "parts", "contacts",
              "impacts", "events", "median [ms]", "events/s", "ms/event", "growth",
              "ms per sim. s");
  std::string family;
  double first_ms_per_event = 0.0;
  for (const ScalingCase& scaling : scaling_cases(repeats)) {
    const routh::Scenario scenario =
        routh::load_scenario(scenarios / scaling.scenario_file, scaling.overrides);
    DiscardingObserver warm_up;
    const routh::SimulationOutcome outcome = routh::run_scenario(scenario, warm_up);
    const Timing bare = time_without_output(scenario, scaling.repeats).wall;
    const double ms_per_event = bare.median_s * 1e3 / std::max(outcome.events, 1);
    if (scaling.family != family) family = scaling.family, first_ms_per_event = ms_per_event;
    std::printf("%-16s %6d %8zu %7d %7d %11s %9.0f %9.3f %6.1fx %13.3f%s\n", scaling.family.c_str(),
                scaling.parts, scenario.model->contact_names().size(), outcome.impacts,
                outcome.events, milliseconds(bare.median_s).c_str(), outcome.events / bare.median_s,
                ms_per_event, ms_per_event / first_ms_per_event,
                bare.median_s * 1e3 / scenario.settings.duration,
                outcome.status == routh::RunStatus::completed
                    ? ""
                    : cat("  (", to_string(outcome.status), ")").c_str());
  }
}

// --- memory

long peak_resident_kib() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;  // KiB on Linux
}

// Streams `samples` regular samples (output.rate = samples / duration) into a temporary file.
int memory_check(const fs::path& scenario_path, double samples) {
  routh::Scenario scenario = routh::load_scenario(scenario_path);
  scenario.settings.output_rate = samples / scenario.settings.duration;
  const long before_kib = peak_resident_kib();
  const fs::path path = scratch_file();
  routh::TrajectoryRecorder recorder = routh::open_scenario_recorder(scenario, path);
  const double wall_s = seconds_of([&] { routh::run_scenario(scenario, recorder); });
  const std::int64_t written = recorder.sample_count();
  recorder.close();
  const auto file_bytes = fs::file_size(path);
  fs::remove(path);
  std::printf("%s: %lld samples to HDF5 (%.0f MB file) in %.2f s\n", scenario.name.c_str(),
              static_cast<long long>(written), static_cast<double>(file_bytes) / 1e6, wall_s);
  std::printf("peak resident memory: %.1f MB (%.1f MB before the run; limit 100 MB)\n",
              static_cast<double>(peak_resident_kib()) / 1024.0,
              static_cast<double>(before_kib) / 1024.0);
  return peak_resident_kib() <= 100 * 1024 ? 0 : 1;
}

// --- command line

struct Options {
  int repeats = kDefaultRepeats;
  bool memory = false;
  double samples = kDefaultMemorySamples;
  std::vector<fs::path> scenarios;
};

[[noreturn]] void usage_error(std::string_view message) {
  std::cerr << "scenario_benchmark: " << message << "\n"
            << "usage: scenario_benchmark [--repeats N] [SCENARIO.yaml ...]\n"
            << "       scenario_benchmark --memory [--samples N] [SCENARIO.yaml]\n";
  std::exit(2);
}

Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument = argv[i];
    const bool has_value = i + 1 < argc;
    if (argument == "--repeats" && has_value) {
      options.repeats = std::stoi(argv[++i]);
    } else if (argument == "--samples" && has_value) {
      options.samples = std::stod(argv[++i]);
    } else if (argument == "--memory") {
      options.memory = true;
    } else if (argument.starts_with("-")) {
      usage_error(cat("unknown option or missing value: ", argument));
    } else {
      options.scenarios.emplace_back(argument);
    }
  }
  if (options.repeats < 1) usage_error("--repeats must be at least 1");
  if (!(options.samples >= 1.0)) usage_error("--samples must be at least 1");
  return options;
}

fs::path scenarios_folder() { return fs::path(ROUTH_SOURCE_DIR) / "scenarios"; }

// The shipped many-body scenarios take seconds to minutes a run, too long to repeat 63 times:
// scaling_benchmark measures runs of their kind (towers, drum columns, a wall). Named on the
// command line, they are timed here too.
constexpr std::array<std::string_view, 3> kManyBodyScenarios = {"multi_drum_column.yaml",
                                                                "towers_grid.yaml", "wall.yaml"};

std::vector<fs::path> shipped_scenarios() {
  std::vector<fs::path> paths;
  for (const fs::directory_entry& entry : fs::directory_iterator(scenarios_folder())) {
    const std::string file = entry.path().filename().string();
    if (entry.path().extension() == ".yaml" &&
        std::find(kManyBodyScenarios.begin(), kManyBodyScenarios.end(), file) ==
            kManyBodyScenarios.end()) {
      paths.push_back(entry.path());
    }
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

int benchmark_all(const Options& options) {
  const std::vector<fs::path> paths =
      options.scenarios.empty() ? shipped_scenarios() : options.scenarios;
  std::printf("whole runs, %d repeats each; wall time without output, median with HDF5 output\n",
              options.repeats);
  print_table_header();
  for (const fs::path& path : paths) {
    const routh::Scenario scenario = routh::load_scenario(path);
    benchmark_row(scenario.name, scenario, options.repeats);
  }
  std::printf("\nissue targets, without output\n");
  print_target_header();
  std::vector<double> medians_s;
  for (const Target& target : issue_targets(scenarios_folder())) {
    medians_s.push_back(benchmark_target(target, options.repeats));
  }
  benchmark_spatial(scenarios_folder(), medians_s.front(), options.repeats);  // the planar ball's
  benchmark_scaling(scenarios_folder(), options.repeats);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options options = parse_options(argc, argv);
    if (!options.memory) return benchmark_all(options);
    if (options.scenarios.size() > 1) usage_error("--memory takes one scenario");
    return memory_check(options.scenarios.empty() ? scenarios_folder() / "rocking_block.yaml"
                                                  : options.scenarios.front(),
                        options.samples);
  } catch (const std::exception& error) {
    std::cerr << "scenario_benchmark: " << error.what() << '\n';
    return 1;
  }
}
