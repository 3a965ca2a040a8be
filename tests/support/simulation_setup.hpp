#pragma once
// Simulation setups that several simulator tests share: Poisson settings for one contact, and
// Housner's rocking block released from a tilt.

#include <cmath>

#include "models/named_models.hpp"
#include "models/planar/initial_state.hpp"
#include "sim/impact/law_catalogue.hpp"
#include "sim/impact/poisson.hpp"
#include "sim/simulation/simulator.hpp"
#include "trajectory_memory.hpp"

namespace routh::test {

/// Settings for `duration` [s] at 100 Hz output with the Poisson law and one contact (e, μs, μd);
/// push more contacts for a system that has them.
inline SimulationSettings poisson_settings(double duration, double e, double mu_s, double mu_d) {
  SimulationSettings settings;
  settings.duration = duration;
  settings.output_rate = 100.0;
  settings.law = solve_poisson;
  settings.contacts.push_back({e, mu_s, mu_d});
  return settings;
}

/// Housner's 0.2 m x 1.0 m block (1 kg), half-width b = 0.1 m, half-height h = 0.5 m.
inline constexpr double kHousnerHalfWidth_m = 0.1;
inline constexpr double kHousnerHalfHeight_m = 0.5;

/// Housner's block released at rest at tilt `release_angle` [rad] (default: half its critical
/// angle α = atan(b/h)) on its left corner, with plastic corner impacts and friction μ at every
/// corner; simultaneous impacts go to multipoint_energetic.
inline SimulationOutcome rock_housner_block(
    double duration, double mu, TrajectoryMemory& trajectory,
    double release_angle = 0.5 * std::atan(kHousnerHalfWidth_m / kHousnerHalfHeight_m)) {
  const auto block = make_rocking_block(2.0 * kHousnerHalfWidth_m, 2.0 * kHousnerHalfHeight_m, 1.0);
  const PlanarState start = complete_initial_state(*block, {{"theta", release_angle}});
  SimulationState initial;
  initial.q = start.q;
  initial.v = start.v;
  SimulationSettings settings = poisson_settings(duration, 0.0, mu, mu);
  settings.contacts.assign(static_cast<std::size_t>(block->contact_count()), {0.0, mu, mu});
  settings.multi_contact_law = find_law("multipoint_energetic")->solve;
  return simulate(*block, initial, settings, trajectory);
}

}  // namespace routh::test
