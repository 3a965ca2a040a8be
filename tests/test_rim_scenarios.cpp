// Cylinders on their rims (models/spatial/spatial_contact_geometry.hpp) in whole runs, against
// closed forms and the test's own integration.
//
// Rocking cylinder (scenarios/rocking_cylinder_3d.yaml). A cylinder of mass m, radius r and
// height h rocking in the x–z plane about a rim point O of its base is a compound pendulum
// turning about the axis y through O, as Housner's block about its corner (Housner, "The behavior
// of inverted pendulum structures during earthquakes", 1963), with the cylinder's inertia:
//     I_c = m (3r² + h²)/12 about its centre's y axis,   R = |G − O| = √(r² + h²/4),
//     I_O = I_c + m R² = m (15 r² + 4 h²)/12,              α = atan(2r/h),
// and, θ its tilt towards O (the centre of mass at height R cos(α − θ)),
//     I_O θ̈ = −m g R sin(α − θ)   (p² = m g R / I_O).
// At θ = 0 its base slaps the floor: an impulse at the far rim point O′ = O + 2r x̂, which becomes
// the pivot (plastic, sticking). Angular momentum about O′ is kept: before, turning at ω about O,
// with G − O = (r, 0, h/2) and G − O′ = (−r, 0, h/2), v_G = ω ŷ × (G − O) = ω (h/2, 0, −r) and
//     H_O′ = I_c ω + m ((G − O′) × v_G)_y = I_c ω + m ω (h²/4 − r²);
// after, turning at ω⁺ about O′: H_O′ = I_O ω⁺. So each slap keeps
//     ω⁺/ω = (I_c + m (h²/4 − r²)) / I_O = (4h² − 9r²)/(4h² + 15r²)
// of the spin (for a block of half-width b and half-height c the same steps give Housner's
// 1 − 1.5 sin²α). The rocking between slaps is integrated here (RK4), from which the slaps'
// instants follow.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "models/spatial/spatial_bodies.hpp"
#include "support/scenario_run.hpp"
#include "support/scratch_files.hpp"

namespace {

using routh::test::ScenarioRun;

constexpr double kRadius = 0.25, kHeight = 1.5, kGravity = 9.81;  // the scenario's

double spin_kept() {
  const double r2 = kRadius * kRadius, h2 = kHeight * kHeight;
  return (4.0 * h2 - 9.0 * r2) / (4.0 * h2 + 15.0 * r2);
}

double alpha() { return std::atan(2.0 * kRadius / kHeight); }

// p² = m g R / I_O of the header comment.
double p_squared() {
  const double R = std::hypot(kRadius, 0.5 * kHeight);
  return kGravity * R * 12.0 / (15.0 * kRadius * kRadius + 4.0 * kHeight * kHeight);
}

struct Tilt {
  double theta, rate;
};

Tilt rk4_step(Tilt s, double dt) {
  const auto f = [](const Tilt& x) {
    return Tilt{x.rate, -p_squared() * std::sin(alpha() - x.theta)};
  };
  const auto add = [](const Tilt& x, const Tilt& d, double k) {
    return Tilt{x.theta + k * d.theta, x.rate + k * d.rate};
  };
  const Tilt k1 = f(s), k2 = f(add(s, k1, dt / 2)), k3 = f(add(s, k2, dt / 2)),
             k4 = f(add(s, k3, dt));
  return Tilt{s.theta + dt / 6 * (k1.theta + 2 * k2.theta + 2 * k3.theta + k4.theta),
              s.rate + dt / 6 * (k1.rate + 2 * k2.rate + 2 * k3.rate + k4.rate)};
}

// The time from `start` to θ = 0 (falling back upright) [s], by RK4 steps of 1e-5 s and a last
// step onto θ = 0 found by Newton's iteration on its length.
double time_to_upright(Tilt start) {
  constexpr double kStep = 1e-5;
  double t = 0.0;
  Tilt s = start;
  while (true) {
    const Tilt next = rk4_step(s, kStep);
    if (next.theta <= 0.0) break;
    s = next;
    t += kStep;
  }
  double tau = -s.theta / s.rate;
  for (int i = 0; i < 5; ++i) {
    const Tilt end = rk4_step(s, tau);
    tau -= end.theta / end.rate;
  }
  return t + tau;
}

const std::vector<std::string>& names(const ScenarioRun& run) {
  return run.scenario.model->contact_names();
}

int contact_index(const ScenarioRun& run, const std::string& name) {
  const auto& all = names(run);
  return static_cast<int>(std::find(all.begin(), all.end(), name) - all.begin());
}

// The velocities just before and just after the events at `t`.
struct Jump {
  Eigen::VectorXd before, after;
};

Jump jump_at(const ScenarioRun& run, double t) {
  Jump jump;
  for (const auto& sample : run.trajectory.samples) {
    if (sample.t != t) continue;
    if (sample.kind == routh::SampleKind::before_event && jump.before.size() == 0)
      jump.before = sample.v;
    if (sample.kind == routh::SampleKind::after_event) jump.after = sample.v;
  }
  return jump;
}

}  // namespace

TEST_CASE("rim scenarios: a rocking cylinder slaps on its far rim point and keeps its spin ratio") {
  const ScenarioRun run = routh::test::run_shipped_scenario("rocking_cylinder_3d.yaml");
  REQUIRE(run.outcome.status == routh::RunStatus::completed);
  const int x_plus = contact_index(run, "drum.bottom_rim.x+/floor");
  const int x_minus = contact_index(run, "drum.bottom_rim.x-/floor");
  std::vector<routh::EventRecord> impacts;
  for (const auto& event : run.trajectory.events) {
    if (event.kind == routh::EventKind::impact) impacts.push_back(event);
  }
  REQUIRE(impacts.size() >= 10);
  // its rim points stay on their sides of the body's y axis: no hand-over
  CHECK(run.trajectory.times_of(routh::EventKind::edge_end).empty());
  // the own integration: from rest at α/2 on x−, each slap on the far end keeps spin_kept(), and
  // the rise and fall after it are symmetric (energy), so that the next slap comes at twice the
  // rise's time, which equals the time to fall from the apex reached
  double t_slap = time_to_upright({alpha() / 2.0, 0.0});
  double speed = std::sqrt(2.0 * p_squared() * (std::cos(alpha() / 2.0) - std::cos(alpha())));
  for (std::size_t i = 0; i < 10; ++i) {
    CAPTURE(i);
    const routh::EventRecord& slap = impacts[i];
    // the far end strikes: x+ first (the drum starts on x−), then alternately
    const int far = i % 2 == 0 ? x_plus : x_minus;
    CHECK(std::find(slap.contacts.begin(), slap.contacts.end(), far) != slap.contacts.end());
    CHECK(slap.t == doctest::Approx(t_slap).epsilon(1e-6));
    const Jump jump = jump_at(run, slap.t);
    REQUIRE(jump.before.size() == 6);
    REQUIRE(jump.after.size() == 6);
    // wy, turning the same way on both sides (onto the new pivot)
    const double sense = i % 2 == 0 ? 1.0 : -1.0;
    CHECK(sense * jump.before[4] == doctest::Approx(speed).epsilon(1e-6));
    CHECK(jump.after[4] / jump.before[4] == doctest::Approx(spin_kept()).epsilon(1e-6));
    speed *= spin_kept();
    // the apex after it: cos(α − θ_max) = cos α + speed²/(2p²); falling back takes as long
    const double apex =
        alpha() - std::acos(std::cos(alpha()) + speed * speed / (2.0 * p_squared()));
    t_slap += 2.0 * time_to_upright({apex, 0.0});
  }
  // in its plane throughout: no y, no turning about x or z
  double out_of_plane = 0.0;
  for (const auto& sample : run.trajectory.samples) {
    out_of_plane = std::max({out_of_plane, std::abs(sample.q[1]), std::abs(sample.v[1]),
                             std::abs(sample.v[3]), std::abs(sample.v[5])});
  }
  CHECK(out_of_plane < 1e-12);
}

TEST_CASE("rim scenarios: a coin lying flat on the floor stays put for 10 s") {
  const std::string coin =
      "name: resting_coin\n"
      "duration: 10\n"
      "model:\n"
      "  dimension: 3\n"
      "  bodies:\n"
      "    - {name: coin, mass: 0.006, shape: {cylinder: {radius: 0.012, height: 0.002}}}\n"
      "  obstacles:\n"
      "    - {type: plane, name: floor, point: [0, 0, 0], normal: [0, 0, 1]}\n"
      "initial:\n"
      "  q: {coin.x: 0.1, coin.y: -0.2, coin.z: 0.001}\n"
      "contact:\n"
      "  law: lcp\n"
      "  restitution: 0.0\n"
      "  friction: 0.3\n";
  const ScenarioRun run =
      routh::test::run_scenario_file(routh::test::write_problem(coin, "resting_coin.yaml"));
  REQUIRE(run.outcome.status == routh::RunStatus::completed);
  CHECK(run.outcome.impacts == 0);
  Eigen::VectorXd start(7);
  start << 0.1, -0.2, 0.001, 1.0, 0.0, 0.0, 0.0;
  REQUIRE(run.trajectory.samples.back().t == doctest::Approx(10.0));
  double drift = 0.0, speed = 0.0;
  for (const auto& sample : run.trajectory.samples) {
    drift = std::max(drift, (sample.q - start).cwiseAbs().maxCoeff());
    speed = std::max(speed, sample.v.cwiseAbs().maxCoeff());
  }
  CHECK(drift < 1e-12);
  CHECK(speed < 1e-12);
}

namespace {

// Euler's disk (scenarios/euler_disk.yaml): the steady motion of its header comment, for the
// disk's r, h and θ; the precession rate from Routh's condition for a body of revolution.
constexpr double kDiskRadius = 0.04, kDiskHeight = 0.01, kDiskTilt = std::numbers::pi / 6.0;

double disk_precession() {
  const double A = (3.0 * kDiskRadius * kDiskRadius + kDiskHeight * kDiskHeight) / 12.0;
  const double C = kDiskRadius * kDiskRadius / 2.0;  // per unit mass, as A
  const double s = std::sin(kDiskTilt), c = std::cos(kDiskTilt);
  return std::sqrt(kGravity * (kDiskRadius * c - 0.5 * kDiskHeight * s) /
                   (s * (A * c - C * kDiskHeight / (2.0 * kDiskRadius) * s)));
}

}  // namespace

TEST_CASE("rim scenarios: Euler's disk rolls steadily, handing its contact over by events") {
  const ScenarioRun run = routh::test::run_shipped_scenario("euler_disk.yaml");
  REQUIRE(run.outcome.status == routh::RunStatus::completed);
  CHECK(run.outcome.impacts == 0);
  const double Omega = disk_precession();
  const auto* bodies = dynamic_cast<const routh::SpatialBodies*>(run.scenario.model.get());
  REQUIRE(bodies != nullptr);
  // the axis precesses at Ω about z, at a constant tilt, the centre of mass at rest, and the
  // energy is kept (rolling without slip does no work)
  const double energy = run.trajectory.samples.front().energy.total();
  double axis_error = 0.0, centre_speed = 0.0, energy_error = 0.0;
  for (const auto& sample : run.trajectory.samples) {
    const Eigen::Vector3d axis = bodies->orientation(sample.q, 0) * Eigen::Vector3d::UnitZ();
    const Eigen::Vector3d expected(std::sin(kDiskTilt) * std::cos(Omega * sample.t),
                                   std::sin(kDiskTilt) * std::sin(Omega * sample.t),
                                   std::cos(kDiskTilt));
    axis_error = std::max(axis_error, (axis - expected).norm());
    centre_speed = std::max(centre_speed, sample.v.head<3>().norm());
    energy_error = std::max(energy_error, std::abs(sample.energy.total() - energy));
  }
  CHECK(axis_error < 1e-6);
  CHECK(centre_speed < 1e-6);
  CHECK(energy_error < 1e-9 * energy);
  // the contact point runs round the rim over the body at ψ̇ = Ω (cos θ − sin θ h/(2r)) from
  // the body's +x axis: it crosses the body's y axis at (π/2 + kπ)/ψ̇, where the closed contact
  // (x+ first) leaves the end of its name's half-rim and the other name takes over
  const double spin =
      Omega * (std::cos(kDiskTilt) - std::sin(kDiskTilt) * kDiskHeight / (2.0 * kDiskRadius));
  const std::vector<double> handovers = run.trajectory.times_of(routh::EventKind::edge_end);
  const auto expected_count = static_cast<std::size_t>(std::floor(
                                  (spin * 1.0 - 0.5 * std::numbers::pi) / std::numbers::pi)) +
                              1;
  REQUIRE(handovers.size() == expected_count);
  for (std::size_t k = 0; k < handovers.size(); ++k) {
    CAPTURE(k);
    CHECK(handovers[k] ==
          doctest::Approx((0.5 + static_cast<double>(k)) * std::numbers::pi / spin).epsilon(1e-6));
  }
  const int x_plus = contact_index(run, "disk.bottom_rim.x+/floor");
  const int x_minus = contact_index(run, "disk.bottom_rim.x-/floor");
  int k = 0;
  for (const auto& event : run.trajectory.events) {
    if (event.kind != routh::EventKind::edge_end) continue;
    CHECK(event.contacts == std::vector<int>{k++ % 2 == 0 ? x_plus : x_minus});
  }
}

TEST_CASE("rim scenarios: a coin rolls upright in a straight line at constant speed") {
  // scenarios/rolling_coin.yaml: V = 0.5 m/s along x, r = 0.012 m, rolling without slip
  constexpr double kSpeed = 0.5, kCoinRadius = 0.012;
  const ScenarioRun run = routh::test::run_shipped_scenario("rolling_coin.yaml");
  REQUIRE(run.outcome.status == routh::RunStatus::completed);
  const double energy = run.trajectory.samples.front().energy.total();
  double position_error = 0.0, speed_error = 0.0, energy_error = 0.0;
  for (const auto& sample : run.trajectory.samples) {
    position_error = std::max({position_error, std::abs(sample.q[0] - kSpeed * sample.t),
                               std::abs(sample.q[1]), std::abs(sample.q[2] - kCoinRadius)});
    speed_error = std::max({speed_error, std::abs(sample.v[0] - kSpeed),
                            std::abs(sample.v[5] + kSpeed / kCoinRadius) * kCoinRadius});
    energy_error = std::max(energy_error, std::abs(sample.energy.total() - energy));
  }
  CHECK(position_error < 1e-9);
  CHECK(speed_error < 1e-9);
  CHECK(energy_error < 1e-9 * energy);
  // the contact points cross the body's y axis every π r/V: every event is at such an instant
  // (a hand-over, or a fixed rim point touching there)
  const double half_turn = std::numbers::pi * kCoinRadius / kSpeed;
  REQUIRE_FALSE(run.trajectory.events.empty());
  for (const auto& event : run.trajectory.events) {
    CAPTURE(event.t);
    const double turns = event.t / half_turn;
    CHECK(std::abs(turns - std::round(turns)) * half_turn < 1e-6);
  }
}
