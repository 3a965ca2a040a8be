// Regressions for reported defects of the simulator, each on the reported run, with the physics
// that says why the reported behaviour is wrong.
//
// Painlevé's paradox on a uniform rectangular block's corner needs μ ≥ 4/3: sliding with
// friction at a corner r = R (sin ψ, cos ψ) from the centre, du_n/dλ = 1/m + r_x²/I − μ |r_x r_y|/I
// (I = m R²/3) is negative only for μ > (1 + 4 tan²ψ)/(3 tan ψ) ≥ 4/3 (see
// test_rocking_campaign.cpp for the two-corner case). And a separating contact (u_n > 0) is open:
// it needs no force, so it can never be in Painlevé's paradox.

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <sstream>

#include "models/named_models.hpp"
#include "sim/impact/poisson.hpp"
#include "support/scenario_run.hpp"
#include "support/trajectory_checks.hpp"

namespace routh {

TEST_CASE("campaign: defect: rocking_block.yaml with contact.friction=0 has no painleve event") {
  // Frictionless: du_n/dλ = 1/m + r_x²/I > 0 at every contact, no paradox is possible.
  test::ScenarioRun run = test::run_shipped_scenario("rocking_block.yaml", {"contact.friction=0"});
  for (std::size_t i = 0; i < run.trajectory.events.size(); ++i) {
    if (run.trajectory.events[i].kind != EventKind::painleve) continue;
    // for the diagnosis: the events leading to it
    std::ostringstream log;
    log.precision(12);
    for (std::size_t j = i > 3 ? i - 3 : 0; j <= i; ++j) {
      const EventRecord& event = run.trajectory.events[j];
      log << "t " << event.t << " " << to_string(event.kind) << " [";
      for (int k : event.contacts) log << ' ' << k;
      log << " ] " << event.phases << " u_pre";
      for (double u : event.u_pre) log << ' ' << u;
      log << " u_post";
      for (double u : event.u_post) log << ' ' << u;
      log << "\n";
    }
    MESSAGE(log.str());
  }
  CHECK(run.trajectory.times_of(EventKind::painleve).empty());
  CHECK(run.trajectory.times_of(EventKind::trouble).empty());
  CHECK(run.outcome.status == RunStatus::completed);
}

TEST_CASE(
    "campaign: defect: a 0.4 m x 1.2 m rocking block with e = 0.2 does not stop with a spurious "
    "Painlevé") {
  // Reported: it stopped after a few seconds with a painleve event. μ = 0.7 < 4/3: impossible.
  test::ScenarioRun run = test::run_shipped_scenario(
      "rocking_block.yaml", {"model.width=0.4", "model.height=1.2", "contact.restitution=0.2"});
  CHECK(run.trajectory.times_of(EventKind::painleve).empty());
  CHECK(run.outcome.status == RunStatus::completed);
  CHECK(run.outcome.final_state.t == run.scenario.settings.duration);
  CHECK_MESSAGE(test::first_non_finite_sample(run.trajectory).empty(),
                test::first_non_finite_sample(run.trajectory));
  CHECK_MESSAGE(test::first_corner_below_floor(run.trajectory, {0.2, 0.6}, 1e-9).empty(),
                test::first_corner_below_floor(run.trajectory, {0.2, 0.6}, 1e-9));
  CHECK_MESSAGE(test::first_energy_raising_event(run.trajectory).empty(),
                test::first_energy_raising_event(run.trajectory));
}

TEST_CASE("campaign: defect: sliding_block.yaml with contact.friction=3 does not fail at t = 0") {
  // Its leading corner is in Painlevé's paradox at t = 0 (test_scenario_physics.cpp derives it),
  // which an impact without collision resolves; the run must go on.
  test::ScenarioRun run = test::run_shipped_scenario("sliding_block.yaml", {"contact.friction=3"});
  CHECK(run.trajectory.times_of(EventKind::trouble).empty());
  CHECK(run.outcome.status == RunStatus::completed);
  CHECK(run.outcome.final_state.t == run.scenario.settings.duration);
}

TEST_CASE("campaign: defect: a separating contact is never in Painlevé's paradox") {
  // A 1 m, 1 kg rod at θ = π/3 from the floor, its left end on the floor, with μ = 1.5: sliding
  // on that end would be Painlevé's configuration (1 + 3cos²θ − 3μ sinθ cosθ < 0,
  // test_painleve.cpp). Here the end leaves the floor at u_n > 0 while sliding at −1 m/s: it is
  // open, in flight until it lands at t = 2 u_n / g (θ̇ = 0, so the end moves with the centre),
  // and nothing before that may be called Painlevé (after the landing the paradox is real).
  const double theta = std::numbers::pi / 3.0, mu = 1.5, g = 9.81;
  REQUIRE(1.0 + 3.0 * std::cos(theta) * std::cos(theta) -
              3.0 * mu * std::sin(theta) * std::cos(theta) <
          0.0);
  const auto rod = make_rod(1.0, 1.0);
  int runs = 0;
  for (const double u_n : {0.5, 1e-3, 2e-6}) {
    CAPTURE(u_n);
    SimulationState initial;
    initial.q = Eigen::Vector3d(0.0, 0.5 * std::sin(theta), theta);
    // the end's velocity is (ẋ + ½ sinθ ω, ẏ − ½ cosθ ω); ω = 0
    initial.v = Eigen::Vector3d(-1.0, u_n, 0.0);
    SimulationSettings settings;
    settings.duration = 0.01;
    settings.law = solve_poisson;
    settings.contacts.assign(2, {0.0, mu, mu});
    test::TrajectoryMemory trajectory;
    const SimulationOutcome outcome = simulate(*rod, initial, settings, trajectory);
    const double landing = 2.0 * u_n / g;
    for (const double t : trajectory.times_of(EventKind::painleve)) CHECK(t >= 0.999 * landing);
    if (landing > settings.duration) {
      CHECK(trajectory.events.empty());
      CHECK(outcome.status == RunStatus::completed);
      CHECK(outcome.final_state.v[1] == doctest::Approx(u_n - g * 0.01).epsilon(1e-9));
    }
    ++runs;
  }
  CHECK(runs == 3);
}

}  // namespace routh
