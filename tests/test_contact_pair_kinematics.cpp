// The kinematics of shape-generated contacts (models/planar/contact_pair_kinematics.hpp) against
// finite differences along the motion, for every kind and regime, on trees where both bodies move
// with velocity-product accelerations of their own: body B turns on a spinning arm, body A is
// free.
//
// Checks: J_n v = ġ (central difference of the gap along q ± h v) and J̇v = d/dt (J v) along the
// motion with v fixed (central difference of J(q ± h v) v), both rows. With h = 1e-6 the
// truncation error is h² |g'''|/6 ≈ 1e-12 · O(10–100) and the round-off ε |J v| / h ≈ 1e-9; the
// tolerance 1e-6 (1 + |value|) leaves a margin of 100. States within 1e-3 of a regime's end (a
// support near 0, or a point near the line behind an edge past which the edge reads it as behind
// the body) are skipped: the difference would straddle two formulas.
//
// Then the tangential rows against the material points' velocities, by differences of their
// positions: a disk rolling without slip on a moving edge has u = 0, and a vertex on an edge slips
// at t·(v_A(p) − v_B(p)).

#include <doctest/doctest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <numbers>
#include <string>
#include <variant>
#include <vector>

#include "models/planar/contact_pair_kinematics.hpp"
#include "models/planar/planar_tree.hpp"
#include "tests/support/random_source.hpp"

namespace {

using Eigen::Vector2d;
using Eigen::VectorXd;
using routh::PlanarTree;

constexpr double kStep = 1e-6;           // [s] along q̇ = v
constexpr double kTolerance = 1e-6;      // relative, see the header comment
constexpr double kRegimeMargin = 1e-3;   // [m] from a regime's end
constexpr int kArm = 0, kB = 1, kA = 2;  // body indices
constexpr int kAx = 2, kAy = 3, kAtheta = 4;

// A convex polygon of 2–6 vertices on a random ellipse (2: a segment), or a disk.
routh::Shape random_shape(routh::test::RandomSource& random, bool disk) {
  const Vector2d centre(random.uniform(-0.2, 0.2), random.uniform(-0.2, 0.2));
  if (disk) return routh::DiskShape{random.uniform(0.1, 0.4), centre};
  const int count = 2 + static_cast<int>(random.uniform(0.0, 5.0));
  const double a = random.uniform(0.2, 0.6), b = random.uniform(0.2, 0.6);
  // counter-clockwise round the ellipse in uneven steps that add up to one turn
  std::vector<double> steps;
  double turn = 0.0;
  for (int i = 0; i < count; ++i) turn += steps.emplace_back(random.uniform(0.6, 1.4));
  routh::PolygonShape polygon;
  double angle = random.uniform(0.0, 2.0 * std::numbers::pi);
  for (const double step : steps) {
    polygon.vertices_m.push_back(centre + Vector2d(a * std::cos(angle), b * std::sin(angle)));
    angle += 2.0 * std::numbers::pi * step / turn;
  }
  return polygon;
}

// B turns on an arm that turns about the origin; A is free. A slope is the obstacle.
std::unique_ptr<PlanarTree> moving_pair(const routh::Shape& a, const routh::Shape& b) {
  routh::PlanarTreeBuilder builder;
  const int arm = builder.add_body("arm", {1.0, {0.3, 0.0}, 0.1},
                                   routh::revolute_joint(routh::kGround, {0.0, 0.0}, "arm"));
  const int body_b = builder.add_body("B", {1.0, {0.05, -0.02}, 0.05},
                                      routh::revolute_joint(arm, {0.8, 0.1}, "b"));
  const int body_a = builder.add_body("A", {1.0, Vector2d::Zero(), 0.05}, routh::free_joint());
  builder.set_shape(body_b, b);
  builder.set_shape(body_a, a);
  builder.add_obstacle("slope", {{0.0, -1.0}, Vector2d(std::sin(0.4), std::cos(0.4))});
  return builder.build();
}

routh::ContactKinematics contacts_at(const PlanarTree& tree, const VectorXd& q, const VectorXd& v) {
  routh::ContactKinematics contacts;
  tree.contact_kinematics(q, v, contacts);
  return contacts;
}

// How far the point `point_m` (world) lies behind the deepest line of `edge` (of body `body`) at
// which it can still touch it: < 0 where the edge reads it as behind (behind_edge).
double beyond_deepest_touch(const PlanarTree& tree, int body, const routh::EdgeFeature& edge,
                            const VectorXd& q, const Vector2d& point_m) {
  const Vector2d start = tree.point_position(q, body, edge.start_m);
  const Vector2d tangent = (tree.point_position(q, body, edge.end_m) - start).normalized();
  const Vector2d normal(tangent.y(), -tangent.x());
  return normal.dot(point_m - start) - routh::deepest_touch_m(edge);
}

// The regime a contact is in at q: its kind, and where along the edge or behind it; "" within
// kRegimeMargin of the line where an edge's contact starts to read a point as behind it.
std::string regime(const PlanarTree& tree, int k, const VectorXd& q, double support) {
  const routh::TreeContact& contact = tree.contacts()[static_cast<std::size_t>(k)];
  if (std::holds_alternative<routh::ContactGeometry>(contact)) return "obstacle";
  if (std::holds_alternative<routh::DiskDiskContact>(contact)) return "disk-disk";
  if (const auto* vertex_edge = std::get_if<routh::VertexEdgeContact>(&contact)) {
    if (support <= 0.0) return "vertex-edge beyond";
    const double behind =
        beyond_deepest_touch(tree, vertex_edge->other, vertex_edge->edge, q,
                             tree.point_position(q, vertex_edge->body, vertex_edge->vertex_m));
    if (std::abs(behind) < kRegimeMargin) return "";
    return behind > 0.0 ? "vertex-edge inside" : "vertex-edge behind";
  }
  const auto& disk_edge = std::get<routh::DiskEdgeContact>(contact);
  const Vector2d centre = tree.point_position(q, disk_edge.body, disk_edge.disk.centre_m);
  if (support > 0.0) {
    const double behind = beyond_deepest_touch(tree, disk_edge.other, disk_edge.edge, q, centre);
    if (std::abs(behind) < kRegimeMargin) return "";
    return behind > 0.0 ? "disk-edge inside" : "disk-edge behind";
  }
  const Vector2d start = tree.point_position(q, disk_edge.other, disk_edge.edge.start_m);
  const Vector2d end = tree.point_position(q, disk_edge.other, disk_edge.edge.end_m);
  return (centre - start).dot(end - start) > 0.0 ? "disk-edge past the end"
                                                 : "disk-edge before the start";
}

// The velocity of body `body`'s material point now at world `point_m`, by differences.
Vector2d velocity_of_material_point(const PlanarTree& tree, int body, const VectorXd& q,
                                    const VectorXd& v, const Vector2d& point_m) {
  const Vector2d origin = tree.point_position(q, body, Vector2d::Zero());
  const Vector2d x_axis = tree.point_position(q, body, Vector2d::UnitX()) - origin;
  const Vector2d y_axis = tree.point_position(q, body, Vector2d::UnitY()) - origin;
  const Vector2d local(x_axis.dot(point_m - origin), y_axis.dot(point_m - origin));
  return (tree.point_position(q + kStep * v, body, local) -
          tree.point_position(q - kStep * v, body, local)) /
         (2.0 * kStep);
}

}  // namespace

TEST_CASE("pair kinematics: J_n v = dg/dt and J̇v = d(J v)/dt for every kind and regime") {
  routh::test::RandomSource random(20250611);
  std::map<std::string, int> checked;
  for (int combination = 0; combination < 4; ++combination) {
    for (int draw = 0; draw < 4; ++draw) {
      const auto tree = moving_pair(random_shape(random, combination & 1),
                                    random_shape(random, (combination & 2) != 0));
      for (int sample = 0; sample < 40; ++sample) {
        VectorXd q(5), v(5);
        q[0] = random.uniform(-3.0, 3.0);
        q[1] = random.uniform(-3.0, 3.0);
        const Vector2d b_origin = tree->point_position(q, kB, Vector2d::Zero());
        q[kAx] = b_origin.x() + random.uniform(-0.8, 0.8);
        q[kAy] = b_origin.y() + random.uniform(-0.8, 0.8);
        q[kAtheta] = random.uniform(-3.0, 3.0);
        for (Eigen::Index i = 0; i < 5; ++i) v[i] = random.uniform(-2.0, 2.0);
        const routh::ContactKinematics now = contacts_at(*tree, q, v);
        const routh::ContactKinematics ahead = contacts_at(*tree, q + kStep * v, v);
        const routh::ContactKinematics behind = contacts_at(*tree, q - kStep * v, v);
        for (int k = 0; k < tree->contact_count(); ++k) {
          if (std::abs(now.support[k]) < kRegimeMargin) continue;
          const std::string kind = regime(*tree, k, q, now.support[k]);
          if (kind.empty()) continue;
          CAPTURE(kind);
          CAPTURE(tree->contact_names()[static_cast<std::size_t>(k)]);
          const double gap_rate = (ahead.gap[k] - behind.gap[k]) / (2.0 * kStep);
          const double u_n = now.jacobian.row(2 * k).dot(v);
          CHECK(std::abs(u_n - gap_rate) < kTolerance * (1.0 + std::abs(u_n)));
          for (int row = 2 * k; row < 2 * k + 2; ++row) {
            const double rate =
                (ahead.jacobian.row(row).dot(v) - behind.jacobian.row(row).dot(v)) / (2.0 * kStep);
            const double product = now.jacobian_dot_v[row];
            CAPTURE(row - 2 * k);
            CHECK(std::abs(product - rate) < kTolerance * (1.0 + std::abs(product)));
          }
          ++checked[kind];
        }
      }
    }
  }
  for (const char* kind : {"obstacle", "vertex-edge inside", "vertex-edge beyond",
                           "vertex-edge behind", "disk-edge inside", "disk-edge behind",
                           "disk-edge past the end", "disk-edge before the start", "disk-disk"}) {
    CAPTURE(kind);
    CHECK(checked[kind] >= 20);
  }
}

TEST_CASE("pair kinematics: a disk rolling without slip on a moving edge has u = 0") {
  routh::test::RandomSource random(7);
  const routh::DiskShape disk{0.3, Vector2d::Zero()};
  const auto tree = moving_pair(disk, routh::rectangle_shape(1.0, 0.4));
  const int k = [&] {
    const std::vector<std::string>& names = tree->contact_names();
    return static_cast<int>(std::find(names.begin(), names.end(), "A/B.top") - names.begin());
  }();
  for (int sample = 0; sample < 10; ++sample) {
    VectorXd q(5), v(5);
    q << random.uniform(-3.0, 3.0), random.uniform(-3.0, 3.0), 0.0, 0.0, random.uniform(-3.0, 3.0);
    v << random.uniform(-2.0, 2.0), random.uniform(-2.0, 2.0), 0.0, 0.0, random.uniform(-2.0, 2.0);
    // the disk on the top face, a random way along it
    const double along = random.uniform(-0.4, 0.4);
    const Vector2d foot = tree->point_position(q, kB, {along, 0.2});
    const Vector2d normal =
        (tree->point_position(q, kB, {along, 1.2}) - foot).normalized();  // the top's, world
    const Vector2d centre = foot + disk.radius_m * normal;
    q[kAx] = centre.x();
    q[kAy] = centre.y();
    // the rim point at the foot moves with B's material point there
    const Vector2d edge_velocity = velocity_of_material_point(*tree, kB, q, v, foot);
    const double omega = v[kAtheta];
    const Vector2d centre_velocity = edge_velocity - omega * routh::perpendicular(foot - centre);
    v[kAx] = centre_velocity.x();
    v[kAy] = centre_velocity.y();
    const routh::ContactKinematics contacts = contacts_at(*tree, q, v);
    CHECK(std::abs(contacts.gap[k]) < 1e-12);
    CHECK(std::abs(contacts.jacobian.row(2 * k).dot(v)) < 1e-8);
    CHECK(std::abs(contacts.jacobian.row(2 * k + 1).dot(v)) < 1e-8);
  }
}

TEST_CASE("pair kinematics: a vertex on an edge slips at t·(v_A(p) − v_B(p))") {
  routh::test::RandomSource random(11);
  const auto tree = moving_pair(routh::rectangle_shape(0.3, 0.2), routh::rectangle_shape(1.0, 0.4));
  const int k = [&] {
    const std::vector<std::string>& names = tree->contact_names();
    return static_cast<int>(std::find(names.begin(), names.end(), "A.bottom_left/B.top") -
                            names.begin());
  }();
  for (int sample = 0; sample < 10; ++sample) {
    VectorXd q(5), v(5);
    for (Eigen::Index i = 0; i < 5; ++i) {
      q[i] = random.uniform(-3.0, 3.0);
      v[i] = random.uniform(-2.0, 2.0);
    }
    // A's bottom left corner on B's top face
    const Vector2d point = tree->point_position(q, kB, {random.uniform(-0.4, 0.4), 0.2});
    q[kAx] += point.x() - tree->point_position(q, kA, {-0.15, -0.1}).x();
    q[kAy] += point.y() - tree->point_position(q, kA, {-0.15, -0.1}).y();
    const Vector2d normal =
        tree->point_position(q, kB, {0.0, 1.0}) - tree->point_position(q, kB, {0.0, 0.0});
    const Vector2d tangent(normal.y(), -normal.x());
    const Vector2d slip = velocity_of_material_point(*tree, kA, q, v, point) -
                          velocity_of_material_point(*tree, kB, q, v, point);
    const routh::ContactKinematics contacts = contacts_at(*tree, q, v);
    CHECK(std::abs(contacts.gap[k]) < 1e-12);
    CHECK(contacts.jacobian.row(2 * k).dot(v) == doctest::Approx(normal.dot(slip)).epsilon(1e-8));
    CHECK(contacts.jacobian.row(2 * k + 1).dot(v) ==
          doctest::Approx(tangent.dot(slip)).epsilon(1e-8));
  }
}
