#pragma once
// Law `park`: collision mode evolution by algebraic equations with the exact quadratic impulse
// cone (paper 001 §3: Park, Chung & Youm).
//
// Hypothesis. The impact is a short sequence of modes. Within a mode the impulse Γ(τ1 : τ2) is
// one straight vector: either it stops the slip, u_t(τ2) = 0, or it lies on the cone
// |Γ_t| = μd Γ_n and opposes the slip at the END of the mode (paper 001 eqs. 17, 18a, 18b).
// Modes end at events: slip halts (CStick in compression, EStick in restitution; eqs. 19–24),
// compression ends (EndComp, u_n = 0) and the impact ends (EndExp) by Poisson's hypothesis,
// Γ_n(t : t⁺) = e Γ_n(t⁻ : t), i.e. Γ_n = (1 + e) Γ_n,c (eq. 5 as §2.1 and §3.2.3 use it; eq. 5
// as printed is a typo, see tests/test_park.cpp). Once the slip halts, sticking persists iff
// λ ≤ μs² (eq. 25; λ of eq. 22 is |b|², b the slope of the line of sticking below), as in the
// planar laws with max(μs, μd) when μd > μs (planar_contact.hpp, stick_is_stable).
//
// The mode graph (paper 001 Fig. 1; its prose swaps some names, see below):
//   CSlide ──CStick──▶ PCStick (λ ≤ μs²) ──EndComp──▶ (stuck) ──EndExp
//      │          └──▶ CRSlide (λ > μs²) ──EndComp──▶ (same slip direction) ──EndExp
//      └──EndComp──▶ ESlide ──EStick──▶ PEStick (λ ≤ μs²) ──EndExp
//                       │          └──▶ ERSlide (λ > μs²) ──EndExp
//                       └──EndExp
// A contact without initial slip starts as if CStick had happened at Γ_n = 0.
//
// What a mode's straight impulse means. For a given normal impulse increment s of a sliding
// mode, eqs. 17–18 are the optimality conditions of
//     min ½ Γ_tᵀ H_tt Γ_t + wᵀ Γ_t   subject to |Γ_t| ≤ μd s,   w = u_t(τ1) + H_tn s,
// i.e. the friction impulse that takes the most tangential kinetic energy out (maximum
// dissipation) at that normal impulse. H_tt is positive definite, so the problem is strictly
// convex and its solution unique: for each s there is exactly one mode impulse. A mode is thus
// one backward-Euler step of the sliding flow du/dΓ_n = H (1, −μd û_t) (paper 001 eq. 7) over
// the whole mode. It equals the flow where the flow keeps its slip direction (planar problems;
// slip along an invariant direction; resumed slip from rest, which follows such a direction)
// and differs where the flow turns the slip (tests/test_park.cpp compares both).
//
// Equations (our signs, docs/design.md §2; H = D with rows n, t1, t2):
//   line of sticking (eqs. 19a, 20):  Γ_t = a + b Γ_n,  a = −H_tt⁻¹ u_t,  b = −H_tt⁻¹ H_tn;
//                                     along it du_n/dΓ_n = det H / det H_tt (paper D / D33).
//   CStick, EStick (eq. 21):   |a + b s|² = μd² s², a quadratic; the root is the smallest
//                              positive one, where the line of sticking enters the cone, and it
//                              must precede the end of its stage (eq. 23): s ≤ γ (eq. 24) in
//                              compression, s ≤ e Γ_n,c in restitution.
//   EndComp while sliding (eqs. 31–35) and EndExp while sliding (eqs. 36–37): two conics in
//                              (Γ_t1, Γ_t2). With Γ_t = −μd s ĝ, ĝ = (cos φ, sin φ), both
//                              become one trigonometric equation of degree 2 in φ (a quartic
//                              in tan(φ/2)), solved for all its real roots; the admissible root
//                              opposes the end slip (eq. 18b) and, for EndComp, comes first.
//   PCStick (eqs. 26–30): Γ_n,c = γ, u_t stays 0.
//
// Paper-to-code mapping: paper 001 (x, y, z) = our (t1, t2, −n); its H entries X, Y, U are
// H_tt, its W, V are −H_tn, Z = H_nn; v_z = −u_n and Γ_z = −Γ_n.
//
// Scope: one spatial contact (3×3 H symmetric positive definite) that approaches, u_n < 0.
// Statuses: `unsupported` for anything else; `no_solution` when no sliding mode can end
// compression (a Painlevé-like H, μd large) or Poisson's end leaves the contact approaching.
// Phases: kind slide (CSlide, ESlide), stick (PCStick, PEStick), reverse_slide (CRSlide,
// ERSlide: slip resumed after a halt; in space along the direction the dynamics choose, which
// for a planar problem is the reverse). Types: those of paper 004 §5, with "reverse" read as
// "resumed". Pure, allocation-free, deterministic.

#include "sim/impact/impact_problem.hpp"
#include "sim/impact/impact_result.hpp"

namespace routh {

ImpactResult solve_park(const ImpactProblem& problem);

}  // namespace routh
