#include "sim/impact/routh_incremental.hpp"

namespace routh {

ImpactType impact_type_after_halt(ModeEnd halt, PhaseKind mode_after_halt) {
  const bool sticks = mode_after_halt == PhaseKind::stick;
  if (halt == ModeEnd::slip_halted_in_compression) {
    return sticks ? ImpactType::sticking_in_compression
                  : ImpactType::reverse_sliding_in_compression;
  }
  return sticks ? ImpactType::sticking_in_restitution : ImpactType::reverse_sliding_in_restitution;
}

}  // namespace routh
