#pragma once
// The event-driven simulator (docs/simulation.md). The loop (simulator.cpp) is a page of named
// stage calls over one RunState (run_state.hpp); each stage is a free function in its own file
// that a reader can test alone, and only the loop records events or ends a run:
//
//   stage                       file                        what it decides
//   active contacts             active_contacts.hpp         which contacts are evaluated; steps
//                                                           bounded by the broad phase's reach
//   smooth phase                smooth_phase.hpp,           ẋ, v̇ and the contact forces of the
//                               contact_forces.hpp          modes
//   forcing breakpoints         forcing_breakpoints.hpp     steps end short of a jump in forcing
//   witnesses                   witnesses.hpp               what each mode watches, and its value
//   event scan                  event_scan.hpp,             the earliest witness to trigger on a
//                               event_location.hpp          step, and where; gap jumps
//   event response              event_response.hpp          an impact's or a mode event's effect
//   base orientation            base_orientation.hpp        a flat base's square turned toward
//                                                           its load before a lift-off settles
//   contact modes               contact_modes.hpp           the modes after an event; Painlevé
//   impact step                 impact_step.hpp             who takes part, the law, Δv
//   Zeno and rest               zeno_rest.hpp, rest_rule.hpp  where an accumulation of impacts ends
//   dynamic jam                 dynamic_jam.hpp             a slide that nears Painlevé's
//                                                           singularity stops by an impulse
//   drift                       constraint_projection.hpp   back onto the closed constraints
//   outcome figures             outcome_tracking.hpp        rotation, slide, overturn, uplift
//   output                      output_sampling.hpp         the regular and event samples
//   guards                      run_guards.hpp              why a run cannot complete
//
// Between events Odeint's controlled dense-output dopri5 integrates the current modes; after
// every accepted step the witnesses are sampled at its end, the earliest trigger is located on
// the step's dense output, and the event's stage changes the modes or the velocities; then the
// integration restarts from the event. A run that cannot complete ends with a RunStatus.

#include <Eigen/Core>
#include <limits>
#include <string>
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

/// One watched body's figures (SimulationSettings::overturn_watch; outcome_figures.hpp names
/// them BODY.figure): how far it turned and slid, whether and when it overturned and after how
/// many impacts, and where it ended.
struct BodyOutcome {
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  std::string body;
  double max_abs_theta = 0.0;  ///< max over time of its tilt from upright [rad]
  /// max over time of its tilt over α of the side it leans to (rocking_slenderness.hpp) [-];
  /// NaN for a body without a standing base
  double max_theta_over_alpha = 0.0;
  bool overturned = false;
  double overturn_time = kNaN;  ///< [s], NaN: it did not
  int impacts = 0;         ///< impacts it took part in (a contact of its own), until it overturned
  double max_slide = 0.0;  ///< max over time of its slide (OverturnWatch) [m]; NaN: no base points
  /// its tilt at the run's end, signed for a planar body (θ − θ₀) [rad]
  double residual_rotation = kNaN;
  double residual_slide = kNaN;  ///< its slide at the run's end, signed along x [m]
};

/// The figures a study asks of a run (the file's /summary): when a resting body first lifted
/// off, whether and when a body overturned, how far the watched bodies turned, and the energy the
/// impacts dissipated; and each watched body's own figures.
struct RunSummary {
  double uplift_time = std::numeric_limits<double>::quiet_NaN();    ///< [s], NaN: no uplift
  double overturn_time = std::numeric_limits<double>::quiet_NaN();  ///< [s], NaN: none
  bool overturned = false;
  std::string overturned_body;  ///< the first body to overturn, "" if none
  double max_abs_theta = 0.0;   ///< max over watched bodies and time of |θ − θ₀| [rad]
  double max_abs_theta_time = std::numeric_limits<double>::quiet_NaN();  ///< where [s]
  /// max over watched bodies and time of their slide (OverturnWatch) [m], at steps' ends,
  /// events and turns of a rotation
  double max_slide = 0.0;
  double dissipated_energy = 0.0;  ///< Σ −ΔT over the impacts [J] (sliding friction not included)
  std::vector<BodyOutcome> bodies;  ///< per watched body, in the order they are watched
};

/// How a run ended.
struct SimulationOutcome {
  SimulationState final_state;
  int impacts = 0;
  int events = 0;
  RunSummary summary;
  RunStatus status = RunStatus::completed;
  std::string detail;  ///< what stopped a run that did not complete, in words; "" if completed
};

/// Runs the system from `initial` for settings.duration, reporting to `observer`.
SimulationOutcome simulate(const MechanicalSystem& system, SimulationState initial,
                           const SimulationSettings& settings, TrajectoryObserver& observer);

}  // namespace routh
