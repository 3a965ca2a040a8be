// Regressions for reported defects of the simulator, each on the reported run, with the physics
// that says why the reported behaviour is wrong.
//
// Painlevé's paradox on a uniform rectangular block's corner needs μ ≥ 4/3: sliding with
// friction at a corner r = R (sin ψ, cos ψ) from the centre, du_n/dλ = 1/m + r_x²/I − μ |r_x r_y|/I
// (I = m R²/3) is negative only for μ > (1 + 4 tan²ψ)/(3 tan ψ) ≥ 4/3 (see
// test_rocking_campaign.cpp for the two-corner case). And a separating contact (u_n > 0) is open:
// it needs no force, so it can never be in Painlevé's paradox.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>

#include "models/named_models.hpp"
#include "sim/impact/poisson.hpp"
#include "support/scenario_run.hpp"
#include "support/scratch_files.hpp"
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

TEST_CASE(
    "campaign: defect: a vertex on a segment's line is never struck against both of its faces") {
  // The multibody campaign's chain:342, five segment links (polygons of two vertices) hanging
  // from a pivot. A segment's two faces share its line and have opposite normals: a vertex on the
  // line reads a zero gap against both, and their Jacobian rows are each other's negatives, so
  // that together they make the impact problem's D = J M⁻¹ Jᵀ singular. Both were handed to the
  // law (link5.v1 against link3.e0 and link3.e1 at t = 0.352 s, link1.v0 likewise at 0.645 s),
  // which answered with opposing impulses of 1e15 N s; their round-off raised T from 16.9 J to
  // 20.7 J at 0.645 s, unflagged, and the run ended in an event storm. A vertex touches only the
  // face on its own body's side, the one it came from.
  const std::string path = test::write_problem(
      "name: campaign_chain_342\n"
      "duration: 0.66\n"
      "model:\n"
      "  gravity: 9.8100000000000005\n"
      "  bodies:\n"
      "    - {name: link1, mass: 0.4760607460297217, shape: {polygon: {vertices: [[0, 0], [0, "
      "-0.34735280813141589]]}}}\n"
      "    - {name: link2, mass: 1.2388496558092801, shape: {polygon: {vertices: [[0, 0], [0, "
      "-0.28399513885642852]]}}}\n"
      "    - {name: link3, mass: 0.30102388077550768, shape: {polygon: {vertices: [[0, 0], [0, "
      "-0.94150049199600838]]}}}\n"
      "    - {name: link4, mass: 0.91335825658512493, shape: {polygon: {vertices: [[0, 0], [0, "
      "-0.28660266639280468]]}}}\n"
      "    - {name: link5, mass: 1.0374307881364329, shape: {polygon: {vertices: [[0, 0], [0, "
      "-0.24835296730024192]]}}}\n"
      "  joints:\n"
      "    - {type: revolute, parent: ground, child: link1, parent_point: [0, 1.3135286240644517], "
      "child_point: [0, 0], angle: absolute}\n"
      "    - {type: revolute, parent: link1, child: link2, parent_point: [0, "
      "-0.34735280813141589], child_point: [0, 0], angle: absolute}\n"
      "    - {type: revolute, parent: link2, child: link3, parent_point: [0, "
      "-0.28399513885642852], child_point: [0, 0], angle: absolute}\n"
      "    - {type: revolute, parent: link3, child: link4, parent_point: [0, "
      "-0.94150049199600838], child_point: [0, 0], angle: absolute}\n"
      "    - {type: revolute, parent: link4, child: link5, parent_point: [0, "
      "-0.28660266639280468], child_point: [0, 0], angle: absolute}\n"
      "  obstacles:\n"
      "    - {name: floor, type: plane, point: [0, 0], normal: [0, 1]}\n"
      "    - {name: wall, type: plane, point: [-1.6575956788220754, 0], normal: [1, 0]}\n"
      "initial:\n"
      "  q: {link1.theta: -2.644835354388587, link2.theta: 1.3573952071561246, link3.theta: "
      "2.724960131570926, link4.theta: -0.33733555795629, link5.theta: 0.92499495742673865}\n"
      "  v: {link1.theta: -0.61272992982198993, link5.theta: -2.6991380190182275}\n"
      "contact:\n"
      "  law: poisson\n"
      "  multi_contact_law: multipoint_energetic\n"
      "  restitution: 0.59009452389852202\n"
      "  friction: {static: 0.96468004621408288, kinetic: 0.73108189286938297}\n"
      "output: {rate: 200}\n",
      "campaign_chain_342.yaml");
  const test::ScenarioRun run = test::run_scenario_file(path);
  CHECK(run.outcome.status == RunStatus::completed);
  const MechanicalSystem& model = *run.scenario.model;
  int impacts = 0;
  for (const EventRecord& event : run.trajectory.events) {
    if (event.kind != EventKind::impact) continue;
    ++impacts;
    for (const int contact : event.contacts) {
      const int opposite = model.opposite_face_contact(contact);
      CAPTURE(event.t);
      CHECK(std::find(event.contacts.begin(), event.contacts.end(), opposite) ==
            event.contacts.end());
    }
    // an impulse of the scene's scale: its momentum is a few kg m/s, not 1e15 N s
    for (const double impulse : event.impulse) CHECK(std::abs(impulse) < 100.0);
  }
  CHECK(impacts >= 3);
  // energy: impacts only dissipate here (Poisson's law, multipoint energetic), or say otherwise
  CHECK(test::first_energy_raising_event(run.trajectory) == "");
}

}  // namespace routh
