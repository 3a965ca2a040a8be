#include "sim/impact/newton.hpp"
#include "sim/impact/law_guard.hpp"

#include <Eigen/Cholesky>
#include <cmath>

#include "sim/impact/planar_contact.hpp"
#include "sim/impact/spatial_contact.hpp"
#include "sim/impact/spatial_sticking.hpp"

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

// The spatial counterpart of record_single_mode: Γ grows along one straight line, so u runs
// linearly from u⁻ to u⁺ (u_n to exactly −e u_n⁻ by the rule) and the works are exact averages.
void record_single_spatial_mode(const SpatialContact& contact, PhaseKind kind,
                                const Eigen::Vector3d& impulse, ImpactResult& result) {
  const double e = contact.parameters.restitution;
  const double normal_impulse = impulse[0];
  const Eigen::Vector2d u_t_post = contact.u_t + contact.H.bottomRows<2>() * impulse;
  SpatialImpactEnd end;
  end.impulse = impulse;
  end.normal_work = normal_impulse * 0.5 * (contact.u_n - e * contact.u_n);
  end.tangential_work = impulse.tail<2>().dot(0.5 * (contact.u_t + u_t_post));
  const double compression_impulse = normal_impulse / (1.0 + e);
  end.compression_work = 0.5 * contact.u_n * compression_impulse;
  result.phases.push_back(Phase{kind, Stage::compression, 0.0, compression_impulse, 0});
  if (normal_impulse > compression_impulse) {
    result.phases.push_back(
        Phase{kind, Stage::restitution, compression_impulse, normal_impulse, 0});
  }
  finish_spatial_result(contact, end, result);
}

/// The impulse that sticks throughout, D Γ = (du_n, du_t), when one exists.
struct PlanarStick {
  bool consistent = false;  ///< some Γ reaches (du_n, du_t)
  double normal_impulse = 0.0;
  double tangential_impulse = 0.0;
};

// Rank-deficient D (ab = c²: one degree of freedom, e.g. a pendulum) counts as singular when its
// determinant is round-off of ab, where Cramer's rule would divide by ~0 (or 0).
constexpr double kSingularDeterminant = 1e-12;

/// Solves D Γ = (du_n, du_t) for D = [[a, c], [c, b]]: Cramer's rule when D is regular. When D is
/// singular, D = (1/a) (a, c)ᵀ (a, c) to round-off, so D Γ = ((a, c)·Γ / a) (a, c): reachable iff
/// (du_n, du_t) ∥ (a, c), i.e. a du_t = c du_n; then every Γ on the line (a, c)·Γ = du_n sticks
/// and we take the least-squares minimum-norm one, Γ = du_n (a, c)/(a² + c²) (all of them give
/// the same u⁺). Otherwise no impulse sticks: the contact must slide.
PlanarStick sticking_throughout(const PlanarContact& contact, double du_n, double du_t) {
  const double a = contact.a;
  const double b = contact.b;
  const double c = contact.c;
  const double det = a * b - c * c;
  if (det > kSingularDeterminant * a * b) {
    return {true, (b * du_n - c * du_t) / det, (a * du_t - c * du_n) / det};
  }
  const double mismatch = a * du_t - c * du_n;
  const bool reachable =
      std::abs(mismatch) <= kSingularDeterminant * (std::abs(a * du_t) + std::abs(c * du_n));
  const double along = du_n / (a * a + c * c);
  return {reachable, along * a, along * c};
}

// The conventional method for one spatial contact: the planar method below with the slip a
// vector. Sticking throughout is tried first, Γ = H⁻¹(u⁺ − u⁻) with u⁺ = (−e u_n⁻, 0, 0),
// accepted inside the cone |Γ_t| ≤ μs Γ_n; otherwise the contact slides throughout with
// Γ_t = −μd Γ_n û along the initial slip direction û = u_t⁻/|u_t⁻| (from rest: the direction the
// dynamics choose, spatial_sticking.hpp), Γ_n from u_n⁺ = −e u_n⁻.
ImpactResult solve_spatial_newton(const ImpactProblem& problem) {
  ImpactResult result;
  SpatialContact contact;
  if (!read_spatial_contact(problem, contact, result)) return result;
  const double e = contact.parameters.restitution;
  const Eigen::Vector3d u_pre(contact.u_n, contact.u_t[0], contact.u_t[1]);

  const Eigen::Vector3d stick =
      contact.H.ldlt().solve(Eigen::Vector3d(-e * contact.u_n, 0.0, 0.0) - u_pre);
  if (stick[0] >= 0.0 && stick.tail<2>().norm() <= contact.parameters.static_friction * stick[0]) {
    record_single_spatial_mode(contact, PhaseKind::stick, stick, result);
    result.type = ImpactType::sticking_throughout;
    return result;
  }

  const double slip = contact.u_t.norm();
  const Eigen::Vector2d direction =
      slip > 0.0 ? Eigen::Vector2d(contact.u_t / slip) : slip_direction_from_rest(contact);
  const Eigen::Vector3d ratio(1.0, -contact.parameters.kinetic_friction * direction[0],
                              -contact.parameters.kinetic_friction * direction[1]);
  const double normal_rate = contact.H.row(0).dot(ratio);
  if (!(normal_rate > 0.0)) {
    result.status = ImpactStatus::no_solution;  // sliding never ends compression: no Newton answer
    return result;
  }
  const double normal_impulse = -(1.0 + e) * contact.u_n / normal_rate;
  record_single_spatial_mode(contact, PhaseKind::slide, normal_impulse * ratio, result);
  result.type = ImpactType::permanent_sliding;
  if (direction.dot(result.u_post.tail<2>()) < 0.0) {
    result.flags.set(ImpactFlag::slip_reversal_ignored);
  }
  return result;
}

// The conventional method for one planar contact (newton.hpp).
ImpactResult solve_planar_newton(const ImpactProblem& problem) {
  ImpactResult result;
  PlanarContact contact;
  if (!read_planar_contact(problem, contact, result)) return result;
  const double e = contact.parameters.restitution;
  const double target_u_n = -e * contact.u_n;

  // Sticking throughout: D Γ = (target_u_n − u_n, −u_t).
  const PlanarStick stick = sticking_throughout(contact, target_u_n - contact.u_n, -contact.u_t);
  const double stick_normal = stick.normal_impulse;
  const double stick_tangential = stick.tangential_impulse;
  if (stick.consistent && stick_normal >= 0.0 &&
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

}  // namespace

ImpactResult solve_newton(const ImpactProblem& problem) {
  return guarded_law([&] {
    return problem.dimension == ContactDimension::spatial ? solve_spatial_newton(problem)
                                                          : solve_planar_newton(problem);
  });
}

}  // namespace routh
