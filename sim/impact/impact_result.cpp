#include "sim/impact/impact_result.hpp"

namespace routh {

std::string_view to_string(PhaseKind kind) {
  switch (kind) {
    case PhaseKind::slide: return "slide";
    case PhaseKind::stick: return "stick";
    case PhaseKind::reverse_slide: return "reverse-slide";
  }
  return "?";
}

std::string_view to_string(Stage stage) {
  return stage == Stage::compression ? "compression" : "restitution";
}

// The words of paper 004 §5 for its five types.
std::string_view to_string(ImpactType type) {
  switch (type) {
    case ImpactType::none: return "none";
    case ImpactType::permanent_sliding: return "permanent sliding";
    case ImpactType::sticking_in_compression: return "non-sliding in compression";
    case ImpactType::reverse_sliding_in_compression: return "reverse sliding in compression";
    case ImpactType::sticking_in_restitution: return "non-sliding in restitution";
    case ImpactType::reverse_sliding_in_restitution: return "reverse sliding in restitution";
    case ImpactType::sticking_throughout: return "non-sliding throughout";
    case ImpactType::multi_contact: return "multi-contact";
  }
  return "?";
}

std::string_view to_string(ImpactStatus status) {
  switch (status) {
    case ImpactStatus::solved: return "solved";
    case ImpactStatus::no_impact: return "no_impact";
    case ImpactStatus::invalid_problem: return "invalid_problem";
    case ImpactStatus::unsupported: return "unsupported";
    case ImpactStatus::no_solution: return "no_solution";
    case ImpactStatus::non_finite: return "non_finite";
  }
  return "?";
}

std::string_view to_string(ImpactFlag flag) {
  switch (flag) {
    case ImpactFlag::energy_gain: return "energy_gain";
    case ImpactFlag::nonphysical_normal_dissipation: return "nonphysical_normal_dissipation";
    case ImpactFlag::slip_reversal_ignored: return "slip_reversal_ignored";
    case ImpactFlag::contact_jammed: return "contact_jammed";
    case ImpactFlag::phase_trace_truncated: return "phase_trace_truncated";
    case ImpactFlag::law_fallback: return "law_fallback";
  }
  return "?";
}

}  // namespace routh
