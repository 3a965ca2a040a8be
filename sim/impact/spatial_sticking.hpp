#pragma once
// Sticking of one spatial contact, and how slip starts again when sticking cannot hold
// (paper 001 §3.2.2; paper 003 §4; Mirtich 1996 ch. 3). Everything here depends on H alone
// (and the friction coefficients), not on the velocities: whether a contact that has stopped
// slipping stays stuck is a property of the configuration.
//
// Contact space as in spatial_contact.hpp: u = (u_n, u_t), u⁺ = u⁻ + H Γ, H = [[H_nn, H_ntᵀ],
// [H_tn, H_tt]] with H_tt the 2×2 tangential block.

#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <boost/math/tools/toms748_solve.hpp>
#include <cmath>
#include <cstdint>

#include "sim/impact/spatial_contact.hpp"

namespace routh {

/// The friction ratio of sticking, r = dΓ_t/dΓ_n = −H_tt⁻¹ H_tn: the tangential impulse per unit
/// normal impulse that keeps du_t = H_tn dΓ_n + H_tt dΓ_t = 0. Paper 001 writes its components
/// as (D31, D32)/D33 (eq. 20, our signs); paper 003 calls them a13, a23 (eq. 4.2–4.3, whose
/// printed form has the sign of S reversed: see tests/test_paper003.cpp).
inline Eigen::Vector2d sticking_friction_ratio(const Eigen::Matrix3d& H) {
  const Eigen::Matrix2d H_tt = H.bottomRightCorner<2, 2>();
  const double det = H_tt.determinant();
  // the 2×2 inverse by cofactors: H_tt is positive definite whenever H is
  const Eigen::Vector2d H_tn = H.bottomLeftCorner<2, 1>();
  return -Eigen::Vector2d(H_tt(1, 1) * H_tn[0] - H_tt(0, 1) * H_tn[1],
                          H_tt(0, 0) * H_tn[1] - H_tt(1, 0) * H_tn[0]) /
         det;
}

/// Sticking, once reached, persists iff the line of sticking lies in the friction cone:
/// λ = |r|² ≤ μs² (paper 001 eqs. 22, 25; paper 003 eq. 4.4; Mirtich thm. 9). As for the planar
/// laws (planar_contact.hpp), when μd > μs and μs < |r| ≤ μd no slip direction is consistent
/// (kinetic friction would stop any slip at once, see resumed_slip_direction), so the contact
/// sticks: the test is |r| ≤ max(μs, μd).
inline bool stick_is_stable(const SpatialContact& contact) {
  const auto& k = contact.parameters;
  const double mu = std::max(k.static_friction, k.kinetic_friction);
  return sticking_friction_ratio(contact.H).squaredNorm() <= mu * mu;
}

/// Slip that starts from rest under kinetic friction μd along a fixed unit direction û:
/// du_t/dΓ_n = H_tn − μd H_tt û = k û with growth rate k > 0 [1/kg].
struct ResumedSlip {
  Eigen::Vector2d direction = Eigen::Vector2d::Zero();  ///< û
  double growth_rate = 0.0;                             ///< k = d|u_t|/dΓ_n [1/kg]
};

/// The direction in which slip resumes when sticking is unstable (paper 001 §2.1: "the remaining
/// periods can be integrated analytically using constancy of direction of the sliding vector";
/// paper 003 §4: the new slip opposes the friction force). A straight slip path u_t = s û from
/// u_t = 0 solves the sliding flow du_t/dΓ_n = H_tn − μd H_tt û (paper 001 eq. 7) iff
///     (μd H_tt + k I) û = H_tn,   |û| = 1,   k > 0.
/// With H_tt = Q diag(α₁, α₂) Qᵀ and b = Qᵀ H_tn, |û|² = Σ b_i² / (μd α_i + k)² decreases
/// strictly in k ≥ 0 from |r|²/μd² (k = 0) to below 1 at k = |H_tn|, so a solution exists iff
/// |r| > μd, and it is unique. The root is bracketed tightly: with α₁ ≤ α₂,
///     |b|²/(μd α₂ + k)² ≤ |û(k)|² ≤ |b|²/(μd α₁ + k)²,   |b| = |H_tn|,
/// so |û| ≥ 1 at k = |H_tn| − μd α₂ and |û| ≤ 1 at k = |H_tn| − μd α₁: the bracket
/// [max(0, |H_tn| − μd α₂), |H_tn| − μd α₁] has width μd (α₂ − α₁). Its end values are
/// |û|² − 1, which as μd → 0 (below ~1e-16) are round-off that need not have the exact signs; an
/// end whose computed sign is wrong is then a root to round-off and is taken as it is (a bracket
/// passed with equal signs would make the root finder throw). Returns false (and no direction)
/// when no slip grows. In the planar reduction (H_t2n = H_t1t2 = 0) it is û = (sign c, 0),
/// k = |c| − μd b (paper 004 eq. 23).
inline bool resumed_slip_direction(const SpatialContact& contact, ResumedSlip& slip) {
  const double mu_d = contact.parameters.kinetic_friction;
  const Eigen::Vector2d H_tn = contact.H.bottomLeftCorner<2, 1>();
  const double coupling = H_tn.norm();
  if (!(sticking_friction_ratio(contact.H).norm() > mu_d) || coupling == 0.0) return false;
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> spectrum(
      contact.H.bottomRightCorner<2, 2>());
  const Eigen::Vector2d alpha = spectrum.eigenvalues();  // ascending
  const Eigen::Vector2d b = spectrum.eigenvectors().transpose() * H_tn;
  const auto excess = [&](double k) {  // |û(k)|² − 1, decreasing in k
    const double x = b[0] / (mu_d * alpha[0] + k);
    const double y = b[1] / (mu_d * alpha[1] + k);
    return x * x + y * y - 1.0;
  };
  double k = coupling;  // μd = 0: friction-free slip follows H_tn, k = |H_tn|
  if (mu_d > 0.0) {
    const double lo = std::max(0.0, coupling - mu_d * alpha[1]);
    const double hi = coupling - mu_d * alpha[0];
    const double excess_lo = excess(lo);
    if (lo == 0.0 && !(excess_lo > 0.0)) return false;  // |r| = μd to round-off: no growing slip
    const double excess_hi = excess(hi);
    if (!(excess_lo > 0.0)) {
      k = lo;
    } else if (!(excess_hi < 0.0)) {
      k = hi;
    } else {
      std::uintmax_t max_iterations = 200;
      const auto [root_lo, root_hi] = boost::math::tools::toms748_solve(
          excess, lo, hi, excess_lo, excess_hi, boost::math::tools::eps_tolerance<double>(52),
          max_iterations);
      k = 0.5 * (root_lo + root_hi);
    }
  }
  if (!(k > 0.0)) return false;
  const Eigen::Matrix2d A =
      mu_d * contact.H.bottomRightCorner<2, 2>() + k * Eigen::Matrix2d::Identity();
  slip.direction = A.inverse() * H_tn;
  slip.direction.normalize();  // |û| = 1 to round-off of k; exactly unit from here on
  slip.growth_rate = k;
  return true;
}

/// The slip direction the dynamics choose when slip starts from rest and sticking cannot hold:
/// the resumed-slip direction when it exists, otherwise (μs < |r| ≤ μd, kinetic friction above
/// static) its limit as k → 0, −r/|r|. In the planar reduction both are (sign c, 0), as
/// slip_direction_from_rest of planar_contact.hpp.
inline Eigen::Vector2d slip_direction_from_rest(const SpatialContact& contact) {
  ResumedSlip slip;
  if (resumed_slip_direction(contact, slip)) return slip.direction;
  const Eigen::Vector2d r = sticking_friction_ratio(contact.H);
  const double norm = r.norm();
  return norm > 0.0 ? Eigen::Vector2d(-r / norm) : Eigen::Vector2d(1.0, 0.0);
}

}  // namespace routh
