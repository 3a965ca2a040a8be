// Acceptance tests of the shipped multibody scenarios (chain_on_floor, overturning_block,
// two_disks, stacked_blocks, pendulum_strikes_block, statue_on_plinth, towers_grid,
// multi_drum_column, wall): each is run as `routh run` would, and what
// it must show is computed here from the recorded coordinates and the scenario's geometry with
// formulas written in this file, never from routh's contact kinematics. Each reference names its
// source where it is declared.

#include <doctest/doctest.h>

#include <yaml-cpp/yaml.h>

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <limits>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "sim/text.hpp"
#include "support/housner_block.hpp"
#include "support/printed_value.hpp"
#include "support/scenario_run.hpp"
#include "support/trajectory_checks.hpp"

namespace {

using routh::EventKind;
using routh::EventRecord;
using routh::RunStatus;
using routh::test::run_shipped_scenario;
using routh::test::ScenarioRun;
using routh::test::TrajectoryMemory;

constexpr double kGravity = 9.81;         // [m/s²], the models' standard gravity
constexpr double kBelowTolerance = 1e-9;  // [m], how deep a recorded point may lie in an obstacle
constexpr double kRestSpeed = 1e-6;       // [m/s], events.rest_speed's default: slower closes

// A body point (c_x, c_y) of a body at (x, y, θ): (x + c_x cos θ − c_y sin θ, y + c_x sin θ +
// c_y cos θ) (models/planar/planar_body.hpp's frames; named_models.hpp).
Eigen::Vector2d body_point(double x, double y, double theta, double cx, double cy) {
  const double c = std::cos(theta), s = std::sin(theta);
  return {x + cx * c - cy * s, y + cx * s + cy * c};
}

// The four corners (±b, ±h) of a rectangle of half-width b and half-height h centred at (x, y)
// and turned by θ.
std::array<Eigen::Vector2d, 4> rectangle_corners(double x, double y, double theta, double b,
                                                 double h) {
  return {body_point(x, y, theta, -b, -h), body_point(x, y, theta, b, -h),
          body_point(x, y, theta, b, h), body_point(x, y, theta, -b, h)};
}

// The index of the first and of the last sample recorded at time t: the simulator records the
// state just before and just after it handles the events at t (simulator.cpp, "the pre-event
// state, the event, the post-event state"). {npos, npos} if there is none.
struct SamplePair {
  std::size_t before = std::string::npos, after = std::string::npos;
};
SamplePair samples_at(const TrajectoryMemory& trajectory, double t) {
  SamplePair found;
  for (std::size_t i = 0; i < trajectory.samples.size(); ++i) {
    if (trajectory.samples[i].t != t) continue;
    if (found.before == std::string::npos) found.before = i;
    found.after = i;
  }
  return found;
}

// The distinct times of the impact events, in order.
std::vector<double> impact_times(const TrajectoryMemory& trajectory) {
  std::vector<double> times = trajectory.times_of(EventKind::impact);
  times.erase(std::unique(times.begin(), times.end()), times.end());
  return times;
}

// "" if T + V never rises across the impacts: at each impact time the energy after the events
// (the last sample at that time) is at most the energy before (the first), to 1e-9 of T + |V|.
std::string first_energy_rise_at_impact(const TrajectoryMemory& trajectory, int* checked) {
  *checked = 0;
  for (const double t : impact_times(trajectory)) {
    const SamplePair pair = samples_at(trajectory, t);
    if (pair.before == std::string::npos || pair.before == pair.after) {
      return routh::cat("no pre/post samples at the impact at t = ", t, " s");
    }
    const routh::Energy& before = trajectory.samples[pair.before].energy;
    const routh::Energy& after = trajectory.samples[pair.after].energy;
    ++*checked;
    const double scale = before.kinetic + std::abs(before.potential);
    if (after.total() - before.total() > 1e-9 * scale) {
      std::ostringstream out;
      out.precision(15);
      out << "T + V rises across the impact at t = " << t << " s: from " << before.total()
          << " J to " << after.total() << " J";
      return out.str();
    }
  }
  return "";
}

// ---------------------------------------------------------------------------------------------
// chain_on_floor

// The link ends of a chain hanging from the origin with absolute angles θ_i from the downward
// vertical (make_chain's default, named_models.hpp: "theta_i is link i's angle from the
// downward vertical: absolute"): end_i = Σ_{j ≤ i} L_j (sin θ_j, −cos θ_j).
std::vector<Eigen::Vector2d> chain_ends(const Eigen::VectorXd& q,
                                        const std::vector<double>& lengths) {
  std::vector<Eigen::Vector2d> ends;
  Eigen::Vector2d end = Eigen::Vector2d::Zero();
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    const double theta = q[static_cast<Eigen::Index>(i)];
    end += lengths[i] * Eigen::Vector2d(std::sin(theta), -std::cos(theta));
    ends.push_back(end);
  }
  return ends;
}

std::string numbers(const std::vector<double>& values, const char* suffix = "") {
  std::ostringstream out;
  out << '[';
  for (std::size_t i = 0; i < values.size(); ++i) {
    out << (i ? ", " : "") << std::setprecision(17) << values[i] << suffix;
  }
  out << ']';
  return out.str();
}

void check_chain_run(const std::vector<double>& lengths, const std::vector<double>& masses) {
  constexpr double kFloor = -0.6;  // chain_on_floor.yaml's obstacle
  std::vector<std::string> overrides;
  if (lengths.size() != 4) {
    std::vector<double> start(lengths.size(), 90.0);
    overrides = {routh::cat("model.links=", lengths.size()),
                 routh::cat("model.length=", numbers(lengths)),
                 routh::cat("model.mass=", numbers(masses)),
                 routh::cat("initial.q=", numbers(start, " deg"))};
  }
  INFO("chain of ", lengths.size(), " links ", numbers(lengths));
  const ScenarioRun run = run_shipped_scenario("chain_on_floor.yaml", overrides);
  CHECK(run.outcome.status == RunStatus::completed);
  CHECK(run.outcome.final_state.t == run.scenario.settings.duration);
  REQUIRE(run.scenario.model->coordinate_count() == static_cast<int>(lengths.size()));
  // the formulas above assume absolute angles: the model's coordinates must be theta1 … thetan
  // and the effective scenario must say so
  CHECK(run.scenario.effective_yaml.find("angles: absolute") != std::string::npos);
  // released straight out along +x: the ends at the running sums of the lengths, at y = 0
  REQUIRE_FALSE(run.trajectory.samples.empty());
  const std::vector<Eigen::Vector2d> start = chain_ends(run.trajectory.samples.front().q, lengths);
  double reach = 0.0;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    reach += lengths[i];
    CHECK(start[i].x() == doctest::Approx(reach).epsilon(1e-15));
    CHECK(std::abs(start[i].y()) < 1e-15);
  }
  REQUIRE(reach > -kFloor);  // long enough to strike the floor

  CHECK(routh::test::first_non_finite_sample(run.trajectory).empty());
  double lowest = 0.0;
  std::string below;
  for (const auto& sample : run.trajectory.samples) {
    const std::vector<Eigen::Vector2d> ends = chain_ends(sample.q, lengths);
    for (std::size_t i = 0; i < ends.size(); ++i) {
      const double gap = ends[i].y() - kFloor;
      lowest = std::min(lowest, gap);
      if (gap < -kBelowTolerance && below.empty()) {
        below = routh::cat("end of link ", i + 1, " ", gap, " m below the floor at t = ", sample.t,
                           " s");
      }
    }
  }
  CHECK_MESSAGE(below.empty(), below);
  const std::size_t impacts = impact_times(run.trajectory).size();
  REQUIRE(impacts > 0);
  int checked = 0;
  const std::string rise = first_energy_rise_at_impact(run.trajectory, &checked);
  CHECK_MESSAGE(rise.empty(), rise);
  CHECK(checked == static_cast<int>(impacts));
  MESSAGE(lengths.size(), " links: ", impacts, " impact instants, ", run.trajectory.samples.size(),
          " samples, lowest end gap ", lowest, " m, energy ",
          run.trajectory.samples.front().energy.total(), " J -> ",
          run.trajectory.samples.back().energy.total(), " J");
}

}  // namespace

TEST_CASE("shipped chain_on_floor: link ends stay above the floor, impacts never add energy") {
  SUBCASE("the shipped four links") {
    check_chain_run({0.3, 0.25, 0.2, 0.15}, {0.4, 0.3, 0.2, 0.1});
  }
  SUBCASE("three links of different lengths") {
    check_chain_run({0.35, 0.25, 0.2}, {0.5, 0.3, 0.2});
  }
  SUBCASE("five links of different lengths") {
    check_chain_run({0.25, 0.2, 0.15, 0.12, 0.1}, {0.3, 0.25, 0.2, 0.15, 0.1});
  }
}

namespace {

// How deep a point p lies inside a rectangle of half-width b, half-height h centred at (x, y)
// and turned by θ [m]: in the rectangle's frame, (l_x, l_y) = R(−θ)(p − c) and the depth is
// min(b − |l_x|, h − |l_y|), positive inside, negative outside.
double depth_in_rectangle(const Eigen::Vector2d& p, double x, double y, double theta, double b,
                          double h) {
  const double c = std::cos(theta), s = std::sin(theta);
  const Eigen::Vector2d d = p - Eigen::Vector2d(x, y);
  const double lx = c * d.x() + s * d.y(), ly = -s * d.x() + c * d.y();
  return std::min(b - std::abs(lx), h - std::abs(ly));
}

int coordinate(const ScenarioRun& run, const std::string& name) {
  const int index = run.scenario.planar->coordinate_index(name);
  INFO("coordinate ", name);
  REQUIRE(index >= 0);
  return index;
}

// ---------------------------------------------------------------------------------------------
// overturning_block: 0.2 m × 1.0 m (b = 0.1, h = 0.5), released at rest on its left corner at 15°

constexpr double kOverturnB = 0.1, kOverturnH = 0.5;
const double kOverturnTheta0 = 15.0 * std::numbers::pi / 180.0;

// The block's fall with Coulomb friction at its left corner (μs = μk = μ), released at rest on
// it at θ₀: Newton's equations of the rectangle (m = 1, I = (b² + h²)/3 about the centre) with
// the corner r = R(θ)(−b, −h) kept on the floor. With A = b cos θ − h sin θ, B = b sin θ +
// h cos θ (so r = (−A, −B), y = B, ẏ = A θ̇, ÿ = A θ̈ − B θ̇²) and the floor's force (F, N) at the
// corner:  ẍ = F,  ÿ = N − g,  I θ̈ = r × (F, N) = −A N + B F.
//  - Sticking (the corner fixed, x = x_p + A): ẍ = −B θ̈ − A θ̇², and θ̈ = (3g / 4R) sin(θ − α)
//    (Housner); it lasts while |F| ≤ μ N.
//  - Sliding with F = −μ σ N (σ the sign of the corner's slip velocity u = ẋ + B θ̇):
//    I θ̈ = K N with K = −A − μ σ B and N = g + A θ̈ − B θ̇², so θ̈ = K (g − B θ̇²) / (I − K A).
// Classical RK4 in 1e-5 s steps from the onset, each switch (slip onset, θ = π/2) bisected on a
// re-integrated last step. The slide is checked to keep its direction and N > 0 (else this
// reference does not apply).
struct CornerFall {
  double slip_time = 0.0, overturn_time = 0.0;
  bool slip_keeps_direction = true, stays_pressed = true;
};

CornerFall corner_fall(double b, double h, double mu, double theta0) {
  const double inertia = (b * b + h * h) / 3.0, k = 3.0 * kGravity / (4.0 * std::hypot(b, h));
  const double alpha = std::atan(b / h);
  using State = Eigen::Vector3d;  // θ, θ̇, ẋ
  struct Forces {
    double theta_dd, F, N;
  };
  double sigma = 0.0;  // 0 while sticking
  const auto forces = [&](const State& s) {
    const double A = b * std::cos(s[0]) - h * std::sin(s[0]);
    const double B = b * std::sin(s[0]) + h * std::cos(s[0]);
    if (sigma == 0.0) {
      const double theta_dd = k * std::sin(s[0] - alpha);
      return Forces{theta_dd, -B * theta_dd - A * s[1] * s[1],
                    kGravity + A * theta_dd - B * s[1] * s[1]};
    }
    const double K = -A - mu * sigma * B;
    const double theta_dd = K * (kGravity - B * s[1] * s[1]) / (inertia - K * A);
    const double N = kGravity + A * theta_dd - B * s[1] * s[1];
    return Forces{theta_dd, -mu * sigma * N, N};
  };
  const auto rate = [&](const State& s) {
    const Forces f = forces(s);
    return State(s[1], f.theta_dd, f.F);
  };
  const auto step = [&](const State& s, double dt) -> State {
    const State k1 = rate(s), k2 = rate(s + 0.5 * dt * k1), k3 = rate(s + 0.5 * dt * k2),
                k4 = rate(s + dt * k3);
    return s + dt / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
  };
  // integrates from (t, s) until `crossed` holds, returns the bisected crossing time and state
  const auto advance = [&](double& t, State& s, const auto& crossed) {
    constexpr double kDt = 1e-5;
    while (!crossed(step(s, kDt))) {
      s = step(s, kDt);
      t += kDt;
      if (sigma != 0.0) {
        const double B = b * std::sin(s[0]) + h * std::cos(s[0]);
        if (sigma * (s[2] + B * s[1]) < 0.0) return false;
      }
      if (forces(s).N <= 0.0) return false;
    }
    double low = 0.0, high = kDt;
    for (int i = 0; i < 60; ++i) {
      const double middle = 0.5 * (low + high);
      (crossed(step(s, middle)) ? high : low) = middle;
    }
    s = step(s, high);
    t += high;
    return true;
  };
  CornerFall fall;
  State s(theta0, 0.0, 0.0);
  double t = 0.0;
  fall.stays_pressed = advance(t, s, [&](const State& x) {
    const Forces f = forces(x);
    return std::abs(f.F) > mu * f.N || x[0] >= 0.5 * std::numbers::pi;
  });
  if (!fall.stays_pressed) return fall;
  const Forces onset = forces(s);
  if (std::abs(onset.F) <= mu * onset.N) {  // on its side with the corner held: no slip
    fall.slip_time = std::numeric_limits<double>::infinity();
    fall.overturn_time = t;
    return fall;
  }
  fall.slip_time = t;
  sigma = onset.F > 0.0 ? -1.0 : 1.0;  // friction at its limit, opposing the slip
  fall.slip_keeps_direction =
      advance(t, s, [](const State& x) { return x[0] >= 0.5 * std::numbers::pi; });
  fall.stays_pressed = forces(s).N > 0.0;
  fall.overturn_time = t;
  return fall;
}

}  // namespace

TEST_CASE(
    "shipped overturning_block: it overturns and comes to rest on its side, above the floor") {
  const ScenarioRun run = run_shipped_scenario("overturning_block.yaml");
  CHECK(run.outcome.status == RunStatus::completed);
  CHECK(run.outcome.final_state.t == run.scenario.settings.duration);
  const int x = coordinate(run, "x"), y = coordinate(run, "y"), theta = coordinate(run, "theta");
  CHECK(run.outcome.summary.overturned);
  CHECK(run.outcome.summary.overturned_body == "block");
  const std::vector<double> overturns = run.trajectory.times_of(EventKind::overturn);
  REQUIRE(overturns.size() == 1);
  CHECK(run.outcome.summary.overturn_time == overturns.front());
  CHECK(routh::test::first_non_finite_sample(run.trajectory).empty());

  REQUIRE(run.trajectory.samples.size() > 2);
  double lowest = 1.0;
  std::string below;
  for (const auto& sample : run.trajectory.samples) {
    const auto corners =
        rectangle_corners(sample.q[x], sample.q[y], sample.q[theta], kOverturnB, kOverturnH);
    for (std::size_t k = 0; k < corners.size(); ++k) {
      lowest = std::min(lowest, corners[k].y());
      if (corners[k].y() < -kBelowTolerance && below.empty()) {
        below = routh::cat("corner ", k, " at ", corners[k].y(), " m at t = ", sample.t, " s");
      }
    }
  }
  CHECK_MESSAGE(below.empty(), below);
  CHECK(lowest < 1e-9);  // it does touch the floor (the left corner at the start)

  // at rest on its side: turned a quarter turn, its centre the half-width above the floor
  const Eigen::VectorXd& q = run.outcome.final_state.q;
  const Eigen::VectorXd& v = run.outcome.final_state.v;
  CHECK(std::abs(std::abs(q[theta]) - 0.5 * std::numbers::pi) < 1e-6);
  CHECK(std::abs(q[y] - kOverturnB) < 1e-6);
  CHECK(v.cwiseAbs().maxCoeff() < 1e-9);
  MESSAGE("overturned at ", overturns.front(), " s; at rest at θ = ", q[theta], " rad, y = ", q[y],
          " m, x = ", q[x], " m, max |v| = ", v.cwiseAbs().maxCoeff(), "; ", run.outcome.impacts,
          " impacts, lowest corner ", lowest, " m");
}

TEST_CASE(
    "shipped overturning_block: stop_on: [overturn] ends the run when the corner's stick-slip "
    "fall says") {
  const ScenarioRun run =
      run_shipped_scenario("overturning_block.yaml", {"events.stop_on=[overturn]"});
  REQUIRE(run.outcome.status == RunStatus::stopped_on_event);
  const std::vector<double> overturns = run.trajectory.times_of(EventKind::overturn);
  REQUIRE(overturns.size() == 1);
  CHECK(run.outcome.final_state.t == overturns.front());
  CHECK(run.trajectory.events.back().kind == EventKind::overturn);
  CHECK(run.trajectory.samples.back().t == overturns.front());
  // The shipped friction (0.7) cannot hold the corner all the way: it slips first, then slides
  // until the block lies on its side.
  const CornerFall fall = corner_fall(kOverturnB, kOverturnH, 0.7, kOverturnTheta0);
  REQUIRE(fall.stays_pressed);
  REQUIRE(fall.slip_keeps_direction);
  std::ostringstream log;
  for (const EventRecord& event : run.trajectory.events)
    log << routh::to_string(event.kind) << '@' << std::setprecision(15) << event.t << ' ';
  INFO("events: ", log.str());
  const std::vector<double> slips = run.trajectory.times_of(EventKind::slip);
  REQUIRE(slips.size() == 1);
  CHECK(std::abs(slips.front() - fall.slip_time) < 1e-8);
  CHECK(std::abs(overturns.front() - fall.overturn_time) < 1e-8);
  // Housner's equation alone (the corner held throughout) would overturn it earlier
  const double housner =
      routh::test::HousnerBlock{kOverturnB, kOverturnH, kGravity}.overturn_time(kOverturnTheta0);
  CHECK(overturns.front() - housner > 1e-3);
  MESSAGE(std::setprecision(15), "slip at ", slips.front(), " s (reference ", fall.slip_time,
          "), overturn at ", overturns.front(), " s (reference ", fall.overturn_time,
          "; Housner with the corner held: ", housner, " s); events: ", log.str());
}

TEST_CASE(
    "shipped overturning_block: with the corner held (μ = 1000), stop_on: [overturn] ends the "
    "run when Housner's equation says") {
  const ScenarioRun run = run_shipped_scenario(
      "overturning_block.yaml", {"events.stop_on=[overturn]", "contact.friction=1000"});
  REQUIRE(run.outcome.status == RunStatus::stopped_on_event);
  const std::vector<double> overturns = run.trajectory.times_of(EventKind::overturn);
  REQUIRE(overturns.size() == 1);
  CHECK(run.trajectory.events.front().kind == EventKind::overturn);  // nothing slipped before
  CHECK(run.outcome.final_state.t == overturns.front());
  const double expected =
      routh::test::HousnerBlock{kOverturnB, kOverturnH, kGravity}.overturn_time(kOverturnTheta0);
  // the stick-slip reference agrees when the corner never slips
  const CornerFall fall = corner_fall(kOverturnB, kOverturnH, 1000.0, kOverturnTheta0);
  REQUIRE(fall.stays_pressed);
  CHECK(std::isinf(fall.slip_time));
  CHECK(std::abs(fall.overturn_time - expected) < 1e-12);
  CHECK(std::abs(overturns.front() - expected) < 1e-8);
  MESSAGE(std::setprecision(15), "overturn at ", overturns.front(),
          " s; RK4 of Housner's equation: ", expected, " s");
}

TEST_CASE(
    "shipped two_disks: paper 000's example 2 as a running collision gives the printed and the "
    "closed-form velocities") {
  // Closed form (Shen & Townsend, paper 000, Example 2; tests/test_paper000_spheres.cpp for the
  // law alone). At the impact the line of centres is x, disk 2 to the right: n = +x; the contact
  // point is r x̂ from disk 1's centre and −r x̂ from disk 2's. Equal masses m = 1 kg, r = 0.04 m,
  // I = (2/5) m r². With impulse (P_n, P_t) on disk 2 along (x̂, ŷ) and its opposite on disk 1:
  //   normal:     u_n = v2x − v1x = −0.15 m/s, W_nn = 2/m; Poisson's compression ends at
  //               P_c = −u_n / W_nn = 0.075 N s, and the whole impulse is (1 + e) P_c;
  //   tangential: u_t = (v2y − r ω2) − (v1y + r ω1) = 0.44 − 0.15√3 m/s > 0, W_tt = 2/m + 2r²/I
  //               = 7/m, W_nt = 0; slip stops at P_n = u_t / (μ W_tt) = 0.0858 < 0.135 and,
  //               W_nt being 0, stays stopped (stick needs |W_nt| ≤ μ W_tt), so P_t = −u_t / W_tt.
  // Then v1 = v1⁻ − P/m, ω1 = ω1⁻ − r P_t / I, v2 = P/m, ω2 = −r P_t / I.
  constexpr double kMass = 1.0, kRadius = 0.04, kE = 0.8;
  const double inertia = 0.4 * kMass * kRadius * kRadius;
  const double v1x = 0.15, v1y = 0.15 * std::sqrt(3.0), omega1 = -11.0;
  const double slip = -(v1y + kRadius * omega1);
  const double normal = (1.0 + kE) * v1x / (2.0 / kMass);
  const double tangential = -slip / (2.0 / kMass + 2.0 * kRadius * kRadius / inertia);
  const std::array<double, 6> exact = {
      v1x - normal / kMass, v1y - tangential / kMass, omega1 - kRadius * tangential / inertia,
      normal / kMass,       tangential / kMass,       -kRadius * tangential / inertia};
  // the paper's printed numbers (cm/s scaled to m/s; ω in rad/s), and their decimals in SI
  const std::array<double, 6> printed = {0.015, 0.28555, -9.391, 0.135, -0.025742, 1.6089};
  const std::array<int, 6> decimals = {6, 5, 3, 6, 6, 4};

  const ScenarioRun run = run_shipped_scenario("two_disks.yaml");
  CHECK(run.outcome.status == RunStatus::completed);
  const std::array<int, 6> index = {coordinate(run, "disk1.x"),     coordinate(run, "disk1.y"),
                                    coordinate(run, "disk1.theta"), coordinate(run, "disk2.x"),
                                    coordinate(run, "disk2.y"),     coordinate(run, "disk2.theta")};
  // exactly one impact (the overturn events of the spinning disks are not asserted on here)
  const std::vector<double> impacts = run.trajectory.times_of(EventKind::impact);
  REQUIRE(impacts.size() == 1);
  CHECK(run.outcome.impacts == 1);
  // disk 1 reaches the contact at t = 0.1 s with the line of centres along x: d²(s) = 0.0064 −
  // 0.024 s + 0.09 s² (s = t − 0.1) first reaches (2r)² at s = 0
  CHECK(std::abs(impacts.front() - 0.1) < 1e-9);
  const SamplePair pair = samples_at(run.trajectory, impacts.front());
  REQUIRE(pair.before != std::string::npos);
  REQUIRE(pair.after > pair.before);
  const auto& before = run.trajectory.samples[pair.before];
  const auto& after = run.trajectory.samples[pair.after];
  CHECK(std::hypot(before.q[index[3]] - before.q[index[0]],
                   before.q[index[4]] - before.q[index[1]]) ==
        doctest::Approx(2.0 * kRadius).epsilon(1e-9));
  // every later sample keeps the post-impact velocities: nothing else acts (no gravity)
  const Eigen::VectorXd& v = run.outcome.final_state.v;
  CHECK((v - after.v).cwiseAbs().maxCoeff() < 1e-12);
  for (std::size_t k = 0; k < index.size(); ++k) {
    INFO("velocity ", run.scenario.model->coordinate_names()[static_cast<std::size_t>(index[k])]);
    CHECK(std::abs(after.v[index[k]] - exact[k]) < 1e-9);
    CHECK_PRINTED(after.v[index[k]], printed[k], decimals[k]);
  }
  // linear momentum of the pair (equal masses)
  for (const int axis : {0, 1}) {
    const double p_before = kMass * (before.v[index[axis]] + before.v[index[3 + axis]]);
    const double p_after = kMass * (after.v[index[axis]] + after.v[index[3 + axis]]);
    CHECK(std::abs(p_after - p_before) < 1e-12);
  }
  MESSAGE(std::setprecision(12), "impact at ", impacts.front(),
          " s; v after: ", after.v.transpose(), "; closed form: ", exact[0], " ", exact[1], " ",
          exact[2], " ", exact[3], " ", exact[4], " ", exact[5]);
}

namespace {

// A rectangle's vertex in its own frame, from the generated contact's vertex name (bottom_left,
// bottom_right, top_right, top_left: multibody_input.hpp's naming).
Eigen::Vector2d named_vertex(const std::string& vertex, double b, double h) {
  if (vertex == "bottom_left") return {-b, -h};
  if (vertex == "bottom_right") return {b, -h};
  if (vertex == "top_right") return {b, h};
  if (vertex == "top_left") return {-b, h};
  FAIL("unknown vertex ", vertex);
  return {};
}

bool ends_with(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() &&
         text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

TEST_CASE(
    "shipped stacked_blocks: the top block rocks, no corner enters the floor or the other block, "
    "and only the floor changes the stack's momentum at an impact") {
  // stacked_blocks.yaml: block1 (bottom) 0.6 × 0.3 m, 10 kg; block2 0.15 × 0.6 m, 1 kg
  const std::array<double, 2> b = {0.3, 0.075}, h = {0.15, 0.3}, mass = {10.0, 1.0};
  const ScenarioRun run = run_shipped_scenario("stacked_blocks.yaml");
  CHECK(run.outcome.status == RunStatus::completed);
  CHECK(run.outcome.final_state.t == run.scenario.settings.duration);
  std::array<std::array<int, 3>, 2> at{};
  for (int i = 0; i < 2; ++i) {
    const std::string name = routh::cat("block", i + 1);
    at[i] = {coordinate(run, name + ".x"), coordinate(run, name + ".y"),
             coordinate(run, name + ".theta")};
  }
  CHECK(routh::test::first_non_finite_sample(run.trajectory).empty());

  // the top block rocks: it lifts off a corner, and turns visibly
  CHECK_FALSE(run.trajectory.times_of(EventKind::uplift).empty());
  REQUIRE(run.trajectory.samples.size() > 2);
  double top_tilt = 0.0, bottom_tilt = 0.0, lowest = 1.0, deepest = -1.0;
  std::string below, inside;
  for (const auto& sample : run.trajectory.samples) {
    top_tilt = std::max(top_tilt, std::abs(sample.q[at[1][2]]));
    bottom_tilt = std::max(bottom_tilt, std::abs(sample.q[at[0][2]]));
    for (int i = 0; i < 2; ++i) {
      const int j = 1 - i;
      const auto corners =
          rectangle_corners(sample.q[at[i][0]], sample.q[at[i][1]], sample.q[at[i][2]], b[i], h[i]);
      for (std::size_t k = 0; k < corners.size(); ++k) {
        lowest = std::min(lowest, corners[k].y());
        if (corners[k].y() < -kBelowTolerance && below.empty()) {
          below = routh::cat("block", i + 1, " corner ", k, " at ", corners[k].y(),
                             " m, t = ", sample.t, " s");
        }
        const double depth = depth_in_rectangle(corners[k], sample.q[at[j][0]], sample.q[at[j][1]],
                                                sample.q[at[j][2]], b[j], h[j]);
        deepest = std::max(deepest, depth);
        if (depth > kBelowTolerance && inside.empty()) {
          inside = routh::cat("block", i + 1, " corner ", k, " ", depth, " m inside block", j + 1,
                              " at t = ", sample.t, " s");
        }
      }
    }
  }
  CHECK_MESSAGE(below.empty(), below);
  CHECK_MESSAGE(inside.empty(), inside);
  CHECK(top_tilt > 0.05);                    // [rad], about 3°
  CHECK(top_tilt < 0.5 * std::numbers::pi);  // it does not topple (the scenario's claim)

  // Momentum at each impact (coordinates relative to the shaken ground: the excitation is a finite
  // force, so it does not change the momentum across an instant). P = Σ m_i (ẋ_i, ẏ_i); its jump
  // is the floor contacts' impulses, Γ_n along the floor's normal +y and Γ_t along its tangent +x
  // (planar_contact_geometry.hpp: t = n turned clockwise), per contact normal first
  // (event_record.hpp); the impulses between the blocks cancel in pairs.
  const std::vector<double> times = impact_times(run.trajectory);
  REQUIRE_FALSE(times.empty());
  const auto& names = run.scenario.model->contact_names();
  int floor_impulses = 0, free_of_floor = 0;
  double worst = 0.0;
  for (const double t : times) {
    const SamplePair pair = samples_at(run.trajectory, t);
    REQUIRE(pair.before != std::string::npos);
    REQUIRE(pair.after > pair.before);
    const auto& before = run.trajectory.samples[pair.before];
    const auto& after = run.trajectory.samples[pair.after];
    Eigen::Vector2d jump = Eigen::Vector2d::Zero(), floor = Eigen::Vector2d::Zero();
    for (int i = 0; i < 2; ++i) {
      jump.x() += mass[i] * (after.v[at[i][0]] - before.v[at[i][0]]);
      jump.y() += mass[i] * (after.v[at[i][1]] - before.v[at[i][1]]);
    }
    bool floor_pushed = false;
    double residual = 0.0;  // [m/s] the law's largest |u⁺| below the rest speed
    for (const EventRecord* event : routh::test::events_at(run.trajectory, t)) {
      if (event->kind != EventKind::impact) continue;
      REQUIRE(event->impulse.size() == 2 * event->contacts.size());
      for (const double u : event->u_post) {
        if (std::abs(u) < kRestSpeed) residual = std::max(residual, std::abs(u));
      }
      for (std::size_t c = 0; c < event->contacts.size(); ++c) {
        const std::string& name = names[static_cast<std::size_t>(event->contacts[c])];
        if (!ends_with(name, "/floor")) continue;
        floor += Eigen::Vector2d(event->impulse[2 * c + 1], event->impulse[2 * c]);
        floor_pushed = floor_pushed || event->impulse[2 * c] != 0.0;
        ++floor_impulses;
        // the layout, checked against this file's geometry: the contact's pre-impact normal and
        // tangential velocities are the vertex's ẏ and ẋ (v + ω × r)
        const std::size_t dot = name.find('.'), slash = name.find('/');
        const int body = name.substr(0, dot) == "block1" ? 0 : 1;
        const Eigen::Vector2d local =
            named_vertex(name.substr(dot + 1, slash - dot - 1), b[body], h[body]);
        const double th = before.q[at[body][2]], omega = before.v[at[body][2]];
        const Eigen::Vector2d r(local.x() * std::cos(th) - local.y() * std::sin(th),
                                local.x() * std::sin(th) + local.y() * std::cos(th));
        const Eigen::Vector2d point_velocity(before.v[at[body][0]] - omega * r.y(),
                                             before.v[at[body][1]] + omega * r.x());
        INFO("contact ", name, " at t = ", t, " s");
        CHECK(std::abs(event->u_pre[2 * c] - point_velocity.y()) < 1e-9);
        CHECK(std::abs(event->u_pre[2 * c + 1] - point_velocity.x()) < 1e-9);
      }
    }
    if (!floor_pushed) ++free_of_floor;
    // Settling after the impact projects v onto the constraints of the contacts it closed, in the
    // kinetic metric (docs/simulation.md §3): that removes the law's residual there (its |u⁺|
    // below the rest speed, 5e-12 m/s at most here: the sticking contact's round-off) with an
    // impulse the event does not record, of momentum at most (m₁ + m₂) × residual. Beyond that,
    // round-off: the momenta and impulses are below 1 N s, so 1e-12 N s is ~1e4 ulps.
    const double tolerance =
        (mass[0] + mass[1]) * residual + 1e-12 * (1.0 + floor.cwiseAbs().maxCoeff());
    worst = std::max(worst, (jump - floor).cwiseAbs().maxCoeff());
    INFO("impact at t = ", t, " s: ΔP = ", jump.transpose(), ", floor impulse ", floor.transpose(),
         ", law's residual ", residual, " m/s");
    CHECK((jump - floor).cwiseAbs().maxCoeff() < tolerance);
  }
  CHECK(floor_impulses > 0);  // the layout checks above did run
  MESSAGE(times.size(), " impact instants (", free_of_floor, " without floor impulse, ",
          floor_impulses, " floor-contact impulses); worst momentum imbalance ", worst,
          " N s; max |θ_top| = ", top_tilt, " rad, max |θ_bottom| = ", bottom_tilt,
          " rad; lowest corner ", lowest, " m; deepest corner in the other block ", deepest, " m");
}

TEST_CASE(
    "shipped pendulum_strikes_block: the tip meets the block when the rigid pendulum's equation "
    "says, and the block stays on the floor") {
  // A uniform rod, L = 0.9 m, m = 1 kg, pivoting about its end (I_O = m L²/3): I_O θ̈ = −m g
  // (L/2) sin θ, i.e. θ̈ = −(3g / 2L) sin θ, released at rest at θ = −π/2. Its tip is at (L sin θ,
  // 1 − L cos θ) and meets the block's left face x = 0.15 − 0.1 = 0.05 m at sin θ* = 0.05/L
  // (the scenario's header). Classical RK4 with steps of 1e-5 s, the crossing bisected on a
  // re-integrated last step.
  constexpr double kLength = 0.9, kFace = 0.05;
  const double theta_star = std::asin(kFace / kLength);
  const auto f = [](const Eigen::Vector2d& s) {
    return Eigen::Vector2d(s[1], -1.5 * kGravity / kLength * std::sin(s[0]));
  };
  const auto step = [&](const Eigen::Vector2d& s, double dt) -> Eigen::Vector2d {
    const Eigen::Vector2d k1 = f(s), k2 = f(s + 0.5 * dt * k1), k3 = f(s + 0.5 * dt * k2),
                          k4 = f(s + dt * k3);
    return s + dt / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
  };
  constexpr double kDt = 1e-5;
  Eigen::Vector2d state(-0.5 * std::numbers::pi, 0.0);
  double expected = 0.0;
  while (step(state, kDt)[0] < theta_star) {
    state = step(state, kDt);
    expected += kDt;
  }
  double low = 0.0, high = kDt;
  for (int i = 0; i < 60; ++i) {
    const double middle = 0.5 * (low + high);
    (step(state, middle)[0] < theta_star ? low : high) = middle;
  }
  expected += 0.5 * (low + high);

  // e = 0.5 once ended in an event storm at 0.71 s: the rod's line swept past a block corner
  // round its end, and that contact's gap jumped from +0.42 m to −0.43 m (event_scan.hpp,
  // crossing_is_no_landing)
  for (const std::string restitution : {"0.2", "0.5", "0.8"}) {
    CAPTURE(restitution);
    const ScenarioRun run =
        run_shipped_scenario("pendulum_strikes_block.yaml", {"contact.restitution=" + restitution});
    CHECK(run.outcome.status == RunStatus::completed);
    CHECK(run.outcome.final_state.t == run.scenario.settings.duration);
    const int theta = coordinate(run, "pendulum.theta"), x = coordinate(run, "block.x"),
              y = coordinate(run, "block.y"), turn = coordinate(run, "block.theta");
    CHECK(routh::test::first_non_finite_sample(run.trajectory).empty());
    const auto& names = run.scenario.model->contact_names();
    const EventRecord* strike = nullptr;
    for (const EventRecord& event : run.trajectory.events) {
      if (event.kind != EventKind::impact) continue;
      for (const int k : event.contacts) {
        const std::string& name = names[static_cast<std::size_t>(k)];
        if (name.find("pendulum") != std::string::npos && name.find("block") != std::string::npos)
          strike = &event;
      }
      if (strike) break;
    }
    REQUIRE(strike != nullptr);
    CHECK(std::abs(strike->t - expected) < 1e-8);
    const SamplePair pair = samples_at(run.trajectory, strike->t);
    REQUIRE(pair.before != std::string::npos);
    const auto& at_strike = run.trajectory.samples[pair.before];
    CHECK(std::abs(at_strike.q[theta] - theta_star) < 1e-8);
    // the tip on the face, the block still where it was put
    CHECK(std::abs(kLength * std::sin(at_strike.q[theta]) - kFace) < 1e-9);
    CHECK(std::abs(at_strike.q[x] - 0.15) < 1e-12);

    double lowest = 1.0, deepest = -1.0;
    std::string below;
    REQUIRE(run.trajectory.samples.size() > 2);
    for (const auto& sample : run.trajectory.samples) {
      for (const Eigen::Vector2d& corner :
           rectangle_corners(sample.q[x], sample.q[y], sample.q[turn], 0.1, 0.2)) {
        lowest = std::min(lowest, corner.y());
        if (corner.y() < -kBelowTolerance && below.empty()) {
          below = routh::cat("block corner at ", corner.y(), " m, t = ", sample.t, " s");
        }
      }
      const Eigen::Vector2d tip(kLength * std::sin(sample.q[theta]),
                                1.0 - kLength * std::cos(sample.q[theta]));
      deepest = std::max(
          deepest, depth_in_rectangle(tip, sample.q[x], sample.q[y], sample.q[turn], 0.1, 0.2));
    }
    CHECK_MESSAGE(below.empty(), below);
    CHECK(deepest <= kBelowTolerance);
    MESSAGE(std::setprecision(15), "first strike at ", strike->t, " s (RK4: ", expected,
            " s) at θ = ", at_strike.q[theta], " rad (closed form ", theta_star, "); ",
            run.outcome.impacts, " impacts; lowest block corner ", lowest,
            " m; deepest tip in the block ", deepest, " m");
  }
}

namespace {

// ---------------------------------------------------------------------------------------------
// Named stacks: statue_on_plinth, towers_grid, multi_drum_column, wall

/// A named block of a stacked_blocks scenario: its coordinates' indices and its half-sizes [m].
struct NamedBlock {
  std::string name;
  int x, y, theta;
  double b, h;
};

// The blocks of `run`'s stack, from the names, widths and heights its effective scenario lists
// (the scenario file's own values, every default filled in).
std::vector<NamedBlock> named_blocks(const ScenarioRun& run) {
  const YAML::Node model = YAML::Load(run.scenario.effective_yaml)["model"];
  const auto blocks = model["blocks"].as<std::size_t>();
  const auto per_block = [&](const char* key) {
    const YAML::Node node = model[key];
    std::vector<double> values;
    for (std::size_t i = 0; i < blocks; ++i) {
      values.push_back(node.IsSequence() ? node[i].as<double>() : node.as<double>());
    }
    return values;
  };
  const std::vector<double> widths = per_block("width"), heights = per_block("height");
  std::vector<NamedBlock> named;
  for (std::size_t i = 0; i < blocks; ++i) {
    const auto name = model["names"][i].as<std::string>();
    named.push_back({name, coordinate(run, name + ".x"), coordinate(run, name + ".y"),
                     coordinate(run, name + ".theta"), 0.5 * widths[i], 0.5 * heights[i]});
  }
  return named;
}

// "" if no corner of any block lies below the floor y = 0 or inside another block, by more than
// kBelowTolerance, in any sample; else the first such corner.
std::string first_corner_inside(const ScenarioRun& run, const std::vector<NamedBlock>& blocks) {
  for (const auto& sample : run.trajectory.samples) {
    for (const NamedBlock& block : blocks) {
      const auto corners = rectangle_corners(sample.q[block.x], sample.q[block.y],
                                             sample.q[block.theta], block.b, block.h);
      for (const Eigen::Vector2d& corner : corners) {
        if (corner.y() < -kBelowTolerance) {
          return routh::cat(block.name, " corner ", corner.y(),
                            " m below the floor at t = ", sample.t, " s");
        }
        for (const NamedBlock& other : blocks) {
          if (&other == &block) continue;
          const double depth = depth_in_rectangle(corner, sample.q[other.x], sample.q[other.y],
                                                  sample.q[other.theta], other.b, other.h);
          if (depth > kBelowTolerance) {
            return routh::cat(block.name, " corner ", depth, " m inside ", other.name,
                              " at t = ", sample.t, " s");
          }
        }
      }
    }
  }
  return "";
}

// max over the samples of |coordinate − its initial value|.
double largest_change(const ScenarioRun& run, int coordinate_index) {
  const double start = run.trajectory.samples.front().q[coordinate_index];
  double largest = 0.0;
  for (const auto& sample : run.trajectory.samples) {
    largest = std::max(largest, std::abs(sample.q[coordinate_index] - start));
  }
  return largest;
}

const NamedBlock& block_named(const std::vector<NamedBlock>& blocks, const std::string& name) {
  const auto found = std::find_if(blocks.begin(), blocks.end(),
                                  [&](const NamedBlock& block) { return block.name == name; });
  REQUIRE_MESSAGE(found != blocks.end(), name);
  return *found;
}

// Whether the test of the shipped scenario `file` is skipped: while it is in
// test::kNotYetRunning, which says why.
bool skipped_today(const char* file) { return routh::test::not_yet_running(file); }

}  // namespace

TEST_CASE(
    "shipped statue_on_plinth: the named statue rocks on its plinth once the record exceeds "
    "g b/h, the plinth stays put, nothing sinks, impacts never add energy") {
  const ScenarioRun run = run_shipped_scenario("statue_on_plinth.yaml");
  CHECK(run.outcome.status == RunStatus::completed);
  CHECK(run.outcome.final_state.t == run.scenario.settings.duration);
  CHECK(routh::test::first_non_finite_sample(run.trajectory).empty());
  const std::vector<NamedBlock> blocks = named_blocks(run);
  REQUIRE(blocks.size() == 2);
  const NamedBlock &plinth = blocks[0], &statue = blocks[1];
  CHECK(plinth.name == "plinth");
  CHECK(statue.name == "statue");
  // the contacts are named after the blocks
  const auto& names = run.scenario.model->contact_names();
  CHECK(std::find(names.begin(), names.end(), "statue.bottom_left/plinth.top") != names.end());
  const std::string inside = first_corner_inside(run, blocks);
  CHECK_MESSAGE(inside.empty(), inside);

  // Housner (1963): a block on a base that moves with the ground lifts off a corner only once
  // |a_g| reaches g b/h. The plinth moves with the ground (below), so the statue's first uplift
  // comes after the record first reaches g b/h, and it comes: the record's PGA is 0.35 g.
  const std::vector<double> uplifts = run.trajectory.times_of(EventKind::uplift);
  REQUIRE_FALSE(uplifts.empty());
  const double threshold = kGravity * statue.b / statue.h;  // [m/s²]
  double largest_before = 0.0;                              // max |a_g| before the uplift
  for (double t = 0.0; t <= uplifts.front(); t += 1e-3) {
    largest_before =
        std::max(largest_before, std::abs(run.scenario.planar->ground_acceleration(t).x()));
  }
  largest_before = std::max(
      largest_before, std::abs(run.scenario.planar->ground_acceleration(uplifts.front()).x()));
  // the record is linear between its 0.01 s samples, so sampling it every 1e-3 s and at the uplift
  // finds its maximum to the change of a_g over 1e-3 s (below 1e-2 m/s² here)
  CHECK(largest_before >= threshold * (1.0 - 1e-3));
  CHECK(largest_change(run, statue.theta) > 1e-3);  // [rad]: it visibly rocks
  // the plinth neither rocks (it would need ~0.7 g) nor slides (μ g = 0.6 g): its coordinates,
  // relative to the ground, keep their initial values to round-off and drift projection
  CHECK(largest_change(run, plinth.theta) < 1e-9);
  CHECK(largest_change(run, plinth.x) < 1e-9);
  CHECK(largest_change(run, plinth.y) < 1e-9);
  CHECK_FALSE(run.outcome.summary.overturned);
  int checked = 0;
  const std::string rise = first_energy_rise_at_impact(run.trajectory, &checked);
  CHECK_MESSAGE(rise.empty(), rise);
  CHECK(checked > 0);
  MESSAGE(run.outcome.impacts, " impacts; statue uplift at ", uplifts.front(),
          " s, max |θ_statue| ", largest_change(run, statue.theta),
          " rad (α = ", std::atan(statue.b / statue.h), " rad)");
}

TEST_CASE(
    "shipped towers_grid: the statues above their uplift threshold rock, those below stay put, "
    "and each tower does what it does alone") {
  const ScenarioRun run = run_shipped_scenario("towers_grid.yaml");
  CHECK(run.outcome.status == RunStatus::completed);
  CHECK(run.outcome.final_state.t == run.scenario.settings.duration);
  CHECK(routh::test::first_non_finite_sample(run.trajectory).empty());
  const std::vector<NamedBlock> blocks = named_blocks(run);
  REQUIRE(blocks.size() == 18);
  const std::string inside = first_corner_inside(run, blocks);
  CHECK_MESSAGE(inside.empty(), inside);
  // the pulse's peak, 0.3 g (the scenario's excitation), against each statue's g b/h (Housner)
  constexpr double kPeak = 0.3 * 9.80665;  // [m/s²]
  for (const char* size : {"1", "2", "3"}) {
    for (const char* slenderness : {"a", "b", "c"}) {
      const NamedBlock& statue = block_named(blocks, routh::cat("statue_", slenderness, size));
      const NamedBlock& plinth = block_named(blocks, routh::cat("plinth_", slenderness, size));
      CAPTURE(statue.name);
      const double threshold = kGravity * statue.b / statue.h;
      if (kPeak < threshold) {
        // below its threshold: it never lifts off, nor does its plinth, and below μ g nothing
        // slides: the tower moves with the ground
        CHECK(largest_change(run, statue.theta) < 1e-9);
        CHECK(largest_change(run, plinth.theta) < 1e-9);
        CHECK(largest_change(run, statue.x) < 1e-9);
        CHECK(largest_change(run, plinth.x) < 1e-9);
      } else {
        CHECK(largest_change(run, statue.theta) > 1e-3);
      }
    }
  }
  // Separate towers never touch while their statues stand, so a tower whose statue does not
  // overturn moves as it would alone: tower b2, run on its own with the same pulse, gives the same
  // statue rocking to the integrator's tolerance (its steps differ: the other towers' events end
  // steps in the grid's run).
  const NamedBlock& statue = block_named(blocks, "statue_b2");
  const ScenarioRun alone = run_shipped_scenario(
      "towers_grid.yaml",
      {"model.blocks=2", "model.names=[plinth_b2, statue_b2]", "model.width=[0.6, 0.225]",
       "model.height=[0.8, 0.9]", "model.mass=[388.8, 164.0]",
       "initial.q={plinth_b2.x: 8, statue_b2.x: 8}"});
  CHECK(alone.outcome.status == RunStatus::completed);
  const double grid_tilt = largest_change(run, statue.theta);
  const double alone_tilt = largest_change(alone, coordinate(alone, "statue_b2.theta"));
  CHECK(grid_tilt == doctest::Approx(alone_tilt).epsilon(1e-3));
  std::string overturned;
  for (const NamedBlock& block : blocks) {
    if (block.name.starts_with("statue") &&
        largest_change(run, block.theta) > 0.5 * std::numbers::pi)
      overturned += " " + block.name;
  }
  MESSAGE(run.outcome.impacts, " impacts; statue_b2 max |θ| ", grid_tilt, " rad in the grid, ",
          alone_tilt, " rad alone; overturned:", overturned.empty() ? " none" : overturned);
}

TEST_CASE(
    "shipped multi_drum_column: the drums rock and their joints open, none sinks, the "
    "column stands" *
    doctest::skip(skipped_today("multi_drum_column.yaml"))) {
  const ScenarioRun run = run_shipped_scenario("multi_drum_column.yaml");
  CHECK(run.outcome.status == RunStatus::completed);
  CHECK(run.outcome.final_state.t == run.scenario.settings.duration);
  CHECK(routh::test::first_non_finite_sample(run.trajectory).empty());
  const std::vector<NamedBlock> drums = named_blocks(run);
  REQUIRE(drums.size() == 12);
  const std::string inside = first_corner_inside(run, drums);
  CHECK_MESSAGE(inside.empty(), inside);
  // the column rocks: 0.25 g exceeds its g D/H = 0.11 g (Housner, the column as one block)
  CHECK(largest_change(run, drums.front().theta) > 1e-3);
  // and it is not one block: some joint opens, two neighbouring drums turned apart by 1e-3 rad
  double widest = 0.0;
  for (const auto& sample : run.trajectory.samples) {
    for (std::size_t k = 1; k < drums.size(); ++k) {
      widest = std::max(widest, std::abs(sample.q[drums[k].theta] - sample.q[drums[k - 1].theta]));
    }
  }
  CHECK(widest > 1e-3);
  CHECK_FALSE(run.outcome.summary.overturned);
  MESSAGE(run.outcome.impacts, " impacts; widest joint ", widest, " rad");
}

TEST_CASE("shipped wall: the running-bond wall rides the record as one body, no stone moves" *
          doctest::skip(skipped_today("wall.yaml"))) {
  const ScenarioRun run = run_shipped_scenario("wall.yaml");
  CHECK(run.outcome.status == RunStatus::completed);
  CHECK(run.outcome.final_state.t == run.scenario.settings.duration);
  const std::vector<NamedBlock> stones = named_blocks(run);
  REQUIRE(stones.size() == 22);
  // below μ g and every rocking threshold (the scenario's header): every contact stays closed
  // and sticking, so no impact, and each stone keeps its place relative to the ground
  CHECK(run.outcome.impacts == 0);
  for (const NamedBlock& stone : stones) {
    CAPTURE(stone.name);
    CHECK(largest_change(run, stone.x) < 1e-9);
    CHECK(largest_change(run, stone.y) < 1e-9);
    CHECK(largest_change(run, stone.theta) < 1e-9);
  }
}
