#pragma once
// The event-driven simulator (DESIGN §4). Between events the smooth dynamics of the current
// contact modes is integrated with Odeint's controlled dense-output dopri5; after every accepted
// step each contact's witness is checked on (t0, t1] and the earliest trigger is isolated on the
// step's dense output with TOMS 748 (witness_function.hpp); the event is handled, the modes are
// updated, and integration restarts from the event. Witnesses per contact mode:
//
//   mode      witness               direction                     event
//   open      gap g                 positive_then_non_positive    impact
//   closed    normal force λ_n      positive_then_non_positive    lift-off
//   stick     μs λ_n − |λ_t|        positive_then_non_positive    slip
//   slide     σ u_t                 positive_then_non_positive    stick or reversal
//
// Impacts go to the scenario's law in contact space. An impact whose approach speed is below
// the rest speed closes the contact (persistent contact, DESIGN §4.4); if the impacts before it
// formed a geometric sequence in time, time jumps to the sequence's limit (the Zeno point),
// carrying the other coordinates along the closed-contact flow. A contact that friction leaves
// without consistent forces (Painlevé's paradox: it can neither stay closed nor open) gets a
// `painleve` event and an impact without collision, solved by the law from u_n = 0.

#include <Eigen/Core>
#include <vector>

#include "sim/dynamics/mechanical_system.hpp"
#include "sim/simulation/contact_mode.hpp"
#include "sim/simulation/run_status.hpp"
#include "sim/simulation/simulation_settings.hpp"
#include "sim/simulation/trajectory_observer.hpp"

namespace routh {

/// t, q, v and the contact modes: everything the simulation carries from step to step.
struct SimulationState {
  double t = 0.0;                  ///< [s]
  Eigen::VectorXd q;               ///< generalized coordinates
  Eigen::VectorXd v;               ///< generalized velocities
  std::vector<ContactMode> modes;  ///< per contact; empty: decided from the initial state
};

/// How a run ended.
struct SimulationOutcome {
  SimulationState final_state;
  int impacts = 0;
  int events = 0;
  RunStatus status = RunStatus::completed;
  std::string detail;  ///< what stopped a run that did not complete, in words; "" if completed
};

/// Runs the system from `initial` for settings.duration, reporting to `observer`.
SimulationOutcome simulate(const MechanicalSystem& system, SimulationState initial,
                           const SimulationSettings& settings, TrajectoryObserver& observer);

}  // namespace routh
