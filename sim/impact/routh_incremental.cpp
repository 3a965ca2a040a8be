#include "sim/impact/routh_incremental.hpp"

#include <cmath>

namespace routh {

namespace {

// Events closer than this fraction of the normal impulse are one event: it keeps a phase of
// round-off length from appearing when slip halts exactly at the end of compression.
constexpr double kCoincidentEvents = 1e-12;
constexpr double kNever = std::numeric_limits<double>::infinity();

}  // namespace

double impulse_to_compression_end(const PlanarImpactState& state, const PlanarMode& mode) {
  // u_n(Γ) = u_n + normal_rate Γ reaches 0 only if the normal velocity rises; a sliding phase
  // with a + c r ≤ 0 keeps compressing until slip halts.
  return mode.normal_rate > 0.0 ? -state.u_n / mode.normal_rate : kNever;
}

double impulse_to_slip_halt(const PlanarImpactState& state, const PlanarMode& mode) {
  return state.u_t * mode.slip_rate < 0.0 ? -state.u_t / mode.slip_rate : kNever;
}

PhaseEnd earliest_events(const PlanarImpactState& state, double to_compression_end,
                         double to_slip_halt, double to_impact_end) {
  PhaseEnd end;
  end.impulse = std::max(0.0, std::min({to_compression_end, to_slip_halt, to_impact_end}));
  const double window = kCoincidentEvents * (state.normal_impulse + end.impulse);
  end.compression_ends = to_compression_end <= end.impulse + window;
  end.slip_halts = to_slip_halt <= end.impulse + window;
  end.impact_ends = to_impact_end <= end.impulse + window;
  return end;
}

void advance_phase(const PlanarMode& mode, double impulse, PlanarImpactState& state,
                   PhaseTrace& phases) {
  if (impulse > 0.0) {
    phases.push_back(Phase{mode.kind, state.stage, state.normal_impulse,
                           state.normal_impulse + impulse, 0});
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

void enter_restitution(PlanarImpactState& state) {
  state.u_n = 0.0;
  state.stage = Stage::restitution;
  state.compression_impulse = state.normal_impulse;
  state.compression_work = state.normal_work;
}

ImpactType classify_planar_impact(const PlanarContact& contact, bool slip_halted,
                                  Stage halt_stage, PhaseKind mode_after_halt) {
  if (!slip_halted) {
    const bool never_slipped = contact.u_t == 0.0 && mode_after_halt == PhaseKind::stick;
    return never_slipped ? ImpactType::sticking_throughout : ImpactType::permanent_sliding;
  }
  const bool sticks = mode_after_halt == PhaseKind::stick;
  if (halt_stage == Stage::compression) {
    return sticks ? ImpactType::sticking_in_compression
                  : ImpactType::reverse_sliding_in_compression;
  }
  return sticks ? ImpactType::sticking_in_restitution : ImpactType::reverse_sliding_in_restitution;
}

}  // namespace routh
