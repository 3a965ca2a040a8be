#include "sim/impact/energetic.hpp"
#include "sim/impact/law_guard.hpp"

namespace routh {

ImpactResult solve_energetic(const ImpactProblem& problem) {
  const double e = problem.contacts.empty() ? 0.0 : problem.contacts[0].restitution;
  return guarded_law([&] { return routh_incremental_impact(problem, EnergeticRestitution{e}); });
}

}  // namespace routh
