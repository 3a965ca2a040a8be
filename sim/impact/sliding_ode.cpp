#include "sim/impact/sliding_ode.hpp"
#include "sim/impact/law_guard.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <boost/math/tools/toms748_solve.hpp>
#include <boost/numeric/odeint/stepper/controlled_runge_kutta.hpp>
#include <boost/numeric/odeint/stepper/generation.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta_dopri5.hpp>
#include <cmath>
#include <cstdint>
#include <limits>

#include "sim/impact/routh_incremental.hpp"
#include "sim/impact/spatial_contact.hpp"
#include "sim/impact/spatial_sticking.hpp"

namespace routh {

namespace {

namespace odeint = boost::numeric::odeint;

constexpr double kNever = std::numeric_limits<double>::infinity();

// Step budget of one slip flow: a smooth slide takes tens of steps, the approach to a slowly
// halting slip (its decay rate in τ, |ṡ|/ε, small against the rate at which its direction settles)
// a few hundred.
constexpr int kMaxSteps = 20000;
// A compression still going on after this normal impulse (in units of the problem, where the
// impulse that stops a head-on approach is about 1) never ends: sliding keeps driving the bodies
// together.
constexpr double kMaxNormalImpulse = 1e9;
// First trial step of the integration in Keller's time τ; the controller adapts it.
constexpr double kInitialStep = 1e-2;
// ε of the time scaling dΓ_n/dτ = s/(s + ε) (SlipFlow), in units of |u⁻|: below this slip the
// flow is slowed down so that the halt is an ordinary equilibrium.
constexpr double kSlipScale = 0.1;
// Bits to which TOMS 748 locates the end of compression and of the impact in normal impulse.
constexpr int kRootBits = 50;

// ---------------------------------------------------------------------------------------------
// The contact in units of the problem

/// The contact made dimensionless: velocities in units of V = |u⁻| [m/s], H in units of
/// h = tr(H)/3 [1/kg], hence impulses in V/h [N s] and works in V²/h [J]. The integration's
/// tolerances are then fractions of the problem's own scale, whatever its units.
struct ScaledContact {
  Eigen::Matrix3d H;
  double H_norm = 1.0;  ///< Frobenius norm of H
  Eigen::Vector3d u_pre;
  double kinetic_friction = 0.0;
  double impulse_unit = 1.0;  ///< [N s]
  double work_unit = 1.0;     ///< [J]

  /// u = u⁻ + H Γ (docs/design.md §2) after the impulse (Γ_n, Γ_t).
  Eigen::Vector3d velocity(double normal_impulse, const Eigen::Vector2d& tangential_impulse) const {
    return u_pre + H.col(0) * normal_impulse + H.rightCols<2>() * tangential_impulse;
  }
};

ScaledContact scale(const SpatialContact& contact) {
  const Eigen::Vector3d u_pre(contact.u_n, contact.u_t[0], contact.u_t[1]);
  const double velocity_unit = u_pre.norm();  // > 0: the contact approaches
  const double inverse_mass_unit = contact.H.trace() / 3.0;
  ScaledContact scaled;
  scaled.H = contact.H / inverse_mass_unit;
  scaled.H_norm = scaled.H.norm();
  scaled.u_pre = u_pre / velocity_unit;
  scaled.kinetic_friction = contact.parameters.kinetic_friction;
  scaled.impulse_unit = velocity_unit / inverse_mass_unit;
  scaled.work_unit = velocity_unit * scaled.impulse_unit;
  return scaled;
}

/// Where the impact stands, in units of the problem (all integrals from Γ_n = 0).
struct Progress {
  double normal_impulse = 0.0;                                   ///< Γ_n
  Eigen::Vector2d tangential_impulse = Eigen::Vector2d::Zero();  ///< Γ_t
  double normal_work = 0.0;                                      ///< W_n = ∫ u_n dΓ_n
  double tangential_work = 0.0;                                  ///< W_t = ∫ u_t·dΓ_t
  Stage stage = Stage::compression;
  double compression_impulse = 0.0;  ///< Γ_n,c
  double compression_work = 0.0;     ///< W_n,c
};

Eigen::Vector3d velocity(const ScaledContact& contact, const Progress& progress) {
  return contact.velocity(progress.normal_impulse, progress.tangential_impulse);
}

// ---------------------------------------------------------------------------------------------
// Restitution rules
//
// A restitution rule (a small concept in Odeint's style, the spatial counterpart of
// routh_incremental.hpp's RestitutionRule) says where restitution ends:
//     double end_measure(double normal_impulse, double normal_work, const Progress& p) const;
//         negative during restitution until the impact ends, zero there; p holds Γ_n,c, W_n,c
//     double impulse_to_end(const Progress& p, double u_n, double normal_rate) const;
//         the normal impulse still to go (∞: never) in a phase of constant du_n/dΓ_n =
//         normal_rate starting from p with normal velocity u_n ≥ 0

/// Poisson: the impact ends at Γ_n = (1 + e) Γ_n,c (paper 001 eq. 5; paper 004 eq. 25).
struct PoissonEnd {
  double restitution;
  double end_measure(double normal_impulse, double /*normal_work*/, const Progress& p) const {
    return normal_impulse - (1.0 + restitution) * p.compression_impulse;
  }
  double impulse_to_end(const Progress& p, double /*u_n*/, double /*normal_rate*/) const {
    return -end_measure(p.normal_impulse, p.normal_work, p);
  }
};

/// Stronge: the impact ends when the restitution work W_n − W_n,c reaches −e² W_n,c
/// (paper 004 eq. 26; Mirtich 1996 uses W_n as the independent variable of restitution for it).
struct EnergeticEnd {
  double restitution;
  double end_measure(double /*normal_impulse*/, double normal_work, const Progress& p) const {
    return normal_work - (1.0 - restitution * restitution) * p.compression_work;
  }
  double impulse_to_end(const Progress& p, double u_n, double normal_rate) const {
    // work still to be returned, R; within the phase ∫ u_n dΓ_n = u_n L + ½ k L² = R, whose
    // smallest positive root L = 2R / (u_n + √(u_n² + 2kR)) has no cancellation (u_n ≥ 0 in
    // restitution) and holds for k ≤ 0 too; without a root (k < 0 and R > u_n²/2|k|) the work
    // is never returned in this phase
    const double remaining = -end_measure(p.normal_impulse, p.normal_work, p);
    if (!(remaining > 0.0)) return 0.0;
    const double u = std::max(u_n, 0.0);
    const double discriminant = u * u + 2.0 * normal_rate * remaining;
    if (!(discriminant >= 0.0)) return kNever;
    const double denominator = u + std::sqrt(discriminant);
    return denominator > 0.0 ? 2.0 * remaining / denominator : kNever;
  }
};

// ---------------------------------------------------------------------------------------------
// Phases of constant friction ratio

/// Appends a phase to the trace, merging it with the previous one when it continues it (the
/// integrated slide and its closed-form finish are one phase), and flags a full trace.
void record_phase(PhaseKind kind, Stage stage, double from, double to, ImpactResult& result) {
  if (!(to > from)) return;
  if (!result.phases.empty()) {
    Phase& last = result.phases.back();
    if (last.kind == kind && last.stage == stage && last.normal_impulse_to == from) {
      last.normal_impulse_to = to;
      return;
    }
  }
  if (result.phases.size() == result.phases.capacity()) {
    result.flags.set(ImpactFlag::phase_trace_truncated);
    return;
  }
  result.phases.push_back(Phase{kind, stage, from, to, 0});
}

void enter_restitution(Progress& p) {
  p.stage = Stage::restitution;
  p.compression_impulse = p.normal_impulse;
  p.compression_work = p.normal_work;
}

/// Moves along a straight line in impulse space, dΓ_t = r dΓ_n, for `length` of normal impulse.
/// The velocities are linear in Γ_n there, du/dΓ_n = H (1, r), so the works are exact averages.
void advance(const ScaledContact& contact, PhaseKind kind, const Eigen::Vector2d& r, double length,
             Progress& p, ImpactResult& result) {
  if (!(length > 0.0)) return;
  const Eigen::Vector3d u = velocity(contact, p);
  const Eigen::Vector3d rate = contact.H.col(0) + contact.H.rightCols<2>() * r;
  record_phase(kind, p.stage, p.normal_impulse, p.normal_impulse + length, result);
  p.normal_work += (u[0] + 0.5 * rate[0] * length) * length;
  p.tangential_work += (u.tail<2>() + 0.5 * length * rate.tail<2>()).dot(r) * length;
  p.normal_impulse += length;
  p.tangential_impulse += r * length;
}

/// Follows a phase of constant friction ratio r (sticking, or slip of constant direction) from
/// `p` until the slip halts `to_halt` normal impulse ahead (∞: never), the impact ends, or, in
/// restitution, u_n returns to 0 (jammed), crossing the end of compression if it comes first.
/// It is the planar follow_mode of routh_incremental.hpp with a vector r, with the same
/// treatment of coincident events (a halt exactly at the end of compression is a halt in
/// compression, paper 000 case ii). A compression that this mode cannot end and no halt
/// interrupts has stalled.
template <class Rule>
ModeEnd follow_constant_mode(const ScaledContact& contact, PhaseKind kind, const Eigen::Vector2d& r,
                             double to_halt, const Rule& rule, Progress& p, ImpactResult& result) {
  const double normal_rate = contact.H(0, 0) + contact.H.row(0).tail<2>().dot(r);
  if (p.stage == Stage::compression) {
    const double u_n = velocity(contact, p)[0];
    const double to_compression_end =
        normal_rate > 0.0 ? std::max(0.0, -u_n / normal_rate) : kNever;
    if (!no_later_than(to_compression_end, to_halt, p.normal_impulse)) {
      if (!(to_halt < kNever)) return ModeEnd::stalled;
      advance(contact, kind, r, to_halt, p, result);
      return ModeEnd::slip_halted_in_compression;
    }
    const bool simultaneous = no_later_than(to_halt, to_compression_end, p.normal_impulse);
    advance(contact, kind, r, to_compression_end, p, result);
    enter_restitution(p);
    if (simultaneous) return ModeEnd::slip_halted_in_compression;
    to_halt -= to_compression_end;
  }
  // in restitution friction may turn u_n back down (du_n/dΓ_n < 0, a 3D effect): if u_n returns
  // to 0 before the rule ends the impact, the contact has closed again and nothing can
  // separate the bodies any more: the contact jams
  const double u_n = std::max(0.0, velocity(contact, p)[0]);
  const double to_close = normal_rate < 0.0 ? u_n / -normal_rate : kNever;
  const double to_end = std::max(0.0, rule.impulse_to_end(p, u_n, normal_rate));
  const double first = std::min(to_end, to_close);
  if (!(first < kNever) && !(to_halt < kNever)) return ModeEnd::jammed;  // never separates
  if (no_later_than(first, to_halt, p.normal_impulse)) {
    advance(contact, kind, r, first, p, result);
    return to_end <= to_close ? ModeEnd::impact_ended : ModeEnd::jammed;
  }
  advance(contact, kind, r, to_halt, p, result);
  return ModeEnd::slip_halted_in_restitution;
}

// ---------------------------------------------------------------------------------------------
// The slip flow

/// Odeint state of the flow: (Γ_n, Γ_t1, Γ_t2, W_n, W_t). The velocities follow from the
/// impulses, u = u⁻ + HΓ, so they are not integrated. A fixed-size array: the integration never
/// allocates.
using FlowState = std::array<double, 5>;

FlowState to_flow_state(const Progress& p) {
  return {p.normal_impulse, p.tangential_impulse[0], p.tangential_impulse[1], p.normal_work,
          p.tangential_work};
}

void from_flow_state(const FlowState& x, Progress& p) {
  p.normal_impulse = x[0];
  p.tangential_impulse = Eigen::Vector2d(x[1], x[2]);
  p.normal_work = x[3];
  p.tangential_work = x[4];
}

Eigen::Vector3d velocity(const ScaledContact& contact, const FlowState& x) {
  return contact.velocity(x[0], Eigen::Vector2d(x[1], x[2]));
}

/// The sliding differential equation (paper 001 eq. 7), dΓ_t/dΓ_n = −μd û_t with the works
/// dW_n/dΓ_n = u_n and dW_t/dΓ_n = u_t·dΓ_t/dΓ_n = −μd |u_t|, in Keller's rescaled time τ
/// (Keller 1986; paper 001 §2.1):
///     dΓ_n/dτ = σ = s / (s + ε),   s = |u_t|,   ε = kSlipScale.
/// In Γ_n the field is singular where the slip halts: û_t is undefined at u_t = 0, and near it the
/// direction turns at a rate ∝ 1/s, which an explicit stepper can only follow with steps ∝ s, so it
/// crawls towards the halt. In τ the friction term is −μd u_t/(s + ε), Lipschitz everywhere; the
/// halt becomes an equilibrium that the slip approaches exponentially (s ∝ e^(ṡ τ / ε)), and the
/// trajectory, only reparametrised, is the same. Far from a halt (s ~ ε) σ is of order one and
/// costs nothing.
struct SlipFlow {
  const ScaledContact* contact;
  void operator()(const FlowState& x, FlowState& dxdt, double /*tau*/) const {
    const Eigen::Vector3d u = velocity(*contact, x);
    const double slip = u.tail<2>().norm();
    const double mu_d = contact->kinetic_friction;
    const double per_slip = 1.0 / (slip + kSlipScale);  // σ / s
    const double sigma = slip * per_slip;
    dxdt[0] = sigma;
    dxdt[1] = -mu_d * per_slip * u[1];
    dxdt[2] = -mu_d * per_slip * u[2];
    dxdt[3] = sigma * u[0];
    dxdt[4] = -mu_d * sigma * slip;
  }
};

/// How the slip is about to move, from its rate at the current point. With s = |u_t|,
/// û = u_t/s and g = du_t/dΓ_n = H_tn − μd H_tt û: ṡ = û·g, and the direction turns at
/// dû/dΓ_n = (g − ṡ û)/s.
struct SlipForecast {
  double slip = 0.0;                                    ///< s = |u_t|
  Eigen::Vector2d direction = Eigen::Vector2d::Zero();  ///< û
  double slip_rate = 0.0;                               ///< ṡ = d|u_t|/dΓ_n
  /// ρ = s/(−ṡ): the normal impulse to the halt were ṡ to stay as it is; ∞ if the slip grows
  double impulse_to_halt = kNever;
  /// |g − ṡû|/|ṡ| = |dû/dΓ_n| ρ: how far the direction turns before the halt, to first order
  /// [rad]. Near a halt the direction settles on one where g ∥ −û, so this goes to zero.
  double turning = 0.0;
  /// the direction is a fixed direction of the flow (g ∥ û to round-off): the slip moves along a
  /// straight line from here on, to the halt or for good. Always so in the planar reduction.
  bool straight = false;
};

SlipForecast forecast_slip(const ScaledContact& contact, const Progress& p) {
  // |g − ṡû| below this fraction of |g| is round-off: the direction does not turn at all
  constexpr double kStraightRoundOff = 1e-13;
  SlipForecast forecast;
  const Eigen::Vector2d u_t = velocity(contact, p).tail<2>();
  const double slip = u_t.norm();
  forecast.slip = slip;
  forecast.direction = u_t / slip;
  const Eigen::Vector2d g =
      contact.H.bottomLeftCorner<2, 1>() -
      contact.kinetic_friction * contact.H.bottomRightCorner<2, 2>() * forecast.direction;
  forecast.slip_rate = forecast.direction.dot(g);
  const double turning_rate = (g - forecast.slip_rate * forecast.direction).norm();
  forecast.straight = turning_rate <= kStraightRoundOff * g.norm();
  if (forecast.slip_rate < 0.0) {
    forecast.impulse_to_halt = slip / -forecast.slip_rate;
    forecast.turning = turning_rate / -forecast.slip_rate;
  }
  return forecast;
}

/// Whether the rest of the slide to the halt may be taken along the current direction, a phase
/// of constant friction solved in closed form. Either of two tests suffices:
///  - the direction has settled: the straight finish misplaces Γ_t by about μd ρ turning and the
///    halt by about ρ turning (a direction error is at most 2), and that is no more than a few
///    times what the integration's error ~tolerance in u_t already does to the halt,
///    ~tolerance/|ṡ|;
///  - the slip is down at the integration's noise, s ≤ kNoiseMultiple × `slip_noise`: below it
///    the computed direction is noise, and the slip cannot be followed any closer. Finishing
///    straight then misplaces Γ by about (1 + μd) slip_noise/|ṡ|, which is again what the
///    integration's own error does to the halt. The slip reaches this level after finitely many
///    steps, since in τ it decays exponentially (SlipFlow), so this test ends every approach.
bool straight_finish_is_accurate(const SlipForecast& forecast, double kinetic_friction,
                                 double tolerance, double slip_noise) {
  constexpr double kAllowance = 10.0;
  constexpr double kNoiseMultiple = 10.0;
  if (forecast.slip <= kNoiseMultiple * slip_noise) return true;
  const double error =
      forecast.impulse_to_halt * (1.0 + kinetic_friction) * std::min(forecast.turning, 2.0);
  return error <= kAllowance * tolerance / std::min(1.0, -forecast.slip_rate);
}

/// Locates the zero of `f` on [a, b] (f(a) < 0 ≤ f(b), values given) with TOMS 748.
template <class F>
double locate_root(const F& f, double a, double fa, double b, double fb) {
  if (fa >= 0.0) return a;
  if (fb == 0.0) return b;
  std::uintmax_t max_iterations = 100;
  const auto [lo, hi] = boost::math::tools::toms748_solve(
      f, a, b, fa, fb, boost::math::tools::eps_tolerance<double>(kRootBits), max_iterations);
  return 0.5 * (lo + hi);
}

/// Integrates the slip flow from `p` (slipping, |u_t| > 0) until the slip halts or the impact
/// ends. The end of compression and of the impact are found on the dense output of the step that
/// crossed them; a straight slip, and the last stretch to a halt, are closed-form phases of
/// constant direction (follow_constant_mode).
template <class Rule>
ModeEnd follow_slip_flow(const ScaledContact& contact, const Rule& rule, double tolerance,
                         Progress& p, ImpactResult& result) {
  auto stepper =
      odeint::make_controlled(tolerance, tolerance, odeint::runge_kutta_dopri5<FlowState>());
  const SlipFlow flow{&contact};
  FlowState x = to_flow_state(p);
  FlowState dxdt{};
  FlowState x_new{};
  FlowState dxdt_new{};
  double tau = 0.0;
  flow(x, dxdt, tau);
  double dtau = kInitialStep;
  for (int step = 0; step < kMaxSteps; ++step) {
    from_flow_state(x, p);
    const SlipForecast forecast = forecast_slip(contact, p);
    // the error the integration leaves in u_t = u⁻ + HΓ: tolerance on each of Γ's components,
    // absolute and relative (Odeint's error checker)
    const double slip_noise = tolerance * contact.H_norm *
                              (1.0 + p.normal_impulse + p.tangential_impulse.cwiseAbs().sum());
    if (forecast.straight ||
        (forecast.impulse_to_halt < kNever &&
         straight_finish_is_accurate(forecast, contact.kinetic_friction, tolerance, slip_noise))) {
      return follow_constant_mode(contact, PhaseKind::slide,
                                  -contact.kinetic_friction * forecast.direction,
                                  forecast.impulse_to_halt, rule, p, result);
    }
    if (!(p.normal_impulse < kMaxNormalImpulse)) return ModeEnd::stalled;

    const double tau_old = tau;
    if (stepper.try_step(flow, x, dxdt, tau, x_new, dxdt_new, dtau) != odeint::success) continue;
    // the slip never reverses within a step (u_t = 0 is an equilibrium in τ); were it to, the
    // step was too long to trust
    if (velocity(contact, x_new).tail<2>().dot(forecast.direction) <= 0.0) {
      dtau = 0.25 * (tau - tau_old);
      tau = tau_old;
      continue;
    }

    // events on the step just taken, on its dense output (dopri5's continuous extension)
    const auto state_at = [&](double t) {
      FlowState y;
      stepper.stepper().calc_state(t, y, x, dxdt, tau_old, x_new, dxdt_new, tau);
      return y;
    };
    double from = tau_old;
    FlowState x_from = x;
    if (p.stage == Stage::compression) {
      const double u_n_new = velocity(contact, x_new)[0];
      if (u_n_new >= 0.0) {
        const auto u_n = [&](double t) { return velocity(contact, state_at(t))[0]; };
        from = locate_root(u_n, tau_old, velocity(contact, x)[0], tau, u_n_new);
        x_from = from == tau ? x_new : state_at(from);
        record_phase(PhaseKind::slide, Stage::compression, x[0], x_from[0], result);
        from_flow_state(x_from, p);
        enter_restitution(p);
      }
    }
    if (p.stage == Stage::restitution) {
      // the impact ends where the rule says, or earlier where u_n falls back to 0 (jammed, see
      // follow_constant_mode)
      const double measure_new = rule.end_measure(x_new[0], x_new[3], p);
      const double u_n_new = velocity(contact, x_new)[0];
      if (measure_new >= 0.0 || u_n_new < 0.0) {
        double end = tau;
        ModeEnd how = ModeEnd::impact_ended;
        if (measure_new >= 0.0) {
          const auto measure = [&](double t) {
            const FlowState y = state_at(t);
            return rule.end_measure(y[0], y[3], p);
          };
          end = locate_root(measure, from, rule.end_measure(x_from[0], x_from[3], p), tau,
                            measure_new);
        }
        if (u_n_new < 0.0) {
          const auto approach = [&](double t) { return -velocity(contact, state_at(t))[0]; };
          const double closed =
              locate_root(approach, from, -velocity(contact, x_from)[0], tau, -u_n_new);
          if (measure_new < 0.0 || closed < end) {
            end = closed;
            how = ModeEnd::jammed;
          }
        }
        const FlowState x_end = end == tau ? x_new : (end == from ? x_from : state_at(end));
        record_phase(PhaseKind::slide, Stage::restitution, x_from[0], x_end[0], result);
        from_flow_state(x_end, p);
        return how;
      }
    }
    record_phase(PhaseKind::slide, p.stage, x_from[0], x_new[0], result);
    x = x_new;
    dxdt = dxdt_new;
  }
  from_flow_state(x, p);
  return ModeEnd::stalled;
}

// ---------------------------------------------------------------------------------------------
// The impact

template <class Rule>
ImpactResult slip_flow_impact(const ImpactProblem& problem, const Rule& rule, double tolerance) {
  ImpactResult result;
  SpatialContact contact;
  if (!read_spatial_contact(problem, contact, result)) return result;
  if (!(tolerance >= 1e-14 && tolerance <= 1e-2)) {
    result.status = ImpactStatus::invalid_problem;
    return result;
  }
  const ScaledContact scaled = scale(contact);
  Progress p;

  // the initial mode: slip along u_t⁻, or from rest stick if it holds, else slip along the
  // direction the dynamics choose (spatial_sticking.hpp)
  PhaseKind initial = PhaseKind::slide;
  ModeEnd halt;
  if (contact.u_t.squaredNorm() > 0.0) {
    halt = follow_slip_flow(scaled, rule, tolerance, p, result);
  } else if (stick_is_stable(contact)) {
    initial = PhaseKind::stick;
    halt = follow_constant_mode(scaled, PhaseKind::stick, sticking_friction_ratio(contact.H),
                                kNever, rule, p, result);
  } else {
    halt = follow_constant_mode(scaled, PhaseKind::slide,
                                -scaled.kinetic_friction * slip_direction_from_rest(contact),
                                kNever, rule, p, result);
  }

  const bool halted =
      halt == ModeEnd::slip_halted_in_compression || halt == ModeEnd::slip_halted_in_restitution;
  ModeEnd end = halt;
  PhaseKind after_halt = initial;
  if (halted) {
    // sticking persists if the line of sticking lies in the cone (paper 001 eq. 25), otherwise
    // slip resumes along the one direction of constant slip
    Eigen::Vector2d r = sticking_friction_ratio(contact.H);
    after_halt = PhaseKind::stick;
    if (!stick_is_stable(contact)) {
      after_halt = PhaseKind::reverse_slide;
      r = -scaled.kinetic_friction * slip_direction_from_rest(contact);
    }
    end = follow_constant_mode(scaled, after_halt, r, kNever, rule, p, result);
  }
  // the compression never ends, or the flow did not finish within its budget
  if (end != ModeEnd::impact_ended && end != ModeEnd::jammed) {
    result.status = ImpactStatus::no_solution;
    return result;
  }
  if (!halted) {
    result.type = initial == PhaseKind::stick ? ImpactType::sticking_throughout
                                              : ImpactType::permanent_sliding;
  } else {
    result.type = impact_type_after_halt(halt, after_halt);
  }

  SpatialImpactEnd impact_end;
  impact_end.impulse =
      Eigen::Vector3d(p.normal_impulse, p.tangential_impulse[0], p.tangential_impulse[1]) *
      scaled.impulse_unit;
  impact_end.normal_work = p.normal_work * scaled.work_unit;
  impact_end.tangential_work = p.tangential_work * scaled.work_unit;
  impact_end.compression_work = p.compression_work * scaled.work_unit;
  for (Phase& phase : result.phases) {
    phase.normal_impulse_from *= scaled.impulse_unit;
    phase.normal_impulse_to *= scaled.impulse_unit;
  }
  finish_spatial_result(contact, impact_end, result);
  if (end == ModeEnd::jammed) result.flags.set(ImpactFlag::contact_jammed);
  return result;
}

}  // namespace

ImpactResult solve_sliding_ode(const ImpactProblem& problem, const SlidingOdeOptions& options) {
  const double e = problem.contacts.empty() ? 0.0 : problem.contacts[0].restitution;
  return guarded_law([&] {
    if (options.restitution == RestitutionHypothesis::energetic) {
      return slip_flow_impact(problem, EnergeticEnd{e}, options.tolerance);
    }
    return slip_flow_impact(problem, PoissonEnd{e}, options.tolerance);
  });
}

ImpactResult solve_sliding_ode(const ImpactProblem& problem) {
  return solve_sliding_ode(problem, SlidingOdeOptions{});
}

ImpactResult solve_sliding_ode_energetic(const ImpactProblem& problem) {
  return solve_sliding_ode(problem, SlidingOdeOptions{RestitutionHypothesis::energetic});
}

}  // namespace routh
