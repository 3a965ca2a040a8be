#include "sim/simulation/constraint_projection.hpp"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <span>

#include "sim/simulation/contact_islands.hpp"

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
// The closed contacts of `modes` are read as the force solve holds them (a rim's tilt-line end
// held closed is its deepest point whatever its name: read by its name, past the end of its
// half-rim it is the rim's highest point, and the passes would put that on the plane).
void move_onto_held_gaps(SystemEvaluation& evaluation, const std::vector<ContactMode>& modes,
                         const HeldGaps& held, Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  const auto rows = static_cast<Eigen::Index>(held.contacts.size());
  Eigen::MatrixXd J_n(rows, evaluation.velocities);
  Eigen::VectorXd residual(rows);
  for (int pass = 0; pass < kProjectionPasses; ++pass) {
    const ContactKinematics& kinematics = contacts_at(evaluation, q, v, modes);
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

namespace {

// Equation (1) over all of x: the dense solve, for a system that is one island.
Eigen::VectorXd dense_correction(const Eigen::MatrixXd& M, const Eigen::MatrixXd& J,
                                 const Eigen::VectorXd& residual) {
  const Eigen::MatrixXd inverse_mass_Jt = Eigen::LLT<Eigen::MatrixXd>(M).solve(J.transpose());
  return inverse_mass_Jt * (J * inverse_mass_Jt).fullPivLu().solve(residual);
}

// The velocities each row of J may be nonzero in, as the touched pattern of a kinematics whose
// "contacts" are J's rows one by one (what find_contact_islands() reads).
void row_pattern(const Eigen::MatrixXd& J, ContactKinematics& pattern) {
  pattern.touched_velocities.clear();
  pattern.touched_start.assign(1, 0);
  for (Eigen::Index i = 0; i < J.rows(); ++i) {
    for (Eigen::Index j = 0; j < J.cols(); ++j) {
      if (J(i, j) != 0.0) pattern.touched_velocities.push_back(static_cast<int>(j));
    }
    pattern.touched_start.push_back(static_cast<int>(pattern.touched_velocities.size()));
  }
}

}  // namespace

// M is block diagonal over the mechanisms and a row touches only its bodies' velocities, so
// J M⁻¹ Jᵀ is block diagonal over the islands the rows form (contact_islands.hpp), and so is
// equation (1): each island's rows move its own velocities only, by its own blocks of M and J,
// and the velocities no row touches do not move (M⁻¹Jᵀ is exactly zero there). Four towers
// apart are four small solves, not one four times as large (the dense LLT and LU grow with the
// cube of the model).
Eigen::VectorXd kinetic_metric_correction(SystemEvaluation& evaluation, const Eigen::VectorXd& q,
                                          const Eigen::MatrixXd& J,
                                          const Eigen::VectorXd& residual) {
  const Eigen::MatrixXd& M = mass_matrix_at(evaluation, q);
  const Mechanisms& mechanisms = mechanisms_of(evaluation, M);
  ContactKinematics pattern;
  row_pattern(J, pattern);
  ContactIslands islands;
  find_contact_islands(pattern, std::vector<bool>(static_cast<std::size_t>(J.rows()), true),
                       mechanisms.of_velocity, islands);
  if (islands.count == 1 && static_cast<Eigen::Index>(islands.velocities.size()) == M.rows() &&
      static_cast<Eigen::Index>(islands.contacts.size()) == J.rows()) {
    return dense_correction(M, J, residual);
  }
  Eigen::VectorXd correction = Eigen::VectorXd::Zero(M.rows());
  for (int i = 0; i < islands.count; ++i) {
    const auto island = static_cast<std::size_t>(i);
    const auto rows = std::span(islands.contacts.begin() + islands.contact_start[island],
                                islands.contacts.begin() + islands.contact_start[island + 1]);
    const auto velocities =
        std::span(islands.velocities.begin() + islands.velocity_start[island],
                  islands.velocities.begin() + islands.velocity_start[island + 1]);
    const Eigen::VectorXd island_correction =
        dense_correction(M(velocities, velocities), J(rows, velocities), residual(rows));
    correction(velocities) = island_correction;
  }
  return correction;
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
    move_onto_held_gaps(evaluation, modes, held, q, v);
    if (!hold_sunk_open_contacts(evaluation, modes, gap, q, v, held)) break;
  }
  project_velocity_onto_closed_contacts(evaluation, modes, q, v);
  return true;
}

}  // namespace routh
