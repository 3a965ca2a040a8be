#pragma once
// What the simulation loop carries from step to step (RunState), what its stages scratch in
// (RunWorkspace), and what an event stage hands back to the loop (StageReport). The stages are
// free functions over these (docs/simulation.md); only the loop records events and ends a run.
// New loop state is a RunState field and the stage file that updates it.

#include <Eigen/Core>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/dynamics/mechanical_system.hpp"
#include "sim/simulation/contact_mode.hpp"
#include "sim/simulation/dynamic_jam.hpp"
#include "sim/simulation/event_record.hpp"
#include "sim/simulation/ode_state.hpp"
#include "sim/simulation/rest_rule.hpp"
#include "sim/simulation/run_guards.hpp"
#include "sim/simulation/simulation_settings.hpp"
#include "sim/simulation/simulator.hpp"
#include "sim/simulation/system_evaluation.hpp"
#include "sim/simulation/witnesses.hpp"

namespace routh {

/// A Zeno limit ahead, where a rest event is due (zeno_rest.hpp).
struct PendingRest {
  double time = -1.0;  ///< [s]; < 0: none
  int contact = -1;    ///< the model's index of the contact that rests
};

/// The regular output samples: the next one's time and index (output_sampling.hpp).
struct OutputClock {
  double next = 0.0;  ///< [s]
  long index = 0;
};

/// Everything the loop carries from one step to the next. Between events the stepper holds t and
/// x = (q, v); `q` and `v` are the loop's state where it stands (a step's end, an event).
struct RunState {
  explicit RunState(double wall_time_limit) : wall_clock(wall_time_limit) {}

  Eigen::VectorXd q, v;
  std::vector<ContactMode> modes;       ///< per active contact (SystemEvaluation::active)
  std::vector<UprightFrame> rotations;  ///< bodies not yet overturned
  std::vector<Witness> witnesses;       ///< of `modes` and `rotations`
  WitnessSample start, end;             ///< the witnesses' values at the step's ends
  PendingRest pending_rest;
  ImpactHistory impacts;
  EventStormGuard storm_guard;
  WallClockLimit wall_clock;
  OutputClock output;
  std::vector<double> base_start_x_m;  ///< the base points' x at the start (outcome_tracking.hpp)
  SimulationOutcome outcome;           ///< the run's counts, summary figures and end
};

/// The stages' scratch, sized once: nothing in the integration loop allocates.
struct RunWorkspace {
  RunWorkspace(const MechanicalSystem& system, const SimulationSettings& settings)
      : evaluation(system, settings.contacts),
        nq(system.coordinate_count()),
        nv(system.velocity_count()),
        x(static_cast<std::size_t>(nq + nv)) {}

  SystemEvaluation evaluation;  ///< the model, its workspace, and which contacts are active
  const int nq, nv;             ///< sizes of q and v
  std::vector<int> wanted, merged, kept;  ///< broad-phase scratch (active_contacts.hpp)
  OdeState step_start;                    ///< a step's start, kept to take the step again
  OdeState x;                             ///< a state off the dense output
  Eigen::VectorXd q, v;                   ///< x's q and v
  std::vector<int> island;  ///< the island of the witness being located (event_scan.cpp)
  JamWorkspace jam;         ///< the dynamic jam's witness (dynamic_jam.hpp)
  ContactBase base;         ///< the base being turned (base_orientation.hpp)
  /// The state of the latest right-hand side evaluation (smooth_phase.hpp): dopri5's last stage
  /// sits at an accepted step's end, where the witnesses need that same force solve.
  double last_derivative_t = std::numeric_limits<double>::quiet_NaN();
  OdeState last_derivative_x;
};

/// x into the workspace's q and v.
inline void unpack(const OdeState& x, RunWorkspace& workspace) {
  unpack(x, workspace.nq, workspace.nv, workspace.q, workspace.v);
}

/// The state on the step's dense output at t, into the workspace's x, q and v.
inline void dense_state_at(const DenseStepper& stepper, double t, RunWorkspace& workspace) {
  stepper.calc_state(t, workspace.x);
  unpack(workspace.x, workspace);
}

/// Why a stage ends the run: its status, what happened in words, and the base of its last event
/// row (its time, kind and status are the loop's to fill). A run stopped on an event it was asked
/// to stop on (`events.stop_on`) ends without a further row.
struct RunEnd {
  RunStatus status = RunStatus::completed;
  std::string detail;
  EventRecord event;
};

/// What an event stage did, for the loop to record: its event rows in order (contacts numbered
/// among the active ones), how many of them are impacts, and whether the run ends.
struct StageReport {
  std::vector<EventRecord> events;
  int impacts = 0;
  std::optional<RunEnd> end;
};

/// Asks the loop to end the run; false, so that a stage can `return end_run(...)`.
inline bool end_run(StageReport& report, RunStatus status, std::string detail,
                    EventRecord event = {}) {
  report.end = RunEnd{status, std::move(detail), std::move(event)};
  return false;
}

}  // namespace routh
