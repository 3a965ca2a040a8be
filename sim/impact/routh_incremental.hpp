#pragma once
// Routh's incremental method for one planar contact (Routh 1897; Keller 1986; Wang & Mason 1992;
// paper 000 §3–4; paper 004 §5). The impact is followed in the normal impulse Γ_n: within a
// phase the contact mode is constant and the velocities change linearly (planar_contact.hpp), so
// every phase is solved in closed form. Three events can end a phase:
//   - compression ends:  u_n reaches 0 (paper 004 eq. 33 for a sliding phase);
//   - slip halts:        u_t reaches 0 (paper 004 eq. 31); then sticking persists if μs ≥ μc,
//                        otherwise slip restarts the other way (paper 004 eqs. 16, 19, 23);
//   - the impact ends:   in restitution, where the restitution rule says.
// The equations are linear, so the slip halts at most once (paper 000 §3): the impact follows
// its initial mode until the slip halts or the impact ends, then, if it halted, the mode after
// the halt until the end. Each mode may cross the end of compression, so there are at most
// three phases. Events that coincide to round-off are taken together, which handles paper 000's
// case (ii), slip halting exactly at the end of compression, exactly.
//
// A RestitutionRule is a small concept (Odeint style): a type with
//     double impulse_to_end(const PlanarImpactState& state, const PlanarMode& mode,
//                           double horizon) const;
// returning the normal-impulse increment after which the impact ends, were the current
// restitution phase, of mode `mode` (du_n/dΓ_n = mode.normal_rate > 0), to continue; a rule may
// return any value beyond `horizon` (where the slip halts) when the end is not within it. Newton's,
// Poisson's and the energetic rules live with their laws (newton_routh.hpp, poisson.hpp,
// energetic.hpp).

#include <algorithm>
#include <limits>

#include "sim/impact/planar_contact.hpp"

namespace routh {

inline constexpr double kNeverInImpulse = std::numeric_limits<double>::infinity();

/// Events closer than this fraction of the normal impulse are one event: it keeps a phase of
/// round-off length from appearing when slip halts exactly at the end of compression.
inline constexpr double kCoincidentEvents = 1e-12;

/// Whether an event `first` normal impulse ahead comes no later than one `second` ahead, for an
/// impact that has accumulated `impulse_so_far` (coincident events count as simultaneous).
inline bool no_later_than(double first, double second, double impulse_so_far) {
  return first <= second + kCoincidentEvents * (impulse_so_far + second);
}

/// Normal-impulse increment after which u_n reaches 0 in compression (paper 004 eq. 33), or ∞:
/// a sliding mode with a + c r ≤ 0 keeps compressing until the slip halts.
inline double impulse_to_compression_end(const PlanarImpactState& state, const PlanarMode& mode) {
  return mode.normal_rate > 0.0 ? -state.u_n / mode.normal_rate : kNeverInImpulse;
}

/// Normal-impulse increment after which the slip reaches 0 (paper 004 eq. 31), or ∞.
inline double impulse_to_slip_halt(const PlanarImpactState& state, const PlanarMode& mode) {
  return state.u_t * mode.slip_rate < 0.0 ? -state.u_t / mode.slip_rate : kNeverInImpulse;
}

/// Moves `state` along `mode` by `impulse` and appends the phase to `phases` (phases of zero
/// length are not recorded).
inline void advance_phase(const PlanarMode& mode, double impulse, PlanarImpactState& state,
                          PhaseTrace& phases) {
  if (impulse > 0.0) {
    phases.push_back(
        Phase{mode.kind, state.stage, state.normal_impulse, state.normal_impulse + impulse, 0});
  }
  // Exact integrals of the linear velocities over the phase (paper 004 eqs. 28, 30).
  const double mean_u_n = state.u_n + 0.5 * mode.normal_rate * impulse;
  const double mean_u_t = state.u_t + 0.5 * mode.slip_rate * impulse;
  state.normal_work += mean_u_n * impulse;
  state.tangential_work += mean_u_t * mode.friction_ratio * impulse;
  state.normal_impulse += impulse;
  state.tangential_impulse += mode.friction_ratio * impulse;
  state.u_n += mode.normal_rate * impulse;
  state.u_t += mode.slip_rate * impulse;
}

/// Compression has ended: u_n = 0 exactly, and I_nc and W_nc are recorded.
inline void enter_restitution(PlanarImpactState& state) {
  state.u_n = 0.0;
  state.stage = Stage::restitution;
  state.compression_impulse = state.normal_impulse;
  state.compression_work = state.normal_work;
}

/// How following one contact mode ended.
enum class ModeEnd {
  impact_ended,
  slip_halted_in_compression,  ///< including exactly at the end of compression (case (ii))
  slip_halted_in_restitution,
  jammed,   ///< in restitution, a mode that cannot separate the bodies (singular D, sticking)
  stalled,  ///< in compression, neither event can come (singular D: sticking while approaching)
};

/// Follows `mode` from `state` until the slip halts, `to_slip_halt` normal impulse ahead (∞ if
/// it never does), or the impact ends, crossing the end of compression if it comes first.
template <class RestitutionRule>
[[gnu::always_inline]] inline ModeEnd follow_mode(const PlanarMode& mode, double to_slip_halt,
                                                  const RestitutionRule& rule,
                                                  PlanarImpactState& state, PhaseTrace& phases) {
  if (state.stage == Stage::compression) {
    const double to_compression_end = impulse_to_compression_end(state, mode);
    if (!no_later_than(to_compression_end, to_slip_halt, state.normal_impulse)) {
      if (!(to_slip_halt < kNeverInImpulse)) return ModeEnd::stalled;
      advance_phase(mode, to_slip_halt, state, phases);
      return ModeEnd::slip_halted_in_compression;
    }
    const bool simultaneous = no_later_than(to_slip_halt, to_compression_end, state.normal_impulse);
    advance_phase(mode, to_compression_end, state, phases);
    enter_restitution(state);
    if (simultaneous) return ModeEnd::slip_halted_in_compression;
    to_slip_halt -= to_compression_end;
  }
  if (!(mode.normal_rate > 0.0)) return ModeEnd::jammed;  // nothing can separate the bodies
  const double to_impact_end = std::max(0.0, rule.impulse_to_end(state, mode, to_slip_halt));
  if (no_later_than(to_impact_end, to_slip_halt, state.normal_impulse)) {
    advance_phase(mode, to_impact_end, state, phases);
    // a halt at the very end leaves no later phase, only a slip of exactly zero
    if (no_later_than(to_slip_halt, to_impact_end, state.normal_impulse)) state.u_t = 0.0;
    return ModeEnd::impact_ended;
  }
  advance_phase(mode, to_slip_halt, state, phases);
  return ModeEnd::slip_halted_in_restitution;
}

/// Paper 004 §5's type of an impact whose slip halted, from when and what followed.
ImpactType impact_type_after_halt(ModeEnd halt, PhaseKind mode_after_halt);

/// Solves one planar contact by Routh's incremental method with the given restitution rule.
template <class RestitutionRule>
ImpactResult routh_incremental_impact(const ImpactProblem& problem, const RestitutionRule& rule) {
  ImpactResult result;
  PlanarContact contact;
  if (!read_planar_contact(problem, contact, result)) return result;
  PlanarImpactState state;
  state.u_n = contact.u_n;
  state.u_t = contact.u_t;

  const PlanarMode initial = initial_mode(contact);
  const ModeEnd halt =
      follow_mode(initial, impulse_to_slip_halt(state, initial), rule, state, result.phases);
  if (halt == ModeEnd::impact_ended) {
    result.type = initial.kind == PhaseKind::stick ? ImpactType::sticking_throughout
                                                   : ImpactType::permanent_sliding;
    finish_planar_result(contact, state, result);
    return result;
  }
  if (halt == ModeEnd::stalled || halt == ModeEnd::jammed) {
    result.status = ImpactStatus::no_solution;
    return result;
  }
  state.u_t = 0.0;
  const PlanarMode after_halt = mode_after_slip_halts(contact);
  const ModeEnd end = follow_mode(after_halt, kNeverInImpulse, rule, state, result.phases);
  if (end != ModeEnd::impact_ended && end != ModeEnd::jammed) {
    result.status = ImpactStatus::no_solution;
    return result;
  }
  result.type = impact_type_after_halt(halt, after_halt.kind);
  finish_planar_result(contact, state, result);
  if (end == ModeEnd::jammed) result.flags.set(ImpactFlag::contact_jammed);
  return result;
}

}  // namespace routh
