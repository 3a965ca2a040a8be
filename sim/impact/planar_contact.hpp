#pragma once
// One planar contact during an impact, with the normal impulse Γ_n as the time-like variable
// (Keller; Wang & Mason; paper 004 §2–3, paper 000 §3). Within a phase of constant contact mode
// the friction impulse is proportional to the normal one, dΓ_t = r dΓ_n, so the contact velocities
// are linear in Γ_n: du/dΓ_n = D (1, r)ᵀ. These helpers give r and the two rates for each mode.
//
// Signs follow docs/design.md §2: u = (u_n, u_t), u_n < 0 approaches, Γ_n ≥ 0, D = [[a, c], [c,
// b]].
//
// Everything here is inline: a planar solve is a few hundred instructions, and calling these
// helpers out of line cost a third of it (tools/bench/impact_laws_benchmark).

#include <algorithm>
#include <cmath>

#include "sim/impact/impact_problem.hpp"
#include "sim/impact/impact_result.hpp"

namespace routh {

namespace planar_detail {

// ΔT above this fraction of |Γᵀu⁻| is a real gain, not round-off in Γᵀu⁻ + ½ΓᵀDΓ.
inline constexpr double kEnergyGainTolerance = 1e-12;
// Relative size below which a rate or a determinant of D is round-off, i.e. zero (a singular D,
// one degree of freedom, makes both exactly zero in exact arithmetic).
inline constexpr double kRoundOff = 1e-12;
// Restitution work may differ from −e² W_c by round-off of the phase-wise work sums.
inline constexpr double kNormalDissipationTolerance = 1e-9;

inline double sign(double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0); }

}  // namespace planar_detail

/// A single planar contact: D = [[a, c], [c, b]] (paper 004 eq. 5) and its parameters.
struct PlanarContact {
  double a = 0.0;    ///< D_nn [1/kg]: normal velocity change per unit normal impulse
  double b = 0.0;    ///< D_tt [1/kg]: tangential velocity change per unit tangential impulse
  double c = 0.0;    ///< D_nt [1/kg]: coupling of normal impulse into slip and vice versa
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

/// The mode of friction ratio r = dΓ_t/dΓ_n: du/dΓ_n = D (1, r)ᵀ. A normal rate that is zero up
/// to round-off is set to exactly zero: sticking with a singular D (ab = c², one degree of
/// freedom) moves nothing, and a + c r there is a − c²/b, a cancellation.
inline PlanarMode planar_mode(const PlanarContact& contact, PhaseKind kind, double r) {
  const double slip_rate = kind == PhaseKind::stick ? 0.0 : contact.c + contact.b * r;
  double normal_rate = contact.a + contact.c * r;
  if (std::abs(normal_rate) <= planar_detail::kRoundOff * contact.a) normal_rate = 0.0;
  return {kind, r, normal_rate, slip_rate};
}

/// Where a planar impact stands after the normal impulse Γ_n (all integrals from Γ_n = 0).
struct PlanarImpactState {
  double normal_impulse = 0.0;      ///< Γ_n [N s]
  double tangential_impulse = 0.0;  ///< Γ_t [N s]
  double u_n = 0.0;                 ///< [m/s]
  double u_t = 0.0;                 ///< [m/s]
  double normal_work = 0.0;         ///< W_n = ∫ u_n dΓ_n [J] (paper 004 eq. 28)
  double tangential_work = 0.0;     ///< W_t = ∫ u_t dΓ_t [J] (paper 004 eq. 30)
  Stage stage = Stage::compression;
  double compression_impulse = 0.0;  ///< Γ_n at the end of compression, I_nc [N s]
  double compression_work = 0.0;     ///< W_nc [J] (paper 004 eq. 29)
};

/// Sliding with slip direction σ = ±1: friction opposes slip, r = −μd σ (paper 004 eq. 8).
inline PlanarMode sliding_mode(const PlanarContact& contact, double slip_direction,
                               PhaseKind kind) {
  return planar_mode(contact, kind, -contact.parameters.kinetic_friction * slip_direction);
}

/// Sticking: the tangential impulse keeps du_t = 0, r = −c/b (paper 004 eq. 13).
inline PlanarMode sticking_mode(const PlanarContact& contact) {
  return planar_mode(contact, PhaseKind::stick, -contact.c / contact.b);
}

/// μc = |c| / b, the friction ratio that sticking needs (paper 004 eq. 14, which writes −c/b for
/// its example where c < 0). Depends on the configuration only.
inline double critical_friction(const PlanarContact& contact) {
  return std::abs(contact.c) / contact.b;
}

/// Sticking, once reached, persists iff μs ≥ μc (paper 004 eq. 16; paper 000 case (i)(b)).
/// When μd > μs (unusual, and warned about by diagnose()) and μs < μc ≤ μd, no slip direction is
/// consistent either: kinetic friction would stop any slip at once. The contact then sticks, so
/// the test is μc ≤ max(μs, μd).
inline bool stick_is_stable(const PlanarContact& contact) {
  const auto& k = contact.parameters;
  return critical_friction(contact) <= std::max(k.static_friction, k.kinetic_friction);
}

/// The slip direction the dynamics choose when slip starts from zero and sticking cannot hold:
/// σ = sign(c). Then du_t/dΓ_n = σ(|c| − μd b) has the sign of σ because μd < μc whenever
/// sticking is unstable (see stick_is_stable). After a
/// halt this is −σ_I (paper 004 eq. 23): slip decreasing under σ_I with |c| > μd b forces
/// sign(c) = −σ_I.
inline double slip_direction_from_rest(const PlanarContact& contact) {
  return planar_detail::sign(contact.c);
}

/// The mode at the start of the impact: sliding along the initial slip, or, without initial slip,
/// sticking if it is stable and sliding in the direction the dynamics choose otherwise.
inline PlanarMode initial_mode(const PlanarContact& contact) {
  if (contact.u_t != 0.0) {
    return sliding_mode(contact, planar_detail::sign(contact.u_t), PhaseKind::slide);
  }
  if (stick_is_stable(contact)) return sticking_mode(contact);
  return sliding_mode(contact, slip_direction_from_rest(contact), PhaseKind::slide);
}

/// A closed contact (u_n = 0) whose initial mode drives the bodies together, du_n/dΓ_n < 0: in
/// Painlevé's configurations friction along the slip pushes the contact into the surface faster
/// than the normal impulse pushes it out. No force can keep such a contact closed, so an impulse
/// develops from u_n = 0: an impact without collision, or tangential impact (Génot & Brogliato
/// 1999; Stewart 2000). Routh's process handles it as any other: the slip compresses the contact
/// until it halts, then the impact proceeds as usual.
inline bool impacts_without_collision(const PlanarContact& contact) {
  return contact.u_n == 0.0 && initial_mode(contact).normal_rate < 0.0;
}

/// Checks that `problem` is one planar contact with a positive definite D and sets `result`'s
/// status otherwise (unsupported, invalid_problem, or no_impact with Γ = 0 and u⁺ = u⁻ when the
/// contact neither approaches nor impacts without collision).
/// Returns true when a law should go on to solve it.
inline bool read_planar_contact(const ImpactProblem& problem, PlanarContact& contact,
                                ImpactResult& result) {
  if (problem.dimension != ContactDimension::planar || problem.D.rows() != 2 ||
      problem.D.cols() != 2 || problem.u_pre.size() != 2 || problem.contacts.size() != 1) {
    result.status = ImpactStatus::unsupported;
    return false;
  }
  contact.a = problem.D(0, 0);
  contact.b = problem.D(1, 1);
  contact.c = 0.5 * (problem.D(0, 1) + problem.D(1, 0));  // D is symmetric up to round-off
  contact.u_n = problem.u_pre[0];
  contact.u_t = problem.u_pre[1];
  contact.parameters = problem.contacts[0];
  // D may be singular (ab = c²: one degree of freedom, u_t ∝ u_n) but not indefinite, and both
  // directions must move the bodies.
  const double determinant = contact.a * contact.b - contact.c * contact.c;
  const bool positive_semidefinite =
      contact.a > 0.0 && contact.b > 0.0 &&
      determinant >= -planar_detail::kRoundOff * contact.a * contact.b;
  if (!positive_semidefinite || !std::isfinite(contact.u_n) || !std::isfinite(contact.u_t)) {
    result.status = ImpactStatus::invalid_problem;
    return false;
  }
  if (!(contact.u_n < 0.0) && !impacts_without_collision(contact)) {
    result.status = ImpactStatus::no_impact;
    result.impulse.setZero(2);
    result.u_post = problem.u_pre;
    return false;
  }
  return true;
}

/// The mode once slip has halted: sticking if stable, else reverse sliding (paper 004 §3.2–3.3).
inline PlanarMode mode_after_slip_halts(const PlanarContact& contact) {
  if (stick_is_stable(contact)) return sticking_mode(contact);
  return sliding_mode(contact, slip_direction_from_rest(contact), PhaseKind::reverse_slide);
}

/// Fills impulse, u⁺, ΔT, works and the energy flags of a solved planar impact from where it
/// ended. The normal-dissipation flag compares the restitution work with Stronge's −e² W_nc.
inline void finish_planar_result(const PlanarContact& contact, const PlanarImpactState& end,
                                 ImpactResult& result) {
  result.status = ImpactStatus::solved;
  result.impulse.resize(2);
  result.impulse[0] = end.normal_impulse;
  result.impulse[1] = end.tangential_impulse;
  result.u_post.resize(2);
  result.u_post[0] = end.u_n;
  result.u_post[1] = end.u_t;
  result.normal_work = end.normal_work;
  result.tangential_work = end.tangential_work;
  // ΔT = Γᵀu⁻ + ½ΓᵀDΓ (docs/design.md §2) for D = [[a, c], [c, b]], in scalars: through the general
  // kinetic_energy_change this one line would cost more than the whole impact law.
  const double work_of_impulse =
      end.normal_impulse * contact.u_n + end.tangential_impulse * contact.u_t;
  result.delta_T =
      work_of_impulse + 0.5 * (contact.a * end.normal_impulse * end.normal_impulse +
                               2.0 * contact.c * end.normal_impulse * end.tangential_impulse +
                               contact.b * end.tangential_impulse * end.tangential_impulse);
  if (result.delta_T > planar_detail::kEnergyGainTolerance * std::abs(work_of_impulse)) {
    result.flags.set(ImpactFlag::energy_gain);
  }
  // Stronge: an energetically consistent normal impulse returns e² of the compression work.
  const double e = contact.parameters.restitution;
  const double restitution_work = end.normal_work - end.compression_work;
  if (std::abs(restitution_work + e * e * end.compression_work) >
      planar_detail::kNormalDissipationTolerance * std::abs(end.compression_work)) {
    result.flags.set(ImpactFlag::nonphysical_normal_dissipation);
  }
}

}  // namespace routh
