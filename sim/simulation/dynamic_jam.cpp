#include "sim/simulation/dynamic_jam.hpp"

#include <Eigen/Cholesky>
#include <Eigen/QR>
#include <Eigen/SVD>
#include <algorithm>
#include <string>

#include "sim/simulation/event_response.hpp"
#include "sim/simulation/slip_reference.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

// Impulses and velocities agree with their conditions to this fraction of their largest value:
// the complete orthogonal decomposition holds D Γ = −u⁻ to round-off of |D| |Γ|.
constexpr double kRoundOff = 1e-9;

// The rows of the island's contacts (rows_per_contact each) from the held kinematics.
Eigen::MatrixXd island_rows(const ContactKinematics& kinematics, int rows,
                            const std::vector<int>& contacts) {
  Eigen::MatrixXd J(rows * static_cast<Eigen::Index>(contacts.size()), kinematics.jacobian.cols());
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    J.middleRows(rows * static_cast<Eigen::Index>(i), rows) =
        kinematics.jacobian.middleRows(rows * contacts[i], rows);
  }
  return J;
}

// r of the island's sliding contacts `sliding` (dynamic_jam.hpp), with the slip directions and
// friction of the force solve `dynamics`; +∞ where S₀ is not positive definite (their normal rows
// are dependent, and no compliance of theirs is defined).
double sliding_compliance(const SystemEvaluation& evaluation, const ContactKinematics& kinematics,
                          const ConstrainedAcceleration& dynamics,
                          const Eigen::LLT<Eigen::MatrixXd>& mass, const std::vector<int>& sliding,
                          const std::vector<ContactMode>& modes) {
  const int rows = evaluation.rows_per_contact;
  const auto count = static_cast<Eigen::Index>(sliding.size());
  Eigen::MatrixXd normals(kinematics.jacobian.cols(), count), W(kinematics.jacobian.cols(), count);
  for (Eigen::Index i = 0; i < count; ++i) {
    const int k = sliding[static_cast<std::size_t>(i)];
    const Eigen::Vector2d direction =
        rows > 2 ? dynamics.forces[k].slip : mode_direction(evaluation, k, modes[k]);
    normals.col(i) = kinematics.jacobian.row(rows * k).transpose();
    W.col(i) = normals.col(i);
    for (int j = 1; j < rows; ++j) {
      W.col(i) -= evaluation.parameters[k].kinetic_friction * direction[j - 1] *
                  kinematics.jacobian.row(rows * k + j).transpose();
    }
  }
  const Eigen::MatrixXd inverse_mass_normals = mass.solve(normals);
  const Eigen::LLT<Eigen::MatrixXd> frictionless(normals.transpose() * inverse_mass_normals);
  if (frictionless.info() != Eigen::Success) return std::numeric_limits<double>::infinity();
  const Eigen::MatrixXd S = inverse_mass_normals.transpose() * W;
  // L₀⁻¹ S L₀⁻ᵀ
  const Eigen::MatrixXd half = frictionless.matrixL().solve(S);
  const Eigen::MatrixXd scaled = frictionless.matrixL().solve(half.transpose()).transpose();
  return Eigen::JacobiSVD<Eigen::MatrixXd>(scaled).singularValues().minCoeff();
}

}  // namespace

std::optional<Jam> jam_at(SystemEvaluation& evaluation, double t, const Eigen::VectorXd& q,
                          const Eigen::VectorXd& v, const std::vector<ContactMode>& modes) {
  if (std::none_of(modes.begin(), modes.end(), is_sliding)) return std::nullopt;
  const ConstrainedAcceleration dynamics = dynamics_at(evaluation, t, q, v, modes);
  const Eigen::LLT<Eigen::MatrixXd> mass(mass_matrix_at(evaluation, q));
  std::vector<bool> judged(modes.size(), false);
  std::vector<int> island;
  for (int k = 0; k < static_cast<int>(modes.size()); ++k) {
    if (!is_sliding(modes[static_cast<std::size_t>(k)]) || judged[static_cast<std::size_t>(k)])
      continue;
    closed_island_of(evaluation, q, v, modes, k, island);
    std::vector<int> sliding;
    for (const int c : island) {
      judged[static_cast<std::size_t>(c)] = true;
      if (is_sliding(modes[static_cast<std::size_t>(c)])) sliding.push_back(c);
    }
    if (std::any_of(sliding.begin(), sliding.end(),
                    [&](int c) { return !(dynamics.forces[c].normal > 0.0); }))
      continue;
    const ContactKinematics& kinematics = contacts_at(evaluation, q, v, modes);
    const double r = sliding_compliance(evaluation, kinematics, dynamics, mass, sliding, modes);
    if (r < kJamCompliance) return Jam{island, r};
  }
  return std::nullopt;
}

ImpactResolution jam_impulse(SystemEvaluation& evaluation, double t, const Eigen::VectorXd& q,
                             const Eigen::VectorXd& v, const std::vector<ContactMode>& modes,
                             const Jam& jam) {
  ImpactResolution resolution;
  const int rows = evaluation.rows_per_contact;
  const Eigen::MatrixXd J = island_rows(contacts_at(evaluation, q, v, modes), rows, jam.contacts);
  const Eigen::VectorXd u_pre = J * v;
  const Eigen::MatrixXd& M = mass_matrix_at(evaluation, q);
  const Eigen::MatrixXd inverse_mass_Jt = Eigen::LLT<Eigen::MatrixXd>(M).solve(J.transpose());
  const Eigen::MatrixXd D = J * inverse_mass_Jt;
  const Eigen::VectorXd impulse = D.completeOrthogonalDecomposition().solve(-u_pre);
  const Eigen::VectorXd u_post = u_pre + D * impulse;
  if (!impulse.allFinite() ||
      !(u_post.norm() <= kRoundOff * (u_pre.norm() + D.norm() * impulse.norm())))
    return resolution;
  const double slack = kRoundOff * impulse.cwiseAbs().maxCoeff();
  for (std::size_t i = 0; i < jam.contacts.size(); ++i) {
    const int k = jam.contacts[i];
    const ContactParameters& contact = evaluation.parameters[static_cast<std::size_t>(k)];
    const auto r = static_cast<Eigen::Index>(i) * rows;
    const double normal = impulse[r], tangential = impulse.segment(r + 1, rows - 1).norm();
    const double mu =
        is_sliding(modes[static_cast<std::size_t>(k)])
            ? std::max(contact.static_friction, contact.kinetic_friction * (1.0 + kJamCompliance))
            : contact.static_friction;
    if (normal < -slack || tangential > mu * normal + slack) return resolution;
  }
  const Eigen::VectorXd velocity_change = inverse_mass_Jt * impulse;
  const Eigen::VectorXd v_post = v + velocity_change;
  const double delta_T = 0.5 * (v_post.dot(M * v_post) - v.dot(M * v));
  if (!(delta_T <= 0.0)) return resolution;  // a plastic impulse gains no energy
  EventRecord& event = resolution.event;
  event.t = t;
  event.kind = EventKind::impact;
  event.contacts = jam.contacts;
  event.impulse.assign(impulse.data(), impulse.data() + impulse.size());
  event.u_pre.assign(u_pre.data(), u_pre.data() + u_pre.size());
  event.u_post.assign(u_post.data(), u_post.data() + u_post.size());
  event.delta_T = delta_T;
  // each row's work along the proportional path Γ(s) = s Γ, on which u is linear in s
  for (Eigen::Index r = 0; r < impulse.size(); ++r) {
    (r % rows == 0 ? event.normal_work : event.tangential_work) +=
        0.5 * impulse[r] * (u_pre[r] + u_post[r]);
  }
  event.status = "dynamic jam: a plastic impulse stops the slip, every contact inside its cone";
  resolution.resolved = true;
  resolution.contacts = jam.contacts;
  resolution.velocity_change = velocity_change;
  return resolution;
}

StageReport respond_to_jam(double t, const Eigen::VectorXd& q, Eigen::VectorXd& v, const Jam& jam,
                           const SimulationSettings& settings, RunState& state,
                           RunWorkspace& workspace) {
  StageReport report;
  const ImpactResolution impact = jam_impulse(workspace.evaluation, t, q, v, state.modes, jam);
  if (!impact.resolved) return report;
  EventRecord event;
  event.t = t;
  event.kind = EventKind::painleve;
  for (const int k : jam.contacts) {
    if (is_sliding(state.modes[static_cast<std::size_t>(k)])) event.contacts.push_back(k);
  }
  event.status =
      cat("dynamic jam: sliding compliance ", jam.compliance, " of its value without friction");
  report.events.push_back(std::move(event));
  report.events.push_back(impact.event);
  ++report.impacts;
  v += impact.velocity_change;
  StageReport settled = settle_modes(t, q, v, /*log_changes=*/true, settings, state, workspace);
  for (EventRecord& row : settled.events) report.events.push_back(std::move(row));
  report.impacts += settled.impacts;
  report.end = std::move(settled.end);
  return report;
}

}  // namespace routh
