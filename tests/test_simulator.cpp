// The event-driven simulator (sim/simulation/simulator.hpp) on a point mass against fixed lines,
// where every event has a closed form: a ball bouncing to rest at its Zeno point, a block sliding
// to a stop, a block on an incline that sticks or slides.

#include <doctest/doctest.h>

#include <cmath>

#include "models/named_models.hpp"
#include "models/planar/initial_state.hpp"
#include "sim/recorder/trajectory_recorder.hpp"
#include "sim/recorder/trajectory_summary.hpp"
#include "sim/simulation/simulator.hpp"
#include "support/point_mass_system.hpp"
#include "support/scratch_files.hpp"
#include "support/simulation_setup.hpp"
#include "support/trajectory_memory.hpp"

namespace {

constexpr double kGravity = 9.81;

using routh::test::poisson_settings;
using routh::test::rock_housner_block;

}  // namespace

TEST_CASE(
    "simulator: a ball dropped 1 m with e = 0.9 bounces at the closed-form times and rests at the "
    "Zeno point") {
  const routh::test::PointMassSystem ball(1.0, kGravity, {routh::test::HalfPlane{}});
  const double height = 1.0, e = 0.9;
  routh::SimulationState initial;
  initial.q = Eigen::Vector2d(0.0, height);
  initial.v = Eigen::Vector2d(0.0, 0.0);
  routh::test::TrajectoryMemory trajectory;
  const routh::SimulationOutcome outcome =
      routh::simulate(ball, initial, poisson_settings(10.0, e, 0.0, 0.0), trajectory);
  CHECK(outcome.status == routh::RunStatus::completed);

  // Closed form: first impact at √(2h/g) with speed v₁ = √(2gh); the k-th flight after it lasts
  // 2 eᵏ v₁ / g; the impacts accumulate at t∞ = t₁ + 2 e v₁ / (g (1 − e)).
  const double t1 = std::sqrt(2.0 * height / kGravity), v1 = kGravity * t1;
  const std::vector<double> impacts = trajectory.times_of(routh::EventKind::impact);
  REQUIRE(impacts.size() > 20);
  double expected = t1, speed = v1;
  // Every impact time to 1e-11 s (the accuracy for this drop): each is located on its
  // early side, and the flight between impacts is a parabola that dopri5 integrates to
  // round-off. An impact located early by δ leaves the ball δ|v| above the floor, slower by g δ,
  // so its error carries into the later flights; over the 146 impacts the errors sum to
  // 2.3e-13 s (measured; 2.4e-12 s when landings were left anywhere within the 1e-12 s
  // tolerance). The floor at y = 0 resolves gaps to far below 1e-20 m even for the last,
  // slowest bounces.
  for (std::size_t i = 0; i < impacts.size(); ++i) {
    CAPTURE(i);
    CHECK(std::abs(impacts[i] - expected) < 1e-11);
    speed *= e;
    expected += 2.0 * speed / kGravity;
  }
  const double accumulation = t1 + 2.0 * e * v1 / (kGravity * (1.0 - e));
  const std::vector<double> rests = trajectory.times_of(routh::EventKind::rest);
  REQUIRE(rests.size() == 1);
  CHECK(std::abs(rests[0] - accumulation) < 1e-11);
  // at rest on the floor, never below it
  CHECK(std::abs(outcome.final_state.q[1]) < 1e-9);
  CHECK(std::abs(outcome.final_state.v[1]) < 1e-9);
  double lowest = 1.0;
  for (const auto& s : trajectory.samples) lowest = std::min(lowest, s.q[1]);
  CHECK(lowest > -1e-9);
  // energy never rises at a Poisson impact
  for (const auto& event : trajectory.events) {
    if (event.kind == routh::EventKind::impact) CHECK(event.delta_T <= 0.0);
  }
}

TEST_CASE("simulator: a block sliding on the floor stops at t = v0 / (μd g)") {
  const routh::test::PointMassSystem block(2.0, kGravity, {routh::test::HalfPlane{}});
  routh::SimulationState initial;
  initial.q = Eigen::Vector2d(0.0, 0.0);
  initial.v = Eigen::Vector2d(3.0, 0.0);
  routh::test::TrajectoryMemory trajectory;
  const double mu = 0.4;
  const auto outcome =
      routh::simulate(block, initial, poisson_settings(2.0, 0.5, mu, mu), trajectory);
  CHECK(outcome.status == routh::RunStatus::completed);
  const std::vector<double> stops = trajectory.times_of(routh::EventKind::stick);
  REQUIRE(stops.size() == 1);
  CHECK(std::abs(stops[0] - 3.0 / (mu * kGravity)) < 1e-9);
  CHECK(outcome.final_state.q[0] == doctest::Approx(9.0 / (2.0 * mu * kGravity)).epsilon(1e-9));
  CHECK(std::abs(outcome.final_state.v[0]) < 1e-12);
}

TEST_CASE(
    "simulator: on an incline a block sticks when tan θ ≤ μs, else slides at g (sin θ − μd cos "
    "θ)") {
  for (const double angle : {0.3, 0.6}) {
    CAPTURE(angle);
    const routh::test::PointMassSystem block(1.0, kGravity, {routh::test::incline(angle)});
    routh::SimulationState initial;
    initial.q = Eigen::Vector2d(0.0, 0.0);
    initial.v = Eigen::Vector2d(0.0, 0.0);
    routh::test::TrajectoryMemory trajectory;
    const double mu_s = 0.5, mu_d = 0.4, duration = 1.0;
    const auto outcome =
        routh::simulate(block, initial, poisson_settings(duration, 0.5, mu_s, mu_d), trajectory);
    CHECK(outcome.status == routh::RunStatus::completed);
    const Eigen::Vector2d downslope = -routh::test::incline(angle).tangent();
    const double travelled = outcome.final_state.q.dot(downslope);
    if (std::tan(angle) <= mu_s) {
      CHECK(std::abs(travelled) < 1e-12);
    } else {
      const double a = kGravity * (std::sin(angle) - mu_d * std::cos(angle));
      CHECK(travelled == doctest::Approx(0.5 * a * duration * duration).epsilon(1e-9));
    }
  }
}

TEST_CASE("simulator: a closed contact that drifted off its constraint is projected back") {
  // Start a closed (sticking) contact 5e-9 m above the floor, as integration drift would leave
  // it: the first accepted step projects q onto g = 0 and v onto its tangent space, so the gap
  // stays below the 1e-9 m — here at round-off, the constraint being linear.
  const routh::test::PointMassSystem block(1.0, kGravity, {routh::test::HalfPlane{}});
  routh::SimulationState initial;
  initial.q = Eigen::Vector2d(0.0, 5e-9);
  initial.v = Eigen::Vector2d(0.0, 0.0);
  initial.modes = {routh::ContactMode::stick};
  routh::test::TrajectoryMemory trajectory;
  const auto outcome =
      routh::simulate(block, initial, poisson_settings(0.5, 0.5, 0.5, 0.5), trajectory);
  CHECK(outcome.status == routh::RunStatus::completed);
  CHECK(std::abs(outcome.final_state.q[1]) < 1e-15);
  for (const auto& s : trajectory.samples) {
    if (s.t > 0.0) CHECK(std::abs(s.q[1]) < 1e-9);
  }
}

TEST_CASE("simulator: a run streams into the HDF5 recorder and reads back whole") {
  // The bouncing ball again, written through TrajectoryRecorder (the TrajectoryObserver that
  // `routh run` uses), then summarized from the file: every impact and the rest are in /events,
  // every sample in /time, and the energy never rose above its start by more than round-off.
  const routh::test::PointMassSystem ball(1.0, kGravity, {routh::test::HalfPlane{}});
  routh::SimulationState initial;
  initial.q = Eigen::Vector2d(0.0, 1.0);
  initial.v = Eigen::Vector2d(0.0, 0.0);
  const std::string path = routh::test::scratch() / "ball.h5";
  routh::SimulationOutcome outcome;
  routh::test::TrajectoryMemory memory;
  {
    routh::TrajectoryRecorder recorder(
        path, routh::RecorderHeader{"poisson", "name: ball\n", ball.coordinate_names(),
                                    ball.coordinate_units(), ball.contact_names(), ""});
    outcome = routh::simulate(ball, initial, poisson_settings(10.0, 0.9, 0.0, 0.0), recorder);
    routh::simulate(ball, initial, poisson_settings(10.0, 0.9, 0.0, 0.0), memory);
  }
  const routh::TrajectorySummary summary = routh::summarize_trajectory(path);
  CHECK(summary.law == "poisson");
  CHECK(summary.sample_count == static_cast<std::int64_t>(memory.samples.size()));
  CHECK(summary.event_count == outcome.events);
  CHECK(summary.t_last == doctest::Approx(10.0));
  CHECK(summary.max_energy_rise < 1e-9);
}

TEST_CASE(
    "simulator: Housner's rocking block loses 1 - 1.5 sin^2(alpha) of its spin at each corner "
    "impact") {
  // Housner (1963): a rectangular block (here 0.2 m x 1.0 m) rocking on a rigid floor, with
  // plastic corner impacts and friction enough to prevent sliding, keeps its angular momentum
  // about the striking corner, so θ̇⁺/θ̇⁻ = 1 − 1.5 sin²α with α = atan(b/h). Released at half its
  // critical angle α. The impact solves at the striking corner alone; the old pivot would
  // carry no impulse and lifts off (the simulator's active set), so a single-contact law serves.
  const double alpha = std::atan(0.1 / 0.5);
  routh::test::TrajectoryMemory trajectory;
  const auto outcome = rock_housner_block(3.0, 1.0, trajectory);
  CHECK(outcome.status == routh::RunStatus::completed);
  const std::vector<double> impacts = trajectory.times_of(routh::EventKind::impact);
  REQUIRE(impacts.size() >= 5);
  const double housner = 1.0 - 1.5 * std::pow(std::sin(alpha), 2);
  for (const double t : impacts) {
    // the pre- and post-impact samples are recorded at the impact time, in that order
    std::vector<double> spins;
    for (const auto& s : trajectory.samples) {
      if (s.t == t) spins.push_back(s.v[2]);
    }
    REQUIRE(spins.size() >= 2);
    CAPTURE(t);
    CHECK(spins[1] / spins[0] == doctest::Approx(housner).epsilon(1e-9));
  }
  CHECK(trajectory.times_of(routh::EventKind::rest).empty());  // still rocking at 3 s
}

TEST_CASE("simulator: a landing within the same step as the take-off is not missed") {
  // Late in a bouncing sequence the flights (milliseconds) are shorter than the largest step
  // (10 ms), and an impact leaves the gap at exactly 0 by round-off (ball of radius 0.1 m: the
  // gap is y − 0.1). The gap witness then starts at the flight's apex; before that fix this ball
  // missed its 46th impact and fell through the floor.
  auto ball = routh::make_ball(0.1, 1.0);
  const routh::PlanarState start = routh::complete_initial_state(*ball, {{"y", 1.1}});
  routh::SimulationState initial;
  initial.q = start.q;
  initial.v = start.v;
  routh::test::TrajectoryMemory trajectory;
  const auto outcome =
      routh::simulate(*ball, initial, poisson_settings(10.0, 0.9, 0.0, 0.0), trajectory);
  CHECK(outcome.status == routh::RunStatus::completed);
  CHECK(outcome.impacts > 140);  // every bounce down to the rest speed, as for the point mass
  CHECK(outcome.final_state.q[1] == doctest::Approx(0.1).epsilon(1e-12));
  CHECK(trajectory.times_of(routh::EventKind::rest).size() == 1);
}

TEST_CASE(
    "simulator: Housner's block rocks to rest at the accumulation point of its impacts, then stays "
    "flat") {
  // Each plastic impact keeps 1 − 1.5 sin²α of the spin, and at small amplitude the time between
  // impacts shrinks in proportion, so the impacts accumulate geometrically; the simulator jumps
  // to the sequence's limit and closes both corners. Resting flat on two corners is statically
  // indeterminate (4 constraint rows, 3 degrees of freedom): the minimum-norm contact forces must
  // hold it exactly, not let it sink.
  auto block = routh::make_rocking_block(0.2, 1.0, 1.0);
  routh::test::TrajectoryMemory trajectory;
  const auto outcome = rock_housner_block(20.0, 0.7, trajectory);
  CHECK(outcome.status == routh::RunStatus::completed);
  const std::vector<double> rests = trajectory.times_of(routh::EventKind::rest);
  const std::vector<double> impacts = trajectory.times_of(routh::EventKind::impact);
  REQUIRE(rests.size() == 1);
  REQUIRE(trajectory.times_of(routh::EventKind::zeno).size() == 1);
  CHECK(impacts.size() > 150);
  CHECK(rests[0] > impacts.back());
  CHECK(rests[0] - impacts.back() < 1e-3);  // the jump spans only the remaining tiny rocks
  // flat, at rest, on the floor, for the remaining ~11 s
  CHECK(std::abs(outcome.final_state.q[2]) < 1e-12);
  CHECK(outcome.final_state.v.norm() < 1e-12);
  routh::ContactKinematics contacts;
  for (const auto& s : trajectory.samples) {
    if (s.t <= rests[0]) continue;
    block->contact_kinematics(s.q, s.v, contacts);
    CHECK(std::abs(contacts.gap[0]) < 1e-9);
    CHECK(std::abs(contacts.gap[1]) < 1e-9);
  }
}

TEST_CASE(
    "simulator: free flight and a pendulum swing conserve energy to 1e-9 over 10 s at default "
    "tolerances") {
  // The requirement, at the default dopri5 tolerances (3e-11): a spinning ball thrown up
  // from 1000 m (it does not reach the floor within 10 s) conserves T + V to round-off, the
  // flight being polynomial; a 1 m pendulum released at 1 rad keeps it to 6.5e-10 relative
  // (measured), the integrator's local errors adding up over five swings.
  routh::SimulationSettings settings = poisson_settings(10.0, 0.5, 0.3, 0.3);
  const auto max_energy_drift = [](const routh::test::TrajectoryMemory& trajectory) {
    const double start = trajectory.samples.front().energy.total();
    double drift = 0.0;
    for (const auto& s : trajectory.samples)
      drift = std::max(drift, std::abs(s.energy.total() - start));
    return drift / std::abs(start);
  };
  const auto ball = routh::make_ball(0.1, 1.0);
  const routh::PlanarState thrown = routh::complete_initial_state(
      *ball, {{"y", 1000.0}}, {{"x", 1.0}, {"y", 30.0}, {"theta", 2.0}});
  routh::test::TrajectoryMemory flight;
  CHECK(routh::simulate(*ball, {0.0, thrown.q, thrown.v, {}}, settings, flight).impacts == 0);
  CHECK(max_energy_drift(flight) < 1e-9);

  const auto pendulum = routh::make_pendulum(1.0, 1.0, routh::wall_at(-5.0, true));  // out of reach
  routh::test::TrajectoryMemory swing;
  const routh::SimulationState released{
      0.0, Eigen::VectorXd::Constant(1, 1.0), Eigen::VectorXd::Zero(1), {}};
  CHECK(routh::simulate(*pendulum, released, settings, swing).impacts == 0);
  CHECK(max_energy_drift(swing) < 1e-9);
}
