#include "sim/impact/planar_contact.hpp"

#include <algorithm>
#include <cmath>

#include "sim/contact_space.hpp"

namespace routh {

namespace {

// ΔT above this fraction of |Γᵀu⁻| is a real gain, not round-off in Γᵀu⁻ + ½ΓᵀDΓ.
constexpr double kEnergyGainTolerance = 1e-12;
// Restitution work may differ from −e² W_c by round-off of the phase-wise work sums.
constexpr double kNormalDissipationTolerance = 1e-9;

double sign(double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0); }

}  // namespace

bool read_planar_contact(const ImpactProblem& problem, PlanarContact& contact,
                         ImpactResult& result) {
  if (problem.dimension != ContactDimension::planar || problem.D.rows() != 2 ||
      problem.D.cols() != 2 || problem.u_pre.size() != 2 || problem.contacts.size() != 1) {
    result.status = ImpactStatus::unsupported;
    return false;
  }
  contact.a = problem.D(0, 0);
  contact.b = problem.D(1, 1);
  contact.c = 0.5 * (problem.D(0, 1) + problem.D(1, 0));  // D is symmetric up to round-off
  contact.u_n = problem.u_pre[0];
  contact.u_t = problem.u_pre[1];
  contact.parameters = problem.contacts[0];
  const bool positive_definite = contact.a > 0.0 && contact.b > 0.0 &&
                                 contact.a * contact.b - contact.c * contact.c > 0.0;
  if (!positive_definite || !std::isfinite(contact.u_n) || !std::isfinite(contact.u_t)) {
    result.status = ImpactStatus::invalid_problem;
    return false;
  }
  if (!(contact.u_n < 0.0)) {
    result.status = ImpactStatus::no_impact;
    result.impulse.setZero(2);
    result.u_post = problem.u_pre;
    return false;
  }
  return true;
}

PlanarMode sliding_mode(const PlanarContact& contact, double slip_direction, PhaseKind kind) {
  const double r = -contact.parameters.kinetic_friction * slip_direction;
  return {kind, r, contact.a + contact.c * r, contact.c + contact.b * r};
}

PlanarMode sticking_mode(const PlanarContact& contact) {
  const double r = -contact.c / contact.b;
  return {PhaseKind::stick, r, contact.a + contact.c * r, 0.0};
}

double critical_friction(const PlanarContact& contact) { return std::abs(contact.c) / contact.b; }

bool stick_is_stable(const PlanarContact& contact) {
  const auto& k = contact.parameters;
  return critical_friction(contact) <= std::max(k.static_friction, k.kinetic_friction);
}

double slip_direction_from_rest(const PlanarContact& contact) { return sign(contact.c); }

PlanarMode initial_mode(const PlanarContact& contact) {
  if (contact.u_t != 0.0) return sliding_mode(contact, sign(contact.u_t), PhaseKind::slide);
  if (stick_is_stable(contact)) return sticking_mode(contact);
  return sliding_mode(contact, slip_direction_from_rest(contact), PhaseKind::slide);
}

PlanarMode mode_after_slip_halts(const PlanarContact& contact) {
  if (stick_is_stable(contact)) return sticking_mode(contact);
  return sliding_mode(contact, slip_direction_from_rest(contact), PhaseKind::reverse_slide);
}

void finish_planar_result(const ImpactProblem& problem, double normal_impulse,
                          double tangential_impulse, double u_n, double u_t, double normal_work,
                          double tangential_work, double compression_work, ImpactResult& result) {
  result.status = ImpactStatus::solved;
  result.impulse.resize(2);
  result.impulse << normal_impulse, tangential_impulse;
  result.u_post.resize(2);
  result.u_post << u_n, u_t;
  result.normal_work = normal_work;
  result.tangential_work = tangential_work;
  result.delta_T = kinetic_energy_change(problem.D, problem.u_pre, result.impulse);

  const double work_scale = std::abs(result.impulse.dot(problem.u_pre));
  if (result.delta_T > kEnergyGainTolerance * work_scale) result.flags.set(ImpactFlag::energy_gain);

  // Stronge: an energetically consistent normal impulse returns e² of the compression work.
  const double e = problem.contacts[0].restitution;
  const double restitution_work = normal_work - compression_work;
  if (std::abs(restitution_work + e * e * compression_work) >
      kNormalDissipationTolerance * std::abs(compression_work)) {
    result.flags.set(ImpactFlag::nonphysical_normal_dissipation);
  }
}

}  // namespace routh
