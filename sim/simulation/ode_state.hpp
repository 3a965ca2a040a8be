#pragma once
// The integrator's state x = (q, v), nq + nv numbers, which the dense-output stepper carries
// between events, and the conversions between x and (q, v). Between events the stepper holds the
// run's t and x; the stages read states off its dense output (calc_state) and never integrate
// again.
//
// The stepper is Odeint's controlled dense-output Runge–Kutta–Dormand–Prince 5(4) (dopri5, the
// default) or DOP853 (dop853_stepper.hpp), whose eighth-order steps are several times longer at
// tight tolerances: `integrator.stepper` chooses.

#include <Eigen/Core>
#include <boost/numeric/odeint.hpp>
#include <functional>
#include <utility>
#include <variant>
#include <vector>

#include "sim/simulation/dop853_stepper.hpp"
#include "sim/simulation/simulation_settings.hpp"

namespace routh {

using OdeState = std::vector<double>;  // (q, v)

/// One interface over the two dense-output steppers, Odeint's (make_dense_output) as the
/// simulation uses it.
class DenseStepper {
 public:
  DenseStepper(IntegratorStepper method, double absolute_tolerance, double relative_tolerance,
               double max_step)
      : stepper_(method == IntegratorStepper::dop853
                     ? Steppers(std::in_place_type<Dop853Stepper>, absolute_tolerance,
                                relative_tolerance, max_step)
                     : Steppers(boost::numeric::odeint::make_dense_output(
                           absolute_tolerance, relative_tolerance, max_step,
                           boost::numeric::odeint::runge_kutta_dopri5<OdeState>()))) {}

  void initialize(const OdeState& x0, double t0, double dt0) {
    std::visit([&](auto& stepper) { stepper.initialize(x0, t0, dt0); }, stepper_);
  }
  /// One accepted step of dx/dt = rhs(x, t); its (t0, t1).
  template <class RightHandSide>
  std::pair<double, double> do_step(RightHandSide& rhs) {
    if (auto* dop853 = std::get_if<Dop853Stepper>(&stepper_)) return dop853->do_step(std::ref(rhs));
    return std::get<Dopri5>(stepper_).do_step(rhs);
  }
  void calc_state(double t, OdeState& x) const {
    std::visit([&](const auto& stepper) { stepper.calc_state(t, x); }, stepper_);
  }
  const OdeState& current_state() const {
    return std::visit(
        [](const auto& stepper) -> const OdeState& { return stepper.current_state(); }, stepper_);
  }
  const OdeState& previous_state() const {
    return std::visit(
        [](const auto& stepper) -> const OdeState& { return stepper.previous_state(); }, stepper_);
  }
  double current_time() const {
    return std::visit([](const auto& stepper) { return stepper.current_time(); }, stepper_);
  }
  double previous_time() const {
    return std::visit([](const auto& stepper) { return stepper.previous_time(); }, stepper_);
  }
  double current_time_step() const {
    return std::visit([](const auto& stepper) { return stepper.current_time_step(); }, stepper_);
  }

 private:
  using Dopri5 = boost::numeric::odeint::result_of::make_dense_output<
      boost::numeric::odeint::runge_kutta_dopri5<OdeState>>::type;
  using Steppers = std::variant<Dopri5, Dop853Stepper>;
  Steppers stepper_;
};

/// x's coordinates (its first nq numbers) and velocities (the nv after them).
inline void unpack(const OdeState& x, int nq, int nv, Eigen::VectorXd& q, Eigen::VectorXd& v) {
  q = Eigen::Map<const Eigen::VectorXd>(x.data(), nq);
  v = Eigen::Map<const Eigen::VectorXd>(x.data() + nq, nv);
}

/// x = (q, v); x has its size nq + nv already.
inline void pack(const Eigen::VectorXd& q, const Eigen::VectorXd& v, OdeState& x) {
  Eigen::Map<Eigen::VectorXd>(x.data(), q.size()) = q;
  Eigen::Map<Eigen::VectorXd>(x.data() + q.size(), v.size()) = v;
}

}  // namespace routh
