#pragma once
// Law `poisson`: Routh's incremental method with Poisson's restitution hypothesis.
//
// Hypothesis: the restitution normal impulse is e times the compression normal impulse,
// Γ_n,final = (1 + e) Γ_n,c (paper 000 eq. 5; paper 004 eq. 25). Friction is Coulomb's with two
// coefficients: μd while sliding, μs to decide whether sticking, once reached, persists
// (paper 000 §2.1; paper 004 eq. 16).
// Scope: one planar contact of any multibody system (the system enters only through D).
// Guarantees (Wang & Mason 1992): kinetic energy never increases. It may still dissipate energy
// through the normal impulse when e = 1 (flag nonphysical_normal_dissipation; paper 004 Table 2).

#include "sim/impact/impact_problem.hpp"
#include "sim/impact/impact_result.hpp"
#include "sim/impact/routh_incremental.hpp"

namespace routh {

/// Poisson's rule: the impact ends at Γ_n = (1 + e) I_nc (paper 004 eq. 25).
struct PoissonRestitution {
  double restitution;  ///< e_P
  double impulse_to_end(const PlanarImpactState& state, const PlanarMode& /*mode*/,
                        double /*horizon*/) const {
    return (1.0 + restitution) * state.compression_impulse - state.normal_impulse;
  }
};

ImpactResult solve_poisson(const ImpactProblem& problem);

}  // namespace routh
