// The guards in a whole run (the last stage of a step): each way a run cannot complete ends it with
// its named status, a `trouble` (or `interrupted`) event, and finite samples up to that point,
// never NaN samples or an endless loop. The systems are point masses whose forces break on purpose.

#include <doctest/doctest.h>

#include <bit>
#include <csignal>
#include <cstdint>
#include <limits>

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

TEST_CASE(
    "guards: contact modes that settling cannot resolve end the run as contact_modes_unresolved") {
  // An eight-block column of one width shaken harmonically (the multibody campaign's
  // tall_stack:26, its one known defect): at t = 0.1539 s no consistent set of modes is found for
  // its touching contacts, neither by enumeration nor from the acceleration-level LCP. Going on
  // with inconsistent modes once let blocks sink into each other, reported completed; the run
  // stops there and says why, with exit code 9 (docs/simulation.md). (tall_stack:66, stack:20,
  // stack:50 and tall_stack:1, this test's scenes before, now run past their points. Once this
  // scene does too, give this test a scene that is inconsistent by construction.)
  const std::string path = routh::test::write_problem(
      "name: campaign_tall_stack_26\n"
      "duration: 0.16\n"
      "model:\n"
      "  gravity: 9.8100000000000005\n"
      "  bodies:\n"
      "    - {name: block1, mass: 4.4803794081474528, shape: {rectangle: {width: "
      "0.19669966602419875, height: 0.15841231687865473}}}\n"
      "    - {name: block2, mass: 0.39630118838145623, shape: {rectangle: {width: "
      "0.19669966602419875, height: 0.12178423816222042}}}\n"
      "    - {name: block3, mass: 0.67222950470376552, shape: {rectangle: {width: "
      "0.19669966602419875, height: 0.48065679873333639}}}\n"
      "    - {name: block4, mass: 2.501455130777583, shape: {rectangle: {width: "
      "0.19669966602419875, height: 0.36750884451713706}}}\n"
      "    - {name: block5, mass: 3.0510963118551802, shape: {rectangle: {width: "
      "0.19669966602419875, height: 0.34156412078158632}}}\n"
      "    - {name: block6, mass: 6.7902254194311089, shape: {rectangle: {width: "
      "0.19669966602419875, height: 0.18787558639928886}}}\n"
      "    - {name: block7, mass: 4.0692252269674087, shape: {rectangle: {width: "
      "0.19669966602419875, height: 0.39444105000792845}}}\n"
      "    - {name: block8, mass: 4.1916056412662988, shape: {rectangle: {width: "
      "0.19669966602419875, height: 0.20437005358031041}}}\n"
      "  obstacles:\n"
      "    - {name: floor, type: plane, point: [0, 0], normal: [0, 1]}\n"
      "initial:\n"
      "  q: {block1.x: 0, block2.x: 0, block3.x: 0, block4.x: 0, block5.x: 0, block6.x: 0, "
      "block7.x: 0, block8.x: 0}\n"
      "contact:\n"
      "  law: energetic\n"
      "  multi_contact_law: multipoint_energetic\n"
      "  restitution: 0.77307448277703672\n"
      "  friction: {static: 0.31363008515041235, kinetic: 0.30268392788919013}\n"
      "excitation:\n"
      "  harmonic: {amplitude: 3.0363081900083504, frequency: 4.6325295415114445, direction: x, "
      "phase: 1.9848198348630373}\n"
      "output: {rate: 200}\n",
      "campaign_tall_stack_26.yaml");
  const auto [scenario, outcome, trajectory] = routh::test::run_scenario_file(path);
  CHECK(outcome.status == RunStatus::contact_modes_unresolved);
  CHECK(outcome.final_state.t < 0.16);  // before the end of the run
  CHECK(all_samples_finite(trajectory));
  check_ends_in_trouble(trajectory, RunStatus::contact_modes_unresolved);
  CHECK(routh::exit_code(outcome.status) == 9);
}
