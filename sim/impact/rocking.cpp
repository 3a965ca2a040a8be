#include "sim/impact/rocking.hpp"
#include "sim/impact/law_guard.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <vector>

#include "sim/impact/lcp.hpp"
#include "sim/impact/round_off_velocity.hpp"

namespace routh {

namespace {

// How far u⁻ may lie outside range(D), relative to the velocity scale, and still be in it: D and
// u⁻ = J v⁻ of one state agree to round-off amplified by D's condition (a block's two corners on
// one face: D is singular, its smallest eigenvalues are cancellation noise), far below this; a
// velocity that no impulse can reach misses by the order of the velocities themselves.
constexpr double kRangeTolerance = 1e-6;

// D⁺ of a symmetric positive semidefinite D, from its spectrum: eigenvalues below
// kSymmetryTolerance of the largest are zeros that round-off moved (D = J M⁻¹ Jᵀ is singular when
// its rows outnumber the velocities, impact_problem.hpp).
Eigen::MatrixXd pseudo_inverse(const Eigen::MatrixXd& D) {
  if (D.rows() == 0) return D;  // no contact closed
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> spectrum(D);
  const Eigen::VectorXd& lambda = spectrum.eigenvalues();
  const double cut = kSymmetryTolerance * lambda.cwiseAbs().maxCoeff();
  const Eigen::VectorXd inverse =
      lambda.unaryExpr([cut](double value) { return value > cut ? 1.0 / value : 0.0; });
  return spectrum.eigenvectors() * inverse.asDiagonal() * spectrum.eigenvectors().transpose();
}

// Housner's impact among several contacts: the contacts in the active set end at rest on all
// their rows (plastic, sticking), the others carry nothing.
struct PlasticImpact {
  bool found = false;
  Eigen::VectorXd impulse;  ///< Γ_p
  Eigen::VectorXd u_post;   ///< u⁺_p = u⁻ + D Γ_p
};

// The rows of the contacts marked `closed`.
std::vector<Eigen::Index> rows_of(const std::vector<bool>& closed, int rows) {
  std::vector<Eigen::Index> indices;
  for (std::size_t k = 0; k < closed.size(); ++k) {
    if (!closed[k]) continue;
    for (int r = 0; r < rows; ++r) indices.push_back(static_cast<Eigen::Index>(k) * rows + r);
  }
  return indices;
}

// The perfectly plastic, sticking impact by its active set: it starts with the striking contacts
// (`decided_u` is u⁻ without round-off, which decides signs), stops them on every row, releases
// the contact whose normal impulse pulls most, or closes the one driven fastest into its face,
// and again, until no closed contact pulls and no open one penetrates (a rocking block's old
// pivot stays open: Housner's impact lifts it). The arithmetic uses u⁻ as given, so that a closed
// contact ends at rest to round-off. No answer when the set cycles, or when a closed set cannot
// be stopped (its u⁻ outside the range of its D: a jammed contact).
PlasticImpact plastic_sticking_impact(const Eigen::MatrixXd& D, const Eigen::VectorXd& u_pre,
                                      const Eigen::VectorXd& decided_u, int count, int rows) {
  PlasticImpact plastic;
  std::vector<bool> closed(static_cast<std::size_t>(count));
  for (int k = 0; k < count; ++k) closed[static_cast<std::size_t>(k)] = decided_u[rows * k] < 0.0;
  const double velocity_scale = u_pre.cwiseAbs().maxCoeff();
  for (int round = 0; round <= 2 * count + 2; ++round) {
    const std::vector<Eigen::Index> active = rows_of(closed, rows);
    const Eigen::MatrixXd D_active = D(active, active);
    const Eigen::VectorXd u_active = u_pre(active);
    plastic.impulse.setZero(D.rows());
    plastic.impulse(active) = -(pseudo_inverse(D_active) * u_active);
    plastic.u_post = u_pre + D * plastic.impulse;
    if (!active.empty() &&
        plastic.u_post(active).cwiseAbs().maxCoeff() > kRangeTolerance * velocity_scale) {
      return plastic;
    }
    const double impulse_scale = plastic.impulse.cwiseAbs().maxCoeff();
    int pulling = -1, penetrating = -1;
    double pull = -kRoundOffVelocity * impulse_scale;
    double approach = -kRoundOffVelocity * velocity_scale;
    for (int k = 0; k < count; ++k) {
      if (closed[static_cast<std::size_t>(k)] && plastic.impulse[rows * k] < pull) {
        pull = plastic.impulse[rows * k];
        pulling = k;
      } else if (!closed[static_cast<std::size_t>(k)] && plastic.u_post[rows * k] < approach) {
        approach = plastic.u_post[rows * k];
        penetrating = k;
      }
    }
    if (pulling >= 0) {
      closed[static_cast<std::size_t>(pulling)] = false;
    } else if (penetrating >= 0) {
      closed[static_cast<std::size_t>(penetrating)] = true;
    } else {
      plastic.found = true;
      return plastic;
    }
  }
  return plastic;
}

// Whether the sticking impulse of every contact lies in its friction cone, |Γ_t| ≤ μs Γ_n (to
// round-off of the impulses): else the contact would slide, and Housner's hypothesis fails.
bool sticks(const ImpactProblem& problem, const Eigen::VectorXd& impulse, int rows) {
  const double round_off = kRoundOffVelocity * impulse.cwiseAbs().maxCoeff();
  for (int k = 0; k < problem.contact_count(); ++k) {
    const double normal = impulse[rows * k];
    const double tangential = impulse.segment(rows * k + 1, rows - 1).norm();
    if (tangential >
        problem.contacts[static_cast<std::size_t>(k)].static_friction * normal + round_off) {
      return false;
    }
  }
  return true;
}

// The sticking impulse is not unique where D is singular: two contacts of a body on one face can
// share their tangential impulse in any proportion (a squeeze that moves nothing). The least-norm
// share can leave a cone that another share satisfies (a plinth's two floor corners under a statue
// landing near one of them: the far corner carries little normal impulse). Then the plastic
// impact of `lcp` (e = 0, Coulomb's cones), when it gives the same velocities, supplies a share
// inside the cones; otherwise the contacts cannot stick and there is no plastic, sticking impact.
bool stick_within_cones(const ImpactProblem& problem, PlasticImpact& plastic, int rows) {
  if (sticks(problem, plastic.impulse, rows)) return true;
  ImpactProblem closing = problem;
  for (ContactParameters& contact : closing.contacts) contact.restitution = 0.0;
  const ImpactResult lcp = solve_lcp(closing);
  if (lcp.status != ImpactStatus::solved) return false;
  const Eigen::VectorXd lcp_impulse = lcp.impulse;
  const Eigen::VectorXd lcp_u_post = lcp.u_post;
  const double velocity_scale = problem.u_pre.cwiseAbs().maxCoeff();
  if ((lcp_u_post - plastic.u_post).cwiseAbs().maxCoeff() > kRangeTolerance * velocity_scale) {
    return false;
  }
  plastic.impulse = lcp_impulse;
  return sticks(problem, plastic.impulse, rows);
}

// The smallest restitution among the contacts that strike (u_n⁻ < 0).
double striking_restitution(const ImpactProblem& problem, const Eigen::VectorXd& decided_u,
                            int rows) {
  double restitution = 1.0;
  for (int k = 0; k < problem.contact_count(); ++k) {
    if (decided_u[rows * k] < 0.0) {
      restitution =
          std::min(restitution, problem.contacts[static_cast<std::size_t>(k)].restitution);
    }
  }
  return restitution;
}

// Γ, u⁺, the works along the straight impulse path (u linear in Γ, so W = Γ·(u⁻ + u⁺)/2 per
// component and W_n + W_t = ΔT), the phases and the energy flag of the applied impulse.
void finish_result(const ImpactProblem& problem, const Eigen::VectorXd& impulse,
                   double kinetic_energy_before, ImpactResult& result) {
  const int rows = rows_per_contact(problem.dimension);
  const Eigen::VectorXd u_post = problem.u_pre + problem.D * impulse;
  result.impulse = impulse;
  result.u_post = u_post;
  result.normal_work = result.tangential_work = 0.0;
  for (int k = 0; k < problem.contact_count(); ++k) {
    const Eigen::Index n = rows * k;
    result.normal_work += impulse[n] * 0.5 * (problem.u_pre[n] + u_post[n]);
    result.tangential_work +=
        impulse.segment(n + 1, rows - 1)
            .dot(0.5 * (problem.u_pre.segment(n + 1, rows - 1) + u_post.segment(n + 1, rows - 1)));
    if (impulse[n] == 0.0) continue;
    if (result.phases.size() == kMaxPhases) {
      result.flags.set(ImpactFlag::phase_trace_truncated);
      continue;
    }
    result.phases.push_back(Phase{PhaseKind::stick, Stage::compression, 0.0, impulse[n], k});
  }
  result.delta_T = impulse.dot(problem.u_pre) + 0.5 * impulse.dot(problem.D * impulse);
  if (result.delta_T > kRoundOffVelocity * kinetic_energy_before) {
    result.flags.set(ImpactFlag::energy_gain);
  }
  result.type =
      problem.contact_count() == 1 ? ImpactType::sticking_throughout : ImpactType::multi_contact;
  result.status = ImpactStatus::solved;
}

// How the scale k of the plastic impact's velocities follows from the contacts' restitution.
enum class RestitutionMeaning {
  rocking_ratio,  ///< η: k = η / η_p
  over_plastic,   ///< k itself
};

ImpactResult rocking_impact(const ImpactProblem& problem, RestitutionMeaning meaning) {
  ImpactResult result;
  if (problem.dimension != ContactDimension::planar) {
    result.status = ImpactStatus::unsupported;
    return result;
  }
  if (!diagnose(problem).ok()) {
    result.status = ImpactStatus::invalid_problem;
    return result;
  }
  const int rows = rows_per_contact(problem.dimension);
  const int count = problem.contact_count();
  const Eigen::MatrixXd D = 0.5 * (problem.D + problem.D.transpose());
  const Eigen::VectorXd u_pre = problem.u_pre;
  const Eigen::VectorXd decided_u = without_round_off(problem.u_pre, count, rows);
  bool approaching = false;
  for (int k = 0; k < count; ++k) approaching = approaching || decided_u[rows * k] < 0.0;
  if (!approaching) {
    result.status = ImpactStatus::no_impact;
    result.impulse.setZero(D.rows());
    result.u_post = problem.u_pre;
    return result;
  }

  const Eigen::MatrixXd D_plus = pseudo_inverse(D);
  const Eigen::VectorXd stopping_impulse = -(D_plus * u_pre);  // Γ_s: every contact at rest
  const double velocity_scale = u_pre.cwiseAbs().maxCoeff();
  PlasticImpact plastic = plastic_sticking_impact(D, u_pre, decided_u, count, rows);
  const bool in_range =
      (u_pre + D * stopping_impulse).cwiseAbs().maxCoeff() <= kRangeTolerance * velocity_scale;
  if (!plastic.found || !in_range || !stick_within_cones(problem, plastic, rows)) {
    result.status = ImpactStatus::no_solution;
    return result;
  }

  const double energy_before = 0.5 * u_pre.dot(D_plus * u_pre);                     // T⁻
  const double plastic_energy = 0.5 * plastic.u_post.dot(D_plus * plastic.u_post);  // T⁺_p
  const double restitution = striking_restitution(problem, decided_u, rows);
  // A plastic impact that leaves energy at round-off of T⁻ leaves no motion to scale: the contacts
  // close (a corner landing alone).
  const bool leaves_motion = plastic_energy > kRoundOffVelocity * energy_before;
  double scale = 0.0;  // k
  if (leaves_motion) {
    scale = meaning == RestitutionMeaning::over_plastic
                ? restitution
                : restitution / std::sqrt(plastic_energy / energy_before);
  }
  finish_result(problem, scale * plastic.impulse + (1.0 - scale) * stopping_impulse, energy_before,
                result);
  return result;
}

}  // namespace

ImpactResult solve_rocking(const ImpactProblem& problem) {
  return guarded_law([&] { return rocking_impact(problem, RestitutionMeaning::rocking_ratio); });
}

ImpactResult solve_rocking_over_housner(const ImpactProblem& problem) {
  return guarded_law([&] { return rocking_impact(problem, RestitutionMeaning::over_plastic); });
}

}  // namespace routh
