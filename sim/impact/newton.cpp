#include "sim/impact/newton.hpp"

#include <cmath>

#include "sim/impact/planar_contact.hpp"

namespace routh {

namespace {

// One contact mode for the whole impact: Γ = Γ_n (1, r) along a straight line, so the velocities
// are linear in Γ_n and the works are exact averages (W = Γ · (u⁻ + u⁺)/2).
void record_single_mode(const PlanarContact& contact, const PlanarMode& mode,
                        double normal_impulse, const ImpactProblem& problem,
                        ImpactResult& result) {
  const double compression_impulse = -contact.u_n / mode.normal_rate;
  result.phases.push_back(Phase{mode.kind, Stage::compression, 0.0, compression_impulse, 0});
  if (normal_impulse > compression_impulse) {
    result.phases.push_back(
        Phase{mode.kind, Stage::restitution, compression_impulse, normal_impulse, 0});
  }
  const double u_n = contact.u_n + mode.normal_rate * normal_impulse;
  const double u_t = contact.u_t + mode.slip_rate * normal_impulse;
  const double tangential_impulse = mode.friction_ratio * normal_impulse;
  const double normal_work = normal_impulse * 0.5 * (contact.u_n + u_n);
  const double tangential_work = tangential_impulse * 0.5 * (contact.u_t + u_t);
  const double compression_work = 0.5 * contact.u_n * compression_impulse;
  finish_planar_result(problem, normal_impulse, tangential_impulse, u_n, u_t, normal_work,
                       tangential_work, compression_work, result);
}

}  // namespace

ImpactResult solve_newton(const ImpactProblem& problem) {
  ImpactResult result;
  PlanarContact contact;
  if (!read_planar_contact(problem, contact, result)) return result;
  const double e = contact.parameters.restitution;
  const double target_u_n = -e * contact.u_n;

  // Sticking throughout: D Γ = (target_u_n − u_n, −u_t), solved by Cramer's rule.
  const double du_n = target_u_n - contact.u_n;
  const double du_t = -contact.u_t;
  const double det = contact.a * contact.b - contact.c * contact.c;
  const double stick_normal = (contact.b * du_n - contact.c * du_t) / det;
  const double stick_tangential = (contact.a * du_t - contact.c * du_n) / det;
  if (stick_normal >= 0.0 &&
      std::abs(stick_tangential) <= contact.parameters.static_friction * stick_normal) {
    // Γ_t / Γ_n is constant along the straight path, so the phase is a "stick" of that ratio.
    const double r = stick_tangential / stick_normal;
    const PlanarMode stick{PhaseKind::stick, r, contact.a + contact.c * r, contact.c + contact.b * r};
    record_single_mode(contact, stick, stick_normal, problem, result);
    result.u_post[1] = 0.0;  // exact by construction; drop the round-off of the rate products
    result.type = ImpactType::sticking_throughout;
    return result;
  }

  // Sliding throughout against the initial slip (or the direction the dynamics choose from rest).
  const double sigma = contact.u_t != 0.0 ? std::copysign(1.0, contact.u_t)
                                          : slip_direction_from_rest(contact);
  const PlanarMode slide = sliding_mode(contact, sigma, PhaseKind::slide);
  if (!(slide.normal_rate > 0.0)) {
    result.status = ImpactStatus::no_solution;  // sliding never ends compression: no Newton answer
    return result;
  }
  record_single_mode(contact, slide, (target_u_n - contact.u_n) / slide.normal_rate, problem,
                     result);
  result.u_post[0] = target_u_n;
  result.type = ImpactType::permanent_sliding;
  if (sigma * result.u_post[1] < 0.0) result.flags.set(ImpactFlag::slip_reversal_ignored);
  return result;
}

}  // namespace routh
