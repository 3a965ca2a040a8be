// Model mistakes a scenario can make and still describe a model: each is a warning (or, where the
// model is impossible, an error) at its file, line and column, with the exact message a user
// reads. A joint point off its body's shape, a block's tilt that is degrees read as radians, a
// body that starts inside another or an obstacle, a key written in the wrong map, and a warning
// that an override caused. Every shipped scenario loads without any of them.

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

#include "models/planar/shape.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/sweep/sweep_file.hpp"
#include "sim/text.hpp"
#include "support/ball_scenario.hpp"
#include "support/scenario_errors.hpp"
#include "support/scratch_files.hpp"

namespace routh {
namespace {

using test::kBall;
using test::load_error;
using test::location_of;
using test::write_problem;

// The warnings of `text` loaded as scenario.yaml (after `overrides`).
std::vector<std::string> warnings_of(const std::string& text,
                                     const std::vector<std::string>& overrides = {}) {
  return load_scenario(write_problem(text, "scenario.yaml"), overrides).warnings;
}

// "PATH/scenario.yaml:L:C: warning: MESSAGE" for `value` within `part` of `text`.
std::string warning_at(const std::string& text, const std::string& part, const std::string& value,
                       const std::string& message) {
  const std::string path = write_problem(text, "scenario.yaml");
  const std::string location = location_of(text, part, value);  // "scenario.yaml:L:C"
  return cat(path.substr(0, path.size() - std::string("scenario.yaml").size()), location,
             ": warning: ", message);
}

// An arm of `shape` hanging from the ground by a revolute joint at `child_point`.
std::string arm(const std::string& shape, const std::string& child_point) {
  return cat("duration: 1\n",                                                     // line 1
             "model:\n",                                                          // line 2
             "  bodies:\n",                                                       // line 3
             "    - {name: arm, mass: 1, shape: ", shape, "}\n",                  // line 4
             "  joints:\n",                                                       // line 5
             "    - {type: revolute, parent: ground, child: arm, child_point: ",  // line 6
             child_point, "}\n", "initial: {}\n",
             "contact: {law: poisson, restitution: 0, friction: 0}\n");
}

const std::string kRockingBlock =
    "duration: 1\n"
    "model: {type: rocking_block, width: 0.2, height: 1, mass: 1}\n"
    "initial:\n"
    "  q: {theta: 30}\n"
    "contact: {law: poisson, restitution: 0, friction: 0.5}\n";

}  // namespace

TEST_CASE("model mistakes: where a point lies off a shape, by the shape's closed form") {
  // a segment of length 1 along x: the distance to the nearer point of [-0.5, 0.5] × {0}
  const Shape segment = segment_shape(1.0);
  CHECK(shape_size(segment) == 1.0);
  CHECK(distance_outside(segment, {0.25, 0.0}) == 0.0);
  CHECK(distance_outside(segment, {0.0, 0.5}) == doctest::Approx(0.5).epsilon(1e-15));
  CHECK(distance_outside(segment, {0.8, 0.4}) == doctest::Approx(0.5).epsilon(1e-15));  // 3-4-5
  // a 0.6 × 0.4 rectangle: inside is on it; outside, the distance to the nearest edge or corner
  const Shape box = rectangle_shape(0.6, 0.4);
  CHECK(shape_size(box) == doctest::Approx(std::hypot(0.6, 0.4)).epsilon(1e-15));
  CHECK(distance_outside(box, {0.1, -0.1}) == 0.0);
  CHECK(distance_outside(box, {0.0, 0.5}) == doctest::Approx(0.3).epsilon(1e-15));
  CHECK(distance_outside(box, {0.6, 0.6}) == doctest::Approx(std::hypot(0.3, 0.4)).epsilon(1e-15));
  CHECK(signed_distance(std::get<PolygonShape>(box), {0.0, 0.0}) ==
        doctest::Approx(-0.2).epsilon(1e-15));
  // a disk of radius 0.1 about (1, 0)
  const Shape disk = DiskShape{0.1, {1.0, 0.0}};
  CHECK(shape_size(disk) == doctest::Approx(0.2).epsilon(1e-15));
  CHECK(distance_outside(disk, {1.05, 0.0}) == 0.0);
  CHECK(distance_outside(disk, {1.0, 0.5}) == doctest::Approx(0.4).epsilon(1e-15));
}

TEST_CASE("model mistakes: a joint point off its body's shape is a located warning") {
  // the segment lies along the body's x axis: [0, 0.5] is the end of a rod drawn upright
  std::string text = arm("{segment: {length: 1}}", "[0, 0.5]");
  std::vector<std::string> warnings = warnings_of(text);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] ==
        warning_at(text, "child_point: [0, 0.5]", "[0, 0.5]",
                   "model.joints[0].child_point: is 0.5 m off the segment of body 'arm', which "
                   "lies along the body's x axis from (-0.5, 0) to (0.5, 0) (shapes and joint "
                   "points are in the body's frame: docs/models.md)"));
  // on the segment, at its end, or within 1% of its length: no warning
  CHECK(warnings_of(arm("{segment: {length: 1}}", "[-0.5, 0]")).empty());
  CHECK(warnings_of(arm("{segment: {length: 1}}", "[0.505, 0]")).empty());
  // a rectangle holds its inside; a disk too
  CHECK(warnings_of(arm("{rectangle: {width: 0.6, height: 0.4}}", "[0.1, 0.2]")).empty());
  text = arm("{rectangle: {width: 0.6, height: 0.4}}", "[0, 0.5]");
  warnings = warnings_of(text);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] ==
        warning_at(text, "child_point: [0, 0.5]", "[0, 0.5]",
                   "model.joints[0].child_point: is 0.3 m off the rectangle of body 'arm', which "
                   "spans (-0.3, -0.2) to (0.3, 0.2) (shapes and joint points are in the body's "
                   "frame: docs/models.md)"));
  CHECK(warnings_of(arm("{disk: {radius: 0.1}}", "[0, 0.1]")).empty());
  text = arm("{disk: {radius: 0.1}}", "[0, 0.3]");
  warnings = warnings_of(text);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] == warning_at(text, "child_point: [0, 0.3]", "[0, 0.3]",
                                  "model.joints[0].child_point: is 0.2 m off the disk of body "
                                  "'arm', of radius 0.1 m about (0, 0) (shapes and joint points "
                                  "are in the body's frame: docs/models.md)"));
  // the default point [0, 0] off a polygon drawn away from the origin: at the joint
  text =
      "duration: 1\n"
      "model:\n"
      "  bodies:\n"
      "    - {name: arm, mass: 1, shape: {polygon: {vertices: [[1, 0], [2, 0], [1, 1]]}}}\n"
      "  joints:\n"
      "    - {type: revolute, parent: ground, child: arm}\n"
      "initial: {}\n"
      "contact: {law: poisson, restitution: 0, friction: 0}\n";
  warnings = warnings_of(text);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] == warning_at(text, "{type: revolute", "{",
                                  "model.joints[0]: child_point (default (0, 0)) is 1 m off the "
                                  "polygon of body 'arm' (shapes and joint points are in the "
                                  "body's frame: docs/models.md)"));
}

TEST_CASE("model mistakes: a parent's joint point off its shape names the parent") {
  const std::string text =
      "duration: 1\n"
      "model:\n"
      "  bodies:\n"
      "    - {name: upper, mass: 1, shape: {segment: {length: 1}}}\n"
      "    - {name: lower, mass: 1, shape: {segment: {length: 1}}}\n"
      "  joints:\n"
      "    - {type: revolute, parent: ground, child: upper, child_point: [-0.5, 0]}\n"
      "    - {type: revolute, parent: upper, child: lower, parent_point: [0.5, -0.2],\n"
      "       child_point: [-0.5, 0]}\n"
      "initial: {}\n"
      "contact: {law: poisson, restitution: 0, friction: 0}\n";
  const std::vector<std::string> warnings = warnings_of(text);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] ==
        warning_at(text, "parent_point: [0.5, -0.2]", "[0.5, -0.2]",
                   "model.joints[1].parent_point: is 0.2 m off the segment of body 'upper', "
                   "which lies along the body's x axis from (-0.5, 0) to (0.5, 0) (shapes and "
                   "joint points are in the body's frame: docs/models.md)"));
}

TEST_CASE("model mistakes: a block's tilt beyond a quarter turn as a bare number is degrees") {
  std::vector<std::string> warnings = warnings_of(kRockingBlock);
  REQUIRE(warnings.size() == 1);
  // 30 rad = 30 × 180/π deg; 30° = 30 × π/180 rad, rounded to a tenth and four decimals
  CHECK(std::abs(30.0 * 180.0 / std::numbers::pi - 1718.9) < 0.05);
  CHECK(std::abs(30.0 * std::numbers::pi / 180.0 - 0.5236) < 0.00005);
  CHECK(warnings[0] == warning_at(kRockingBlock, "theta: 30", "30",
                                  "initial.q.theta = 30: a tilt of body 'block' beyond a quarter "
                                  "turn: a bare number is read in radians (30 rad = 1718.9 deg); "
                                  "for 30 degrees write '30 deg' (0.5236 rad)"));
  // as a list in coordinate order, too
  std::string text = kRockingBlock;
  text.replace(text.find("{theta: 30}"), 11, "[0, 2, -2]");
  warnings = warnings_of(text);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] ==
        warning_at(text, "[0, 2, -2]", "-2",
                   "initial.q[2] = -2: a tilt of body 'block' beyond a quarter turn: a bare "
                   "number is read in radians (-2 rad = -114.6 deg); for -2 degrees write '-2 "
                   "deg' (-0.0349 rad)"));
  // a tilt with its unit, a tilt within a quarter turn and a pendulum's angle are meant
  for (const char* tilt : {"{theta: 30 deg}", "{theta: 2 rad}", "{theta: 1.5}", "{theta: -1.5}"}) {
    CAPTURE(tilt);
    text = kRockingBlock;
    text.replace(text.find("{theta: 30}"), 11, tilt);
    CHECK(warnings_of(text).empty());
  }
  CHECK(warnings_of("duration: 1\nmodel: {type: pendulum}\ninitial: {q: {theta: 2}}\n"
                    "contact: {law: poisson, restitution: 0, friction: 0}\n")
            .empty());
}

TEST_CASE("model mistakes: a box's roll or pitch beyond a quarter turn as a bare number too") {
  const std::string text =
      "duration: 1\n"
      "model:\n"
      "  dimension: 3\n"
      "  bodies: [{name: box, mass: 1, shape: {box: {size: [0.2, 0.2, 1]}}}]\n"
      "initial: {q: {box.z: 2, box.orientation: {rpy: [0, 30, 0]}}}\n"
      "contact: {law: lcp, restitution: 0, friction: 0.7}\n";
  const std::vector<std::string> warnings = warnings_of(text);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] == warning_at(text, "[0, 30, 0]", "30",
                                  "initial.q.box.orientation.rpy[1] = 30: a tilt of body 'box' "
                                  "beyond a quarter turn: a bare number is read in radians (30 "
                                  "rad = 1718.9 deg); for 30 degrees write '30 deg' (0.5236 rad)"));
  // with its unit, or a yaw (a turn about the vertical tips nothing)
  for (const char* rpy : {"[0, 30 deg, 0]", "[0, 0, 3]", "[0.5, -1.5, 0]"}) {
    CAPTURE(rpy);
    std::string meant = text;
    meant.replace(meant.find("[0, 30, 0]"), 10, rpy);
    CHECK(warnings_of(meant).empty());
  }
}

TEST_CASE("model mistakes: a body that starts inside an obstacle or another body is an error") {
  // the ball's centre 0.05 m above the floor: its radius 0.1 reaches 0.05 m into it
  std::string text = kBall;
  text.replace(text.find("y: 1.1"), 6, "y: 0.05");
  CHECK(load_error(text) ==
        cat(write_problem(text, "scenario.yaml"), ":5:10: initial.q.y = 0.05: body 'ball' starts ",
            0.1 - 0.05,
            " m inside obstacle 'floor' at t = 0, beyond events.contact_distance = ", 1e-09, " m"));
  // a block wholly inside another touches none of its edges' contacts: the shapes overlap by the
  // least overlap of their projections on the edge normals, on x min(0.5 - 0, 0.2 + 0.5) = 0.5 m
  // (on y 0.6 m)
  text =
      "duration: 1\n"
      "model:\n"
      "  bodies:\n"
      "    - {name: big, mass: 1, shape: {rectangle: {width: 1, height: 1}}}\n"
      "    - {name: small, mass: 1, shape: {rectangle: {width: 0.2, height: 0.2}}}\n"
      "  obstacles: [{type: floor, position: 0}]\n"
      "initial:\n"
      "  q: {big.x: 0, big.y: 0.5, small.x: 0.1, small.y: 0.5}\n"
      "contact: {law: poisson, restitution: 0, friction: 0}\n";
  const std::string error = load_error(text);
  CHECK(error == cat(write_problem(text, "scenario.yaml"),
                     ":8:14: initial.q.big.x = 0: bodies 'big' and 'small' start 0.5 m into each "
                     "other at t = 0, beyond events.contact_distance = ",
                     1e-09, " m"));
  // resting on the floor and on each other is not inside
  text.replace(text.find("small.x: 0.1, small.y: 0.5"), 26, "small.x: 0.1, small.y: 1.1");
  CHECK(warnings_of(text).empty());
  // in space: a sphere 0.02 m into the floor
  text =
      "duration: 1\n"
      "model:\n"
      "  dimension: 3\n"
      "  bodies: [{name: ball, mass: 1, shape: {sphere: {radius: 0.05}}}]\n"
      "  obstacles: [{type: plane, name: floor, point: [0, 0, 0], normal: [0, 0, 1]}]\n"
      "initial: {q: {ball.z: 0.03}}\n"
      "contact: {law: sliding_ode, restitution: 0, friction: 0}\n";
  CHECK(load_error(text) ==
        cat(write_problem(text, "scenario.yaml"), ":6:14: initial.q: ball/floor: the shapes start ",
            0.05 - 0.03, " m into each other at t = 0, beyond events.contact_distance = ", 1e-09,
            " m"));
}

TEST_CASE("model mistakes: a key in the wrong map names the map it belongs in") {
  CHECK(load_error(kBall + "restitution: 0.5\n") ==
        cat(write_problem(kBall + "restitution: 0.5\n", "scenario.yaml"),
            ":10:1: unknown key 'restitution' here; did you mean 'contact.restitution'?"));
  CHECK(load_error(kBall + "obstacle: {type: floor}\n")
            .ends_with(":10:1: unknown key 'obstacle' here; did you mean 'model.obstacle'?"));
  CHECK(load_error(kBall + "  rate: 100\n")
            .ends_with(":10:3: contact: unknown key 'rate' here; did you mean 'output.rate'?"));
  CHECK(load_error(kBall + "amplitude: 0.3\n")
            .ends_with(":10:1: unknown key 'amplitude' here; did you mean "
                       "'excitation.harmonic.amplitude'?"));
  // a key of the top level inside the model
  std::string text = kBall;
  text.replace(text.find("mass: 1}"), 8, "mass: 1, duration: 2}");
  CHECK(load_error(text).ends_with(
      ":3:43: model: unknown key 'duration' here: it belongs at the top level of the file"));
  // a parameter of other named models names them
  text = kRockingBlock;
  text.replace(text.find("mass: 1}"), 8, "mass: 1, obstacle: {type: floor}}");
  CHECK(load_error(text).ends_with(
      ":2:62: model: type rocking_block takes no 'obstacle' (pendulum, double_pendulum, chain, "
      "stacked_blocks do; `routh models` lists each type's keys)"));
  // a near spelling of a key of this map is still found by its spelling
  CHECK(load_error(kBall + "  restitutin: 0.5\n")
            .ends_with(":10:3: contact: unknown key 'restitutin'; did you mean 'restitution'?"));
}

TEST_CASE("model mistakes: a warning an override caused names the override") {
  std::vector<std::string> warnings =
      warnings_of(kBall, {"contact.friction={static: 0.3, kinetic: 0.5}"});
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] ==
        "--set contact.friction={static: 0.3, kinetic: 0.5}: warning: contact.friction.kinetic = "
        "0.5: exceeds static friction 0.3; sticking then persists whenever either coefficient "
        "could hold it");
  std::string text = kRockingBlock;
  text.replace(text.find("{theta: 30}"), 11, "{theta: 0.1}");
  warnings = warnings_of(text, {"duration=2", "initial.q.theta=30"});
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].starts_with(
      "--set initial.q.theta=30: warning: initial.q.theta = 30: a tilt of body 'block'"));
  // a warning at a line of the file keeps its place
  warnings = warnings_of(kRockingBlock, {"duration=2"});
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("scenario.yaml:4:14: warning: ") != std::string::npos);
}

TEST_CASE("model mistakes: no shipped scenario has one") {
  int loaded = 0, sweeps = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(cat(ROUTH_SOURCE_DIR, "/scenarios"))) {
    if (entry.path().extension() != ".yaml") continue;
    const std::string path = entry.path().string();
    CAPTURE(path);
    if (path.find("/impacts/") != std::string::npos) continue;  // impact problems, no model
    if (path.find("/sweeps/") != std::string::npos) {
      // a sweep's first run: its base scenario with the sweep's overrides
      const SweepPlan plan = read_sweep_file(path);
      const Scenario first =
          load_scenario(plan.base_path, run_overrides(plan, run_values(plan, 0)));
      CHECK(first.warnings.empty());
      ++sweeps;
      continue;
    }
    const Scenario scenario = load_scenario(path);
    CHECK(scenario.warnings.empty());
    ++loaded;
  }
  CHECK(loaded >= 25);
  CHECK(sweeps >= 7);
}

}  // namespace routh
