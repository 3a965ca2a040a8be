// Bodies with shapes in running simulations: every corner touches, bodies collide with bodies,
// blocks overturn onto their sides, disks roll off edges. Each check is computed from the
// samples and the bodies' geometry alone (never from routh's contact kinematics), or against an
// independent derivation of the impact (D and u⁻ of two disks written out by hand).

#include <doctest/doctest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "models/planar/planar_tree.hpp"
#include "sim/impact/law_catalogue.hpp"
#include "sim/impact/poisson.hpp"
#include "sim/simulation/contact_forces.hpp"
#include "sim/simulation/simulator.hpp"
#include "support/trajectory_memory.hpp"

namespace {

using routh::EventKind;
using routh::PlanarTree;
using routh::PlanarTreeBuilder;
using routh::test::TrajectoryMemory;

struct Run {
  std::unique_ptr<PlanarTree> tree;
  routh::SimulationOutcome outcome;
  TrajectoryMemory trajectory;
};

routh::SimulationSettings settings_for(const PlanarTree& tree, double restitution, double mu,
                                       double duration) {
  routh::SimulationSettings settings;
  settings.duration = duration;
  settings.output_rate = 200.0;
  settings.law = routh::find_law("poisson")->solve;
  settings.multi_contact_law = routh::find_law("lcp")->solve;
  settings.contacts.assign(static_cast<std::size_t>(tree.contact_count()), {restitution, mu, mu});
  return settings;
}

Run simulate(std::unique_ptr<PlanarTree> tree, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
             const routh::SimulationSettings& settings) {
  Run run;
  run.tree = std::move(tree);
  run.outcome = routh::simulate(*run.tree, {0.0, q, v, {}}, settings, run.trajectory);
  return run;
}

// A point (c_x, c_y) of a body at (x, y, θ) in the world.
Eigen::Vector2d world_point(const Eigen::VectorXd& q, int first, const Eigen::Vector2d& c) {
  const double cs = std::cos(q[first + 2]), sn = std::sin(q[first + 2]);
  return {q[first] + cs * c.x() - sn * c.y(), q[first + 1] + sn * c.x() + cs * c.y()};
}

// The four corners of a w × h block centred on its body origin, at q[first … first + 2].
std::vector<Eigen::Vector2d> corners(const Eigen::VectorXd& q, int first, double w, double h) {
  std::vector<Eigen::Vector2d> points;
  for (const Eigen::Vector2d& c : {Eigen::Vector2d(-w / 2, -h / 2), Eigen::Vector2d(w / 2, -h / 2),
                                   Eigen::Vector2d(w / 2, h / 2), Eigen::Vector2d(-w / 2, h / 2)}) {
    points.push_back(world_point(q, first, c));
  }
  return points;
}

// How far a point lies inside a w × h block at q[first …] (> 0 inside, ≤ 0 outside).
double depth_inside_block(const Eigen::Vector2d& p, const Eigen::VectorXd& q, int first, double w,
                          double h) {
  const double cs = std::cos(q[first + 2]), sn = std::sin(q[first + 2]);
  const Eigen::Vector2d d = p - Eigen::Vector2d(q[first], q[first + 1]);
  const Eigen::Vector2d local(cs * d.x() + sn * d.y(), -sn * d.x() + cs * d.y());
  return std::min(w / 2 - std::abs(local.x()), h / 2 - std::abs(local.y()));
}

int add_free_block(PlanarTreeBuilder& builder, const std::string& name, double w, double h,
                   double mass) {
  const routh::Shape shape = routh::rectangle_shape(w, h);
  const int body = builder.add_body(name, routh::uniform_body(shape, mass),
                                    routh::free_joint(name + ".x", name + ".y", name + ".theta"));
  builder.set_shape(body, shape);
  return body;
}

int add_free_disk(PlanarTreeBuilder& builder, const std::string& name, double r, double mass,
                  double inertia) {
  const int body = builder.add_body(name, routh::PlanarBody{mass, Eigen::Vector2d::Zero(), inertia},
                                    routh::free_joint(name + ".x", name + ".y", name + ".theta"));
  builder.set_shape(body, routh::DiskShape{r, Eigen::Vector2d::Zero()});
  return body;
}

// The samples just before and just after the first event of `kind` (events add both).
struct AroundEvent {
  const TrajectoryMemory::Sample* before = nullptr;
  const TrajectoryMemory::Sample* after = nullptr;
  const routh::EventRecord* event = nullptr;
};
AroundEvent around_first(const TrajectoryMemory& trajectory, EventKind kind) {
  AroundEvent around;
  for (const routh::EventRecord& event : trajectory.events) {
    if (event.kind != kind) continue;
    around.event = &event;
    for (std::size_t i = 0; i + 1 < trajectory.samples.size(); ++i) {
      if (trajectory.samples[i].t == event.t && trajectory.samples[i + 1].t == event.t) {
        around.before = &trajectory.samples[i];
        around.after = &trajectory.samples[i + 1];
        break;
      }
    }
    break;
  }
  return around;
}

}  // namespace

TEST_CASE(
    "shaped bodies: two disks collide obliquely with spin and friction as an independent "
    "derivation of D and u⁻ through Poisson's law gives") {
  // Disk A (r 0.3 m, 2 kg) flies at disk B (r 0.5 m, 5 kg) off-centre, both spinning; solid
  // spheres' inertia 2/5 m r² (paper 000's Example 2 is this collision with its own numbers).
  constexpr double rA = 0.3, mA = 2.0, rB = 0.5, mB = 5.0;
  const double IA = 0.4 * mA * rA * rA, IB = 0.4 * mB * rB * rB;
  constexpr double kRestitution = 0.6, kMu = 0.25;
  PlanarTreeBuilder builder;
  builder.set_gravity(Eigen::Vector2d::Zero());
  add_free_disk(builder, "A", rA, mA, IA);
  add_free_disk(builder, "B", rB, mB, IB);
  auto tree = builder.build();
  Eigen::VectorXd q(6), v(6);
  q << 0.0, 0.0, 0.0, 1.5, 0.35, 0.0;
  v << 3.0, 0.4, 7.0, -0.5, 0.0, -2.0;
  const routh::SimulationSettings settings = settings_for(*tree, kRestitution, kMu, 1.0);
  const Run run = simulate(std::move(tree), q, v, settings);
  REQUIRE(run.outcome.status == routh::RunStatus::completed);
  const AroundEvent impact = around_first(run.trajectory, EventKind::impact);
  REQUIRE(impact.before != nullptr);

  // Independent: the normal from B's centre toward A's, t = n turned clockwise; the material
  // points at the contact move at v_A + r_A ω_A t and v_B − r_B ω_B t, so
  //   u_n = n·(v_A − v_B),  u_t = t·(v_A − v_B) + r_A ω_A + r_B ω_B,
  //   D = diag(1/m_A + 1/m_B, 1/m_A + 1/m_B + r_A²/I_A + r_B²/I_B).
  const Eigen::VectorXd& qm = impact.before->q;
  const Eigen::VectorXd& vm = impact.before->v;
  const Eigen::Vector2d centre_gap(qm[0] - qm[3], qm[1] - qm[4]);
  CHECK(std::abs(centre_gap.norm() - (rA + rB)) < 1e-9);  // they touch
  const Eigen::Vector2d n = centre_gap.normalized();
  const Eigen::Vector2d t(n.y(), -n.x());
  const Eigen::Vector2d vA(vm[0], vm[1]), vB(vm[3], vm[4]);
  const double u_n = n.dot(vA - vB);
  const double u_t = t.dot(vA - vB) + rA * vm[2] + rB * vm[5];
  const double inverse_mass = 1.0 / mA + 1.0 / mB;
  const routh::ImpactProblem problem =
      routh::planar_impact_problem(inverse_mass, inverse_mass + rA * rA / IA + rB * rB / IB, 0.0,
                                   u_n, u_t, {kRestitution, kMu, kMu});
  const routh::ImpactResult law = routh::solve_poisson(problem);
  REQUIRE(law.status == routh::ImpactStatus::solved);
  const Eigen::Vector2d impulse = law.impulse[0] * n + law.impulse[1] * t;
  Eigen::VectorXd expected = vm;
  expected.segment<2>(0) += impulse / mA;
  expected[2] += rA * law.impulse[1] / IA;
  expected.segment<2>(3) -= impulse / mB;
  expected[5] += rB * law.impulse[1] / IB;
  const Eigen::VectorXd& v_post = impact.after->v;
  for (int i = 0; i < 6; ++i) CHECK(std::abs(v_post[i] - expected[i]) < 1e-9);
  // linear and angular momentum (about the origin) hold: no external impulse acts
  const auto momentum = [&](const Eigen::VectorXd& qq, const Eigen::VectorXd& vv) {
    return Eigen::Vector3d(mA * vv[0] + mB * vv[3], mA * vv[1] + mB * vv[4],
                           IA * vv[2] + IB * vv[5] + mA * (qq[0] * vv[1] - qq[1] * vv[0]) +
                               mB * (qq[3] * vv[4] - qq[4] * vv[3]));
  };
  CHECK((momentum(qm, v_post) - momentum(qm, vm)).norm() < 1e-12 * momentum(qm, vm).norm());
  CHECK(impact.event->delta_T <= 0.0);
}

TEST_CASE(
    "shaped bodies: a block striking another in free space conserves momentum, and no "
    "corner enters the other block") {
  PlanarTreeBuilder builder;
  builder.set_gravity(Eigen::Vector2d::Zero());
  add_free_block(builder, "striker", 0.4, 0.2, 1.5);
  add_free_block(builder, "target", 0.6, 0.6, 4.0);
  auto tree = builder.build();
  Eigen::VectorXd q(6), v(6);
  q << -1.0, 0.1, 0.3, 0.0, 0.0, 0.0;
  v << 2.0, 0.0, 0.5, 0.0, 0.0, 0.0;
  const routh::SimulationSettings settings = settings_for(*tree, 0.5, 0.3, 1.5);
  const Run run = simulate(std::move(tree), q, v, settings);
  REQUIRE(run.outcome.status == routh::RunStatus::completed);
  REQUIRE(run.outcome.impacts >= 1);
  const auto momentum = [](const Eigen::VectorXd& qq, const Eigen::VectorXd& vv) {
    const double m1 = 1.5, m2 = 4.0;
    const double I1 = m1 * (0.16 + 0.04) / 12.0, I2 = m2 * (0.36 + 0.36) / 12.0;
    return Eigen::Vector3d(m1 * vv[0] + m2 * vv[3], m1 * vv[1] + m2 * vv[4],
                           I1 * vv[2] + I2 * vv[5] + m1 * (qq[0] * vv[1] - qq[1] * vv[0]) +
                               m2 * (qq[3] * vv[4] - qq[4] * vv[3]));
  };
  const Eigen::Vector3d initial = momentum(q, v);
  double worst_depth = -1.0;
  for (const auto& s : run.trajectory.samples) {
    CHECK((momentum(s.q, s.v) - initial).norm() < 1e-9 * initial.norm());
    for (const Eigen::Vector2d& c : corners(s.q, 0, 0.4, 0.2)) {
      worst_depth = std::max(worst_depth, depth_inside_block(c, s.q, 3, 0.6, 0.6));
    }
    for (const Eigen::Vector2d& c : corners(s.q, 3, 0.6, 0.6)) {
      worst_depth = std::max(worst_depth, depth_inside_block(c, s.q, 0, 0.4, 0.2));
    }
  }
  CHECK(worst_depth < 1e-9);
}

TEST_CASE("shaped bodies: two stacked blocks at rest stay at rest for 100 s") {
  PlanarTreeBuilder builder;
  add_free_block(builder, "base", 1.0, 0.5, 200.0);
  add_free_block(builder, "top", 0.6, 0.4, 50.0);
  builder.add_obstacle("floor", routh::floor_at(0.0));
  auto tree = builder.build();
  Eigen::VectorXd q(6);
  q << 0.0, 0.25, 0.0, 0.05, 0.7, 0.0;
  routh::SimulationSettings settings = settings_for(*tree, 0.0, 0.6, 100.0);
  settings.output_rate = 1.0;
  const Run run = simulate(std::move(tree), q, Eigen::VectorXd::Zero(6), settings);
  REQUIRE(run.outcome.status == routh::RunStatus::completed);
  CHECK(run.trajectory.events.empty());
  double drift = 0.0;
  for (const auto& s : run.trajectory.samples)
    drift = std::max(drift, (s.q - q).cwiseAbs().maxCoeff());
  CHECK(drift < 1e-9);
  MESSAGE("largest drift over 100 s: ", drift, " m or rad");
}

TEST_CASE(
    "shaped bodies: a stone rocks on the block beneath it under a ground pulse, no corner "
    "enters the block or the floor") {
  constexpr double kPulse = 6.0, kPeriod = 0.3;  // a_g = 6 sin(π t / 0.3) m/s² for 0.3 s
  PlanarTreeBuilder builder;
  add_free_block(builder, "base", 1.0, 0.5, 200.0);
  add_free_block(builder, "stone", 0.2, 0.6, 10.0);
  builder.add_obstacle("floor", routh::floor_at(0.0));
  builder.set_ground_acceleration([](double t) {
    return Eigen::Vector2d(t < kPeriod ? kPulse * std::sin(std::numbers::pi * t / kPeriod) : 0.0,
                           0.0);
  });
  auto tree = builder.build();
  Eigen::VectorXd q(6);
  q << 0.0, 0.25, 0.0, 0.0, 0.8, 0.0;
  const routh::SimulationSettings settings = settings_for(*tree, 0.0, 0.8, 3.0);
  const Run run = simulate(std::move(tree), q, Eigen::VectorXd::Zero(6), settings);
  REQUIRE(run.outcome.status == routh::RunStatus::completed);
  CHECK(run.trajectory.times_of(EventKind::uplift).size() == 1);
  CHECK(run.outcome.impacts >= 1);
  double worst_depth = -1.0, lowest = 1.0;
  for (const auto& s : run.trajectory.samples) {
    for (const Eigen::Vector2d& c : corners(s.q, 3, 0.2, 0.6)) {
      worst_depth = std::max(worst_depth, depth_inside_block(c, s.q, 0, 1.0, 0.5));
      lowest = std::min(lowest, c.y());
    }
    for (const Eigen::Vector2d& c : corners(s.q, 0, 1.0, 0.5)) lowest = std::min(lowest, c.y());
  }
  CHECK(worst_depth < 1e-9);
  CHECK(lowest > -1e-9);
  double turned = 0.0;
  for (const auto& s : run.trajectory.samples) turned = std::max(turned, std::abs(s.q[5]));
  CHECK(turned > 0.01);  // it rocked
  MESSAGE(run.outcome.impacts, " impacts; the stone turned up to ", turned, " rad");
}

TEST_CASE(
    "shaped bodies: a disk rolling on a block's top face leaves its edge when the closed "
    "form says") {
  // A disk of radius 0.2 m rolls without slip at 1 m/s on the top face (y = 1) of a 2 m wide
  // block resting on the floor: no force is needed to keep it rolling, so its contact point
  // reaches the face's right end, x = 1 m, at t = (1 − 0.2) / 1 = 0.8 s.
  constexpr double kR = 0.2, kSpeed = 1.0, kStart = 0.2;
  PlanarTreeBuilder builder;
  add_free_block(builder, "block", 2.0, 1.0, 100.0);
  add_free_disk(builder, "disk", kR, 1.0, 0.5 * kR * kR);
  builder.add_obstacle("floor", routh::floor_at(0.0));
  auto tree = builder.build();
  Eigen::VectorXd q(6), v(6);
  q << 0.0, 0.5, 0.0, kStart, 1.0 + kR, 0.0;
  v << 0.0, 0.0, 0.0, kSpeed, 0.0, -kSpeed / kR;
  const routh::SimulationSettings settings = settings_for(*tree, 0.0, 0.8, 1.5);
  const Run run = simulate(std::move(tree), q, v, settings);
  REQUIRE(run.outcome.status == routh::RunStatus::completed);
  const std::vector<double> ends = run.trajectory.times_of(EventKind::edge_end);
  REQUIRE_FALSE(ends.empty());
  const double expected = (1.0 - kStart) / kSpeed;
  CHECK(std::abs(ends.front() - expected) < 1e-9);
  // past the edge the disk turns about the corner and falls; it never enters the block
  double worst = -1.0;
  for (const auto& s : run.trajectory.samples) {
    const Eigen::Vector2d centre(s.q[3], s.q[4]);
    // distance from the centre to the block (axis-aligned while it rests)
    const Eigen::Vector2d low(s.q[0] - 1.0, s.q[1] - 0.5), high(s.q[0] + 1.0, s.q[1] + 0.5);
    const Eigen::Vector2d nearest = centre.cwiseMax(low).cwiseMin(high);
    worst = std::max(worst, kR - (centre - nearest).norm());
  }
  CHECK(worst < 1e-9);
  MESSAGE("edge_end at ", ends.front(), " s (closed form ", expected, " s)");
}

TEST_CASE(
    "shaped bodies: a block sliding into a wall strikes it with both right corners when the "
    "closed form says, and stays out of it") {
  // μ = 0.2 decelerates it at μ g: x(t) = x0 + v0 t − μ g t²/2 until its right face x + 0.2
  // reaches the wall at x = 1.
  constexpr double kMu = 0.2, kV0 = 2.0, kX0 = 0.0, kWall = 1.0, kHalf = 0.2;
  PlanarTreeBuilder builder;
  add_free_block(builder, "block", 2 * kHalf, 2 * kHalf, 3.0);
  builder.add_obstacle("floor", routh::floor_at(0.0));
  builder.add_obstacle("wall", routh::wall_at(kWall, false));
  auto tree = builder.build();
  Eigen::VectorXd q(3), v(3);
  q << kX0, kHalf, 0.0;
  v << kV0, 0.0, 0.0;
  const routh::SimulationSettings settings = settings_for(*tree, 0.5, kMu, 1.0);
  const Run run = simulate(std::move(tree), q, v, settings);
  REQUIRE(run.outcome.status == routh::RunStatus::completed);
  const double a = kMu * routh::kDefaultGravity, gap = kWall - kHalf - kX0;
  const double expected = (kV0 - std::sqrt(kV0 * kV0 - 2.0 * a * gap)) / a;
  const AroundEvent impact = around_first(run.trajectory, EventKind::impact);
  REQUIRE(impact.event != nullptr);
  CHECK(std::abs(impact.event->t - expected) < 1e-9);
  CHECK(impact.after->v[0] < 0.0);  // it rebounds
  double deepest = 0.0;
  for (const auto& s : run.trajectory.samples) {
    for (const Eigen::Vector2d& c : corners(s.q, 0, 2 * kHalf, 2 * kHalf)) {
      deepest = std::max({deepest, c.x() - kWall, -c.y()});
    }
  }
  CHECK(deepest < 1e-9);
}

TEST_CASE("shaped bodies: a rocking block strikes a wall with its top corner") {
  // 0.2 m × 1.0 m, tipping about its left corner (−0.1, 0) towards a wall at x = −0.45: its
  // top-left corner, at x = −0.1 − 2h sin θ / 2 = −0.1 − sin θ, reaches the wall at θ = 0.357.
  PlanarTreeBuilder builder;
  add_free_block(builder, "block", 0.2, 1.0, 1.0);
  builder.add_obstacle("floor", routh::floor_at(0.0));
  builder.add_obstacle("wall", routh::wall_at(-0.45, true));
  auto tree = builder.build();
  const double theta0 = 0.25;
  // resting on its left corner (−b, −h): centre = corner + R(θ)(b, h)
  const Eigen::Vector2d centre =
      Eigen::Vector2d(-0.1, 0.0) + Eigen::Vector2d(0.1 * std::cos(theta0) - 0.5 * std::sin(theta0),
                                                   0.1 * std::sin(theta0) + 0.5 * std::cos(theta0));
  Eigen::VectorXd q(3), v(3);
  q << centre.x(), centre.y(), theta0;
  const double rate = 1.0;  // tipping further, about the corner (−0.1, 0): v = ω ẑ × (c − p)
  v << -rate * (centre.y() - 0.0), rate * (centre.x() + 0.1), rate;
  // μ = 0.3: the block keeps rocking against the wall; at higher μ it comes to rest leaning
  // (the next test case)
  const routh::SimulationSettings settings = settings_for(*tree, 0.3, 0.3, 2.0);
  const Run run = simulate(std::move(tree), q, v, settings);
  REQUIRE(run.outcome.status == routh::RunStatus::completed);
  const auto& names = run.tree->contact_names();
  const auto wall_corner = std::find(names.begin(), names.end(), "block.top_left/wall");
  REQUIRE(wall_corner != names.end());
  const int k = static_cast<int>(wall_corner - names.begin());
  bool struck = false;
  for (const routh::EventRecord& event : run.trajectory.events) {
    if (event.kind == EventKind::impact &&
        std::find(event.contacts.begin(), event.contacts.end(), k) != event.contacts.end()) {
      struck = true;
    }
  }
  CHECK(struck);
  double deepest = 0.0;
  for (const auto& s : run.trajectory.samples) {
    for (const Eigen::Vector2d& c : corners(s.q, 0, 0.2, 1.0)) {
      deepest = std::max({deepest, -0.45 - c.x(), -c.y()});
    }
  }

  CHECK(deepest < 1e-9);
}

TEST_CASE("shaped bodies: the block that strikes the wall comes to rest leaning on it") {
  // The block of the test case above with μ ≥ 0.5 stops leaning, bottom-left corner B on the
  // floor and top-left corner T on the wall, both sticking. Two frictional contacts on a body of
  // three degrees of freedom: four force unknowns, three equations, so statics alone leave one
  // free parameter. Before, the last impact left the pivot a slip just above the rest speed;
  // settling closed it sliding, its projection onto the wall's sticking constraints took that
  // slip away (three rows on three degrees of freedom: v = 0), and the pivot, still "sliding",
  // was offered no sticking mode: at μ = 1 the block at rest ended painleve_unresolved.
  //
  // Hand statics (Source: the free-body diagram of the block). With the floor force (F_f, N_f) at
  // B, the wall force (N_w, F_w) at T (normals +y and +x) and the weight m g at the centre C,
  //     x:  F_f + N_w = 0,     y:  N_f + F_w = m g,
  //     moments about C:  (B − C) × (F_f, N_f) + (T − C) × (N_w, F_w) = 0.
  // Given N_f and N_w, the first two give the frictions, and the third must then hold. A resting
  // distribution exists iff some F_w keeps |F_f| ≤ μ N_f and |F_w| ≤ μ N_w; with F_w = 0,
  // N_w = −m g (C − B)_x / (T − B)_y (moments about B), N_f = m g, which is inside both cones iff
  // N_w ≤ μ m g (0.09 m g here, so for every μ tested).
  constexpr double w = 0.2, h = 1.0, m = 1.0, g = routh::kDefaultGravity;
  for (const double mu : {0.5, 1.0, 2.0}) {
    CAPTURE(mu);
    PlanarTreeBuilder builder;
    add_free_block(builder, "block", w, h, m);
    builder.add_obstacle("floor", routh::floor_at(0.0));
    builder.add_obstacle("wall", routh::wall_at(-0.45, true));
    auto tree = builder.build();
    const double theta0 = 0.25;
    const Eigen::Vector2d centre = Eigen::Vector2d(-0.1, 0.0) +
                                   Eigen::Vector2d(0.1 * std::cos(theta0) - 0.5 * std::sin(theta0),
                                                   0.1 * std::sin(theta0) + 0.5 * std::cos(theta0));
    Eigen::VectorXd q0(3), v0(3);
    q0 << centre.x(), centre.y(), theta0;
    v0 << -centre.y(), centre.x() + 0.1, 1.0;
    const routh::SimulationSettings settings = settings_for(*tree, 0.3, mu, 2.0);
    const Run run = simulate(std::move(tree), q0, v0, settings);
    REQUIRE(run.outcome.status == routh::RunStatus::completed);
    CHECK(run.trajectory.times_of(EventKind::painleve).empty());

    // At rest, leaning: B on the floor, T on the wall.
    const auto& last = run.trajectory.samples.back();
    CHECK(last.t == doctest::Approx(2.0));
    CHECK(last.v.norm() < 1e-9);
    const std::vector<Eigen::Vector2d> c = corners(last.q, 0, w, h);
    const Eigen::Vector2d C(last.q[0], last.q[1]), B = c[0], T = c[3];
    CHECK(std::abs(B.y()) < 1e-9);
    CHECK(std::abs(T.x() + 0.45) < 1e-9);
    CHECK(c[1].y() > 0.01);
    CHECK(c[2].x() > -0.45 + 0.01);

    // The forces the simulator holds it with, both contacts sticking.
    const auto& names = run.tree->contact_names();
    const auto index_of = [&names](const std::string& name) {
      const auto it = std::find(names.begin(), names.end(), name);
      REQUIRE(it != names.end());
      return static_cast<std::size_t>(it - names.begin());
    };
    const std::size_t floor_k = index_of("block.bottom_left/floor");
    const std::size_t wall_k = index_of("block.top_left/wall");
    std::vector<routh::ContactMode> modes(names.size(), routh::ContactMode::open);
    modes[floor_k] = modes[wall_k] = routh::ContactMode::stick;
    routh::StateQuantities state;
    const Eigen::VectorXd at_rest = Eigen::VectorXd::Zero(3);
    run.tree->evaluate(0.0, last.q, at_rest, routh::constrained_acceleration_needs(modes),
                       *run.tree->make_workspace(), state);
    routh::ContactForceWorkspace workspace;
    routh::ConstrainedAcceleration out;
    routh::constrained_acceleration(state, modes, settings.contacts, workspace, out);
    REQUIRE(out.consistent);
    CHECK(out.acceleration.norm() < 1e-9);
    CHECK(out.stick_reserve > 0.0);
    const double N_f = out.forces[floor_k].normal, N_w = out.forces[wall_k].normal;
    CHECK(N_f > 0.0);
    CHECK(N_w > 0.0);
    // the frictions from the force balance, then the moment balance and the cones
    const double F_f = -N_w, F_w = m * g - N_f;
    const auto cross = [](const Eigen::Vector2d& r, const Eigen::Vector2d& f) {
      return r.x() * f.y() - r.y() * f.x();
    };
    const double moment = cross(B - C, {F_f, N_f}) + cross(T - C, {N_w, F_w});
    CHECK(std::abs(moment) < 1e-9 * m * g * h);
    CHECK(std::abs(std::abs(out.forces[floor_k].tangential) - std::abs(F_f)) < 1e-9 * m * g);
    CHECK(std::abs(std::abs(out.forces[wall_k].tangential) - std::abs(F_w)) < 1e-9 * m * g);
    // inside the closed cones, to round-off: the distribution may put the wall corner on its
    // cone's edge, since the minimum-norm forces leave it unloaded (static_friction.hpp (c)) and
    // its margin then carries no weight in the stage's program
    CHECK(std::abs(F_f) <= mu * N_f + 1e-9 * m * g);
    CHECK(std::abs(F_w) <= mu * N_w + 1e-9 * m * g);
    // the frictionless-wall distribution of the comment above lies in both cones
    const double wall_only = -m * g * (C - B).x() / (T - B).y();
    CHECK(wall_only > 0.0);
    CHECK(wall_only <= mu * m * g);
  }
}
