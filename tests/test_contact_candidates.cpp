// The contacts a planar tree's shapes generate (models/planar/planar_contact_candidates.hpp), their
// gaps and supports at chosen poses, subset evaluation and the broad phase
// (models/planar/planar_broad_phase.hpp).

#include <doctest/doctest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/planar/planar_tree.hpp"
#include "tests/support/allocation_counter.hpp"

namespace {

using Eigen::Vector2d;
using Eigen::VectorXd;
using routh::PlanarTree;
using routh::PlanarTreeBuilder;

constexpr double kTouching = 1e-12;  // [m]: a gap this small is contact

int add_block(PlanarTreeBuilder& builder, const std::string& name, double width_m = 1.0,
              double height_m = 1.0) {
  const int body = builder.add_body(name, routh::uniform_rectangle(width_m, height_m, 1.0),
                                    routh::free_joint(name + ".x", name + ".y", name + ".theta"));
  builder.set_shape(body, routh::rectangle_shape(width_m, height_m));
  return body;
}

int add_disk(PlanarTreeBuilder& builder, const std::string& name, double radius_m) {
  const int body = builder.add_body(name, routh::uniform_disk(radius_m, 1.0),
                                    routh::free_joint(name + ".x", name + ".y", name + ".theta"));
  builder.set_shape(body, routh::DiskShape{radius_m, Vector2d::Zero()});
  return body;
}

int index_of(const PlanarTree& tree, const std::string& name) {
  const std::vector<std::string>& names = tree.contact_names();
  const auto found = std::find(names.begin(), names.end(), name);
  REQUIRE_MESSAGE(found != names.end(), "no contact " << name);
  return static_cast<int>(found - names.begin());
}

routh::ContactKinematics kinematics_at(const PlanarTree& tree, const VectorXd& q) {
  routh::ContactKinematics kinematics;
  tree.contact_kinematics(q, VectorXd::Zero(q.size()), kinematics);
  return kinematics;
}

std::vector<int> nearby_at(const PlanarTree& tree, const VectorXd& q) {
  std::vector<int> nearby;
  tree.nearby_contacts(q, *tree.make_workspace(), nearby);
  return nearby;
}

// n unit blocks stacked on the floor y ≥ 0, each resting flat on the one below.
std::unique_ptr<PlanarTree> block_stack(int blocks) {
  PlanarTreeBuilder builder;
  for (int i = 0; i < blocks; ++i) add_block(builder, "block" + std::to_string(i));
  builder.add_obstacle("floor", routh::floor_at(0.0));
  return builder.build();
}

VectorXd stacked(int blocks) {
  VectorXd q = VectorXd::Zero(3 * blocks);
  for (int i = 0; i < blocks; ++i) q[3 * i + 1] = 0.5 + i;
  return q;
}

// n segment links hanging from the origin, each from its proximal end (its frame's origin) to its
// distal end (0, −L), link i + 1 pinned to link i's distal end.
std::unique_ptr<PlanarTree> segment_chain(int links, const routh::HalfPlane& floor) {
  PlanarTreeBuilder builder;
  const Vector2d distal(0.0, -1.0);
  int parent = routh::kGround;
  for (int i = 1; i <= links; ++i) {
    const Vector2d pivot = parent == routh::kGround ? Vector2d::Zero() : distal;
    const std::string name = "link" + std::to_string(i);
    parent = builder.add_body(name, routh::uniform_rod(1.0, 1.0, 0.5 * distal),
                              routh::revolute_joint(parent, pivot, "theta" + std::to_string(i)));
    builder.set_shape(parent,
                      routh::segment_between(Vector2d::Zero(), distal, "proximal", "distal"));
  }
  builder.add_obstacle("floor", floor);
  return builder.build();
}

}  // namespace

TEST_CASE("candidates: a block on a floor touches it at its four corners, named after them") {
  PlanarTreeBuilder builder;
  add_block(builder, "block", 2.0, 1.0);
  builder.add_obstacle("floor", routh::floor_at(0.0));
  builder.add_obstacle("wall", routh::wall_at(-3.0, true));
  builder.add_contact("listed", {0, {0.0, 0.0}, 0.1, routh::floor_at(-1.0)});
  const auto tree = builder.build();
  const std::vector<std::string> expected = {"listed",
                                             "block.bottom_left/floor",
                                             "block.bottom_right/floor",
                                             "block.top_right/floor",
                                             "block.top_left/floor",
                                             "block.bottom_left/wall",
                                             "block.bottom_right/wall",
                                             "block.top_right/wall",
                                             "block.top_left/wall"};
  CHECK(tree->contact_names() == expected);
  for (int k = 0; k < tree->contact_count(); ++k) {
    CHECK(tree->contact_bodies(k) == std::pair<int, int>{0, routh::kGround});
  }
  const routh::ContactKinematics kinematics = kinematics_at(*tree, VectorXd{{0.0, 0.5, 0.0}});
  CHECK(std::abs(kinematics.gap[1]) < kTouching);
  CHECK(std::abs(kinematics.gap[2]) < kTouching);
  CHECK(kinematics.gap[3] == doctest::Approx(1.0));
  CHECK(kinematics.gap[5] == doctest::Approx(2.0));  // wall at x = −3, corner at x = −1
  CHECK(std::isinf(kinematics.support[1]));
  // the listed contact and the two bottom corners are near the floor; the wall is too far
  CHECK(nearby_at(*tree, VectorXd{{0.0, 0.5, 0.0}}) == std::vector<int>{0, 1, 2});
}

TEST_CASE("candidates: two blocks touch each other with every vertex against every edge") {
  PlanarTreeBuilder builder;
  add_block(builder, "lower");
  add_block(builder, "upper");
  const auto tree = builder.build();
  REQUIRE(tree->contact_count() == 2 * 4 * 4);
  CHECK(tree->contact_names().front() == "lower.bottom_left/upper.bottom");
  CHECK(tree->contact_names()[16] == "upper.bottom_left/lower.bottom");
  const int k = index_of(*tree, "upper.bottom_left/lower.top");
  CHECK(tree->contact_bodies(k) == std::pair<int, int>{1, 0});
  CHECK(tree->contact_bodies(index_of(*tree, "lower.top_left/upper.bottom")) ==
        std::pair<int, int>{0, 1});
  // the upper block 0.25 above the lower one and 0.3 to the right: its bottom left corner is
  // 0.3 from the lower top's end (the top runs right to left, to x = −0.5)
  const routh::ContactKinematics kinematics =
      kinematics_at(*tree, VectorXd{{0.0, 0.5, 0.0, 0.3, 1.75, 0.0}});
  CHECK(kinematics.gap[k] == doctest::Approx(0.25));
  CHECK(kinematics.support[k] == doctest::Approx(0.3));
}

TEST_CASE("candidates: set_body_collisions(false) leaves only the obstacles") {
  PlanarTreeBuilder builder;
  add_block(builder, "lower");
  add_block(builder, "upper");
  builder.add_obstacle("floor", routh::floor_at(0.0));
  builder.set_body_collisions(false);
  const auto tree = builder.build();
  CHECK(tree->contact_count() == 8);
  for (int k = 0; k < tree->contact_count(); ++k) CHECK(tree->contact_bodies(k).second == -1);
}

TEST_CASE("candidates: disks against edges and each other, named BODY/OTHER.EDGE and BODY/OTHER") {
  PlanarTreeBuilder builder;
  add_disk(builder, "ball", 0.2);
  add_block(builder, "block");
  add_disk(builder, "marble", 0.1);
  const auto tree = builder.build();
  // a vertex has no candidate against a disk: the disk's candidates against the edges touch
  // the corners they own
  const std::vector<std::string> expected = {
      "ball/block.bottom",  "ball/block.right", "ball/block.top",
      "ball/block.left",    "ball/marble",      "marble/block.bottom",
      "marble/block.right", "marble/block.top", "marble/block.left"};
  CHECK(tree->contact_names() == expected);
  CHECK(tree->contact_bodies(0) == std::pair<int, int>{0, 1});
  CHECK(tree->contact_bodies(4) == std::pair<int, int>{0, 2});
  CHECK(tree->contact_bodies(5) == std::pair<int, int>{2, 1});
  // ball/marble: the ball 0.5 right of the marble
  const routh::ContactKinematics kinematics =
      kinematics_at(*tree, VectorXd{{0.5, 3.0, 0.0, 0.0, -5.0, 0.0, 0.0, 3.0, 0.0}});
  CHECK(kinematics.gap[4] == doctest::Approx(0.2));
  CHECK(kinematics.jacobian(8, 0) == doctest::Approx(1.0));  // n = +x, from the marble
  CHECK(kinematics.jacobian(8, 6) == doctest::Approx(-1.0));
  CHECK(std::isinf(kinematics.support[4]));
}

TEST_CASE(
    "candidates: joined bodies never touch, a chain's shared ends and its pivot are dropped where "
    "the parent's end stands for them") {
  const auto chain = segment_chain(3, routh::floor_at(-2.5));
  // link1's pivot never moves, and link2's and link3's proximal ends are their parents' distal
  // ends: three floor contacts; link1 and link3 touch (2 × 2 + 2 × 2), the joined pairs never.
  // link3's proximal end stays against link1: it is link2's distal end, which never touches
  // link1 (joined to link2), and without it link3 passed through link1 at that end.
  const std::vector<std::string> expected = {
      "link1.distal/floor",      "link2.distal/floor",      "link3.distal/floor",
      "link1.proximal/link3.e0", "link1.proximal/link3.e1", "link1.distal/link3.e0",
      "link1.distal/link3.e1",   "link3.proximal/link1.e0", "link3.proximal/link1.e1",
      "link3.distal/link1.e0",   "link3.distal/link1.e1"};
  CHECK(chain->contact_names() == expected);
  for (int k = 0; k < chain->contact_count(); ++k) {
    const auto [body, other] = chain->contact_bodies(k);
    if (other != routh::kGround) CHECK(std::abs(body - other) == 2);
  }
  // a pendulum whose bob is a block: the rod and the block never touch each other
  PlanarTreeBuilder builder;
  const int rod = builder.add_body("rod", routh::uniform_rod(1.0, 1.0, {0.0, -0.5}),
                                   routh::revolute_joint(routh::kGround, {0.0, 0.0}, "theta"));
  builder.set_shape(rod, routh::segment_between({0.0, 0.0}, {0.0, -1.0}, "pivot", "tip"));
  const int bob = builder.add_body("bob", routh::uniform_rectangle(0.2, 0.2, 1.0),
                                   routh::revolute_joint(rod, {0.0, -1.0}, "phi"));
  builder.set_shape(bob, routh::rectangle_shape(0.2, 0.2));
  CHECK(builder.build()->contact_count() == 0);
}

TEST_CASE("candidates: aliases rename generated contacts, an alias of no contact is an error") {
  PlanarTreeBuilder builder;
  add_block(builder, "block");
  builder.add_obstacle("floor", routh::floor_at(0.0));
  builder.rename_contact("block.bottom_left/floor", "left_corner");
  const auto tree = builder.build();
  CHECK(tree->contact_names()[0] == "left_corner");
  CHECK(tree->contact_names()[1] == "block.bottom_right/floor");
  builder.rename_contact("block.middle/floor", "nothing");
  CHECK_THROWS_WITH_AS(builder.build(), doctest::Contains("block.middle/floor"),
                       std::invalid_argument);
}

TEST_CASE("candidates: the description's shapes and obstacles are checked") {
  PlanarTreeBuilder builder;
  const int block = add_block(builder, "block");
  builder.set_shape(block, routh::PolygonShape{{{0.0, 0.0}, {0.0, 1.0}, {1.0, 0.0}}, {}, {}});
  CHECK_THROWS_WITH_AS(builder.build(), doctest::Contains("shape of block"), std::invalid_argument);
  builder.set_shape(block, routh::rectangle_shape(1.0, 1.0));
  builder.add_obstacle("floor", {{0.0, 0.0}, {0.0, 2.0}});
  CHECK_THROWS_WITH_AS(builder.build(), doctest::Contains("unit normal"), std::invalid_argument);
  PlanarTreeBuilder twice;
  add_block(twice, "block");
  twice.add_obstacle("floor", routh::floor_at(0.0));
  twice.add_obstacle("floor", routh::floor_at(1.0));
  CHECK_THROWS_WITH_AS(twice.build(), doctest::Contains("obstacle name 'floor'"),
                       std::invalid_argument);
  CHECK_THROWS_AS(twice.set_shape(3, routh::rectangle_shape(1.0, 1.0)), std::invalid_argument);
}

TEST_CASE("candidates: equal-width blocks stacked corner on corner touch once per corner") {
  const auto tree = block_stack(2);
  const VectorXd q = stacked(2);
  const routh::ContactKinematics kinematics = kinematics_at(*tree, q);
  // the upper block's corners lie on the lower's top (its extent widened), the lower's corners
  // are a hair beyond the ends of the upper's bottom (its extent shrunk)
  for (const char* corner : {"left", "right"}) {
    const int upper_on_lower =
        index_of(*tree, std::string("block1.bottom_") + corner + "/block0.top");
    const int lower_on_upper =
        index_of(*tree, std::string("block0.top_") + corner + "/block1.bottom");
    CHECK(std::abs(kinematics.gap[upper_on_lower]) < kTouching);
    CHECK(kinematics.support[upper_on_lower] > 0.0);
    CHECK(kinematics.gap[lower_on_upper] == doctest::Approx(2.0 * routh::kExtentHair));
    CHECK(kinematics.support[lower_on_upper] < 0.0);
  }
  // Among the nearby contacts, exactly those two and the lower block's two floor corners touch:
  // the side faces through the coincident corners (gap 0 too) are not listed.
  std::vector<std::string> touching;
  for (const int k : nearby_at(*tree, q)) {
    if (std::abs(kinematics.gap[k]) < kTouching) touching.push_back(tree->contact_names()[k]);
  }
  std::sort(touching.begin(), touching.end());
  CHECK(touching == std::vector<std::string>{
                        "block0.bottom_left/floor", "block0.bottom_right/floor",
                        "block1.bottom_left/block0.top", "block1.bottom_right/block0.top"});
}

TEST_CASE("candidates: a vertex beside a face never reads as touching it") {
  PlanarTreeBuilder builder;
  add_block(builder, "block", 1.0, 1.0);
  const int tip = builder.add_body("tip", {1.0, Vector2d::Zero(), 0.01},
                                   routh::free_joint("tip.x", "tip.y", "tip.theta"));
  builder.set_shape(tip, routh::segment_shape(0.2));
  const auto tree = builder.build();
  const int top = index_of(*tree, "tip.left_end/block.top");
  const int bottom = index_of(*tree, "tip.left_end/block.bottom");
  // the tip's left end (0.1 left of its origin) sweeps the strip just right of the block's right
  // face, from below its bottom to above its top
  for (double x = 0.5 + 10.0 * routh::kExtentHair; x < 1.5; x += 0.0731) {
    for (double y = -0.7; y <= 0.7; y += 0.0173) {
      const routh::ContactKinematics kinematics =
          kinematics_at(*tree, VectorXd{{0.0, 0.0, 0.0, x + 0.1, y, 0.0}});
      CAPTURE(x);
      CAPTURE(y);
      CHECK(kinematics.support[top] <= 0.0);
      CHECK(kinematics.gap[top] > 0.0);
      CHECK(kinematics.gap[bottom] > 0.0);
    }
  }
  // continuous at the extent's end when the vertex is in front of the edge: 0.2 above the top
  // face at its extent's start x = 0.5 + ε (the top runs right to left; the tip's extents are
  // widened, its index being the greater)
  const double end = 0.6 + routh::kExtentHair;
  const double inside =
      kinematics_at(*tree, VectorXd{{0.0, 0.0, 0.0, end - 1e-9, 0.7, 0.0}}).gap[top];
  const double beyond =
      kinematics_at(*tree, VectorXd{{0.0, 0.0, 0.0, end + 1e-9, 0.7, 0.0}}).gap[top];
  CHECK(inside == doctest::Approx(0.2).epsilon(1e-12));
  CHECK(beyond == doctest::Approx(0.2).epsilon(1e-8));
}

TEST_CASE("candidates: a disk rolling off the end of a block's top face turns about the corner") {
  PlanarTreeBuilder builder;
  add_block(builder, "block", 2.0, 1.0);
  add_disk(builder, "ball", 0.25);
  const auto tree = builder.build();
  const int top = index_of(*tree, "ball/block.top");
  const int left = index_of(*tree, "ball/block.left");
  // the top runs from top_right (1, 0.5) to top_left (−1, 0.5): its end is the left corner
  const auto ball_at = [&](double x, double y) {
    return kinematics_at(*tree, VectorXd{{0.0, 0.0, 0.0, x, y, 0.0}});
  };
  const routh::ContactKinematics on_top = ball_at(-0.9, 0.75);
  CHECK(std::abs(on_top.gap[top]) < kTouching);
  CHECK(on_top.support[top] == doctest::Approx(0.1));
  // past the end: the corner's gap |c − e₁| − r and normal (c − e₁)/|c − e₁|
  const routh::ContactKinematics past = ball_at(-1.1, 0.7);
  const Vector2d from_corner(-0.1, 0.2);
  CHECK(past.gap[top] == doctest::Approx(from_corner.norm() - 0.25));
  CHECK(past.support[top] == doctest::Approx(-0.1));
  // the normal row moves the ball's centre along the normal: ∂g/∂(x, y) of the ball
  const Vector2d normal = from_corner.normalized();
  CHECK(past.jacobian(2 * top, 3) == doctest::Approx(normal.x()));
  CHECK(past.jacobian(2 * top, 4) == doctest::Approx(normal.y()));
  // the left edge starts at that corner, which it does not own: never touching before its start
  CHECK(past.gap[left] > 0.1);
  // the gap and both rows are continuous where the flat part ends
  const routh::ContactKinematics before = ball_at(-1.0 + 1e-9, 0.75);
  const routh::ContactKinematics after = ball_at(-1.0 - 1e-9, 0.75);
  CHECK(before.gap[top] == doctest::Approx(after.gap[top]));
  CHECK((before.jacobian.middleRows(2 * top, 2) - after.jacobian.middleRows(2 * top, 2)).norm() <
        1e-7);
  CHECK(before.support[top] > 0.0);
  CHECK(after.support[top] < 0.0);
}

TEST_CASE("candidates: evaluating a subset gives those contacts' rows, in its order") {
  const auto tree = block_stack(3);
  VectorXd q = stacked(3);
  q[2] = 0.1;
  q[5] = -0.2;
  const VectorXd v = VectorXd::LinSpaced(9, -1.0, 1.5);
  routh::ContactKinematics all;
  tree->contact_kinematics(q, v, all);
  const std::vector<int> subset = {40, 3, tree->contact_count() - 1};
  const auto workspace = tree->make_workspace();
  routh::StateQuantities out;
  const routh::QuantityRequest request{.contacts = true, .contact_subset = &subset};
  tree->evaluate(0.0, q, v, request, *workspace, out);
  REQUIRE(out.contacts.gap.size() == 3);
  for (std::size_t i = 0; i < subset.size(); ++i) {
    const auto row = static_cast<Eigen::Index>(i), k = static_cast<Eigen::Index>(subset[i]);
    CHECK(out.contacts.gap[row] == all.gap[k]);
    CHECK(out.contacts.support[row] == all.support[k]);
    CHECK(out.contacts.jacobian.middleRows(2 * row, 2) == all.jacobian.middleRows(2 * k, 2));
    CHECK(out.contacts.jacobian_dot_v.segment(2 * row, 2) == all.jacobian_dot_v.segment(2 * k, 2));
  }
  const long before = routh::test::allocation_count();
  tree->evaluate(0.0, q, v, request, *workspace, out);
  CHECK(routh::test::allocation_count() == before);
  const std::vector<int> outside = {tree->contact_count()};
  CHECK_THROWS_AS(
      tree->evaluate(0.0, q, v, {.contacts = true, .contact_subset = &outside}, *workspace, out),
      std::invalid_argument);
}

TEST_CASE("broad phase: a stack of 20 blocks lists only neighbours' contacts, without allocating") {
  constexpr int kBlocks = 20;
  const auto tree = block_stack(kBlocks);
  const VectorXd q = stacked(kBlocks);
  const auto workspace = tree->make_workspace();
  std::vector<int> nearby;
  tree->nearby_contacts(q, *workspace, nearby);
  CHECK(tree->contact_count() == 4 * kBlocks + 32 * kBlocks * (kBlocks - 1) / 2);
  CHECK(std::is_sorted(nearby.begin(), nearby.end()));
  int floor_contacts = 0;
  for (const int k : nearby) {
    const auto [body, other] = tree->contact_bodies(k);
    if (other == routh::kGround) {
      ++floor_contacts;
      CHECK(body == 0);
    } else {
      CHECK(std::abs(body - other) == 1);
    }
  }
  CHECK(floor_contacts == 2);
  // per neighbour pair, at each of the two shared corners: the upper's corner on the lower's top,
  // and the lower's corner a hair beyond the ends of the upper's bottom and side (gap 2ε)
  CHECK(nearby.size() == static_cast<std::size_t>(2 + 6 * (kBlocks - 1)));
  const long before = routh::test::allocation_count();
  tree->nearby_contacts(q, *workspace, nearby);
  CHECK(routh::test::allocation_count() == before);
}

TEST_CASE("broad phase: a vertex on a face is not read as sunk into the body's other faces") {
  PlanarTreeBuilder builder;
  add_block(builder, "base", 4.0, 1.0);
  add_block(builder, "box", 1.0, 1.0);
  const auto tree = builder.build();
  // the box rests on the base's top, 0.3 from its left end, tilted a little onto its left corner
  const double tilt = 0.05;
  const Vector2d corner(-1.7, 0.5);
  const Vector2d centre = corner + routh::rotation(tilt) * Vector2d(0.5, 0.5);
  const VectorXd q{{0.0, 0.0, 0.0, centre.x(), centre.y(), tilt}};
  const routh::ContactKinematics kinematics = kinematics_at(*tree, q);
  const int on_top = index_of(*tree, "box.bottom_left/base.top");
  CHECK(std::abs(kinematics.gap[on_top]) < 1e-12);
  std::vector<std::string> listed;
  for (const int k : nearby_at(*tree, q)) {
    if (kinematics.gap[k] < 0.01) listed.push_back(tree->contact_names()[k]);
  }
  // the base's left face is 0.3 away, its bottom 1 below: neither lists the corner
  CHECK(listed == std::vector<std::string>{"box.bottom_left/base.top"});
  // evaluated regardless: the corner is 0.3 behind the left face's line, within half the base's
  // width (2) of it, so it reads as sunk 0.3 into that face; it is 1 behind the bottom's line,
  // past half the base's height, where the bottom cannot be touched: its gap reads positive, the
  // bottom's length (4) plus that distance
  CHECK(kinematics.gap[index_of(*tree, "box.bottom_left/base.left")] ==
        doctest::Approx(-0.3).epsilon(1e-12));
  CHECK(kinematics.gap[index_of(*tree, "box.bottom_left/base.bottom")] ==
        doctest::Approx(5.0).epsilon(1e-12));
}

TEST_CASE("candidates: tangential positions exist for obstacle contacts only") {
  PlanarTreeBuilder builder;
  add_block(builder, "block");
  builder.add_obstacle("floor", routh::floor_at(0.0));
  const auto alone = builder.build();
  const VectorXd positions = alone->contact_tangential_positions(VectorXd{{0.25, 0.5, 0.0}});
  CHECK(positions[0] == doctest::Approx(-0.25));  // bottom_left at x = −0.25, t = +x
  add_block(builder, "other");
  const auto two = builder.build();
  CHECK_THROWS_WITH_AS(two->contact_tangential_positions(VectorXd::Zero(6)),
                       doctest::Contains("between two bodies"), std::logic_error);
}

TEST_CASE(
    "pair kinematics: a corner passing round a plate's end never reads as touching its far face") {
  // A plate (1 m × 0.1 m on x ∈ [−0.5, 0.5], y ∈ [−0.05, 0.05]) and a block whose top left corner
  // runs along y = −0.4 from x = 1 to x = 0: beside the plate, then 0.35 in front of its bottom
  // face and 0.45 behind its top face, past half the plate's depth: a corner reaches there round
  // the plate's end, never through it. The top face's gap stays positive, beyond the end
  // (|p − e| + β) and within it (the face's length plus the distance behind it); the bottom
  // face's is the distance 0.35. (Before, the top face read −0.45 within its extent: a landing
  // located at the extent's end, where nothing lands.)
  PlanarTreeBuilder builder;
  add_block(builder, "plate", 1.0, 0.1);
  add_block(builder, "block");
  const auto tree = builder.build();
  const int top = index_of(*tree, "block.top_left/plate.top");
  const int bottom = index_of(*tree, "block.top_left/plate.bottom");
  int within = 0;
  for (int step = 0; step <= 100; ++step) {
    const double x = 1.0 - 0.01 * step;
    CAPTURE(x);
    const routh::ContactKinematics kinematics =
        kinematics_at(*tree, VectorXd{{0.0, 0.0, 0.0, x + 0.5, -0.9, 0.0}});
    CHECK(kinematics.gap[top] > 0.45 - 1e-12);
    CHECK(kinematics.gap[bottom] > 0.35 - 1e-12);
    if (step > 50) {  // within the plate's extent
      ++within;
      CHECK(kinematics.gap[top] == doctest::Approx(1.45).epsilon(1e-12));
      CHECK(kinematics.gap[bottom] == doctest::Approx(0.35).epsilon(1e-12));
    }
  }
  CHECK(within == 50);
}
