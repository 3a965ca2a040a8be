#pragma once
// Laws `rocking` and `rocking_over_housner`: the rocking impact as engineers calibrate it, by the
// coefficient of restitution η of the rocking motion, the ratio of the angular velocity after a
// rocking impact to the angular velocity before it (Housner 1963, "The behavior of inverted
// pendulum structures during earthquakes"). For a rectangular block whose landing corner neither
// slides nor bounces, the conservation of angular momentum about that corner gives
// η_H = 1 − (3/2) sin²α; shake-table tests find 0.9–0.97 of η_H (ElGawady et al.; Peña et al.),
// the losses of a real, flexible contact that a rigid corner impact cannot represent. These laws
// set η to such a measured value. They are a calibration, not a law of contact mechanics.
//
// Hypothesis: the motion after the impact is that of Housner's impact, scaled. First the
// perfectly plastic, sticking impact (Housner's): every contact that strikes, or that the impact
// drives into its face, ends at rest, u⁺_p = 0 on all its rows (no sliding, no bounce), every
// other contact carries no impulse; Γ_p solves D Γ_p = u⁺_p − u⁻ (plastic_sticking_impact; where
// D is singular, the least-norm Γ_p, or the plastic impact of `lcp` where that one leaves a
// friction cone and lcp's does not: stick_within_cones). Then the post-impact contact velocities
// are u⁺ = k u⁺_p, and Γ solves D Γ = u⁺ − u⁻: with the stopping impulse Γ_s = −D⁺u⁻ (the
// least-norm impulse that leaves every contact at rest), Γ = k Γ_p + (1 − k) Γ_s. The velocities
// a contact space of rank n_v (every velocity moves some contact) reaches are exactly range(D),
// and u⁻ = J v⁻ is one of them, so Γ exists; where u⁻ is not in range(D) (a problem that no
// bodies produce), the law answers no_solution.
//
// What k is. The contact-space kinetic energy T = ½ uᵀD⁺u is the bodies' kinetic energy when every
// velocity moves some contact of the problem (J of full column rank: a rocking block with both
// bottom corners in the problem). `rocking`: k is such that the impact keeps η² of it,
// T⁺ = η² T⁻, i.e. k = η / η_p with η_p = √(T⁺_p / T⁻) the plastic impact's ratio. For one block
// rocking from a corner onto the other, T = ½ I_O ω² about either corner, so ω⁺ / ω⁻ = η exactly
// when the block is symmetric (its corners' I_O equal: any rectangle), and η_p = η_H. For an
// island of several bodies (a stack rocking on its base, blocks rocking on each other), η is this
// energy ratio of the whole island: the impact keeps η² of the island's kinetic energy, in the
// shape of motion that Housner's plastic impact leaves. `rocking_over_housner`: k = η / η_p is
// given, η as a multiple of the plastic impact's (for one block, of Housner's η_H).
//
// The contacts. The old pivot of a rocking block is at rest when the other corner lands, and
// Housner's impact puts nothing on it; but the scaled motion needs it: a rigid block can rotate
// about the landing corner with another angular velocity than Housner's only if the old pivot
// carries impulse too. So the simulator gives these laws every touching contact of the bodies the
// impact moves (LawScope::rocking_calibration, impact_step.hpp): the contact space then holds all
// the bodies' velocities. A contact that no other touching contact accompanies (a block in flight
// landing on one corner) leaves nothing to scale: u⁺_p = 0, whatever η, so it closes, plastic and
// sticking.
//
// Consequences, reported and not hidden: below Housner's η (k < 1) the old pivot's normal impulse
// pulls, by (η_H − η) I_O ω⁻ / (2b) for a block of width 2b and moment of inertia I_O about a
// corner: its moment about the landing corner takes the angular momentum that Housner's impact
// keeps and η does not (a rigid corner impact alone cannot lose more); above it (k > 1) it pushes.
// Γ, u⁺ = u⁻ + DΓ and ΔT = Γᵀu⁻ + ½ΓᵀDΓ are those of the impulse applied, with
// ΔT = ½(η² − 1) u⁻ᵀD⁺u⁻ ≤ 0 for `rocking` (η ∈ [0, 1]). `rocking_over_housner` would gain energy
// for k > 1 / η_p; its k is a restitution, in [0, 1], so it cannot, and an impact that still
// gained energy would carry the flag energy_gain. Where the sticking impulse leaves a contact's
// friction cone (|Γ_t| > μs Γ_n: the corner would slide) the hypothesis fails and the law answers
// no_solution (the simulator then resolves the impact by `lcp`, flagged law_fallback). A problem
// in which no contact approaches is no_impact, as for the other multi-contact laws.
//
// η of an impact: each contact's `restitution` is its η (or its k); the impact takes the smallest
// among the contacts that strike. An impact slower than the rest speed takes η = 0 (the
// simulator sets every restitution to 0 there, impact_step.hpp): the island comes to rest.
// Scope: planar contacts, any number.

#include "sim/impact/impact_problem.hpp"
#include "sim/impact/impact_result.hpp"

namespace routh {

/// `rocking`: each contact's restitution is η, the rocking angular-velocity ratio.
ImpactResult solve_rocking(const ImpactProblem& problem);

/// `rocking_over_housner`: each contact's restitution is k = η / η_p, η as a multiple of the
/// plastic, sticking impact's (Housner's η_H for a block).
ImpactResult solve_rocking_over_housner(const ImpactProblem& problem);

}  // namespace routh
