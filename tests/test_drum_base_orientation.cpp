// A drum standing on its base under a slow ground pulse, at several yaws about its axis, against
// the quasi-static closed form of a disk's uplift (sim/simulation/base_orientation.hpp).
//
// A cylinder of radius ρ and height h standing on its base, at rest relative to a ground that
// accelerates at a_g(t) along x, carries its weight m g and the inertial load −m a_g at its centre
// of mass h/2 above the base. While it stays at rest (sticking, no dynamic terms) the moments about
// the base's centre put the centre of pressure of the floor's normal load at
//     c = (h/2) a_g / g   (opposite to a_g),
// and the base, a disk, holds while c lies inside it: the drum uplifts where c reaches the rim,
//     a_g(t*) = g · 2ρ/h,
// Housner's tipping threshold for a block of half-width ρ ("The behavior of inverted pendulum
// structures during earthquakes", 1963), whatever the drum's yaw: a disk has no preferred
// direction. For the sine pulse a_g = A sin(2π (t − t₀)/T) (docs/excitation.md) of amplitude
// A > g · 2ρ/h that is t* = t₀ + (T/2π) asin(g · 2ρ / (h A)); of A < g · 2ρ/h, never. The square
// of four rim points that carries the base in the model must give the same: turned toward the
// load, it reaches the rim (held as a square, a drum yawed by 45° uplifted at g · √2ρ/h).

#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <numbers>
#include <string>

#include "sim/simulation/run_status.hpp"
#include "support/scenario_run.hpp"
#include "support/scratch_files.hpp"

namespace {

constexpr double kRadius = 0.25, kHeight = 1.5, kGravity = 9.81;
constexpr double kStart = 0.1, kPeriod = 4.0;  // the pulse's t₀ and T [s]: a_g turns in 1 s
constexpr double kYawsDeg[] = {0.0, 22.5, 45.0, 70.0};

double threshold() { return kGravity * 2.0 * kRadius / kHeight; }  // g · 2ρ/h [m/s²]

routh::test::ScenarioRun drum_run(double yaw_deg, double amplitude) {
  const std::string yaml =
      "name: drum_on_its_base\n"
      "duration: 1.6\n"
      "model:\n"
      "  dimension: 3\n"
      "  bodies:\n"
      "    - name: drum\n"
      "      mass: 100.0\n"
      "      shape: {cylinder: {radius: " +
      std::to_string(kRadius) + ", height: " + std::to_string(kHeight) +
      "}}\n"
      "  obstacles:\n"
      "    - {type: plane, name: floor, point: [0, 0, 0], normal: [0, 0, 1]}\n"
      "initial:\n"
      "  q: {drum.z: " +
      std::to_string(kHeight / 2) + ", drum.orientation: {rpy: [0, 0, " + std::to_string(yaw_deg) +
      " deg]}}\n"
      "excitation:\n"
      "  - pulse: {shape: sine, amplitude: " +
      std::to_string(amplitude) + ", period: " + std::to_string(kPeriod) +
      ", direction: x, start: " + std::to_string(kStart) +
      ", cycles: 1}\n"
      "contact:\n"
      "  law: lcp\n"
      "  restitution: 0.0\n"
      "  friction: 0.9\n"
      "output:\n"
      "  rate: 20\n";
  return routh::test::run_scenario_file(routh::test::write_problem(yaml, "drum_on_its_base.yaml"));
}

// The drum's tilt from upright at the run's end [rad].
double final_tilt(const routh::test::ScenarioRun& run) {
  const Eigen::VectorXd& q = run.outcome.final_state.q;
  const Eigen::Quaterniond turn(q[3], q[4], q[5], q[6]);
  return std::acos(std::min(1.0, (turn.normalized() * Eigen::Vector3d::UnitZ()).z()));
}

}  // namespace

TEST_CASE("spatial drum on its base: below the disk's threshold it never uplifts, at any yaw") {
  for (const double yaw : kYawsDeg) {
    CAPTURE(yaw);
    const routh::test::ScenarioRun run = drum_run(yaw, 0.9 * threshold());
    CHECK(run.outcome.status == routh::RunStatus::completed);
    CHECK(std::isnan(run.outcome.summary.uplift_time));
    CHECK(run.outcome.impacts == 0);
    CHECK(final_tilt(run) < 1e-9);
  }
}

TEST_CASE("spatial drum on its base: above the disk's threshold it uplifts on time, at any yaw") {
  const double amplitude = 1.1 * threshold();
  const double uplift =
      kStart + kPeriod / (2.0 * std::numbers::pi) * std::asin(threshold() / amplitude);
  double first_tilt = -1.0;
  for (const double yaw : kYawsDeg) {
    CAPTURE(yaw);
    const routh::test::ScenarioRun run = drum_run(yaw, amplitude);
    CHECK(run.outcome.status == routh::RunStatus::completed);
    // at rest until then, the drum meets the static closed form up to the event's location on
    // the dense output and the base turn's tolerance (1e-6 of ρ): a_g at the uplift within 1e-6
    // of the threshold, 2e-6 s at the pulse's slope there
    const double t = run.outcome.summary.uplift_time;
    const double a_g = amplitude * std::sin(2.0 * std::numbers::pi * (t - kStart) / kPeriod);
    CHECK(a_g == doctest::Approx(threshold()).epsilon(1e-6));
    CHECK(t == doctest::Approx(uplift).epsilon(1e-6));
    // and rocks alike: the same tilt at the end, whatever its yaw
    if (first_tilt < 0.0) first_tilt = final_tilt(run);
    CHECK(final_tilt(run) > 1e-3);
    CHECK(final_tilt(run) == doctest::Approx(first_tilt).epsilon(1e-6));
  }
}

TEST_CASE("spatial drum on its base: yawed by 45 deg under 2.8 m/s^2 it stays on its base") {
  // the scene that uplifted at g · √2ρ/h = 2.33 m/s², chattered on 79 impacts and ended in
  // Painlevé's paradox while its square was held along the body axes
  const routh::test::ScenarioRun run = drum_run(45.0, 2.8);
  CHECK(run.outcome.status == routh::RunStatus::completed);
  CHECK(std::isnan(run.outcome.summary.uplift_time));
  CHECK(run.outcome.impacts == 0);
}
