#pragma once
// The output of every impact law (docs/laws.md): impulses, post-impact contact velocities, the
// phase trace in normal impulse, the energy balance and flags that say where the physics is
// suspect.

#include <boost/container/static_vector.hpp>
#include <cstdint>
#include <string_view>

#include "sim/impact/contact_vector.hpp"

namespace routh {

/// How the contact point moves during one phase of the impact.
enum class PhaseKind {
  slide,          ///< slipping in the initial direction (or the direction the dynamics choose)
  stick,          ///< no slip; the tangential impulse keeps the slip at zero
  reverse_slide,  ///< slipping again, opposite to the initial direction, after the slip halted
};

/// Which stage of the normal process a phase belongs to.
enum class Stage {
  compression,  ///< u_n < 0: the bodies still approach
  restitution,  ///< u_n ≥ 0: the bodies separate
};

/// One phase of constant contact mode and stage, parameterised by normal impulse [N s].
struct Phase {
  PhaseKind kind = PhaseKind::slide;
  Stage stage = Stage::compression;
  double normal_impulse_from = 0.0;  ///< Γ_n at the start of the phase [N s]
  double normal_impulse_to = 0.0;    ///< Γ_n at its end [N s]
  int contact = 0;                   ///< which contact, for multi-contact laws
};

inline constexpr int kMaxPhases = 16;
using PhaseTrace = boost::container::static_vector<Phase, kMaxPhases>;

/// The planar single-contact impact types of paper 004 §5, plus the two that start without slip.
enum class ImpactType {
  none,                            ///< no impact was solved
  permanent_sliding,               ///< slip never halts (004: I_nh > I_nf)
  sticking_in_compression,         ///< slip halts in compression and sticking persists
  reverse_sliding_in_compression,  ///< slip halts in compression and reverses (μs < μc)
  sticking_in_restitution,         ///< slip halts in restitution and sticking persists
  reverse_sliding_in_restitution,  ///< slip halts in restitution and reverses (μs < μc)
  sticking_throughout,             ///< no slip at any time
  multi_contact,                   ///< several contacts: see the phase trace
};

/// Whether the law produced an answer.
enum class ImpactStatus {
  solved,           ///< impulses and velocities are valid
  no_impact,        ///< no contact approaches: Γ = 0, u⁺ = u⁻
  invalid_problem,  ///< D is not symmetric positive definite, or the parameters are out of range
  unsupported,      ///< the law does not handle this dimension or number of contacts
  no_solution,      ///< the law's own equations have no admissible solution for this problem
  /// The law's arithmetic broke down: its answer held ±∞ or NaN (a vanishing pivot, overflow at
  /// an extreme scale). Set by the guard every law passes through (law_guard.hpp), never solved.
  non_finite,
};

/// Physics warnings attached to a solved impact; several may hold at once.
enum class ImpactFlag : std::uint32_t {
  /// ΔT > 0: the impact creates kinetic energy. Newton's restitution with friction can do this
  /// (Kane & Levinson's paradox; paper 004 Table 1); routh reports it and never "fixes" it.
  energy_gain = 1u << 0,
  /// The normal impulse does not dissipate what e says it should: its restitution work differs
  /// from −e² times its compression work (Stronge; paper 004 §6 and Table 2, Poisson with e = 1).
  nonphysical_normal_dissipation = 1u << 1,
  /// The conventional method's assumption fails on its own answer: it assumed sliding throughout
  /// but the final slip opposes the initial slip (the friction impulse would have reversed).
  /// Likewise `lcp`: within a stage the slip reversed, yet all of that stage's friction opposes
  /// its final slip.
  slip_reversal_ignored = 1u << 2,
  /// The contact jammed: the slip halted where sticking holds but no impulse can separate the
  /// bodies (a singular D, e.g. a one-degree-of-freedom pendulum striking a wall: there u_t is
  /// proportional to u_n, so the slip and the approach stop together). The impact ends with the
  /// contact at rest, whatever the restitution.
  contact_jammed = 1u << 3,
  /// The impact went through more phases than a PhaseTrace holds (kMaxPhases): `phases` lists
  /// the first ones only. The impulses, velocities and works cover the whole impact.
  phase_trace_truncated = 1u << 4,
  /// Set by the simulator, not by a law: the scenario's law could not answer this impact (the
  /// event's `status` names what it said), so the `lcp` law, which always answers a problem a
  /// model can produce, resolved it instead (a law that cannot answer never aborts a run).
  law_fallback = 1u << 5,
};

/// Bit set of ImpactFlag values.
class ImpactFlags {
 public:
  void set(ImpactFlag flag) { bits_ |= static_cast<std::uint32_t>(flag); }
  bool has(ImpactFlag flag) const { return (bits_ & static_cast<std::uint32_t>(flag)) != 0; }
  bool any() const { return bits_ != 0; }

 private:
  std::uint32_t bits_ = 0;
};

inline constexpr ImpactFlag kAllImpactFlags[] = {
    ImpactFlag::energy_gain,           ImpactFlag::nonphysical_normal_dissipation,
    ImpactFlag::slip_reversal_ignored, ImpactFlag::contact_jammed,
    ImpactFlag::phase_trace_truncated, ImpactFlag::law_fallback};

struct ImpactResult {
  ImpactStatus status = ImpactStatus::invalid_problem;
  ImpactType type = ImpactType::none;
  ContactVector impulse;  ///< Γ [N s], per contact normal first
  ContactVector u_post;   ///< u⁺ [m/s]
  PhaseTrace phases;
  double delta_T = 0.0;      ///< kinetic energy change ΔT = Γᵀu⁻ + ½ΓᵀDΓ [J]
  double normal_work = 0.0;  ///< W_n = ∫ u_n dΓ_n [J]
  /// W_t = ∫ u_t·dΓ_t [J], never positive for Coulomb friction along the impulse history; `lcp`
  /// has none and reports straight-path works per stage, which can be positive (lcp.hpp)
  double tangential_work = 0.0;
  ImpactFlags flags;
};

std::string_view to_string(PhaseKind kind);
std::string_view to_string(Stage stage);
std::string_view to_string(ImpactType type);  ///< in words, e.g. "non-sliding in compression"
std::string_view to_string(ImpactStatus status);
std::string_view to_string(ImpactFlag flag);

}  // namespace routh
