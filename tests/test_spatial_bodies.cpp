// Free rigid bodies in 3D (models/spatial/spatial_bodies.hpp): quaternion kinematics, Euler's
// equations, the description's checks, the broad phase and the overlap, and free flight through
// the simulator against the closed form of the torque-free asymmetric top (Landau & Lifshitz,
// "Mechanics", §37): the rotation about the intermediate axis is unstable, and ω returns with
// the period T = 4 K(k) / s of the Jacobi elliptic functions that solve Euler's equations.

#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/spatial/spatial_bodies.hpp"
#include "sim/simulation/simulator.hpp"
#include "support/torque_free_top.hpp"
#include "support/trajectory_memory.hpp"
#include "tests/support/allocation_counter.hpp"

namespace {

using Eigen::Vector3d;
using Eigen::VectorXd;
using routh::SpatialBodies;
using routh::SpatialBodiesDescription;

routh::SpatialBody brick(const std::string& name, const Vector3d& size) {
  const routh::BoxShape box{size};
  return {name, 2.0, routh::uniform_inertia(box, 2.0), box};
}

routh::SpatialBody ball(const std::string& name, double radius) {
  const routh::SphereShape sphere{radius, Vector3d::Zero()};
  return {name, 1.0, routh::uniform_inertia(sphere, 1.0), sphere};
}

VectorXd at_rest_pose(const SpatialBodies& model) {
  VectorXd q = VectorXd::Zero(model.coordinate_count());
  for (int b = 0; b < model.body_count(); ++b) q[routh::spatial_coordinate_start(b) + 3] = 1.0;
  return q;
}

}  // namespace

TEST_CASE("spatial bodies: names, units, sizes and the coordinate index") {
  SpatialBodiesDescription d;
  d.bodies.push_back(ball("a", 0.1));
  d.bodies.push_back(brick("b", Vector3d(1.0, 2.0, 3.0)));
  const SpatialBodies model(d);
  CHECK(model.coordinate_count() == 14);
  CHECK(model.velocity_count() == 12);
  CHECK(model.coordinate_names()[7] == "b.x");
  CHECK(model.coordinate_names()[10] == "b.qw");
  CHECK(model.coordinate_units()[2] == "m");
  CHECK(model.coordinate_units()[13] == "1");
  CHECK(model.velocity_names()[9] == "b.wx");
  CHECK(model.velocity_units()[8] == "m/s");
  CHECK(model.velocity_units()[11] == "rad/s");
  CHECK(model.coordinate_index("b.qz") == 13);
  CHECK(model.coordinate_index("c.x") == -1);
  CHECK(model.contact_count() == 0);  // no planes, one sphere
  CHECK(model.contact_dimension() == routh::ContactDimension::spatial);
}

TEST_CASE("spatial bodies: uniform inertia of a sphere, a box and a cylinder") {
  CHECK(routh::uniform_inertia(routh::SphereShape{0.5, Vector3d::Zero()}, 4.0)
            .isApprox(Vector3d::Constant(0.4)));
  CHECK(routh::uniform_inertia(routh::BoxShape{Vector3d(1.0, 2.0, 3.0)}, 12.0)
            .isApprox(Vector3d(13.0, 10.0, 5.0)));
  CHECK(routh::uniform_inertia(routh::CylinderShape{1.0, 2.0}, 12.0)
            .isApprox(Vector3d(7.0, 7.0, 6.0)));
}

TEST_CASE("spatial bodies: q̇ keeps |q| and integrate() turns by the exact rotation") {
  SpatialBodiesDescription d;
  d.bodies.push_back(brick("b", Vector3d(1.0, 2.0, 3.0)));
  const SpatialBodies model(d);
  std::mt19937 random(3);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 20; ++trial) {
    VectorXd q(7), v(6), q_dot(7);
    for (int i = 0; i < 7; ++i) q[i] = normal(random);
    for (int i = 0; i < 6; ++i) v[i] = normal(random);
    model.position_rate(q, v, q_dot);
    CHECK(q_dot.head<3>() == v.head<3>());
    CHECK(std::abs(q.segment<4>(3).dot(q_dot.segment<4>(3))) < 1e-14);
    // q̇ = ½ q ⊗ (0, ω): the body frame's rotation rate Ṙ = R [ω]×, read at unit q
    q.segment<4>(3).normalize();
    model.position_rate(q, v, q_dot);
    const Eigen::Quaterniond r(q[3], q[4], q[5], q[6]);
    const Eigen::Quaterniond r_dot(q_dot[3], q_dot[4], q_dot[5], q_dot[6]);
    const Eigen::Quaterniond omega = r.conjugate() * r_dot;  // (0, ω/2)
    CHECK(std::abs(omega.w()) < 1e-14);
    CHECK((2.0 * omega.vec() - v.tail<3>()).norm() < 1e-14);
    // q ⊕ δv: translated by δx, turned about the body axis δω/|δω| by |δω|
    VectorXd delta(6), turned;
    for (int i = 0; i < 6; ++i) delta[i] = 2.0 * normal(random);
    model.integrate(q, delta, turned);
    CHECK((turned.head<3>() - q.head<3>() - delta.head<3>()).norm() < 1e-14);
    const Eigen::Matrix3d expected =
        r.toRotationMatrix() *
        Eigen::AngleAxisd(delta.tail<3>().norm(), delta.tail<3>().normalized()).toRotationMatrix();
    CHECK((model.orientation(turned, 0).toRotationMatrix() - expected).norm() < 1e-14);
    CHECK(std::abs(turned.segment<4>(3).norm() - 1.0) < 1e-15);
    VectorXd in_place = q;
    model.integrate(in_place, delta, in_place);
    CHECK(in_place == turned);
  }
  VectorXd q(7);
  q << 1.0, 2.0, 3.0, 2.0, 0.0, 0.0, 0.0;
  model.normalize(q);
  CHECK(q == (VectorXd(7) << 1.0, 2.0, 3.0, 1.0, 0.0, 0.0, 0.0).finished());
}

TEST_CASE("spatial bodies: M, gravity, the ground's load, the gyroscopic force and V") {
  SpatialBodiesDescription d;
  d.bodies.push_back({"b", 2.0, Vector3d(1.0, 2.0, 2.5), routh::BoxShape{Vector3d::Ones()}});
  d.gravity_m_s2 = Vector3d(0.5, 0.0, -9.81);
  d.ground_acceleration = [](double t) { return Vector3d(t, 0.0, 0.0); };
  const SpatialBodies model(d);
  VectorXd q(7), v(6);
  q << 1.0, 2.0, 3.0, 0.5, 0.5, -0.5, 0.5;
  v << 0.1, 0.2, 0.3, 1.0, -2.0, 3.0;
  Eigen::MatrixXd M;
  model.mass_matrix(q, M);
  CHECK(
      M ==
      Eigen::VectorXd((VectorXd(6) << 2, 2, 2, 1, 2, 2.5).finished()).asDiagonal().toDenseMatrix());
  VectorXd f;
  model.generalized_force(2.0, q, v, f);
  CHECK(f.head<3>().isApprox(2.0 * Vector3d(0.5 - 2.0, 0.0, -9.81)));
  // Euler: I₁ω̇₁ = (I₂ − I₃) ω₂ ω₃ …
  CHECK(f[3] == doctest::Approx((2.0 - 2.5) * -2.0 * 3.0));
  CHECK(f[4] == doctest::Approx((2.5 - 1.0) * 3.0 * 1.0));
  CHECK(f[5] == doctest::Approx((1.0 - 2.0) * 1.0 * -2.0));
  CHECK(model.potential_energy(q) == doctest::Approx(-2.0 * (0.5 * 1.0 - 9.81 * 3.0)));
}

TEST_CASE("spatial bodies: evaluate() allocates nothing once sized") {
  SpatialBodiesDescription d;
  d.bodies.push_back(ball("a", 0.1));
  d.bodies.push_back(ball("b", 0.1));
  d.bodies.push_back({"coin", 1.0, Vector3d(1.0, 1.0, 1.5), routh::CylinderShape{0.2, 0.05}});
  d.planes.push_back({"floor", Vector3d::Zero(), Vector3d::UnitZ()});
  const SpatialBodies model(d);
  VectorXd q = at_rest_pose(model), v = VectorXd::Constant(model.velocity_count(), 0.3);
  q[2] = 0.1;
  q[7] = 0.15;
  q[9] = 0.1;
  q[16] = 0.2;
  const auto workspace = model.make_workspace();
  routh::StateQuantities out;
  std::vector<int> nearby;
  model.nearby_contacts(q, *workspace, nearby);
  const routh::QuantityRequest request{.mass_matrix = true,
                                       .generalized_force = true,
                                       .contacts = true,
                                       .potential_energy = true,
                                       .contact_subset = &nearby};
  model.evaluate(0.0, q, v, request, *workspace, out);
  const long before = routh::test::allocation_count();
  model.nearby_contacts(q, *workspace, nearby);
  model.evaluate(0.0, q, v, request, *workspace, out);
  (void)model.broad_phase_step_bound_s(q, v, *workspace);
  (void)model.deepest_overlap_m(q, *workspace);
  CHECK(routh::test::allocation_count() == before);
  CHECK(out.contacts.touched_start.size() == nearby.size() + 1);
  CHECK(std::isinf(out.contacts.support[0]));
}

TEST_CASE("spatial bodies: 50 balls list only their near neighbours and the floor under them") {
  constexpr int kBalls = 50;
  constexpr double kRadius = 0.1;
  SpatialBodiesDescription d;
  for (int i = 0; i < kBalls; ++i) d.bodies.push_back(ball("ball" + std::to_string(i), kRadius));
  d.planes.push_back({"floor", Vector3d::Zero(), Vector3d::UnitZ()});
  const SpatialBodies model(d);
  REQUIRE(model.contact_count() == kBalls + kBalls * (kBalls - 1) / 2);
  // a 10 × 5 grid, 0.21 m apart, on the floor; the last row 0.4 m up, out of the floor's margin
  VectorXd q = at_rest_pose(model);
  std::mt19937 random(11);
  std::uniform_real_distribution<double> jitter(-0.004, 0.004);
  for (int i = 0; i < kBalls; ++i) {
    const int s = routh::spatial_coordinate_start(i);
    q.segment<3>(s) = Vector3d(0.21 * (i % 10) + jitter(random), 0.21 * (i / 10) + jitter(random),
                               i >= 40 ? 0.5 : kRadius);
  }
  const auto workspace = model.make_workspace();
  std::vector<int> nearby;
  model.nearby_contacts(q, *workspace, nearby);
  CHECK(std::is_sorted(nearby.begin(), nearby.end()));
  // by brute force: a ball near the floor or a pair near each other within half a bounding radius
  std::vector<int> expected;
  for (int i = 0; i < kBalls; ++i) {
    if (q[routh::spatial_coordinate_start(i) + 2] - kRadius < 0.5 * kRadius) expected.push_back(i);
  }
  int pair = kBalls;
  for (int i = 0; i < kBalls; ++i) {
    for (int j = i + 1; j < kBalls; ++j, ++pair) {
      const double apart = (q.segment<3>(routh::spatial_coordinate_start(i)) -
                            q.segment<3>(routh::spatial_coordinate_start(j)))
                               .norm() -
                           2.0 * kRadius;
      if (apart < 0.5 * kRadius) expected.push_back(pair);
    }
  }
  CHECK(nearby == expected);
  CHECK(expected.size() < 150);  // neighbours, not every pair
  const long before = routh::test::allocation_count();
  model.nearby_contacts(q, *workspace, nearby);
  CHECK(routh::test::allocation_count() == before);
  // the step bound: the fastest ball moves a sixth of its bounding radius (its turning moves no
  // point of its outline)
  VectorXd v = VectorXd::Zero(model.velocity_count());
  v.segment<3>(6 * 7) = Vector3d(3.0, 0.0, 4.0);
  v.segment<3>(6 * 8 + 3) = Vector3d(100.0, 0.0, 0.0);
  CHECK(model.broad_phase_step_bound_s(q, v, *workspace) == doctest::Approx(kRadius / 6.0 / 5.0));
}

TEST_CASE("spatial bodies: the deepest overlap of a box in the floor and of two balls") {
  SpatialBodiesDescription d;
  d.bodies.push_back(brick("box", Vector3d(0.2, 0.4, 0.6)));
  d.bodies.push_back(ball("a", 0.1));
  d.bodies.push_back(ball("b", 0.1));
  d.planes.push_back({"floor", Vector3d::Zero(), Vector3d::UnitZ()});
  const SpatialBodies model(d);
  VectorXd q = at_rest_pose(model);
  // the box turned 90° about x has its body y (0.4 m) upright: its centre at 0.19 m sinks it 1 cm
  const Eigen::Quaterniond turn(Eigen::AngleAxisd(std::numbers::pi / 2.0, Vector3d::UnitX()));
  q.segment<7>(0) << 0.0, 0.0, 0.19, turn.w(), turn.x(), turn.y(), turn.z();
  q.segment<3>(7) = Vector3d(5.0, 0.0, 1.0);
  q.segment<3>(14) = Vector3d(5.0, 0.195, 1.0);  // 5 mm into a
  const auto workspace = model.make_workspace();
  std::string where;
  CHECK(model.deepest_overlap_m(q, *workspace, &where) == doctest::Approx(0.01));
  CHECK(where == "box/floor");
  q[2] = 0.5;
  CHECK(model.deepest_overlap_m(q, *workspace, &where) == doctest::Approx(0.005));
  CHECK(where == "a/b");
  SpatialBodiesDescription apart;
  apart.bodies.push_back(ball("a", 0.1));
  const SpatialBodies lonely(apart);
  CHECK(lonely.deepest_overlap_m(at_rest_pose(lonely), *lonely.make_workspace()) ==
        -std::numeric_limits<double>::infinity());
}

TEST_CASE("spatial bodies: bad descriptions are refused, naming the entry") {
  const auto refused = [](const SpatialBodiesDescription& d, const std::string& part) {
    try {
      const SpatialBodies model(d);
    } catch (const std::invalid_argument& error) {
      CAPTURE(error.what());
      return std::string(error.what()).find(part) != std::string::npos;
    }
    return false;
  };
  const auto one = [](const routh::SpatialBody& body) {
    SpatialBodiesDescription d;
    d.bodies.push_back(body);
    return d;
  };
  routh::SpatialBody good = brick("b", Vector3d::Ones());
  routh::SpatialBody bad = good;
  bad.mass_kg = 0.0;
  CHECK(refused(one(bad), "body b: mass"));
  bad = good;
  bad.inertia_kg_m2 = Vector3d(1.0, 1.0, -1.0);
  CHECK(refused(one(bad), "body b: principal inertia"));
  bad.inertia_kg_m2 = Vector3d(1.0, 1.0, 2.5);
  CHECK(refused(one(bad), "exceeds the sum"));
  bad = good;
  bad.shape = routh::BoxShape{Vector3d(1.0, 0.0, 1.0)};
  CHECK(refused(one(bad), "body b: box size"));
  bad.shape = routh::SphereShape{-1.0, Vector3d::Zero()};
  CHECK(refused(one(bad), "body b: sphere radius"));
  bad.shape = routh::CylinderShape{1.0, std::nan("")};
  CHECK(refused(one(bad), "body b: cylinder"));
  bad = good;
  bad.name = "";
  CHECK(refused(one(bad), "body: empty name"));
  SpatialBodiesDescription twice = one(good);
  twice.bodies.push_back(good);
  CHECK(refused(twice, "body b: name used twice"));
  SpatialBodiesDescription plane = one(good);
  plane.planes.push_back({"floor", Vector3d::Zero(), Vector3d(0.0, 0.0, 2.0)});
  CHECK(refused(plane, "plane floor: normal"));
  plane.planes.back() = {"b", Vector3d::Zero(), Vector3d::UnitZ()};
  CHECK(refused(plane, "plane b: name used twice"));
  CHECK_NOTHROW(SpatialBodies(one(good)));
}

TEST_CASE("spatial bodies: the model description names shapes, planes and contacts") {
  SpatialBodiesDescription d;
  d.bodies.push_back(ball("a", 0.1));
  d.bodies.push_back(brick("b", Vector3d(1.0, 2.0, 3.0)));
  d.bodies.push_back({"c", 1.0, Vector3d(1.0, 1.0, 1.5), routh::CylinderShape{0.2, 0.05}});
  d.planes.push_back({"floor", Vector3d::Zero(), Vector3d::UnitZ()});
  const SpatialBodies model(d);
  const std::string json = routh::spatial_model_description_json(model);
  CAPTURE(json);
  // the fields of docs/output.md that the Python readers take
  for (const std::string& part : std::vector<std::string>{
           "\"dimension\": 3",
           "\"shape\": {\"type\": \"sphere\", \"radius\": 0.1, \"centre\": [0, 0, 0]}",
           "\"shape\": {\"type\": \"box\", \"size\": [1, 2, 3]}",
           "\"shape\": {\"type\": \"cylinder\", \"radius\": 0.2, \"height\": 0.05}",
           "\"coordinates\": [\"b.x\", \"b.y\", \"b.z\", \"b.qw\", \"b.qx\", \"b.qy\", \"b.qz\"]",
           "\"columns\": [7, 8, 9, 10, 11, 12, 13]",
           "\"velocity_columns\": [12, 13, 14, 15, 16, 17]",
           "{\"name\": \"floor\", \"kind\": \"plane\", \"point\": [0, 0, 0], \"normal\": [0, 0, "
           "1]}",
           "{\"name\": \"c.bottom_rim.y-/floor\", \"body\": \"c\", \"obstacle\": \"floor\"}"}) {
    CHECK(json.find(part) != std::string::npos);
  }
}

TEST_CASE("spatial bodies: the tennis racket flips with the period of Landau and Lifshitz §37") {
  SpatialBodiesDescription d;
  const Vector3d I(1.0, 2.0, 3.0);
  d.bodies.push_back({"racket", 1.5, I, routh::BoxShape{Vector3d(0.3, 0.2, 0.1)}});
  const SpatialBodies model(d);
  routh::SimulationState initial;
  initial.q = (VectorXd(7) << 0.0, 0.0, 2.0, 1.0, 0.0, 0.0, 0.0).finished();
  const Vector3d omega0(1e-3, 2.0, 2e-3);  // about the intermediate axis, a little off
  const Vector3d v0(0.5, -0.25, 3.0);
  initial.v = (VectorXd(6) << v0, omega0).finished();
  const double E = 0.5 * omega0.dot(I.cwiseProduct(omega0));
  const double M2 = I.cwiseProduct(omega0).squaredNorm();
  const double period = routh::test::torque_free_period_s(I, E, M2);
  constexpr int kPeriods = 10;
  routh::SimulationSettings settings;
  settings.duration = kPeriods * period;
  settings.output_rate = 20.0;
  // ten periods to 1e-10: DOP853 at tolerances below the default's 3e-11 (dop853_stepper.hpp)
  settings.stepper = routh::IntegratorStepper::dop853;
  settings.relative_tolerance = settings.absolute_tolerance = 1e-13;
  routh::test::TrajectoryMemory trajectory;
  const routh::SimulationOutcome outcome = routh::simulate(model, initial, settings, trajectory);
  REQUIRE(outcome.status == routh::RunStatus::completed);
  const auto world_momentum = [&](const VectorXd& q, const VectorXd& v) {
    return Vector3d(model.orientation(q, 0) * I.cwiseProduct(v.tail<3>()));
  };
  const Vector3d L0 = world_momentum(initial.q, initial.v);
  bool flipped = false;
  for (const auto& sample : trajectory.samples) {
    CAPTURE(sample.t);
    const Vector3d omega = sample.v.tail<3>();
    CHECK(std::abs(0.5 * omega.dot(I.cwiseProduct(omega)) - E) < 1e-10 * E);
    CHECK((world_momentum(sample.q, sample.v) - L0).norm() < 1e-10 * L0.norm());
    CHECK(std::abs(sample.q.segment<4>(3).norm() - 1.0) < 1e-9);
    // the centre of mass in free fall
    const Vector3d x = Vector3d(0.0, 0.0, 2.0) + v0 * sample.t +
                       0.5 * sample.t * sample.t * Vector3d(0.0, 0.0, -9.81);
    CHECK((sample.q.head<3>() - x).norm() < 1e-9 * (1.0 + x.norm()));
    flipped = flipped || omega.y() < -1.9;
  }
  CHECK(flipped);  // ω₂ turns over within each period
  // ω returns after whole periods, and only then: half a period later it is reversed
  const VectorXd& final_v = outcome.final_state.v;
  CHECK((final_v.tail<3>() - omega0).norm() < 1e-6);
  routh::SimulationSettings half = settings;
  half.duration = (kPeriods - 0.5) * period;
  routh::test::TrajectoryMemory half_trajectory;
  const routh::SimulationOutcome at_half = routh::simulate(model, initial, half, half_trajectory);
  CHECK(at_half.final_state.v[4] == doctest::Approx(-omega0.y()).epsilon(1e-3));
}
