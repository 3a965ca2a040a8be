#include "sim/simulation/slip_reference.hpp"

#include <algorithm>

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
                        const std::vector<Eigen::Vector2d>& reference, const Eigen::VectorXd& v,
                        SlipDirections& slips) {
  slips.clear();
  if (std::find(modes.begin(), modes.end(), ContactMode::slide) == modes.end()) return;
  slips.assign(modes.size(), Eigen::Vector2d::Zero());
  for (std::size_t k = 0; k < modes.size(); ++k) {
    if (modes[k] != ContactMode::slide) continue;
    slips[k] = sliding_direction(spatial_slip(kinematics, static_cast<int>(k), v),
                                 reference[static_cast<std::size_t>(model_index[k])]);
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
  evaluation
      .slip_reference[static_cast<std::size_t>(evaluation.active[static_cast<std::size_t>(k)])] =
      direction.normalized();
  return ContactMode::slide;
}

Eigen::Vector2d mode_direction(const SystemEvaluation& evaluation, int k, ContactMode mode) {
  if (mode == ContactMode::slide)
    return evaluation
        .slip_reference[static_cast<std::size_t>(evaluation.active[static_cast<std::size_t>(k)])];
  return {slip_direction(mode), 0.0};
}

void refresh_slip_references(SystemEvaluation& evaluation, const std::vector<ContactMode>& modes,
                             const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  if (std::find(modes.begin(), modes.end(), ContactMode::slide) == modes.end()) return;
  const ContactKinematics& kinematics = contacts_at(evaluation, q, v, modes);
  for (int k = 0; k < evaluation.contacts; ++k) {
    if (modes[static_cast<std::size_t>(k)] != ContactMode::slide) continue;
    Eigen::Vector2d& reference = evaluation.slip_reference[static_cast<std::size_t>(
        evaluation.active[static_cast<std::size_t>(k)])];
    reference = sliding_direction(spatial_slip(kinematics, k, v), reference);
  }
}

}  // namespace routh
