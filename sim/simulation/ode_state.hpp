#pragma once
// The integrator's state x = (q, v), nq + nv numbers, which Odeint's controlled dense-output
// Runge–Kutta–Dormand–Prince 5(4) carries between events, and the conversions between x and
// (q, v). Between events the stepper holds the run's t and x; the stages read states off its
// dense output (calc_state) and never integrate again.

#include <Eigen/Core>
#include <boost/numeric/odeint.hpp>
#include <vector>

namespace routh {

using OdeState = std::vector<double>;  // (q, v)
using DenseStepper = boost::numeric::odeint::result_of::make_dense_output<
    boost::numeric::odeint::runge_kutta_dopri5<OdeState>>::type;

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
