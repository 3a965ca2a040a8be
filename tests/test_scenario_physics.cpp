// The shipped scenarios, with the friction or the law overridden as a user would (`--set`), end
// with the right physics, checked against closed forms computed here from the scenario's own
// parameters: a frictionless rocking block falls straight down, a rough one never gains energy
// at an impact, a block launched with μ = 3 is stopped by friction at once, and every scenario run
// with Newton's law either completes with finite states or says why it stopped.

#include <doctest/doctest.h>

#include <cmath>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "support/scenario_run.hpp"
#include "support/trajectory_checks.hpp"

namespace routh {

TEST_CASE(
    "campaign: scenario rocking_block with contact.friction=0 completes and its centre falls "
    "straight down") {
  // Source: Newton's second law in x. Without friction the floor pushes only along +y, so the
  // centre's ẍ = 0 and, released at rest at x = 0, x(t) = 0 for good, while it rocks (to 1e-9 m).
  test::ScenarioRun run = test::run_shipped_scenario("rocking_block.yaml", {"contact.friction=0"});
  CHECK(run.outcome.status == RunStatus::completed);
  CHECK(run.outcome.final_state.t == run.scenario.settings.duration);
  CHECK_MESSAGE(test::first_non_finite_sample(run.trajectory).empty(),
                test::first_non_finite_sample(run.trajectory));
  REQUIRE(run.trajectory.samples.size() > 100);
  const double x0 = run.scenario.initial.q[0];
  CHECK(x0 == 0.0);
  for (const auto& s : run.trajectory.samples) {
    CAPTURE(s.t);
    CHECK(std::abs(s.q[0] - x0) < 1e-9);
  }
  CHECK_MESSAGE(test::first_corner_below_floor(run.trajectory, {0.1, 0.5}, 1e-9).empty(),
                test::first_corner_below_floor(run.trajectory, {0.1, 0.5}, 1e-9));
  CHECK_MESSAGE(test::first_energy_raising_event(run.trajectory).empty(),
                test::first_energy_raising_event(run.trajectory));
}

TEST_CASE(
    "campaign: scenario rocking_block with contact.friction=0.1 completes, finite, and no impact "
    "raises the energy") {
  // μ = 0.1 is below the ~0.15 the pivot needs (0.75 α for α = 0.197 rad), so the corners slip;
  // the block is free, so T + V never exceeds its start (1e-9 relative: the integrator).
  test::ScenarioRun run =
      test::run_shipped_scenario("rocking_block.yaml", {"contact.friction=0.1"});
  CHECK(run.outcome.status == RunStatus::completed);
  CHECK(run.outcome.final_state.t == run.scenario.settings.duration);
  CHECK_MESSAGE(test::first_non_finite_sample(run.trajectory).empty(),
                test::first_non_finite_sample(run.trajectory));
  REQUIRE(run.trajectory.samples.size() > 100);
  CHECK_MESSAGE(test::first_energy_raising_event(run.trajectory).empty(),
                test::first_energy_raising_event(run.trajectory));
  CHECK_MESSAGE(test::first_corner_below_floor(run.trajectory, {0.1, 0.5}, 1e-9).empty(),
                test::first_corner_below_floor(run.trajectory, {0.1, 0.5}, 1e-9));
  const double start = run.trajectory.samples.front().energy.total();
  for (const auto& s : run.trajectory.samples) {
    CAPTURE(s.t);
    CHECK(s.energy.total() - start <= 1e-9 * std::abs(start));
  }
}

TEST_CASE(
    "campaign: scenario sliding_block with contact.friction=3 completes: friction stops the slip "
    "at once, the block tips onto its leading corner and settles back where it started") {
  // The block (b = 0.2 m, h = 0.1 m half-sizes, m = 1 kg) slides at v₀ = 2 m/s along +x.
  //  - Sliding flat is impossible: moments about the centre leave the trailing corner
  //    λ_n = m g (1 − μ h/b)/2 < 0 for μ h/b = 1.5 > 1.
  //  - Sliding on the leading corner alone is Painlevé's paradox: there
  //    du_n/dλ = 1/m + b²/I − μ b h/I = 3.4 − 3 · 1.2 < 0 (I = m (b² + h²)/3).
  //  So an impulse at the leading corner at t = 0 stops its slip (an impact without collision):
  //  it needs |Γ_t|/Γ_n = 1.7/0.6 < μ, so the corner sticks and, with e = 0, stays on the floor;
  //  angular momentum about it is conserved: I_C ω = −m v₀ h with I_C = (4/3) m (b² + h²), so
  //  ω = −3 rad/s and v_cm = ω ẑ × (−b, h) = ω (−h, −b) = (0.3, 0.6) m/s. (Impulse at the trailing
  //  corner too would need it to pull: with both corners stopped, Γ_n,trailing = −0.5 N s.)
  //  The block then rocks on that corner (the pivot needs |λ_t|/λ_n ≤ 0.38 < μ), whose kinetic
  //  energy ½ I_C ω² = 0.3 J is below the m g (R − h) = 1.21 J that tipping over needs, so it
  //  rocks back to θ = 0 about the still corner, where x = 0 again; the landing stops it (plastic,
  //  and stopping needs Γ_n = 0.5 and 0.1 N s at the corners, friction 0.3 N s within μ).
  //  At t = 1 s it rests flat at x = 0.
  const double b = 0.2, h = 0.1, v0 = 2.0;
  test::ScenarioRun run = test::run_shipped_scenario("sliding_block.yaml", {"contact.friction=3"});
  CHECK(run.outcome.status == RunStatus::completed);
  CHECK(run.outcome.final_state.t == run.scenario.settings.duration);
  CHECK_MESSAGE(test::first_non_finite_sample(run.trajectory).empty(),
                test::first_non_finite_sample(run.trajectory));
  REQUIRE(run.scenario.initial.v[0] == v0);
  // the state after everything at t = 0: the last sample there
  const test::TrajectoryMemory::Sample* after = nullptr;
  for (const auto& s : run.trajectory.samples) {
    if (s.t == 0.0) after = &s;
  }
  REQUIRE(after != nullptr);
  const double omega = -v0 * h / ((4.0 / 3.0) * (b * b + h * h));
  CHECK(omega == doctest::Approx(-3.0));
  CHECK(std::abs(after->v[0] - omega * -h) < 1e-9);
  CHECK(std::abs(after->v[1] - omega * -b) < 1e-9);
  CHECK(std::abs(after->v[2] - omega) < 1e-9);
  // the leading (right) corner does not move while the block rocks on it
  const test::BlockCorners corners{b, h};
  for (const auto& s : run.trajectory.samples) {
    CAPTURE(s.t);
    CHECK(std::abs(corners.abscissae(s.q)[1] - b) < 1e-9);
  }
  CHECK_MESSAGE(test::first_corner_below_floor(run.trajectory, corners, 1e-9).empty(),
                test::first_corner_below_floor(run.trajectory, corners, 1e-9));
  CHECK_MESSAGE(test::first_energy_raising_event(run.trajectory).empty(),
                test::first_energy_raising_event(run.trajectory));
  const SimulationState& end = run.outcome.final_state;
  CHECK(std::abs(end.q[0]) < 1e-9);
  CHECK(std::abs(end.q[1] - h) < 1e-9);
  CHECK(std::abs(end.q[2]) < 1e-9);
  CHECK(end.v.norm() < 1e-9);
}

namespace {

// Never a NaN: every sample and the final state are finite; a completed run reached its duration
// and has nothing to explain, one that did not complete says why.
void check_finite_or_named(const test::ScenarioRun& run) {
  CHECK_MESSAGE(test::first_non_finite_sample(run.trajectory).empty(),
                test::first_non_finite_sample(run.trajectory));
  CHECK(run.outcome.final_state.q.allFinite());
  CHECK(run.outcome.final_state.v.allFinite());
  if (run.outcome.status == RunStatus::completed) {
    CHECK(run.outcome.final_state.t == run.scenario.settings.duration);
    CHECK(run.outcome.detail.empty());
  } else {
    CHECK(!run.outcome.detail.empty());  // it says why
  }
}

}  // namespace

TEST_CASE(
    "campaign: every shipped scenario run with contact.law=newton completes with finite samples "
    "or ends with a named status, never a NaN sample") {
  const std::vector<std::string> names = test::shipped_scenarios();
  CHECK(names.size() == 29);
  int runs = 0;
  for (const std::string& name : names) {
    CAPTURE(name);
    if (test::not_yet_running(name)) continue;  // the reason: test::kNotYetRunning
    // free bodies that can touch nothing have no contact section for a law to go in
    if (load_scenario(test::shipped_scenario(name)).model->contact_count() == 0) continue;
    test::ScenarioRun run = test::run_shipped_scenario(name, {"contact.law=newton"});
    MESSAGE(name << " with newton: " << to_string(run.outcome.status)
                 << " at t = " << run.outcome.final_state.t << " s " << run.outcome.detail);
    check_finite_or_named(run);
    ++runs;
  }
  CHECK(runs == 29 - 1 - static_cast<int>(std::size(test::kNotYetRunning)));  // 1: free_body_flip
}

TEST_CASE(
    "campaign: scenario bouncing_pendulum with contact.law=newton never produces a NaN state") {
  // Reported: it printed `completed` with NaN states from t = 5.71 s.
  test::ScenarioRun run =
      test::run_shipped_scenario("bouncing_pendulum.yaml", {"contact.law=newton"});
  if (!test::first_non_finite_sample(run.trajectory).empty()) {
    // for the diagnosis: the events up to the first non-finite sample
    double first_bad = 0.0;
    for (const auto& s : run.trajectory.samples) {
      if (!s.v.allFinite() || !s.q.allFinite()) {
        first_bad = s.t;
        break;
      }
    }
    std::ostringstream log;
    log.precision(10);
    for (const EventRecord& event : run.trajectory.events) {
      if (event.t > first_bad || event.t < first_bad - 0.05) continue;
      log << "t " << event.t << " " << to_string(event.kind) << " " << event.status << " "
          << event.phases << " flags " << event.flags << " u_pre";
      for (double u : event.u_pre) log << ' ' << u;
      log << " u_post";
      for (double u : event.u_post) log << ' ' << u;
      log << "\n";
    }
    MESSAGE("events before the first non-finite sample at t = " << first_bad << " s:\n"
                                                                << log.str());
  }
  check_finite_or_named(run);
  if (run.outcome.status == RunStatus::completed) {
    REQUIRE(!run.trajectory.samples.empty());
    CHECK(run.trajectory.samples.back().t == run.scenario.settings.duration);
  }
}

}  // namespace routh
