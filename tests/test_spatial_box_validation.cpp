// Validation of the shipped box scenarios of rigid bodies in 3D (rocking_block_3d, box_on_incline,
// tumbling_die, free_body_flip), each run as `routh run` runs it and compared with a reference
// computed without routh's spatial code:
//  - rocking_block_3d against the planar rocking_block.yaml run (a different model: the planar
//    block and its own laws) and Housner's per-impact spin ratio 1 − 1.5 sin²α (Housner 1963,
//    "The behavior of inverted pendulum structures during earthquakes");
//  - box_on_incline against Coulomb's closed form a = g (sin β − μ cos β) and, held by friction,
//    against rest;
//  - tumbling_die against the geometry of a cube at rest on a face;
//  - free_body_flip against the conservation of energy and of the world angular momentum, and the
//    period of the torque-free top (Landau & Lifshitz, "Mechanics", §37: support/torque_free_top).
// Orientations are read here from the quaternions with Eigen's own rotation, never from routh's
// kinematics.

#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "support/housner_rocking.hpp"
#include "support/scenario_run.hpp"
#include "support/torque_free_top.hpp"
#include "support/trajectory_checks.hpp"

namespace routh {
namespace {

using test::run_shipped_scenario;
using test::ScenarioRun;
using test::TrajectoryMemory;

constexpr double kGravity = 9.81;  // [m/s²], the spatial models' default gravity

// Body b's orientation in q (7 coordinates per body: x, y, z, qw, qx, qy, qz).
Eigen::Quaterniond orientation(const Eigen::VectorXd& q, int body = 0) {
  const Eigen::Index s = 7 * body;
  return Eigen::Quaterniond(q[s + 3], q[s + 4], q[s + 5], q[s + 6]).normalized();
}

// The distinct times of the impact events, in order.
std::vector<double> impact_times(const TrajectoryMemory& trajectory) {
  std::vector<double> times = trajectory.times_of(EventKind::impact);
  times.erase(std::unique(times.begin(), times.end()), times.end());
  return times;
}

// The first and the last sample recorded at time t: the states just before and just after the
// events there (simulator.cpp records both).
std::pair<const TrajectoryMemory::Sample*, const TrajectoryMemory::Sample*> samples_at(
    const TrajectoryMemory& trajectory, double t) {
  const TrajectoryMemory::Sample *first = nullptr, *last = nullptr;
  for (const auto& sample : trajectory.samples) {
    if (sample.t != t) continue;
    if (first == nullptr) first = &sample;
    last = &sample;
  }
  return {first, last};
}

// The landing times of Housner's free block released at rest at tilt θ₀ on its left corner
// (support/housner_rocking.hpp: RK4 of θ̈ = −p² s sin(α − sθ), each landing bisected to 1e-14 s,
// the spin multiplied by r = 1 − 1.5 sin²α), until the spin falls below `last_spin` [rad/s].
std::vector<double> housner_landings(double b, double h, double theta0, double last_spin) {
  const test::ShakenRockingBlock block{b, h, kGravity, [](double) { return 0.0; }, {}, 1e-4};
  std::vector<double> landings;
  test::ShakenRockingBlock::State x{theta0, 0.0};
  int s = 1;
  double t = 0.0;
  for (double spin = std::numeric_limits<double>::infinity(); spin > last_spin;) {
    const test::ShakenRockingBlock::State x1 = block.rk4(t, x, block.step, s);
    if (s * x1.theta >= 0.0) {
      t += block.step;
      x = x1;
      continue;
    }
    double lo = t, hi = t + block.step;
    while (hi - lo > 1e-14) {
      const double mid = 0.5 * (lo + hi);
      (s * block.rk4(t, x, mid - t, s).theta < 0.0 ? hi : lo) = mid;
    }
    x = {0.0, block.spin_ratio() * block.rk4(t, x, lo - t, s).rate};
    spin = std::abs(x.rate);
    landings.push_back(lo);
    s = -s;
    t = lo;
  }
  return landings;
}

}  // namespace

TEST_CASE(
    "spatial boxes: rocking_block_3d rocks in its plane with the planar rocking_block's impact "
    "times and Housner's spin ratio") {
  // The 3D box released on its edge is Housner's planar block (its depth adds nothing to the
  // inertia about the edge: I_O = (4/3) m R² either way); its landings are two-corner impacts
  // of the multi-contact law, the planar block's single-corner ones Poisson's.
  const std::vector<std::string> tight = {"integrator.relative_tolerance=1e-13",
                                          "integrator.absolute_tolerance=1e-13"};
  const ScenarioRun planar = run_shipped_scenario("rocking_block.yaml", tight);
  const ScenarioRun spatial = run_shipped_scenario("rocking_block_3d.yaml", tight);
  REQUIRE(planar.outcome.status == RunStatus::completed);
  REQUIRE(spatial.outcome.status == RunStatus::completed);
  const std::vector<double> reference = impact_times(planar.trajectory);
  const std::vector<double> times = impact_times(spatial.trajectory);
  REQUIRE(reference.size() > 100);
  CHECK(times.size() == reference.size());
  // the landings while the spin exceeds 1e-3 rad/s (before the Zeno tail, where a landing's time
  // is the integration's round-off of ever smaller flights), also against Housner's block
  // integrated here
  const std::vector<double> housner = housner_landings(0.1, 0.5, 0.5 * std::atan(0.2), 1e-3);
  REQUIRE(times.size() >= housner.size());
  double worst_time = 0.0, worst_housner = 0.0, worst_tail = 0.0;
  for (std::size_t i = 0; i < std::min(times.size(), reference.size()); ++i) {
    const double difference = std::abs(times[i] - reference[i]);
    if (i < housner.size()) {
      worst_time = std::max(worst_time, difference);
      worst_housner = std::max(
          {worst_housner, std::abs(times[i] - housner[i]), std::abs(reference[i] - housner[i])});
    } else {
      worst_tail = std::max(worst_tail, difference);
    }
  }
  MESSAGE("largest impact-time difference "
          << worst_time << " s over the first " << housner.size() << " landings (" << worst_housner
          << " s from Housner's), " << worst_tail << " s in the Zeno tail");
  CHECK(worst_time < 1e-9);
  CHECK(worst_housner < 1e-9);
  // Housner's ratio of the spin after to before a landing (angular momentum about the new edge)
  const double alpha = std::atan(0.2 / 1.0);
  const double ratio = 1.0 - 1.5 * std::pow(std::sin(alpha), 2);
  double worst_ratio = 0.0;
  int landings = 0;
  for (const double t : times) {
    const auto [before, after] = samples_at(spatial.trajectory, t);
    REQUIRE(before != nullptr);
    const double spin = before->v[4];     // wy: about the body y, the world y as long as it rocks
    if (std::abs(spin) < 1e-3) continue;  // the Zeno tail: spins at round-off's scale
    worst_ratio = std::max(worst_ratio, std::abs(after->v[4] / spin - ratio));
    ++landings;
  }
  MESSAGE("largest deviation from Housner's ratio " << worst_ratio << " over " << landings
                                                    << " landings");
  CHECK(landings > 50);
  CHECK(worst_ratio < 1e-9);
  // no motion out of the x–z plane: y, vy, ωx, ωz and the turn about x and z stay zero
  double out_of_plane = 0.0;
  for (const auto& sample : spatial.trajectory.samples) {
    const Eigen::Vector3d axis = orientation(sample.q) * Eigen::Vector3d::UnitY();
    out_of_plane =
        std::max({out_of_plane, std::abs(sample.q[1]), std::abs(sample.v[1]), std::abs(sample.v[3]),
                  std::abs(sample.v[5]), (axis - Eigen::Vector3d::UnitY()).norm()});
  }
  MESSAGE("largest out-of-plane figure " << out_of_plane);
  CHECK(out_of_plane < 1e-12);
}

TEST_CASE("spatial boxes: box_on_incline held by friction does not creep in 10 s") {
  // μ = 0.7 > tan 30° = 0.577: static friction holds the box (Coulomb)
  const ScenarioRun run =
      run_shipped_scenario("box_on_incline.yaml", {"contact.friction=0.7", "duration=10"});
  REQUIRE(run.outcome.status == RunStatus::completed);
  const Eigen::Vector3d start = run.scenario.initial.q.head<3>();
  double creep = 0.0;
  for (const auto& sample : run.trajectory.samples)
    creep = std::max(creep, (sample.q.head<3>() - start).norm());
  MESSAGE("largest displacement in 10 s: " << creep << " m");
  CHECK(creep < 1e-12);
}

TEST_CASE(
    "spatial boxes: box_on_incline slides down the fall line at g (sin β − μ cos β) without "
    "turning") {
  const ScenarioRun run = run_shipped_scenario("box_on_incline.yaml");
  REQUIRE(run.outcome.status == RunStatus::completed);
  const double beta = std::numbers::pi / 6.0, mu = 0.4;
  const double a = kGravity * (std::sin(beta) - mu * std::cos(beta));  // Coulomb, closed form
  const Eigen::Vector3d fall_line(std::cos(beta), 0.0, -std::sin(beta));
  const Eigen::Vector3d start = run.scenario.initial.q.head<3>();
  const Eigen::Quaterniond turn0 = orientation(run.scenario.initial.q);
  double worst_position = 0.0, worst_turn = 0.0;
  for (const auto& sample : run.trajectory.samples) {
    const Eigen::Vector3d expected = start + 0.5 * a * sample.t * sample.t * fall_line;
    worst_position = std::max(worst_position, (sample.q.head<3>() - expected).norm());
    worst_turn = std::max(worst_turn, orientation(sample.q).angularDistance(turn0));
  }
  MESSAGE("a = " << a << " m/s²: largest position error " << worst_position << " m, largest turn "
                 << worst_turn << " rad");
  CHECK(worst_position < 1e-9);
  CHECK(worst_turn < 1e-12);
}

TEST_CASE(
    "spatial boxes: a box resting flat under a horizontal ground shaking below μ g stays where it "
    "is") {
  // In the ground's frame the box feels −m a_g; with |a_g| = 0.5 μ g static friction holds it.
  for (const char* direction : {"x", "y"}) {
    CAPTURE(direction);
    const ScenarioRun run = run_shipped_scenario(
        "box_on_incline.yaml",
        {"model.obstacles.0.normal=[0, 0, 1]", "initial.q={box.z: 0.05}", "duration=2",
         std::string("excitation={harmonic: {amplitude: 1.96, frequency: 2, direction: ") +
             direction + "}}"});
    REQUIRE(run.outcome.status == RunStatus::completed);
    double creep = 0.0;
    for (const auto& sample : run.trajectory.samples)
      creep = std::max(creep, (sample.q.head<3>() - Eigen::Vector3d(0, 0, 0.05)).norm());
    MESSAGE("largest displacement relative to the ground: " << creep << " m");
    CHECK(creep < 1e-12);
  }
}

TEST_CASE("spatial boxes: tumbling_die comes to rest on a face, half its edge high") {
  const ScenarioRun run = run_shipped_scenario("tumbling_die.yaml");
  REQUIRE(run.outcome.status == RunStatus::completed);
  CHECK_MESSAGE(test::first_non_finite_sample(run.trajectory).empty(),
                test::first_non_finite_sample(run.trajectory));
  CHECK_MESSAGE(test::first_energy_raising_event(run.trajectory).empty(),
                test::first_energy_raising_event(run.trajectory));
  const auto& last = run.trajectory.samples.back();
  // face down: one body axis along ±z, so the world z of the three axes is (0, 0, ±1) in some order
  const Eigen::Matrix3d R = orientation(last.q).toRotationMatrix();
  const double upright = R.row(2).cwiseAbs().maxCoeff();
  CHECK(std::abs(upright - 1.0) < 1e-9);
  CHECK(std::abs(last.q[2] - 0.008) < 1e-9);  // half of the 16 mm edge
  CHECK(last.v.norm() < 1e-9);
}

TEST_CASE(
    "spatial boxes: tumbling_die's nonphysical_normal_dissipation flags are Poisson's restitution "
    "with a turning slip, and Stronge's energetic ending raises none on a single contact") {
  // docs/flags.md: Poisson's coefficient and Stronge's energetic one agree only while the slip
  // keeps its direction. In 3D the slip of a corner turns during the impact (sliding_ode.hpp:
  // du/dΓ_n = H (1, −μ û)), so u_n is not linear in Γ_n and the restitution work of
  // Γ_n = (1 + e) Γ_n,c is not −e² times the compression work, although the corner slides
  // throughout. The same run with sliding_ode_energetic flags no single-contact impact.
  const ScenarioRun poisson = run_shipped_scenario("tumbling_die.yaml");
  int flagged = 0, single = 0;
  for (const EventRecord& event : poisson.trajectory.events) {
    if (event.kind != EventKind::impact) continue;
    if (event.flags.find("nonphysical_normal_dissipation") == std::string::npos) continue;
    ++flagged;
    if (event.contacts.size() == 1) ++single;
    CHECK(event.normal_work < 0.0);  // still dissipative
    CHECK(event.flags.find("energy_gain") == std::string::npos);
  }
  MESSAGE(flagged << " flagged impacts, " << single << " on a single corner");
  CHECK(flagged > 0);
  const ScenarioRun energetic =
      run_shipped_scenario("tumbling_die.yaml", {"contact.law=sliding_ode_energetic"});
  REQUIRE(energetic.outcome.status == RunStatus::completed);
  int energetic_single = 0;
  for (const EventRecord& event : energetic.trajectory.events) {
    if (event.kind == EventKind::impact && event.contacts.size() == 1) {
      ++energetic_single;
      CHECK(event.flags.find("nonphysical_normal_dissipation") == std::string::npos);
    }
  }
  CHECK(energetic_single > 0);
}

TEST_CASE(
    "spatial boxes: free_body_flip keeps its energy and world angular momentum and flips with "
    "the period of Landau and Lifshitz §37") {
  const ScenarioRun run = run_shipped_scenario("free_body_flip.yaml");
  REQUIRE(run.outcome.status == RunStatus::completed);
  const double m = 1.0, a = 0.24, b = 0.17, c = 0.03;  // the book's mass and edges
  const Eigen::Vector3d I =
      m / 12.0 * Eigen::Vector3d(b * b + c * c, a * a + c * c, a * a + b * b);  // uniform box
  const Eigen::Vector3d omega0 = run.scenario.initial.v.tail<3>();
  const double E = 0.5 * omega0.dot(I.cwiseProduct(omega0));
  const Eigen::Vector3d L0 = orientation(run.scenario.initial.q) * I.cwiseProduct(omega0);
  const double period = test::torque_free_period_s(I, E, L0.squaredNorm());
  double worst_energy = 0.0, worst_momentum = 0.0;
  std::vector<double> reversals;  // the instants at which ω₂ changes sign
  const TrajectoryMemory::Sample* previous = nullptr;
  for (const auto& sample : run.trajectory.samples) {
    const Eigen::Vector3d omega = sample.v.tail<3>();  // body frame
    worst_energy = std::max(worst_energy, std::abs(0.5 * omega.dot(I.cwiseProduct(omega)) - E) / E);
    const Eigen::Vector3d L = orientation(sample.q) * I.cwiseProduct(omega);
    worst_momentum = std::max(worst_momentum, (L - L0).norm() / L0.norm());
    if (previous != nullptr && (previous->v[4] > 0.0) != (sample.v[4] > 0.0)) {
      // linear between the samples: the crossing is steep, ω₂ sweeps ±10 rad/s in ~0.2 s
      const double w0 = previous->v[4], w1 = sample.v[4];
      reversals.push_back(previous->t + (sample.t - previous->t) * w0 / (w0 - w1));
    }
    previous = &sample;
  }
  MESSAGE("relative drift: energy " << worst_energy << ", world angular momentum " << worst_momentum
                                    << "; period " << period << " s");
  CHECK(worst_energy < 1e-9);
  CHECK(worst_momentum < 1e-9);
  // a flip every half period (ω₂ passes zero half-way through each), three or four in 10 s
  REQUIRE(reversals.size() >= 3);
  for (std::size_t k = 1; k < reversals.size(); ++k) {
    CAPTURE(k);
    CHECK(reversals[k] - reversals[k - 1] == doctest::Approx(0.5 * period).epsilon(1e-4));
  }
}

}  // namespace routh
