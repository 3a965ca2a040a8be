// The calibrated rocking laws `rocking` and `rocking_over_housner` (sim/impact/rocking.hpp) on
// Housner's block: the ratio of the rocking angular velocities at every impact is the η asked
// for, η = η_H = 1 − 1.5 sin²α gives Housner's plastic, sticking impact (as `poisson` with e = 0
// does), and each impact keeps η² of the kinetic energy, of one block and of a stack.
// References, from Housner (1963), "The behavior of inverted pendulum structures during
// earthquakes", for a block of half-width b, half-height h and mass m, R² = b² + h²,
// I_O = (4/3) m R² about a corner: rotating about one corner at ω⁻ before and about the other
// at ω⁺ = η ω⁻ after, the impact changes the kinetic energy by ½ (η² − 1) I_O ω⁻², and the
// angular momentum about the landing corner by (η − η_H) I_O ω⁻, which only a normal impulse at
// the old pivot, 2b from it, can carry: Γ_n,old = (η − η_H) I_O ω⁻ / (2b).

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "models/named_models.hpp"
#include "sim/impact/law_catalogue.hpp"
#include "sim/impact/rocking.hpp"
#include "sim/scenario/impact_problem_file.hpp"
#include "sim/scenario/yaml_input.hpp"
#include "sim/simulation/impact_step.hpp"
#include "support/random_source.hpp"
#include "support/scenario_run.hpp"
#include "support/scratch_files.hpp"

namespace routh {

namespace {

constexpr double kGravity = 9.81;  // [m/s²], the models' g

std::string number(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

double housner_ratio(double b, double h) { return 1.0 - 1.5 * b * b / (b * b + h * h); }

// One rocking impact of a run: the spin just before and just after, and the kinetic energies.
struct RockingImpact {
  double spin_before = 0.0, spin_after = 0.0;  // θ̇ [rad/s]
  double kinetic_before = 0.0;                 // [J]
  double delta_T = 0.0;                        // the event's [J]
  double kinetic_change = 0.0;                 // of the samples around it [J]
};

// The impacts of `run`, from the samples the simulator records just before and just after each
// instant with events; `spin` is θ's index in v.
std::vector<RockingImpact> rocking_impacts(const test::ScenarioRun& run, Eigen::Index spin) {
  std::vector<RockingImpact> impacts;
  const auto& samples = run.trajectory.samples;
  for (const EventRecord& event : run.trajectory.events) {
    if (event.kind != EventKind::impact) continue;
    const test::TrajectoryMemory::Sample* before = nullptr;
    const test::TrajectoryMemory::Sample* after = nullptr;
    for (const auto& sample : samples) {
      if (sample.t != event.t) continue;
      if (sample.kind == SampleKind::before_event && before == nullptr) before = &sample;
      if (sample.kind == SampleKind::after_event) after = &sample;
    }
    REQUIRE(before != nullptr);
    REQUIRE(after != nullptr);
    impacts.push_back({before->v[spin], after->v[spin], before->energy.kinetic, event.delta_T,
                       after->energy.kinetic - before->energy.kinetic});
  }
  return impacts;
}

// A block of half-width b and half-height h released from rest on its left corner at α/2,
// rocking freely under the law `law` with restitution `restitution`.
test::ScenarioRun free_rocking(double b, double h, const std::string& law, double restitution,
                               double duration) {
  static const std::string kFile = test::write_problem(
      "duration: 1\n"
      "model: {type: rocking_block, width: 0.2, height: 1.0, mass: 1.0}\n"
      "initial: {q: {theta: 0}}\n"
      "contact: {law: rocking, restitution: 0.9, friction: 10}\n"
      "output: {rate: 10}\n",
      "free_rocking_block.yaml");
  return test::run_scenario_file(
      kFile,
      {"duration=" + number(duration), "model.width=" + number(2.0 * b),
       "model.height=" + number(2.0 * h), "initial.q.theta=" + number(0.5 * std::atan(b / h)),
       "contact.law=" + law, "contact.restitution=" + number(restitution)});
}

// The block flat on the floor rotating clockwise at ω about its left corner, its right corner
// landing: v = (ω h, −ω b, −ω) for the centre at (0, h) above the corners at (±b, 0).
Eigen::VectorXd landing_on_right_corner(double b, double h, double omega) {
  return Eigen::Vector3d(omega * h, -omega * b, -omega);
}

}  // namespace

TEST_CASE("rocking restitution: a free rocking block keeps eta of its spin at every impact") {
  for (const double slenderness : {0.1, 0.25, 0.5}) {  // b / h = tan α
    for (const double eta : {0.3, 0.7, 0.95}) {
      CAPTURE(slenderness);
      CAPTURE(eta);
      const double b = 0.1, h = b / slenderness;
      const test::ScenarioRun run = free_rocking(b, h, "rocking", eta, 1.5);
      REQUIRE(run.outcome.status == RunStatus::completed);
      const std::vector<RockingImpact> impacts = rocking_impacts(run, 2);
      int rocking = 0;
      for (const RockingImpact& impact : impacts) {
        // the landings of a rocking block; impacts slower than the rest speed close it (η = 0)
        if (std::abs(impact.spin_before) * b < 1e-4) continue;
        ++rocking;
        CHECK(impact.spin_after / impact.spin_before == doctest::Approx(eta).epsilon(1e-9));
        CHECK(impact.delta_T <= 0.0);
        CHECK(impact.delta_T ==
              doctest::Approx((eta * eta - 1.0) * impact.kinetic_before).epsilon(1e-8));
        CHECK(impact.kinetic_change == doctest::Approx(impact.delta_T).epsilon(1e-7));
      }
      CHECK(rocking >= 2);
    }
  }
}

TEST_CASE("rocking restitution: eta = eta_H is Housner's impact, as poisson with e = 0 gives it") {
  // The shipped rocking block (b/h = 0.2) under `poisson` with e = 0 and friction enough to
  // stick: Housner's impact (tests/test_impact_step.cpp). The calibrated laws at η = η_H, or at
  // η / η_H = 1, must follow the same motion: the same impacts at the same times with the same
  // spins.
  const double eta_h = housner_ratio(0.1, 0.5);
  const test::ScenarioRun housner =
      test::run_shipped_scenario("rocking_block.yaml", {"duration=2"});
  const std::vector<RockingImpact> reference = rocking_impacts(housner, 2);
  REQUIRE(reference.size() >= 3);
  for (const auto& [law, restitution] :
       {std::pair<std::string, double>{"rocking", eta_h}, {"rocking_over_housner", 1.0}}) {
    CAPTURE(law);
    const test::ScenarioRun run = test::run_shipped_scenario(
        "rocking_block.yaml",
        {"duration=2", "contact.law=" + law, "contact.multi_contact_law=" + law,
         "contact.restitution=" + number(restitution)});
    const std::vector<RockingImpact> impacts = rocking_impacts(run, 2);
    REQUIRE(impacts.size() == reference.size());
    for (std::size_t i = 0; i < impacts.size(); ++i) {
      CAPTURE(i);
      CHECK(run.trajectory.events.size() == housner.trajectory.events.size());
      CHECK(impacts[i].spin_before == doctest::Approx(reference[i].spin_before).epsilon(1e-9));
      CHECK(impacts[i].spin_after == doctest::Approx(reference[i].spin_after).epsilon(1e-9));
      CHECK(impacts[i].spin_after / impacts[i].spin_before == doctest::Approx(eta_h).epsilon(1e-9));
    }
  }
}

TEST_CASE("rocking restitution: random blocks and eta, one landing each, against Housner") {
  // The impact step alone on the landing of a random block: both bottom corners take part, the
  // block turns about the landing corner at η ω⁻, the impact changes the kinetic energy by
  // ½ (η² − 1) I_O ω⁻² (as the law reports it and as the velocities show), and the old pivot
  // carries Γ_n = (η − η_H) I_O ω⁻ / (2b). `rocking_over_housner` with η / η_H gives the same.
  test::RandomSource random(0x0e7a);
  for (int trial = 0; trial < 200; ++trial) {
    CAPTURE(trial);
    const double b = random.decade(-2.0, 0.0);          // 1 cm to 1 m half-width
    const double h = b / random.uniform(0.05, 1.0);     // tan α from 0.05 to 1
    const double m = random.decade(-1.0, 3.0);          // 0.1 kg to 1 t
    const double omega = random.decade(-2.0, 1.0) / h;  // [rad/s]
    const double eta = random.uniform(0.0, 1.0);
    const double eta_h = housner_ratio(b, h);
    const bool over_housner = trial % 2 == 1 && eta <= eta_h;
    const LawEntry& law = *find_law(over_housner ? "rocking_over_housner" : "rocking");
    CAPTURE(law.name);
    const auto block = make_rocking_block(2.0 * b, 2.0 * h, m);
    SimulationSettings settings;
    settings.law = settings.multi_contact_law = law.solve;
    settings.contacts.assign(4, {over_housner ? eta / eta_h : eta, 10.0, 10.0});
    SystemEvaluation evaluation(*block, settings.contacts);
    const Eigen::VectorXd q = Eigen::Vector3d(0.0, h, 0.0);
    const Eigen::VectorXd v = landing_on_right_corner(b, h, omega);
    const ImpactResolution impact =
        resolve_impact(evaluation, settings, 0.0, q, v, {1}, false, ImpactStart::collision);
    REQUIRE(impact.resolved);
    CHECK(impact.contacts == std::vector<int>{0, 1});
    CHECK(impact.event.flags.empty());
    const Eigen::VectorXd v_post = v + impact.velocity_change;
    const double spin_post = -eta * omega;  // about the right corner, clockwise as before
    const Eigen::VectorXd expected = Eigen::Vector3d(-spin_post * h, -spin_post * b, spin_post);
    CHECK((v_post - expected).cwiseAbs().maxCoeff() <= 1e-10 * omega * h);
    const double inertia_corner = 4.0 / 3.0 * m * (b * b + h * h);  // I_O
    const double housner_energy = 0.5 * (eta * eta - 1.0) * inertia_corner * omega * omega;
    const double scale = 0.5 * inertia_corner * omega * omega;  // T⁻ [J]
    CHECK(impact.event.delta_T <= 1e-12 * scale);
    CHECK(std::abs(impact.event.delta_T - housner_energy) <= 1e-10 * scale);
    const Eigen::Vector3d mass(m, m, m * (b * b + h * h) / 3.0);
    const double applied = 0.5 * (v_post.cwiseAbs2().dot(mass) - v.cwiseAbs2().dot(mass));
    CHECK(std::abs(applied - housner_energy) <= 1e-10 * scale);
    const double old_pivot = (eta - eta_h) * inertia_corner * omega / (2.0 * b);
    CHECK(std::abs(impact.event.impulse[0] - old_pivot) <= 1e-10 * inertia_corner * omega / b);
  }
}

TEST_CASE("rocking restitution: a stack's impacts keep eta^2 of the island's kinetic energy") {
  // The shipped stacks (a slender block rocking on a wide one, shaken harmonically; a statue on
  // its plinth under a record): every impact is answered with every touching contact of both
  // blocks, whose contact space holds all their velocities, so T⁺ = η² T⁻ of the two blocks
  // together (rocking.hpp). The statue lands near one corner of the plinth, whose far floor
  // corner carries little normal impulse: the least-norm share of the floor's friction would
  // leave its cone, and the law must find a share that sticks (no fallback to lcp).
  const double eta = 0.8;
  for (const char* name : {"stacked_blocks.yaml", "statue_on_plinth.yaml"}) {
    CAPTURE(name);
    const test::ScenarioRun run = test::run_shipped_scenario(
        name, {"duration=5", "contact.law=rocking", "contact.multi_contact_law=rocking",
               "contact.restitution=" + number(eta)});
    REQUIRE(run.outcome.status == RunStatus::completed);
    int impacts = 0;
    for (const EventRecord& event : run.trajectory.events) {
      if (event.kind != EventKind::impact) continue;
      ++impacts;
      CHECK(event.contacts.size() >= 3);  // the bottom block's floor corners and the top one's
      CHECK(event.flags.empty());
    }
    CHECK(impacts >= 4);
    for (const RockingImpact& impact : rocking_impacts(run, 5)) {  // the top block's θ
      if (impact.kinetic_before < 1e-9) continue;  // at rest: the closing of a Zeno sequence
      CHECK(impact.delta_T ==
            doctest::Approx((eta * eta - 1.0) * impact.kinetic_before).epsilon(1e-8));
      CHECK(impact.kinetic_change == doctest::Approx(impact.delta_T).epsilon(1e-7));
    }
  }
}

TEST_CASE("rocking restitution: the shipped landing problem gives the numbers its comment states") {
  // scenarios/impacts/rocking_block_landing.yaml: b = 0.1, h = 0.5, m = 1, ω⁻ = 0.648 rad/s
  const ImpactProblemFile file = load_impact_problem_file(
      (std::filesystem::path(ROUTH_SOURCE_DIR) / "scenarios/impacts/rocking_block_landing.yaml")
          .string());
  REQUIRE(file.law.has_value());
  const ImpactResult result = find_law(*file.law)->solve(file.problem);
  REQUIRE(result.status == ImpactStatus::solved);
  const double b = 0.1, h = 0.5, omega = 0.648, eta = 0.85;
  const double inertia_corner = 4.0 / 3.0 * (b * b + h * h);
  CHECK(result.u_post[0] == doctest::Approx(2.0 * b * eta * omega).epsilon(1e-12));
  CHECK(std::abs(result.u_post[2]) <= 1e-15);
  CHECK(result.impulse[0] ==
        doctest::Approx((eta - housner_ratio(b, h)) * inertia_corner * omega / (2.0 * b))
            .epsilon(1e-12));
  CHECK(result.delta_T ==
        doctest::Approx(0.5 * (eta * eta - 1.0) * inertia_corner * omega * omega).epsilon(1e-12));
}

TEST_CASE("rocking restitution: eta above 1 is refused, a lone corner closes") {
  // η > 1 would gain energy: the scenario refuses it (restitution in [0, 1]), and so does the law.
  CHECK_THROWS_AS(free_rocking(0.1, 0.5, "rocking", 1.05, 0.1), InputError);
  auto problem = planar_impact_problem(2.0, 3.0, 0.5, -1.0, 0.2, {1.05, 10.0, 10.0});
  CHECK(solve_rocking(problem).status == ImpactStatus::invalid_problem);
  // One contact and nothing else touching (a block in flight landing on a corner): no rocking
  // motion to scale, so the corner closes, plastic and sticking, whatever η.
  problem.contacts[0].restitution = 0.9;
  const ImpactResult lone = solve_rocking(problem);
  REQUIRE(lone.status == ImpactStatus::solved);
  CHECK(lone.u_post.cwiseAbs().maxCoeff() <= 1e-15);
  CHECK(lone.delta_T < 0.0);
  // Beyond the friction cone the corner would slide, which Housner's impact excludes.
  problem.contacts[0].static_friction = 0.01;
  CHECK(solve_rocking(problem).status == ImpactStatus::no_solution);
}

TEST_CASE("rocking restitution: the scenario names the calibration for every impact") {
  const std::string file = test::shipped_scenario("rocking_block.yaml");
  // without multi_contact_law the calibration answers simultaneous impacts too
  const std::string yaml = test::write_problem(
      "duration: 1\n"
      "model: {type: rocking_block, width: 0.2, height: 1.0, mass: 1.0}\n"
      "initial: {q: {theta: 0.1}}\n"
      "contact: {law: rocking_over_housner, restitution: 0.95, friction: 0.7}\n",
      "rocking_over_housner_block.yaml");
  const Scenario scenario = load_scenario(yaml);
  CHECK(scenario.multi_contact_law == "rocking_over_housner");
  CHECK((scenario.settings.multi_contact_law == &solve_rocking_over_housner));
  // the shipped file names multipoint_energetic: the rocking landing, which takes both corners,
  // would reach it, so the mismatch is refused where it is written
  try {
    (void)load_scenario(file, std::vector<std::string>{"contact.law=rocking"});
    FAIL("a rocking law with another multi-contact law was accepted");
  } catch (const InputError& error) {
    CHECK(std::string(error.what()).find("rocking_block.yaml:17") != std::string::npos);
    CHECK(std::string(error.what()).find("multi_contact_law") != std::string::npos);
  }
}

}  // namespace routh
