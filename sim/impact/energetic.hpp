#pragma once
// Law `energetic`: Routh's incremental method with Stronge's energetic restitution hypothesis.
//
// Hypothesis: the work of the normal impulse during restitution is −e² times its work during
// compression, W_nR = −e² W_nc (paper 004 eq. 26; Stronge 1990). Friction as in `poisson`:
// μd while sliding, μs for the persistence of sticking.
// Scope: one planar contact of any multibody system.
// Guarantees: kinetic energy never increases, and the normal impulse dissipates exactly
// (1 − e²)|W_nc|; with e = 1 all loss is frictional (paper 004 Table 2).

#include <cmath>

#include "sim/impact/impact_problem.hpp"
#include "sim/impact/impact_result.hpp"
#include "sim/impact/routh_incremental.hpp"

namespace routh {

/// The energetic rule: restitution ends when ∫ u_n dΓ_n over restitution reaches −e² W_nc.
struct EnergeticRestitution {
  double restitution;  ///< e_E
  double impulse_to_end(const PlanarImpactState& state, const PlanarMode& mode,
                        double horizon) const {
    // Work still to be returned [J]. Within the phase ∫ u_n dΓ_n = u_n s + ½ k s² (k = du_n/dΓ_n),
    // which is increasing in s, so when the work up to the horizon falls short the impact does
    // not end in this phase, and the square root below is not needed.
    const double restitution_work = state.normal_work - state.compression_work;
    const double remaining = -restitution * restitution * state.compression_work - restitution_work;
    if (remaining <= 0.0) return 0.0;
    const double work_to_horizon = horizon * (state.u_n + 0.5 * mode.normal_rate * horizon);
    if (work_to_horizon < remaining) return kNeverInImpulse;
    // s solves ½ k s² + u_n s − R = 0: the phase ends at u_n⁺ = √(u_n² + 2kR) (paper 004
    // eq. 50 phase by phase), so s = (u_n⁺ − u_n)/k. The reciprocal of k depends on the mode only
    // and is computed off the critical path; the subtraction loses relative accuracy in s only
    // when 2kR ≪ u_n², where the work it misplaces is ~ε R.
    const double u_n_end = std::sqrt(state.u_n * state.u_n + 2.0 * mode.normal_rate * remaining);
    return (u_n_end - state.u_n) * (1.0 / mode.normal_rate);
  }
};

ImpactResult solve_energetic(const ImpactProblem& problem);

}  // namespace routh
