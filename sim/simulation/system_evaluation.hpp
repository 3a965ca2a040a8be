#pragma once
// The simulator's view of the system at one state (Pinocchio's Model/Data split): the model is
// read, a SystemEvaluation is written. Every stage of the simulation reads the model through
// the functions below, which evaluate into this one reusable workspace, so that nothing in the
// integration loop allocates once the workspace has its sizes. What an evaluation leaves here is
// valid until the next one: a stage that needs two states copies what it keeps. A constant M
// (MechanicalSystem::constant_mass_matrix()) is copied into each of its StateQuantities at the
// first evaluation that asks for it and kept there: the later ones do not ask the model again.
//
// The contacts it evaluates are the *active* ones: those the model's broad phase finds nearby
// (MechanicalSystem::nearby_contacts), plus every closed or touching one. The stages see only
// these, numbered 0 … contacts − 1 in the order of `active`; a model of K contacts with a few
// near each other costs what those few cost. select_contacts() changes the set between steps.

#include <Eigen/Core>
#include <memory>
#include <vector>

#include "sim/dynamics/mechanical_system.hpp"
#include "sim/simulation/aligned_slip.hpp"
#include "sim/simulation/contact_forces.hpp"
#include "sim/simulation/contact_islands.hpp"
#include "sim/simulation/contact_mode.hpp"
#include "sim/simulation/energy.hpp"

namespace routh {

struct SystemEvaluation {
  /// Every contact active; `all_parameters` holds e, μs, μd per contact of the model.
  SystemEvaluation(const MechanicalSystem& model, ContactParameterTable all_parameters);

  const MechanicalSystem& system;
  const int coordinates;            ///< nq
  const int velocities;             ///< nv, the columns of M and J
  const int all_contacts;           ///< K, the model's contacts
  const bool constant_mass_matrix;  ///< the model's M is the same at every q
  int contacts;                     ///< the active ones, numbered 0 … contacts − 1
  std::vector<int> active;          ///< the model's index of each active contact, ascending
  const ContactParameterTable all_parameters;  ///< per model contact
  ContactParameterTable parameters;            ///< per active contact
  const int rows_per_contact;  ///< contact-space rows per contact: 2 planar, 3 spatial
  std::unique_ptr<SystemWorkspace> model_workspace;
  StateQuantities quantities;  ///< of the latest evaluation (only what it asked for)
  ContactForceWorkspace force_workspace;
  ConstrainedAcceleration dynamics;  ///< v̇ and the contact forces of the latest force solve
  /// Per model contact: the reference slip direction û₀ (t1, t2) of a spatial sliding contact,
  /// the direction parameter of its `slide` mode (slip_reference.hpp). Settling sets it, the loop
  /// moves it on between steps; the force solve reads it where the slip gives no direction.
  std::vector<Eigen::Vector2d> slip_reference;
  /// Per model contact: whether a spatial sliding contact's direction is aligned with its
  /// acceleration (aligned_slip.hpp), as one slipping slowly from rest; else it follows its slip.
  std::vector<bool> slip_aligned;
  SlipAlignment slip_alignment;             ///< scratch: the latest solve's alignment
  std::vector<int> realignment_candidates;  ///< scratch of refresh_slip_references()
  SlipDirections slips;          ///< scratch: the slip directions of the latest force solve
  std::vector<bool> held;        ///< per active contact: closed, in the latest force solve
  std::vector<int> one_contact;  ///< the model index of the contact one_contact_at() evaluates
  std::vector<bool> one_contact_held;      ///< whether one_contact_at() holds it
  StateQuantities one_contact_quantities;  ///< its kinematics, apart from `quantities`
  const Eigen::VectorXd no_velocity;
  // island_dynamics_at(): the island's contacts (model indices), modes, parameters and held
  // flags, and its evaluation, apart from `quantities` and `dynamics`
  std::vector<int> island_contacts;
  std::vector<ContactMode> island_modes;
  ContactParameterTable island_parameters;
  std::vector<bool> island_held;
  StateQuantities island_quantities;
  ConstrainedAcceleration island_dynamics;
  /// M's mechanisms, of the latest mechanisms_of(); found once per run when M is constant.
  Mechanisms mechanisms;
  std::vector<bool> closed;  ///< scratch of closed_island_of()
  ContactIslands islands;    ///< scratch of closed_island_of()
};

/// Makes `active` (model indices, ascending) the evaluated contacts.
void select_contacts(SystemEvaluation& evaluation, const std::vector<int>& active);

/// `request` restricted to the active contacts.
QuantityRequest restricted(const SystemEvaluation& evaluation, QuantityRequest request);

/// The model's `request` at (t, q, v) into `out`, one of evaluation's StateQuantities, whose M
/// stands for a constant M once it holds it: the model is then not asked for M again.
void evaluate_into(SystemEvaluation& evaluation, double t, const Eigen::VectorXd& q,
                   const Eigen::VectorXd& v, QuantityRequest request, StateQuantities& out);

/// Gaps, Jacobians and J̇v of every active contact at (q, v) (they do not depend on t).
const ContactKinematics& contacts_at(SystemEvaluation& evaluation, const Eigen::VectorXd& q,
                                     const Eigen::VectorXd& v);
/// As above, but the contacts closed in `modes` held (QuantityRequest::held_contacts): the rows
/// dynamics_at() solves with for the same modes. They differ from the open rows only for a
/// vertex past its edge's end (there the open normal row is the gradient of its distance beyond
/// the end, another direction), so that settling reads the closed contacts' slips and
/// accelerations, and projects v, on the rows the force solve constrains.
const ContactKinematics& contacts_at(SystemEvaluation& evaluation, const Eigen::VectorXd& q,
                                     const Eigen::VectorXd& v,
                                     const std::vector<ContactMode>& modes);
/// The kinematics of active contact k alone at (q, v), as contacts_at() gives them for k (row 0
/// of the result; `quantities` is left as it was): event location follows one contact's gap
/// through a step, and a model of many contacts evaluates that one only. A `held` contact's
/// surface goes on past its end, as dynamics_at() holds a closed contact's.
const ContactKinematics& one_contact_at(SystemEvaluation& evaluation, int k,
                                        const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                        bool held = false);
/// M(q) (it depends on neither t nor v).
const Eigen::MatrixXd& mass_matrix_at(SystemEvaluation& evaluation, const Eigen::VectorXd& q);
/// The mechanisms (contact_islands.hpp) of `mass_matrix`, M at the state in question: found
/// from it, or, when M is constant, the ones found once per run (a scan of a 50-sphere pile's
/// 300 × 300 M at every impact and settling was 3 % of its run).
const Mechanisms& mechanisms_of(SystemEvaluation& evaluation, const Eigen::MatrixXd& mass_matrix);
/// v̇ and the forces of the closed contacts in `modes` at (t, q, v) (contact_forces.hpp); the
/// contact kinematics of the state are left in evaluation.quantities.contacts when any contact
/// is closed.
const ConstrainedAcceleration& dynamics_at(SystemEvaluation& evaluation, double t,
                                           const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                           const std::vector<ContactMode>& modes);
/// The island of active contact k among the closed contacts of `modes` (contact_islands.hpp): the
/// closed contacts joined to it through closed contacts and the mechanisms of M, ascending, into
/// `island` (k alone for an open contact). From the contacts' patterns at (q, v).
void closed_island_of(SystemEvaluation& evaluation, const Eigen::VectorXd& q,
                      const Eigen::VectorXd& v, const std::vector<ContactMode>& modes, int k,
                      std::vector<int>& island);
/// dynamics_at() for the active contacts `island` alone (ascending; an island of the closed
/// contacts in `modes`, or a union of such): the forces of island[i] in forces[i]. They are those
/// dynamics_at() gives the whole set, to the last digit, since the force solve works island by
/// island (contact_forces.hpp), while the contact kinematics cost the island's contacts only.
/// Left in evaluation.island_dynamics; `quantities` and `dynamics` are left as they were.
const ConstrainedAcceleration& island_dynamics_at(SystemEvaluation& evaluation, double t,
                                                  const Eigen::VectorXd& q,
                                                  const Eigen::VectorXd& v,
                                                  const std::vector<ContactMode>& modes,
                                                  const std::vector<int>& island);
/// Kinetic ½ vᵀMv and potential energy at (q, v).
Energy energy_at(SystemEvaluation& evaluation, const Eigen::VectorXd& q, const Eigen::VectorXd& v);

/// Whether contact k touches: its gap is within `contact_distance` [m]. (Past the end of an edge
/// a corner's gap is its distance from the edge, so it touches nothing there; a disk's gap is its
/// distance from the edge's end corner, which it may touch.)
inline bool is_touching(const ContactKinematics& kinematics, int k, double contact_distance) {
  return kinematics.gap[k] <= contact_distance;
}

/// Contact k's normal velocity u_n = J_n v [m/s] (< 0 approaching).
inline double normal_velocity(const ContactKinematics& kinematics, int rows_per_contact, int k,
                              const Eigen::VectorXd& v) {
  return contact_row_product(kinematics, rows_per_contact, k * rows_per_contact, v);
}
/// Contact k's (first) tangential velocity u_t = J_t v [m/s], its slip.
inline double tangential_velocity(const ContactKinematics& kinematics, int rows_per_contact, int k,
                                  const Eigen::VectorXd& v) {
  return contact_row_product(kinematics, rows_per_contact, k * rows_per_contact + 1, v);
}
/// Contact k's normal or tangential acceleration a = J v̇ + J̇ v at `row` (0 normal, 1 tangential).
inline double contact_acceleration(const ContactKinematics& kinematics, int rows_per_contact, int k,
                                   int row, const Eigen::VectorXd& acceleration) {
  const int r = k * rows_per_contact + row;
  return contact_row_product(kinematics, rows_per_contact, r, acceleration) +
         kinematics.jacobian_dot_v[r];
}
/// Contact k's tangential acceleration (a_t1, a_t2) [m/s²]; a planar contact's second is 0.
inline Eigen::Vector2d tangential_acceleration(const ContactKinematics& kinematics,
                                               int rows_per_contact, int k,
                                               const Eigen::VectorXd& acceleration) {
  Eigen::Vector2d a = Eigen::Vector2d::Zero();
  for (int r = 1; r < rows_per_contact; ++r)
    a[r - 1] = contact_acceleration(kinematics, rows_per_contact, k, r, acceleration);
  return a;
}

}  // namespace routh
