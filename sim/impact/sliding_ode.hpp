#pragma once
// Laws `sliding_ode` and `sliding_ode_energetic`: the slip-velocity flow of one spatial contact,
// integrated numerically in the normal impulse (Routh 1897; Keller 1986; Mirtich 1996 ch. 3;
// paper 001 §2.1; paper 003 §3–4).
//
// Hypothesis: Coulomb friction at every instant of the impact. While the contact slips, the
// friction impulse opposes the slip, dΓ_t = −μd û_t dΓ_n, so the contact velocity follows
//     du/dΓ_n = H ξ(u),   ξ = (1, −μd û_t),   û_t = u_t / |u_t|        (paper 001 eq. 7)
// (paper 003 eqs. 3.1–3.4 in its own notation), a flow whose slip direction turns as the impact
// goes on unless H decouples the tangential directions. The works W_n = ∫ u_n dΓ_n and
// W_t = ∫ u_t·dΓ_t are integrated along with it.
//   - The end of compression (u_n = 0) and the end of the impact are located on the dense output
//     of the step that crossed them (TOMS 748), never by stepping past them.
//   - The flow is singular where the slip halts: û_t is undefined at u_t = 0, and near it the
//     direction turns at a rate ∝ 1/|u_t|, so an explicit stepper in Γ_n crawls towards the halt
//     with steps ∝ |u_t|. The flow is therefore integrated in Keller's rescaled time τ,
//     dΓ_n/dτ = |u_t| / (|u_t| + ε) with ε = 0.1 |u⁻|: the same trajectory, but a Lipschitz field
//     in which the halt is an equilibrium the slip approaches exponentially. The halt itself is
//     forecast from the slip's rate, ρ = |u_t| / (−d|u_t|/dΓ_n), and the last stretch to it is
//     taken as a phase of constant slip direction in closed form, once that is as accurate as the
//     integration (the direction has settled), or at the latest when the slip is down at the
//     integration's noise, where its direction can no longer be followed. A slip direction that
//     does not turn at all (always so in the planar reduction) is followed in closed form from
//     the start.
//   - When the slip halts, sticking persists iff |r| ≤ μs with r = −H_tt⁻¹ H_tn (paper 001
//     eqs. 22, 25; paper 003 eqs. 4.3–4.4; spatial_sticking.hpp); otherwise slip resumes along
//     the one direction û of constant slip, (μd H_tt + k I) û = H_tn, k > 0 (paper 001 §2.1:
//     "constancy of direction of the sliding vector"). Both continuations are exact straight
//     lines, so after the halt no integration is needed; the slip halts at most once.
//   - The impact ends by Poisson's hypothesis, Γ_n = (1 + e) Γ_n,c (paper 001 eq. 5) for
//     `sliding_ode`, or by Stronge's energetic hypothesis, W_n,restitution = −e² W_n,c
//     (Mirtich 1996; paper 004 eq. 26) for `sliding_ode_energetic`.
// Scope: one spatial contact (3×3 symmetric positive definite H). With the second tangential
// direction decoupled and at rest it is the planar `poisson` / `energetic` law (the tests check
// this to 1e-10).
// Accuracy: the flow is integrated with Odeint's controlled Runge–Kutta–Dormand–Prince 5(4) in
// units of the problem (velocities in |u⁻|, H in tr(H)/3), absolute and relative tolerance both
// `tolerance`. Impulses and velocities are accurate to a small multiple of that fraction of the
// problem's scale, divided by |d|u_t|/dΓ_n| at a slip halt (a slowly halting slip makes the halt,
// hence the answer, sensitive to any error in u_t). tests/test_sliding_ode.cpp measures it.
// Cost: about 10 µs per impact at the default tolerance (tools/bench/impact_laws_benchmark);
// without allocation (fixed-size Odeint state).
// Guarantees: the impulse stays in Coulomb's cone (|Γ_t| ≤ μd Γ_n while slipping, ≤ μs Γ_n
// sticking). With the energetic ending the kinetic energy never increases; with Poisson's it
// may in 3D and is then flagged (energy_gain), as the normal-dissipation test flags any
// restitution work other than −e² W_n,c.
// Statuses: no_solution when the compression can never end (sliding drives u_n down and the slip
// never halts, or the continuation after a halt does) or the flow does not finish within its
// step budget.

#include "sim/impact/impact_problem.hpp"
#include "sim/impact/impact_result.hpp"

namespace routh {

/// Which hypothesis ends the impact.
enum class RestitutionHypothesis {
  poisson,    ///< Γ_n = (1 + e) Γ_n,c (paper 001 eq. 5)
  energetic,  ///< W_n,restitution = −e² W_n,c (Stronge; paper 004 eq. 26)
};

struct SlidingOdeOptions {
  RestitutionHypothesis restitution = RestitutionHypothesis::poisson;
  /// Absolute and relative error tolerance of the integration, in units of the problem (velocity
  /// |u⁻|, impulse |u⁻| / (tr H / 3)); must be in [1e-14, 1e-2], otherwise the result is
  /// invalid_problem.
  double tolerance = 1e-10;
};

/// `sliding_ode`: Poisson's restitution, default tolerance.
ImpactResult solve_sliding_ode(const ImpactProblem& problem);

/// `sliding_ode_energetic`: Stronge's energetic restitution, default tolerance.
ImpactResult solve_sliding_ode_energetic(const ImpactProblem& problem);

ImpactResult solve_sliding_ode(const ImpactProblem& problem, const SlidingOdeOptions& options);

}  // namespace routh
