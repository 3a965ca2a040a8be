#include "sim/simulation/slip_reference.hpp"

#include <algorithm>
#include <cmath>

namespace routh {

Eigen::Vector2d spatial_slip(const ContactKinematics& kinematics, int k, const Eigen::VectorXd& v) {
  return {contact_row_product(kinematics, 3, 3 * k + 1, v),
          contact_row_product(kinematics, 3, 3 * k + 2, v)};
}

Eigen::Vector2d sliding_direction(const Eigen::Vector2d& slip, const Eigen::Vector2d& reference) {
  if (slip.dot(reference) > kSlipDirectionResolution) return slip.normalized();
  return reference;
}

void slip_directions_at(const ContactKinematics& kinematics, const std::vector<ContactMode>& modes,
                        const std::vector<int>& model_index,
                        const std::vector<Eigen::Vector2d>& reference,
                        const std::vector<bool>& aligned, const Eigen::VectorXd& v,
                        SlipDirections& slips) {
  slips.clear();
  if (std::find(modes.begin(), modes.end(), ContactMode::slide) == modes.end()) return;
  slips.assign(modes.size(), Eigen::Vector2d::Zero());
  for (std::size_t k = 0; k < modes.size(); ++k) {
    if (modes[k] != ContactMode::slide) continue;
    const auto m = static_cast<std::size_t>(model_index[k]);
    slips[k] = aligned[m] ? reference[m]
                          : sliding_direction(spatial_slip(kinematics, static_cast<int>(k), v),
                                              reference[m]);
  }
}

Eigen::Vector2d slip_of(const ContactKinematics& kinematics, int rows_per_contact, int k,
                        const Eigen::VectorXd& v) {
  if (rows_per_contact > 2) return spatial_slip(kinematics, k, v);
  return {tangential_velocity(kinematics, rows_per_contact, k, v), 0.0};
}

ContactMode slide_along(SystemEvaluation& evaluation, int k, const Eigen::Vector2d& direction) {
  if (evaluation.rows_per_contact == 2)
    return direction[0] > 0.0 ? ContactMode::slide_positive : ContactMode::slide_negative;
  const auto m = static_cast<std::size_t>(evaluation.active[static_cast<std::size_t>(k)]);
  evaluation.slip_reference[m] = direction.normalized();
  evaluation.slip_aligned[m] = false;
  return ContactMode::slide;
}

Eigen::Vector2d mode_direction(const SystemEvaluation& evaluation, int k, ContactMode mode) {
  if (mode == ContactMode::slide)
    return evaluation
        .slip_reference[static_cast<std::size_t>(evaluation.active[static_cast<std::size_t>(k)])];
  return {slip_direction(mode), 0.0};
}

namespace {

// Whether active contact k, aligned in the latest solve, relaxes faster than `time`:
// |u_t| < |∂c/∂θ| time (aligned_slip.hpp).
bool relaxes_within(const SlipAlignment& alignment, int k, const Eigen::Vector2d& slip,
                    double time) {
  if (!alignment.aligned) return false;
  for (Eigen::Index i = 0; i < alignment.contacts.size(); ++i) {
    if (alignment.contacts[i] == k) return slip.norm() < std::abs(alignment.jacobian(i, i)) * time;
  }
  return false;
}

}  // namespace

SlipRefresh refresh_slip_references(SystemEvaluation& evaluation, double t,
                                    const std::vector<ContactMode>& modes, const Eigen::VectorXd& q,
                                    const Eigen::VectorXd& v) {
  const auto model_contact = [&](int k) {
    return static_cast<std::size_t>(evaluation.active[static_cast<std::size_t>(k)]);
  };
  if (std::find(modes.begin(), modes.end(), ContactMode::slide) == modes.end())
    return SlipRefresh::unchanged;
  // slow slips that follow their direction are tried aligned: kept so if they relax fast
  std::vector<int>& tried = evaluation.realignment_candidates;
  tried.clear();
  bool any_aligned = false;
  const ContactKinematics* kinematics = &contacts_at(evaluation, q, v, modes);
  for (int k = 0; k < evaluation.contacts; ++k) {
    if (modes[static_cast<std::size_t>(k)] != ContactMode::slide) continue;
    std::vector<bool>::reference aligned = evaluation.slip_aligned[model_contact(k)];
    if (!aligned && spatial_slip(*kinematics, k, v).norm() < kSlowSlip) {
      tried.push_back(k);
      aligned = true;
    }
    any_aligned = any_aligned || aligned;
  }
  // the aligned contacts' roots at (q, v) come with a force solve, which evaluates the
  // kinematics again
  const ConstrainedAcceleration* dynamics = nullptr;
  if (any_aligned) {
    dynamics = &dynamics_at(evaluation, t, q, v, modes);
    kinematics = &evaluation.quantities.contacts;
  }
  bool changed = false, reversed = false;
  for (int k = 0; k < evaluation.contacts; ++k) {
    if (modes[static_cast<std::size_t>(k)] != ContactMode::slide) continue;
    const auto m = model_contact(k);
    const Eigen::Vector2d slip = spatial_slip(*kinematics, k, v);
    Eigen::Vector2d& reference = evaluation.slip_reference[m];
    if (evaluation.slip_aligned[m]) {
      // an aligned contact is released once it relaxes slower than kSlipRelaxationTime (or no
      // root was found); a following one is aligned once it relaxes faster than
      // kSlipRealignmentTime
      const bool was_aligned = std::find(tried.begin(), tried.end(), k) == tried.end();
      const Eigen::Vector2d& root = dynamics->forces[static_cast<std::size_t>(k)].slip;
      // a slip that relaxes fast points at its root already; one far from it is not slaved
      const bool stays =
          was_aligned ? relaxes_within(evaluation.slip_alignment, k, slip, kSlipRelaxationTime)
                      : relaxes_within(evaluation.slip_alignment, k, slip, kSlipRealignmentTime) &&
                            root.dot(slip) > std::cos(kRealignmentTurn) * slip.norm();
      if (stays || was_aligned) reference = root;
      evaluation.slip_aligned[m] = stays;
      changed = changed || stays != was_aligned;
    }
    // a contact that follows its slip, or is released, follows it from here
    if (!evaluation.slip_aligned[m]) reference = sliding_direction(slip, reference);
    reversed = reversed || slip.dot(reference) < -kSlipDirectionResolution;
  }
  if (reversed) return SlipRefresh::slip_reversed;
  return changed ? SlipRefresh::dynamics_changed : SlipRefresh::unchanged;
}

}  // namespace routh
