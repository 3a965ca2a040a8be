#include "sim/contact_space.hpp"

#include <Eigen/Cholesky>
#include <stdexcept>

#include "sim/text.hpp"

namespace routh {

bool factor_contact_space(const Eigen::MatrixXd& M, const Eigen::MatrixXd& J, ContactSpace& space) {
  if (M.rows() != M.cols() || J.cols() != M.rows()) {
    throw std::invalid_argument(
        cat("J (", J.rows(), "x", J.cols(), ") does not fit M (", M.rows(), "x", M.cols(), ")"));
  }
  const Eigen::LLT<Eigen::MatrixXd> mass_cholesky(M);
  if (mass_cholesky.info() != Eigen::Success) return false;
  space.jacobian = J;
  space.inverse_mass_jacobian_transpose = mass_cholesky.solve(J.transpose());
  return true;
}

void select_contact_rows(const ContactSpace& all, const std::vector<Eigen::Index>& rows,
                         ContactSpace& subset) {
  subset.jacobian = all.jacobian(rows, Eigen::all);
  subset.inverse_mass_jacobian_transpose = all.inverse_mass_jacobian_transpose(Eigen::all, rows);
}

ContactMatrix contact_space_inertia(const ContactSpace& space) {
  const Eigen::MatrixXd D = space.jacobian * space.inverse_mass_jacobian_transpose;
  return 0.5 * (D + D.transpose());
}

Eigen::VectorXd generalized_velocity_change(const ContactSpace& space,
                                            const ContactVector& impulse) {
  return space.inverse_mass_jacobian_transpose * impulse;
}

ImpactProblem generalized_impact_problem(const ContactSpace& space, const Eigen::VectorXd& v,
                                         ContactDimension dimension,
                                         const ContactParameterList& contacts) {
  ImpactProblem problem;
  problem.dimension = dimension;
  problem.D = contact_space_inertia(space);
  problem.u_pre = space.jacobian * v;
  problem.contacts = contacts;
  return problem;
}

double kinetic_energy_change(const ContactMatrix& D, const ContactVector& u_pre,
                             const ContactVector& impulse) {
  return impulse.dot(u_pre) + 0.5 * impulse.dot(D * impulse);
}

double kinetic_energy(const Eigen::MatrixXd& M, const Eigen::VectorXd& v) {
  return 0.5 * v.dot(M * v);
}

}  // namespace routh
