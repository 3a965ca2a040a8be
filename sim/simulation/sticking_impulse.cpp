#include "sim/simulation/sticking_impulse.hpp"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>

#include "sim/simulation/contact_modes.hpp"
#include "sim/simulation/slip_reference.hpp"
#include "sim/simulation/witnesses.hpp"
#include "sim/static_friction.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

// Impulses and velocities agree with their conditions to this fraction of their largest value:
// D⁺ from a rank-revealing factorization holds D Γ = −u⁻ to round-off of |D| |Γ|.
constexpr double kRoundOff = 1e-9;

// Some impulse of the set that is Coulomb's at every contact (Γ_n ≥ 0, |Γ_t| ≤ μ Γ_n, μ its
// entry of `cones`), as
// static_friction.hpp decides it for forces: the least-norm Γ splits the tangential impulse of a
// block's two corners equally, and another split, Γ + N z with N a basis of ker D (= ker Jᵀ: it
// moves nothing), may lie inside both cones where that one does not. Planar sets; where the
// distribution cannot judge a set (static_friction.hpp), the least-norm Γ alone is judged. Empty
// when none is.
std::optional<Eigen::VectorXd> coulomb_impulse(const SystemEvaluation& evaluation,
                                               const std::vector<int>& contacts,
                                               const std::vector<double>& cones,
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
      set.push_back({r, r + 1, cones[i]});
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
    if (normal < -slack || tangential > cones[i] * normal + slack) return std::nullopt;
  }
  return impulse;
}

// The velocities J_c v of the closed rows that an impulse can reach, in place of J_c v (in
// `kinematics`, where J̇v stood): their projection A A⁺ b onto the range of A = J_c M⁻¹ W (b =
// −J_c v, from the failed solve in `workspace`). J_c v lies in that range (it is J_c of a
// velocity), but corners that touch a contact distance off one line make rows dependent only to
// that distance: A's eigenvalues along such a combination u of rows are of the squared order, the
// rank-revealing solve counts them as zero, and sees the part uᵀb of b outside the range. That
// part is bounded by Cauchy–Schwarz in the metric of M⁻¹ (W = J_cᵀ for the sticking rows):
//     |uᵀ J_c v| = |(M^{-1/2} J_cᵀ u)ᵀ (M^{1/2} v)| ≤ √(uᵀ A u) √(vᵀ M v),
// with uᵀAu at most the decomposition's cut (its threshold times its largest pivot). The
// projection is taken only when b's part outside the range is within that bound plus the
// integrator's resolution of a velocity; a b that the impulse genuinely cannot reach (sliding
// rows that take range away) leaves a part of the size of b itself. False otherwise.
bool take_reachable_velocities(const std::vector<ContactMode>& modes, double velocity_resolution,
                               double v_M_v, const ContactForceWorkspace& workspace,
                               ContactKinematics& kinematics) {
  const auto decomposition = workspace.A.completeOrthogonalDecomposition();
  const Eigen::VectorXd reachable = workspace.A * decomposition.solve(workspace.b);
  const double dependent_part =
      std::sqrt(decomposition.threshold() * decomposition.maxPivot() * v_M_v);
  if (!((reachable - workspace.b).norm() <= velocity_resolution + dependent_part)) return false;
  const auto rows_per_contact = kinematics.jacobian.rows() / kinematics.gap.size();
  Eigen::Index row = 0;
  for (std::size_t k = 0; k < modes.size(); ++k) {
    if (!is_closed(modes[k])) continue;
    const auto r = static_cast<Eigen::Index>(k) * rows_per_contact;
    kinematics.jacobian_dot_v[r] = -reachable[row++];
    if (modes[k] == ContactMode::stick) kinematics.jacobian_dot_v[r + 1] = -reachable[row++];
  }
  return true;
}

// Where the impulse that sticks every touching contact is not Coulomb's (it pulls somewhere, or
// needs more friction than a contact has), the contacts' modes for the impulse are settled as
// for forces (contact_modes.hpp), one change at a time: a contact the impulse would pull
// separates, the hardest pulled first; only when none pulls does a sticking contact outside its
// cone (the set's reserve, static_friction.hpp) slide, the way it slipped before the impulse, or
// from rest against the impulse sticking needed, with Γ_t = −μd σ Γ_n. The impulse of given modes
// is the force solve of contact_forces.hpp at velocity level: with no applied force and the
// contacts' velocities J v in place of J̇v, it gives Δv (as v̇) and the impulses Γ (as λ) with
//     M Δv = W Γ,   J_c (v + Δv) = 0,
// so the closed contacts end at rest normally and the sticking ones tangentially. The outcome is
// checked as a whole: every closed contact pushes, every sticking one lies inside its cone, a
// sliding one has not reversed its slip, an opened one does not approach, and the kinetic energy
// has not grown. A spatial sliding contact slides along its reference û₀ (slip_reference.hpp).
struct ModedImpulse {
  std::vector<ContactMode> modes;
  ConstrainedAcceleration outcome;  // Δv as `acceleration`, Γ as `forces`
};

std::optional<ModedImpulse> moded_sticking_impulse(SystemEvaluation& evaluation,
                                                   const SimulationSettings& settings,
                                                   const Eigen::VectorXd& q,
                                                   const Eigen::VectorXd& v,
                                                   const std::vector<int>& touching) {
  const int rows = evaluation.rows_per_contact;
  StateQuantities impulse_problem;
  impulse_problem.mass_matrix = mass_matrix_at(evaluation, q);
  impulse_problem.generalized_force = Eigen::VectorXd::Zero(v.size());
  impulse_problem.contacts = contacts_at(evaluation, q, v);
  ContactKinematics& kinematics = impulse_problem.contacts;
  kinematics.jacobian_dot_v = kinematics.jacobian * v;  // u⁻ stands where J̇v stood
  ModedImpulse impulse;
  impulse.modes.assign(static_cast<std::size_t>(evaluation.contacts), ContactMode::open);
  for (const int k : touching) impulse.modes[k] = ContactMode::stick;
  std::vector<ContactMode>& modes = impulse.modes;
  ConstrainedAcceleration& out = impulse.outcome;
  ContactForceWorkspace workspace;
  // a contact opens, slides or closes again: a few rounds per contact, and the outcome is checked
  // an impulse's slip keeps its mode's direction (a spatial contact's reference) throughout
  SlipDirections slips;
  const auto solve = [&] {
    slips.assign(modes.size(), Eigen::Vector2d::Zero());
    for (int k = 0; k < static_cast<int>(modes.size()); ++k) {
      if (modes[static_cast<std::size_t>(k)] == ContactMode::slide)
        slips[static_cast<std::size_t>(k)] = mode_direction(evaluation, k, ContactMode::slide);
    }
    constrained_acceleration(impulse_problem, modes, evaluation.parameters, workspace, out, slips);
  };
  for (std::size_t round = 0; round <= 4 * touching.size(); ++round) {
    solve();
    if (!out.consistent) {
      if (!take_reachable_velocities(modes, settings.absolute_tolerance,
                                     v.dot(impulse_problem.mass_matrix * v), workspace, kinematics))
        return std::nullopt;
      solve();
      if (!out.consistent) return std::nullopt;
    }
    int pulling = -1;
    for (const int k : touching) {
      if (is_closed(modes[k]) && !(out.forces[k].normal > 0.0) &&
          (pulling < 0 || out.forces[k].normal < out.forces[pulling].normal))
        pulling = k;
    }
    if (pulling >= 0) {
      modes[pulling] = ContactMode::open;
      continue;
    }
    int slipping = -1;
    for (const int k : touching) {
      if (modes[k] == ContactMode::stick &&
          !(static_friction_margin(evaluation.parameters[k], out.forces[k]) >= 0.0)) {
        slipping = k;
        break;
      }
    }
    if (slipping < 0) {
      // a contact opened earlier, while others still held, may approach now: it closes again
      const Eigen::VectorXd v_post = v + out.acceleration;
      int approaching = -1;
      double fastest = -settings.absolute_tolerance;
      for (const int k : touching) {
        const double u_n = normal_velocity(kinematics, rows, k, v_post);
        if (modes[k] == ContactMode::open && u_n < fastest) approaching = k, fastest = u_n;
      }
      if (approaching < 0) break;
      modes[approaching] = ContactMode::stick;
      continue;
    }
    const Eigen::Vector2d u_t = slip_of(kinematics, rows, slipping, v);
    // slipping: along its slip; from rest: against the impulse sticking needed (exactly none:
    // along the first tangential row)
    const Eigen::Vector2d direction =
        u_t.norm() > settings.rest_speed ? u_t
                                         : Eigen::Vector2d(-tangential_force(out.forces[slipping]));
    modes[slipping] =
        slide_along(evaluation, slipping,
                    direction == Eigen::Vector2d::Zero() ? Eigen::Vector2d(1.0, 0.0) : direction);
  }
  const Eigen::VectorXd v_post = v + out.acceleration;
  const double u_resolution = settings.absolute_tolerance;  // the integrator's, of a velocity
  for (const int k : touching) {
    const ContactForce& force = out.forces[k];
    switch (modes[k]) {
      case ContactMode::open:
        if (normal_velocity(kinematics, rows, k, v_post) < -u_resolution) return std::nullopt;
        break;
      case ContactMode::stick:
        if (!(force.normal > 0.0) ||
            !(static_friction_margin(evaluation.parameters[k], force) >= 0.0))
          return std::nullopt;
        break;
      default:
        if (!(force.normal > 0.0) ||
            mode_direction(evaluation, k, modes[k]).dot(slip_of(kinematics, rows, k, v_post)) <
                -u_resolution)
          return std::nullopt;
    }
  }
  const Eigen::MatrixXd& M = impulse_problem.mass_matrix;
  if (v_post.dot(M * v_post) > v.dot(M * v)) return std::nullopt;  // a plastic impact gains none
  return impulse;
}

// The event of a sticking impulse Γ on `contacts` (rows of Γ, u⁻ and u⁺ per contact), with ΔT and
// the work of each row along the proportional path Γ(s) = s Γ, on which u is linear in s:
// W_r = ½ Γ_r (u⁻_r + u⁺_r), summing to ΔT = Γᵀu⁻ + ½ ΓᵀDΓ.
EventRecord sticking_event(double t, int rows, const std::vector<int>& contacts,
                           const Eigen::VectorXd& impulse, const Eigen::VectorXd& u_pre,
                           const Eigen::VectorXd& u_post, double delta_T, std::string_view status) {
  EventRecord event;
  event.t = t;
  event.kind = EventKind::impact;
  event.contacts = contacts;
  event.impulse.assign(impulse.data(), impulse.data() + impulse.size());
  event.u_pre.assign(u_pre.data(), u_pre.data() + u_pre.size());
  event.u_post.assign(u_post.data(), u_post.data() + u_post.size());
  event.delta_T = delta_T;
  for (Eigen::Index r = 0; r < impulse.size(); ++r) {
    (r % rows == 0 ? event.normal_work : event.tangential_work) +=
        0.5 * impulse[r] * (u_pre[r] + u_post[r]);
  }
  event.status = status;
  return event;
}

// The impulse of the settled modes (moded_sticking_impulse) as an impact on its closed contacts.
ImpactResolution resolve_with_modes(SystemEvaluation& evaluation,
                                    const SimulationSettings& settings, double t,
                                    const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                    const std::vector<int>& touching, std::string_view cause) {
  ImpactResolution resolution;
  const std::optional<ModedImpulse> moded =
      moded_sticking_impulse(evaluation, settings, q, v, touching);
  if (!moded) return resolution;
  const int rows = evaluation.rows_per_contact;
  const ContactKinematics& kinematics = contacts_at(evaluation, q, v);
  const Eigen::VectorXd& velocity_change = moded->outcome.acceleration;
  for (const int k : touching) {
    if (is_closed(moded->modes[k])) resolution.contacts.push_back(k);
  }
  // with every contact opened the impulse is Γ = 0, the trivial solution at u_n⁻ = 0: no impact
  if (resolution.contacts.empty()) return resolution;
  const auto count = static_cast<Eigen::Index>(resolution.contacts.size());
  Eigen::VectorXd impulse(rows * count), u_pre(rows * count), u_post(rows * count);
  for (Eigen::Index i = 0; i < count; ++i) {
    const int k = resolution.contacts[static_cast<std::size_t>(i)];
    const auto J_k = kinematics.jacobian.middleRows(rows * k, rows);
    impulse.segment(rows * i, rows) << moded->outcome.forces[k].normal,
        moded->outcome.forces[k].tangential;
    u_pre.segment(rows * i, rows) = J_k * v;
    u_post.segment(rows * i, rows) = J_k * (v + velocity_change);
  }
  const Eigen::MatrixXd& M = mass_matrix_at(evaluation, q);
  const Eigen::VectorXd v_post = v + velocity_change;
  const double delta_T = 0.5 * (v_post.dot(M * v_post) - v.dot(M * v));
  resolution.resolved = true;
  resolution.velocity_change = velocity_change;
  resolution.event =
      sticking_event(t, rows, resolution.contacts, impulse, u_pre, u_post, delta_T,
                     cat(cause,
                         "; a plastic impulse under which each contact sticks inside its "
                         "cone, slides on its edge or separates"));
  return resolution;
}

}  // namespace

ImpactResolution sticking_impulse(SystemEvaluation& evaluation, const SimulationSettings& settings,
                                  double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  const int rows = evaluation.rows_per_contact;
  std::vector<int> touching;
  std::vector<double> cones;
  const ContactKinematics& kinematics = contacts_at(evaluation, q, v);
  for (int k = 0; k < evaluation.contacts; ++k) {
    if (!is_persistent_contact_candidate(kinematics, rows, k, v, settings)) continue;
    touching.push_back(k);
    cones.push_back(evaluation.parameters[static_cast<std::size_t>(k)].static_friction);
  }
  return sticking_impulse(evaluation, settings, t, q, v, touching, cones,
                          "Painlevé: the law found no impact");
}

ImpactResolution sticking_impulse(SystemEvaluation& evaluation, const SimulationSettings& settings,
                                  double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                  const std::vector<int>& touching,
                                  const std::vector<double>& cones, std::string_view cause) {
  ImpactResolution resolution;
  const int rows = evaluation.rows_per_contact;
  if (touching.empty()) return resolution;
  const ContactKinematics& kinematics = contacts_at(evaluation, q, v);
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
  const bool stops_all =
      least.allFinite() && u_post.norm() <= kRoundOff * (u_pre.norm() + D.norm() * least.norm());
  const std::optional<Eigen::VectorXd> coulomb =
      stops_all ? coulomb_impulse(evaluation, touching, cones, D, least) : std::nullopt;
  if (!coulomb) return resolve_with_modes(evaluation, settings, t, q, v, touching, cause);
  const Eigen::VectorXd& impulse = *coulomb;
  resolution.resolved = true;
  resolution.contacts = touching;
  resolution.velocity_change = inverse_mass_Jt * impulse;
  resolution.event =
      sticking_event(t, rows, touching, impulse, u_pre, u_post,
                     impulse.dot(u_pre) + 0.5 * impulse.dot(D * impulse),
                     cat(cause, "; a plastic sticking impulse inside every friction cone"));
  return resolution;
}

}  // namespace routh
