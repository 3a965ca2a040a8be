#pragma once
// Routh's incremental method for one planar contact (Routh 1897; Keller 1986; Wang & Mason 1992;
// paper 000 §3–4; paper 004 §5). The impact is followed in the normal impulse Γ_n: within each
// phase the contact mode is constant and the velocities change linearly (planar_contact.hpp), so
// every phase is solved in closed form. Phases end at three kinds of event:
//   - compression ends:  u_n reaches 0 (paper 004 eq. 33 for a sliding phase);
//   - slip halts:        u_t reaches 0 (paper 004 eq. 31); then sticking persists if μs ≥ μc,
//                        otherwise slip restarts the other way (paper 004 eqs. 16, 19, 23);
//   - the impact ends:   in restitution, where the restitution rule says.
// Slip can halt at most once (the equations are linear, paper 000 §3), so an impact has at most
// three phases. Events that coincide to round-off are taken together, which handles paper 000's
// case (ii) (slip halting exactly at the end of compression) exactly.
//
// A RestitutionRule is a small concept (Odeint style): a type with
//     double impulse_to_end(const PlanarImpactState& state, double normal_rate) const;
// returning the normal-impulse increment (≥ 0) after which the impact ends, were the current
// restitution phase, with du_n/dΓ_n = normal_rate > 0, to continue. Newton's, Poisson's and the
// energetic rules live with their laws (newton_routh.hpp, poisson.hpp, energetic.hpp).

#include <algorithm>
#include <limits>

#include "sim/impact/planar_contact.hpp"

namespace routh {

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

/// The events that end the current phase, and after how much normal impulse.
struct PhaseEnd {
  double impulse = 0.0;  ///< normal-impulse increment to the end of the phase [N s]
  bool compression_ends = false;
  bool slip_halts = false;
  bool impact_ends = false;
};

/// Normal-impulse increment after which u_n reaches 0 in compression (paper 004 eq. 33).
double impulse_to_compression_end(const PlanarImpactState& state, const PlanarMode& mode);

/// Normal-impulse increment after which the slip reaches 0 (paper 004 eq. 31), or +∞.
double impulse_to_slip_halt(const PlanarImpactState& state, const PlanarMode& mode);

/// Picks the earliest of the candidate increments and every event that coincides with it.
PhaseEnd earliest_events(const PlanarImpactState& state, double to_compression_end,
                         double to_slip_halt, double to_impact_end);

/// Moves `state` along `mode` by the phase's normal impulse and appends the phase to `phases`
/// (phases of zero length are not recorded). Events are applied by the caller.
void advance_phase(const PlanarMode& mode, double impulse, PlanarImpactState& state,
                   PhaseTrace& phases);

/// Compression has ended: u_n = 0 exactly, and I_nc and W_nc are recorded.
void enter_restitution(PlanarImpactState& state);

/// Paper 004 §5's classification from when slip halted (if it did) and what followed.
ImpactType classify_planar_impact(const PlanarContact& contact, bool slip_halted,
                                  Stage halt_stage, PhaseKind mode_after_halt);

/// Solves one planar contact by Routh's incremental method with the given restitution rule.
template <class RestitutionRule>
ImpactResult routh_incremental_impact(const ImpactProblem& problem, const RestitutionRule& rule) {
  constexpr double kNever = std::numeric_limits<double>::infinity();
  // Slip halting and compression ending split the impact into at most three phases; one more
  // pass ends a restitution of zero length (e = 0). Anything beyond means no progress.
  constexpr int kMaxPlanarPhases = 4;

  ImpactResult result;
  PlanarContact contact;
  if (!read_planar_contact(problem, contact, result)) return result;

  PlanarImpactState state;
  state.u_n = contact.u_n;
  state.u_t = contact.u_t;
  PlanarMode mode = initial_mode(contact);
  bool slip_halted = false;
  Stage halt_stage = Stage::compression;

  for (int phase = 0; phase < kMaxPlanarPhases; ++phase) {
    const bool compressing = state.stage == Stage::compression;
    const PhaseEnd end = earliest_events(
        state, compressing ? impulse_to_compression_end(state, mode) : kNever,
        impulse_to_slip_halt(state, mode),
        compressing ? kNever : rule.impulse_to_end(state, mode.normal_rate));
    if (!(end.impulse < kNever)) break;
    advance_phase(mode, end.impulse, state, result.phases);
    if (end.slip_halts) state.u_t = 0.0;
    if (end.slip_halts && !end.impact_ends) {  // a halt at the very end leaves no later phase
      slip_halted = true;
      halt_stage = state.stage;  // a halt exactly at the end of compression counts as in it
      mode = mode_after_slip_halts(contact);
    }
    if (end.compression_ends) enter_restitution(state);
    if (end.impact_ends) {
      result.type = classify_planar_impact(contact, slip_halted, halt_stage, mode.kind);
      finish_planar_result(problem, state.normal_impulse, state.tangential_impulse, state.u_n,
                           state.u_t, state.normal_work, state.tangential_work,
                           state.compression_work, result);
      return result;
    }
  }
  result.status = ImpactStatus::no_solution;
  return result;
}

}  // namespace routh
