// Scenario files (sim/scenario/scenario_file.hpp): every shipped scenario loads and runs to its
// closed-form or published numbers; bad input is located (file:line:column, key path, closest
// name); --set overrides replace and create keys and name themselves in errors.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "sim/impact/law_catalogue.hpp"
#include "sim/scenario/model_factory.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/scenario/scenario_run.hpp"
#include "sim/scenario/yaml_input.hpp"
#include "sim/text.hpp"
#include "support/ball_scenario.hpp"
#include "support/scenario_errors.hpp"
#include "support/scratch_files.hpp"
#include "support/trajectory_memory.hpp"

namespace routh {
namespace {

using test::load_error;
using test::location_of;
using test::write_problem;

constexpr double kGravity = 9.81;

std::string shipped(const std::string& name) {
  return cat(ROUTH_SOURCE_DIR, "/scenarios/", name, ".yaml");
}

const char* const kShipped[] = {
    "bouncing_ball",        "rocking_block",     "sliding_block",         "bouncing_pendulum",
    "double_pendulum_kane", "falling_rod",       "stacked_blocks",        "two_disks",
    "chain_on_floor",       "overturning_block", "pendulum_strikes_block"};

using test::kBall;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// kBall with `from` replaced by `to` (a parameter changed) or, when `from` is empty, `to`
// appended (a section added).
std::string ball_with(const std::string& from, const std::string& to) {
  if (from.empty()) return kBall + to;
  std::string text = kBall;
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

// A value out of its range: the error points at it and names the range; a good value loads.
struct RangeCase {
  std::string from;      ///< text of kBall to replace ("" appends)
  std::string bad;       ///< "key: value" with the value out of range
  std::string good;      ///< "key: value" in range
  std::string path;      ///< the key path the message names
  std::string value;     ///< the bad value, as the message quotes it
  std::string expected;  ///< what the message says after "path = value: "
};

SimulationOutcome run(const Scenario& scenario, test::TrajectoryMemory& trajectory) {
  return run_scenario(scenario, trajectory);
}

}  // namespace

TEST_CASE("scenario: every shipped scenario loads, and its effective YAML loads to the same run") {
  for (const char* name : kShipped) {
    CAPTURE(name);
    const Scenario scenario = load_scenario(shipped(name));
    CHECK(scenario.name == name);
    CHECK(scenario.output_file == cat(name, ".h5"));
    CHECK((scenario.settings.law == find_law("poisson")->solve));
    CHECK(scenario.settings.contacts.size() == scenario.model->contact_names().size());
    CHECK(scenario.warnings.empty());
    // every default is written out, and reading it back gives the same state and settings
    const std::string again = write_problem(scenario.effective_yaml, "effective.yaml");
    const Scenario reloaded = load_scenario(again);
    CHECK(reloaded.effective_yaml == scenario.effective_yaml);
    CHECK(reloaded.initial.q == scenario.initial.q);
    CHECK(reloaded.initial.v == scenario.initial.v);
    CHECK(reloaded.settings.max_step == scenario.settings.max_step);
    for (const char* key : {"integrator:", "stepper: dopri5", "rest_speed:", "contact_distance:",
                            "multi_contact_law:", "rate:", "gravity:", "excitation:"}) {
      CHECK_MESSAGE(contains(scenario.effective_yaml, key), key);
    }
  }
}

TEST_CASE("scenario: the rocking block rests on its left corner at half its critical angle") {
  const Scenario scenario = load_scenario(shipped("rocking_block"));
  const double critical = std::atan(0.2 / 1.0);  // α = atan(b/h)
  CHECK(scenario.initial.q[2] == doctest::Approx(critical / 2.0).epsilon(1e-15));
  ContactKinematics kinematics;
  scenario.planar->contact_kinematics(scenario.initial.q, scenario.initial.v, kinematics);
  CHECK(std::abs(kinematics.gap[0]) < 1e-15);  // left corner on the floor
  CHECK(kinematics.gap[1] > 0.01);
  CHECK(scenario.settings.contacts[0].restitution == 0.0);
  if (find_law("multipoint_energetic") != nullptr) {
    CHECK(scenario.multi_contact_law == "multipoint_energetic");
    CHECK((scenario.settings.multi_contact_law == find_law("multipoint_energetic")->solve));
  }
}

TEST_CASE("scenario: bouncing_ball.yaml bounces to rest at the Zeno point") {
  test::TrajectoryMemory trajectory;
  const SimulationOutcome outcome = run(load_scenario(shipped("bouncing_ball")), trajectory);
  CHECK(outcome.status == routh::RunStatus::completed);
  // dropped h = 1 m, e = 0.9: the impacts accumulate at t∞ = √(2h/g) (1 + 2e/(1 − e)); 1e-9 s
  // as in the simulator's own test of this drop
  const double t1 = std::sqrt(2.0 / kGravity);
  const std::vector<double> impacts = trajectory.times_of(EventKind::impact);
  REQUIRE(impacts.size() > 20);
  CHECK(std::abs(impacts[0] - t1) < 1e-9);
  const std::vector<double> rests = trajectory.times_of(EventKind::rest);
  REQUIRE(rests.size() == 1);
  CHECK(std::abs(rests[0] - t1 * (1.0 + 2.0 * 0.9 / 0.1)) < 1e-9);
}

TEST_CASE("scenario: sliding_block.yaml stops at t = v0 / (μd g)") {
  test::TrajectoryMemory trajectory;
  const SimulationOutcome outcome = run(load_scenario(shipped("sliding_block")), trajectory);
  CHECK(outcome.status == routh::RunStatus::completed);
  const std::vector<double> stops = trajectory.times_of(EventKind::stick);
  REQUIRE(stops.size() == 1);
  // located to the 1e-12 s time tolerance; the sliding phase has a constant deceleration, which
  // dopri5 integrates to round-off
  CHECK(std::abs(stops[0] - 2.0 / (0.4 * kGravity)) < 1e-9);
  CHECK(outcome.final_state.q[0] == doctest::Approx(4.0 / (2.0 * 0.4 * kGravity)).epsilon(1e-9));
}

TEST_CASE("scenario: falling_rod.yaml's first impact is paper 004's, Table 1 Poisson impulses") {
  test::TrajectoryMemory trajectory;
  const SimulationOutcome outcome = run(load_scenario(shipped("falling_rod")), trajectory);
  CHECK(outcome.status == routh::RunStatus::completed);
  REQUIRE(!trajectory.events.empty());
  const EventRecord& first = trajectory.events.front();
  REQUIRE(first.kind == EventKind::impact);
  // free flight 0.1 s from the file's state to the paper's: a parabola, integrated to round-off
  CHECK(first.t == doctest::Approx(0.1).epsilon(1e-9));
  REQUIRE(first.u_pre.size() == 2);
  CHECK(first.u_pre[0] == doctest::Approx(-1.0).epsilon(1e-9));
  CHECK(first.u_pre[1] == doctest::Approx(0.6).epsilon(1e-9));
  // Table 1, Poisson, e = 0.82: Γ = (0.728, 0.1968) N s, printed to 3 and 4 digits
  REQUIRE(first.impulse.size() == 2);
  CHECK(first.impulse[0] == doctest::Approx(0.728).epsilon(1e-6));
  CHECK(first.impulse[1] == doctest::Approx(0.1968).epsilon(1e-6));
}

TEST_CASE("scenario: double_pendulum_kane.yaml strikes with paper 000's state") {
  test::TrajectoryMemory trajectory;
  const SimulationOutcome outcome = run(load_scenario(shipped("double_pendulum_kane")), trajectory);
  CHECK(outcome.status == routh::RunStatus::completed);
  REQUIRE(!trajectory.events.empty());
  const EventRecord& first = trajectory.events.front();
  REQUIRE(first.kind == EventKind::impact);
  // θ = (20°, 30°), θ̇ = (−0.1, −0.2): u_n = −2 (0.1 sin 20° + 0.2 sin 30°),
  // u_t = −2 (0.1 cos 20° + 0.2 cos 30°); the file's state came from a 1e-14 backward run
  const double degree = std::numbers::pi / 180.0;
  CHECK(first.t == doctest::Approx(0.1).epsilon(1e-8));
  CHECK(first.u_pre[0] ==
        doctest::Approx(-2.0 * (0.1 * std::sin(20 * degree) + 0.2 * std::sin(30 * degree)))
            .epsilon(1e-7));
  CHECK(first.u_pre[1] ==
        doctest::Approx(-2.0 * (0.1 * std::cos(20 * degree) + 0.2 * std::cos(30 * degree)))
            .epsilon(1e-7));
  CHECK(first.delta_T < 0.0);
}

TEST_CASE("scenario: rocking_block.yaml rocks with Housner's ratio 1 − 1.5 sin²α per impact") {
  test::TrajectoryMemory trajectory;
  const SimulationOutcome outcome = run(load_scenario(shipped("rocking_block")), trajectory);
  CHECK(outcome.status == routh::RunStatus::completed);
  // Each plastic corner impact keeps r = 1 − (3/2) sin²α of the angular velocity (Housner 1963,
  // slender uniform block, angular momentum about the striking corner); the approach speed of
  // the striking corner is proportional to θ̇, so successive approach speeds shrink by r.
  const double alpha = std::atan(0.2), r = 1.0 - 1.5 * std::pow(std::sin(alpha), 2);
  std::vector<double> approach;
  for (const EventRecord& event : trajectory.events) {
    if (event.kind != EventKind::impact) continue;
    double fastest = 0.0;
    for (std::size_t row = 0; row < event.u_pre.size(); row += 2) {
      fastest = std::min(fastest, event.u_pre[row]);
    }
    approach.push_back(-fastest);
  }
  REQUIRE(approach.size() >= 4);
  // The ratio of successive approach speeds includes the flight between them, integrated to an
  // absolute tolerance of 3e-11: its relative error is ~3e-11 / speed, below 1e-6 for speeds
  // above 1e-3 m/s. The slower impacts near the Zeno point are checked by the impact map itself
  // (tests/test_simulator.cpp, θ̇⁺/θ̇⁻ to 1e-9).
  int checked = 0;
  for (std::size_t i = 1; i < approach.size() && approach[i] > 1e-3; ++i, ++checked) {
    CAPTURE(i);
    CHECK(approach[i] / approach[i - 1] == doctest::Approx(r).epsilon(1e-6));
  }
  CHECK(checked > 50);
}

TEST_CASE("scenario: bouncing_pendulum.yaml bounces off its wall and never passes it") {
  // The pendulum has one degree of freedom and its tip contact two rows, so D is singular
  // (rank 1; the tip's slip is proportional to its approach). The planar laws handle that: each
  // strike ends at the wall's surface, θ = −asin(0.2), and the pendulum never passes the wall.
  const Scenario scenario = load_scenario(shipped("bouncing_pendulum"), {});
  CHECK(scenario.initial.q[0] == doctest::Approx(std::numbers::pi / 3.0).epsilon(1e-15));
  test::TrajectoryMemory trajectory;
  const SimulationOutcome outcome = run(scenario, trajectory);
  CHECK(outcome.status == routh::RunStatus::completed);
  const double at_wall = -std::asin(0.2);
  REQUIRE(outcome.impacts >= 2);
  const std::vector<double> impacts = trajectory.times_of(EventKind::impact);
  for (const auto& sample : trajectory.samples) {
    CHECK(sample.q[0] >= at_wall - 1e-9);
    if (sample.t == impacts.front()) CHECK(sample.q[0] == doctest::Approx(at_wall).epsilon(1e-9));
  }
  for (const EventRecord& event : trajectory.events) {
    if (event.kind == EventKind::impact) CHECK(event.delta_T <= 0.0);
  }
}

TEST_CASE("scenario: an unknown key is located and names the closest valid key") {
  std::string error = load_error(kBall + "  restitutin: 0.5\n");
  CHECK(contains(error, "scenario.yaml:10:3: contact: unknown key 'restitutin'"));
  CHECK(contains(error, "did you mean 'restitution'?"));
  error = load_error(kBall + "durration: 2\n");
  CHECK(contains(error, "scenario.yaml:10:1: unknown key 'durration'; did you mean 'duration'?"));
  error = load_error(kBall + "integrator: {max_stp: 0.1}\n");
  CHECK(contains(error, "scenario.yaml:10:14: integrator: unknown key 'max_stp'"));
  CHECK(contains(error, "'max_step'"));
  // model parameters depend on the type
  error = load_error(
      "duration: 1\nmodel: {type: ball, radius: 0.1, mass: 1, lenght: 2}\ninitial: {}\n"
      "contact: {law: poisson, restitution: 0.5, friction: 0.1}\n");
  CHECK(contains(error, "scenario.yaml:2:43: model: unknown key 'lenght'"));
  // coordinates and contacts are the model's
  error = load_error(kBall + "  contacts: {flor: {restitution: 0.5}}\n");
  CHECK(contains(error, "scenario.yaml:10:14: contact.contacts: unknown key 'flor'"));
  CHECK(contains(error, "did you mean 'floor'?"));
  error = load_error(
      "duration: 1\nmodel: {type: rocking_block, width: 0.2, height: 1, mass: 1}\n"
      "initial: {q: {thta: 0.1}}\ncontact: {law: poisson, restitution: 0, friction: 0.5}\n");
  CHECK(contains(error, "scenario.yaml:3:15: initial.q: unknown coordinate 'thta'"));
  CHECK(contains(error, "did you mean 'theta'?"));
}

TEST_CASE("scenario: bad values name the key path, the value and the location") {
  CHECK(contains(load_error("duration: 1\nmodel: {type: ball, radius: 0.1, mass: 1}\ninitial: {}\n"
                            "contact: {law: poisson, restitution: 1.3, friction: 0.1}\n"),
                 "scenario.yaml:4:38: contact.restitution = 1.3: must be in [0, 1]"));
  CHECK(contains(load_error("duration: 1\nmodel: {type: ball, radius: -0.1, mass: 1}\n"
                            "initial: {}\ncontact: {law: poisson, restitution: 1, friction: 0}\n"),
                 "scenario.yaml:2:29: model.radius = -0.1: must be in [1e-06, 1000000] m"));
  CHECK(contains(load_error(kBall + "integrator: {stepper: rk4}\n"),
                 "scenario.yaml:10:23: integrator.stepper = rk4: must be dopri5"));
  CHECK(contains(load_error(kBall + "output: {rate: fast}\n"),
                 "scenario.yaml:10:16: output.rate = fast: must be a number"));
  std::string error = load_error(
      "duration: 1\nmodel: {type: ball, radius: 0.1, mass: 1}\ninitial: {}\n"
      "contact: {law: posson, restitution: 1, friction: 0}\n");
  CHECK(contains(error, "scenario.yaml:4:16: unknown law 'posson'; did you mean 'poisson'?"));
  error = load_error(
      "duration: 1\nmodel: {type: ball, radius: 0.1, mass: 1}\ninitial: {q: {y: 0.05}}\n"
      "contact: {law: poisson, restitution: 1, friction: 0}\n");
  CHECK(contains(error,
                 "scenario.yaml:3:18: initial.q.y = 0.05: body 'ball' starts 0.05 m inside "
                 "obstacle 'floor'"));
  CHECK(contains(load_error("duration: 1\nmodel: {type: ball, radius: 0.1, mass: 1}\n"
                            "contact: {law: poisson, restitution: 1, friction: 0}\n"),
                 "scenario.yaml:1:1: missing required key 'initial'"));
}

TEST_CASE("scenario: settings and physical parameters out of their ranges are located errors") {
  const std::vector<RangeCase> cases = {
      // events.time_tolerance = 1e-3 ran forever writing duplicate samples
      {"", "events: {time_tolerance: 1e-3}\n", "events: {time_tolerance: 1e-9}\n",
       "events.time_tolerance", "1e-3", "must be in [1e-15, 1e-06] s"},
      // contact_distance = 0 livelocked
      {"", "events: {contact_distance: 0}\n", "events: {contact_distance: 1e-8}\n",
       "events.contact_distance", "0", "must be in [1e-12, 0.001] m"},
      {"", "events: {rest_speed: 10}\n", "events: {rest_speed: 1e-4}\n", "events.rest_speed", "10",
       "must be in [1e-12, 1] m/s"},
      {"", "integrator: {relative_tolerance: 1e-20}\n", "integrator: {relative_tolerance: 1e-9}\n",
       "integrator.relative_tolerance", "1e-20", "must be in [1e-14, 0.001]"},
      {"", "integrator: {absolute_tolerance: 0.5}\n", "integrator: {absolute_tolerance: 1e-9}\n",
       "integrator.absolute_tolerance", "0.5", "must be in [1e-16, 0.001]"},
      {"", "integrator: {max_step: -1}\n", "integrator: {max_step: 0.01}\n", "integrator.max_step",
       "-1", "must be in (0, 1000] s"},
      {"", "integrator: {max_step: 1e-9}\n", "integrator: {max_step: 1e-7}\n",
       "integrator.max_step", "1e-9",
       "forces 1000000000 steps over the duration 1 s: must be at least"},
      // output.rate = 1e12 was accepted, and the run could not be stopped
      {"", "output: {rate: 1e12}\n", "output: {rate: 1e4}\n", "output.rate", "1e12",
       "must be in (0, 1000000000] Hz"},
      {"", "output: {max_file_size: lots}\n", "output: {max_file_size: 2 GiB}\n",
       "output.max_file_size", "lots", "must be a size > 0 in bytes, or a number with a unit"},
      // mass = 1e308 gave an all-NaN run, gravity = 1e300 livelocked
      {"mass: 1}", "mass: 1e308}", "mass: 1e6}", "model.mass", "1e308",
       "must be in [1e-09, 1000000000] kg"},
      {"radius: 0.1", "radius: 1e7", "radius: 1e-3", "model.radius", "1e7",
       "must be in [1e-06, 1000000] m"},
      {"mass: 1}", "mass: 1, gravity: 1e300}", "mass: 1, gravity: 20}", "model.gravity", "1e300",
       "must be in [0, 1000] m/s^2"},
      {"", "excitation: {harmonic: {amplitude: 1e5, frequency: 2, direction: x}}\n",
       "excitation: {harmonic: {amplitude: 5, frequency: 2, direction: x}}\n",
       "excitation.harmonic.amplitude", "1e5", "must be in [-1000, 1000] m/s^2"},
      {"", "excitation: {harmonic: {amplitude: 1, frequency: 1e6, direction: x}}\n",
       "excitation: {harmonic: {amplitude: 1, frequency: 50, direction: x}}\n",
       "excitation.harmonic.frequency", "1e6", "must be in (0, 10000] Hz"},
      {"y: 1.1}", "y: 1.1, x: 1e300}", "y: 1.1, x: 1e5}", "initial.q.x", "1e300",
       "must be in [-10000000, 10000000] m"},
  };
  for (const RangeCase& test : cases) {
    CAPTURE(test.bad);
    const std::string bad_text = ball_with(test.from, test.bad);
    const std::string expected = cat(location_of(bad_text, test.bad, test.value), ": ", test.path,
                                     " = ", test.value, ": ", test.expected);
    const std::string error = load_error(bad_text);
    CHECK_MESSAGE(contains(error, expected), error, "\nexpected: ", expected);
    CHECK_NOTHROW(load_scenario(test::write_problem(ball_with(test.from, test.good), "good.yaml")));
  }
}

TEST_CASE("scenario: a law outside the scope of the model's contacts is refused") {
  // park took every impact of the planar ball to the fallback law: the run completed with lcp
  std::string error = load_error(ball_with("law: poisson", "law: park"));
  CHECK_MESSAGE(contains(error,
                         "scenario.yaml:7:8: contact.law = park: this law takes spatial, "
                         "one contact; the model's planar contacts need one of: newton, "
                         "newton_routh, poisson, energetic, multipoint_energetic, lcp"),
                error);
  error = load_error(kBall + "  multi_contact_law: poisson\n");
  CHECK_MESSAGE(contains(error,
                         "scenario.yaml:10:22: contact.multi_contact_law = poisson: this "
                         "law takes planar, one contact; simultaneous impacts at several "
                         "planar contacts need one of: multipoint_energetic, lcp, rocking, "
                         "rocking_over_housner (or none)"),
                error);
  for (const char* fits : {"  multi_contact_law: lcp\n", "  multi_contact_law: none\n"}) {
    CAPTURE(fits);
    CHECK_NOTHROW(load_scenario(write_problem(kBall + fits, "good.yaml")));
  }
  CHECK_NOTHROW(load_scenario(write_problem(ball_with("law: poisson", "law: lcp"), "good.yaml")));
}

TEST_CASE("scenario: time_tolerance is at most a millionth of the duration") {
  const std::string text = cat("duration: 1e-4\n", kBall.substr(kBall.find("model:")),
                               "events: {time_tolerance: 1e-9}\n");
  CHECK(contains(load_error(text),
                 "scenario.yaml:9:26: events.time_tolerance = 1e-9: must be at "
                 "most 1e-06 of the duration, 1e-10 s"));
}

TEST_CASE("scenario: the trajectory's size is bounded by output.max_file_size") {
  // the ball has 3 coordinates: 2·3 + 4 = 10 numbers, 80 bytes a sample; 1e8 samples are 7.45 GiB
  const std::string big = kBall + "output: {rate: 1e8}\n";
  CHECK(contains(load_error(big),
                 "scenario.yaml:10:16: output.rate = 1e8: the trajectory would hold 100000001 "
                 "samples (duration * rate + 1) of 10 numbers, about 7.45 GiB, above "
                 "output.max_file_size = 1 GiB"));
  const Scenario raised = load_scenario(
      test::write_problem(kBall + "output: {rate: 1e8, max_file_size: 8 GiB}\n", "raised.yaml"));
  CHECK(raised.settings.output_rate == 1e8);
  CHECK(contains(raised.effective_yaml, "max_file_size: 8589934592\n"));
  // without a rate the error points at the duration
  CHECK(contains(load_error(cat("duration: 1e7\n", kBall.substr(kBall.find("model:")))),
                 "scenario.yaml:1:11: duration = 1e7: the trajectory would hold 1000000001"));
  CHECK(contains(load_error(kBall + "output: {max_file_size: 100 B}\n"),
                 "scenario.yaml:2:11: duration = 1: the trajectory would hold 101 samples"));
}

TEST_CASE("scenario: an unknown model type names the closest type") {
  const std::string error =
      load_error("duration: 1\nmodel: {type: rocking_blok, width: 1}\ninitial: {}\n");
  CHECK(contains(error, "scenario.yaml:2:15: model.type = rocking_blok: unknown model type"));
  CHECK(contains(error, "did you mean 'rocking_block'?"));
  CHECK(model_presets().size() == 8);
}

TEST_CASE("scenario: angles accept 'deg', angular rates 'deg/s'") {
  const std::string text =
      "duration: 1\nmodel: {type: chain, links: 2, length: 1, mass: 1}\n"
      "initial: {q: {theta1: 90 deg, theta2: -45deg}, v: [10 deg/s, 0.5 rad/s]}\n"
      "contact: {law: poisson, restitution: 0.5, friction: 0.1}\n";
  const Scenario scenario = load_scenario(write_problem(text, "scenario.yaml"));
  CHECK(scenario.initial.q[0] == doctest::Approx(std::numbers::pi / 2.0).epsilon(1e-15));
  CHECK(scenario.initial.q[1] == doctest::Approx(-std::numbers::pi / 4.0).epsilon(1e-15));
  CHECK(scenario.initial.v[0] == doctest::Approx(std::numbers::pi / 18.0).epsilon(1e-15));
  CHECK(scenario.initial.v[1] == 0.5);
  // lengths take no angle unit, and an angle needs a known one
  CHECK(contains(load_error(kBall + "excitation: {harmonic: {amplitude: 1, frequency: 1, "
                                    "direction: x, phase: 90 grad}}\n"),
                 "excitation.harmonic.phase = 90 grad: must be a number [rad] or a number with "
                 "a unit, e.g. '10 deg'"));
  const std::string metres =
      "name: ball\nduration: 1\nmodel: {type: ball, radius: 0.1, mass: 1}\n"
      "initial: {q: {y: 2 deg}}\n"
      "contact: {law: poisson, restitution: 0.9, friction: 0.5}\n";
  CHECK(contains(load_error(metres), "scenario.yaml:4:18: initial.q.y = 2 deg: must be a number"));
}

TEST_CASE("scenario: --set overrides values, creates keys, and names itself in errors") {
  const std::string path = write_problem(kBall, "scenario.yaml");
  const std::vector<std::string> overrides = {
      "contact.restitution=0.5", "duration=2.5", "output.rate=50",
      "contact.contacts.floor.friction={static: 0.7, kinetic: 0.6}", "model.gravity=1.62"};
  const Scenario scenario = load_scenario(path, overrides);
  CHECK(scenario.settings.contacts[0].restitution == 0.5);
  CHECK(scenario.settings.duration == 2.5);
  CHECK(scenario.settings.output_rate == 50.0);
  CHECK(scenario.settings.contacts[0].static_friction == 0.7);
  CHECK(scenario.settings.contacts[0].kinetic_friction == 0.6);
  CHECK(contains(scenario.effective_yaml, "gravity: 1.62"));
  CHECK(contains(scenario.effective_yaml, "duration: 2.5"));
  // the file is untouched: loading it alone gives its own values
  CHECK(load_scenario(path).settings.contacts[0].restitution == 0.9);

  // a bad value, a misspelt key and a path through a number each name their override
  CHECK(load_error(kBall, {"duration=2", "contact.restitution=1.3"}) ==
        "--set contact.restitution=1.3: contact.restitution = 1.3: must be in [0, 1]");
  std::string error = load_error(kBall, {"contact.restitutin=0.5"});
  CHECK(contains(error, "--set contact.restitutin=0.5: contact: unknown key 'restitutin'"));
  CHECK(contains(error, "did you mean 'restitution'?"));
  CHECK(load_error(kBall, {"duration.value=3"}) ==
        "--set duration.value=3: 'duration' is not a map: it cannot hold 'value'");
  CHECK(contains(load_error(kBall, {"duration"}), "--set duration: expected key.path=value"));
  CHECK(contains(load_error(kBall, {"duration=[1"}), "--set duration=[1: YAML syntax"));
  // a created key that the schema does not know
  error = load_error(kBall, {"contact.contacts.left_corner.restitution=0.1"});
  CHECK(contains(error,
                 "--set contact.contacts.left_corner.restitution=0.1: contact.contacts: "
                 "unknown key 'left_corner'; did you mean 'floor'?"));
  // a key given twice inside a value would be ignored as silently as in a file
  CHECK(load_error(kBall, {"contact={law: poisson, restitution: 0.5, restitution: 0.9}"}) ==
        "--set contact={law: poisson, restitution: 0.5, restitution: 0.9}: in the value: duplicate "
        "key 'restitution' (first at line 1)");
  // the file's own errors keep their file location
  CHECK(contains(load_error(kBall + "durration: 2\n", {"duration=3"}), "scenario.yaml:10:1:"));
}

TEST_CASE("scenario: --set reaches coordinates whose names hold dots") {
  // bowling_ball.yaml: initial: {q: {ball.z: 0.1085}, v: {ball.vx: 8.0, ball.wx: 30.0}}; a
  // sphere's q is (x, y, z, w, x, y, z) and its v (vx, vy, vz, wx, wy, wz)
  const Scenario ball =
      load_scenario(shipped("bowling_ball"),
                    std::vector<std::string>{"initial.q.ball.z=0.2", "initial.v.ball.vx=2",
                                             "initial.v.ball.wz=4"});
  CHECK(ball.initial.q[2] == 0.2);
  CHECK(ball.initial.v[0] == 2.0);  // a key of the file
  CHECK(ball.initial.v[3] == 30.0);
  CHECK(ball.initial.v[5] == 4.0);  // a key created in the map of coordinate names
  // the same in a planar multibody model: towers_grid.yaml sets statue_a1.x among others
  const Scenario towers =
      load_scenario(shipped("towers_grid"), std::vector<std::string>{"initial.q.statue_a1.x=0.25"});
  CHECK(contains(towers.effective_yaml, "statue_a1.x: 0.25"));
  // a name that is no coordinate is still refused, and named
  CHECK_THROWS_WITH_AS(
      load_scenario(shipped("bowling_ball"), std::vector<std::string>{"initial.q.ball.zz=1"}),
      doctest::Contains("ball.zz"), InputError);
}

TEST_CASE("scenario: a harmonic ground acceleration loads the model") {
  const Scenario scenario = load_scenario(
      write_problem(kBall + "excitation: {harmonic: {amplitude: 2, frequency: 5, direction: x, "
                            "phase: 90 deg}}\n",
                    "scenario.yaml"));
  // a_g(0) = 2 sin(90°) = 2 m/s² along x: an inertial load −m a_g on the 1 kg ball's x
  Eigen::VectorXd f;
  scenario.planar->generalized_force(0.0, scenario.initial.q, scenario.initial.v, f);
  CHECK(std::abs(f[0]) == doctest::Approx(2.0).epsilon(1e-12));
  scenario.planar->generalized_force(0.05, scenario.initial.q, scenario.initial.v, f);  // sin 180°
  CHECK(std::abs(f[0]) < 1e-12);
  CHECK(contains(scenario.effective_yaml, "direction: x"));
  CHECK(contains(load_error(kBall + "excitation: {harmonic: {amplitude: 1, frequency: 1, "
                                    "direction: z}}\n"),
                 "excitation.harmonic.direction = z: must be x or y"));
}

TEST_CASE("scenario: per-contact parameters by name or as a list") {
  const std::string block =
      "duration: 1\nmodel: {type: rocking_block, width: 0.2, height: 1, mass: 1}\n"
      "initial: {q: {theta: 0.05}}\ncontact:\n  law: poisson\n  restitution: 0.5\n"
      "  friction: {static: 0.6, kinetic: 0.5}\n";
  Scenario scenario = load_scenario(
      write_problem(block + "  contacts: {right_corner: {restitution: 0.1}}\n", "scenario.yaml"));
  CHECK(scenario.settings.contacts[0].restitution == 0.5);
  CHECK(scenario.settings.contacts[1].restitution == 0.1);
  CHECK(scenario.settings.contacts[1].static_friction == 0.6);
  scenario = load_scenario(write_problem(
      block + "  contacts: [{friction: 0.2}, {restitution: 0}, {}, {}]\n", "scenario.yaml"));
  CHECK(scenario.settings.contacts[0].kinetic_friction == 0.2);
  CHECK(scenario.settings.contacts[1].restitution == 0.0);
  CHECK(contains(load_error(block + "  contacts: [{friction: 0.2}]\n"),
                 "contact.contacts: has 1 entries for 4 contacts"));
  // μd > μs is allowed but warned about, with its location
  scenario = load_scenario(
      write_problem(block + "  contacts: {left_corner: {friction: {static: 0.1, kinetic: 0.2}}}\n",
                    "scenario.yaml"));
  REQUIRE(scenario.warnings.size() == 1);
  CHECK(contains(scenario.warnings[0], "scenario.yaml:8:"));
}

}  // namespace routh
