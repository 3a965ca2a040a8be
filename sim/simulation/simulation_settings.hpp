#pragma once
// What a run is asked to do: its duration and output rate, the integrator's tolerances, the event
// tolerances, the impact laws and the contacts' parameters. Read by every stage of the simulation.

#include "sim/impact/impact_problem.hpp"
#include "sim/impact/law_catalogue.hpp"
#include "sim/simulation/event_record.hpp"
#include "sim/simulation/rocking_slenderness.hpp"
#include "sim/simulation/upright_tilt.hpp"

#include <Eigen/Core>
#include <functional>
#include <string>
#include <vector>

namespace routh {

/// A free body watched for overturning: what its tilt from upright is measured on
/// (upright_tilt.hpp), and its name for the log. A planar block's upright angle θ₀ is the
/// orientation its shape is drawn in (0): it lies on its side at |θ − θ₀| = π/2 whatever angle it
/// was released at; a spatial box lies on its side when its up axis reaches the horizontal.
///
/// Its base points, for the slide (planar bodies): the vertices of its shape lowest when it is
/// upright (a block's two bottom corners), in its frame [m]. Its slide at a time is the smallest
/// horizontal distance any of them has moved from where it would stand with the body upright on
/// the lowest of them at the start, so that rocking (one of them a pivot) is no slide, and
/// sliding flat moves them all alike.
///
/// Its standing base, for its slenderness α (rocking_slenderness.hpp): a planar polygon's base
/// points, a box's face toward −up, a cylinder's base disk; no corners for other shapes.
struct OverturnWatch {
  UprightFrame upright;  ///< planar: θ's index in q, with x and y before it
  std::string body;
  std::vector<Eigen::Vector2d> base_points_m;
  StandingBase base;
};

/// The integrator of the smooth phase (`integrator.stepper`, ode_state.hpp).
enum class IntegratorStepper { dopri5, dop853 };

struct SimulationSettings {
  double duration = 1.0;       ///< [s] simulated time
  double output_rate = 100.0;  ///< [Hz] regular samples (events add their own)
  // Accuracy comes from the tolerances; the step bound only keeps a witness from hiding a double
  // sign change. At 1e-10 with 0.01 s steps a pendulum's energy drifted 9.2e-10 in 10 s and
  // free flight, which dopri5 integrates exactly, was cut into 0.01 s steps; at 3e-11 with
  // 0.05 s steps the pendulum drifts 6.5e-10 and a ball's flight takes a fifth of the steps.
  double relative_tolerance = 3e-11;  ///< dopri5 error control
  double absolute_tolerance = 3e-11;
  /// dopri5, or DOP853 for long steps at tight tolerances (many links: dop853_stepper.hpp)
  IntegratorStepper stepper = IntegratorStepper::dopri5;
  double max_step = 5e-2;  ///< [s] bound on steps, so a witness cannot hide a double sign change
  double time_tolerance = 1e-12;          ///< [s] events are isolated to this
  double rest_speed = 1e-6;               ///< [m/s] impacts slower than this close the contact
  double contact_distance = 1e-9;         ///< [m] contacts this close count as touching
  ImpactLaw law = nullptr;                ///< single-contact impacts
  ImpactLaw multi_contact_law = nullptr;  ///< simultaneous impacts at several contacts
  ContactParameterTable contacts;         ///< per contact: e, μs, μd
  double wall_time_limit = 0.0;           ///< [s] of wall-clock time; 0: no limit
  /// Free bodies whose rotation from upright is watched: an `overturn` event when it reaches
  /// ±π/2, and the largest |θ − θ₀| in the run's summary.
  std::vector<OverturnWatch> overturn_watch;
  std::vector<EventKind> stop_on;  ///< outcome events that end the run (overturn, uplift)
  /// The first instant strictly after t [s] where the forcing is not smooth (a ground motion's
  /// start, end or record sample; +∞ when none): no step crosses one. Empty: none.
  std::function<double(double t)> next_breakpoint;
};

}  // namespace routh
