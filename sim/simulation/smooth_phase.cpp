#include "sim/simulation/smooth_phase.hpp"

namespace routh {

void state_derivative(const OdeState& x, OdeState& dxdt, double t,
                      const std::vector<ContactMode>& modes, RunWorkspace& workspace) {
  unpack(x, workspace);
  const int nq = workspace.nq, nv = workspace.nv;
  const ConstrainedAcceleration& dynamics =
      dynamics_at(workspace.evaluation, t, workspace.q, workspace.v, modes);
  workspace.last_derivative_t = t;
  workspace.last_derivative_x = x;
  dxdt.resize(static_cast<std::size_t>(nq + nv));
  Eigen::Map<Eigen::VectorXd> q_dot(dxdt.data(), nq);
  workspace.evaluation.system.position_rate(workspace.q, workspace.v, q_dot);
  Eigen::Map<Eigen::VectorXd>(dxdt.data() + nq, nv) = dynamics.acceleration;
}

}  // namespace routh
