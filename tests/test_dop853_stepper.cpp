// DOP853 (sim/simulation/dop853_stepper.hpp) against closed forms, and against dopri5 at the
// same tolerances: it must be at least as accurate, in fewer evaluations.

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "sim/simulation/ode_state.hpp"

namespace {

using routh::DenseStepper;
using routh::IntegratorStepper;
using routh::OdeState;

// A pendulum of length 1 m swinging through ±60°, θ̈ = −(g/l) sin θ: not linear, so that no
// interpolant is exact, and its energy E = ½ θ̇² − (g/l) cos θ is the closed-form invariant.
constexpr double kGravity = 9.81;

double pendulum_energy(const OdeState& x) { return 0.5 * x[1] * x[1] - kGravity * std::cos(x[0]); }

struct Run {
  long evaluations = 0;
  long steps = 0;
  double energy_error = 0.0;        ///< largest |E − E₀| at the steps' ends
  double dense_energy_error = 0.0;  ///< and at the middle of every step, off the dense output
};

Run swing(IntegratorStepper method, double tolerance, double duration_s) {
  Run run;
  const auto rhs = [&run](const OdeState& x, OdeState& dxdt, double /*t*/) {
    ++run.evaluations;
    dxdt.resize(2);
    dxdt[0] = x[1];
    dxdt[1] = -kGravity * std::sin(x[0]);
  };
  DenseStepper stepper(method, tolerance, tolerance, 0.05);
  const OdeState start{std::numbers::pi / 3.0, 0.0};
  const double energy = pendulum_energy(start);
  stepper.initialize(start, 0.0, 1e-3);
  OdeState middle(2);
  while (stepper.current_time() < duration_s) {
    stepper.do_step(rhs);
    ++run.steps;
    run.energy_error =
        std::max(run.energy_error, std::abs(pendulum_energy(stepper.current_state()) - energy));
    stepper.calc_state(0.5 * (stepper.previous_time() + stepper.current_time()), middle);
    run.dense_energy_error =
        std::max(run.dense_energy_error, std::abs(pendulum_energy(middle) - energy));
  }
  return run;
}

}  // namespace

TEST_CASE("dop853: a pendulum's energy is kept at least as well as by dopri5, in fewer steps") {
  // The simulation's tolerance, 3e-11, over 10 s (about 5 periods).
  const Run dopri5 = swing(IntegratorStepper::dopri5, 3e-11, 10.0);
  const Run dop853 = swing(IntegratorStepper::dop853, 3e-11, 10.0);
  MESSAGE("dopri5: ", dopri5.steps, " steps, ", dopri5.evaluations, " evaluations, |ΔE| ",
          dopri5.energy_error, " (dense ", dopri5.dense_energy_error, "); dop853: ", dop853.steps,
          " steps, ", dop853.evaluations, " evaluations, |ΔE| ", dop853.energy_error, " (dense ",
          dop853.dense_energy_error, ")");
  CHECK(dop853.energy_error <= dopri5.energy_error);
  CHECK(dop853.dense_energy_error <= dopri5.dense_energy_error);
  CHECK(dop853.evaluations < dopri5.evaluations);
  // and to the tolerance's order in absolute terms: E is about 10 J/kg, rtol 3e-11
  CHECK(dop853.energy_error < 1e-8);
}

TEST_CASE("dop853: the dense output follows the closed form of an oscillator within a step") {
  // ẍ = −ω² x from (1, 0): x = cos ωt. One long step, then the interpolant at ten instants in it.
  // The step's end is held to the tolerance 1e-10 by the error control; the continuous extension
  // (order 7) is not controlled itself and may err a little more within the step: twice the
  // tolerance (1.1e-10 is its largest error here). A wrong coefficient errs by far more than that.
  constexpr double kOmega = 2.0 * std::numbers::pi;
  const auto rhs = [](const OdeState& x, OdeState& dxdt, double /*t*/) {
    dxdt.resize(2);
    dxdt[0] = x[1];
    dxdt[1] = -kOmega * kOmega * x[0];
  };
  DenseStepper stepper(IntegratorStepper::dop853, 1e-10, 1e-10, 0.05);
  stepper.initialize(OdeState{1.0, 0.0}, 0.0, 0.05);
  stepper.do_step(rhs);
  const double t0 = stepper.previous_time(), t1 = stepper.current_time();
  CHECK(t0 == 0.0);
  CHECK(t1 > 0.0);
  CHECK(std::abs(stepper.current_state()[0] - std::cos(kOmega * t1)) < 1e-10);
  OdeState x(2);
  for (int i = 0; i <= 10; ++i) {
    const double t = t0 + (t1 - t0) * i / 10.0;
    stepper.calc_state(t, x);
    CHECK(std::abs(x[0] - std::cos(kOmega * t)) < 2e-10);
    CHECK(std::abs(x[1] + kOmega * std::sin(kOmega * t)) < 2e-10 * kOmega);
  }
  // the interpolant meets the step's ends exactly
  stepper.calc_state(t1, x);
  CHECK(x[0] == doctest::Approx(stepper.current_state()[0]).epsilon(1e-15));
}
