#include "sim/simulation/contact_forces.hpp"

#include <Eigen/Cholesky>
#include <Eigen/QR>

namespace routh {

namespace {

// Rows of contact k in the stacked kinematics: normal, then tangential (planar contacts).
int normal_row(int k, ContactDimension dimension) { return k * rows_per_contact(dimension); }

// Counts the constraint rows (= force unknowns) of the closed contacts.
int unknown_count(const std::vector<ContactMode>& modes) {
  int count = 0;
  for (const ContactMode mode : modes)
    count += mode == ContactMode::stick ? 2 : (is_closed(mode) ? 1 : 0);
  return count;
}

// Fills J_c, W and J̇_c v for the closed contacts, in contact order.
void assemble_constraints(const MechanicalSystem& system, const std::vector<ContactMode>& modes,
                          const ContactParameterList& parameters, ContactForceWorkspace& ws) {
  const int n = system.coordinate_count();
  const int unknowns = unknown_count(modes);
  const ContactDimension dimension = system.contact_dimension();
  ws.constraint_rows.resize(unknowns, n);
  ws.force_directions.resize(n, unknowns);
  ws.velocity_product.resize(unknowns);
  int row = 0;
  for (int k = 0; k < static_cast<int>(modes.size()); ++k) {
    if (!is_closed(modes[k])) continue;
    const int r = normal_row(k, dimension);
    const auto J_n = ws.kinematics.jacobian.row(r);
    const auto J_t = ws.kinematics.jacobian.row(r + 1);
    ws.constraint_rows.row(row) = J_n;
    ws.velocity_product[row] = ws.kinematics.jacobian_dot_v[r];
    if (modes[k] == ContactMode::stick) {
      ws.force_directions.col(row) = J_n.transpose();
      ws.constraint_rows.row(row + 1) = J_t;
      ws.velocity_product[row + 1] = ws.kinematics.jacobian_dot_v[r + 1];
      ws.force_directions.col(row + 1) = J_t.transpose();
      row += 2;
    } else {
      // Coulomb sliding: λ_t = −μd σ λ_n, so the one unknown λ_n acts along J_nᵀ − μd σ J_tᵀ.
      const double friction = -parameters[k].kinetic_friction * slip_direction(modes[k]);
      ws.force_directions.col(row) = (J_n + friction * J_t).transpose();
      row += 1;
    }
  }
}

// Distributes the solved unknowns back to per-contact normal and tangential forces.
void scatter_forces(const std::vector<ContactMode>& modes, const ContactParameterList& parameters,
                    const Eigen::VectorXd& lambda, std::vector<ContactForce>& forces) {
  forces.assign(modes.size(), ContactForce{});
  int row = 0;
  for (std::size_t k = 0; k < modes.size(); ++k) {
    if (!is_closed(modes[k])) continue;
    forces[k].normal = lambda[row];
    if (modes[k] == ContactMode::stick) {
      forces[k].tangential = lambda[row + 1];
      row += 2;
    } else {
      forces[k].tangential =
          -parameters[k].kinetic_friction * slip_direction(modes[k]) * lambda[row];
      row += 1;
    }
  }
}

}  // namespace

void constrained_acceleration(const MechanicalSystem& system, double t, const Eigen::VectorXd& q,
                              const Eigen::VectorXd& v, const std::vector<ContactMode>& modes,
                              const ContactParameterList& parameters, ContactForceWorkspace& ws,
                              ConstrainedAcceleration& out) {
  system.mass_matrix(q, ws.M);
  system.generalized_force(t, q, v, ws.f);
  const Eigen::LLT<Eigen::MatrixXd> mass(ws.M);
  out.consistent = true;
  if (unknown_count(modes) == 0) {
    out.acceleration = mass.solve(ws.f);
    out.forces.assign(modes.size(), ContactForce{});
    return;
  }
  system.contact_kinematics(q, v, ws.kinematics);
  assemble_constraints(system, modes, parameters, ws);
  const Eigen::MatrixXd inverse_mass_W = mass.solve(ws.force_directions);
  const Eigen::VectorXd free_acceleration = mass.solve(ws.f);
  const Eigen::MatrixXd A = ws.constraint_rows * inverse_mass_W;
  const Eigen::VectorXd b = -(ws.constraint_rows * free_acceleration + ws.velocity_product);
  // Several closed contacts on one body are statically indeterminate (a block sticking on both
  // corners: four constraint rows, three degrees of freedom): A is singular but the constraints
  // are consistent, and the minimum-norm forces are one valid distribution. Only a residual
  // says the modes cannot hold (Painlevé's paradox).
  const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> decomposition(A);
  const Eigen::VectorXd lambda = decomposition.solve(b);
  constexpr double kConsistency = 1e-9;
  if ((A * lambda - b).norm() > kConsistency * (b.norm() + A.norm() * lambda.norm())) {
    out.consistent = false;
    out.acceleration = free_acceleration;
    out.forces.assign(modes.size(), ContactForce{});
    return;
  }
  out.acceleration = free_acceleration + inverse_mass_W * lambda;
  scatter_forces(modes, parameters, lambda, out.forces);
}

}  // namespace routh
