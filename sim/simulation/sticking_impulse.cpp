#include "sim/simulation/sticking_impulse.hpp"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <optional>

#include "sim/simulation/contact_modes.hpp"
#include "sim/static_friction.hpp"

namespace routh {

namespace {

// Impulses and velocities agree with their conditions to this fraction of their largest value:
// D⁺ from a rank-revealing factorization holds D Γ = −u⁻ to round-off of |D| |Γ|.
constexpr double kRoundOff = 1e-9;

// Some impulse of the set that is Coulomb's at every contact (Γ_n ≥ 0, |Γ_t| ≤ μs Γ_n), as
// static_friction.hpp decides it for forces: the least-norm Γ splits the tangential impulse of a
// block's two corners equally, and another split, Γ + N z with N a basis of ker D (= ker Jᵀ: it
// moves nothing), may lie inside both cones where that one does not. Planar sets; where the
// distribution cannot judge a set (static_friction.hpp), the least-norm Γ alone is judged. Empty
// when none is.
std::optional<Eigen::VectorXd> coulomb_impulse(const SystemEvaluation& evaluation,
                                               const std::vector<int>& contacts,
                                               const Eigen::MatrixXd& D,
                                               const Eigen::VectorXd& impulse) {
  const int rows = evaluation.rows_per_contact;
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(D);
  const Eigen::MatrixXd null_basis = lu.kernel();
  const bool free_split = lu.rank() < D.rows();
  SetContacts set;
  if (rows == 2 && free_split) {
    for (std::size_t i = 0; i < contacts.size(); ++i) {
      const int r = static_cast<int>(i) * rows;
      set.push_back({r, r + 1, evaluation.parameters[contacts[i]].static_friction});
    }
    StaticFrictionDistribution distribution;
    distribute_static_friction(ContactVector(impulse), ContactMatrix(null_basis), set,
                               distribution);
    if (std::isfinite(distribution.stick_reserve)) {
      if (!(distribution.stick_reserve >= 0.0)) return std::nullopt;
      return Eigen::VectorXd(distribution.forces);
    }
  }
  const double slack = kRoundOff * impulse.cwiseAbs().maxCoeff();
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const auto r = static_cast<Eigen::Index>(i) * rows;
    const double normal = impulse[r];
    const double tangential = impulse.segment(r + 1, rows - 1).norm();
    const double mu = evaluation.parameters[contacts[i]].static_friction;
    if (normal < -slack || tangential > mu * normal + slack) return std::nullopt;
  }
  return impulse;
}

}  // namespace

ImpactResolution sticking_impulse(SystemEvaluation& evaluation, const SimulationSettings& settings,
                                  double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  ImpactResolution resolution;
  const int rows = evaluation.rows_per_contact;
  std::vector<int> touching;
  const ContactKinematics& kinematics = contacts_at(evaluation, q, v);
  for (int k = 0; k < evaluation.contacts; ++k) {
    if (is_persistent_contact_candidate(kinematics, rows, k, v, settings)) touching.push_back(k);
  }
  if (touching.empty()) return resolution;
  const auto count = static_cast<Eigen::Index>(touching.size());
  Eigen::MatrixXd J(rows * count, evaluation.velocities);
  for (Eigen::Index i = 0; i < count; ++i) {
    J.middleRows(rows * i, rows) =
        kinematics.jacobian.middleRows(rows * touching[static_cast<std::size_t>(i)], rows);
  }
  const Eigen::VectorXd u_pre = J * v;
  const Eigen::MatrixXd inverse_mass_Jt =
      Eigen::LLT<Eigen::MatrixXd>(mass_matrix_at(evaluation, q)).solve(J.transpose());
  const Eigen::MatrixXd D = J * inverse_mass_Jt;
  const Eigen::VectorXd least = D.completeOrthogonalDecomposition().solve(-u_pre);
  const Eigen::VectorXd u_post = u_pre + D * least;
  if (!least.allFinite() ||
      !(u_post.norm() <= kRoundOff * (u_pre.norm() + D.norm() * least.norm())))
    return resolution;
  const std::optional<Eigen::VectorXd> coulomb = coulomb_impulse(evaluation, touching, D, least);
  if (!coulomb) return resolution;
  const Eigen::VectorXd& impulse = *coulomb;
  resolution.resolved = true;
  resolution.contacts = touching;
  resolution.velocity_change = inverse_mass_Jt * impulse;
  EventRecord& event = resolution.event;
  event.t = t;
  event.kind = EventKind::impact;
  event.contacts = touching;
  event.impulse.assign(impulse.data(), impulse.data() + impulse.size());
  event.u_pre.assign(u_pre.data(), u_pre.data() + u_pre.size());
  event.u_post.assign(u_post.data(), u_post.data() + u_post.size());
  event.delta_T = impulse.dot(u_pre) + 0.5 * impulse.dot(D * impulse);
  // along the proportional path Γ(s) = s Γ, u(s) = (1 − s) u⁻: W = ∫ u dΓ = ½ Γᵀu⁻ per row
  for (Eigen::Index r = 0; r < impulse.size(); ++r) {
    (r % rows == 0 ? event.normal_work : event.tangential_work) += 0.5 * impulse[r] * u_pre[r];
  }
  event.status =
      "Painlevé: the law found no impact; a plastic sticking impulse inside every friction cone";
  return resolution;
}

}  // namespace routh
