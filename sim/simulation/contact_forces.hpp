#pragma once
// Acceleration-level contact forces for given contact modes (the first stage of a step). With the
// closed contacts' rows J_c and the force directions W (per sticking contact the columns J_nᵀ,
// J_tᵀ; per sliding contact the single column J_nᵀ − μd σ J_tᵀ, Coulomb's law with the slip
// direction σ),
//     M v̇ = f + W λ,      J_c v̇ + J̇_c v = 0   (closed contacts keep a_n = 0, sticking ones a_t =
//     0),
// so (J_c M⁻¹ W) λ = −(J_c M⁻¹ f + J̇_c v). The matrix is square. It is singular but consistent
// when the contacts are statically indeterminate (more constraint rows than the bodies have
// degrees of freedom; the minimum-norm forces are taken), and inconsistent in Painlevé's
// configurations (friction too large for a sliding contact to stay closed). The solution is valid
// while λ_n ≥ 0 for every closed contact and |λ_t| ≤ μs λ_n for every sticking one; the simulator
// watches both as witness functions.
//
// Spatial contacts (three rows: n, t1, t2) stick with three unknowns and slide with one, along
// J_nᵀ − μd (û₁ J_t1ᵀ + û₂ J_t2ᵀ), û their slip direction at the state (slip_reference.hpp).
// Their indeterminate sets are distributed by spatial_static_friction.hpp, the quadratic cone's
// rule; the planar distribution below is for planar contacts only.
//
// Statically indeterminate sticking sets. The minimum-norm split decides nothing physical: a
// block flat on two corners sticks while SOME split lies inside both cones (|ΣF_t| ≤ μs ΣN), not
// only the minimum-norm one. So when the force-free part of the null space of J_c M⁻¹ W (the
// distributions N with W N = 0, which move no body) touches a sticking contact, the forces
// reported are the distribution of static_friction.hpp, which keeps every cone with the largest
// margin relative to the loads, and each member's ContactForce::stick_reserve is that set's
// reserve R (the set's slip witness). The force-free directions of a stack fall apart into
// independent sets, one per interface (two corners of a block on the face below share their
// friction, and no other contact's): too many for one distribution, they are distributed set by
// set. The accelerations are those of the minimum-norm forces, unchanged:
// W N z = 0. Which directions are force-free: when every closed contact sticks, W = J_cᵀ and
// A = J_c M⁻¹ J_cᵀ, so A z = 0 ⇔ |L⁻¹ J_cᵀ z|² = zᵀ A z = 0 ⇔ W z = 0 (M = L Lᵀ): the whole null
// space. With sliding contacts in the set, W ≠ J_cᵀ and null directions of A may move a body
// (two sliding contacts of unequal μd: shifting load between them changes the net friction);
// those keep the minimum-norm choice, and only the force-free ones, ker(W N_A), are distributed.

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <limits>
#include <vector>

#include "sim/dynamics/mechanical_system.hpp"
#include "sim/simulation/contact_islands.hpp"
#include "sim/simulation/contact_mode.hpp"
#include "sim/static_friction.hpp"

namespace routh {

/// Per contact: the normal and tangential force [N] (zero for open contacts).
struct ContactForce {
  double normal = 0.0;
  double tangential = 0.0;  ///< along the (first) tangential row
  /// Along the second tangential row, of a spatial contact (0 for a planar one).
  double tangential_2 = 0.0;
  /// A spatial sliding contact's unit slip direction û in its (t1, t2) frame, the one its
  /// friction −μd λ_n û opposed in this solve (slip_reference.hpp); zero for the others.
  Eigen::Vector2d slip = Eigen::Vector2d::Zero();
  /// Whether this force is part of an indeterminate set's distribution (static_friction.hpp):
  /// then a sticking contact's slip is watched through the set's stick_reserve, not through its
  /// own μs λ_n − |λ_t|.
  bool in_indeterminate_set = false;
  /// R of that set (static_friction.hpp (2)) [N], when in_indeterminate_set; +∞ otherwise.
  double stick_reserve = std::numeric_limits<double>::infinity();
};

/// The outcome of the solve for one state.
struct ConstrainedAcceleration {
  Eigen::VectorXd acceleration;      ///< v̇ [m/s², rad/s²]
  std::vector<ContactForce> forces;  ///< per contact
  bool consistent = true;            ///< false when J_c M⁻¹ W is singular (Painlevé)
  /// R of the contacts in_indeterminate_set (static_friction.hpp (2)) [N]: > 0 while some force
  /// distribution keeps all of them in their cones, < 0 when none does; +∞ when there is no such
  /// set, or when its normal forces cannot all be ≥ 0 (then a λ_n is ≤ 0: lift-off decides). Of
  /// several independent sets (the interfaces of a stack), the least of theirs.
  double stick_reserve = std::numeric_limits<double>::infinity();
};

/// Per contact, the unit slip direction û (t1, t2) a spatial `slide` contact's friction opposes
/// at the state solved for (slip_reference.hpp); read for those contacts only.
using SlipDirections = std::vector<Eigen::Vector2d>;

/// One island's share of a solve (contact_islands.hpp), gathered as a system of its own.
struct IslandProblem {
  ContactKinematics kinematics;  ///< its contacts' rows, in its velocities' columns
  std::vector<ContactMode> modes;
  SlipDirections slips;
  ContactParameterTable parameters;
  Eigen::MatrixXd inverse_mass;  ///< its block of M⁻¹
  ConstrainedAcceleration out;   ///< its v̇ (M⁻¹ f on entry) and forces
};

/// Scratch of the contact-force solve, reused between calls: no allocation once sized for the
/// current modes. Any number of closed contacts (a stack of twenty blocks closes forty); the
/// static-friction distribution of an indeterminate set (static_friction.hpp) is for sets of up
/// to kInlineContacts contacts, 24 force unknowns and kMaxIndeterminacy directions. Beyond that,
/// the independent sets the force-free directions split into are distributed one by one (with
/// allocation); one of those beyond it keeps its minimum-norm forces, each sticking contact
/// watched through its own cone.
struct ContactForceWorkspace {
  bool constant_mass_matrix = false;     ///< the system's M is the same at every q
  Eigen::MatrixXd inverted_mass_matrix;  ///< the M that `inverse_mass` inverts
  Mechanisms mechanisms;                 ///< of that M (contact_islands.hpp)
  std::vector<bool> closed;              ///< per contact, closed in the modes solved for
  ContactIslands islands;                ///< of the closed contacts
  IslandProblem island;                  ///< the island being solved, when there are several
  Eigen::LLT<Eigen::MatrixXd> mass;      ///< M = L Lᵀ
  Eigen::MatrixXd inverse_mass;          ///< M⁻¹
  Eigen::MatrixXd constraint_rows;       ///< J_c
  Eigen::MatrixXd force_directions;      ///< W
  Eigen::MatrixXd inverse_mass_W;        ///< M⁻¹ W
  Eigen::MatrixXd half_solved_W;         ///< G W, with the model's M⁻¹ = Gᵀ G
  Eigen::VectorXd constraint_force;      ///< W λ, then M⁻¹ W λ, with the model's M⁻¹
  Eigen::MatrixXd row_transposed;        ///< J_cᵀ, whose columns are J_c's rows
  std::vector<int> direction_entries, direction_start;  ///< the nonzero pattern of W's columns
  std::vector<int> row_entries, row_start;              ///< and of J_c's rows
  std::vector<int> mass_entries, mass_start;            ///< and of M⁻¹'s columns
  std::vector<int> velocity_rows, velocity_row_start;   ///< the rows of J_c each velocity is in
  std::vector<int> row_mark, coupled_rows;  ///< the rows of A a column may be nonzero in
  std::vector<int> grouping_scratch;        ///< of group_by_label()
  Eigen::VectorXd velocity_product;         ///< J̇_c v of the constrained rows
  Eigen::MatrixXd A;                        ///< J_c M⁻¹ W
  Eigen::VectorXd b;                        ///< −(J_c M⁻¹ f + J̇_c v)
  Eigen::VectorXd lambda;                   ///< the force unknowns
  Eigen::MatrixXd null_basis;               ///< N_A, ker A (no columns when A is regular)
  Eigen::MatrixXd force_free;               ///< N, the force-free part ker(W N_A) of ker A
  SetContacts set_contacts;                 ///< the closed contacts N moves, as the stage sees them
  boost::container::small_vector<int, kInlineContacts> set_members;  ///< their contact indices
  StaticFrictionDistribution distribution;                           ///< the stage's outcome
};

/// Whether any contact is closed: only then does the solve read the contact kinematics.
bool any_closed(const std::vector<ContactMode>& modes);

/// What constrained_acceleration() reads of the system at one state: M⁻¹ as the model's
/// operator when `model_inverts_mass` (MechanicalSystem::applies_inverse_mass()), else M.
inline QuantityRequest constrained_acceleration_needs(const std::vector<ContactMode>& modes,
                                                      bool model_inverts_mass = false) {
  return {.mass_matrix = !model_inverts_mass,
          .inverse_mass = model_inverts_mass,
          .generalized_force = true,
          .contacts = any_closed(modes)};
}

/// Solves for v̇ and the contact forces of the closed contacts in the given modes at one state,
/// from the system's quantities there (those constrained_acceleration_needs(modes) names): with
/// the model's M⁻¹ (StateQuantities::inverse_mass) when it gives one, else from M.
/// `parameters` holds μd per contact (only sliding contacts use it); `slips` the slip directions
/// of spatial sliding contacts (none when no contact is in the mode `slide`).
void constrained_acceleration(const StateQuantities& state, const std::vector<ContactMode>& modes,
                              const ContactParameterTable& parameters,
                              ContactForceWorkspace& workspace, ConstrainedAcceleration& out,
                              const SlipDirections& slips = {});

}  // namespace routh
