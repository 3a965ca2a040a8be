// How deep shaped bodies overlap (models/planar/body_overlap.hpp, PlanarTree::deepest_overlap_m),
// the measure of the simulator's `interpenetration` guard, against closed forms; and the guard
// itself ending a run whose bodies went through each other.

#include <doctest/doctest.h>

#include <Eigen/Core>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "models/planar/planar_tree.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/simulation/run_guards.hpp"
#include "tests/support/scenario_run.hpp"
#include "tests/support/scratch_files.hpp"

namespace {

using Eigen::VectorXd;

constexpr double kPi = 3.14159265358979323846;

// Free bodies named a and b (each a shape at its origin) above the floor y ≥ 0.
std::unique_ptr<routh::PlanarTree> pair_of(const routh::Shape& a, const routh::Shape& b,
                                           bool joined = false) {
  routh::PlanarTreeBuilder builder;
  const int first = builder.add_body("a", routh::uniform_body(a, 1.0),
                                     routh::free_joint("a.x", "a.y", "a.theta"));
  builder.set_shape(first, a);
  const routh::PlanarJoint joint = joined ? routh::revolute_joint(first, {0.0, 0.0}, "b.theta")
                                          : routh::free_joint("b.x", "b.y", "b.theta");
  const int second = builder.add_body("b", routh::uniform_body(b, 1.0), joint);
  builder.set_shape(second, b);
  builder.add_obstacle("floor", routh::floor_at(0.0));
  return builder.build();
}

double overlap_m(const routh::PlanarTree& tree, const VectorXd& q, std::string* where = nullptr) {
  return tree.deepest_overlap_m(q, *tree.make_workspace(), where);
}

VectorXd poses(double ax, double ay, double at, double bx, double by, double bt) {
  return (VectorXd(6) << ax, ay, at, bx, by, bt).finished();
}

}  // namespace

TEST_CASE("body overlap: two unit squares, the upper 1 mm into the lower, or 1 mm apart") {
  const auto tree = pair_of(routh::rectangle_shape(1.0, 1.0), routh::rectangle_shape(1.0, 1.0));
  std::string where;
  // b's bottom face at 1.999 m, a's top at 2 m (a centred at y = 1.5 clears the floor by 1 m)
  CHECK(overlap_m(*tree, poses(0.0, 1.5, 0.0, 0.3, 2.499, 0.0), &where) ==
        doctest::Approx(1e-3).epsilon(1e-9));
  CHECK(where == "a and b");
  CHECK(overlap_m(*tree, poses(0.0, 1.5, 0.0, 0.3, 2.501, 0.0)) ==
        doctest::Approx(-1e-3).epsilon(1e-9));
  // b turned 45° with its lowest corner 1 mm into a's top: the corner's depth
  const double half_diagonal = std::sqrt(0.5);
  CHECK(overlap_m(*tree, poses(0.0, 1.5, 0.0, 0.0, 2.0 + half_diagonal - 1e-3, kPi / 4.0)) ==
        doctest::Approx(1e-3).epsilon(1e-9));
}

TEST_CASE("body overlap: disks with disks and polygons, segments, and the floor") {
  const routh::Shape disk = routh::DiskShape{0.5, Eigen::Vector2d::Zero()};
  const auto disks = pair_of(disk, disk);
  CHECK(overlap_m(*disks, poses(0.0, 1.0, 0.0, 0.998, 1.0, 2.0)) ==
        doctest::Approx(2e-3).epsilon(1e-9));
  std::string where;
  CHECK(overlap_m(*disks, poses(0.0, 0.4999, 0.0, 5.0, 1.0, 0.0), &where) ==
        doctest::Approx(1e-4).epsilon(1e-9));
  CHECK(where == "a and floor");

  const auto disk_on_square = pair_of(disk, routh::rectangle_shape(1.0, 1.0));
  // the disk's centre 0.499 m above the square's top face, within its extent: 1 mm deep
  CHECK(overlap_m(*disk_on_square, poses(0.2, 1.999, 0.0, 0.0, 1.0, 0.0)) ==
        doctest::Approx(1e-3).epsilon(1e-9));
  // beyond the square's corner (0.5, 1.5): the distance to the corner decides
  const double off = 0.499 / std::sqrt(2.0);
  CHECK(overlap_m(*disk_on_square, poses(0.5 + off, 1.5 + off, 0.0, 0.0, 1.0, 0.0)) ==
        doctest::Approx(1e-3).epsilon(1e-9));

  // two segments of length 1 (along x in their frames): a along x at (0, 2), b turned upright
  // at x = 0.49, crossing a 1 cm from a's right end: the lesser way out is that 1 cm (along a's
  // length; across it, 0.5 m)
  const auto rods = pair_of(routh::segment_shape(1.0), routh::segment_shape(1.0));
  CHECK(overlap_m(*rods, poses(0.0, 2.0, 0.0, 0.49, 2.0, kPi / 2.0)) ==
        doctest::Approx(0.01).epsilon(1e-9));
  // b upright 1 cm beyond a's end: apart by 1 cm
  CHECK(overlap_m(*rods, poses(0.0, 2.0, 0.0, 0.51, 2.0, kPi / 2.0)) ==
        doctest::Approx(-0.01).epsilon(1e-9));
}

TEST_CASE("body overlap: bodies joined by a joint are not compared, nor are far ones") {
  const auto joined =
      pair_of(routh::rectangle_shape(1.0, 1.0), routh::rectangle_shape(1.0, 1.0), true);
  VectorXd q = VectorXd::Zero(4);
  q << 0.0, 2.0, 0.0, 0.3;  // b lies across a at the joint
  std::string where;
  CHECK(overlap_m(*joined, q, &where) < 0.0);
  const auto apart = pair_of(routh::rectangle_shape(1.0, 1.0), routh::rectangle_shape(1.0, 1.0));
  CHECK(overlap_m(*apart, poses(0.0, 5.0, 0.0, 10.0, 5.0, 0.0)) ==
        -std::numeric_limits<double>::infinity());
}

TEST_CASE("guards: bodies gone through each other are caught as interpenetration") {
  // The multibody campaign's chain:13: four segment links hanging from a pivot fold until the
  // joint of links 3 and 4 meets link 1's pivot end corner against corner. Its contacts there
  // were mishandled (link 1's end passed through the joint), and before the guard link 1 went on
  // 1.4 mm into link 4 and the run reported `completed`; with the guard it ended as
  // interpenetration at t = 0.3789 s. Now that the run completes, the guard is checked on the
  // state it reached then (the 1e5 Hz sample at t = 0.37892 s, 9 digits): link 1 crosses link 4
  // by 1.6e-5 m, past kOverlapLimit_m, and the guard names the two links.
  const std::string path = routh::test::write_problem(
      "name: campaign_chain_13\n"
      "duration: 1.4496391546195733\n"
      "model:\n"
      "  gravity: 9.8100000000000005\n"
      "  bodies:\n"
      "    - {name: link1, mass: 0.26687409785529337, shape: {polygon: {vertices: [[0, 0], [0, "
      "-0.56394932119785235]]}}}\n"
      "    - {name: link2, mass: 0.2655862793440863, shape: {polygon: {vertices: [[0, 0], [0, "
      "-0.40789866877424341]]}}}\n"
      "    - {name: link3, mass: 1.0953224865997988, shape: {polygon: {vertices: [[0, 0], [0, "
      "-0.20271547633940945]]}}}\n"
      "    - {name: link4, mass: 1.375411721134963, shape: {polygon: {vertices: [[0, 0], [0, "
      "-0.68717973495559115]]}}}\n"
      "  joints:\n"
      "    - {type: revolute, parent: ground, child: link1, parent_point: [0, "
      "0.83863551679475778], child_point: [0, 0], angle: absolute}\n"
      "    - {type: revolute, parent: link1, child: link2, parent_point: [0, "
      "-0.56394932119785235], child_point: [0, 0], angle: absolute}\n"
      "    - {type: revolute, parent: link2, child: link3, parent_point: [0, "
      "-0.40789866877424341], child_point: [0, 0], angle: absolute}\n"
      "    - {type: revolute, parent: link3, child: link4, parent_point: [0, "
      "-0.20271547633940945], child_point: [0, 0], angle: absolute}\n"
      "  obstacles:\n"
      "    - {name: floor, type: plane, point: [0, 0], normal: [0, 1]}\n"
      "initial:\n"
      "  q: {link1.theta: -2.5652332008853658, link2.theta: 1.0685910291714453, link3.theta: "
      "2.0748169256739217, link4.theta: 1.156704524507993}\n"
      "  v: {link1.theta: 3.3108479875402992, link2.theta: 3.2196917444563482}\n"
      "contact:\n"
      "  law: poisson\n"
      "  multi_contact_law: multipoint_energetic\n"
      "  restitution: 0\n"
      "  friction: {static: 0.23263196998775326, kinetic: 0.17141481700698111}\n"
      "output: {rate: 200}\n",
      "campaign_chain_13.yaml");
  const routh::Scenario scenario = routh::load_scenario(path);
  const routh::PlanarTree& model = *scenario.planar;
  const auto workspace = model.make_workspace();
  const Eigen::VectorXd crossed{{0.253735626, 3.667810534, 2.823175213, 0.523503389}};
  CHECK(model.deepest_overlap_m(crossed, *workspace) > routh::kOverlapLimit_m);
  const std::optional<std::string> overlap = routh::interpenetration(model, *workspace, crossed);
  REQUIRE(overlap.has_value());
  CHECK(overlap->find("link1 and link4 overlap by") != std::string::npos);
  CHECK(routh::exit_code(routh::RunStatus::interpenetration) == 10);
  // the initial state keeps them apart
  CHECK_FALSE(routh::interpenetration(model, *workspace, scenario.initial.q).has_value());
}
