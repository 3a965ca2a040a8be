#include "sim/simulation/simulator.hpp"

#include <algorithm>
#include <boost/numeric/odeint.hpp>
#include <cmath>
#include <optional>
#include <utility>

#include "sim/simulation/active_contacts.hpp"
#include "sim/simulation/constraint_projection.hpp"
#include "sim/simulation/dynamic_jam.hpp"
#include "sim/simulation/event_response.hpp"
#include "sim/simulation/event_scan.hpp"
#include "sim/simulation/forcing_breakpoints.hpp"
#include "sim/simulation/ode_state.hpp"
#include "sim/simulation/outcome_tracking.hpp"
#include "sim/simulation/output_sampling.hpp"
#include "sim/simulation/run_guards.hpp"
#include "sim/simulation/run_state.hpp"
#include "sim/simulation/slip_reference.hpp"
#include "sim/simulation/smooth_phase.hpp"
#include "sim/simulation/zeno_rest.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

namespace odeint = boost::numeric::odeint;

// --- what only the loop does: record events, end the run, restart the integration

// One event row: the stages number the active contacts; the log names the model's.
void record(EventRecord event, const SystemEvaluation& evaluation, RunState& state,
            TrajectoryObserver& observer) {
  for (int& k : event.contacts) k = evaluation.active[static_cast<std::size_t>(k)];
  if (event.kind == EventKind::impact) state.outcome.summary.dissipated_energy -= event.delta_T;
  observer.record_event(event);
  ++state.outcome.events;
}

// Ends the run at (t, q, v): its last event (end.event, or a bare one) becomes an `interrupted`
// or `trouble` event whose status names the RunStatus and says what happened. A run stopped on
// an event `events.stop_on` names did what it was asked, and ends without one.
void end_run_at(RunEnd end, double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                const SystemEvaluation& evaluation, RunState& state, TrajectoryObserver& observer) {
  if (end.status != RunStatus::stopped_on_event) {
    end.event.t = t;
    end.event.kind =
        end.status == RunStatus::interrupted ? EventKind::interrupted : EventKind::trouble;
    end.event.status = cat(to_string(end.status), ": ", end.detail);
    record(std::move(end.event), evaluation, state, observer);
  }
  state.outcome.status = end.status;
  state.outcome.detail = std::move(end.detail);
  state.outcome.final_state = {t, q, v, model_modes(evaluation, state.modes)};
}

// Records what a stage reported at (t, q, v), and its impacts in the watched bodies' figures,
// and ends the run if it asked to; false then.
bool take(StageReport report, double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
          const SimulationSettings& settings, SystemEvaluation& evaluation, RunState& state,
          TrajectoryObserver& observer) {
  note_impacts(report, q, v, settings.overturn_watch, evaluation, state.outcome.summary);
  for (EventRecord& event : report.events) record(std::move(event), evaluation, state, observer);
  state.outcome.impacts += report.impacts;
  if (!report.end) return true;
  end_run_at(std::move(*report.end), t, q, v, evaluation, state, observer);
  return false;
}

// The run interrupted (run_guards.hpp) where the stepper stands.
void interrupt(RunStatus reason, const DenseStepper& stepper, RunWorkspace& workspace,
               RunState& state, TrajectoryObserver& observer) {
  unpack(stepper.current_state(), workspace.nq, workspace.nv, state.q, state.v);
  end_run_at({reason, interruption_detail(reason), {}}, stepper.current_time(), state.q, state.v,
             workspace.evaluation, state, observer);
}

// Whether the bodies are apart at (t, q, v); the run ends as `interpenetration` if not.
bool bodies_apart(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                  RunWorkspace& workspace, RunState& state, TrajectoryObserver& observer) {
  SystemEvaluation& evaluation = workspace.evaluation;
  const std::optional<std::string> overlap =
      interpenetration(evaluation.system, *evaluation.model_workspace, q);
  if (!overlap) return true;
  end_run_at({RunStatus::interpenetration, *overlap, {}}, t, q, v, evaluation, state, observer);
  return false;
}

// Whether the events at t, where the loop stands (state.q, state.v), are no storm; the run ends
// as `event_storm` if they are.
bool within_storm_limit(double t, RunState& state, RunWorkspace& workspace,
                        TrajectoryObserver& observer) {
  if (!state.storm_guard.storm(t)) return true;
  end_run_at({RunStatus::event_storm,
              cat("more than ", EventStormGuard::kMaxEventsPerInstant, " events within ",
                  EventStormGuard::kSameInstant, " s"),
              {}},
             t, state.q, state.v, workspace.evaluation, state, observer);
  return false;
}

// The integration starts again from (t, q, v), after an event or a gap jump, with the contacts
// the broad phase finds there and the witnesses of the modes.
void restart_at(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, DenseStepper& stepper,
                const SimulationSettings& settings, RunState& state, RunWorkspace& workspace) {
  wanted_contacts(q, state.modes, workspace);
  activate(workspace.wanted, state, workspace);
  state.witnesses = witnesses_of(state.modes, state.rotations);
  const double step = std::max(stepper.current_time_step(), 1e-9);
  pack(q, v, workspace.x);
  stepper.initialize(workspace.x, t, std::min(step, settings.max_step));
  sample_witnesses_at(t, stepper.current_state(), state.modes, state.witnesses, workspace,
                      state.start);
}

// A regular sample's state and the rest of the step's samples up to t_end (output_sampling.hpp).
bool emit_samples(double t_end, const DenseStepper& stepper, const SimulationSettings& settings,
                  RunState& state, RunWorkspace& ws, TrajectoryObserver& observer) {
  return emit_samples_until(t_end, stepper, settings, state.wall_clock, state.output, ws, observer);
}

// Before the first step: the initial state's modes (settled unless given), the outcome figures'
// start and the witnesses. False when the run ends there.
bool start_run(const SimulationState& initial, const SimulationSettings& settings, RunState& state,
               RunWorkspace& ws, TrajectoryObserver& observer) {
  Eigen::VectorXd &q = state.q, &v = state.v;
  q = initial.q, v = initial.v;
  const double t = initial.t;
  const bool modes_given =
      initial.modes.size() == static_cast<std::size_t>(ws.evaluation.all_contacts);
  // every contact is active until the broad phase has looked at the initial state
  state.modes = modes_given
                    ? initial.modes
                    : std::vector<ContactMode>(static_cast<std::size_t>(ws.evaluation.contacts),
                                               ContactMode::open);
  start_body_outcomes(settings.overturn_watch, state.outcome.summary);
  if (!is_finite_state(q, v)) {  // it ends with the initial modes
    end_run_at({RunStatus::non_finite_state, "the initial state is not finite", {}}, t, q, v,
               ws.evaluation, state, observer);
    return false;
  }
  const std::vector<OverturnWatch>& watched = settings.overturn_watch;
  for (const OverturnWatch& watch : watched) {
    state.rotations.push_back(watch.upright);
  }
  base_points_start_x(watched, q, state.base_start_x_m);
  wanted_contacts(q, state.modes, ws);
  activate(ws.wanted, state, ws);
  if (!modes_given) {
    // Modes decided from the initial state; an impulse there (Painlevé's tangential impact)
    // gets its pre-event sample like any event.
    const bool settled = take(settle_modes(t, q, v, false, settings, state, ws), t, q, v, settings,
                              ws.evaluation, state, observer);
    if (state.outcome.events > 0) {
      sample(t, initial.q, initial.v, SampleKind::before_event, ws.evaluation, observer);
    }
    if (!settled) return false;
  }
  note_excursions(t, q, watched, state.base_start_x_m, state.outcome.summary);
  state.witnesses = witnesses_of(state.modes, state.rotations);
  state.output = {t, 0};
  return true;
}

// The modes settled again at (t, state.q, state.v), and the integration restarted there. False
// when the run ends there.
bool settle_and_restart(double t, DenseStepper& stepper, const SimulationSettings& settings,
                        RunState& state, RunWorkspace& ws, TrajectoryObserver& observer) {
  Eigen::VectorXd &q = state.q, &v = state.v;
  StageReport settled = settle_modes(t, q, v, true, settings, state, ws);
  const bool changed = !settled.events.empty();
  if (!take(std::move(settled), t, q, v, settings, ws.evaluation, state, observer)) return false;
  if (changed) sample(t, q, v, SampleKind::after_event, ws.evaluation, observer);
  restart_at(t, q, v, stepper, settings, state, ws);
  return true;
}

// At a breakpoint of the forcing (forcing_breakpoints.hpp) the modes are settled again under the
// new forcing and the integration restarts there. False when the run ends there.
bool cross_breakpoint(DenseStepper& stepper, const SimulationSettings& settings, RunState& state,
                      RunWorkspace& ws, TrajectoryObserver& observer) {
  const std::optional<double> breakpoint = breakpoint_reached(stepper, settings);
  if (!breakpoint) return true;
  Eigen::VectorXd &q = state.q, &v = state.v;
  unpack(stepper.current_state(), ws.nq, ws.nv, q, v);
  return settle_and_restart(*breakpoint, stepper, settings, state, ws, observer);
}

// One step of the integrator in the current modes; false when it fails (its guards end the run).
template <class RightHandSide>
bool take_step(DenseStepper& stepper, RightHandSide& rhs, RunState& state, RunWorkspace& ws,
               TrajectoryObserver& observer) {
  Eigen::VectorXd &q = state.q, &v = state.v;
  try {
    stepper.do_step(rhs);
  } catch (const odeint::step_adjustment_error& error) {
    unpack(stepper.current_state(), ws.nq, ws.nv, q, v);
    end_run_at({RunStatus::step_size_failure, error.what(), {}}, stepper.current_time(), q, v,
               ws.evaluation, state, observer);
    return false;
  }
  const double t0 = stepper.previous_time(), t1 = stepper.current_time();
  unpack(stepper.current_state(), ws.nq, ws.nv, q, v);
  if (is_finite_state(q, v) && t1 > t0) return true;
  const bool finite = is_finite_state(q, v);
  unpack(stepper.previous_state(), ws.nq, ws.nv, q, v);  // the last finite state, at t0
  const RunEnd end =
      finite ? RunEnd{RunStatus::step_size_failure, "the step did not advance time", {}}
             : RunEnd{RunStatus::non_finite_state, "the integrated state is not finite", {}};
  end_run_at(end, t0, q, v, ws.evaluation, state, observer);
  return false;
}

// A dynamic jam at a step's end t (dynamic_jam.hpp): the impulse that stops its slip, an event
// like any other, and the integration restarted there; when its impulse is not admissible the
// slide goes on. False when the run ends.
bool end_jam(double t, DenseStepper& stepper, const SimulationSettings& settings, RunState& state,
             RunWorkspace& ws, TrajectoryObserver& observer) {
  Eigen::VectorXd &q = state.q, &v = state.v;
  const std::optional<Jam> jam = jam_at(ws.evaluation, t, q, v, state.modes, ws.jam);
  if (!jam) return true;
  const Eigen::VectorXd v_before = v;
  StageReport report = respond_to_jam(t, q, v, *jam, settings, state, ws);
  if (report.events.empty()) return true;
  sample(t, q, v_before, SampleKind::before_event, ws.evaluation, observer);
  const bool keep_going =
      take(std::move(report), t, q, v, settings, ws.evaluation, state, observer);
  sample(t, q, v, SampleKind::after_event, ws.evaluation, observer);
  skip_sample_at_event(t, settings, state.output);
  if (!keep_going || !within_storm_limit(t, state, ws, observer)) return false;
  restart_at(t, q, v, stepper, settings, state, ws);
  return true;
}

// A step without events: its samples and outcome figures, the drift removed, the contacts gone
// far let go. False when the run ends.
bool accept_step(DenseStepper& stepper, const SimulationSettings& settings, RunState& state,
                 RunWorkspace& ws, TrajectoryObserver& observer) {
  const double t1 = stepper.current_time();
  Eigen::VectorXd &q = state.q, &v = state.v;
  // interrupted: handled at the loop's top
  if (!emit_samples(t1, stepper, settings, state, ws, observer)) return true;
  track_rotation(stepper, settings, state.base_start_x_m, ws, state.outcome.summary);
  if (t1 > settings.duration) {
    // what happens past the run's duration is not the run's (earliest_trigger): the last step
    // ends apart if its bodies are apart at the duration
    dense_state_at(stepper, settings.duration, ws);
    if (!bodies_apart(settings.duration, ws.q, ws.v, ws, state, observer)) return false;
  }
  unpack(stepper.current_state(), ws.nq, ws.nv, q, v);
  const bool projected = remove_drift(ws.evaluation, state.modes, state.end.gap, q, v);
  if (projected) {
    pack(q, v, ws.x);
    stepper.initialize(ws.x, t1, stepper.current_time_step());
    sample_witnesses_at(t1, stepper.current_state(), state.modes, state.witnesses, ws, state.end);
  }
  if (narrow_after_step(stepper.current_state(), projected, state, ws)) {
    sample_witnesses_at(t1, stepper.current_state(), state.modes, state.witnesses, ws, state.end);
  }
  if (t1 <= settings.duration && !bodies_apart(t1, q, v, ws, state, observer)) return false;
  // spatial slips: the next step's reference is where each slip points now; a contact that
  // changed between following its slip and being aligned changed the dynamics here
  switch (refresh_slip_references(ws.evaluation, t1, state.modes, q, v)) {
    case SlipRefresh::unchanged: break;
    case SlipRefresh::dynamics_changed:
      pack(q, v, ws.x);
      stepper.initialize(ws.x, t1, stepper.current_time_step());
      sample_witnesses_at(t1, stepper.current_state(), state.modes, state.witnesses, ws, state.end);
      break;
    case SlipRefresh::slip_reversed:
      return settle_and_restart(t1, stepper, settings, state, ws, observer);
  }
  std::swap(state.start, state.end);
  // a jam past the run's duration is not the run's
  return t1 > settings.duration || end_jam(t1, stepper, settings, state, ws, observer);
}

// A gap's jump that hides no landing (event_scan.hpp): the run goes on from the jump's far side
// t_past, an event without an event record. False when the run ends.
bool jump_past(double t_past, DenseStepper& stepper, const SimulationSettings& settings,
               RunState& state, RunWorkspace& ws, TrajectoryObserver& observer) {
  if (!emit_samples(std::nextafter(t_past, -1.0), stepper, settings, state, ws, observer)) {
    return true;
  }
  if (state.storm_guard.storm(t_past)) {
    dense_state_at(stepper, t_past, ws);
    end_run_at(
        {RunStatus::event_storm,
         cat("a contact's gap jumps across zero more than ", EventStormGuard::kMaxEventsPerInstant,
             " times within ", EventStormGuard::kSameInstant, " s"),
         {}},
        t_past, ws.q, ws.v, ws.evaluation, state, observer);
    return false;
  }
  stepper.calc_state(t_past, ws.x);
  unpack(ws.x, ws.nq, ws.nv, state.q, state.v);
  note_excursions(t_past, state.q, settings.overturn_watch, state.base_start_x_m,
                  state.outcome.summary);
  restart_at(t_past, state.q, state.v, stepper, settings, state, ws);
  return true;
}

// The step's earliest event, `fired` or the pending rest: samples up to it, the pre-event state,
// the event's stage, the post-event state, and the integration restarted there. An impact is
// taken at the crossing's near side, so that the logged pre-impact state has not penetrated; a
// mode event at its far side, where the old modes no longer hold and settling finds the new ones.
// False when the run ends.
bool handle_event(std::optional<TriggeredWitness> fired, bool rest_is_due, DenseStepper& stepper,
                  const SimulationSettings& settings, RunState& state, RunWorkspace& ws,
                  TrajectoryObserver& observer) {
  Eigen::VectorXd &q = state.q, &v = state.v;
  const double t_pending = state.pending_rest.time;
  const bool rest_first = rest_is_due && (!fired || t_pending < fired->crossing.before);
  const bool impact = !rest_first && state.witnesses[fired->index].kind == WitnessKind::gap;
  double t_event = rest_first ? t_pending
                   : impact   ? impact_time(*fired, stepper, settings, state, ws)
                              : fired->crossing.after;
  if (impact && crossing_is_no_landing(*fired, stepper, settings, state, ws)) {
    const std::optional<TriggeredWitness> hidden =
        landing_hidden_by_jump(*fired, stepper, settings, state, ws);
    if (!hidden) return jump_past(fired->crossing.after, stepper, settings, state, ws, observer);
    fired = hidden;
    t_event = hidden->crossing.before;
  }
  if (!emit_samples(std::nextafter(t_event, -1.0), stepper, settings, state, ws, observer)) {
    return true;
  }
  stepper.calc_state(t_event, ws.x);
  unpack(ws.x, ws.nq, ws.nv, q, v);
  sample(t_event, q, v, SampleKind::before_event, ws.evaluation, observer);
  note_excursions(t_event, q, settings.overturn_watch, state.base_start_x_m, state.outcome.summary);
  StageReport report;
  if (rest_first) {
    report = rest_at_limit(t_event, state, ws.evaluation);
  } else {
    const Witness witness = contacts_at_event(q, state.witnesses[fired->index], state, ws);
    report = impact ? respond_to_impact(t_event, q, v, settings, state, ws)
                    : respond_to_mode_event(t_event, witness, q, v, settings, state, ws);
  }
  const bool keep_going =
      take(std::move(report), t_event, q, v, settings, ws.evaluation, state, observer);
  sample(t_event, q, v, SampleKind::after_event, ws.evaluation, observer);
  skip_sample_at_event(t_event, settings, state.output);
  if (!keep_going || !bodies_apart(t_event, q, v, ws, state, observer)) return false;
  if (!within_storm_limit(t_event, state, ws, observer)) return false;
  restart_at(t_event, q, v, stepper, settings, state, ws);
  return true;
}

// The loop, a page of stages over the run's state. Each step: integrate, sample the witnesses at
// the step's end, locate the earliest trigger, and either accept the step or handle its event.
// It ends with the run's final state in state.outcome.
void run_loop(const SimulationState& initial, const SimulationSettings& settings, RunState& state,
              RunWorkspace& ws, TrajectoryObserver& observer) {
  if (!start_run(initial, settings, state, ws, observer)) return;
  const auto rhs = [&](const OdeState& x, OdeState& dxdt, double t) {
    state_derivative(x, dxdt, t, state.modes, ws);
  };
  DenseStepper stepper(settings.stepper, settings.absolute_tolerance, settings.relative_tolerance,
                       settings.max_step);
  pack(state.q, state.v, ws.x);
  stepper.initialize(ws.x, initial.t, std::min(settings.max_step, 1e-3));
  sample_witnesses_at(initial.t, stepper.current_state(), state.modes, state.witnesses, ws,
                      state.start);
  while (stepper.current_time() < settings.duration) {
    if (const std::optional<RunStatus> reason = interruption(state.wall_clock)) {
      interrupt(*reason, stepper, ws, state, observer);
      return;
    }
    bound_next_step(stepper, ws);
    if (!cross_breakpoint(stepper, settings, state, ws, observer)) return;
    end_step_before_breakpoint(stepper, settings);
    if (!take_step(stepper, rhs, state, ws, observer)) return;
    if (outran_broad_phase(stepper, ws)) continue;
    if (widen_for_step(stepper, state, ws)) {  // the step's start again, with the new contacts
      sample_witnesses_at(stepper.previous_time(), stepper.previous_state(), state.modes,
                          state.witnesses, ws, state.start);
    }
    sample_witnesses_at_step_end(stepper.current_time(), stepper.current_state(), state.modes,
                                 state.witnesses, ws, state.end);
    const std::optional<TriggeredWitness> fired = earliest_trigger(stepper, settings, state, ws);
    const bool rest_is_due = rest_due(state.pending_rest, stepper.previous_time(),
                                      std::min(stepper.current_time(), settings.duration));
    const bool going = !fired && !rest_is_due ? accept_step(stepper, settings, state, ws, observer)
                                              : handle_event(fired, rest_is_due, stepper, settings,
                                                             state, ws, observer);
    if (!going) return;
  }
  emit_samples(settings.duration, stepper, settings, state, ws, observer);
  if (const std::optional<RunStatus> reason = interruption(state.wall_clock)) {
    // stopped while emitting the last samples: the loop's top is not reached again
    interrupt(*reason, stepper, ws, state, observer);
    return;
  }
  stepper.calc_state(settings.duration, ws.x);
  unpack(ws.x, ws.nq, ws.nv, state.q, state.v);
  state.outcome.final_state = {settings.duration, state.q, state.v,
                               model_modes(ws.evaluation, state.modes)};
}

}  // namespace

// The loop, then where the watched bodies ended, however the run ended.
SimulationOutcome simulate(const MechanicalSystem& system, SimulationState initial,
                           const SimulationSettings& settings, TrajectoryObserver& observer) {
  RunWorkspace ws(system, settings);
  RunState state(settings.wall_time_limit);
  run_loop(initial, settings, state, ws, observer);
  note_residuals(state.outcome.final_state.q, settings.overturn_watch, state.base_start_x_m,
                 state.outcome.summary);
  return state.outcome;
}

}  // namespace routh
