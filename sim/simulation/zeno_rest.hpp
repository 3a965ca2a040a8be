#pragma once
// Rest after impacts (docs/simulation.md, step 5; rest_rule.hpp): whether an impact brings the
// motion to rest, the Zeno limit it then rests at (a rest event pending there), and that rest
// event when the run reaches it.

#include <Eigen/Core>
#include <vector>

#include "sim/simulation/run_state.hpp"
#include "sim/simulation/simulation_settings.hpp"

namespace routh {

/// Whether the pending rest falls on the step (t0, t1].
inline bool rest_due(const PendingRest& pending, double t0, double t1) {
  return pending.time > t0 && pending.time <= t1;
}

/// After an impact at (t, q, v⁺) on the active contacts `struck` (their modes settled): the motion
/// comes to rest when the impact leaves every touching contact closed. At the limit of a
/// geometric accumulation of impacts a `zeno` event is reported and a rest becomes pending there;
/// an impact too slow to bounce (`at_rest`), or one that ends an accumulation, rests where it is.
/// Otherwise the impact joins the history (state.impacts).
void rest_after_impact(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                       const std::vector<int>& struck, bool at_rest,
                       const SimulationSettings& settings, RunState& state, RunWorkspace& workspace,
                       StageReport& report);

/// The pending rest at its time t: a `rest` event on its contact, if that is still active; none
/// is pending after it.
StageReport rest_at_limit(double t, RunState& state, const SystemEvaluation& evaluation);

}  // namespace routh
