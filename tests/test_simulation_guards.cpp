// The guards in a whole run (the last stage of a step): each way a run cannot complete ends it with
// its named status, a `trouble` (or `interrupted`) event, and finite samples up to that point,
// never NaN samples or an endless loop. The systems are point masses whose forces break on purpose.

#include <doctest/doctest.h>

#include <bit>
#include <csignal>
#include <cstdint>
#include <limits>
#include <string_view>

#include "sim/impact/law_catalogue.hpp"
#include "sim/simulation/simulator.hpp"
#include "sim/simulation/stop_request.hpp"
#include "support/point_mass_system.hpp"
#include "support/scenario_run.hpp"
#include "support/scratch_files.hpp"
#include "support/trajectory_memory.hpp"

namespace {

using routh::EventKind;
using routh::RunStatus;
using routh::test::PointMassSystem;

routh::SimulationSettings settings_for(double duration, int contacts) {
  routh::SimulationSettings settings;
  settings.duration = duration;
  settings.law = routh::find_law("poisson")->solve;
  settings.contacts.assign(contacts, {0.5, 0.3, 0.3});
  return settings;
}

routh::SimulationState at_height(double y) {
  return {0.0, Eigen::Vector2d(0.0, y), Eigen::Vector2d::Zero(), {}};
}

bool all_samples_finite(const routh::test::TrajectoryMemory& trajectory) {
  for (const auto& s : trajectory.samples) {
    if (!s.q.allFinite() || !s.v.allFinite() || !std::isfinite(s.energy.total())) return false;
  }
  return true;
}

// One trouble event, the last of the log, naming the status.
void check_ends_in_trouble(const routh::test::TrajectoryMemory& trajectory, RunStatus status) {
  REQUIRE_FALSE(trajectory.events.empty());
  CHECK(trajectory.events.back().kind == EventKind::trouble);
  CHECK(trajectory.events.back().status.find(routh::to_string(status)) != std::string::npos);
}

}  // namespace

TEST_CASE("guards: a force that turns NaN ends the run as non_finite_state, samples finite") {
  const PointMassSystem system = PointMassSystem::pushed(1.0, 9.81, {}, [](double t) {
    return t > 0.5 ? Eigen::Vector2d::Constant(std::numeric_limits<double>::quiet_NaN())
                   : Eigen::Vector2d::Zero();
  });
  routh::test::TrajectoryMemory trajectory;
  const routh::SimulationOutcome outcome =
      routh::simulate(system, at_height(100.0), settings_for(2.0, 0), trajectory);
  CHECK(outcome.status == RunStatus::non_finite_state);
  CHECK(outcome.final_state.t <= 0.5 + routh::SimulationSettings{}.max_step);
  CHECK(outcome.final_state.q.allFinite());
  CHECK(all_samples_finite(trajectory));
  CHECK(trajectory.samples.back().t < 0.55);
  check_ends_in_trouble(trajectory, RunStatus::non_finite_state);
}

TEST_CASE("guards: a force no step size can resolve ends the run as step_size_failure") {
  // from t = 0.5 a force of 1e30 N whose sign is noise (a hash of t's bits): the error estimate
  // stays above tolerance until the step is below the resolution of t
  const PointMassSystem system = PointMassSystem::pushed(1.0, 9.81, {}, [](double t) {
    if (t < 0.5) return Eigen::Vector2d(0.0, 0.0);
    const std::uint64_t bits = std::bit_cast<std::uint64_t>(t) * 0x9E3779B97F4A7C15ull;
    return Eigen::Vector2d((bits >> 63) != 0 ? 1e30 : -1e30, 0.0);
  });
  routh::test::TrajectoryMemory trajectory;
  const routh::SimulationOutcome outcome =
      routh::simulate(system, at_height(100.0), settings_for(2.0, 0), trajectory);
  CHECK(outcome.status == RunStatus::step_size_failure);
  CHECK(std::abs(outcome.final_state.t - 0.5) < 1e-6);  // stuck where the noise starts
  CHECK(all_samples_finite(trajectory));
  check_ends_in_trouble(trajectory, RunStatus::step_size_failure);
}

TEST_CASE("guards: events without progress in time end the run as event_storm") {
  // contact_distance 0: a landing is located on its unpenetrated side, where the gap is a hair
  // above 0, so the ball never counts as touching and the same landing is found again and again
  const PointMassSystem ball(1.0, 9.81, {routh::test::HalfPlane{}});
  routh::SimulationSettings settings = settings_for(2.0, 1);
  settings.contact_distance = 0.0;
  routh::test::TrajectoryMemory trajectory;
  const routh::SimulationOutcome outcome =
      routh::simulate(ball, at_height(1.0), settings, trajectory);
  CHECK(outcome.status == RunStatus::event_storm);
  // the first landing: √(2 h / g)
  CHECK(outcome.final_state.t == doctest::Approx(std::sqrt(2.0 / 9.81)).epsilon(1e-9));
  CHECK(all_samples_finite(trajectory));
  check_ends_in_trouble(trajectory, RunStatus::event_storm);
}

TEST_CASE("guards: the wall-clock limit ends a long run as time_limit") {
  const PointMassSystem ball(1.0, 9.81, {routh::test::HalfPlane{}});
  routh::SimulationSettings settings = settings_for(1e9, 1);
  settings.contacts.assign(1, {1.0, 0.3, 0.3});  // elastic: it bounces for ever
  settings.wall_time_limit = 0.05;
  routh::test::TrajectoryMemory trajectory;
  const routh::SimulationOutcome outcome =
      routh::simulate(ball, at_height(1.0), settings, trajectory);
  CHECK(outcome.status == RunStatus::time_limit);
  CHECK(outcome.final_state.t > 0.0);
  CHECK(outcome.final_state.t < 1e9);
  CHECK(all_samples_finite(trajectory));
  check_ends_in_trouble(trajectory, RunStatus::time_limit);
}

TEST_CASE("guards: a stop request is heard while samples are emitted") {
  // 1e9 samples per second: the request arrives inside the first step's sample emission
  struct Interrupting final : routh::TrajectoryObserver {
    std::vector<double> times;
    std::vector<routh::EventRecord> events;
    void record_sample(double t, const Eigen::VectorXd&, const Eigen::VectorXd&,
                       const routh::Energy&, routh::SampleKind) override {
      times.push_back(t);
      if (times.size() == 1000) std::raise(SIGINT);
    }
    void record_event(const routh::EventRecord& event) override { events.push_back(event); }
  };
  const routh::StopRequestHandlers handlers;
  const PointMassSystem ball(1.0, 9.81, {});
  routh::SimulationSettings settings = settings_for(1.0, 0);
  settings.output_rate = 1e9;
  Interrupting trajectory;
  const routh::SimulationOutcome outcome =
      routh::simulate(ball, at_height(1.0), settings, trajectory);
  routh::clear_stop_request();
  CHECK(outcome.status == RunStatus::interrupted);
  CHECK(trajectory.times.size() == 1000);
  REQUIRE_FALSE(trajectory.events.empty());
  CHECK(trajectory.events.back().kind == EventKind::interrupted);
}

TEST_CASE("guards: contact modes that settling cannot resolve are their own status, exit code 9") {
  // Settling that finds no consistent modes for the touching contacts, short of a proven
  // Painlevé paradox, ends the run as contact_modes_unresolved rather than going on with
  // inconsistent modes (which once let blocks sink into each other, reported completed);
  // docs/simulation.md gives it exit code 9. No known scene ends there any more: tall_stack:66 of
  // the multibody campaign, this test's last (stack:20, stack:50 and tall_stack:1 before it), runs
  // on since settling judges an opened corner past its edge's end on the edge's line. A scene
  // inconsistent by construction is still to be found; until then the status's name and code
  // are what is checked.
  CHECK(routh::to_string(RunStatus::contact_modes_unresolved) ==
        std::string_view("contact_modes_unresolved"));
  CHECK(routh::exit_code(RunStatus::contact_modes_unresolved) == 9);
  CHECK(routh::exit_code(RunStatus::contact_modes_unresolved) !=
        routh::exit_code(RunStatus::painleve_unresolved));
}
