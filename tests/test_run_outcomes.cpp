// The outcome events of a run (uplift, overturn), `events.stop_on`, and the summary figures,
// checked against closed forms and an independent integration of the rocking equation.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "sim/text.hpp"
#include "support/housner_block.hpp"
#include "support/scenario_run.hpp"

namespace {

using routh::EventKind;
using routh::RunStatus;
using routh::test::run_shipped_scenario;

// The shipped rocking block: 0.2 m × 1.0 m, so b = 0.1 m, h = 0.5 m.
constexpr double kB = 0.1, kH = 0.5, kGravity = 9.81;
const double kAlpha = std::atan(kB / kH);

// Housner's equation on the left corner, integrated by RK4 (support/housner_block.hpp).
double overturn_time_by_rk4(double theta0) {
  return routh::test::HousnerBlock{kB, kH, kGravity}.overturn_time(theta0);
}

}  // namespace

TEST_CASE(
    "outcomes: a block released beyond its critical angle overturns when Housner's "
    "equation says, and stop_on ends the run there") {
  // Released 0.15 rad beyond α on its left corner. Housner's equation holds while the pivot
  // sticks, and a falling block needs far more friction to keep it than to rock: with ψ = θ − α,
  //   F/(m g) = (3/4) sin ψ cos ψ − (3/2)(cos ψ0 − cos ψ) sin ψ,
  //   N/(m g) = 1 − (3/4) sin² ψ − (3/2)(cos ψ0 − cos ψ) cos ψ,
  // and N nearly vanishes at ψ ≈ 1.235 (0.0056 m g), where |F/N| = 125: μ = 1000 keeps it stuck
  // (at μ = 10 or 100 the pivot slips there, and the block overturns 0.8 ms or 9 µs later).
  const double theta0 = kAlpha + 0.15;
  const routh::test::ScenarioRun run = run_shipped_scenario(
      "rocking_block.yaml", {routh::cat("initial.q.theta=", std::setprecision(17), theta0),
                             "duration=5", "contact.friction=1000", "events.stop_on=[overturn]"});
  const double expected = overturn_time_by_rk4(theta0);
  REQUIRE(run.outcome.status == RunStatus::stopped_on_event);
  const std::vector<double> overturns = run.trajectory.times_of(EventKind::overturn);
  REQUIRE(overturns.size() == 1);
  // the pivot stuck throughout: nothing happened before the overturn
  CHECK(run.trajectory.events.front().kind == EventKind::overturn);
  CHECK(std::abs(overturns.front() - expected) < 1e-8);
  CHECK(run.outcome.final_state.t == overturns.front());
  CHECK(run.outcome.summary.overturned);
  CHECK(run.outcome.summary.overturn_time == overturns.front());
  CHECK(run.outcome.summary.overturned_body == "block");
  CHECK(run.outcome.summary.max_abs_theta == doctest::Approx(0.5 * std::numbers::pi));
  MESSAGE("overturn at ", overturns.front(), " s; RK4 of Housner's equation: ", expected, " s");
}

TEST_CASE(
    "outcomes: a block standing on a harmonically shaken floor uplifts when a_g reaches "
    "g b/h (closed form), and stop_on: [uplift] ends the run there") {
  // a_g = A sin(2π f t); the block tips onto a corner when the inertial load's moment about it,
  // m a_g h, exceeds the weight's, m g b (friction 0.7 > b/h keeps it from sliding)
  constexpr double kAmplitude = 3.0, kFrequency = 1.0;
  const double expected =
      std::asin(kGravity * kB / kH / kAmplitude) / (2.0 * std::numbers::pi * kFrequency);
  const std::vector<std::string> shaking = {"initial.q.theta=0",
                                            "duration=0.5",
                                            "excitation.harmonic.amplitude=3.0",
                                            "excitation.harmonic.frequency=1.0",
                                            "excitation.harmonic.direction=x",
                                            "excitation.harmonic.phase=0"};
  const routh::test::ScenarioRun free_run = run_shipped_scenario("rocking_block.yaml", shaking);
  CHECK(free_run.outcome.status == RunStatus::completed);
  const std::vector<double> uplifts = free_run.trajectory.times_of(EventKind::uplift);
  REQUIRE(uplifts.size() == 1);  // once per run, although the block rocks on
  CHECK(std::abs(uplifts.front() - expected) < 1e-9);
  CHECK(free_run.outcome.summary.uplift_time == uplifts.front());
  CHECK_FALSE(free_run.outcome.summary.overturned);
  CHECK(std::isnan(free_run.outcome.summary.overturn_time));
  CHECK(free_run.outcome.summary.max_abs_theta > 0.0);

  std::vector<std::string> stopping = shaking;
  stopping.push_back("events.stop_on=[uplift]");
  const routh::test::ScenarioRun stopped = run_shipped_scenario("rocking_block.yaml", stopping);
  CHECK(stopped.outcome.status == RunStatus::stopped_on_event);
  CHECK(stopped.outcome.final_state.t == uplifts.front());
  CHECK(stopped.trajectory.events.back().kind == EventKind::uplift);
  MESSAGE("uplift at ", uplifts.front(), " s; closed form ", expected, " s");
}

TEST_CASE("outcomes: the summary's dissipated energy is the impacts' loss, Σ −ΔT") {
  const routh::test::ScenarioRun run = run_shipped_scenario("rocking_block.yaml");
  double loss = 0.0;
  for (const routh::EventRecord& event : run.trajectory.events) {
    if (event.kind == EventKind::impact) loss -= event.delta_T;
  }
  CHECK(loss > 0.0);
  CHECK(run.outcome.summary.dissipated_energy == doctest::Approx(loss).epsilon(1e-12));
  // with no friction work and no excitation, it is the whole energy lost
  const double lost =
      run.trajectory.samples.front().energy.total() - run.trajectory.samples.back().energy.total();
  CHECK(run.outcome.summary.dissipated_energy == doctest::Approx(lost).epsilon(1e-6));
}

TEST_CASE("outcomes: a spinning disk turns through any angle without overturning, a block does") {
  // two_disks: disk 1 spins at −11 rad/s and turns past π/2 within 0.15 s, yet a disk looks the
  // same at every angle, so nothing is watched; the stacked blocks' free bodies both are.
  const routh::test::ScenarioRun disks = run_shipped_scenario("two_disks.yaml", {"duration=1"});
  CHECK(disks.outcome.status == RunStatus::completed);
  REQUIRE(std::abs(
              disks.outcome.final_state.q[disks.scenario.planar->coordinate_index("disk1.theta")]) >
          0.5 * std::numbers::pi);
  CHECK(disks.trajectory.times_of(EventKind::overturn).empty());
  CHECK_FALSE(disks.outcome.summary.overturned);
  CHECK(disks.scenario.settings.overturn_watch.empty());

  const routh::Scenario stack =
      routh::load_scenario(routh::test::shipped_scenario("stacked_blocks.yaml"));
  REQUIRE(stack.settings.overturn_watch.size() == 2);
  CHECK(stack.settings.overturn_watch[0].body == "block1");
  CHECK(stack.settings.overturn_watch[1].body == "block2");
}

TEST_CASE(
    "outcomes: max_slide is a sliding block's travel, v0² / (2 μd g), and no slide for rocking") {
  // sliding_block: 0.4 m × 0.2 m launched flat at v0 = 2 m/s, μd = 0.4 (Coulomb friction on both
  // corners decelerates it at μd g until it sticks): it travels v0² / (2 μd g)
  const routh::test::ScenarioRun sliding = routh::test::run_shipped_scenario("sliding_block.yaml");
  REQUIRE(sliding.outcome.status == routh::RunStatus::completed);
  const double v0 = 2.0, mu_d = 0.4, g = 9.81;
  CHECK(sliding.outcome.summary.max_slide ==
        doctest::Approx(v0 * v0 / (2.0 * mu_d * g)).epsilon(1e-8));

  // rocking_block: released tilted, rocking on one corner then the other with friction enough to
  // hold the pivot: one base corner stays put, so the base does not slide, though the centre and
  // the lifted corner move sideways
  const routh::test::ScenarioRun rocking = routh::test::run_shipped_scenario("rocking_block.yaml");
  REQUIRE(rocking.outcome.status == routh::RunStatus::completed);
  CHECK(rocking.outcome.impacts > 2);
  CHECK(rocking.outcome.summary.max_abs_theta > 0.01);
  CHECK(rocking.outcome.summary.max_slide < 1e-9);
}

TEST_CASE("outcomes: every time in a shipped scenario's summary lies within the run") {
  // The last step may end past the duration (the samples stop at it): the largest rotation of a
  // block at rest under a record too weak to lift it (rotation round-off) was once dated to that
  // step's end, 0.035 s after the run.
  std::vector<std::pair<std::string, std::vector<std::string>>> runs{
      {"rocking_block_record.yaml", {"excitation.0.record.scale=0.5"}}};
  for (const std::string& name : routh::test::shipped_scenarios()) {
    if (!routh::test::not_yet_running(name)) runs.push_back({name, {}});  // kNotYetRunning says why
  }
  for (const auto& [name, overrides] : runs) {
    CAPTURE(name);
    const routh::test::ScenarioRun run = routh::test::run_shipped_scenario(name, overrides);
    const routh::RunSummary& summary = run.outcome.summary;
    const double end_s = run.outcome.final_state.t;
    for (const double t :
         {summary.max_abs_theta_time, summary.uplift_time, summary.overturn_time}) {
      if (!std::isnan(t)) CHECK((t >= 0.0 && t <= end_s));
    }
  }
}
