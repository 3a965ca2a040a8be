// Seeded campaign of boxes in 3D: random drops and throws of one to three boxes (sizes, masses,
// μ, e, velocities and spins drawn over wide ranges) onto a floor, or into a "box of planes" (a
// floor and four walls), each written as scenario YAML, loaded by load_scenario and simulated as
// `routh run` would. Boxes touch the planes only (box pairs have no contacts). Every run must:
//  - end `completed` at its duration (any other status is a defect: the failure prints its YAML),
//    or `time_limit` after kWallTimeLimit (4 of the first 2000 runs: 546, 632, 953 and 1094;
//    once 41, most of them crawling after a slip event: the last test case below), the checks
//    below hold up to where they stopped;
//  - have finite samples;
//  - never raise the kinetic energy across the events at one instant, nor the total energy
//    above its start beyond the integrator's error, unless an impact is flagged energy_gain
//    (Poisson's restitution may create energy in 3D: sim/impact/sliding_ode.hpp);
//  - keep every quaternion of unit length to 1e-9;
//  - keep every corner out of every plane by more than 1e-9 m, the corners and the planes'
//    signed distances computed here from q (Eigen's rotation of the box's half-sizes).
// ROUTH_CAMPAIGN_RUN=INDEX prints one run's scenario and its events.

#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "sim/scenario/scenario_file.hpp"
#include "support/random_source.hpp"
#include "support/sanitizers.hpp"
#include "support/scenario_run.hpp"
#include "support/scratch_files.hpp"
#include "support/trajectory_checks.hpp"

namespace routh {
namespace {

constexpr std::uint64_t kSeed = 20261127;
const int kRuns = std::getenv("ROUTH_CAMPAIGN_RUNS") ? std::atoi(std::getenv("ROUTH_CAMPAIGN_RUNS"))
                                                     : (test::kSanitized ? 60 : 2000);
constexpr double kPenetrationTolerance = 1e-9;  // [m], the bound on overlap
constexpr double kUnitQuaternion = 1e-9;        // |q| = 1 to this
// Total energy may exceed its start by the integrator's error: tolerances 3e-11 per step over a
// few thousand steps, 1e-8 of the scene's energy scale (kinetic plus m g times its size).
constexpr double kEnergyDriftRelative = 1e-8;
constexpr double kGravity = 9.81;       // [m/s²]
constexpr double kWallTimeLimit = 0.2;  // [s] per run: a run that needs more is reported

struct Plane {
  Eigen::Vector3d point, normal;  // unit normal
};

struct Scene {
  std::string yaml;
  std::vector<Eigen::Vector3d> half_sizes;  // per box [m]
  std::vector<double> masses;               // [kg]
  std::vector<Plane> planes;
  double size_m = 0.0;  // the scene's extent, for the energy scale
};

std::string vector_text(const Eigen::Vector3d& v) {
  std::ostringstream out;
  out.precision(17);
  out << "[" << v.x() << ", " << v.y() << ", " << v.z() << "]";
  return out.str();
}

// One run: 1–3 boxes dropped or thrown; in a box of planes every other run.
Scene random_scene(int index) {
  test::RandomSource random(kSeed + static_cast<std::uint64_t>(index));
  Scene scene;
  const bool walled = index % 2 == 1;
  const int boxes = 1 + index % 3;
  const double room = 1.0;  // [m], the walls' half-distance
  scene.planes.push_back({Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitZ()});
  if (walled) {
    for (const Eigen::Vector3d& n : {Eigen::Vector3d(1, 0, 0), Eigen::Vector3d(-1, 0, 0),
                                     Eigen::Vector3d(0, 1, 0), Eigen::Vector3d(0, -1, 0)})
      scene.planes.push_back({-room * n, n});
  }
  std::ostringstream yaml;
  yaml.precision(17);
  yaml << "name: box_campaign_" << index << "\nduration: 0.3\nmodel:\n  dimension: 3\n  bodies:\n";
  std::ostringstream q, v;
  for (int b = 0; b < boxes; ++b) {
    const Eigen::Vector3d size(random.decade(-1.5, -0.5), random.decade(-1.5, -0.5),
                               random.decade(-1.5, -0.5));  // 3 cm to 32 cm
    const double mass = random.decade(-2.0, 1.0);           // 10 g to 10 kg
    scene.half_sizes.push_back(0.5 * size);
    scene.masses.push_back(mass);
    yaml << "    - {name: b" << b << ", mass: " << mass
         << ", shape: {box: {size: " << vector_text(size) << "}}}\n";
    // apart from each other and from the walls, above the floor by up to 30 cm
    const double radius = 0.5 * size.norm();
    const Eigen::Vector3d centre(-0.6 + 0.6 * b, random.uniform(-0.2, 0.2),
                                 radius + random.uniform(0.0, 0.3));
    q << "b" << b << ".x: " << centre.x() << ", b" << b << ".y: " << centre.y() << ", b" << b
      << ".z: " << centre.z() << ", b" << b << ".orientation: {rpy: [" << random.uniform(-3.1, 3.1)
      << ", " << random.uniform(-1.5, 1.5) << ", " << random.uniform(-3.1, 3.1) << "]}, ";
    v << "b" << b << ".vx: " << random.uniform(-2.0, 2.0) << ", b" << b
      << ".vy: " << random.uniform(-2.0, 2.0) << ", b" << b << ".vz: " << random.uniform(-2.0, 1.0)
      << ", b" << b << ".wx: " << random.uniform(-20.0, 20.0) << ", b" << b
      << ".wy: " << random.uniform(-20.0, 20.0) << ", b" << b
      << ".wz: " << random.uniform(-20.0, 20.0) << ", ";
  }
  yaml << "  obstacles:\n";
  for (std::size_t p = 0; p < scene.planes.size(); ++p) {
    yaml << "    - {type: plane, name: " << (p == 0 ? "floor" : "wall" + std::to_string(p))
         << ", point: " << vector_text(scene.planes[p].point)
         << ", normal: " << vector_text(scene.planes[p].normal) << "}\n";
  }
  std::string q_text = q.str(), v_text = v.str();
  q_text.resize(q_text.size() - 2);
  v_text.resize(v_text.size() - 2);
  yaml << "initial:\n  q: {" << q_text << "}\n  v: {" << v_text << "}\n";
  yaml << "contact:\n  restitution: " << random.uniform(0.0, 0.9)
       << "\n  friction: " << random.uniform(0.0, 1.0) << "\noutput:\n  rate: 200\n";
  scene.yaml = yaml.str();
  scene.size_m = 2.0 * room;
  return scene;
}

// "" when every check holds for the run, else the first failure.
std::string first_failure(const Scene& scene, const test::ScenarioRun& run) {
  std::ostringstream out;
  out.precision(10);
  if (run.outcome.status != RunStatus::completed && run.outcome.status != RunStatus::time_limit) {
    out << "status " << to_string(run.outcome.status) << " at t = " << run.outcome.final_state.t
        << " s: " << run.outcome.detail;
    return out.str();
  }
  if (std::string bad = test::first_non_finite_sample(run.trajectory); !bad.empty()) return bad;
  if (std::string bad = test::first_energy_raising_event(run.trajectory); !bad.empty()) return bad;
  const bool energy_flagged = std::any_of(
      run.trajectory.events.begin(), run.trajectory.events.end(),
      [](const EventRecord& e) { return e.flags.find("energy_gain") != std::string::npos; });
  const auto& samples = run.trajectory.samples;
  double weight = 0.0;
  for (const double m : scene.masses) weight += m * kGravity;
  const double scale = samples.front().energy.kinetic + weight * scene.size_m;
  for (const auto& sample : samples) {
    if (!energy_flagged &&
        sample.energy.total() - samples.front().energy.total() > kEnergyDriftRelative * scale) {
      out << "total energy rises at t = " << sample.t << " s by "
          << sample.energy.total() - samples.front().energy.total() << " J";
      return out.str();
    }
    for (std::size_t b = 0; b < scene.half_sizes.size(); ++b) {
      const Eigen::Index s = 7 * static_cast<Eigen::Index>(b);
      const Eigen::Vector4d quaternion = sample.q.segment<4>(s + 3);
      if (std::abs(quaternion.norm() - 1.0) > kUnitQuaternion) {
        out << "|q| = " << quaternion.norm() << " for box " << b << " at t = " << sample.t;
        return out.str();
      }
      const Eigen::Matrix3d R =
          Eigen::Quaterniond(quaternion[0], quaternion[1], quaternion[2], quaternion[3])
              .normalized()
              .toRotationMatrix();
      for (int c = 0; c < 8; ++c) {
        const Eigen::Vector3d h = scene.half_sizes[b];
        const Eigen::Vector3d corner =
            sample.q.segment<3>(s) + R * Eigen::Vector3d((c & 1) ? h.x() : -h.x(),
                                                         (c & 2) ? h.y() : -h.y(),
                                                         (c & 4) ? h.z() : -h.z());
        for (const Plane& plane : scene.planes) {
          const double gap = plane.normal.dot(corner - plane.point);
          if (gap < -kPenetrationTolerance) {
            out << "box " << b << " corner " << c << " " << -gap
                << " m inside a plane at t = " << sample.t << " s";
            return out.str();
          }
        }
      }
    }
  }
  return "";
}

}  // namespace

// Runs that end in a trouble status today, each a known defect of the spatial contact modes that
// is still to be fixed: the campaign reports them, fails on any other trouble, and fails when one
// of these completes (remove it from the list then). One stopped by the wall-clock limit before
// its trouble (a slow or sanitized build) proves neither. ROUTH_CAMPAIGN_RUN=N prints one's
// scene.
struct KnownTrouble {
  int run;
  const char* status;
};
constexpr KnownTrouble kKnownTrouble[] = {
    // a box that slid to rest on a corner after a Zeno sequence, struck again on the neighbouring
    // corners at 1e-7 m/s: settling found no assignment of stick, slide and open for its touching
    // corners at t = 0.2934 s
    {271, "contact_modes_unresolved"},
    // not yet diagnosed: settling finds no consistent modes (1048 at t = 0.2331 s, 1520 at
    // 0.1925 s), or an impact the laws cannot resolve follows Painlevé's paradox (1101 at
    // 0.1916 s, 1165 at 0.2199 s); the same in the code before slow slips were aligned
    {1048, "contact_modes_unresolved"},
    {1101, "painleve_unresolved"},
    {1165, "painleve_unresolved"},
    {1520, "contact_modes_unresolved"},
};

bool known_trouble(int run, const std::string& failure) {
  for (const KnownTrouble& known : kKnownTrouble) {
    if (known.run == run && failure.find(known.status) != std::string::npos) return true;
  }
  return false;
}

bool listed_as_trouble(int run) {
  return std::any_of(std::begin(kKnownTrouble), std::end(kKnownTrouble),
                     [&](const KnownTrouble& known) { return known.run == run; });
}

TEST_CASE(
    "spatial boxes: campaign of random drops and throws of boxes onto a floor and into a box of "
    "planes") {
  const char* only = std::getenv("ROUTH_CAMPAIGN_RUN");
  std::map<std::string, int> failures;
  int runs = 0, impacts = 0;
  std::vector<int> known_completed;  // listed in kKnownTrouble, yet completed
  std::vector<int> slow;             // stopped by kWallTimeLimit: the defect of the test case below
  for (int index = only ? std::atoi(only) : 0; index < (only ? std::atoi(only) + 1 : kRuns);
       ++index) {
    CAPTURE(index);
    const Scene scene = random_scene(index);
    std::string failure;
    try {
      test::ScenarioRun run{
          load_scenario(test::write_problem(scene.yaml, "box_campaign.yaml")), {}, {}};
      run.scenario.settings.wall_time_limit = kWallTimeLimit;
      run.outcome = simulate(*run.scenario.model, run.scenario.initial, run.scenario.settings,
                             run.trajectory);
      failure = first_failure(scene, run);
      impacts += run.outcome.impacts;
      if (run.outcome.status == RunStatus::time_limit) slow.push_back(index);
      if (run.outcome.status == RunStatus::completed && listed_as_trouble(index))
        known_completed.push_back(index);
      if (only) {
        for (const EventRecord& e : run.trajectory.events)
          std::cout << e.t << " " << to_string(e.kind) << " " << e.phases << " " << e.flags << " "
                    << e.status << "\n";
      }
    } catch (const std::exception& error) {
      failure = std::string("exception: ") + error.what();
    }
    ++runs;
    if (!failure.empty() && known_trouble(index, failure)) {
      MESSAGE("run " << index << ", a known defect: " << failure);
      continue;
    }
    if (!failure.empty()) {
      if (failures.size() < 5) MESSAGE("run " << index << ": " << failure << "\n" << scene.yaml);
      ++failures[failure.substr(0, failure.find(' '))];
    }
    if (only) std::cout << scene.yaml;
  }
  std::ostringstream slow_runs;
  for (const int index : slow) slow_runs << ' ' << index;
  MESSAGE(runs << " runs, " << impacts << " impacts; " << slow.size()
               << " stopped by the wall-clock limit, checked up to there:" << slow_runs.str());
  for (const auto& [kind, count] : failures) MESSAGE(kind << ": " << count << " runs");
  CHECK(failures.empty());
  std::ostringstream completed;
  for (const int index : known_completed) completed << ' ' << index;
  INFO("runs listed in kKnownTrouble that completed (remove them from it):" << completed.str());
  CHECK(known_completed.empty());
}

TEST_CASE(
    "spatial boxes: three boxes in a box of planes go on past a slip event without crawling "
    "(campaign run 5, 0.5 s of simulation)") {
  // The scene of random_scene(5) with duration 0.5 s (ROUTH_CAMPAIGN_RUN=5 prints it): 38
  // impacts, then a `slip` event of b2.x+y+z-/floor at t = 0.4099532 s. Its slip from rest
  // followed u_t/|u_t| while it was slow, a stiff direction (aligned_slip.hpp): the run then
  // handled 1449 event instants within 8 µs that logged no event and changed nothing (9.7 s of
  // wall time). Aligned with its acceleration while slow, the slip goes on in milliseconds.
  Scene scene = random_scene(5);
  scene.yaml.replace(scene.yaml.find("duration: 0.3"), 13, "duration: 0.5");
  test::ScenarioRun run{
      load_scenario(test::write_problem(scene.yaml, "box_campaign.yaml")), {}, {}};
  run.scenario.settings.wall_time_limit = 1.0;
  run.outcome =
      simulate(*run.scenario.model, run.scenario.initial, run.scenario.settings, run.trajectory);
  CHECK(run.outcome.status == RunStatus::completed);
}

}  // namespace routh
