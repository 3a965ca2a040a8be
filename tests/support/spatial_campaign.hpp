#pragma once
// The frame of the seeded campaigns of free bodies in 3D (tests/test_spatial_*_campaign.cpp), as
// the issue asks of them: random drops and throws, each written as scenario YAML, loaded by
// load_scenario and simulated as `routh run` would, and checked for what must hold whatever the
// bodies' shapes:
//  - the run ends `completed` at its duration, or `time_limit` after the campaign's wall-clock
//    limit per run (a known crawl of the spatial contact modes after slip events: such a run is
//    reported, and the checks hold up to where it stopped);
//  - its samples are finite;
//  - no event raises the kinetic energy, nor does the total energy rise above its start beyond
//    the integrator's error, unless an impact is flagged energy_gain (Poisson's restitution may
//    create energy in 3D: sim/impact/sliding_ode.hpp);
//  - every quaternion keeps unit length.
// Each campaign adds its shapes' overlap with the planes, computed from q by its own geometry.
// Runs that end in a known trouble status are listed with their measured cause: the campaign
// reports them, fails on any other trouble, and fails when a listed run completes (remove it
// from the list then); one stopped by the wall-clock limit before its trouble (a slow or
// sanitized build) proves neither. ROUTH_CAMPAIGN_RUNS=N sets the number of runs;
// ROUTH_CAMPAIGN_RUN=INDEX runs that one alone and prints its scene and its event log;
// ROUTH_CAMPAIGN_ALL=1 prints every failing run's failure, not only the scenes of the first few.

#include <doctest/doctest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <map>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "scenario_run.hpp"
#include "scratch_files.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/simulation/simulator.hpp"
#include "trajectory_checks.hpp"

namespace routh::test {

inline constexpr double kPenetrationTolerance = 1e-9;  // [m], the bound on overlap
inline constexpr double kUnitQuaternion = 1e-9;        // |q| = 1 to this
// Total energy may exceed its start by the integrator's error: tolerances 3e-11 per step over a
// few thousand steps, 1e-8 of the scene's energy scale (kinetic plus m g times its size).
inline constexpr double kEnergyDriftRelative = 1e-8;
inline constexpr double kCampaignGravity = 9.81;  // [m/s²], the spatial models' default

/// A ground-fixed plane of a campaign's scene: the half-space normal · (p − point) ≥ 0 is free.
struct CampaignPlane {
  Eigen::Vector3d point, normal;  // unit normal
};

/// A vector as YAML reads it back exactly: "[x, y, z]".
inline std::string vector_text(const Eigen::Vector3d& v) {
  std::ostringstream out;
  out.precision(17);
  out << "[" << v.x() << ", " << v.y() << ", " << v.z() << "]";
  return out.str();
}

/// A campaign's run that ends in a trouble status today, a known defect still to be fixed.
struct KnownTrouble {
  int run;
  const char* status;
};

struct CampaignSettings {
  const char* file_name;   ///< the scratch file each run's YAML is written to
  int default_runs;        ///< without ROUTH_CAMPAIGN_RUNS
  double wall_time_limit;  ///< [s] per run: a run that needs more is reported
};

/// "" when the run's status, samples, energy and the quaternions of its `bodies` bodies hold;
/// else the first failure. `potential_scale` [J]: the scene's Σ m g times its size, which with
/// the initial kinetic energy sets the scale of the allowed drift.
inline std::string first_common_failure(const ScenarioRun& run, int bodies,
                                        double potential_scale) {
  std::ostringstream out;
  out.precision(10);
  if (run.outcome.status != RunStatus::completed && run.outcome.status != RunStatus::time_limit) {
    out << "status " << to_string(run.outcome.status) << " at t = " << run.outcome.final_state.t
        << " s: " << run.outcome.detail;
    return out.str();
  }
  if (std::string bad = first_non_finite_sample(run.trajectory); !bad.empty()) return bad;
  if (std::string bad = first_energy_raising_event(run.trajectory); !bad.empty()) return bad;
  const bool energy_flagged = std::any_of(
      run.trajectory.events.begin(), run.trajectory.events.end(),
      [](const EventRecord& e) { return e.flags.find("energy_gain") != std::string::npos; });
  const auto& samples = run.trajectory.samples;
  const double scale = samples.front().energy.kinetic + potential_scale;
  for (const auto& sample : samples) {
    if (!energy_flagged &&
        sample.energy.total() - samples.front().energy.total() > kEnergyDriftRelative * scale) {
      out << "total energy rises at t = " << sample.t << " s by "
          << sample.energy.total() - samples.front().energy.total() << " J";
      return out.str();
    }
    for (int b = 0; b < bodies; ++b) {
      const double norm = sample.q.segment<4>(7 * b + 3).norm();
      if (std::abs(norm - 1.0) > kUnitQuaternion) {
        out << "|q| = " << norm << " for body " << b << " at t = " << sample.t;
        return out.str();
      }
    }
  }
  return "";
}

/// A campaign's scene run alone, as its regression tests run it: `yaml` written to `file_name`
/// and loaded, its duration replaced by `duration` [s] when that is positive, under
/// `wall_time_limit` [s] of wall-clock time (0: none).
inline ScenarioRun run_scene(const std::string& yaml, const char* file_name, double duration = 0.0,
                             double wall_time_limit = 1.0) {
  ScenarioRun run{load_scenario(write_problem(yaml, file_name)), {}, {}};
  if (duration > 0.0) run.scenario.settings.duration = duration;
  run.scenario.settings.wall_time_limit = wall_time_limit;
  run.outcome =
      simulate(*run.scenario.model, run.scenario.initial, run.scenario.settings, run.trajectory);
  return run;
}

/// Runs `settings`' campaign: `make_scene(index)` draws run index's scene (a type with its
/// scenario text in `yaml`), `check(scene, run)` returns "" or the run's first failure.
template <class MakeScene, class Check>
void run_campaign(const CampaignSettings& settings, std::span<const KnownTrouble> known_trouble,
                  MakeScene make_scene, Check check) {
  const char* only = std::getenv("ROUTH_CAMPAIGN_RUN");
  const char* count = std::getenv("ROUTH_CAMPAIGN_RUNS");
  const int first = only ? std::atoi(only) : 0;
  const int end = only ? first + 1 : count ? std::atoi(count) : settings.default_runs;
  const auto listed = [&](int index, const std::string& failure) {
    return std::any_of(known_trouble.begin(), known_trouble.end(), [&](const KnownTrouble& k) {
      return k.run == index && failure.find(k.status) != std::string::npos;
    });
  };
  std::map<std::string, int> failures;
  int runs = 0, impacts = 0;
  std::vector<int> known_completed;  // listed in the known trouble, yet completed
  std::vector<int> slow;             // stopped by the wall-clock limit
  for (int index = first; index < end; ++index) {
    CAPTURE(index);
    const auto scene = make_scene(index);
    std::string failure;
    try {
      ScenarioRun run{load_scenario(write_problem(scene.yaml, settings.file_name)), {}, {}};
      run.scenario.settings.wall_time_limit = settings.wall_time_limit;
      run.outcome = simulate(*run.scenario.model, run.scenario.initial, run.scenario.settings,
                             run.trajectory);
      failure = check(scene, run);
      impacts += run.outcome.impacts;
      if (run.outcome.status == RunStatus::time_limit) slow.push_back(index);
      // a listed run stopped by the wall-clock limit (a loaded machine) proves nothing either way
      if (failure.empty() && run.outcome.status == RunStatus::completed &&
          std::any_of(known_trouble.begin(), known_trouble.end(),
                      [&](const KnownTrouble& k) { return k.run == index; }))
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
    if (only) std::cout << scene.yaml;
    if (failure.empty()) continue;
    if (listed(index, failure)) {
      MESSAGE("run " << index << ", a known defect: " << failure);
      continue;
    }
    if (std::getenv("ROUTH_CAMPAIGN_ALL")) MESSAGE("run " << index << ": " << failure);
    if (failures.size() < 5) MESSAGE("run " << index << ": " << failure << "\n" << scene.yaml);
    ++failures[failure.substr(0, failure.find(' '))];
  }
  std::ostringstream slow_runs;
  for (const int index : slow) slow_runs << ' ' << index;
  MESSAGE(runs << " runs, " << impacts << " impacts; " << slow.size()
               << " stopped by the wall-clock limit, checked up to there:" << slow_runs.str());
  for (const auto& [kind, number] : failures) MESSAGE(kind << ": " << number << " runs");
  CHECK(failures.empty());
  std::ostringstream completed;
  for (const int index : known_completed) completed << ' ' << index;
  INFO("runs listed as known trouble that completed (remove them from the list):"
       << completed.str());
  CHECK(known_completed.empty());
}

}  // namespace routh::test
