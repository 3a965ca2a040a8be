// A spatial contact that starts to slip from rest at the edge of its friction cone: its slip grows
// from zero, and its direction, stiff while the slip is small (aligned_slip.hpp), must not hold
// the integrator back. A ball resting on a smaller, heavier ball that rolls on the floor: the
// ball–ball contact sticks, then starts to slip at t ≈ 0.01533 s; the run once crawled there at
// steps of 6e-11 s (0.01533 → 0.0155 s of simulation: 47 s of wall time), following a slip
// direction that turned at 1e10 rad/s at a slip of 1e-10 m/s.
//
// The run must complete within a wall-clock limit, log that one slip event, and never raise the
// total energy above its start beyond the integrator's error: friction and the contacts only
// dissipate (Coulomb's friction opposes the slip). The energy is computed here from q and v:
// T = Σ ½ m |v|² + ½ (2/5 m r²) |ω|² for solid spheres, V = Σ m g z.

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "sim/scenario/scenario_file.hpp"
#include "support/scenario_run.hpp"
#include "support/scratch_files.hpp"

namespace routh {
namespace {

constexpr double kGravity = 9.81;              // [m/s²], the scenario's default
constexpr double kWallTimeLimit = 5.0;         // [s]: a regression stops here instead of hanging
constexpr double kEnergyDriftRelative = 1e-8;  // the integrator's error over the run

const char* const kBallOnBall = R"(name: ball_on_ball_slip_onset
duration: 0.02
model:
  dimension: 3
  bodies:
    - {name: b1, mass: 1.1190108166083057, shape: {sphere: {radius: 0.028507280862636493}}}
    - {name: b2, mass: 0.20349944590185942, shape: {sphere: {radius: 0.07072585104834897}}}
  obstacles:
    - {type: plane, point: [0, 0, 0], normal: [0, 0, 1]}
initial:
  q: {b1.x: -0.026240415940560816, b1.y: -0.17374583884632938, b1.z: 0.028507280862636493, b1.orientation: [-0.2908483332756913, 0.7190079754488417, 0.6096726151233627, 0.1635055975512829], b2.x: -0.07184045002307175, b2.y: -0.2432913079855838, b2.z: 0.08264856901445211, b2.orientation: [0.4233617866129024, -0.8784646208970408, -0.05355911382756815, -0.21493284709883803]}
  v: {b1.vx: 0.5387974593947412, b1.vy: -1.0217718167196579, b1.vz: -1.035889932503412e-17, b1.wx: -0.7472072074358931, b1.wy: 41.64240048609907, b1.wz: 37.44158720829863, b2.vx: 0.27505499037461467, b2.vy: -1.101328658912674, b2.vz: -0.3243270356006477, b2.wx: -3.615316260206674, b2.wy: -5.6495493676326465, b2.wz: -26.242468097411333}
contact: {law: sliding_ode_energetic, restitution: 0.056301277086640435, friction: 0.97332295968254456}
output: {rate: 50}
)";

struct Ball {
  std::string name;
  double mass, radius;  // [kg], [m]
};

const std::array<Ball, 2> kBalls = {{{"b1", 1.1190108166083057, 0.028507280862636493},
                                     {"b2", 0.20349944590185942, 0.07072585104834897}}};

int index_of(const std::vector<std::string>& names, const std::string& name) {
  return static_cast<int>(std::find(names.begin(), names.end(), name) - names.begin());
}

// T + V of the two balls at (q, v), from their masses and radii above [J].
double ball_energy(const MechanicalSystem& model, const Eigen::VectorXd& q,
                   const Eigen::VectorXd& v) {
  double energy = 0.0;
  for (const Ball& ball : kBalls) {
    const int z = index_of(model.coordinate_names(), ball.name + ".z");
    const int velocity = index_of(model.velocity_names(), ball.name + ".vx");
    const double inertia = 0.4 * ball.mass * ball.radius * ball.radius;
    energy += 0.5 * ball.mass * v.segment<3>(velocity).squaredNorm() +
              0.5 * inertia * v.segment<3>(velocity + 3).squaredNorm() +
              ball.mass * kGravity * q[z];
  }
  return energy;
}

}  // namespace

TEST_CASE("spatial slip onset: a ball on a rolling ball starts to slip without crawling") {
  // Its slip grows from zero acceleration at the cone's edge, and while it is slow its direction
  // is stiff (aligned_slip.hpp): followed as u_t/|u_t| it took 47 s of wall time at steps of
  // 6e-11 s; aligned with its acceleration it takes milliseconds.
  test::ScenarioRun run{
      load_scenario(test::write_problem(kBallOnBall, "ball_on_ball_slip_onset.yaml")), {}, {}};
  run.scenario.settings.wall_time_limit = kWallTimeLimit;
  run.outcome =
      simulate(*run.scenario.model, run.scenario.initial, run.scenario.settings, run.trajectory);
  REQUIRE(run.outcome.status == RunStatus::completed);
  REQUIRE(run.trajectory.events.size() == 1);
  CHECK(run.trajectory.events.front().kind == EventKind::slip);
  CHECK(run.trajectory.events.front().t == doctest::Approx(0.01533).epsilon(1e-3));
  const MechanicalSystem& model = *run.scenario.model;
  const double start = ball_energy(model, run.scenario.initial.q, run.scenario.initial.v);
  for (const auto& sample : run.trajectory.samples) {
    CAPTURE(sample.t);
    CHECK(ball_energy(model, sample.q, sample.v) <= start * (1.0 + kEnergyDriftRelative));
  }
}

}  // namespace routh
