// The generic multibody of a scenario file (sim/scenario/multibody_input.hpp) and the named
// models' parameters (sim/scenario/model_factory.hpp): a good file builds the bodies, joints,
// frames and coordinates it describes, and reloads from its effective YAML to itself; every kind
// of mistake is located (file:line:column) and names the closest valid key or body; the presets
// keep their coordinate names; chains take per-link lengths.

#include <doctest/doctest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "models/planar/planar_kinematics.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/text.hpp"
#include "support/scenario_errors.hpp"
#include "support/scratch_files.hpp"

namespace routh {
namespace {

using test::load_error;
using test::location_of;
using test::write_problem;

const std::string kContact = "contact: {law: poisson, restitution: 0.5, friction: 0.3}\n";

// Bodies listed child first; every shape kind, both joint types, every obstacle kind.
const std::string kMechanism =
    "duration: 1\n"
    "model:\n"
    "  bodies:\n"
    "    - {name: arm, mass: 2, shape: {segment: {length: 1}}}\n"
    "    - name: base\n"
    "      mass: 50\n"
    "      shape: {rectangle: {width: 0.6, height: 0.4}}\n"
    "      inertia: 1.2\n"
    "    - {name: wheel, mass: 1, shape: {disk: {radius: 0.1}}}\n"
    "    - {name: wedge, mass: 3, shape: {polygon: {vertices: [[0, 0], [0.3, 0], [0, 0.3]]}}}\n"
    "  joints:\n"
    "    - {type: revolute, parent: base, child: arm, parent_point: [0.3, 0.2],\n"
    "       child_point: [-0.5, 0]}\n"
    "    - {type: prismatic, parent: ground, child: wedge, parent_point: [2, 0], axis: [3, 0]}\n"
    "  obstacles:\n"
    "    - {type: floor, position: 0}\n"
    "    - {type: wall, position: -1, free_side: positive}\n"
    "    - {type: wall, position: 3, free_side: negative}\n"
    "    - {type: plane, point: [0, -1], normal: [-1, 4], name: slope}\n"
    "  collisions: {between_bodies: false}\n"
    "initial: {q: {base.y: 1, wheel.y: 2}}\n" +
    kContact;

int body_named(const PlanarTree& tree, const std::string& name) {
  const std::vector<std::string>& names = tree.description().body_names;
  const auto found = std::find(names.begin(), names.end(), name);
  REQUIRE(found != names.end());
  return static_cast<int>(found - names.begin());
}

Scenario load_text(const std::string& text) {
  return load_scenario(write_problem(text, "scenario.yaml"));
}

// The error of `text` is at `value` within `part` and says `message`.
void check_located(const std::string& text, const std::string& part, const std::string& value,
                   const std::string& message) {
  const std::string error = load_error(text);
  const std::string where = location_of(text, part, value);
  CHECK_MESSAGE(error.find(where + ": ") != std::string::npos, error, "\nexpected at ", where);
  CHECK_MESSAGE(error.find(message) != std::string::npos, error, "\nexpected: ", message);
}

// kMechanism with `from` replaced by `to`.
std::string mechanism_with(const std::string& from, const std::string& to) {
  std::string text = kMechanism;
  const std::size_t at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, from);
  return text.replace(at, from.size(), to);
}

// A one-body model `bodies: [BODY]` with more model keys after it.
std::string one_body(const std::string& body, const std::string& more = "") {
  return cat("duration: 1\nmodel:\n  bodies:\n    - ", body, "\n", more, "initial: {}\n", kContact);
}

}  // namespace

TEST_CASE("multibody: a generic file builds its bodies, joints, frames and coordinates") {
  const Scenario scenario = load_text(kMechanism);
  const PlanarTree& tree = *scenario.planar;
  CHECK(scenario.model_type == "multibody");
  // the order listed, the arm moved after its parent; the coordinates follow
  CHECK(tree.description().body_names == std::vector<std::string>{"base", "arm", "wheel", "wedge"});
  CHECK(tree.coordinate_names() == std::vector<std::string>{"base.x", "base.y", "base.theta",
                                                            "arm.theta", "wheel.x", "wheel.y",
                                                            "wheel.theta", "wedge.s"});
  const int base = body_named(tree, "base"), arm = body_named(tree, "arm");
  const int wheel = body_named(tree, "wheel"), wedge = body_named(tree, "wedge");
  const PlanarTreeDescription& d = tree.description();

  // inertia as given, or of uniform density about the centre of mass
  CHECK(d.bodies[base].inertia_kg_m2 == 1.2);
  CHECK(d.bodies[arm].inertia_kg_m2 == doctest::Approx(2.0 / 12.0).epsilon(1e-14));
  CHECK(d.bodies[wheel].inertia_kg_m2 == doctest::Approx(0.5 * 0.01).epsilon(1e-14));
  // a right triangle of legs a: I_centroid = m a² / 9 (polar, about its centroid (a/3, a/3))
  CHECK(d.bodies[wedge].inertia_kg_m2 == doctest::Approx(3.0 * 0.09 / 9.0).epsilon(1e-12));

  // frames: a free body's origin at its centre of mass, a jointed one's at its child point
  CHECK(d.bodies[base].centre_of_mass_m.isZero(0.0));
  CHECK(d.bodies[arm].centre_of_mass_m.isApprox(Eigen::Vector2d(0.5, 0.0)));
  CHECK(d.bodies[wedge].centre_of_mass_m.isApprox(Eigen::Vector2d(0.1, 0.1)));
  const auto& arm_shape = std::get<PolygonShape>(*d.shapes[static_cast<std::size_t>(arm)]);
  CHECK(arm_shape.vertices_m[0].isZero(0.0));
  CHECK(arm_shape.vertices_m[1].isApprox(Eigen::Vector2d(1.0, 0.0)));
  CHECK(d.joints[arm].type == JointType::revolute);
  CHECK(d.joints[arm].parent == base);
  CHECK(d.joints[arm].angle_reference == AngleReference::relative);
  CHECK(d.joints[arm].location_m.isApprox(Eigen::Vector2d(0.3, 0.2)));
  CHECK(d.joints[wedge].type == JointType::prismatic);
  CHECK(d.joints[wedge].parent == routh::kGround);
  CHECK(d.joints[wedge].axis == Eigen::Vector2d(1.0, 0.0));

  // obstacles: default names by type, numbered after the first; a plane's normal made unit
  REQUIRE(d.obstacles.size() == 4);
  CHECK(d.obstacles[0].name == "floor");
  CHECK(d.obstacles[1].name == "wall");
  CHECK(d.obstacles[2].name == "wall2");
  CHECK(d.obstacles[3].name == "slope");
  CHECK(d.obstacles[2].surface.normal == Eigen::Vector2d(-1.0, 0.0));
  CHECK(d.obstacles[3].surface.normal.isApprox(Eigen::Vector2d(-1.0, 4.0) / std::sqrt(17.0)));
  CHECK_FALSE(d.collide_bodies);

  // the coordinates mean what the header says
  Eigen::VectorXd q = Eigen::VectorXd::Zero(tree.coordinate_count());
  q << 0.4, 1.0, 0.3, 0.2, 0.0, 2.0, 0.0, 0.7;
  CHECK(tree.point_position(q, base, Eigen::Vector2d::Zero()).isApprox(Eigen::Vector2d(0.4, 1.0)));
  const Eigen::Vector2d pivot = tree.point_position(q, base, Eigen::Vector2d(0.3, 0.2));
  CHECK(tree.point_position(q, arm, Eigen::Vector2d::Zero()).isApprox(pivot));
  // the arm turned by base.theta + arm.theta from as drawn: its far end 1 m from the pivot
  CHECK(tree.point_position(q, arm, Eigen::Vector2d(1.0, 0.0))
            .isApprox(pivot + rotation(0.5) * Eigen::Vector2d(1.0, 0.0)));
  // the wedge's drawing origin slid 0.7 m along x from (2, 0)
  CHECK(tree.point_position(q, wedge, Eigen::Vector2d::Zero()).isApprox(Eigen::Vector2d(2.7, 0)));

  // the effective scenario lists every default and reloads to itself
  for (const char* key :
       {"gravity: 9.81", "inertia: 0.16666666666666666", "angle: relative", "axis: [3, 0]",
        "child_point: [0, 0]", "name: wall2", "between_bodies: false"}) {
    CHECK_MESSAGE(scenario.effective_yaml.find(key) != std::string::npos, key);
  }
  const Scenario reloaded = load_text(scenario.effective_yaml);
  CHECK(reloaded.effective_yaml == scenario.effective_yaml);
  CHECK(reloaded.initial.q == scenario.initial.q);
}

TEST_CASE("multibody: an absolute revolute angle is measured from the world") {
  const Scenario scenario = load_text(
      mechanism_with("child_point: [-0.5, 0]}", "child_point: [-0.5, 0], angle: absolute}"));
  const PlanarTree& tree = *scenario.planar;
  Eigen::VectorXd q = Eigen::VectorXd::Zero(tree.coordinate_count());
  q[2] = 0.3;  // base.theta
  q[3] = 0.2;  // arm.theta
  const int arm = body_named(tree, "arm");
  const Eigen::Vector2d pivot = tree.point_position(q, arm, Eigen::Vector2d::Zero());
  CHECK(tree.point_position(q, arm, Eigen::Vector2d(1.0, 0.0))
            .isApprox(pivot + rotation(0.2) * Eigen::Vector2d(1.0, 0.0)));
}

TEST_CASE(
    "multibody: a polygon's centre of mass is its centroid, a body without shape is a point") {
  // an L-free convex quadrilateral drawn away from its centroid
  const Scenario scenario = load_text(one_body(
      "{name: plate, mass: 2, shape: {polygon: {vertices: [[1, 1], [3, 1], [3, 2], [1, 2]]}}}\n"
      "    - {name: bead, mass: 0.5, inertia: 0.001}"));
  const PlanarTree& tree = *scenario.planar;
  const int plate = body_named(tree, "plate");
  CHECK(tree.description().bodies[plate].inertia_kg_m2 ==
        doctest::Approx(2.0 * (4.0 + 1.0) / 12.0).epsilon(1e-12));
  // plate.x, plate.y is the centroid (2, 1.5) of the drawing: its corner (1, 1) sits at
  // (x − 1, y − 0.5) when unrotated
  Eigen::VectorXd q = Eigen::VectorXd::Zero(tree.coordinate_count());
  q[0] = 5.0, q[1] = 7.0;
  const auto& shape = std::get<PolygonShape>(*tree.description().shapes[plate]);
  CHECK(tree.point_position(q, plate, shape.vertices_m[0]).isApprox(Eigen::Vector2d(4.0, 6.5)));
  CHECK(tree.coordinate_names().back() == "bead.theta");
}

TEST_CASE("multibody: every kind of mistake is located and names what would be valid") {
  // unknown keys, with the closest valid one
  check_located(mechanism_with("inertia: 1.2", "inertai: 1.2"), "inertai: 1.2", "inertai",
                "unknown key 'inertai'; did you mean 'inertia'?");
  check_located(mechanism_with("  collisions:", "  colisions:"), "colisions", "colisions",
                "did you mean 'collisions'?");
  check_located(mechanism_with("axis: [3, 0]", "axes: [3, 0]"), "axes", "axes",
                "did you mean 'axis'?");
  check_located(mechanism_with("{segment: {length: 1}}", "{segmnt: {length: 1}}"), "segmnt",
                "segmnt", "did you mean 'segment'?");
  // unknown bodies in joints, with the closest name
  check_located(mechanism_with("parent: base, child: arm", "parent: bse, child: arm"),
                "parent: bse", "bse", "unknown body; did you mean 'base'?");
  check_located(mechanism_with("parent: base, child: arm", "parent: base, child: rm"), "child: rm",
                "rm", "unknown body; did you mean 'arm'?");
  check_located(mechanism_with("child: wedge", "child: ground"), "child: ground", "ground",
                "the ground hangs from nothing");
  check_located(mechanism_with("type: prismatic", "type: prismatc"), "prismatc", "prismatc",
                "unknown joint type; did you mean 'prismatic'?");
  // a body with two parents; a cycle
  check_located(mechanism_with("child: wedge", "child: arm"), "ground, child: arm", "arm",
                "already hangs from a joint (at ");
  check_located(mechanism_with("child: wedge", "child: arm"), "ground, child: arm", "arm",
                "scenario.yaml:12:45): a body has one parent");
  check_located(mechanism_with("parent: ground, child: wedge, parent_point: [2, 0], axis: [3, 0]}",
                               "parent: arm, child: base}"),
                "child: arm, parent_point", "arm",
                "the joints form a cycle, arm -> base -> arm (each hangs from the next)");
  // shapes: not convex, clockwise, more than one kind
  check_located(mechanism_with("[[0, 0], [0.3, 0], [0, 0.3]]", "[[0, 0], [0, 0.3], [0.3, 0]]"),
                "{polygon:", "{", "body wedge");
  check_located(
      mechanism_with("[[0, 0], [0.3, 0], [0, 0.3]]", "[[0, 0], [1, 0], [0.2, 0.2], [0, 1]]"),
      "{polygon:", "{", "body wedge");
  check_located(
      mechanism_with("{disk: {radius: 0.1}}", "{disk: {radius: 0.1}, segment: {length: 1}}"),
      "{disk: {radius: 0.1}, seg", "{", "must be one of rectangle, disk, segment");
  // a body without mass, without a shape or inertia; duplicate names
  check_located(mechanism_with("{name: wheel, mass: 1, ", "{name: wheel, "), "{name: wheel", "{",
                "missing required key 'mass'");
  check_located(one_body("{name: bead, mass: 1}"), "{name: bead", "{",
                "a body without a shape needs `inertia`");
  check_located(mechanism_with("name: wheel", "name: arm"), "name: arm, mass: 1", "arm",
                "scenario.yaml:4:14): names must differ");
  check_located(mechanism_with("name: slope", "name: base"), "name: base}", "base",
                "'base' already names a body or obstacle");
  check_located(mechanism_with("name: wheel", "name: \"wh.eel\""), "wh.eel", "\"",
                "must be a name of letters, digits");
  // values out of range, with the range
  check_located(mechanism_with("mass: 50", "mass: 1e12"), "1e12", "1e12",
                "model.bodies[1].mass = 1e12: must be in [1e-09, 1000000000] kg");
  check_located(mechanism_with("width: 0.6", "width: -0.6"), "-0.6", "-0.6",
                "model.bodies[1].shape.rectangle.width = -0.6: must be in [1e-06, 1000000] m");
  check_located(mechanism_with("[0.3, 0], [0, 0.3]]", "[3e6, 0], [0, 0.3]]"), "3e6", "3e6",
                "must be in [-1000000, 1000000] m");
  check_located(mechanism_with("inertia: 1.2", "inertia: -1"), "inertia: -1", "-1",
                "must be in [0, 1e+21] kg m^2");
  check_located(mechanism_with("normal: [-1, 4]", "normal: [0, 0]"), "[0, 0], name", "[",
                "must not be zero");
  check_located(mechanism_with("axis: [3, 0]", "axis: [0, 0]"), "axis: [0, 0]", "[",
                "must not be zero");
  check_located(mechanism_with("free_side: negative", "free_side: left"), "left", "left",
                "must be positive or negative");
  // a model is a named type or bodies
  check_located(mechanism_with("model:\n", "model:\n  type: ball\n"), "type: ball", "ball",
                "a model is a named `type` or `bodies`, not both");
}

TEST_CASE("multibody: stacked bodies given no height rest on each other, bottom-up, gap 0") {
  // the stacked_blocks preset and the same stack written as bodies, a disk on top
  const std::string bodies =
      "duration: 1\n"
      "model:\n"
      "  bodies:\n"
      "    - {name: block1, mass: 3, shape: {rectangle: {width: 0.5, height: 0.3}}}\n"
      "    - {name: block2, mass: 2, shape: {rectangle: {width: 0.3, height: 0.2}}}\n"
      "    - {name: ball, mass: 1, shape: {disk: {radius: 0.05}}}\n"
      "  obstacles: [{type: floor, position: 0.1}]\n"
      "initial: {q: {block2.x: 0.1, ball.x: 0.2}}\n" +
      kContact;
  const Scenario scenario = load_text(bodies);
  const Eigen::VectorXd& q = scenario.initial.q;
  CHECK(q[1] == doctest::Approx(0.1 + 0.15).epsilon(1e-15));
  CHECK(q[4] == doctest::Approx(0.1 + 0.3 + 0.1).epsilon(1e-15));
  // the ball, at x = 0.2 over block2's right half (x in [−0.05, 0.25]), sits on its top
  CHECK(q[7] == doctest::Approx(0.1 + 0.3 + 0.2 + 0.05).epsilon(1e-15));

  const Scenario stack = load_text(
      "duration: 1\nmodel: {type: stacked_blocks, blocks: 3, width: [0.6, 0.4, 0.2], "
      "height: [0.2, 0.3, 0.4], mass: [3, 2, 1]}\ninitial: {}\n" +
      kContact);
  const PlanarTree& tree = *stack.planar;
  const std::vector<double> heights = {0.2, 0.3, 0.4};
  double top = 0.0;
  for (int block = 0; block < 3; ++block) {
    CAPTURE(block);
    const double h = heights[static_cast<std::size_t>(block)];
    const Eigen::Vector2d bottom = tree.point_position(stack.initial.q, block, {0.0, -0.5 * h});
    CHECK(std::abs(bottom.y() - top) < 1e-15);  // gap 0 on the one below (block1: the floor)
    top = tree.point_position(stack.initial.q, block, {0.0, 0.5 * h}).y();
  }
  CHECK(stack.initial.v.isZero(0.0));
  // the generated contacts agree: each block's bottom corners touch the top of the one below, and
  // no corner is below the floor
  ContactKinematics kinematics;
  tree.contact_kinematics(stack.initial.q, stack.initial.v, kinematics);
  const std::vector<std::string>& names = tree.contact_names();
  for (const char* touching : {"block1.bottom_left/floor", "block1.bottom_right/floor",
                               "block2.bottom_left/block1.top", "block2.bottom_right/block1.top",
                               "block3.bottom_left/block2.top", "block3.bottom_right/block2.top"}) {
    CAPTURE(touching);
    const auto found = std::find(names.begin(), names.end(), touching);
    REQUIRE(found != names.end());
    CHECK(std::abs(kinematics.gap[found - names.begin()]) < 1e-12);
  }
  for (int k = 0; k < tree.contact_count(); ++k) {
    if (tree.contact_bodies(k).second == routh::kGround) CHECK(kinematics.gap[k] > -1e-12);
  }
}

TEST_CASE("multibody: the presets keep their coordinate names") {
  const std::vector<std::pair<std::string, std::vector<std::string>>> presets = {
      {"ball", {"x", "y", "theta"}},
      {"rod", {"x", "y", "theta"}},
      {"rocking_block", {"x", "y", "theta"}},
      {"pendulum", {"theta"}},
      {"double_pendulum", {"theta1", "theta2"}},
      {"chain", {"theta1", "theta2", "theta3"}},
      {"stacked_blocks",
       {"block1.x", "block1.y", "block1.theta", "block2.x", "block2.y", "block2.theta"}},
      {"two_disks", {"disk1.x", "disk1.y", "disk1.theta", "disk2.x", "disk2.y", "disk2.theta"}},
  };
  for (const auto& [type, coordinates] : presets) {
    CAPTURE(type);
    // starts outside the obstacles: the double pendulum swung up, the disks apart
    const std::string initial = type == "double_pendulum" ? "{q: [1.5, 1.5]}"
                                : type == "two_disks"     ? "{q: {disk2.x: 1}}"
                                                          : "{}";
    const Scenario scenario = load_text(
        cat("duration: 1\nmodel: {type: ", type, "}\ninitial: ", initial, "\n", kContact));
    CHECK(scenario.model->coordinate_names() == coordinates);
    CHECK(scenario.model_type == type);
  }
}

TEST_CASE("multibody: a chain takes one length and mass per link") {
  const std::string text =
      "duration: 1\n"
      "model: {type: chain, links: 3, length: [0.5, 0.3, 0.2], mass: [3, 2, 1],\n"
      "        obstacle: {type: floor, position: -2}}\n"
      "initial: {}\n" +
      kContact;
  const Scenario scenario = load_text(text);
  const PlanarTree& tree = *scenario.planar;
  CHECK(tree.contact_names() == std::vector<std::string>{"link1.end", "link2.end", "tip"});
  // hanging straight down: the ends at the partial sums of the lengths
  ContactKinematics kinematics;
  tree.contact_kinematics(scenario.initial.q, scenario.initial.v, kinematics);
  CHECK(kinematics.gap[0] == doctest::Approx(2.0 - 0.5).epsilon(1e-15));
  CHECK(kinematics.gap[1] == doctest::Approx(2.0 - 0.8).epsilon(1e-15));
  CHECK(kinematics.gap[2] == doctest::Approx(2.0 - 1.0).epsilon(1e-15));
  CHECK(tree.description().bodies[2].mass_kg == 1.0);
  CHECK(scenario.effective_yaml.find("length: [0.5, 0.3, 0.2]") != std::string::npos);
  // a list of the wrong length, a value out of range: located
  check_located(
      text.substr(0, text.find("[3, 2, 1]")) + "[3, 2]" + text.substr(text.find("[3, 2, 1]") + 9),
      "[3, 2]", "[", "model.mass: has 2 entries for 3 parts");
  check_located(
      cat("duration: 1\nmodel: {type: chain, links: 2, length: [0.5, 0]}\ninitial: {}\n", kContact),
      "0]}", "0", "model.length[1] = 0: must be in [1e-06, 1000000] m");
  check_located(cat("duration: 1\nmodel: {type: chain, links: 2.5}\ninitial: {}\n", kContact),
                "2.5", "2.5", "model.links = 2.5: must be a whole number in [1, 1000]");
}

TEST_CASE("multibody: a stack of 20 blocks loads, and its effective scenario reloads") {
  // 16 candidate contacts per ordered pair of blocks and 4 on the floor: 20 · 19 · 16 + 80
  const std::string text =
      "duration: 1\nmodel: {type: stacked_blocks, blocks: 20, width: 0.5, height: 0.2, mass: 1}\n"
      "initial: {}\n" +
      kContact;
  const Scenario stack = load_text(text);
  REQUIRE(stack.model->contact_names().size() == 6160);
  const Eigen::VectorXd& q = stack.initial.q;
  CHECK(q[3 * 19 + 1] == doctest::Approx(19.5 * 0.2).epsilon(1e-14));  // block20's centre
  // the effective scenario lists every contact by name; read back, it gives the same stack
  const Scenario reloaded = load_text(stack.effective_yaml);
  CHECK(reloaded.model->contact_names() == stack.model->contact_names());
  CHECK(reloaded.initial.q == q);
  check_located(
      cat("duration: 1\nmodel: {type: stacked_blocks, blocks: 51}\ninitial: {}\n", kContact), "51",
      "51", "model.blocks = 51: must be in [1, 50]");
}

TEST_CASE("multibody: a stack's blocks take names, which name its coordinates and contacts") {
  const std::string text =
      "duration: 1\n"
      "model:\n"
      "  type: stacked_blocks\n"
      "  blocks: 2\n"
      "  width: [0.6, 0.2]\n"
      "  height: [1.0, 0.8]\n"
      "  mass: [900, 100]\n"
      "  names: [plinth, statue]\n"
      "initial: {q: {statue.theta: 0}}\n" +
      kContact;
  const Scenario scenario = load_text(text);
  const PlanarTree& tree = *scenario.planar;
  CHECK(tree.coordinate_names() == std::vector<std::string>{"plinth.x", "plinth.y", "plinth.theta",
                                                            "statue.x", "statue.y",
                                                            "statue.theta"});
  CHECK(tree.description().body_names == std::vector<std::string>{"plinth", "statue"});
  // the statue rests on the plinth's top, the plinth on the floor (completion, as for block1 and
  // block2): their contacts say so by name
  ContactKinematics kinematics;
  tree.contact_kinematics(scenario.initial.q, scenario.initial.v, kinematics);
  const std::vector<std::string>& names = tree.contact_names();
  for (const char* touching : {"plinth.bottom_left/floor", "plinth.bottom_right/floor",
                               "statue.bottom_left/plinth.top", "statue.bottom_right/plinth.top"}) {
    CAPTURE(touching);
    const auto found = std::find(names.begin(), names.end(), touching);
    REQUIRE(found != names.end());
    CHECK(std::abs(kinematics.gap[found - names.begin()]) < 1e-12);
  }
  CHECK(std::none_of(names.begin(), names.end(), [](const std::string& name) {
    return name.find("block") != std::string::npos;
  }));
  CHECK(scenario.effective_yaml.find("names: [plinth, statue]") != std::string::npos);
  CHECK(load_text(scenario.effective_yaml).model->contact_names() == names);

  // without names, block1 … blockn, written into the effective scenario
  const Scenario unnamed = load_text(
      cat("duration: 1\nmodel: {type: stacked_blocks, blocks: 3}\ninitial: {}\n", kContact));
  CHECK(unnamed.planar->description().body_names ==
        std::vector<std::string>{"block1", "block2", "block3"});
  CHECK(unnamed.effective_yaml.find("names: [block1, block2, block3]") != std::string::npos);

  // mistakes, located at the list or at the name
  const auto with = [&](const std::string& from, const std::string& to) {
    std::string changed = text;
    changed.replace(changed.find(from), from.size(), to);
    return changed;
  };
  check_located(with("[plinth, statue]", "[plinth]"), "[plinth]", "[",
                "model.names: has 1 names for 2 parts: give one per part");
  check_located(with("[plinth, statue]", "[plinth, statue, base]"), "[plinth, statue, base]", "[",
                "has 3 names for 2 parts");
  check_located(with("[plinth, statue]", "plinth"), "names: plinth", "plinth",
                "model.names = plinth: must be a list of 2 names, one per part");
  check_located(with("[plinth, statue]", "[plinth, plinth]"), "plinth]", "plinth",
                "'plinth' already names a body or obstacle (at ");
  check_located(with("[plinth, statue]", "[plinth, plinth]"), "plinth]", "plinth",
                "scenario.yaml:8:11): names must differ");
  check_located(with("[plinth, statue]", "[plinth, \"\"]"), "\"\"]", "\"",
                "must be a name of letters, digits, '_' and '-'");
  check_located(with("[plinth, statue]", "[plinth, st.atue]"), "st.atue", "st.atue",
                "must be a name of letters, digits");
  check_located(with("[plinth, statue]", "[floor, statue]"), "floor, statue", "floor",
                "'floor' names an obstacle: names must differ");
  check_located(with("  names: [plinth, statue]\n",
                     "  names: [plinth, wall]\n  obstacle: {type: wall, position: -1, "
                     "free_side: positive}\n"),
                "wall]", "wall", "'wall' names an obstacle");
  // with no obstacle, "floor" is a name like any other
  CHECK(
      load_text(with("  names: [plinth, statue]\n", "  names: [floor, statue]\n  obstacle: none\n"))
          .planar->description()
          .body_names.front() == "floor");
}

TEST_CASE("multibody: the double pendulum's default floor follows its links") {
  const Scenario scenario =
      load_text(cat("duration: 1\nmodel: {type: double_pendulum, length: [1, 3], mass: [2, 5]}\n"
                    "initial: {q: [20 deg, 30 deg]}\n",
                    kContact));
  // paper 000's impact configuration touches, whatever the lengths
  ContactKinematics kinematics;
  scenario.planar->contact_kinematics(scenario.initial.q, scenario.initial.v, kinematics);
  CHECK(std::abs(kinematics.gap[0]) < 1e-15);
  CHECK(scenario.model->contact_names() == std::vector<std::string>{"tip"});
  CHECK(scenario.effective_yaml.find("type: floor") != std::string::npos);
}

TEST_CASE("multibody: two disks have a sphere's inertia and no gravity by default") {
  const Scenario scenario =
      load_text(cat("duration: 1\nmodel: {type: two_disks, radius: [0.04, 0.05], mass: [1, 2]}\n"
                    "initial: {q: {disk2.x: 1}}\n",
                    kContact));
  const PlanarTreeDescription& d = scenario.planar->description();
  CHECK(d.bodies[0].inertia_kg_m2 == doctest::Approx(0.4 * 1.0 * 0.04 * 0.04).epsilon(1e-15));
  CHECK(d.bodies[1].inertia_kg_m2 == doctest::Approx(0.4 * 2.0 * 0.05 * 0.05).epsilon(1e-15));
  CHECK(d.gravity_m_s2.isZero(0.0));
  CHECK(d.obstacles.empty());
  CHECK(scenario.initial.q[1] == 0.0);  // nothing to rest on: y stays 0
}

}  // namespace routh
