#pragma once
// Law `multipoint_energetic`: simultaneous multi-point planar impact with a rigid-body-consistent
// constraint on the contact impulses and a global energetic coefficient of restitution, after
// paper 002 (Rodriguez & Bowling, "Analytic solution for planar indeterminate impact problems
// using an energy constraint") and its ref. 15 (Rodriguez & Bowling 2012, "Solution to
// indeterminate multi-point impact with frictional contact using constraints").
//
// Paper 002 is available to us as abstract and references only, so the equations below are our
// formulation of what the abstract states; they are not transcribed from the paper.
//
// Hypotheses (contact space only: D is 2K × 2K, normal then tangent per contact; u⁻; e, μs, μd):
//  1. Active set. A set A of active contacts carries impulse; released contacts carry none
//     (Γ_k = 0). A starts as every contact with u_n⁻ ≤ 0 (approaching or touching). Velocities
//     within 1e-8 of the largest |u_n⁻| are round-off and read as exactly zero (a simulated
//     resting pivot touches and does not slip, whatever the signs of its ±1e-12 m/s).
//  2. Rigid-body consistency (the constraint of Rodriguez & Bowling 2012, as we read it: the
//     contacts of rigid bodies end compression together). The active normal velocities stay on
//     the ray
//         u_n,k = u_n,k⁻ + φ w_k,   w_k = max(−u_n,k⁻, 0),   k ∈ A,
//     so they evolve in proportion to their approach speeds. All approaching contacts reach
//     u_n = 0 together at φ = 1 (the end of compression) and separate in the same proportions in
//     restitution, u_n,k = (φ − 1) w_k. A touching contact (u_n⁻ = 0, like the resting corner of
//     a rocking block) is held at u_n = 0. Linear velocities, so u_n,k⁺ = −ẽ u_n,k⁻ for a common ẽ
//     whenever no friction mode changes (e.g. frictionless contacts).
//  3. Time-like parameter: the total normal impulse P = Σ_k Γ_n,k. Within a phase every contact
//     keeps its friction mode, so dΓ/dP = g is constant and solves the 2|A| + 1 linear equations
//         (D g)_n,k − φ' w_k = 0                      (k ∈ A, hypothesis 2; φ' = dφ/dP)
//         (D g)_t,k = 0                               (k ∈ A sticking: no slip, paper 004 eq. 13)
//         g_t,k + μd,k σ_k g_n,k = 0                  (k ∈ A sliding with slip sign σ_k, eq. 8)
//         Σ_k g_n,k = 1                               (the parameter is P)
//     for g and φ'. For one contact this is Routh's method in Γ_n exactly (routh_incremental.hpp):
//     g = (1, r) with r = −μd σ (sliding) or −c/b (sticking). A consistent singular system (two
//     sticking corners of one rigid body on flat ground: D has rank 3) takes the minimum-norm g.
//  4. Friction per contact (Coulomb, incremental as in the planar single-contact laws): a contact
//     with slip slides against it; a contact without slip sticks if its stick impulse lies in the
//     cone, |g_t,k| ≤ max(μs, μd) g_n,k (the single-contact test μc ≤ max(μs, μd), planar_contact
//     .hpp), otherwise it slides in the direction that saturates its friction, σ = −sign(g_t,k),
//     the one furthest outside its cone first; that slip must then grow (σ (D g)_t,k ≥ 0), else
//     the friction modes are inconsistent. When sticking where asked is kinematically impossible
//     together with hypothesis 2 (D singular, the system inconsistent), the sticking contact whose
//     least-squares slip (D g)_t,k is largest slides with σ = sign((D g)_t,k). Events within a
//     phase, all linear in P: the slip of a sliding contact halts (then every contact's mode is
//     decided again), compression ends (φ = 1), a separating active contact engages (below), the
//     impact ends. Each phase is reported per contact in the trace.
//  5. Global energetic restitution (Stronge; paper 004 eq. 26 summed over contacts): the impact
//     ends when the restitution work of all normal impulses, W_nR = Σ_k ∫_restitution u_n,k dΓ_n,k,
//     reaches −Σ_k e_k² W_nc,k, W_nc,k the compression work of contact k. With equal e_k = e this
//     is exactly W_nR = −e² W_nc; with unequal e_k it is a global coefficient e² = Σ e_k² W_nc,k /
//     Σ W_nc,k weighted by where the compression work was done (our choice; the paper's examples
//     use one e for all contacts).
//  6. Unilaterality, iterated to consistency: an active contact whose normal impulse would
//     decrease in some phase (g_n,k < 0 in the orientation in which compression progresses: the
//     contact would pull) is released, the most pulling one first, and the impact re-solved from
//     the start; a released contact that would end penetrating (u_n,k⁺ < 0) is re-activated, the
//     deepest first. A re-activated contact that separated before the impact (u_n⁻ > 0) carries
//     no impulse until its normal velocity reaches zero, then engages and is held at u_n = 0
//     (w_k = 0). At most kMaxActiveSetRounds rounds. If the set comes back (a cycle) or the
//     rounds run out, every non-empty active set is tried (up to kMaxExhaustiveContacts contacts),
//     the largest first, and the first that stands is the answer: impulses that push, released
//     contacts that end separating.
//  When one rigid body's sticking contacts make the rates indeterminate (a block's two corners:
//  their tangential rows of D coincide), the sticking impulse is shared between them as static
//  friction is at acceleration level (static_friction.hpp): some share inside every cone sticks
//  the set, not only the minimum-norm one.
//
// Guarantees when solved: Γ_n,k ≥ 0 and nondecreasing for every contact; u_n,k⁺ ≥ 0 for every
// contact (to round-off); |Γ_t,k| ≤ max(μs, μd) Γ_n,k; kinetic energy never increases, since in
// compression u_n,k ≤ 0 while Γ_n,k grows, restitution returns only e² of that work, and Coulomb
// friction does no positive work (ΔT = W_n + W_t ≤ (1 − e²) W_nc ≤ 0).
// With one active contact the law is the single-contact `energetic` law (Routh's incremental
// method with the same events and the same stick test); tests/test_multipoint_energetic.cpp
// checks that to 1e-12.
//
// Scope and limits: planar, 1 to kMultipointEnergeticMaxContacts = 12 contacts (active sets are
// bit masks, and past a cycle every one of them may be tried; a larger impact goes to `lcp`,
// law_catalogue.hpp); D symmetric with every contact's own 2×2
// block positive definite (D itself may be singular). type = multi_contact always; the phase
// trace holds one entry per contact and phase of constant mode and stage (consecutive equal ones
// merged), Phase::contact naming the contact, and stops recording when kMaxPhases is reached (and
// sets ImpactFlag::phase_trace_truncated). The initial active set decides between several
// consistent answers when there are several. A solved answer is checked on itself: a contact left
// penetrating (rank-deficient or badly scaled D) gives no_solution, never a penetrating solved.
//
// When the law answers no_solution, the formulation has none: no_solution comes only after every
// active set was tried, so it is a proof by exhaustion for the problem at hand that no set of
// pushing contacts, on the rays of hypothesis 2, leaves the released ones separating. Such
// problems exist among those a model produces. Example (tests/test_multipoint_energetic.cpp,
// checked there by independent computations): a block (b = 0.161 m, h = 0.213 m) landing flat at
// u_n = (−0.42, −0.63) m/s while sliding at 0.16 m/s with μ = 1.2. With both corners active their
// sliding friction tilts the block so hard that the rays need one corner to pull; either corner
// alone leaves the other going on into the floor. Hypothesis 2 (simultaneous ends of compression)
// is what fails: `lcp`, which has no such constraint, stops both corners. The simulator resolves
// such impacts with `lcp` and flags them `law_fallback` (sim/simulation/impact_step.hpp).
// Measured no_solution rates (seeded campaigns in the tests): one rigid body with 2–4 contacts on
// a floor (u⁻ = J v⁻) 56 of 5177 (1.1%), before the exhaustive search 463 (8.9%); random coupled
// frictional SPD D with 2–4 contacts 477 of 6000 (8.0%); the rocking block landing on one corner
// with its pivot at rest to round-off 0 of 4000; frictionless problems 0.
// Where the iteration fails:
//  - the active set cycles: hypothesis 2 needs a contact to pull, and released it would
//    penetrate (the example above);
//  - a contact sliding from rest would close its own slip at once (friction modes inconsistent);
//  - the ray of hypothesis 2 is not kinematically possible (D singular and the normal rows of
//    an approaching and a touching contact not independent, e.g. three contacts of one body);
//  - restitution in which φ falls back to 1 (the active contacts would close again), or a phase
//    in which nothing can end the compression.

#include "sim/impact/impact_problem.hpp"
#include "sim/impact/impact_result.hpp"

namespace routh {

/// The most contacts one impact may have for this law (its scope in law_catalogue.cpp); it
/// answers ImpactStatus::unsupported beyond.
inline constexpr int kMultipointEnergeticMaxContacts = 12;
/// Active-set rounds of the iteration before the exhaustive search.
inline constexpr int kMaxActiveSetRounds = 32;
/// Problems with at most this many contacts have every active set tried (2⁸ − 1 sets at most)
/// before the law answers no_solution.
inline constexpr int kMaxExhaustiveContacts = 8;

ImpactResult solve_multipoint_energetic(const ImpactProblem& problem);

}  // namespace routh
