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
  const ContactKinematics& kinematics = contacts_at(evaluation, q, v);
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
  Eigen::MatrixXd J(constrained.size(), evaluation.coordinates);
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
  std::vector<int> closed;
  for (int k = 0; k < evaluation.contacts; ++k) {
    if (is_closed(modes[k])) closed.push_back(k);
  }
  for (int pass = 0; pass < kProjectionPasses; ++pass) {
    const ContactKinematics& kinematics = contacts_at(evaluation, q, v);
    if (pass > 0 && closed_contact_drift(modes, kinematics.gap) <= 0.0) break;
    Eigen::MatrixXd J_n(closed.size(), evaluation.coordinates);
    Eigen::VectorXd closed_gap(closed.size());
    for (std::size_t i = 0; i < closed.size(); ++i) {
      const auto row = static_cast<Eigen::Index>(i);
      J_n.row(row) = kinematics.jacobian.row(closed[i] * evaluation.rows_per_contact);
      closed_gap[row] = kinematics.gap[closed[i]];
    }
    q -= kinetic_metric_correction(evaluation, q, J_n, closed_gap);
  }
  project_velocity_onto_closed_contacts(evaluation, modes, q, v);
  return true;
}

}  // namespace routh
