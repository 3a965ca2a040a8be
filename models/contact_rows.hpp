#pragma once
// Clearing a model's contact Jacobian before it fills it again, shared by the planar tree and the
// spatial bodies (rows_per_contact 2 and 3).

#include <Eigen/Core>

#include "sim/dynamics/mechanical_system.hpp"

namespace routh {

/// J as `rows` × `velocities` zeros. The nonzeros of the last fill are where its pattern
/// (ContactKinematics::touched_velocities) says, so a J of the same shape is cleared there only:
/// zeroing the whole matrix would cost every contact the model's velocities again. The pattern
/// is emptied, for the next fill to note.
inline void clear_contact_rows(Eigen::Index rows, Eigen::Index velocities, int rows_per_contact,
                               ContactKinematics& contacts) {
  Eigen::MatrixXd& J = contacts.jacobian;
  const std::size_t filled = contacts.touched_start.empty() ? 0 : contacts.touched_start.size() - 1;
  if (J.rows() == rows && J.cols() == velocities &&
      static_cast<Eigen::Index>(rows_per_contact * filled) == rows) {
    for (std::size_t k = 0; k < filled; ++k) {
      const auto first_row = static_cast<Eigen::Index>(rows_per_contact * k);
      for (int e = contacts.touched_start[k]; e < contacts.touched_start[k + 1]; ++e) {
        const int j = contacts.touched_velocities[static_cast<std::size_t>(e)];
        J.col(j).segment(first_row, rows_per_contact).setZero();
      }
    }
  } else {
    J.setZero(rows, velocities);
  }
  contacts.touched_velocities.clear();
  contacts.touched_start.assign(1, 0);
}

}  // namespace routh
