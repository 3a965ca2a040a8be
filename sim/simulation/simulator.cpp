#include "sim/simulation/simulator.hpp"

#include <algorithm>
#include <boost/numeric/odeint.hpp>
#include <cmath>
#include <iterator>
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
        evaluation_(system, settings.contacts),
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

  // --- the active contacts (broad phase)
  void wanted_contacts(const Eigen::VectorXd& q, std::vector<int>& wanted, int fired = -1);
  bool is_closed_contact(int contact) const;
  bool keeps_over_opposite(int contact, int opposite, int fired) const;
  void keep_one_face(std::vector<int>& wanted, int fired);
  bool activate(const std::vector<int>& wanted);
  void widen_for_step(DenseStepper& stepper);
  void narrow_after_step(double t, const OdeState& x, bool projected);
  int local_index(int contact) const;
  Witness contacts_at_event(const Eigen::VectorXd& q, Witness fired);
  double broad_phase_bound_at(const OdeState& x);
  void bound_next_step(DenseStepper& stepper);
  bool outran_broad_phase(DenseStepper& stepper);

  // --- outcomes
  void track_rotation(DenseStepper& stepper);
  void note_excursions(double t, const Eigen::VectorXd& q);
  bool handle_overturn(double t, const Witness& witness, const Eigen::VectorXd& q,
                       const Eigen::VectorXd& v);
  bool note_uplift(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                   const std::vector<ContactMode>& before);
  bool end_on_event(std::string detail, double t, const Eigen::VectorXd& q,
                    const Eigen::VectorXd& v);
  std::vector<ContactMode> model_modes() const;
  bool stops_on(EventKind kind) const {
    return std::find(settings_.stop_on.begin(), settings_.stop_on.end(), kind) !=
           settings_.stop_on.end();
  }

  // --- dynamics and witnesses
  void derivative(const OdeState& x, OdeState& dxdt, double t);
  void sample_witnesses_at(double t, const OdeState& x, WitnessSample& sample);
  void sample_witnesses_at_step_end(double t, const OdeState& x, WitnessSample& sample);
  std::optional<TriggeredWitness> earliest_trigger(DenseStepper& stepper);
  std::optional<WitnessCrossing> locate(std::size_t index, DenseStepper& stepper);
  GapAndRate gap_and_rate_at(int contact, double t, DenseStepper& stepper);
  bool gap_jumps(const TriggeredWitness& fired, DenseStepper& stepper);
  std::optional<TriggeredWitness> landing_hidden_by_jump(const TriggeredWitness& jump,
                                                         DenseStepper& stepper);
  void restart_at(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                  DenseStepper& stepper);
  bool approach_breakpoint(DenseStepper& stepper, Eigen::VectorXd& q, Eigen::VectorXd& v);

  // --- events: each hands the state to its stage and records what changed
  bool handle_impact(double t, const Eigen::VectorXd& q, Eigen::VectorXd& v);
  bool apply_impact(const ImpactResolution& impact, Eigen::VectorXd& v);
  bool handle_mode_event(double t, const Witness& witness, const Eigen::VectorXd& q,
                         Eigen::VectorXd& v);
  bool settle(double t, const Eigen::VectorXd& q, Eigen::VectorXd& v, bool log_changes = false);
  bool resolve_painleve(double t, const std::vector<int>& stuck, const Eigen::VectorXd& q,
                        Eigen::VectorXd& v);
  void record_mode_changes(double t, const std::vector<ContactMode>& before);
  void record(EventRecord event);
  EventRecord mode_event(double t, EventKind kind, int contact) const;
  bool stop(RunStatus status, std::string detail, double t, const Eigen::VectorXd& q,
            const Eigen::VectorXd& v, EventRecord event = {});
  std::optional<RunStatus> interruption() const;
  bool bodies_apart(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v);

  // --- output
  void sample(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, SampleKind kind) {
    observer_.record_sample(t, q, v, energy_at(evaluation_, q, v), kind);
  }
  bool emit_samples_until(double t_end, DenseStepper& stepper);

  const SimulationSettings& settings_;
  TrajectoryObserver& observer_;
  SystemEvaluation evaluation_;
  const int n_;
  std::vector<ContactMode> modes_;
  std::vector<Witness> witnesses_;           // of modes_ and rotations_
  std::vector<RotationWatch> rotations_;     // bodies not yet overturned
  std::vector<int> wanted_, merged_, kept_;  // broad-phase scratch
  OdeState step_start_;                      // a step's start, kept to take the step again
  // Scratch, sized once: nothing in the integration loop allocates.
  OdeState x_scratch_;
  Eigen::VectorXd q_scratch_, v_scratch_;
  WitnessSample start_, end_, inside_;  // at the step's ends, and within it while locating
  double last_derivative_t_ = std::numeric_limits<double>::quiet_NaN();  // of the latest RHS
  OdeState last_derivative_x_;
  std::vector<double> base_start_x_m_;  // the base points' x at the start, each body's in turn
  ImpactHistory impacts_;
  EventStormGuard storm_guard_;
  WallClockLimit wall_clock_;
  double next_sample_ = 0.0;
  long sample_index_ = 0;
  double pending_rest_time_ = -1.0;  // a Zeno limit ahead, where a rest event is due
  int pending_rest_contact_ = -1;    // the model's index
  SimulationOutcome outcome_;
};

void Run::derivative(const OdeState& x, OdeState& dxdt, double t) {
  unpack(x, q_scratch_, v_scratch_);
  const ConstrainedAcceleration& dynamics =
      dynamics_at(evaluation_, t, q_scratch_, v_scratch_, modes_);
  last_derivative_t_ = t;
  last_derivative_x_ = x;
  dxdt.resize(2 * n_);
  Eigen::Map<Eigen::VectorXd>(dxdt.data(), n_) = v_scratch_;
  Eigen::Map<Eigen::VectorXd>(dxdt.data() + n_, n_) = dynamics.acceleration;
}

void Run::record(EventRecord event) {
  // the stages number the active contacts; the log names the model's
  for (int& k : event.contacts) k = evaluation_.active[static_cast<std::size_t>(k)];
  if (event.kind == EventKind::impact) outcome_.summary.dissipated_energy -= event.delta_T;
  observer_.record_event(event);
  ++outcome_.events;
}

// --- the active contacts

int Run::local_index(int contact) const {
  const auto found =
      std::lower_bound(evaluation_.active.begin(), evaluation_.active.end(), contact);
  if (found == evaluation_.active.end() || *found != contact) return -1;
  return static_cast<int>(found - evaluation_.active.begin());
}

// The contacts to evaluate at q: those the model's broad phase finds nearby, and every closed
// one (it stays closed until an event opens it, wherever the broad phase would put it).
// `fired`: at an event, the model's index of the contact whose witness fired it (else −1).
void Run::wanted_contacts(const Eigen::VectorXd& q, std::vector<int>& wanted, int fired) {
  evaluation_.system.nearby_contacts(q, *evaluation_.model_workspace, wanted);
  const std::size_t listed = wanted.size();
  for (int k = 0; k < evaluation_.contacts; ++k) {
    const int contact = evaluation_.active[static_cast<std::size_t>(k)];
    if (is_closed(modes_[k]) &&
        !std::binary_search(wanted.begin(), wanted.begin() + static_cast<long>(listed), contact)) {
      wanted.push_back(contact);
    }
  }
  if (wanted.size() > listed) std::sort(wanted.begin(), wanted.end());
  keep_one_face(wanted, fired);
}

bool Run::is_closed_contact(int contact) const {
  const int k = local_index(contact);
  return k >= 0 && is_closed(modes_[static_cast<std::size_t>(k)]);
}

// Of a vertex's contacts with a segment's two faces, both wanted, the one to keep: the closed one,
// else the one whose gap fired the event, else the one already active, else the first. A vertex
// reaches the line of a segment only from the face it then touches: that face was listed while
// the vertex approached it, its gap located the landing, and the other face joins only within a
// hair of the line (or for the step in which the vertex crossed it), where its gap reads as small
// as the first's. When the broad phase cannot tell the faces apart by the vertex's body (two
// segments lying flat on each other), the face touched is the one it was touching before, and a
// drift of 1e-11 m across the line does not move it to the other face. (Beyond the segment's
// ends both are listed by their gaps, there equal, as are their rows: one of them is enough.)
bool Run::keeps_over_opposite(int contact, int opposite, int fired) const {
  const bool closed = is_closed_contact(contact), other_closed = is_closed_contact(opposite);
  if (closed != other_closed) return closed;
  if (contact == fired || opposite == fired) return contact == fired;
  const bool active = local_index(contact) >= 0, other_active = local_index(opposite) >= 0;
  if (active != other_active) return active;
  return contact < opposite;
}

// Never both faces of a segment for one vertex (MechanicalSystem::opposite_face_contact): their
// rows are opposite, and an impact law handed both solves a singular problem.
void Run::keep_one_face(std::vector<int>& wanted, int fired) {
  const MechanicalSystem& system = evaluation_.system;
  kept_.clear();
  for (const int contact : wanted) {
    const int opposite = system.opposite_face_contact(contact);
    if (opposite < 0 || !std::binary_search(wanted.begin(), wanted.end(), opposite) ||
        keeps_over_opposite(contact, opposite, fired)) {
      kept_.push_back(contact);
    }
  }
  if (kept_.size() < wanted.size()) wanted.swap(kept_);
}

// Makes `wanted` the active contacts, carrying the modes of those that stay (new ones are open).
bool Run::activate(const std::vector<int>& wanted) {
  if (wanted == evaluation_.active) return false;
  std::vector<ContactMode> modes(wanted.size(), ContactMode::open);
  for (std::size_t i = 0; i < wanted.size(); ++i) {
    const int k = local_index(wanted[i]);
    if (k >= 0) modes[i] = modes_[static_cast<std::size_t>(k)];
  }
  select_contacts(evaluation_, wanted);
  modes_ = std::move(modes);
  witnesses_ = witnesses_of(modes_, rotations_);
  last_derivative_t_ = std::numeric_limits<double>::quiet_NaN();  // its kinematics are stale
  return true;
}

// Before a step's events are located: contacts that came near during the step join, and the
// step's start is sampled again with them, so that a gap that closed within it is located. The
// contacts wanted at the step's end stay in wanted_ for narrow_after_step().
void Run::widen_for_step(DenseStepper& stepper) {
  unpack(stepper.current_state(), q_scratch_, v_scratch_);
  wanted_contacts(q_scratch_, wanted_);
  if (std::includes(evaluation_.active.begin(), evaluation_.active.end(), wanted_.begin(),
                    wanted_.end())) {
    return;
  }
  merged_.clear();
  std::set_union(evaluation_.active.begin(), evaluation_.active.end(), wanted_.begin(),
                 wanted_.end(), std::back_inserter(merged_));
  activate(merged_);
  sample_witnesses_at(stepper.previous_time(), stepper.previous_state(), start_);
}

// After a step is accepted at (t, x): contacts gone far leave; what stays is sampled again. The
// broad phase of x is widen_for_step()'s, unless the drift projection `projected` x since.
void Run::narrow_after_step(double t, const OdeState& x, bool projected) {
  if (projected) {
    unpack(x, q_scratch_, v_scratch_);
    wanted_contacts(q_scratch_, wanted_);
  }
  if (activate(wanted_)) sample_witnesses_at(t, x, end_);
}

// The contacts of an event's state, before it is settled or struck, and the fired witness with
// its contact's index among them. The active set is the broad phase's at the step's ends, and a
// contact listed at one of them need not exist at the event: a block's corner resting on another
// block's top near its side lies, within the side face's extent, behind that face by less than
// half the block's width, where the gap reads as sunk into the side face (the broad phase's
// nearest_face() tells the two faces apart; the gap, which locates landings from steps' ends,
// does not). Left active, that contact was touching at the next event, and settling closed it
// against the side face and threw the block into the other. Closed contacts stay, so the fired
// witness's contact does unless it is an open gap's, which an impact finds again if it touches.
Witness Run::contacts_at_event(const Eigen::VectorXd& q, Witness fired) {
  const int watched = fired.kind == WitnessKind::rotation
                          ? -1
                          : evaluation_.active[static_cast<std::size_t>(fired.contact)];
  wanted_contacts(q, wanted_, watched);
  activate(wanted_);
  if (watched >= 0) fired.contact = local_index(watched);
  return fired;
}

// The broad phase lists only contacts within a margin, on the assumption that no body moves or
// turns farther than that margin between two calls (MechanicalSystem::broad_phase_step_bound_s);
// a step that broke it could carry a contact from beyond the margin through its gap and out
// again unseen (a fast disk through another). Its bound at the state x [s]:
double Run::broad_phase_bound_at(const OdeState& x) {
  unpack(x, q_scratch_, v_scratch_);
  return evaluation_.system.broad_phase_step_bound_s(q_scratch_, v_scratch_,
                                                     *evaluation_.model_workspace);
}

// The next step is proposed no longer than the bound at its start.
void Run::bound_next_step(DenseStepper& stepper) {
  const double bound_s = broad_phase_bound_at(stepper.current_state());
  if (stepper.current_time_step() <= bound_s) return;
  step_start_ = stepper.current_state();
  stepper.initialize(step_start_, stepper.current_time(), bound_s);
}

// A step bounded at its start may still outrun the bound at its end, where the bodies move
// faster: one longer than 1.5 times that bound is taken again from its start, no longer than
// it (the model's bound allows for that factor, planar_broad_phase.hpp's kBroadPhaseReach).
bool Run::outran_broad_phase(DenseStepper& stepper) {
  constexpr double kAllowance = 1.5;
  const double t0 = stepper.previous_time(), taken_s = stepper.current_time() - t0;
  const double bound_s = broad_phase_bound_at(stepper.current_state());
  if (taken_s <= kAllowance * bound_s) return false;
  step_start_ = stepper.previous_state();
  stepper.initialize(step_start_, t0, bound_s);
  return true;
}

// --- outcomes

// A watched body's point at `local_m` in its frame, in world axes at q [m].
Eigen::Vector2d world_point(const OverturnWatch& watch, const Eigen::VectorXd& q,
                            const Eigen::Vector2d& local_m) {
  const double x = q[watch.coordinate - 2], y = q[watch.coordinate - 1],
               theta = q[watch.coordinate];
  const double c = std::cos(theta), s = std::sin(theta);
  return {x + c * local_m.x() - s * local_m.y(), y + s * local_m.x() + c * local_m.y()};
}

// Where the watched bodies' base points stand at the start, for their slide: upright on the
// lowest of them, where it is (a block released tilted rocks on that corner, and lands its
// other corner where it would stand upright; from the start's tilted place, rocking alone would
// read as a slide of w (1 − cos θ₀)).
void base_points_start_x(const std::vector<OverturnWatch>& watched, const Eigen::VectorXd& q,
                         std::vector<double>& x_m) {
  x_m.clear();
  for (const OverturnWatch& watch : watched) {
    if (watch.base_points_m.empty()) continue;
    const auto lowest =
        std::min_element(watch.base_points_m.begin(), watch.base_points_m.end(),
                         [&](const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
                           return world_point(watch, q, a).y() < world_point(watch, q, b).y();
                         });
    const double lowest_x = world_point(watch, q, *lowest).x();
    for (const Eigen::Vector2d& point : watch.base_points_m) {
      x_m.push_back(lowest_x + point.x() - lowest->x());
    }
  }
}

// The largest rotation and slide so far (RunSummary), with this state's.
void Run::note_excursions(double t, const Eigen::VectorXd& q) {
  RunSummary& summary = outcome_.summary;
  for (const OverturnWatch& watch : settings_.overturn_watch) {
    const double turned = std::abs(q[watch.coordinate] - watch.reference_rad);
    if (turned > summary.max_abs_theta) {
      summary.max_abs_theta = turned;
      summary.max_abs_theta_time = t;
    }
  }
  std::size_t point = 0;  // in base_start_x_m_
  for (const OverturnWatch& watch : settings_.overturn_watch) {
    if (watch.base_points_m.empty()) continue;
    double slide_m = std::numeric_limits<double>::infinity();
    for (const Eigen::Vector2d& local : watch.base_points_m) {
      const double moved_m = world_point(watch, q, local).x() - base_start_x_m_[point++];
      slide_m = std::min(slide_m, std::abs(moved_m));
    }
    summary.max_slide = std::max(summary.max_slide, slide_m);
  }
}

// The largest rotation of a step lies at its end or where a watched θ̇ changes sign within it.
void Run::track_rotation(DenseStepper& stepper) {
  const double t0 = stepper.previous_time(), t1 = stepper.current_time();
  // the last step may end past the run's duration: what happens there is not the run's
  const double t_end = std::min(t1, settings_.duration);
  for (const OverturnWatch& watch : settings_.overturn_watch) {
    const auto rate = static_cast<std::size_t>(n_ + watch.coordinate);
    const double w0 = stepper.previous_state()[rate], w1 = stepper.current_state()[rate];
    if (!(w0 * w1 < 0.0)) continue;
    const double sign = w0 > 0.0 ? 1.0 : -1.0;
    const auto rate_at = [&](double t) {
      stepper.calc_state(t, x_scratch_);
      return sign * x_scratch_[rate];
    };
    const std::optional<WitnessCrossing> turn =
        locate_witness_crossing(rate_at, t0, sign * w0, t1, sign * w1, settings_.time_tolerance);
    if (!turn || turn->before > t_end) continue;
    dense_state_at(stepper, turn->before);
    note_excursions(turn->before, q_scratch_);
  }
  if (t_end < t1) {
    dense_state_at(stepper, t_end);
  } else {
    unpack(stepper.current_state(), q_scratch_, v_scratch_);
  }
  note_excursions(t_end, q_scratch_);
}

bool Run::handle_overturn(double t, const Witness& witness, const Eigen::VectorXd& q,
                          const Eigen::VectorXd& v) {
  const auto watch =
      std::find_if(settings_.overturn_watch.begin(), settings_.overturn_watch.end(),
                   [&](const OverturnWatch& w) { return w.coordinate == witness.coordinate; });
  const std::string body = watch != settings_.overturn_watch.end() ? watch->body : "a body";
  EventRecord event;
  event.t = t;
  event.kind = EventKind::overturn;
  event.status = cat(body, " turned pi/2 from upright");
  record(event);
  note_excursions(t, q);
  RunSummary& summary = outcome_.summary;
  if (!summary.overturned) {
    summary.overturned = true;
    summary.overturn_time = t;
    summary.overturned_body = body;
  }
  rotations_.erase(rotations_.begin() + witness.contact);
  if (stops_on(EventKind::overturn)) return end_on_event(cat("overturn of ", body), t, q, v);
  return true;
}

// The first lift-off from a set of several closed contacts (a block standing flat begins to
// rock): an `uplift` event, once per run.
bool Run::note_uplift(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                      const std::vector<ContactMode>& before) {
  if (!std::isnan(outcome_.summary.uplift_time)) return true;
  const auto closed_before = std::count_if(before.begin(), before.end(), is_closed);
  if (closed_before < 2) return true;
  EventRecord event;
  for (int k = 0; k < evaluation_.contacts; ++k) {
    if (is_closed(before[k]) && !is_closed(modes_[k])) event.contacts.push_back(k);
  }
  if (event.contacts.empty()) return true;
  event.t = t;
  event.kind = EventKind::uplift;
  event.status = "first lift-off from a resting contact set";
  record(event);
  outcome_.summary.uplift_time = t;
  if (stops_on(EventKind::uplift)) return end_on_event("uplift", t, q, v);
  return true;
}

// Ends the run at an event `events.stop_on` names: the run did what it was asked.
bool Run::end_on_event(std::string detail, double t, const Eigen::VectorXd& q,
                       const Eigen::VectorXd& v) {
  outcome_.status = RunStatus::stopped_on_event;
  outcome_.detail = std::move(detail);
  outcome_.final_state = {t, q, v, model_modes()};
  return false;
}

// The modes by the model's contact index (inactive contacts are open).
std::vector<ContactMode> Run::model_modes() const {
  std::vector<ContactMode> modes(static_cast<std::size_t>(evaluation_.all_contacts),
                                 ContactMode::open);
  for (int k = 0; k < evaluation_.contacts; ++k) {
    modes[static_cast<std::size_t>(evaluation_.active[static_cast<std::size_t>(k)])] = modes_[k];
  }
  return modes;
}

void Run::sample_witnesses_at(double t, const OdeState& x, WitnessSample& sample) {
  unpack(x, q_scratch_, v_scratch_);
  if (any_closed(modes_)) {  // the forces of open contacts are zero: no solve needed
    dynamics_at(evaluation_, t, q_scratch_, v_scratch_, modes_);
  } else {
    contacts_at(evaluation_, q_scratch_, v_scratch_);
  }
  sample_witnesses(witnesses_, modes_, evaluation_.parameters, evaluation_.quantities.contacts,
                   evaluation_.dynamics, evaluation_.rows_per_contact, q_scratch_, v_scratch_,
                   sample);
}

void Run::sample_witnesses_at_step_end(double t, const OdeState& x, WitnessSample& sample) {
  // dopri5's last stage evaluates the right-hand side at the accepted step's end (first same as
  // last); with a closed contact that solve is the one the witnesses need, still in evaluation_.
  if (any_closed(modes_) && t == last_derivative_t_ && x == last_derivative_x_) {
    unpack(x, q_scratch_, v_scratch_);
    sample_witnesses(witnesses_, modes_, evaluation_.parameters, evaluation_.quantities.contacts,
                     evaluation_.dynamics, evaluation_.rows_per_contact, q_scratch_, v_scratch_,
                     sample);
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
    const auto gap_at = [&](double t) { return gap_and_rate_at(k, t, stepper); };
    const GapAndRate start{start_.gap[k], start_.separation_speed[k]},
        end{end_.gap[k], end_.separation_speed[k]};
    if (!rests_touching(start, end, settings_.contact_distance, settings_.absolute_tolerance)) {
      const std::optional<WitnessCrossing> closing =
          locate_gap_closing(gap_at, t0, start, t1, end, tolerance);
      if (closing) return closing;
    }
    // An open contact that starts touching without leaving (settled open: its acceleration let
    // it go) and sinks past half the contact distance within the step: it lands there, still
    // touching.
    const double deepest = -0.5 * settings_.contact_distance;
    if (!(start_.gap[k] > deepest && end_.gap[k] <= deepest)) return std::nullopt;
    const auto sunk = [&](double t) { return gap_at(t).gap - deepest; };
    return locate_witness_crossing(sunk, t0, start_.gap[k] - deepest, t1, end_.gap[k] - deepest,
                                   tolerance);
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

// Contact k's gap and normal velocity on the step's dense output at t.
GapAndRate Run::gap_and_rate_at(int k, double t, DenseStepper& stepper) {
  dense_state_at(stepper, t);
  const ContactKinematics& kinematics = contacts_at(evaluation_, q_scratch_, v_scratch_);
  return {kinematics.gap[k],
          normal_velocity(kinematics, evaluation_.rows_per_contact, k, v_scratch_),
          kinematics.support.size() == 0 ? std::numeric_limits<double>::infinity()
                                         : kinematics.support[k]};
}

// A gap crossing across which the gap falls by far more than its rate explains is no landing: on
// its near side no contact touches, so the impact stage would find nothing and the witness would
// fire again at the same instant. The gap jumped: a point came round the end of an edge to its
// back, where the contact does not exist (contact_pair_kinematics.cpp, the extent's ends).
bool Run::gap_jumps(const TriggeredWitness& fired, DenseStepper& stepper) {
  constexpr double kRateMargin = 10.0;  // a landing's gap changes at its rate, give or take
  const int k = witnesses_[fired.index].contact;
  const GapAndRate near = gap_and_rate_at(k, fired.crossing.before, stepper);
  const GapAndRate far = gap_and_rate_at(k, fired.crossing.after, stepper);
  const double explained = kRateMargin * std::max(std::abs(near.rate), std::abs(far.rate)) *
                           (fired.crossing.after - fired.crossing.before);
  return near.gap > settings_.contact_distance && near.gap - far.gap > explained;
}

// A landing hidden by a gap's jump (gap_jumps()): where two corners slide past each other, one
// crosses the other's face (its gap falls continuously through zero) a hair before it enters
// the extent of the other's side face, whose gap jumps there. When the first gap is positive
// again at the step's end (the corner has left that face's end), only the jump is located, and
// restarting past it left the first contact sunk and open, its witness never to fire again
// (stack:145 of the multibody campaign: a top block fell 0.1 m into the one below). Such a
// contact, positive at the step's start, is sunk and approaching at the jump's far side; the
// earliest crossing of such contacts on the step is the event, an impact.
std::optional<TriggeredWitness> Run::landing_hidden_by_jump(const TriggeredWitness& jump,
                                                            DenseStepper& stepper) {
  const double t0 = stepper.previous_time(), t_past = jump.crossing.after;
  dense_state_at(stepper, t_past);
  std::vector<std::pair<std::size_t, double>> sunk;  // witness, gap at t_past
  {
    const ContactKinematics& kinematics = contacts_at(evaluation_, q_scratch_, v_scratch_);
    for (std::size_t i = 0; i < witnesses_.size(); ++i) {
      const Witness& witness = witnesses_[i];
      if (i == jump.index || witness.kind != WitnessKind::gap) continue;
      const int k = witness.contact;
      if (start_.gap[k] > 0.0 && kinematics.gap[k] <= 0.0 &&
          normal_velocity(kinematics, evaluation_.rows_per_contact, k, v_scratch_) < 0.0) {
        sunk.emplace_back(i, kinematics.gap[k]);
      }
    }
  }
  std::optional<TriggeredWitness> earliest;
  for (const auto& [i, gap_past] : sunk) {
    const int k = witnesses_[i].contact;
    const auto gap_at = [&](double t) { return gap_and_rate_at(k, t, stepper).gap; };
    const WitnessCrossing crossing = locate_witness_crossing(gap_at, t0, start_.gap[k], t_past,
                                                             gap_past, settings_.time_tolerance);
    if (!earliest || crossing.before < earliest->crossing.before) {
      earliest = TriggeredWitness{i, crossing};
    }
  }
  return earliest;
}

// The integration starts again from (t, q, v), after an event or a gap jump, with the contacts
// the broad phase finds there and the witnesses of the modes.
void Run::restart_at(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                     DenseStepper& stepper) {
  wanted_contacts(q, wanted_);
  activate(wanted_);
  witnesses_ = witnesses_of(modes_, rotations_);
  const double step = std::max(stepper.current_time_step(), 1e-9);
  stepper.initialize(pack(q, v), t, std::min(step, settings_.max_step));
  sample_witnesses_at(t, stepper.current_state(), start_);
}

// The forcing's breakpoints (a ground motion's start, end and record samples: settings_.
// next_breakpoint) bound the steps. A step that would pass the next breakpoint b is shortened to
// end at b⁻, the last double before b, so that every stage of it (dopri5's last one sits at the
// step's end) sees the forcing on b's left. From b⁻ the run goes on at b itself, where the
// stepper's first stage sees the forcing on b's right: the state is carried over unchanged (one
// ulp of time, far below the integrator's error) and the contact modes are settled again under
// the new forcing, which may have jumped (a cosine pulse lifts a block at its first instant).
bool Run::approach_breakpoint(DenseStepper& stepper, Eigen::VectorXd& q, Eigen::VectorXd& v) {
  if (!settings_.next_breakpoint) return true;
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  double t = stepper.current_time();
  double breakpoint = settings_.next_breakpoint(t);
  if (breakpoint < settings_.duration && std::nextafter(t, kInfinity) >= breakpoint) {
    unpack(stepper.current_state(), q, v);
    const int events = outcome_.events;
    if (!settle(breakpoint, q, v, /*log_changes=*/true)) return false;
    if (outcome_.events != events) sample(breakpoint, q, v, SampleKind::after_event);
    restart_at(breakpoint, q, v, stepper);
    t = breakpoint;
    breakpoint = settings_.next_breakpoint(t);
  }
  const double last_before = std::nextafter(breakpoint, -kInfinity);
  if (!(breakpoint < settings_.duration) || t + stepper.current_time_step() <= last_before) {
    return true;
  }
  double step = last_before - t;
  while (t + step > last_before) step = std::nextafter(step, 0.0);
  stepper.initialize(stepper.current_state(), t, step);
  return true;
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
  outcome_.final_state = {t, q, v, model_modes()};
  return false;
}

// Bodies overlapping deeper than kOverlapLimit_m went through each other where a contact's gap
// closed unseen by its witness: the run cannot go on right, and ends saying where.
bool Run::bodies_apart(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  const double depth_m = evaluation_.system.deepest_overlap_m(q, *evaluation_.model_workspace);
  if (!(depth_m > kOverlapLimit_m)) return true;
  std::string where;
  evaluation_.system.deepest_overlap_m(q, *evaluation_.model_workspace, &where);
  return stop(RunStatus::interpenetration,
              cat(where, " overlap by ", depth_m, " m: a contact closed without an event"), t, q,
              v);
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
  if (log_changes) {
    record_mode_changes(t, before);
    if (!note_uplift(t, q, v, before)) return false;
  }
  if (!settlement.painleve.empty()) return resolve_painleve(t, settlement.painleve, q, v);
  if (settlement.consistent) return true;
  // No consistent modes were found (settling tries every assignment of at most
  // kMaxEnumeratedContacts contacts, beyond that one change at a time), and it is not Painlevé's
  // paradox: with the modes it ended on a closed contact would pull or an open one sink, and going
  // on would let bodies fall through each other.
  return stop(RunStatus::contact_modes_unresolved,
              "settling found no consistent modes for the touching contacts", t, q, v);
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
    if (is_touching(kinematics, k, settings_.contact_distance) && !is_closed(modes_[k])) {
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
    pending_rest_contact_ = evaluation_.active[static_cast<std::size_t>(k)];
  } else if (at_rest || impacts_.accumulating()) {
    record(mode_event(t, EventKind::rest, k));
  }
  impacts_.clear();
  return true;
}

bool Run::handle_mode_event(double t, const Witness& witness, const Eigen::VectorXd& q,
                            Eigen::VectorXd& v) {
  if (witness.kind == WitnessKind::rotation) return handle_overturn(t, witness, q, v);
  if (witness.kind == WitnessKind::support) {
    // off the end of its edge the contact touches nothing: it opens, and the set settles anew
    // (a disk rolling off a block's top now pivots on its corner, a corner falls past an edge)
    EventRecord event = mode_event(t, EventKind::edge_end, witness.contact);
    event.status = "left the end of its edge";
    record(event);
    modes_[witness.contact] = ContactMode::open;
  }
  // A normal force, friction margin or slip reached zero: the whole contact set is settled again
  // (static friction is a property of the set, docs/simulation.md), and what changed is logged.
  return settle(t, q, v, /*log_changes=*/true);
}

bool Run::emit_samples_until(double t_end, DenseStepper& stepper) {
  const double period = 1.0 / settings_.output_rate;
  while (next_sample_ <= t_end && next_sample_ <= settings_.duration) {
    if (interruption()) return false;
    dense_state_at(stepper, next_sample_);
    sample(next_sample_, q_scratch_, v_scratch_, SampleKind::output);
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
  for (const OverturnWatch& watch : settings_.overturn_watch) {
    rotations_.push_back({watch.coordinate, watch.reference_rad});
  }
  base_points_start_x(settings_.overturn_watch, q, base_start_x_m_);
  const bool modes_given =
      initial.modes.size() == static_cast<std::size_t>(evaluation_.all_contacts);
  // every contact is active until the broad phase has looked at the initial state
  modes_ = modes_given ? initial.modes
                       : std::vector<ContactMode>(static_cast<std::size_t>(evaluation_.contacts),
                                                  ContactMode::open);
  wanted_contacts(q, wanted_);
  activate(wanted_);
  if (!modes_given) {
    // Modes decided from the initial state; an impulse there (Painlevé's tangential impact)
    // gets its pre-event sample like any event.
    const bool settled = settle(t, q, v);
    if (outcome_.events > 0) sample(t, initial.q, initial.v, SampleKind::before_event);
    if (!settled) return outcome_;
  }
  note_excursions(t, q);
  witnesses_ = witnesses_of(modes_, rotations_);
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
    bound_next_step(stepper);
    if (!approach_breakpoint(stepper, q, v)) return outcome_;
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
    if (outran_broad_phase(stepper)) continue;
    widen_for_step(stepper);
    sample_witnesses_at_step_end(t1, stepper.current_state(), end_);
    std::optional<TriggeredWitness> fired = earliest_trigger(stepper);
    const double t_pending = pending_rest_time_;
    const bool rest_due = t_pending > t0 && t_pending <= t1;
    if (!fired && !rest_due) {
      if (!emit_samples_until(t1, stepper)) continue;  // interrupted: handled at the loop's top
      track_rotation(stepper);
      unpack(stepper.current_state(), q, v);
      const bool projected = remove_drift(evaluation_, modes_, end_.gap, q, v);
      if (projected) {
        stepper.initialize(pack(q, v), t1, stepper.current_time_step());
        sample_witnesses_at(t1, stepper.current_state(), end_);
      }
      narrow_after_step(t1, stepper.current_state(), projected);
      if (!bodies_apart(t1, q, v)) return outcome_;
      std::swap(start_, end_);
      continue;
    }
    // An event at t_e: samples up to it, the pre-event state, the event, the post-event state.
    // An impact is taken at the crossing's near side, so that the logged pre-impact state has not
    // penetrated; a mode event at its far side, where the old modes no longer hold and settling
    // finds the new ones.
    const bool rest_first = rest_due && (!fired || t_pending < fired->crossing.before);
    const bool impact = !rest_first && witnesses_[fired->index].kind == WitnessKind::gap;
    const auto gap_at = [&](double at) {
      return gap_and_rate_at(witnesses_[fired->index].contact, at, stepper);
    };
    double t_event = rest_first ? t_pending
                     : impact   ? impact_instant(gap_at, fired->crossing)
                                : fired->crossing.after;
    if (impact && gap_jumps(*fired, stepper)) {
      const double t_past = fired->crossing.after;
      if (const std::optional<TriggeredWitness> hidden = landing_hidden_by_jump(*fired, stepper)) {
        fired = hidden;
        t_event = hidden->crossing.before;
      } else {
        if (!emit_samples_until(std::nextafter(t_past, -1.0), stepper)) continue;
        if (storm_guard_.storm(t_past)) {
          dense_state_at(stepper, t_past);
          stop(RunStatus::event_storm,
               cat("a contact's gap jumps across zero more than ",
                   EventStormGuard::kMaxEventsPerInstant, " times within ",
                   EventStormGuard::kSameInstant, " s"),
               t_past, q_scratch_, v_scratch_);
          return outcome_;
        }
        // the run goes on from the jump's far side: an event without an event record
        stepper.calc_state(t_past, x_scratch_);
        unpack(x_scratch_, q, v);
        note_excursions(t_past, q);
        restart_at(t_past, q, v, stepper);
        continue;
      }
    }
    if (!emit_samples_until(std::nextafter(t_event, -1.0), stepper)) continue;
    stepper.calc_state(t_event, x_scratch_);
    unpack(x_scratch_, q, v);
    sample(t_event, q, v, SampleKind::before_event);
    bool keep_going = true;
    note_excursions(t_event, q);
    if (rest_first) {
      const int resting = local_index(pending_rest_contact_);
      if (resting >= 0) record(mode_event(t_event, EventKind::rest, resting));
      pending_rest_time_ = -1.0;
    } else {
      const Witness witness = contacts_at_event(q, witnesses_[fired->index]);
      keep_going =
          impact ? handle_impact(t_event, q, v) : handle_mode_event(t_event, witness, q, v);
    }
    sample(t_event, q, v, SampleKind::after_event);
    if (next_sample_ <= t_event) {
      next_sample_ = static_cast<double>(++sample_index_) / settings_.output_rate;
    }
    if (!keep_going || !bodies_apart(t_event, q, v)) return outcome_;
    if (storm_guard_.storm(t_event)) {
      stop(RunStatus::event_storm,
           cat("more than ", EventStormGuard::kMaxEventsPerInstant, " events within ",
               EventStormGuard::kSameInstant, " s"),
           t_event, q, v);
      return outcome_;
    }
    restart_at(t_event, q, v, stepper);
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
  outcome_.final_state = {settings_.duration, q, v, model_modes()};
  return outcome_;
}

}  // namespace

SimulationOutcome simulate(const MechanicalSystem& system, SimulationState initial,
                           const SimulationSettings& settings, TrajectoryObserver& observer) {
  Run run(system, settings, observer);
  return run(std::move(initial));
}

}  // namespace routh
