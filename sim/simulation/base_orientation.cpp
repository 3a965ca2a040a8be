#include "sim/simulation/base_orientation.hpp"

#include <algorithm>
#include <cmath>

namespace routh {

bool turn_base_toward_load(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, int k,
                           const std::vector<ContactMode>& modes, RunWorkspace& workspace) {
  SystemEvaluation& evaluation = workspace.evaluation;
  const std::vector<int>& active = evaluation.active;
  ContactBase& base = workspace.base;
  if (!evaluation.system.flat_base(q, active[static_cast<std::size_t>(k)],
                                   *evaluation.model_workspace, base)) {
    return false;
  }
  const ConstrainedAcceleration& dynamics = dynamics_at(evaluation, t, q, v, modes);
  double load = 0.0;
  Eigen::Vector2d moment = Eigen::Vector2d::Zero();
  for (std::size_t i = 0; i < base.contacts.size(); ++i) {
    const auto found = std::lower_bound(active.begin(), active.end(), base.contacts[i]);
    if (found == active.end() || *found != base.contacts[i]) continue;
    const auto a = static_cast<std::size_t>(found - active.begin());
    if (!is_closed(modes[a])) continue;
    load += dynamics.forces[a].normal;
    moment += dynamics.forces[a].normal * base.points_m[i];
  }
  if (!(load > 0.0)) return false;
  const Eigen::Vector2d centre = moment / load;
  const double reach = centre.norm();
  if (!(reach < (1.0 - kBaseTurnTolerance) * base.radius_m)) return false;
  const Eigen::Vector2d& now = base.direction;
  const double off = std::atan2(now.x() * centre.y() - now.y() * centre.x(), now.dot(centre));
  if (!(std::abs(off) > kBaseTurnTolerance)) return false;
  evaluation.system.orient_base(base.contacts.front(), centre / reach, *evaluation.model_workspace);
  return true;
}

}  // namespace routh
