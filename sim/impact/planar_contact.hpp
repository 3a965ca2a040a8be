#pragma once
// One planar contact during an impact, with the normal impulse Γ_n as the time-like variable
// (Keller; Wang & Mason; paper 004 §2–3, paper 000 §3). Within a phase of constant contact mode
// the friction impulse is proportional to the normal one, dΓ_t = r dΓ_n, so the contact velocities
// are linear in Γ_n: du/dΓ_n = D (1, r)ᵀ. These helpers give r and the two rates for each mode.
//
// Signs follow DESIGN §2: u = (u_n, u_t), u_n < 0 approaches, Γ_n ≥ 0, D = [[a, c], [c, b]].

#include "sim/impact/impact_problem.hpp"
#include "sim/impact/impact_result.hpp"

namespace routh {

/// A single planar contact: D = [[a, c], [c, b]] (paper 004 eq. 5) and its parameters.
struct PlanarContact {
  double a = 0.0;  ///< D_nn [1/kg]: normal velocity change per unit normal impulse
  double b = 0.0;  ///< D_tt [1/kg]: tangential velocity change per unit tangential impulse
  double c = 0.0;  ///< D_nt [1/kg]: coupling of normal impulse into slip and vice versa
  double u_n = 0.0;  ///< pre-impact normal velocity [m/s]
  double u_t = 0.0;  ///< pre-impact slip velocity [m/s]
  ContactParameters parameters;
};

/// How the contact moves in one phase: the friction ratio r = dΓ_t/dΓ_n and the velocity rates.
struct PlanarMode {
  PhaseKind kind = PhaseKind::slide;
  double friction_ratio = 0.0;  ///< r: −μd σ sliding (004 eq. 8), −c/b sticking (004 eq. 13)
  double normal_rate = 0.0;     ///< du_n/dΓ_n = a + c r [1/kg] (004 eqs. 10, 18, 21: 1/ζ)
  double slip_rate = 0.0;       ///< du_t/dΓ_n = c + b r [1/kg] (004 eqs. 11, 22: 1/ε; 0 sticking)
};

/// Checks that `problem` is one planar contact with a positive definite D and sets `result`'s
/// status otherwise (unsupported, invalid_problem, or no_impact with Γ = 0 and u⁺ = u⁻).
/// Returns true when a law should go on to solve it.
bool read_planar_contact(const ImpactProblem& problem, PlanarContact& contact,
                         ImpactResult& result);

/// Sliding with slip direction σ = ±1: friction opposes slip, r = −μd σ (paper 004 eq. 8).
PlanarMode sliding_mode(const PlanarContact& contact, double slip_direction, PhaseKind kind);

/// Sticking: the tangential impulse keeps du_t = 0, r = −c/b (paper 004 eq. 13).
PlanarMode sticking_mode(const PlanarContact& contact);

/// μc = |c| / b, the friction ratio that sticking needs (paper 004 eq. 14, which writes −c/b for
/// its example where c < 0). Depends on the configuration only.
double critical_friction(const PlanarContact& contact);

/// Sticking, once reached, persists iff μs ≥ μc (paper 004 eq. 16; paper 000 case (i)(b)).
/// When μd > μs (unusual, and warned about by diagnose()) and μs < μc ≤ μd, no slip direction is
/// consistent either: kinetic friction would stop any slip at once. The contact then sticks, so
/// the test is μc ≤ max(μs, μd).
bool stick_is_stable(const PlanarContact& contact);

/// The slip direction the dynamics choose when slip starts from zero and sticking cannot hold:
/// σ = sign(c). Then du_t/dΓ_n = σ(|c| − μd b) has the sign of σ because μd < μc whenever
/// sticking is unstable (see stick_is_stable). After a
/// halt this is −σ_I (paper 004 eq. 23): slip decreasing under σ_I with |c| > μd b forces
/// sign(c) = −σ_I.
double slip_direction_from_rest(const PlanarContact& contact);

/// The mode at the start of the impact: sliding along the initial slip, or, without initial slip,
/// sticking if it is stable and sliding in the direction the dynamics choose otherwise.
PlanarMode initial_mode(const PlanarContact& contact);

/// The mode once slip has halted: sticking if stable, else reverse sliding (paper 004 §3.2–3.3).
PlanarMode mode_after_slip_halts(const PlanarContact& contact);

/// Fills impulse, u⁺, ΔT, works and the energy flags of a solved planar impact.
/// `compression_work` is W_c = ∫ u_n dΓ_n over compression [J], needed for the normal-dissipation
/// check against Stronge's energetic definition (restitution work = −e² W_c).
void finish_planar_result(const ImpactProblem& problem, double normal_impulse,
                          double tangential_impulse, double u_n, double u_t, double normal_work,
                          double tangential_work, double compression_work, ImpactResult& result);

}  // namespace routh
