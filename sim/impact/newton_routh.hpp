#pragma once
// Law `newton_routh`: Routh's incremental method with Newton's restitution hypothesis.
//
// Hypothesis: the impact ends when the normal velocity reaches −e times its initial value,
// u_n⁺ = −e u_n⁻ (paper 004 eqs. 24, 48). Friction as in `poisson`.
// Scope: one planar contact of any multibody system.
// Warning: with friction the normal impulse can do positive net work, so kinetic energy can
// increase (paper 004 Table 1, ΔT = +0.0101 J; Keller 1986, Wang & Mason 1992). Such results are
// flagged energy_gain, never corrected.

#include "sim/impact/impact_problem.hpp"
#include "sim/impact/impact_result.hpp"
#include "sim/impact/routh_incremental.hpp"

namespace routh {

/// Newton's rule: the impact ends when u_n = −e u_n⁻ (paper 004 eq. 48).
struct NewtonRestitution {
  double restitution;     ///< e_N
  double approach_speed;  ///< −u_n⁻ > 0 [m/s]
  double impulse_to_end(const PlanarImpactState& state, const PlanarMode& mode,
                        double /*horizon*/) const {
    return (restitution * approach_speed - state.u_n) / mode.normal_rate;
  }
};

ImpactResult solve_newton_routh(const ImpactProblem& problem);

}  // namespace routh
