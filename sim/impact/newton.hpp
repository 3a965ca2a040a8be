#pragma once
// Law `newton`: the conventional method of the textbooks (Whittaker 1904; Kane & Levinson 1985,
// §14; Groesberg), kept as the baseline the papers argue against.
//
// Hypothesis: Newton's restitution u_n⁺ = −e u_n⁻, and one contact mode for the whole impact.
// First sticking throughout is tried: u⁺ = (−e u_n⁻, 0), Γ = D⁻¹(u⁺ − u⁻); it is accepted when
// Γ_n ≥ 0 and |Γ_t| ≤ μs Γ_n. Otherwise the contact slides throughout with Γ_t = −μd σ Γ_n, σ the
// initial slip direction (paper 000 §6.1 "conventional method"; paper 004 §6).
// Spatially the same with the slip a vector: stick throughout, Γ = H⁻¹(u⁺ − u⁻) with
// u⁺ = (−e u_n⁻, 0, 0), if |Γ_t| ≤ μs Γ_n, else slide throughout with Γ_t = −μd Γ_n û⁻ along the
// initial slip direction û⁻ = u_t⁻/|u_t⁻| (without initial slip, the direction in which slip
// starts from rest, spatial_sticking.hpp). With the second tangential direction decoupled and at
// rest it is the planar method (tests/test_sliding_ode.cpp).
// Scope: one planar or one spatial contact.
// Warning: when the slip would reverse, this method ignores it and can create energy (paper 000
// Table 2, paper 004 ΔT = +0.010125 J). Such results carry energy_gain and, when the final slip
// opposes the assumed one (u_t⁺·û⁻ < 0), slip_reversal_ignored. When sliding cannot end the
// compression (a − μd σ c ≤ 0) the method has no solution and says so.

#include "sim/impact/impact_problem.hpp"
#include "sim/impact/impact_result.hpp"

namespace routh {

ImpactResult solve_newton(const ImpactProblem& problem);

}  // namespace routh
