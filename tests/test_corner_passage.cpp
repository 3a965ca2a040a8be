// Corners passing each other: a box sliding flat over the end of a table block onto the table's
// corner, and stacks whose blocks' corners slide past, under or onto each other's. What each run
// must show is computed here from the recorded coordinates and the blocks' geometry, with closed
// forms written in this file, never from routh's contact kinematics.

#include <doctest/doctest.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "support/scenario_run.hpp"
#include "support/scratch_files.hpp"
#include "support/trajectory_checks.hpp"

namespace {

using routh::EventKind;
using routh::RunStatus;
using routh::test::ScenarioRun;
using routh::test::TrajectoryMemory;

// A rectangular block of half-width b and half-height h whose centre's (x, y, θ) are q[first],
// q[first + 1], q[first + 2] (the generic model's and the stacked_blocks preset's coordinates).
struct Block {
  int first;
  double b, h;  // [m]
  Eigen::Vector2d centre(const Eigen::VectorXd& q) const { return {q[first], q[first + 1]}; }
  Eigen::Rotation2Dd turn(const Eigen::VectorXd& q) const {
    return Eigen::Rotation2Dd(q[first + 2]);
  }
  // corner i of four, counter-clockwise from the bottom left, in world axes
  Eigen::Vector2d corner(const Eigen::VectorXd& q, int i) const {
    const double sx = i == 0 || i == 3 ? -1.0 : 1.0, sy = i < 2 ? -1.0 : 1.0;
    return centre(q) + turn(q) * Eigen::Vector2d(sx * b, sy * h);
  }
  // how deep a world point lies inside the block [m] (≤ 0 outside): the smaller of its depths
  // behind the two pairs of faces
  double depth(const Eigen::VectorXd& q, const Eigen::Vector2d& point) const {
    const Eigen::Vector2d local = turn(q).inverse() * (point - centre(q));
    return std::min(b - std::abs(local.x()), h - std::abs(local.y()));
  }
};

// The deepest overlap over the samples [m]: any block's corner inside another block, or below
// the floor y = 0. Two rectangles that overlap have a corner of one inside the other unless they
// cross like a plus sign, which blocks resting on each other cannot reach without a corner first
// passing inside.
double deepest_overlap(const TrajectoryMemory& trajectory, const std::vector<Block>& blocks,
                       std::string& where) {
  double deepest = 0.0;
  for (const auto& sample : trajectory.samples) {
    for (std::size_t a = 0; a < blocks.size(); ++a) {
      for (int i = 0; i < 4; ++i) {
        const Eigen::Vector2d corner = blocks[a].corner(sample.q, i);
        const auto note = [&](double depth, const std::string& what) {
          if (depth <= deepest) return;
          deepest = depth;
          std::ostringstream out;
          out << "corner " << i << " of block " << a << " " << what << " at t = " << sample.t;
          where = out.str();
        };
        note(-corner.y(), "below the floor");
        for (std::size_t b = 0; b < blocks.size(); ++b) {
          if (b != a) note(blocks[b].depth(sample.q, corner), "inside block " + std::to_string(b));
        }
      }
    }
  }
  return deepest;
}

// [m] how deep a recorded corner may lie in another block or the floor: the contact distance
// (1e-9 m, events.contact_distance's default) by which touching contacts may overlap, with a
// margin of 10 for the drift the constraint projection leaves between its passes.
constexpr double kOverlapTolerance = 1e-8;

ScenarioRun run_yaml(const std::string& yaml, const std::string& name) {
  return routh::test::run_scenario_file(routh::test::write_problem(yaml, name));
}

// A run that must complete with no block inside another or the floor and no event that raises
// the kinetic energy without the law's energy_gain flag.
void check_clean_run(const ScenarioRun& run, const std::vector<Block>& blocks) {
  INFO(run.outcome.detail);
  CHECK(run.outcome.status == RunStatus::completed);
  CHECK(run.outcome.final_state.t == doctest::Approx(run.scenario.settings.duration));
  std::string where;
  const double overlap = deepest_overlap(run.trajectory, blocks, where);
  INFO(where);
  CHECK(overlap < kOverlapTolerance);
  CHECK(routh::test::first_non_finite_sample(run.trajectory) == "");
  CHECK(routh::test::first_energy_raising_event(run.trajectory) == "");
}

}  // namespace

TEST_CASE(
    "shipped box_off_table: the box slides flat at mu g deceleration over the table's corner, "
    "tips when its rear corner's load vanishes and falls off to the floor") {
  const ScenarioRun run = routh::test::run_shipped_scenario("box_off_table.yaml");
  const Block table{0, 0.5, 0.2}, box{3, 0.3, 0.1};
  check_clean_run(run, {table, box});

  // Coulomb sliding on a flat support: ẍ = −μ g, so x(t) = v0 t − ½ μ g t² with x(0) = 0.
  constexpr double kGravity = 9.81, kMu = 0.15, kSpeed = 1.5;  // the scenario's
  const auto slid = [&](double t) { return kSpeed * t - 0.5 * kMu * kGravity * t * t; };
  const auto time_at = [&](double x) {  // the first root of slid(t) = x
    const double a = kMu * kGravity;
    return (kSpeed - std::sqrt(kSpeed * kSpeed - 2.0 * a * x)) / a;
  };
  // The box rests on its rear corner and on the table's corner under its bottom face; both slide,
  // so the friction μ N_i acts at the bottom face, h below the centre. Moments about the centre,
  //   N_rear (x_rear − x) + N_front (x_front − x) − μ h (N_rear + N_front) = 0,
  // give N_rear = 0 when the centre is at x_front − μ h = 0.5 − 0.15 · 0.1 = 0.485 m: the rear
  // corner lifts and the box tips over the table's corner before its centre passes it.
  const double lift_x = table.b - kMu * box.h;
  const double lift_t = time_at(lift_x);
  const double corners_meet_t = time_at(table.b - box.b);  // the box's front over the table's

  // Sliding flat to 1e-9 m: the integrator's tolerances (3e-11 relative and absolute) over some
  // ten thousand steps, and the drift projection's 1e-12 m.
  int checked = 0;
  for (const auto& sample : run.trajectory.samples) {
    if (sample.t > lift_t) break;
    ++checked;
    INFO("t = " << sample.t);
    CHECK(std::abs(sample.q[3] - slid(sample.t)) < 1e-9);
    CHECK(std::abs(sample.q[4] - 0.5) < 1e-9);
    CHECK(std::abs(sample.q[5]) < 1e-9);
  }
  CHECK(checked > 80);  // 200 Hz over 0.40 s
  // No impact while it slides flat, through its corner passing the table's (the issue's defect:
  // a spurious impact there at u_n = −2 u_t took most of the box's energy and left it stuck).
  CHECK(corners_meet_t < lift_t);
  for (const auto& event : run.trajectory.events) {
    INFO("event " << to_string(event.kind) << " at t = " << event.t << " s: " << event.status);
    if (event.t < lift_t) CHECK(event.kind != EventKind::impact);
  }
  // the rear corner's lift-off, where the closed form puts it: the lift-off is located to 1e-12 s
  // on the dense output, whose states are right to the integrator's 1e-10 (an error of 1e-10 m
  // in x moves the crossing by 1e-10 m / 0.9 m/s)
  const std::vector<double> liftoffs = run.trajectory.times_of(EventKind::liftoff);
  REQUIRE_FALSE(liftoffs.empty());
  CHECK(std::abs(liftoffs.front() - lift_t) < 1e-8);

  // It leaves the table: at the end every corner of the box is right of the table's right side,
  // the box lies on the floor (its lowest corner at y = 0) and is at rest.
  const Eigen::VectorXd& q = run.outcome.final_state.q;
  const Eigen::VectorXd& v = run.outcome.final_state.v;
  double lowest = 1.0;
  for (int i = 0; i < 4; ++i) {
    CHECK(box.corner(q, i).x() > table.b - kOverlapTolerance);
    lowest = std::min(lowest, box.corner(q, i).y());
  }
  CHECK(std::abs(lowest) < kOverlapTolerance);
  CHECK(v.segment(3, 3).norm() < 1e-6);
}

TEST_CASE("corner passage: a box sliding fast off a table's end completes (D1b)") {
  // 2.2 m/s: the run ended in step_size_failure where the box's corner passed the table's
  const ScenarioRun run = run_yaml(R"(duration: 0.6
model: {type: stacked_blocks, blocks: 2, width: [1.0, 0.6], height: [0.4, 0.2], mass: [40.0, 3.0]}
initial:
  v: {block2.x: 2.2}
contact:
  law: poisson
  restitution: 0.0
  friction: 0.15
  contacts:
    block1.bottom_left/floor: {friction: 0.9}
    block1.bottom_right/floor: {friction: 0.9}
output: {rate: 400}
)",
                                   "d1b.yaml");
  check_clean_run(run, {{0, 0.5, 0.2}, {3, 0.3, 0.1}});
}

TEST_CASE("corner passage: a box driven off a table's end by shaking completes (D1c)") {
  // the run ended in step_size_failure when the box's corner reached the end of the table's top
  const ScenarioRun run = run_yaml(R"(duration: 0.6
model: {type: stacked_blocks, blocks: 2, width: [1.0, 0.6], height: [0.4, 0.2], mass: [40.0, 3.0]}
initial: {}
contact:
  law: poisson
  multi_contact_law: multipoint_energetic
  restitution: 0.0
  friction: {static: 0.2, kinetic: 0.15}
  contacts:
    block1.bottom_left/floor: {friction: {static: 0.9, kinetic: 0.9}}
    block1.bottom_right/floor: {friction: {static: 0.9, kinetic: 0.9}}
excitation:
  - harmonic: {amplitude: 4.905, frequency: 1.2, cycles: 3}
output: {rate: 200}
)",
                                   "d1c.yaml");
  check_clean_run(run, {{0, 0.5, 0.2}, {3, 0.3, 0.1}});
}

TEST_CASE("corner passage: a box sliding off a free table completes without impact (D1d)") {
  // generic bodies, the table free to slide too: a spurious impact at the table's corner stopped
  // the box there
  const ScenarioRun run = run_yaml(R"(duration: 1.5
model:
  bodies:
    - {name: table, mass: 40, shape: {rectangle: {width: 1.0, height: 0.4}}}
    - {name: box, mass: 3, shape: {rectangle: {width: 0.6, height: 0.2}}}
  obstacles:
    - {type: floor, position: 0}
  collisions: {between_bodies: true}
initial:
  q: {table.x: 0, table.y: 0.2, box.x: 0, box.y: 0.5}
  v: {box.x: 1.5}
contact:
  law: poisson
  restitution: 0.0
  friction: 0.15
output: {rate: 200}
)",
                                   "d1d.yaml");
  check_clean_run(run, {{0, 0.5, 0.2}, {3, 0.3, 0.1}});
  // the box's front passes the table's corner at x = 0.2 m, with the table sliding a little the
  // other way: no impact before the box's centre is past 0.4 m
  for (const auto& event : run.trajectory.events) {
    if (event.kind != EventKind::impact) continue;
    const auto sample = std::find_if(run.trajectory.samples.begin(), run.trajectory.samples.end(),
                                     [&](const auto& s) { return s.t == event.t; });
    REQUIRE(sample != run.trajectory.samples.end());
    INFO("impact at t = " << event.t);
    CHECK(sample->q[3] - sample->q[0] > 0.4);
  }
}

TEST_CASE("corner passage: a tilted top block in a three-block stack never sinks (D5)") {
  const ScenarioRun run = run_yaml(R"(duration: 0.4
model:
  type: stacked_blocks
  blocks: 3
  width: [1.1183, 0.9552, 0.6631]
  height: [0.2608, 0.6858, 0.5343]
  mass: [234.116, 500.882, 185.551]
initial:
  q: {block3.theta: 0.4129303688987736}
contact:
  law: poisson
  multi_contact_law: multipoint_energetic
  restitution: 0.16797072292630455
  friction: {static: 0.7434329866606926, kinetic: 0.7434329866606926}
output: {rate: 200}
)",
                                   "d5.yaml");
  check_clean_run(run, {{0, 0.5 * 1.1183, 0.5 * 0.2608},
                        {3, 0.5 * 0.9552, 0.5 * 0.6858},
                        {6, 0.5 * 0.6631, 0.5 * 0.5343}});
}

TEST_CASE("corner passage: a shaken three-block stack toppling as a whole completes (D6)") {
  const ScenarioRun run = run_yaml(R"(duration: 3.2
model:
  type: stacked_blocks
  blocks: 3
  width: [0.445, 0.4611, 0.2738]
  height: [0.3788, 0.7322, 0.4359]
  mass: [98.274, 270.311, 63.795]
initial: {}
contact:
  law: poisson
  multi_contact_law: multipoint_energetic
  restitution: 0.0
  friction: {static: 0.5367284886226662, kinetic: 0.5367284886226662}
excitation:
  - harmonic: {amplitude: 0.4530 g, frequency: 1.3120, cycles: 3}
output: {rate: 200}
)",
                                   "d6.yaml");
  check_clean_run(run, {{0, 0.5 * 0.445, 0.5 * 0.3788},
                        {3, 0.5 * 0.4611, 0.5 * 0.7322},
                        {6, 0.5 * 0.2738, 0.5 * 0.4359}});
}

TEST_CASE(
    "corner passage: a segment's end falling into the joint of a V of two links lands on both "
    "links' inner faces at once") {
  // Closed form, without gravity: two links of length L = 0.5 m meet at their revolute joint J =
  // (0, 0.5) m at a right angle, a V opening upwards (link1 from its ground pivot down to J along
  // (s, −s), link2 from J up along (s, s), s = 1/√2), at rest. A free vertical segment, listed
  // before the links, falls at V = 2 m/s with its lower end P straight above J, 0.1 m up. P meets
  // J at t = 0.1 / V = 0.05 s, and there the geometry implies P against both inner faces: link1's
  // (outward normal n₁ = (s, s)) and link2's (n₂ = (−s, s)), approaching each at u_n = n·(0, −V)
  // = −V s and sliding at u_t = t·(0, −V), t = n turned clockwise: +V s on link1, −V s on link2.
  // The corner of a link at its joint is no free corner (the other link goes on from it), so
  // neither face may end short of J for P: they were shrunk there by a hair for a vertex of a
  // body listed first, and P fell through the joint between them.
  constexpr double kL = 0.5, kV = 2.0, kDrop = 0.1, kJointY = 0.5;
  const double s = std::sqrt(0.5), pi = std::acos(-1.0);
  std::ostringstream yaml;
  yaml.precision(17);
  yaml << "duration: 0.06\nmodel:\n  gravity: 0\n  bodies:\n"
       << "    - {name: probe, mass: 1, shape: {polygon: {vertices: [[0, -0.25], [0, 0.25]]}}}\n"
       << "    - {name: link1, mass: 1, shape: {polygon: {vertices: [[0, 0], [0, " << -kL
       << "]]}}}\n"
       << "    - {name: link2, mass: 1, shape: {polygon: {vertices: [[0, 0], [0, " << -kL
       << "]]}}}\n"
       << "  joints:\n"
       << "    - {type: revolute, parent: ground, child: link1, parent_point: [" << -kL * s << ", "
       << kJointY + kL * s << "], child_point: [0, 0], angle: absolute}\n"
       << "    - {type: revolute, parent: link1, child: link2, parent_point: [0, " << -kL
       << "], child_point: [0, 0], angle: absolute}\n"
       << "  obstacles:\n    - {type: floor, position: 0}\n"
       << "initial:\n  q: {probe.x: 0, probe.y: " << kJointY + kDrop + 0.25
       << ", link1.theta: " << 0.25 * pi << ", link2.theta: " << 0.75 * pi << "}\n"
       << "  v: {probe.y: " << -kV << "}\n"
       << "contact: {law: poisson, multi_contact_law: lcp, restitution: 0, friction: 0}\n";
  const ScenarioRun run = run_yaml(yaml.str(), "v_joint.yaml");
  INFO(run.outcome.detail);
  CHECK(run.outcome.status == RunStatus::completed);
  const std::vector<std::string>& names = run.scenario.model->contact_names();
  const auto first =
      std::find_if(run.trajectory.events.begin(), run.trajectory.events.end(),
                   [](const auto& event) { return event.kind == EventKind::impact; });
  REQUIRE(first != run.trajectory.events.end());
  // the locator's tolerance is 1e-12 s, and the gap falls linearly (no gravity, no turning)
  CHECK(first->t == doctest::Approx(kDrop / kV).epsilon(1e-9));
  REQUIRE(first->contacts.size() == 2);
  CHECK(names[static_cast<std::size_t>(first->contacts[0])] == "probe.v0/link1.e1");
  CHECK(names[static_cast<std::size_t>(first->contacts[1])] == "probe.v0/link2.e1");
  REQUIRE(first->u_pre.size() == 4);
  CHECK(first->u_pre[0] == doctest::Approx(-kV * s).epsilon(1e-9));
  CHECK(first->u_pre[1] == doctest::Approx(kV * s).epsilon(1e-9));
  CHECK(first->u_pre[2] == doctest::Approx(-kV * s).epsilon(1e-9));
  CHECK(first->u_pre[3] == doctest::Approx(-kV * s).epsilon(1e-9));
}
