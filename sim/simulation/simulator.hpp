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
#include "sim/impact/law_catalogue.hpp"
#include "sim/simulation/contact_mode.hpp"
#include "sim/simulation/run_status.hpp"
#include "sim/simulation/trajectory_observer.hpp"

namespace routh {

/// t, q, v and the contact modes: everything the simulation carries from step to step.
struct SimulationState {
  double t = 0.0;                  ///< [s]
  Eigen::VectorXd q;               ///< generalized coordinates
  Eigen::VectorXd v;               ///< generalized velocities
  std::vector<ContactMode> modes;  ///< per contact; empty: decided from the initial state
};

struct SimulationSettings {
  double duration = 1.0;       ///< [s] simulated time
  double output_rate = 100.0;  ///< [Hz] regular samples (events add their own)
  // Accuracy comes from the tolerances; the step bound only keeps a witness from hiding a double
  // sign change. At 1e-10 with 0.01 s steps a pendulum's energy drifted 9.2e-10 in 10 s and
  // free flight, which dopri5 integrates exactly, was cut into 0.01 s steps; at 3e-11 with
  // 0.05 s steps the pendulum drifts 6.5e-10 and a ball's flight takes a fifth of the steps.
  double relative_tolerance = 3e-11;  ///< dopri5 error control
  double absolute_tolerance = 3e-11;
  double max_step = 5e-2;  ///< [s] bound on steps, so a witness cannot hide a double sign change
  double time_tolerance = 1e-12;          ///< [s] events are isolated to this
  double rest_speed = 1e-6;               ///< [m/s] impacts slower than this close the contact
  double contact_distance = 1e-9;         ///< [m] contacts this close count as touching
  ImpactLaw law = nullptr;                ///< single-contact impacts
  ImpactLaw multi_contact_law = nullptr;  ///< simultaneous impacts at several contacts
  ContactParameterList contacts;          ///< per contact: e, μs, μd
  double wall_time_limit = 0.0;           ///< [s] of wall-clock time; 0: no limit
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
