#include "sim/simulation/simulator.hpp"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <algorithm>
#include <boost/numeric/odeint.hpp>
#include <cmath>
#include <deque>
#include <limits>
#include <optional>

#include "sim/contact_space.hpp"
#include "sim/simulation/contact_forces.hpp"
#include "sim/simulation/stop_request.hpp"
#include "sim/simulation/witness_function.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

namespace odeint = boost::numeric::odeint;
using OdeState = std::vector<double>;  // (q, v)
using DenseStepper =
    odeint::result_of::make_dense_output<odeint::runge_kutta_dopri5<OdeState>>::type;

constexpr double kNoTrigger = 1.0;  // witness value of a slot that watches nothing
// A geometric sequence of impact intervals Δ_k with ratios r_k agreeing to this is a Zeno
// accumulation whose limit t_k + Δ_k r/(1 − r) is where the contact comes to rest.
constexpr double kGeometricRatioAgreement = 1e-3;
// Closed contacts drift off their constraint at the integrator's error level; beyond this gap
// [m] the state is projected back (DESIGN §4.5; the issue asks for gaps below 1e-9 m).
constexpr double kDriftTolerance = 1e-10;
// Gauss–Newton passes of the position projection; the gap is quadratic in the correction, so two
// passes take a 1e-10 m drift to round-off.
constexpr int kProjectionPasses = 3;
// Contact accelerations [m/s²] this far on the wrong side of 0 are round-off of a zero (a contact
// held at a_t = 0 by another one), not a violated condition; 1e-10 of gravity.
constexpr double kAccelerationTolerance = 1e-9;
// Closed contacts whose modes are enumerated when the one-change-at-a-time search fails: at most
// 4⁵ = 1024 assignments, each one constrained_acceleration() solve.
constexpr std::size_t kMaxEnumeratedContacts = 5;
// A Zeno accumulation needs 4 previous impact times: with the current one they give the 3
// interval ratios that must agree.
constexpr std::size_t kZenoEvidence = 4;
// Impact times kept: more than the evidence, for a ratio measured over a longer baseline.
constexpr std::size_t kImpactHistory = 8;

// The root in [0, 1] of the cubic Hermite interpolant of g on [a, a + h] from its values
// g_a > 0 ≥ g_b and slopes at the ends, in units of h: Newton's method from the secant root,
// kept in a shrinking bracket. Exact for a quadratic g, such as a gap in free flight.
double hermite_root(double g_a, double slope_a, double g_b, double slope_b, double h) {
  const double m_a = h * slope_a, m_b = h * slope_b;
  const auto p = [&](double s) {
    return (2 * s * s * s - 3 * s * s + 1) * g_a + (s * s * s - 2 * s * s + s) * m_a +
           (3 * s * s - 2 * s * s * s) * g_b + (s * s * s - s * s) * m_b;
  };
  const auto dp = [&](double s) {
    return 6 * (s * s - s) * (g_a - g_b) + (3 * s * s - 4 * s + 1) * m_a +
           (3 * s * s - 2 * s) * m_b;
  };
  double lo = 0.0, hi = 1.0, s = g_a / (g_a - g_b);
  constexpr int kIterations = 50;  // Newton converges in a handful; bisection halves the bracket
  for (int i = 0; i < kIterations && hi - lo > 1e-16; ++i) {
    const double value = p(s);
    if (value > 0.0) {
      lo = s;
    } else {
      hi = s;
    }
    const double slope = dp(s);
    const double newton = slope != 0.0 ? s - value / slope : lo;
    const double next = newton > lo && newton < hi ? newton : 0.5 * (lo + hi);
    if (next == s) break;
    s = next;
  }
  return s;
}

// Two witness slots per contact: slot 2k watches the normal direction (gap while open, λ_n while
// closed), slot 2k + 1 the tangential one (the cone margin while sticking, σ u_t while sliding).
enum class Trigger { impact, liftoff, slip, slide_ends };

class Run {
 public:
  Run(const MechanicalSystem& system, const SimulationSettings& settings,
      TrajectoryObserver& observer)
      : system_(system),
        settings_(settings),
        observer_(observer),
        n_(system.coordinate_count()),
        k_(system.contact_count()),
        rows_(rows_per_contact(system.contact_dimension())),
        no_velocity_(Eigen::VectorXd::Zero(n_)),
        model_workspace_(system.make_workspace()),
        x_scratch_(2 * static_cast<std::size_t>(n_)),
        impact_times_(k_) {}

  SimulationOutcome operator()(SimulationState initial);

 private:
  // --- state conversions
  void unpack(const OdeState& x, Eigen::VectorXd& q, Eigen::VectorXd& v) const {
    q = Eigen::Map<const Eigen::VectorXd>(x.data(), n_);
    v = Eigen::Map<const Eigen::VectorXd>(x.data() + n_, n_);
  }
  // (q, v) into x_scratch_, the state the stepper restarts from after an event or a projection.
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
  /// The system's quantities at (t, q, v) into at_state_; the others there stay as they were.
  void evaluate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                const QuantityRequest& request) {
    system_.evaluate(t, q, v, request, *model_workspace_, at_state_);
  }
  /// The contact kinematics at (q, v) (they do not depend on t).
  const ContactKinematics& contacts_at(const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
    evaluate(0.0, q, v, {.contacts = true});
    return at_state_.contacts;
  }
  /// M(q) (it depends on neither t nor v).
  const Eigen::MatrixXd& mass_matrix_at(const Eigen::VectorXd& q) {
    evaluate(0.0, q, no_velocity_, {.mass_matrix = true});
    return at_state_.mass_matrix;
  }
  /// v̇ and the contact forces at (t, q, v) in the current modes, into accel_.
  void solve_forces(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
    evaluate(t, q, v, constrained_acceleration_needs(modes_));
    constrained_acceleration(at_state_, modes_, settings_.contacts, forces_workspace_, accel_);
  }
  /// The witnesses at one state, with the gaps and normal velocities there: the gap witness
  /// reads the normal velocities at a step's ends and the drift check reads the closed gaps.
  struct WitnessSample {
    Eigen::VectorXd w;                 ///< per slot
    Eigen::VectorXd gap;               ///< per contact [m]
    Eigen::VectorXd separation_speed;  ///< per contact, u_n [m/s]
  };
  void derivative(const OdeState& x, OdeState& dxdt, double t);
  void witness_values(double t, const OdeState& x, WitnessSample& sample);
  void step_end_witness_values(double t, const OdeState& x, WitnessSample& sample);
  /// The witnesses from at_state_, accel_ and v_scratch_ (evaluated at one state).
  void record_witnesses(WitnessSample& sample);
  Trigger trigger_of_slot(int slot) const;
  std::optional<WitnessCrossing> gap_closing(int contact, DenseStepper& stepper, double t0,
                                             const WitnessSample& start, double t1,
                                             const WitnessSample& end);
  /// A contact's gap [m] and its rate u_n [m/s], from one kinematics evaluation.
  struct GapAndRate {
    double gap, separation_speed;
  };
  GapAndRate gap_and_rate(int contact, DenseStepper& stepper, double t);
  WitnessCrossing locate_landing(int contact, DenseStepper& stepper, double a, GapAndRate at_a,
                                 double b, GapAndRate at_b);
  std::optional<WitnessCrossing> locate_on_step(int slot, DenseStepper& stepper, double t0,
                                                double w0, double t1, double w1);

  // --- events
  bool handle_event(int slot, double t, Eigen::VectorXd& q, Eigen::VectorXd& v);
  bool handle_impact(double t, const Eigen::VectorXd& q, Eigen::VectorXd& v);
  /// How the contacts of an impact came to it: approaching, or closed with u_n = 0 but unable
  /// to stay closed (Painlevé: an impact without collision).
  enum class ImpactStart { collision, without_collision };
  bool resolve_impact(double t, std::vector<int> involved, bool at_rest, ImpactStart start,
                      const Eigen::VectorXd& q, Eigen::VectorXd& v);
  /// One impact over the contacts `involved`: the problem, the law's answer and Δv, or the
  /// name of the trouble that prevented it.
  struct ImpactSolution {
    ImpactProblem problem;
    ImpactResult result;
    Eigen::VectorXd velocity_change;
    std::string trouble;
  };
  ImpactSolution solve_impact(const std::vector<int>& involved, bool at_rest, ImpactStart start,
                              const Eigen::VectorXd& v);
  void settle_closed_modes(double t, const Eigen::VectorXd& q, Eigen::VectorXd& v);
  bool modes_are_consistent(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                            const std::vector<int>& candidates);
  bool enumerate_consistent_modes(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                  const std::vector<int>& candidates);
  bool settle_contacts(double t, const Eigen::VectorXd& q, Eigen::VectorXd& v);
  std::vector<int> painleve_contacts(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v);
  bool resolve_painleve(double t, const Eigen::VectorXd& q, Eigen::VectorXd& v);
  void open_separating_contacts(const Eigen::VectorXd& q, const Eigen::VectorXd& v);
  double zeno_limit(double t) const;
  Eigen::VectorXd kinetic_metric_correction(const Eigen::VectorXd& q, const Eigen::MatrixXd& J,
                                            const Eigen::VectorXd& residual);
  void project_velocity_onto_closed_contacts(const Eigen::VectorXd& q, Eigen::VectorXd& v);
  double closed_contact_drift(const Eigen::VectorXd& gap) const;
  bool remove_drift(const WitnessSample& at_step_end, Eigen::VectorXd& q, Eigen::VectorXd& v);
  void record(const EventRecord& event) {
    observer_.record_event(event);
    ++outcome_.events;
  }
  EventRecord mode_event(double t, EventKind kind, int contact) const {
    EventRecord event;
    event.t = t;
    event.kind = kind;
    event.contacts = {contact};
    event.status = std::string(to_string(modes_[contact]));
    return event;
  }

  // --- output
  Energy energy(const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
    evaluate(0.0, q, v, {.mass_matrix = true, .potential_energy = true});  // neither needs t
    // lazy: M v would be a heap temporary per sample
    return {0.5 * v.dot(at_state_.mass_matrix.lazyProduct(v)), at_state_.potential_energy};
  }
  void sample(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
    observer_.record_sample(t, q, v, energy(q, v));
  }
  void emit_samples_until(double t_end, DenseStepper& stepper);

  const MechanicalSystem& system_;
  const SimulationSettings& settings_;
  TrajectoryObserver& observer_;
  const int n_, k_;
  const int rows_;  // contact-space rows per contact
  const Eigen::VectorXd no_velocity_;
  std::vector<ContactMode> modes_;
  // Scratch, sized once: nothing in the integration loop allocates.
  std::unique_ptr<SystemWorkspace> model_workspace_;
  StateQuantities at_state_;  // of the latest evaluate()
  ContactForceWorkspace forces_workspace_;
  ConstrainedAcceleration accel_;
  OdeState x_scratch_;
  Eigen::VectorXd q_scratch_, v_scratch_;
  WitnessSample start_, end_, inside_;  // at the step's ends, and within it while locating
  double last_derivative_t_ = std::numeric_limits<double>::quiet_NaN();  // of the latest RHS
  OdeState last_derivative_x_;
  // Recent impact times of the whole system: an accumulation can alternate between contacts
  // (a rocking block's corners), so the geometric sequence is the system's, not a contact's.
  std::deque<double> impact_times_;
  double next_sample_ = 0.0;
  long sample_index_ = 0;
  bool in_tangential_impact_ = false;  // a Painlevé impact is being resolved
  double pending_rest_time_ = -1.0;    // a Zeno limit ahead, where a rest event is due
  int pending_rest_contact_ = -1;
  SimulationOutcome outcome_;
};

void Run::derivative(const OdeState& x, OdeState& dxdt, double t) {
  unpack(x, q_scratch_, v_scratch_);
  solve_forces(t, q_scratch_, v_scratch_);
  last_derivative_t_ = t;
  last_derivative_x_ = x;
  dxdt.resize(2 * n_);
  Eigen::Map<Eigen::VectorXd>(dxdt.data(), n_) = v_scratch_;
  Eigen::Map<Eigen::VectorXd>(dxdt.data() + n_, n_) = accel_.acceleration;
}

void Run::witness_values(double t, const OdeState& x, WitnessSample& sample) {
  unpack(x, q_scratch_, v_scratch_);
  if (any_closed(modes_)) {  // the forces of open contacts are zero: no solve needed
    solve_forces(t, q_scratch_, v_scratch_);
  } else {
    evaluate(t, q_scratch_, v_scratch_, {.contacts = true});
  }
  record_witnesses(sample);
}

void Run::step_end_witness_values(double t, const OdeState& x, WitnessSample& sample) {
  // dopri5's last stage evaluates the right-hand side at the accepted step's end (first same as
  // last); with a closed contact that solve is the one the witnesses need, still in at_state_
  // and accel_.
  if (any_closed(modes_) && t == last_derivative_t_ && x == last_derivative_x_) {
    unpack(x, q_scratch_, v_scratch_);
    record_witnesses(sample);
    return;
  }
  witness_values(t, x, sample);
}

void Run::record_witnesses(WitnessSample& sample) {
  const ContactKinematics& kinematics = at_state_.contacts;
  Eigen::VectorXd& w = sample.w;
  w.resize(2 * k_);
  sample.gap = kinematics.gap;
  sample.separation_speed.resize(k_);
  for (int k = 0; k < k_; ++k) {
    sample.separation_speed[k] = kinematics.jacobian.row(k * rows_).dot(v_scratch_);
    if (modes_[k] == ContactMode::open) {
      w[2 * k] = kinematics.gap[k];
      w[2 * k + 1] = kNoTrigger;
      continue;
    }
    const ContactForce& force = accel_.forces[k];  // solved at this state: a contact is closed
    const double u_t = kinematics.jacobian.row(k * rows_ + 1).dot(v_scratch_);
    w[2 * k] = force.normal;
    w[2 * k + 1] =
        modes_[k] == ContactMode::stick
            ? settings_.contacts[k].static_friction * force.normal - std::abs(force.tangential)
            : slip_direction(modes_[k]) * u_t;
  }
}

Trigger Run::trigger_of_slot(int slot) const {
  const ContactMode mode = modes_[slot / 2];
  if (slot % 2 == 0) return mode == ContactMode::open ? Trigger::impact : Trigger::liftoff;
  return mode == ContactMode::stick ? Trigger::slip : Trigger::slide_ends;
}

std::optional<WitnessCrossing> Run::gap_closing(int contact, DenseStepper& stepper, double t0,
                                                const WitnessSample& start, double t1,
                                                const WitnessSample& end) {
  // The gap of an open contact needs more than its end values: an impact at t0 leaves it at 0
  // (so "positive, then non-positive" cannot see the next landing in the same step), and a
  // flight can dip below the surface and out again within one step (grazing). Its rate u_n
  // tells both: the gap is highest where u_n turns from + to −, lowest where it turns back.
  // The step's ends are already evaluated (`start`, `end`); only points within it cost a
  // kinematics evaluation, which gives the gap and u_n together.
  const auto at = [&](double t) { return gap_and_rate(contact, stepper, t); };
  const auto gap = [&](double t) { return at(t).gap; };
  const auto separation_speed = [&](double t) { return at(t).separation_speed; };
  const double tolerance = settings_.time_tolerance;
  const double u1 = end.separation_speed[contact], g1 = end.gap[contact];
  GapAndRate at_a{start.gap[contact], start.separation_speed[contact]};
  double a = t0;
  if (!(at_a.gap > 0.0)) {
    // Just left: a landing within the step must follow a flight that turns back. The bracket
    // for it starts within the flight, where the gap is positive: at the apex, where u_n turns
    // from + to −. Its secant estimate from the step's ends is exact while u_n is linear in t
    // (free flight); only when it misses the flight is the apex located.
    const double u0 = at_a.separation_speed;
    if (!(u0 > 0.0 && u1 < 0.0 && g1 <= 0.0)) return std::nullopt;
    a = t0 + (t1 - t0) * (u0 / (u0 - u1));
    at_a = at(a);
    if (!(at_a.gap > 0.0)) {
      a = locate_witness_crossing(separation_speed, t0, u0, t1, u1, tolerance).before;
      at_a = at(a);
    }
    if (!(at_a.gap > 0.0)) return std::nullopt;
  }
  if (g1 <= 0.0) return locate_landing(contact, stepper, a, at_a, t1, {g1, u1});
  if (!(at_a.separation_speed < 0.0 && u1 > 0.0)) return std::nullopt;
  const double lowest =
      locate_witness_crossing(separation_speed, a, at_a.separation_speed, t1, u1, tolerance).after;
  const double g_lowest = gap(lowest);
  if (g_lowest > 0.0) return std::nullopt;
  return locate_witness_crossing(gap, a, at_a.gap, lowest, g_lowest, tolerance);
}

Run::GapAndRate Run::gap_and_rate(int contact, DenseStepper& stepper, double t) {
  dense_state_at(stepper, t);
  evaluate(t, q_scratch_, v_scratch_, {.contacts = true});
  const ContactKinematics& kinematics = at_state_.contacts;
  return {kinematics.gap[contact], kinematics.jacobian.row(contact * rows_).dot(v_scratch_)};
}

WitnessCrossing Run::locate_landing(int contact, DenseStepper& stepper, double a, GapAndRate at_a,
                                    double b, GapAndRate at_b) {
  // The gap's values and rates at both ends predict the landing: the root of their cubic
  // Hermite interpolant, exact for free flight (a parabola). When the gap confirms the times one
  // ulp either side of the prediction as a bracket, two evaluations have found the landing
  // (TOMS 748 needs about ten from a whole step); otherwise they narrow the bracket it starts
  // from. The bracket is the narrowest there is because the left limit's lead on the root biases
  // every landing the same way and a bounce sequence adds the biases up: for the ball dropped
  // 1 m with e = 0.9, a lead of 1/16 of the 1e-12 s tolerance put its 146th impact 1.6e-11 s
  // early, one of 2 ulps 6.9e-13 s, one of 1 ulp 2.3e-13 s.
  const double predicted = a + (b - a) * hermite_root(at_a.gap, at_a.separation_speed, at_b.gap,
                                                      at_b.separation_speed, b - a);
  const double margin = std::nextafter(predicted, b) - predicted;
  double g_a = at_a.gap, g_b = at_b.gap;
  for (const double t : {predicted - margin, predicted + margin}) {
    if (!(t > a && t < b)) continue;
    const double g = gap_and_rate(contact, stepper, t).gap;
    if (g > 0.0) {
      a = t, g_a = g;
    } else {
      b = t, g_b = g;
      break;
    }
  }
  const auto gap = [&](double t) { return gap_and_rate(contact, stepper, t).gap; };
  return locate_witness_crossing(gap, a, g_a, b, g_b, settings_.time_tolerance);
}

std::optional<WitnessCrossing> Run::locate_on_step(int slot, DenseStepper& stepper, double t0,
                                                   double w0, double t1, double w1) {
  if (!witness_triggers(WitnessDirection::positive_then_non_positive, w0, w1)) {
    return std::nullopt;
  }
  const auto witness = [&](double t) {
    stepper.calc_state(t, x_scratch_);
    witness_values(t, x_scratch_, inside_);
    return inside_.w[slot];
  };
  return locate_witness_crossing(witness, t0, w0, t1, w1, settings_.time_tolerance);
}

void Run::emit_samples_until(double t_end, DenseStepper& stepper) {
  const double period = 1.0 / settings_.output_rate;
  while (next_sample_ <= t_end && next_sample_ <= settings_.duration) {
    dense_state_at(stepper, next_sample_);
    sample(next_sample_, q_scratch_, v_scratch_);
    next_sample_ = static_cast<double>(++sample_index_) * period;
  }
}

double Run::zeno_limit(double t) const {
  // Intervals Δ between the recent impacts and this one; a steady ratio r < 1 is a geometric
  // accumulation whose remaining impacts take Δ_last r / (1 − r). The last intervals are the
  // shortest and the least accurate: a ball 0.1 m above the origin has its gap resolved to
  // ulp(0.1 m), 1.4e-17 m, which is 1e-11 s at a 1e-6 m/s landing, 5e-5 of its last interval;
  // 1/(1 − r)² then amplifies a ratio error into the limit (to ~1e-9 s for that ball). So the
  // last three ratios decide whether the sequence is geometric, and r itself is measured over
  // all kept intervals, (Δ_last / Δ_first)^(1 / (intervals − 1)), where the earlier, longer and
  // faster ones dilute that error.
  std::vector<double> times(impact_times_.begin(), impact_times_.end());
  times.push_back(t);
  if (times.size() < kZenoEvidence + 1) return t;
  const auto interval = [&](std::size_t back) {  // back = 0: the last interval
    return times[times.size() - 1 - back] - times[times.size() - 2 - back];
  };
  const double r_last = interval(0) / interval(1);
  for (std::size_t back = 0; back + 1 < kZenoEvidence; ++back) {
    const double ratio = interval(back) / interval(back + 1);
    if (!(r_last < 1.0 && std::abs(ratio - r_last) <= kGeometricRatioAgreement * r_last)) return t;
  }
  const std::size_t oldest = times.size() - 2;  // the first interval, counted back from the last
  const double r = std::pow(interval(0) / interval(oldest), 1.0 / static_cast<double>(oldest));
  return t + interval(0) * r / (1.0 - r);
}

Eigen::VectorXd Run::kinetic_metric_correction(const Eigen::VectorXd& q, const Eigen::MatrixXd& J,
                                               const Eigen::VectorXd& residual) {
  // M⁻¹Jᵀ (J M⁻¹ Jᵀ)⁻¹ r: the smallest change in the kinetic-energy metric that removes the
  // residual r of the rows J (to first order); full-pivot LU copes with redundant rows.
  const Eigen::MatrixXd inverse_mass_Jt =
      Eigen::LLT<Eigen::MatrixXd>(mass_matrix_at(q)).solve(J.transpose());
  return inverse_mass_Jt * (J * inverse_mass_Jt).fullPivLu().solve(residual);
}

void Run::project_velocity_onto_closed_contacts(const Eigen::VectorXd& q, Eigen::VectorXd& v) {
  // v ← v − M⁻¹Jᵀ (J M⁻¹ Jᵀ)⁻¹ J v over the closed rows: the kinetic-energy-closest velocity
  // that keeps closed contacts closed (and sticking ones without slip).
  const ContactKinematics& kinematics = contacts_at(q, v);
  std::vector<int> constrained;
  for (int k = 0; k < k_; ++k) {
    if (!is_closed(modes_[k])) continue;
    constrained.push_back(k * rows_);
    if (modes_[k] == ContactMode::stick) constrained.push_back(k * rows_ + 1);
  }
  if (constrained.empty()) return;
  Eigen::MatrixXd J(constrained.size(), n_);
  for (std::size_t i = 0; i < constrained.size(); ++i) {
    J.row(i) = kinematics.jacobian.row(constrained[i]);
  }
  v -= kinetic_metric_correction(q, J, J * v);
}

double Run::closed_contact_drift(const Eigen::VectorXd& gap) const {
  double drift = 0.0;  // [m]
  for (int k = 0; k < k_; ++k) {
    if (is_closed(modes_[k])) drift = std::max(drift, std::abs(gap[k]));
  }
  return drift;
}

bool Run::remove_drift(const WitnessSample& at_step_end, Eigen::VectorXd& q, Eigen::VectorXd& v) {
  // q ← q − M⁻¹J_nᵀ (J_n M⁻¹ J_nᵀ)⁻¹ g over the closed contacts' gaps: the kinetic-metric closest
  // configuration on the constraints; then v is projected onto their tangent space. The step's
  // end sample holds the gaps at (q, v), so a step within the tolerance costs no evaluation.
  if (closed_contact_drift(at_step_end.gap) <= kDriftTolerance) return false;
  for (int pass = 0; pass < kProjectionPasses; ++pass) {
    const ContactKinematics& kinematics = contacts_at(q, v);
    if (pass > 0 && closed_contact_drift(kinematics.gap) <= 0.0) break;
    std::vector<int> closed;
    for (int k = 0; k < k_; ++k) {
      if (is_closed(modes_[k])) closed.push_back(k);
    }
    Eigen::MatrixXd J_n(closed.size(), n_);
    Eigen::VectorXd gap(closed.size());
    for (std::size_t i = 0; i < closed.size(); ++i) {
      J_n.row(i) = kinematics.jacobian.row(closed[i] * rows_);
      gap[i] = kinematics.gap[closed[i]];
    }
    q -= kinetic_metric_correction(q, J_n, gap);
  }
  project_velocity_onto_closed_contacts(q, v);
  return true;
}

bool Run::modes_are_consistent(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                               const std::vector<int>& candidates) {
  // The current modes of the contacts that were closed (touching, not separating) hold if the
  // closed ones push (λ_n ≥ 0), the sticking ones stay in their cone, the ones slipping from rest
  // slip the way their friction assumes (σ a_t ≥ 0), and the opened ones do not accelerate into
  // their obstacle (a_n ≥ 0), with a = J v̇ + J̇ v.
  solve_forces(t, q, v);
  if (!accel_.consistent) return false;
  const ContactKinematics& kinematics = contacts_at(q, v);
  const auto contact_acceleration = [&](int row) {
    return kinematics.jacobian.row(row).dot(accel_.acceleration) + kinematics.jacobian_dot_v[row];
  };
  for (const int k : candidates) {
    const ContactForce& force = accel_.forces[k];
    switch (modes_[k]) {
      case ContactMode::open:
        if (contact_acceleration(k * rows_) < -kAccelerationTolerance) return false;
        break;
      case ContactMode::stick:
        if (force.normal < 0.0 ||
            std::abs(force.tangential) > settings_.contacts[k].static_friction * force.normal)
          return false;
        break;
      default: {
        if (force.normal < 0.0) return false;
        const double u_t = kinematics.jacobian.row(k * rows_ + 1).dot(v);
        const double slip_acceleration =
            slip_direction(modes_[k]) * contact_acceleration(k * rows_ + 1);
        if (std::abs(u_t) <= settings_.rest_speed && slip_acceleration < -kAccelerationTolerance)
          return false;
      }
    }
  }
  return true;
}

bool Run::enumerate_consistent_modes(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                     const std::vector<int>& candidates) {
  // Every assignment of the candidates' modes (a slipping contact slides its way or opens; one
  // without slip sticks, slides either way, or opens), tried in order of fewest opened contacts,
  // then fewest slipping from rest, each contact's options in order of preference: the first
  // consistent one is taken. The preferred slip direction opposes the force sticking needed.
  const std::size_t count = candidates.size();
  if (count > kMaxEnumeratedContacts) return false;
  solve_forces(t, q, v);
  std::vector<std::vector<ContactMode>> options(count);
  for (std::size_t i = 0; i < count; ++i) {
    const int k = candidates[i];
    if (is_sliding(modes_[k])) {
      options[i] = {modes_[k], ContactMode::open};
    } else {
      const bool pushed_back = accel_.forces[k].tangential > 0.0;
      options[i] = {ContactMode::stick,
                    pushed_back ? ContactMode::slide_negative : ContactMode::slide_positive,
                    pushed_back ? ContactMode::slide_positive : ContactMode::slide_negative,
                    ContactMode::open};
    }
  }
  struct Assignment {
    int opened = 0, slipping = 0;
    std::vector<ContactMode> modes;
  };
  std::vector<Assignment> assignments;
  std::vector<std::size_t> choice(count, 0);
  while (true) {
    Assignment assignment;
    for (std::size_t i = 0; i < count; ++i) {
      const ContactMode mode = options[i][choice[i]];
      assignment.modes.push_back(mode);
      if (mode == ContactMode::open) ++assignment.opened;
      if (options[i].size() > 2 && is_sliding(mode)) ++assignment.slipping;
    }
    assignments.push_back(std::move(assignment));
    std::size_t digit = count;  // the next choice, last contact fastest
    while (digit > 0 && ++choice[digit - 1] == options[digit - 1].size()) choice[--digit] = 0;
    if (digit == 0) break;
  }
  std::stable_sort(assignments.begin(), assignments.end(),
                   [](const Assignment& a, const Assignment& b) {
                     return a.opened != b.opened ? a.opened < b.opened : a.slipping < b.slipping;
                   });
  for (const Assignment& assignment : assignments) {
    for (std::size_t i = 0; i < count; ++i) modes_[candidates[i]] = assignment.modes[i];
    if (modes_are_consistent(t, q, v, candidates)) return true;
  }
  return false;
}

void Run::settle_closed_modes(double t, const Eigen::VectorXd& q, Eigen::VectorXd& v) {
  // Closed contacts without slip stick if the cone holds them, else slide against the friction
  // they needed; contacts that would need to pull open. Each pass changes one mode for good, so
  // 2K + 1 passes suffice. Changing one mode at a time can end where a contact it opened is
  // driven into its obstacle (a block on both corners under a ground acceleration above g b/h
  // with μ below b/h: its loaded corner slips, then the other, pulling, opens, and friction too
  // weak to turn the block tips it onto the open corner, through the floor, where it should
  // slide on both); then every assignment is tried.
  if (!any_closed(modes_)) return;
  const ContactKinematics& kinematics = contacts_at(q, v);
  for (int k = 0; k < k_; ++k) {
    if (!is_closed(modes_[k])) continue;
    const double u_t = kinematics.jacobian.row(k * rows_ + 1).dot(v);
    if (std::abs(u_t) > settings_.rest_speed) {
      modes_[k] = u_t > 0.0 ? ContactMode::slide_positive : ContactMode::slide_negative;
    } else {
      modes_[k] = ContactMode::stick;
    }
  }
  project_velocity_onto_closed_contacts(q, v);
  std::vector<int> candidates;
  for (int k = 0; k < k_; ++k) {
    if (is_closed(modes_[k])) candidates.push_back(k);
  }
  const std::vector<ContactMode> entry_modes = modes_;
  for (int pass = 0; pass <= 2 * k_; ++pass) {
    solve_forces(t, q, v);
    bool changed = false;
    for (int k = 0; k < k_ && !changed; ++k) {
      const ContactForce& force = accel_.forces[k];
      if (is_closed(modes_[k]) && force.normal < 0.0) {
        modes_[k] = ContactMode::open;
        changed = true;
      } else if (modes_[k] == ContactMode::stick &&
                 std::abs(force.tangential) >
                     settings_.contacts[k].static_friction * force.normal) {
        modes_[k] =
            force.tangential > 0.0 ? ContactMode::slide_negative : ContactMode::slide_positive;
        changed = true;
      }
    }
    if (!changed) break;
  }
  if (modes_are_consistent(t, q, v, candidates)) return;
  const std::vector<ContactMode> one_at_a_time = modes_;
  modes_ = entry_modes;
  if (!enumerate_consistent_modes(t, q, v, candidates)) modes_ = one_at_a_time;
}

bool Run::settle_contacts(double t, const Eigen::VectorXd& q, Eigen::VectorXd& v) {
  settle_closed_modes(t, q, v);
  return resolve_painleve(t, q, v);
}

std::vector<int> Run::painleve_contacts(double t, const Eigen::VectorXd& q,
                                        const Eigen::VectorXd& v) {
  // Painlevé's paradox (DESIGN §4.3): a sliding contact whose friction drives it into the
  // surface faster than its normal force pushes it out can neither stay closed (it would need
  // λ_n < 0, so settling opened it) nor open (its free normal acceleration is negative). Such a
  // contact is touching, not separating, open, and accelerating into the surface. At a genuine
  // lift-off both λ_n and a_n pass through 0, and the event, located to 1e-12 s, leaves a_n of
  // round-off size; in Painlevé's configurations a_n is of the size of gravity. A floor of
  // 1e-6 m/s², or 1e-8 of the terms that make a_n when they are larger, tells them apart.
  constexpr double kAccelerationFloor = 1e-6;  // [m/s²]
  constexpr double kAccelerationRoundOff = 1e-8;
  solve_forces(t, q, v);
  const ContactKinematics& kinematics = contacts_at(q, v);
  std::vector<int> stuck;
  for (int k = 0; k < k_; ++k) {
    const auto J_n = kinematics.jacobian.row(k * rows_);
    const double u_n = J_n.dot(v);
    const double curvature_term = kinematics.jacobian_dot_v[k * rows_];
    const double dynamic_term = J_n.dot(accel_.acceleration);
    const double a_n = dynamic_term + curvature_term;
    const bool inconsistent =
        (is_sliding(modes_[k]) && !accel_.consistent) ||
        (!is_closed(modes_[k]) && kinematics.gap[k] <= settings_.contact_distance &&
         u_n <= settings_.rest_speed &&
         a_n < -std::max(kAccelerationFloor, kAccelerationRoundOff * (std::abs(dynamic_term) +
                                                                      std::abs(curvature_term))));
    if (inconsistent) stuck.push_back(k);
  }
  return stuck;
}

bool Run::resolve_painleve(double t, const Eigen::VectorXd& q, Eigen::VectorXd& v) {
  // No contact forces exist for these contacts: an impulse does (an impact without collision,
  // or tangential impact: Génot & Brogliato 1999), which the scenario's law resolves from
  // u_n = 0. One such impact leaves the contacts sticking or separating; were they still stuck,
  // the law could not resolve the paradox, and the run stops with a trouble event.
  const std::vector<int> stuck = painleve_contacts(t, q, v);
  if (stuck.empty()) return true;
  EventRecord event = mode_event(t, EventKind::painleve, stuck.front());
  event.contacts = stuck;
  event.status = "no contact force is consistent: tangential impact";
  record(event);
  if (in_tangential_impact_) {
    EventRecord trouble = event;
    trouble.kind = EventKind::trouble;
    trouble.status = "Painlevé's paradox persists after a tangential impact";
    record(trouble);
    outcome_.status = RunStatus::painleve_unresolved;
    outcome_.detail = trouble.status;
    return false;
  }
  in_tangential_impact_ = true;
  const bool resolved =
      resolve_impact(t, stuck, /*at_rest=*/false, ImpactStart::without_collision, q, v);
  in_tangential_impact_ = false;
  return resolved;
}

void Run::open_separating_contacts(const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  const ContactKinematics& kinematics = contacts_at(q, v);
  for (int k = 0; k < k_; ++k) {
    const double u_n = kinematics.jacobian.row(k * rows_).dot(v);
    const bool touching = kinematics.gap[k] <= settings_.contact_distance;
    modes_[k] = (touching && u_n <= settings_.rest_speed) ? ContactMode::stick : ContactMode::open;
  }
}

// Reads M and the contact Jacobians at the impact configuration from at_state_.
Run::ImpactSolution Run::solve_impact(const std::vector<int>& involved, bool at_rest,
                                      ImpactStart start, const Eigen::VectorXd& v) {
  Eigen::MatrixXd J(rows_ * involved.size(), n_);
  ContactParameterList parameters;
  for (std::size_t i = 0; i < involved.size(); ++i) {
    J.middleRows(rows_ * i, rows_) =
        at_state_.contacts.jacobian.middleRows(rows_ * involved[i], rows_);
    ContactParameters contact = settings_.contacts[involved[i]];
    if (at_rest) contact.restitution = 0.0;  // too slow to bounce: the contact closes
    parameters.push_back(contact);
  }
  ContactSpace space;
  factor_contact_space(at_state_.mass_matrix, J, space);
  ImpactSolution solution;
  solution.problem = generalized_impact_problem(space, v, system_.contact_dimension(), parameters);
  if (start == ImpactStart::without_collision) {
    // The contacts were closed: their u_n is zero up to round-off, and the law must see the
    // zero that makes it an impact without collision (planar_contact.hpp).
    for (std::size_t i = 0; i < involved.size(); ++i) {
      solution.problem.u_pre[static_cast<Eigen::Index>(rows_ * i)] = 0.0;
    }
  }
  const ImpactLaw law = involved.size() == 1 ? settings_.law : settings_.multi_contact_law;
  if (law == nullptr) {
    solution.trouble = "no law for a simultaneous impact at several contacts";
    return solution;
  }
  solution.result = law(solution.problem);
  if (solution.result.status != ImpactStatus::solved) {
    solution.trouble = cat("impact law: ", to_string(solution.result.status));
    return solution;
  }
  solution.velocity_change = generalized_velocity_change(space, solution.result.impulse);
  return solution;
}

bool Run::handle_impact(double t, const Eigen::VectorXd& q, Eigen::VectorXd& v) {
  // The impact starts with the touching contacts that approach (DESIGN §4 step 3).
  const ContactKinematics& kinematics = contacts_at(q, v);
  std::vector<int> involved;
  double approach_speed = 0.0;
  for (int k = 0; k < k_; ++k) {
    const double u_n = kinematics.jacobian.row(k * rows_).dot(v);
    if (kinematics.gap[k] <= settings_.contact_distance && u_n < 0.0) {
      involved.push_back(k);
      approach_speed = std::max(approach_speed, -u_n);
    }
  }
  if (involved.empty()) return true;  // grazing: nothing to do
  return resolve_impact(t, std::move(involved), approach_speed < settings_.rest_speed,
                        ImpactStart::collision, q, v);
}

bool Run::resolve_impact(double t, std::vector<int> involved, bool at_rest, ImpactStart start,
                         const Eigen::VectorXd& q, Eigen::VectorXd& v) {
  // M and the contacts at q, for the whole impact: the evaluations below are at q too
  evaluate(t, q, v, {.mass_matrix = true, .contacts = true});
  const ContactKinematics& kinematics = at_state_.contacts;
  const auto normal_velocity = [&](int k, const Eigen::VectorXd& velocity) {
    return kinematics.jacobian.row(k * rows_).dot(velocity);
  };
  const auto touching = [&](int k) { return kinematics.gap[k] <= settings_.contact_distance; };
  // A touching contact that the impact would drive into the ground joins, and the impact is
  // solved again, so that only contacts that must carry impulse take part: in Housner's rocking
  // the old pivot carries none and lifts off.
  ImpactSolution solution;
  for (int round = 0; round <= k_; ++round) {
    solution = solve_impact(involved, at_rest, start, v);
    if (!solution.trouble.empty()) break;
    const Eigen::VectorXd v_post = v + solution.velocity_change;
    int penetrating = -1;
    for (int k = 0; k < k_ && penetrating < 0; ++k) {
      const bool in = std::find(involved.begin(), involved.end(), k) != involved.end();
      if (!in && touching(k) && normal_velocity(k, v_post) < -settings_.rest_speed) penetrating = k;
    }
    if (penetrating < 0) break;
    involved.insert(std::upper_bound(involved.begin(), involved.end(), penetrating), penetrating);
  }
  if (!solution.trouble.empty()) {
    EventRecord trouble = impact_event(t, involved, solution.problem.u_pre, solution.result);
    trouble.kind = EventKind::trouble;
    trouble.status = solution.trouble;
    record(trouble);
    outcome_.status = RunStatus::impact_law_failure;
    outcome_.detail = trouble.status;
    return false;
  }
  const ImpactProblem& problem = solution.problem;
  const ImpactResult& result = solution.result;
  v += solution.velocity_change;
  record(impact_event(t, involved, problem.u_pre, result));
  ++outcome_.impacts;

  // Contacts that separate slower than the rest speed close (persistent contact). If their
  // impacts were accumulating geometrically, the rest is due at the accumulation point.
  open_separating_contacts(q, v);
  // The motion comes to rest when the impact leaves every touching contact closed (the ball on
  // its floor, the block flat on both corners); a pivot switch, where another corner lifts off,
  // is part of the rocking. open_separating_contacts() left the kinematics at (q, v⁺).
  bool comes_to_rest = true;
  for (int k = 0; k < k_; ++k) {
    if (touching(k) && !is_closed(modes_[k])) {
      comes_to_rest = false;
    }
  }
  if (!comes_to_rest) {
    impact_times_.push_back(t);
    if (impact_times_.size() > kImpactHistory) impact_times_.pop_front();
  } else {
    // A contact closing after a plastic impact is simply in persistent contact; "rest" is for
    // impacts too slow to bounce, and for the limit of a geometric sequence of them (Zeno).
    const int k = *std::find_if(involved.begin(), involved.end(),
                                [this](int c) { return is_closed(modes_[c]); });
    const double limit = zeno_limit(t);
    if (limit > t) {
      EventRecord zeno = mode_event(t, EventKind::zeno, k);
      zeno.status = cat("geometric accumulation of impacts; limit at t = ", limit, " s");
      record(zeno);
      pending_rest_time_ = limit;
      pending_rest_contact_ = k;
    } else if (at_rest) {
      record(mode_event(t, EventKind::rest, k));
    }
    impact_times_.clear();
  }
  return settle_contacts(t, q, v);
}

bool Run::handle_event(int slot, double t, Eigen::VectorXd& q, Eigen::VectorXd& v) {
  const int contact = slot / 2;
  switch (trigger_of_slot(slot)) {
    case Trigger::impact: return handle_impact(t, q, v);
    case Trigger::liftoff:
      modes_[contact] = ContactMode::open;
      record(mode_event(t, EventKind::liftoff, contact));
      return settle_contacts(t, q, v);
    case Trigger::slip: {
      // the friction force at the event itself (the locator last evaluated it elsewhere)
      solve_forces(t, q, v);
      const double tangential = accel_.forces[contact].tangential;
      modes_[contact] =
          tangential > 0.0 ? ContactMode::slide_negative : ContactMode::slide_positive;
      record(mode_event(t, EventKind::slip, contact));
      return resolve_painleve(t, q, v);
    }
    case Trigger::slide_ends: {
      const ContactMode before = modes_[contact];
      modes_[contact] = ContactMode::stick;
      settle_closed_modes(t, q, v);
      // The slip reached zero: the contact sticks, reverses, lifts off, or (its slip only
      // touched zero, e.g. a corner held still by another one) slides on as before, which is
      // no change of mode and no event.
      const ContactMode after = modes_[contact];
      if (after != before) {
        const EventKind kind = after == ContactMode::stick  ? EventKind::stick
                               : after == ContactMode::open ? EventKind::liftoff
                                                            : EventKind::reversal;
        record(mode_event(t, kind, contact));
      }
      return resolve_painleve(t, q, v);
    }
  }
  return true;
}

SimulationOutcome Run::operator()(SimulationState initial) {
  Eigen::VectorXd q = initial.q, v = initial.v;
  double t = initial.t;
  modes_ = initial.modes;
  if (modes_.size() != static_cast<std::size_t>(k_)) {
    modes_.assign(k_, ContactMode::open);
    open_separating_contacts(q, v);
    if (!settle_contacts(t, q, v)) {
      outcome_.final_state = {t, q, v, modes_};
      return outcome_;
    }
  }
  next_sample_ = t;
  sample_index_ = 0;
  const auto rhs = [this](const OdeState& x, OdeState& dxdt, double time) {
    derivative(x, dxdt, time);
  };
  DenseStepper stepper =
      odeint::make_dense_output(settings_.absolute_tolerance, settings_.relative_tolerance,
                                settings_.max_step, odeint::runge_kutta_dopri5<OdeState>());
  double step = std::min(settings_.max_step, 1e-3);
  stepper.initialize(pack(q, v), t, step);
  witness_values(t, stepper.current_state(), start_);

  while (stepper.current_time() < settings_.duration) {
    if (stop_requested()) {  // SIGINT/SIGTERM (stop_request.hpp): the log ends here, cleanly
      unpack(stepper.current_state(), q, v);
      EventRecord interrupted;
      interrupted.t = stepper.current_time();
      interrupted.kind = EventKind::interrupted;
      interrupted.status = "interrupted";
      record(interrupted);
      outcome_.status = RunStatus::interrupted;
      outcome_.detail = "stopped on request (SIGINT or SIGTERM)";
      outcome_.final_state = {interrupted.t, q, v, modes_};
      return outcome_;
    }
    stepper.do_step(rhs);
    const double t0 = stepper.previous_time(), t1 = stepper.current_time();
    step_end_witness_values(t1, stepper.current_state(), end_);
    // The earliest witness to trigger on (t0, t1], isolated on this step's dense output.
    int fired = -1;
    WitnessCrossing earliest{t1, t1};
    for (int slot = 0; slot < 2 * k_; ++slot) {
      const std::optional<WitnessCrossing> crossing =
          trigger_of_slot(slot) == Trigger::impact
              ? gap_closing(slot / 2, stepper, t0, start_, t1, end_)
              : locate_on_step(slot, stepper, t0, start_.w[slot], t1, end_.w[slot]);
      if (crossing && (fired < 0 || crossing->before < earliest.before)) {
        fired = slot;
        earliest = *crossing;
      }
    }
    const double t_pending = pending_rest_time_;
    if (fired < 0 && !(t_pending > t0 && t_pending <= t1)) {
      emit_samples_until(t1, stepper);
      unpack(stepper.current_state(), q, v);
      if (remove_drift(end_, q, v)) {
        stepper.initialize(pack(q, v), t1, stepper.current_time_step());
        witness_values(t1, stepper.current_state(), end_);
      }
      std::swap(start_, end_);
      continue;
    }
    // An event at t_e: samples up to it, the pre-event state, the event, the post-event state.
    const bool rest_first =
        t_pending > t0 && t_pending <= t1 && (fired < 0 || t_pending < earliest.before);
    const double t_event = rest_first ? t_pending : earliest.before;
    emit_samples_until(std::nextafter(t_event, -1.0), stepper);
    stepper.calc_state(t_event, x_scratch_);
    unpack(x_scratch_, q, v);
    sample(t_event, q, v);
    bool keep_going = true;
    if (rest_first) {
      record(mode_event(t_event, EventKind::rest, pending_rest_contact_));
      pending_rest_time_ = -1.0;
    } else {
      keep_going = handle_event(fired, t_event, q, v);
    }
    sample(t_event, q, v);
    if (next_sample_ <= t_event)
      next_sample_ = static_cast<double>(++sample_index_) / settings_.output_rate;
    if (!keep_going) {
      outcome_.final_state = {t_event, q, v, modes_};
      return outcome_;
    }
    step = std::max(stepper.current_time_step(), 1e-9);
    stepper.initialize(pack(q, v), t_event, std::min(step, settings_.max_step));
    witness_values(t_event, stepper.current_state(), start_);
  }
  emit_samples_until(settings_.duration, stepper);
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
