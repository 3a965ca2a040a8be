#include "sim/impact/newton_routh.hpp"
#include "sim/impact/law_guard.hpp"

namespace routh {

ImpactResult solve_newton_routh(const ImpactProblem& problem) {
  const double e = problem.contacts.empty() ? 0.0 : problem.contacts[0].restitution;
  const double approach_speed = problem.u_pre.size() > 0 ? -problem.u_pre[0] : 0.0;
  return guarded_law([&] {
    return routh_incremental_impact(problem, NewtonRestitution{e, approach_speed});
  });
}

}  // namespace routh
