#pragma once
// The guard every law's public entry point passes its answer through (docs/design.md §3: a law
// never returns a non-finite number as solved, and never throws for a problem that passes
// validation).
//
// Two ways a law's arithmetic can break down on physical input, both turned into named statuses
// here so that the simulator can fall back to another law instead of aborting:
//  - an exception from a numerical tool (a Boost.Math bracket that round-off broke, an Odeint
//    step-size failure, a bad_alloc): the law could not find its answer → no_solution;
//  - a `solved` answer holding ±∞ or NaN (division by a vanishing pivot, overflow at extreme
//    scales) → non_finite.
// The check is a few comparisons per entry, and the try block costs nothing when nothing throws,
// so the laws stay allocation-free and fast.

#include <cmath>
#include <exception>

#include "sim/impact/impact_result.hpp"

namespace routh {

/// Whether every number a solved result reports is finite: Γ, u⁺, ΔT, the works and the phase
/// boundaries.
inline bool all_finite(const ImpactResult& result) {
  if (!result.impulse.allFinite() || !result.u_post.allFinite()) return false;
  if (!std::isfinite(result.delta_T) || !std::isfinite(result.normal_work) ||
      !std::isfinite(result.tangential_work)) {
    return false;
  }
  for (const Phase& phase : result.phases) {
    if (!std::isfinite(phase.normal_impulse_from) || !std::isfinite(phase.normal_impulse_to)) {
      return false;
    }
  }
  return true;
}

/// A solved result with a non-finite number becomes ImpactStatus::non_finite (the numbers are
/// kept for diagnosis); every other result is returned as it is.
inline ImpactResult checked_law_result(ImpactResult result) {
  if (result.status == ImpactStatus::solved && !all_finite(result)) {
    result.status = ImpactStatus::non_finite;
  }
  return result;
}

/// Runs a law's solver and checks its answer: an exception becomes no_solution (the law's method
/// could not find an answer), a non-finite solved answer becomes non_finite.
template <class Solve>
ImpactResult guarded_law(const Solve& solve) noexcept {
  try {
    return checked_law_result(solve());
  } catch (...) {
    ImpactResult result;
    result.status = ImpactStatus::no_solution;
    return result;
  }
}

}  // namespace routh
