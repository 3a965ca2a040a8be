// Witness functions and their isolation on a step (sim/simulation/witness_function.hpp): the
// direction table, the bracket TOMS 748 returns, and the pattern the simulator uses, locating an
// event on the dense output of the step just taken (Odeint's calc_state), checked against a
// closed form.

#include <doctest/doctest.h>

#include <array>
#include <boost/numeric/odeint.hpp>
#include <cmath>

#include "sim/simulation/witness_function.hpp"

namespace {

using routh::WitnessDirection;

}  // namespace

TEST_CASE("witness: the direction table on the half-open step from t0 to t1") {
  using enum WitnessDirection;
  // a gap closing, touching, staying open, opening
  CHECK(routh::witness_triggers(positive_then_non_positive, 1.0, -1.0));
  CHECK(routh::witness_triggers(positive_then_non_positive, 1.0, 0.0));
  CHECK_FALSE(routh::witness_triggers(positive_then_non_positive, 1.0, 0.5));
  CHECK_FALSE(routh::witness_triggers(positive_then_non_positive, -1.0, 1.0));
  // starting exactly at zero, where the last event left it: no second trigger
  CHECK_FALSE(routh::witness_triggers(positive_then_non_positive, 0.0, -1.0));
  CHECK_FALSE(routh::witness_triggers(negative_then_non_negative, 0.0, 1.0));
  CHECK(routh::witness_triggers(negative_then_non_negative, -1.0, 0.0));
  CHECK_FALSE(routh::witness_triggers(negative_then_non_negative, 1.0, -1.0));
  CHECK(routh::witness_triggers(crossing, 1.0, -1.0));
  CHECK(routh::witness_triggers(crossing, -1.0, 1.0));
  CHECK_FALSE(routh::witness_triggers(crossing, 1.0, 2.0));
  CHECK_FALSE(routh::witness_triggers(crossing, 0.0, 2.0));
}

TEST_CASE("witness: TOMS 748 brackets the crossing to the time tolerance in few evaluations") {
  // w(t) = cos t − t has its root at the Dottie number 0.739085133215160641...
  constexpr double kRoot = 0.7390851332151607;
  int evaluations = 0;
  const auto w = [&evaluations](double t) {
    ++evaluations;
    return std::cos(t) - t;
  };
  for (const double tolerance : {1e-6, 1e-12, 1e-15}) {
    CAPTURE(tolerance);
    evaluations = 0;
    const routh::WitnessCrossing crossing =
        routh::locate_witness_crossing(w, 0.0, w(0.0), 2.0, w(2.0), tolerance);
    CHECK(crossing.after - crossing.before <= tolerance);
    CHECK(w(crossing.before) >= 0.0);  // starting side (or the root itself)
    CHECK(w(crossing.after) <= 0.0);   // triggered side
    CHECK(crossing.before <= kRoot + 1e-16);
    CHECK(crossing.after >= kRoot - 1e-16);
    // Superlinear convergence: bisection would need ~log2(2/1e-15) ≈ 51 halvings.
    CHECK(evaluations <= 20);
  }
}

TEST_CASE("witness: a step that ends exactly on the root, and a step without a crossing") {
  const auto w = [](double t) { return 1.0 - t; };
  const routh::WitnessCrossing at_end =
      routh::locate_witness_crossing(w, 0.0, 1.0, 1.0, 0.0, 1e-12);
  CHECK(at_end.before == 1.0);
  CHECK(at_end.after == 1.0);
  CHECK_THROWS_AS(routh::locate_witness_crossing(w, 0.0, 1.0, 0.5, 0.5, 1e-12), std::logic_error);
}

TEST_CASE("witness: a falling ball's impact time, located on the dense output of the step") {
  // ÿ = −g from y = h at rest: the gap y reaches 0 at t = √(2h/g). Integrate with the controlled
  // dense-output dopri5 (docs/design.md §4), check the gap witness at the end of each accepted
  // step, and isolate the crossing on calc_state between previous_time() and current_time().
  namespace odeint = boost::numeric::odeint;
  using State = std::array<double, 2>;  // (y, ẏ)
  constexpr double kGravity = 9.81, kHeight = 1.0, kTolerance = 1e-12;
  const auto free_fall = [](const State& x, State& dxdt, double /*t*/) {
    dxdt = {x[1], -kGravity};
  };
  auto stepper = odeint::make_dense_output(1e-10, 1e-10, odeint::runge_kutta_dopri5<State>());
  stepper.initialize(State{kHeight, 0.0}, 0.0, 1e-3);
  const auto gap = [&stepper](double t) {
    State x;
    stepper.calc_state(t, x);
    return x[0];
  };
  double impact_time = -1.0;
  while (stepper.current_time() < 2.0) {
    stepper.do_step(free_fall);
    const double t0 = stepper.previous_time(), t1 = stepper.current_time();
    const double g0 = gap(t0), g1 = stepper.current_state()[0];
    if (routh::witness_triggers(WitnessDirection::positive_then_non_positive, g0, g1)) {
      impact_time = routh::locate_witness_crossing(gap, t0, g0, t1, g1, kTolerance).before;
      break;
    }
  }
  // The locator's bracket is 1e-12 s; the interpolant of a quadratic solution is exact up to
  // the integrator's round-off, so the closed form is met to ~1e-12 s.
  CHECK(std::abs(impact_time - std::sqrt(2.0 * kHeight / kGravity)) < 2e-12);
  CHECK(gap(impact_time) >= 0.0);  // the left limit: the pre-impact state has not penetrated
}
