#include "sim/simulation/simulator.hpp"

#include <algorithm>
#include <boost/numeric/odeint.hpp>
#include <cmath>
#include <limits>
#include <optional>

#include "sim/simulation/constraint_projection.hpp"
#include "sim/simulation/contact_modes.hpp"
#include "sim/simulation/event_location.hpp"
#include "sim/simulation/impact_step.hpp"
#include "sim/simulation/rest_rule.hpp"
#include "sim/simulation/run_guards.hpp"
#include "sim/simulation/stop_request.hpp"
#include "sim/simulation/system_evaluation.hpp"
#include "sim/simulation/witnesses.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

namespace odeint = boost::numeric::odeint;
using OdeState = std::vector<double>;  // (q, v)
using DenseStepper =
    odeint::result_of::make_dense_output<odeint::runge_kutta_dopri5<OdeState>>::type;

// The earliest witness to trigger on a step, and where.
struct TriggeredWitness {
  std::size_t index = 0;
  WitnessCrossing crossing;
};

// The loop and what it carries from step to step. Each step: integrate, sample the witnesses at
// the step's end, locate the earliest trigger, and either accept the step (samples, drift) or
// move to the event and hand it to its stage. The stages are free functions (contact_modes.hpp,
// impact_step.hpp, event_location.hpp, constraint_projection.hpp, rest_rule.hpp, run_guards.hpp).
class Run {
 public:
  Run(const MechanicalSystem& system, const SimulationSettings& settings,
      TrajectoryObserver& observer)
      : settings_(settings),
        observer_(observer),
        evaluation_(system),
        n_(system.coordinate_count()),
        x_scratch_(2 * static_cast<std::size_t>(n_)),
        wall_clock_(settings.wall_time_limit) {}

  SimulationOutcome operator()(SimulationState initial);

 private:
  // --- state conversions
  void unpack(const OdeState& x, Eigen::VectorXd& q, Eigen::VectorXd& v) const {
    q = Eigen::Map<const Eigen::VectorXd>(x.data(), n_);
    v = Eigen::Map<const Eigen::VectorXd>(x.data() + n_, n_);
  }
  const OdeState& pack(const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
    Eigen::Map<Eigen::VectorXd>(x_scratch_.data(), n_) = q;
    Eigen::Map<Eigen::VectorXd>(x_scratch_.data() + n_, n_) = v;
    return x_scratch_;
  }
  // The state on the step's dense output at t, into q_scratch_ and v_scratch_.
  void dense_state_at(DenseStepper& stepper, double t) {
    stepper.calc_state(t, x_scratch_);
    unpack(x_scratch_, q_scratch_, v_scratch_);
  }

  // --- dynamics and witnesses
  void derivative(const OdeState& x, OdeState& dxdt, double t);
  void sample_witnesses_at(double t, const OdeState& x, WitnessSample& sample);
  void sample_witnesses_at_step_end(double t, const OdeState& x, WitnessSample& sample);
  std::optional<TriggeredWitness> earliest_trigger(DenseStepper& stepper);
  std::optional<WitnessCrossing> locate(std::size_t index, DenseStepper& stepper);

  // --- events: each hands the state to its stage and records what changed
  bool handle_impact(double t, const Eigen::VectorXd& q, Eigen::VectorXd& v);
  bool apply_impact(const ImpactResolution& impact, Eigen::VectorXd& v);
  bool handle_mode_event(double t, const Eigen::VectorXd& q, Eigen::VectorXd& v);
  bool settle(double t, const Eigen::VectorXd& q, Eigen::VectorXd& v, bool log_changes = false);
  bool resolve_painleve(double t, const std::vector<int>& stuck, const Eigen::VectorXd& q,
                        Eigen::VectorXd& v);
  void record_mode_changes(double t, const std::vector<ContactMode>& before);
  void record(const EventRecord& event) {
    observer_.record_event(event);
    ++outcome_.events;
  }
  EventRecord mode_event(double t, EventKind kind, int contact) const;
  bool stop(RunStatus status, std::string detail, double t, const Eigen::VectorXd& q,
            const Eigen::VectorXd& v, EventRecord event = {});
  std::optional<RunStatus> interruption() const;

  // --- output
  void sample(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
    observer_.record_sample(t, q, v, energy_at(evaluation_, q, v));
  }
  bool emit_samples_until(double t_end, DenseStepper& stepper);

  const SimulationSettings& settings_;
  TrajectoryObserver& observer_;
  SystemEvaluation evaluation_;
  const int n_;
  std::vector<ContactMode> modes_;
  std::vector<Witness> witnesses_;  // of modes_
  // Scratch, sized once: nothing in the integration loop allocates.
  OdeState x_scratch_;
  Eigen::VectorXd q_scratch_, v_scratch_;
  WitnessSample start_, end_, inside_;  // at the step's ends, and within it while locating
  double last_derivative_t_ = std::numeric_limits<double>::quiet_NaN();  // of the latest RHS
  OdeState last_derivative_x_;
  ImpactHistory impacts_;
  EventStormGuard storm_guard_;
  WallClockLimit wall_clock_;
  double next_sample_ = 0.0;
  long sample_index_ = 0;
  double pending_rest_time_ = -1.0;  // a Zeno limit ahead, where a rest event is due
  int pending_rest_contact_ = -1;
  SimulationOutcome outcome_;
};

void Run::derivative(const OdeState& x, OdeState& dxdt, double t) {
  unpack(x, q_scratch_, v_scratch_);
  const ConstrainedAcceleration& dynamics =
      dynamics_at(evaluation_, t, q_scratch_, v_scratch_, modes_, settings_.contacts);
  last_derivative_t_ = t;
  last_derivative_x_ = x;
  dxdt.resize(2 * n_);
  Eigen::Map<Eigen::VectorXd>(dxdt.data(), n_) = v_scratch_;
  Eigen::Map<Eigen::VectorXd>(dxdt.data() + n_, n_) = dynamics.acceleration;
}

void Run::sample_witnesses_at(double t, const OdeState& x, WitnessSample& sample) {
  unpack(x, q_scratch_, v_scratch_);
  if (any_closed(modes_)) {  // the forces of open contacts are zero: no solve needed
    dynamics_at(evaluation_, t, q_scratch_, v_scratch_, modes_, settings_.contacts);
  } else {
    contacts_at(evaluation_, q_scratch_, v_scratch_);
  }
  sample_witnesses(witnesses_, modes_, settings_.contacts, evaluation_.quantities.contacts,
                   evaluation_.dynamics, evaluation_.rows_per_contact, v_scratch_, sample);
}

void Run::sample_witnesses_at_step_end(double t, const OdeState& x, WitnessSample& sample) {
  // dopri5's last stage evaluates the right-hand side at the accepted step's end (first same as
  // last); with a closed contact that solve is the one the witnesses need, still in evaluation_.
  if (any_closed(modes_) && t == last_derivative_t_ && x == last_derivative_x_) {
    unpack(x, q_scratch_, v_scratch_);
    sample_witnesses(witnesses_, modes_, settings_.contacts, evaluation_.quantities.contacts,
                     evaluation_.dynamics, evaluation_.rows_per_contact, v_scratch_, sample);
    return;
  }
  sample_witnesses_at(t, x, sample);
}

std::optional<WitnessCrossing> Run::locate(std::size_t index, DenseStepper& stepper) {
  const double t0 = stepper.previous_time(), t1 = stepper.current_time();
  const double tolerance = settings_.time_tolerance;
  const Witness& witness = witnesses_[index];
  if (witness.kind == WitnessKind::gap) {
    const int k = witness.contact;
    const auto gap_at = [&](double t) {
      dense_state_at(stepper, t);
      const ContactKinematics& kinematics = contacts_at(evaluation_, q_scratch_, v_scratch_);
      return GapAndRate{kinematics.gap[k],
                        normal_velocity(kinematics, evaluation_.rows_per_contact, k, v_scratch_)};
    };
    return locate_gap_closing(gap_at, t0, {start_.gap[k], start_.separation_speed[k]}, t1,
                              {end_.gap[k], end_.separation_speed[k]}, tolerance);
  }
  const auto i = static_cast<Eigen::Index>(index);
  const double w0 = start_.value[i], w1 = end_.value[i];
  if (!witness_triggers(Witness::direction, w0, w1)) return std::nullopt;
  const auto value_at = [&](double t) {
    stepper.calc_state(t, x_scratch_);
    sample_witnesses_at(t, x_scratch_, inside_);
    return inside_.value[i];
  };
  return locate_witness_crossing(value_at, t0, w0, t1, w1, tolerance);
}

std::optional<TriggeredWitness> Run::earliest_trigger(DenseStepper& stepper) {
  std::optional<TriggeredWitness> earliest;
  for (std::size_t i = 0; i < witnesses_.size(); ++i) {
    const std::optional<WitnessCrossing> crossing = locate(i, stepper);
    if (crossing && (!earliest || crossing->before < earliest->crossing.before)) {
      earliest = TriggeredWitness{i, *crossing};
    }
  }
  return earliest;
}

EventRecord Run::mode_event(double t, EventKind kind, int contact) const {
  EventRecord event;
  event.t = t;
  event.kind = kind;
  event.contacts = {contact};
  event.status = std::string(to_string(modes_[contact]));
  return event;
}

// Ends the run at (t, q, v): its last event (`event`, or a bare one) becomes an `interrupted` or
// `trouble` event whose status names the RunStatus and says what happened.
bool Run::stop(RunStatus status, std::string detail, double t, const Eigen::VectorXd& q,
               const Eigen::VectorXd& v, EventRecord event) {
  event.t = t;
  event.kind = status == RunStatus::interrupted ? EventKind::interrupted : EventKind::trouble;
  event.status = cat(to_string(status), ": ", detail);
  record(event);
  outcome_.status = status;
  outcome_.detail = std::move(detail);
  outcome_.final_state = {t, q, v, modes_};
  return false;
}

// What an interruption() means, in words.
std::string interruption_detail(RunStatus reason) {
  return reason == RunStatus::interrupted ? "stopped on request (SIGINT or SIGTERM)"
                                          : "the wall-clock limit was reached";
}

std::optional<RunStatus> Run::interruption() const {
  if (stop_requested()) return RunStatus::interrupted;  // SIGINT/SIGTERM (stop_request.hpp)
  if (wall_clock_.reached()) return RunStatus::time_limit;
  return std::nullopt;
}

void Run::record_mode_changes(double t, const std::vector<ContactMode>& before) {
  // One event per kind of change, naming every contact that made it (a block's two corners
  // stick together), with the contacts' new modes as its status.
  for (const EventKind kind :
       {EventKind::liftoff, EventKind::slip, EventKind::stick, EventKind::reversal}) {
    EventRecord event;
    for (int k = 0; k < evaluation_.contacts; ++k) {
      const ContactMode was = before[k], is = modes_[k];
      if (was == is || !is_closed(was)) continue;  // a contact closing without impact: no event
      const EventKind change = !is_closed(is)              ? EventKind::liftoff
                               : is == ContactMode::stick  ? EventKind::stick
                               : was == ContactMode::stick ? EventKind::slip
                                                           : EventKind::reversal;
      if (change != kind) continue;
      if (event.contacts.empty()) {
        event = mode_event(t, kind, k);
      } else {
        event.contacts.push_back(k);
        if (event.status != to_string(is)) event.status = cat(event.status, ",", to_string(is));
      }
    }
    if (!event.contacts.empty()) record(event);
  }
}

// Settles the modes after an event (logging what changed when asked) and resolves Painlevé's
// paradox if no mode is consistent.
bool Run::settle(double t, const Eigen::VectorXd& q, Eigen::VectorXd& v, bool log_changes) {
  const std::vector<ContactMode> before = modes_;
  const ModeSettlement settlement = settle_contact_modes(evaluation_, settings_, t, q, v, modes_);
  if (log_changes) record_mode_changes(t, before);
  if (settlement.painleve.empty()) return true;
  return resolve_painleve(t, settlement.painleve, q, v);
}

bool Run::resolve_painleve(double t, const std::vector<int>& stuck, const Eigen::VectorXd& q,
                           Eigen::VectorXd& v) {
  // No contact forces exist for these contacts: an impulse does (an impact without collision,
  // or tangential impact: Génot & Brogliato 1999), which the scenario's law resolves from
  // u_n = 0. One such impact leaves the contacts sticking or separating; were they still stuck,
  // the law could not resolve the paradox, and the run stops.
  EventRecord event = mode_event(t, EventKind::painleve, stuck.front());
  event.contacts = stuck;
  event.status = "no contact force is consistent: tangential impact";
  record(event);
  const ImpactResolution impact = resolve_impact(evaluation_, settings_, t, q, v, stuck,
                                                 /*at_rest=*/false, ImpactStart::without_collision);
  if (!impact.resolved) {
    return stop(RunStatus::painleve_unresolved, impact.event.status, t, q, v, impact.event);
  }
  if (!apply_impact(impact, v)) {
    return stop(RunStatus::non_finite_state, "the velocity after a tangential impact", t, q, v);
  }
  const ModeSettlement after = settle_contact_modes(evaluation_, settings_, t, q, v, modes_);
  if (after.painleve.empty()) return true;
  return stop(RunStatus::painleve_unresolved,
              "Painlevé's paradox persists after a tangential impact", t, q, v, event);
}

bool Run::apply_impact(const ImpactResolution& impact, Eigen::VectorXd& v) {
  v += impact.velocity_change;
  record(impact.event);
  ++outcome_.impacts;
  return v.allFinite();
}

bool Run::handle_impact(double t, const Eigen::VectorXd& q, Eigen::VectorXd& v) {
  const ApproachingContacts approaching = approaching_contacts(evaluation_, settings_, q, v);
  if (approaching.contacts.empty()) return true;  // grazing: nothing to do
  const bool at_rest = approaching.approach_speed < settings_.rest_speed;
  const ImpactResolution impact = resolve_impact(
      evaluation_, settings_, t, q, v, approaching.contacts, at_rest, ImpactStart::collision);
  if (!impact.resolved) {
    return stop(RunStatus::impact_law_failure, impact.event.status, t, q, v, impact.event);
  }
  if (!apply_impact(impact, v)) {
    return stop(RunStatus::non_finite_state, "the velocity after an impact is not finite", t, q, v);
  }
  if (!settle(t, q, v)) return false;
  // Rest rule: the motion comes to rest when the impact leaves every touching contact closed
  // (the ball on its floor, the block flat on both corners); a pivot switch, where another corner
  // lifts off, is part of the rocking.
  const ContactKinematics& kinematics = contacts_at(evaluation_, q, v);
  bool comes_to_rest = true;
  for (int k = 0; k < evaluation_.contacts; ++k) {
    if (kinematics.gap[k] <= settings_.contact_distance && !is_closed(modes_[k])) {
      comes_to_rest = false;
    }
  }
  if (!comes_to_rest) {
    impacts_.push(t);
    return true;
  }
  // A contact closing after a single plastic impact is simply in persistent contact; "rest" is
  // for the limit of a geometric sequence of impacts (Zeno), for impacts too slow to bounce, and
  // for the impact that ends a sequence whose last intervals were too short to measure as
  // geometric (it rests there, within their sum).
  const auto closed = std::find_if(impact.contacts.begin(), impact.contacts.end(),
                                   [this](int c) { return is_closed(modes_[c]); });
  const int k = closed != impact.contacts.end() ? *closed : impact.contacts.front();
  const double limit = impacts_.zeno_limit(t);
  if (limit > t) {
    EventRecord zeno = mode_event(t, EventKind::zeno, k);
    zeno.status = cat("geometric accumulation of impacts; limit at t = ", limit, " s");
    record(zeno);
    pending_rest_time_ = limit;
    pending_rest_contact_ = k;
  } else if (at_rest || impacts_.accumulating()) {
    record(mode_event(t, EventKind::rest, k));
  }
  impacts_.clear();
  return true;
}

bool Run::handle_mode_event(double t, const Eigen::VectorXd& q, Eigen::VectorXd& v) {
  // A normal force, friction margin or slip reached zero: the whole contact set is settled again
  // (static friction is a property of the set, DESIGN §4 step 1), and what changed is logged.
  return settle(t, q, v, /*log_changes=*/true);
}

bool Run::emit_samples_until(double t_end, DenseStepper& stepper) {
  const double period = 1.0 / settings_.output_rate;
  while (next_sample_ <= t_end && next_sample_ <= settings_.duration) {
    if (interruption()) return false;
    dense_state_at(stepper, next_sample_);
    sample(next_sample_, q_scratch_, v_scratch_);
    next_sample_ = static_cast<double>(++sample_index_) * period;
  }
  return true;
}

SimulationOutcome Run::operator()(SimulationState initial) {
  Eigen::VectorXd q = initial.q, v = initial.v;
  double t = initial.t;
  if (!is_finite_state(q, v)) {
    return (stop(RunStatus::non_finite_state, "the initial state is not finite", t, q, v),
            outcome_);
  }
  modes_ = initial.modes;
  if (modes_.size() != static_cast<std::size_t>(evaluation_.contacts)) {
    // Modes decided from the initial state; an impulse there (Painlevé's tangential impact)
    // gets its pre-event sample like any event.
    modes_.assign(evaluation_.contacts, ContactMode::open);
    const bool settled = settle(t, q, v);
    if (outcome_.events > 0) sample(t, initial.q, initial.v);
    if (!settled) return outcome_;
  }
  witnesses_ = witnesses_of(modes_);
  next_sample_ = t;
  sample_index_ = 0;
  const auto rhs = [this](const OdeState& x, OdeState& dxdt, double time) {
    derivative(x, dxdt, time);
  };
  DenseStepper stepper =
      odeint::make_dense_output(settings_.absolute_tolerance, settings_.relative_tolerance,
                                settings_.max_step, odeint::runge_kutta_dopri5<OdeState>());
  stepper.initialize(pack(q, v), t, std::min(settings_.max_step, 1e-3));
  sample_witnesses_at(t, stepper.current_state(), start_);

  while (stepper.current_time() < settings_.duration) {
    if (const std::optional<RunStatus> reason = interruption()) {
      unpack(stepper.current_state(), q, v);
      stop(*reason, interruption_detail(*reason), stepper.current_time(), q, v);
      return outcome_;
    }
    try {
      stepper.do_step(rhs);
    } catch (const odeint::step_adjustment_error& error) {
      unpack(stepper.current_state(), q, v);
      stop(RunStatus::step_size_failure, error.what(), stepper.current_time(), q, v);
      return outcome_;
    }
    const double t0 = stepper.previous_time(), t1 = stepper.current_time();
    unpack(stepper.current_state(), q, v);
    if (!is_finite_state(q, v) || !(t1 > t0)) {
      const bool finite = is_finite_state(q, v);
      unpack(stepper.previous_state(), q, v);  // the last finite state, at t0
      if (finite) {
        stop(RunStatus::step_size_failure, "the step did not advance time", t0, q, v);
      } else {
        stop(RunStatus::non_finite_state, "the integrated state is not finite", t0, q, v);
      }
      return outcome_;
    }
    sample_witnesses_at_step_end(t1, stepper.current_state(), end_);
    const std::optional<TriggeredWitness> fired = earliest_trigger(stepper);
    const double t_pending = pending_rest_time_;
    const bool rest_due = t_pending > t0 && t_pending <= t1;
    if (!fired && !rest_due) {
      if (!emit_samples_until(t1, stepper)) continue;  // interrupted: handled at the loop's top
      unpack(stepper.current_state(), q, v);
      if (remove_drift(evaluation_, modes_, end_.gap, q, v)) {
        stepper.initialize(pack(q, v), t1, stepper.current_time_step());
        sample_witnesses_at(t1, stepper.current_state(), end_);
      }
      std::swap(start_, end_);
      continue;
    }
    // An event at t_e: samples up to it, the pre-event state, the event, the post-event state.
    // An impact is taken at the crossing's near side, so that the logged pre-impact state has not
    // penetrated; a mode event at its far side, where the old modes no longer hold and settling
    // finds the new ones.
    const bool rest_first = rest_due && (!fired || t_pending < fired->crossing.before);
    const bool impact = !rest_first && witnesses_[fired->index].kind == WitnessKind::gap;
    const double t_event = rest_first ? t_pending
                           : impact   ? fired->crossing.before
                                      : fired->crossing.after;
    if (!emit_samples_until(std::nextafter(t_event, -1.0), stepper)) continue;
    stepper.calc_state(t_event, x_scratch_);
    unpack(x_scratch_, q, v);
    sample(t_event, q, v);
    bool keep_going = true;
    if (rest_first) {
      record(mode_event(t_event, EventKind::rest, pending_rest_contact_));
      pending_rest_time_ = -1.0;
    } else {
      keep_going = impact ? handle_impact(t_event, q, v) : handle_mode_event(t_event, q, v);
    }
    sample(t_event, q, v);
    if (next_sample_ <= t_event) {
      next_sample_ = static_cast<double>(++sample_index_) / settings_.output_rate;
    }
    if (!keep_going) return outcome_;
    if (storm_guard_.storm(t_event)) {
      stop(RunStatus::event_storm,
           cat("more than ", EventStormGuard::kMaxEventsPerInstant, " events within ",
               EventStormGuard::kSameInstant, " s"),
           t_event, q, v);
      return outcome_;
    }
    witnesses_ = witnesses_of(modes_);
    const double step = std::max(stepper.current_time_step(), 1e-9);
    stepper.initialize(pack(q, v), t_event, std::min(step, settings_.max_step));
    sample_witnesses_at(t_event, stepper.current_state(), start_);
  }
  emit_samples_until(settings_.duration, stepper);
  if (const std::optional<RunStatus> reason = interruption()) {
    // stopped while emitting the last samples: the loop's top is not reached again
    unpack(stepper.current_state(), q, v);
    stop(*reason, interruption_detail(*reason), stepper.current_time(), q, v);
    return outcome_;
  }
  stepper.calc_state(settings_.duration, x_scratch_);
  unpack(x_scratch_, q, v);
  outcome_.final_state = {settings_.duration, q, v, modes_};
  return outcome_;
}

}  // namespace

SimulationOutcome simulate(const MechanicalSystem& system, SimulationState initial,
                           const SimulationSettings& settings, TrajectoryObserver& observer) {
  Run run(system, settings, observer);
  return run(std::move(initial));
}

}  // namespace routh
