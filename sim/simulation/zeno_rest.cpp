#include "sim/simulation/zeno_rest.hpp"

#include <algorithm>

#include "sim/simulation/active_contacts.hpp"
#include "sim/simulation/event_response.hpp"
#include "sim/text.hpp"

namespace routh {

void rest_after_impact(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                       const std::vector<int>& struck, bool at_rest,
                       const SimulationSettings& settings, RunState& state, RunWorkspace& workspace,
                       StageReport& report) {
  // Rest rule: the motion comes to rest when the impact leaves every touching contact closed
  // (the ball on its floor, the block flat on both corners); a pivot switch, where another corner
  // lifts off, is part of the rocking.
  SystemEvaluation& evaluation = workspace.evaluation;
  const std::vector<ContactMode>& modes = state.modes;
  const ContactKinematics& kinematics = contacts_at(evaluation, q, v);
  bool comes_to_rest = true;
  for (int k = 0; k < evaluation.contacts; ++k) {
    if (is_touching(kinematics, k, settings.contact_distance) &&
        !is_closed(modes[static_cast<std::size_t>(k)])) {
      comes_to_rest = false;
    }
  }
  if (!comes_to_rest) {
    state.impacts.push(t);
    return;
  }
  // A contact closing after a single plastic impact is simply in persistent contact; "rest" is
  // for the limit of a geometric sequence of impacts (Zeno), for impacts too slow to bounce, and
  // for the impact that ends a sequence whose last intervals were too short to measure as
  // geometric (it rests there, within their sum).
  const auto closed = std::find_if(struck.begin(), struck.end(), [&](int c) {
    return is_closed(modes[static_cast<std::size_t>(c)]);
  });
  const int k = closed != struck.end() ? *closed : struck.front();
  const double limit = state.impacts.zeno_limit(t);
  if (limit > t) {
    EventRecord zeno = mode_event(t, EventKind::zeno, k, modes);
    zeno.status = cat("geometric accumulation of impacts; limit at t = ", limit, " s");
    report.events.push_back(zeno);
    state.pending_rest = {limit, evaluation.active[static_cast<std::size_t>(k)]};
  } else if (at_rest || state.impacts.accumulating()) {
    report.events.push_back(mode_event(t, EventKind::rest, k, modes));
  }
  state.impacts.clear();
}

StageReport rest_at_limit(double t, RunState& state, const SystemEvaluation& evaluation) {
  StageReport report;
  const int resting = local_index(evaluation, state.pending_rest.contact);
  if (resting >= 0) report.events.push_back(mode_event(t, EventKind::rest, resting, state.modes));
  state.pending_rest.time = -1.0;
  return report;
}

}  // namespace routh
