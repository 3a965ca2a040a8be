#include "sim/simulation/constraint_projection.hpp"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>

namespace routh {

namespace {

// Gauss–Newton passes of the position projection; the gap is quadratic in the correction, so two
// passes take a 1e-10 m drift to round-off.
constexpr int kProjectionPasses = 3;

// Rounds of holding open contacts the projection sank (hold_sunk_open_contacts); each adds at
// least one, and one round sufficed in every case seen.
constexpr int kHoldingRounds = 3;

// Contacts and the gaps [m] the projection moves them to.
struct HeldGaps {
  std::vector<int> contacts;
  std::vector<double> gaps_m;
  void add(int contact, double gap_m) {
    contacts.push_back(contact);
    gaps_m.push_back(gap_m);
  }
  bool holds(int contact) const {
    return std::find(contacts.begin(), contacts.end(), contact) != contacts.end();
  }
};

// Gauss–Newton passes of equation (1) moving q until every held contact's gap is its held gap.
void move_onto_held_gaps(SystemEvaluation& evaluation, const HeldGaps& held, Eigen::VectorXd& q,
                         const Eigen::VectorXd& v) {
  const auto rows = static_cast<Eigen::Index>(held.contacts.size());
  Eigen::MatrixXd J_n(rows, evaluation.velocities);
  Eigen::VectorXd residual(rows);
  for (int pass = 0; pass < kProjectionPasses; ++pass) {
    const ContactKinematics& kinematics = contacts_at(evaluation, q, v);
    for (Eigen::Index i = 0; i < rows; ++i) {
      const int k = held.contacts[static_cast<std::size_t>(i)];
      J_n.row(i) = kinematics.jacobian.row(k * evaluation.rows_per_contact);
      residual[i] = kinematics.gap[k] - held.gaps_m[static_cast<std::size_t>(i)];
    }
    if (pass > 0 && residual.lpNorm<Eigen::Infinity>() <= 0.0) break;
    // q ⊕ (−Δ): the correction is a velocity-space displacement (it lives where M and J do)
    evaluation.system.integrate(q, -kinetic_metric_correction(evaluation, q, J_n, residual), q);
  }
  evaluation.system.normalize(q);
}

// An open contact is not the projection's to close: it lands when its gap witness sees the gap
// cross zero, and the impact law decides what follows. A projection that moves one from a
// non-negative gap `gap` to a negative one hides that landing, the witness starting its next
// step already sunk (stack:164 of the multibody campaign: a block's corner 2.6e-7 m above the
// block below, approaching, was moved 5.7e-5 m into it by the drift removal after a Zeno rest,
// and sank 8.8 mm). Such contacts are held at their gaps, and the caller projects again.
bool hold_sunk_open_contacts(SystemEvaluation& evaluation, const std::vector<ContactMode>& modes,
                             const Eigen::VectorXd& gap, const Eigen::VectorXd& q,
                             const Eigen::VectorXd& v, HeldGaps& held) {
  const ContactKinematics& kinematics = contacts_at(evaluation, q, v);
  bool sank = false;
  for (int k = 0; k < evaluation.contacts; ++k) {
    if (is_closed(modes[k]) || held.holds(k) || gap[k] < 0.0 || kinematics.gap[k] >= 0.0) continue;
    held.add(k, gap[k]);
    sank = true;
  }
  return sank;
}

}  // namespace

Eigen::VectorXd kinetic_metric_correction(SystemEvaluation& evaluation, const Eigen::VectorXd& q,
                                          const Eigen::MatrixXd& J,
                                          const Eigen::VectorXd& residual) {
  const Eigen::MatrixXd inverse_mass_Jt =
      Eigen::LLT<Eigen::MatrixXd>(mass_matrix_at(evaluation, q)).solve(J.transpose());
  return inverse_mass_Jt * (J * inverse_mass_Jt).fullPivLu().solve(residual);
}

void project_velocity_onto_closed_contacts(SystemEvaluation& evaluation,
                                           const std::vector<ContactMode>& modes,
                                           const Eigen::VectorXd& q, Eigen::VectorXd& v) {
  // the closed contacts' rows as the force solve constrains them (held: a vertex past its
  // edge's end stays on the edge's line)
  const ContactKinematics& kinematics = contacts_at(evaluation, q, v, modes);
  const int rows = evaluation.rows_per_contact;
  std::vector<int> constrained;
  for (int k = 0; k < evaluation.contacts; ++k) {
    if (!is_closed(modes[k])) continue;
    constrained.push_back(k * rows);
    if (modes[k] == ContactMode::stick) {
      for (int r = 1; r < rows; ++r) constrained.push_back(k * rows + r);
    }
  }
  if (constrained.empty()) return;
  Eigen::MatrixXd J(constrained.size(), evaluation.velocities);
  for (std::size_t i = 0; i < constrained.size(); ++i) {
    J.row(static_cast<Eigen::Index>(i)) = kinematics.jacobian.row(constrained[i]);
  }
  v -= kinetic_metric_correction(evaluation, q, J, J * v);
}

double closed_contact_drift(const std::vector<ContactMode>& modes, const Eigen::VectorXd& gap) {
  double drift = 0.0;  // [m]
  for (std::size_t k = 0; k < modes.size(); ++k) {
    if (is_closed(modes[k])) drift = std::max(drift, std::abs(gap[static_cast<Eigen::Index>(k)]));
  }
  return drift;
}

bool remove_drift(SystemEvaluation& evaluation, const std::vector<ContactMode>& modes,
                  const Eigen::VectorXd& gap, Eigen::VectorXd& q, Eigen::VectorXd& v) {
  if (closed_contact_drift(modes, gap) <= kDriftTolerance) return false;
  HeldGaps held;
  for (int k = 0; k < evaluation.contacts; ++k) {
    if (is_closed(modes[k])) held.add(k, 0.0);
  }
  const Eigen::VectorXd q_drifted = q;
  for (int round = 0; round < kHoldingRounds; ++round) {
    q = q_drifted;
    move_onto_held_gaps(evaluation, held, q, v);
    if (!hold_sunk_open_contacts(evaluation, modes, gap, q, v, held)) break;
  }
  project_velocity_onto_closed_contacts(evaluation, modes, q, v);
  return true;
}

}  // namespace routh
