#include "sim/impact/poisson.hpp"
#include "sim/impact/law_guard.hpp"

namespace routh {

ImpactResult solve_poisson(const ImpactProblem& problem) {
  const double e = problem.contacts.empty() ? 0.0 : problem.contacts[0].restitution;
  return guarded_law([&] { return routh_incremental_impact(problem, PoissonRestitution{e}); });
}

}  // namespace routh
