#include "sim/simulation/system_evaluation.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "sim/simulation/slip_reference.hpp"
#include "sim/text.hpp"

namespace routh {

SystemEvaluation::SystemEvaluation(const MechanicalSystem& model,
                                   ContactParameterTable all_parameters_)
    : system(model),
      coordinates(model.coordinate_count()),
      velocities(model.velocity_count()),
      all_contacts(model.contact_count()),
      constant_mass_matrix(model.constant_mass_matrix()),
      contacts(0),
      all_parameters(std::move(all_parameters_)),
      rows_per_contact(routh::rows_per_contact(model.contact_dimension())),
      model_workspace(model.make_workspace()),
      slip_reference(static_cast<std::size_t>(model.contact_count()), Eigen::Vector2d::Zero()),
      slip_aligned(static_cast<std::size_t>(model.contact_count()), false),
      no_velocity(Eigen::VectorXd::Zero(model.velocity_count())) {
  if (static_cast<int>(all_parameters.size()) != all_contacts) {
    throw std::invalid_argument(cat("system evaluation: ", all_parameters.size(),
                                    " contact parameter sets for ", all_contacts, " contacts"));
  }
  force_workspace.constant_mass_matrix = constant_mass_matrix;
  std::vector<int> every(static_cast<std::size_t>(all_contacts));
  std::iota(every.begin(), every.end(), 0);
  select_contacts(*this, every);
}

void select_contacts(SystemEvaluation& evaluation, const std::vector<int>& active) {
  evaluation.active = active;
  evaluation.contacts = static_cast<int>(active.size());
  evaluation.parameters.clear();
  for (const int k : active) {
    evaluation.parameters.push_back(evaluation.all_parameters[static_cast<std::size_t>(k)]);
  }
}

QuantityRequest restricted(const SystemEvaluation& evaluation, QuantityRequest request) {
  // every contact active: the model's own order, no subset to follow
  if (evaluation.contacts != evaluation.all_contacts) request.contact_subset = &evaluation.active;
  return request;
}

void evaluate_into(SystemEvaluation& evaluation, double t, const Eigen::VectorXd& q,
                   const Eigen::VectorXd& v, QuantityRequest request, StateQuantities& out) {
  // Only the model writes `out`, so an M of the right size there is the constant M. Copying it
  // at every evaluation of the dynamics was a sixth of a 50-sphere pile's run (300 × 300).
  if (evaluation.constant_mass_matrix && out.mass_matrix.rows() == evaluation.velocities)
    request.mass_matrix = false;
  evaluation.system.evaluate(t, q, v, request, *evaluation.model_workspace, out);
}

const ContactKinematics& contacts_at(SystemEvaluation& evaluation, const Eigen::VectorXd& q,
                                     const Eigen::VectorXd& v) {
  evaluation.system.evaluate(0.0, q, v, restricted(evaluation, {.contacts = true}),
                             *evaluation.model_workspace, evaluation.quantities);
  return evaluation.quantities.contacts;
}

namespace {

// `request` with the contacts closed in `modes` held: their surfaces go on past their ends until
// their support witnesses open them.
QuantityRequest holding_closed(SystemEvaluation& evaluation, QuantityRequest request,
                               const std::vector<ContactMode>& modes) {
  evaluation.held.assign(modes.size(), false);
  for (std::size_t k = 0; k < modes.size(); ++k) evaluation.held[k] = is_closed(modes[k]);
  request = restricted(evaluation, request);
  request.held_contacts = &evaluation.held;
  return request;
}

// The forces of `modes` at the state `quantities` describe (`model_index[k]` is contact k's
// index in the model), each spatial slide opposing its slip direction (slip_reference.hpp),
// aligned with its acceleration where it slips slowly from rest (aligned_slip.hpp).
void solve_forces(SystemEvaluation& evaluation, const StateQuantities& quantities,
                  const std::vector<ContactMode>& modes, const std::vector<int>& model_index,
                  const ContactParameterTable& parameters, const Eigen::VectorXd& v,
                  ConstrainedAcceleration& out) {
  slip_directions_at(quantities.contacts, modes, model_index, evaluation.slip_reference,
                     evaluation.slip_aligned, v, evaluation.slips);
  constrained_acceleration(quantities, modes, parameters, evaluation.force_workspace, out,
                           evaluation.slips);
  align_slow_slips(quantities, modes, model_index, evaluation.slip_aligned, parameters,
                   evaluation.force_workspace, evaluation.slip_alignment, out, evaluation.slips);
}

}  // namespace

const ContactKinematics& contacts_at(SystemEvaluation& evaluation, const Eigen::VectorXd& q,
                                     const Eigen::VectorXd& v,
                                     const std::vector<ContactMode>& modes) {
  const QuantityRequest request = holding_closed(evaluation, {.contacts = true}, modes);
  evaluation.system.evaluate(0.0, q, v, request, *evaluation.model_workspace,
                             evaluation.quantities);
  return evaluation.quantities.contacts;
}

const ContactKinematics& one_contact_at(SystemEvaluation& evaluation, int k,
                                        const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                        bool held) {
  evaluation.one_contact.assign(1, evaluation.active[static_cast<std::size_t>(k)]);
  evaluation.one_contact_held.assign(1, held);
  evaluation.system.evaluate(0.0, q, v,
                             {.contacts = true,
                              .contact_subset = &evaluation.one_contact,
                              .held_contacts = &evaluation.one_contact_held},
                             *evaluation.model_workspace, evaluation.one_contact_quantities);
  return evaluation.one_contact_quantities.contacts;
}

const Eigen::MatrixXd& mass_matrix_at(SystemEvaluation& evaluation, const Eigen::VectorXd& q) {
  evaluate_into(evaluation, 0.0, q, evaluation.no_velocity, {.mass_matrix = true},
                evaluation.quantities);
  return evaluation.quantities.mass_matrix;
}

const Mechanisms& mechanisms_of(SystemEvaluation& evaluation, const Eigen::MatrixXd& mass_matrix) {
  if (!evaluation.constant_mass_matrix ||
      static_cast<int>(evaluation.mechanisms.of_velocity.size()) != evaluation.velocities)
    find_mechanisms(mass_matrix, evaluation.mechanisms);
  return evaluation.mechanisms;
}

const ConstrainedAcceleration& dynamics_at(SystemEvaluation& evaluation, double t,
                                           const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                           const std::vector<ContactMode>& modes) {
  const QuantityRequest request = holding_closed(
      evaluation, constrained_acceleration_needs(modes, evaluation.system.applies_inverse_mass()),
      modes);
  evaluate_into(evaluation, t, q, v, request, evaluation.quantities);
  solve_forces(evaluation, evaluation.quantities, modes, evaluation.active, evaluation.parameters,
               v, evaluation.dynamics);
  return evaluation.dynamics;
}

void closed_island_of(SystemEvaluation& evaluation, const Eigen::VectorXd& q,
                      const Eigen::VectorXd& v, const std::vector<ContactMode>& modes, int k,
                      std::vector<int>& island) {
  island.assign(1, k);
  if (!is_closed(modes[static_cast<std::size_t>(k)])) return;
  const Mechanisms& mechanisms = mechanisms_of(evaluation, mass_matrix_at(evaluation, q));
  evaluation.closed.assign(modes.size(), false);
  for (std::size_t c = 0; c < modes.size(); ++c) evaluation.closed[c] = is_closed(modes[c]);
  ContactIslands& islands = evaluation.islands;
  find_contact_islands(contacts_at(evaluation, q, v), evaluation.closed, mechanisms.of_velocity,
                       islands);
  for (int i = 0; i < islands.count; ++i) {
    const auto first =
        islands.contacts.begin() + islands.contact_start[static_cast<std::size_t>(i)];
    const auto end =
        islands.contacts.begin() + islands.contact_start[static_cast<std::size_t>(i) + 1];
    if (std::binary_search(first, end, k)) {
      island.assign(first, end);
      return;
    }
  }
}

const ConstrainedAcceleration& island_dynamics_at(SystemEvaluation& evaluation, double t,
                                                  const Eigen::VectorXd& q,
                                                  const Eigen::VectorXd& v,
                                                  const std::vector<ContactMode>& modes,
                                                  const std::vector<int>& island) {
  evaluation.island_contacts.clear();
  evaluation.island_modes.clear();
  evaluation.island_parameters.clear();
  evaluation.island_held.clear();
  for (const int k : island) {
    const auto c = static_cast<std::size_t>(k);
    evaluation.island_contacts.push_back(evaluation.active[c]);
    evaluation.island_modes.push_back(modes[c]);
    evaluation.island_parameters.push_back(evaluation.parameters[c]);
    evaluation.island_held.push_back(is_closed(modes[c]));
  }
  QuantityRequest request = constrained_acceleration_needs(
      evaluation.island_modes, evaluation.system.applies_inverse_mass());
  request.contact_subset = &evaluation.island_contacts;
  request.held_contacts = &evaluation.island_held;
  evaluate_into(evaluation, t, q, v, request, evaluation.island_quantities);
  solve_forces(evaluation, evaluation.island_quantities, evaluation.island_modes,
               evaluation.island_contacts, evaluation.island_parameters, v,
               evaluation.island_dynamics);
  return evaluation.island_dynamics;
}

Energy energy_at(SystemEvaluation& evaluation, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  evaluate_into(evaluation, 0.0, q, v, {.mass_matrix = true, .potential_energy = true},
                evaluation.quantities);
  const Eigen::MatrixXd& M = evaluation.quantities.mass_matrix;
  const double potential = evaluation.quantities.potential_energy;
  // a constant M's mechanisms are known once per run; a varying M would be scanned per sample
  if (evaluation.constant_mass_matrix)
    return {0.5 * mass_product(mechanisms_of(evaluation, M), M, v, v), potential};
  // lazy: M v would be a heap temporary per sample
  return {0.5 * v.dot(M.lazyProduct(v)), potential};
}

}  // namespace routh
