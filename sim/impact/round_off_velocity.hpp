#pragma once
// Round-off velocities in an impact problem. A simulated resting contact (the pivot of a rocking
// block) carries a normal velocity and a slip of ~1e-11 of the impact speed, left by the
// integrator and the constraint projection. Laws whose answer depends on the signs of velocities
// (which contacts are active, which way a contact slips, whether static or kinetic friction
// acts) read such entries as exactly zero: touching, not slipping. The answer then moves by about
// kRoundOffVelocity of the velocity scale, below what the event location resolves; the law adds
// the entries back into u⁺ and ΔT, so that u⁺ = u⁻ + DΓ holds for the u⁻ it was given.

#include <algorithm>
#include <cmath>

#include "sim/impact/impact_problem.hpp"

namespace routh {

/// Velocities below this fraction of the largest normal speed |u_n⁻| are round-off.
inline constexpr double kRoundOffVelocity = 1e-8;

/// u⁻ of `count` contacts of `rows_per_contact` rows each, with every entry at round-off of the
/// largest normal speed set to exactly zero.
inline ContactVector without_round_off(const ContactVector& u_pre, int count,
                                       int rows_per_contact) {
  double normal_scale = 0.0;
  for (int k = 0; k < count; ++k) {
    normal_scale = std::max(normal_scale, std::abs(u_pre[rows_per_contact * k]));
  }
  ContactVector u = u_pre;
  for (Eigen::Index i = 0; i < u.size(); ++i) {
    if (std::abs(u[i]) <= kRoundOffVelocity * normal_scale) u[i] = 0.0;
  }
  return u;
}

}  // namespace routh
