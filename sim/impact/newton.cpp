#include "sim/impact/newton.hpp"

#include <cmath>

#include "sim/impact/planar_contact.hpp"

namespace routh {

namespace {

// One contact mode for the whole impact: Γ = Γ_n (1, r) along a straight line, so the velocities
// are linear in Γ_n. Newton's rule fixes the ends, u_n: u_n⁻ → −e u_n⁻, hence compression ends
// exactly at Γ_n / (1 + e), and the works are exact averages, W = Γ · (u⁻ + u⁺)/2. Ends are set
// from the rule rather than through the rates a + c r, which cancel for strongly coupled D.
void record_single_mode(const PlanarContact& contact, PhaseKind kind, double normal_impulse,
                        double tangential_impulse, double u_t_post, ImpactResult& result) {
  const double e = contact.parameters.restitution;
  PlanarImpactState end;
  end.normal_impulse = normal_impulse;
  end.tangential_impulse = tangential_impulse;
  end.u_n = -e * contact.u_n;
  end.u_t = u_t_post;
  end.normal_work = normal_impulse * 0.5 * (contact.u_n + end.u_n);
  end.tangential_work = tangential_impulse * 0.5 * (contact.u_t + u_t_post);
  end.stage = Stage::restitution;
  end.compression_impulse = normal_impulse / (1.0 + e);
  end.compression_work = 0.5 * contact.u_n * end.compression_impulse;
  result.phases.push_back(Phase{kind, Stage::compression, 0.0, end.compression_impulse, 0});
  if (normal_impulse > end.compression_impulse) {
    result.phases.push_back(
        Phase{kind, Stage::restitution, end.compression_impulse, normal_impulse, 0});
  }
  finish_planar_result(contact, end, result);
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
    record_single_mode(contact, PhaseKind::stick, stick_normal, stick_tangential, 0.0, result);
    result.type = ImpactType::sticking_throughout;
    return result;
  }

  // Sliding throughout against the initial slip (or the direction the dynamics choose from rest).
  const double sigma =
      contact.u_t != 0.0 ? std::copysign(1.0, contact.u_t) : slip_direction_from_rest(contact);
  const PlanarMode slide = sliding_mode(contact, sigma, PhaseKind::slide);
  if (!(slide.normal_rate > 0.0)) {
    result.status = ImpactStatus::no_solution;  // sliding never ends compression: no Newton answer
    return result;
  }
  const double normal_impulse = (target_u_n - contact.u_n) / slide.normal_rate;
  record_single_mode(contact, PhaseKind::slide, normal_impulse,
                     slide.friction_ratio * normal_impulse,
                     contact.u_t + slide.slip_rate * normal_impulse, result);
  result.type = ImpactType::permanent_sliding;
  if (sigma * result.u_post[1] < 0.0) result.flags.set(ImpactFlag::slip_reversal_ignored);
  return result;
}

}  // namespace routh
