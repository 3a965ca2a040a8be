#pragma once
// One spatial contact during an impact (paper 001 §2; paper 003 §3): contact space is the normal
// n and two tangential directions t1, t2, so u = (u_n, u_t1, u_t2) and u⁺ = u⁻ + H Γ with the
// 3×3 symmetric positive definite H (paper 001's name for our D). What every spatial
// single-contact law shares lives here: reading and checking the problem, and filling the result
// with u⁺, ΔT and the energy flags from the impulse a law found.
//
// Signs follow docs/design.md §2 (u_n < 0 approaches, Γ_n ≥ 0). Paper 001 takes the normal velocity
// ≤ 0 as feasible and impulses negative; the tests map its example into this convention.

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <cmath>

#include "sim/impact/impact_problem.hpp"
#include "sim/impact/impact_result.hpp"

namespace routh {

/// A single spatial contact: H = D (3×3), the pre-impact velocities and its parameters.
struct SpatialContact {
  Eigen::Matrix3d H = Eigen::Matrix3d::Zero();    ///< [1/kg], rows/cols (n, t1, t2)
  double u_n = 0.0;                               ///< pre-impact normal velocity [m/s]
  Eigen::Vector2d u_t = Eigen::Vector2d::Zero();  ///< pre-impact slip velocity [m/s]
  ContactParameters parameters;
};

/// Where a spatial impact ended: the impulse and the works a law integrated along the way.
struct SpatialImpactEnd {
  Eigen::Vector3d impulse = Eigen::Vector3d::Zero();  ///< Γ = (Γ_n, Γ_t1, Γ_t2) [N s]
  double normal_work = 0.0;                           ///< W_n = ∫ u_n dΓ_n [J]
  double tangential_work = 0.0;                       ///< W_t = ∫ u_t·dΓ_t [J]
  double compression_work = 0.0;                      ///< W_nc: W_n up to the end of compression
};

/// A single spatial contact problem (for tests and tools): D = H, u⁻ = u.
inline ImpactProblem spatial_impact_problem(const Eigen::Matrix3d& H, const Eigen::Vector3d& u,
                                            const ContactParameters& contact) {
  ImpactProblem problem;
  problem.dimension = ContactDimension::spatial;
  problem.D = H;
  problem.u_pre = u;
  problem.contacts.push_back(contact);
  return problem;
}

/// Checks that `problem` is one spatial contact with a symmetric positive definite H that
/// approaches, and sets `result`'s status otherwise (unsupported, invalid_problem, or no_impact
/// with Γ = 0 and u⁺ = u⁻). Returns true when a law should go on to solve it.
inline bool read_spatial_contact(const ImpactProblem& problem, SpatialContact& contact,
                                 ImpactResult& result) {
  if (problem.dimension != ContactDimension::spatial || problem.D.rows() != 3 ||
      problem.D.cols() != 3 || problem.u_pre.size() != 3 || problem.contacts.size() != 1) {
    result.status = ImpactStatus::unsupported;
    return false;
  }
  contact.H = 0.5 * (problem.D + problem.D.transpose());  // symmetric up to round-off
  contact.u_n = problem.u_pre[0];
  contact.u_t = problem.u_pre.segment<2>(1);
  contact.parameters = problem.contacts[0];
  // Cholesky succeeds iff H is positive definite (an eigenvalue solve costs ten times more).
  const bool positive_definite =
      contact.H.allFinite() && Eigen::LLT<Eigen::Matrix3d>(contact.H).info() == Eigen::Success;
  if (!positive_definite || !std::isfinite(contact.u_n) || !contact.u_t.allFinite()) {
    result.status = ImpactStatus::invalid_problem;
    return false;
  }
  if (!(contact.u_n < 0.0)) {
    result.status = ImpactStatus::no_impact;
    result.impulse.setZero(3);
    result.u_post = problem.u_pre;
    return false;
  }
  return true;
}

/// Fills impulse, u⁺ = u⁻ + HΓ, ΔT = Γᵀu⁻ + ½ΓᵀHΓ, the works and the energy flags of a solved
/// spatial impact (the same tests as the planar laws: ΔT > 0 beyond round-off is an energy gain;
/// a restitution work other than −e² W_nc is a non-physical normal dissipation).
inline void finish_spatial_result(const SpatialContact& contact, const SpatialImpactEnd& end,
                                  ImpactResult& result) {
  // Relative size of ΔT and of the Stronge balance that counts as round-off.
  constexpr double kEnergyGainTolerance = 1e-12;
  constexpr double kNormalDissipationTolerance = 1e-9;
  const Eigen::Vector3d u_pre(contact.u_n, contact.u_t[0], contact.u_t[1]);
  result.status = ImpactStatus::solved;
  result.impulse = end.impulse;
  result.u_post = u_pre + contact.H * end.impulse;
  result.normal_work = end.normal_work;
  result.tangential_work = end.tangential_work;
  const double work_of_impulse = end.impulse.dot(u_pre);
  result.delta_T = work_of_impulse + 0.5 * end.impulse.dot(contact.H * end.impulse);
  if (result.delta_T > kEnergyGainTolerance * std::abs(work_of_impulse)) {
    result.flags.set(ImpactFlag::energy_gain);
  }
  const double e = contact.parameters.restitution;
  const double restitution_work = end.normal_work - end.compression_work;
  if (std::abs(restitution_work + e * e * end.compression_work) >
      kNormalDissipationTolerance * std::abs(end.compression_work)) {
    result.flags.set(ImpactFlag::nonphysical_normal_dissipation);
  }
}

}  // namespace routh
