#include "sim/simulation/system_evaluation.hpp"

namespace routh {

SystemEvaluation::SystemEvaluation(const MechanicalSystem& model)
    : system(model),
      coordinates(model.coordinate_count()),
      contacts(model.contact_count()),
      rows_per_contact(routh::rows_per_contact(model.contact_dimension())),
      model_workspace(model.make_workspace()),
      no_velocity(Eigen::VectorXd::Zero(model.coordinate_count())) {}

const ContactKinematics& contacts_at(SystemEvaluation& evaluation, const Eigen::VectorXd& q,
                                     const Eigen::VectorXd& v) {
  evaluation.system.evaluate(0.0, q, v, {.contacts = true}, *evaluation.model_workspace,
                             evaluation.quantities);
  return evaluation.quantities.contacts;
}

const Eigen::MatrixXd& mass_matrix_at(SystemEvaluation& evaluation, const Eigen::VectorXd& q) {
  evaluation.system.evaluate(0.0, q, evaluation.no_velocity, {.mass_matrix = true},
                             *evaluation.model_workspace, evaluation.quantities);
  return evaluation.quantities.mass_matrix;
}

const ConstrainedAcceleration& dynamics_at(SystemEvaluation& evaluation, double t,
                                           const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                           const std::vector<ContactMode>& modes,
                                           const ContactParameterList& parameters) {
  evaluation.system.evaluate(t, q, v, constrained_acceleration_needs(modes),
                             *evaluation.model_workspace, evaluation.quantities);
  constrained_acceleration(evaluation.quantities, modes, parameters, evaluation.force_workspace,
                           evaluation.dynamics);
  return evaluation.dynamics;
}

Energy energy_at(SystemEvaluation& evaluation, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  evaluation.system.evaluate(0.0, q, v, {.mass_matrix = true, .potential_energy = true},
                             *evaluation.model_workspace, evaluation.quantities);
  // lazy: M v would be a heap temporary per sample
  return {0.5 * v.dot(evaluation.quantities.mass_matrix.lazyProduct(v)),
          evaluation.quantities.potential_energy};
}

}  // namespace routh
