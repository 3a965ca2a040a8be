#pragma once
// What the simulator knows of a multibody system (docs/simulation.md): the dynamics
//     M(q) v̇ = f(q, v, t) + Σ_k J_k(q)ᵀ λ_k,      q̇ = N(q) v,
// with nq coordinates q and nv velocities v (nq ≠ nv for a body whose orientation is a unit
// quaternion: 4 numbers for 3 angular velocities), and, per contact k, a gap g_k(q) ≥ 0 with
// contact velocity u_k = J_k(q) v, normal row first, then the tangential row(s). M is nv × nv and
// J_k has nv columns: every quantity the simulator solves for lives in velocity space. A planar
// system keeps the defaults below (nq = nv, q̇ = v, q ⊕ δv = q + δv), and the simulator moves q
// only through position_rate(), integrate() and normalize(). Models (models/) implement this;
// the simulator, the impact laws and the recorder never see a particular model.
//
// Model and workspace (Pinocchio's Model/Data, MuJoCo's mjModel/mjData): a model is immutable
// after construction; the scratch of its computations lives in a SystemWorkspace that the model
// makes and the caller owns, one per simulation (or thread). evaluate() computes every requested
// quantity at one state in one pass over the model, and, once the workspace and the outputs have
// their sizes, without touching the heap: the simulator evaluates a state tens of thousands of
// times per run. The one-off queries below it make a workspace per call, for setup and checks.

#include <Eigen/Core>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "sim/impact/impact_problem.hpp"

namespace routh {

class MechanicalSystem;

/// The units of the rates of quantities in `units`: each per second ("m" → "m/s").
inline std::vector<std::string> rate_units(const std::vector<std::string>& units) {
  std::vector<std::string> rates;
  for (const std::string& unit : units) rates.push_back(unit + "/s");
  return rates;
}

/// The contact quantities of every contact at one state, stacked contact by contact.
struct ContactKinematics {
  Eigen::VectorXd gap;             ///< g_k(q) [m], one per contact; > 0 apart, 0 touching
  Eigen::MatrixXd jacobian;        ///< rows_per_contact·K × n: J_k, normal row first
  Eigen::VectorXd jacobian_dot_v;  ///< rows_per_contact·K: J̇_k(q, v) v [m/s²], the velocity
                                   ///< product in the contact acceleration a_k = J_k v̇ + J̇_k v
  /// Per contact [m]: how far the contact point may still slide along the surface it touches
  /// before it leaves it (a corner reaching the end of another body's edge): > 0 while supported,
  /// ≤ 0 once off the end. +∞ for surfaces without an end (a floor, a disk). Its crossing from
  /// > 0 to ≤ 0 while the contact is closed is the event "slides off the end"; whether a contact
  /// may close goes by its gap alone: a disk rolled past the end of an edge touches the corner
  /// there with support ≤ 0 (models/planar/contact_pair_kinematics.hpp).
  Eigen::VectorXd support;
  /// Per contact, the velocities its rows may be nonzero in, ascending: contact k's are
  /// touched_velocities[touched_start[k]] … [touched_start[k + 1] − 1] (its two bodies', with
  /// their ancestors' in a tree). J is zero outside them, so that a row's product costs its
  /// contact's bodies, not the model (contact_row_product()). A system that does not know
  /// lists every velocity for every contact (touch_every_velocity()).
  std::vector<int> touched_velocities;
  std::vector<int> touched_start;
};

/// Contact k's support [m] from a per-contact `support` (ContactKinematics::support, or a sample
/// of it): +∞ where the system gives none, as for surfaces without an end.
inline double support_at(const Eigen::VectorXd& support, Eigen::Index k) {
  return support.size() == 0 ? std::numeric_limits<double>::infinity() : support[k];
}

/// The pattern of a dense J: every contact touches every velocity.
inline void touch_every_velocity(ContactKinematics& kinematics) {
  const auto n = static_cast<int>(kinematics.jacobian.cols());
  const auto contacts = static_cast<int>(kinematics.gap.size());
  kinematics.touched_velocities.resize(static_cast<std::size_t>(n) *
                                       static_cast<std::size_t>(contacts));
  kinematics.touched_start.resize(static_cast<std::size_t>(contacts) + 1);
  for (int k = 0; k <= contacts; ++k) kinematics.touched_start[static_cast<std::size_t>(k)] = k * n;
  for (std::size_t i = 0; i < kinematics.touched_velocities.size(); ++i)
    kinematics.touched_velocities[i] = static_cast<int>(i % static_cast<std::size_t>(n));
}

/// Row `row` of J (contact `row / rows_per_contact`'s) times x, over the velocities the contact
/// touches. A contact that touches every velocity (a single body's) takes the dense product, so
/// that its value does not depend on the pattern.
inline double contact_row_product(const ContactKinematics& kinematics, int rows_per_contact,
                                  Eigen::Index row, const Eigen::VectorXd& x) {
  const auto k = static_cast<std::size_t>(row / rows_per_contact);
  const int first = kinematics.touched_start[k], end = kinematics.touched_start[k + 1];
  if (end - first == x.size()) return kinematics.jacobian.row(row).dot(x);
  double product = 0.0;
  for (int e = first; e < end; ++e) {
    const int j = kinematics.touched_velocities[static_cast<std::size_t>(e)];
    product += kinematics.jacobian(row, j) * x[j];
  }
  return product;
}

/// M(q)⁻¹ applied by the model itself, at the q of the evaluation that made it: a tree's
/// articulated-body factorization applies it in O(n) per column where a dense factorization of M
/// costs O(n³) and each of its solves O(n²).
class InverseMass {
 public:
  virtual ~InverseMass() = default;
  /// Solves M x = b for each column of `columns` in place: b on entry, x = M⁻¹ b on return.
  virtual void solve(Eigen::Ref<Eigen::MatrixXd> columns) const = 0;
  /// G b for each column in place, G a factor with M⁻¹ = Gᵀ G (the first half of solve()):
  /// then bᵀ M⁻¹ c = (G b)·(G c), and J M⁻¹ W = (G Jᵀ)ᵀ (G W) costs half of J's solves.
  virtual void solve_half(Eigen::Ref<Eigen::MatrixXd> columns) const = 0;
};

/// Which quantities one evaluate() computes.
struct QuantityRequest {
  bool mass_matrix = false;
  /// M(q)⁻¹ as an operator (StateQuantities::inverse_mass), from a model that
  /// applies_inverse_mass(); a model that does not ignores it.
  bool inverse_mass = false;
  bool generalized_force = false;
  bool contacts = false;
  bool potential_energy = false;
  /// The contacts to evaluate, by index, in this order (ContactKinematics then holds these only);
  /// nullptr: every contact. The simulator passes the contacts its broad phase found nearby.
  const std::vector<int>* contact_subset = nullptr;
  /// Per evaluated contact (in the order above), whether it is held closed; nullptr: none is. A
  /// held contact's surface goes on past its ends: its rows stay the surface's until the
  /// simulator opens it where its support reaches zero, so that the dynamics it constrains stay
  /// smooth on the step in which it slides off (models/planar/contact_pair_kinematics.hpp).
  const std::vector<bool>* held_contacts = nullptr;
};

/// A system's quantities at one state (t, q, v); evaluate() writes only the requested ones.
struct StateQuantities {
  Eigen::MatrixXd mass_matrix;  ///< M(q) [kg, kg m, kg m²], symmetric positive definite
  /// M(q)⁻¹ when the request asked for it and the model applies it, else null. It lives in the
  /// model's workspace: valid until that workspace's next evaluation.
  const InverseMass* inverse_mass = nullptr;
  Eigen::VectorXd generalized_force;  ///< f(q, v, t) [N, N m]
  ContactKinematics contacts;         ///< gaps, Jacobians and J̇v of every contact
  double potential_energy = 0.0;      ///< V(q) [J]
};

/// A flat face that several contacts carry together and that the model can turn on its body, the
/// points its contacts are moving to other points of the same face: a cylinder's rim lying on a
/// plane, carried by a square inscribed in it (models/spatial/spatial_contact_geometry.hpp). Its
/// orientation is discrete state of the run, which the simulator turns toward the face's centre of
/// pressure (sim/simulation/base_orientation.hpp).
struct ContactBase {
  std::vector<int> contacts;              ///< its contacts (model indices)
  std::vector<Eigen::Vector2d> points_m;  ///< their points in the face's plane, from its centre [m]
  double radius_m = 0.0;                  ///< the face's outline's reach from its centre [m]
  /// The unit direction of its first contact's point, in the same axes: where it points now.
  Eigen::Vector2d direction = Eigen::Vector2d::UnitX();
};

/// The scratch of one model's evaluations, made by that model's make_workspace().
class SystemWorkspace {
 public:
  explicit SystemWorkspace(const MechanicalSystem& model) : model_(&model) {}
  virtual ~SystemWorkspace() = default;
  SystemWorkspace(const SystemWorkspace&) = delete;
  SystemWorkspace& operator=(const SystemWorkspace&) = delete;
  /// Whether `model` made this workspace (a model checks before it uses one).
  bool belongs_to(const MechanicalSystem& model) const { return model_ == &model; }

 private:
  const MechanicalSystem* model_;
};

class MechanicalSystem {
 public:
  virtual ~MechanicalSystem() = default;

  /// nq, the number of generalized coordinates.
  virtual int coordinate_count() const = 0;
  /// Whether M is the same at every q (free bodies described at their centres of mass): the
  /// simulator then factors it once per run instead of checking it at every evaluation.
  virtual bool constant_mass_matrix() const { return false; }
  /// Whether evaluate() answers QuantityRequest::inverse_mass: the model applies M⁻¹ faster than
  /// a dense factorization of M would, and the simulator's force solve then asks for it instead of
  /// M. Such a model is one mechanism: M has no zero block that splits its velocities in two.
  virtual bool applies_inverse_mass() const { return false; }
  /// Names of q in order, e.g. {"x", "y", "theta"} or {"theta1", "theta2"}.
  virtual const std::vector<std::string>& coordinate_names() const = 0;
  /// SI unit of each coordinate, "m" or "rad".
  virtual const std::vector<std::string>& coordinate_units() const = 0;
  /// nv, the number of generalized velocities. Default: nq (v = q̇).
  virtual int velocity_count() const { return coordinate_count(); }
  /// Names of v in order, e.g. {"ball.vx", ..., "ball.wz"}. Default: the coordinates' names
  /// (v = q̇).
  virtual const std::vector<std::string>& velocity_names() const { return coordinate_names(); }
  /// SI unit of each velocity. Default: the coordinates' per second (v = q̇).
  virtual std::vector<std::string> velocity_units() const { return rate_units(coordinate_units()); }

  /// q̇ = N(q) v into q_dot (nq) [per s]. Default: q̇ = v. Called at every stage of every step:
  /// it must not allocate.
  virtual void position_rate(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                             Eigen::Ref<Eigen::VectorXd> q_dot) const {
    (void)q;
    q_dot = v;
  }
  /// The retraction q ⊕ δv into q_out (which may be q itself): the configuration reached from q
  /// by the velocity-space displacement δv (nv), first-order exact (a rotation by δω for a
  /// quaternion). Default: q + δv. The drift projection moves q through it.
  virtual void integrate(const Eigen::VectorXd& q, const Eigen::VectorXd& delta_v,
                         Eigen::VectorXd& q_out) const {
    q_out = q + delta_v;
  }
  /// Brings q back onto its manifold after a correction (a quaternion to unit norm). Default:
  /// nothing, q is a vector space.
  virtual void normalize(Eigen::VectorXd& q) const { (void)q; }
  /// Names of the contacts in order, e.g. {"left_corner", "right_corner"}.
  virtual const std::vector<std::string>& contact_names() const = 0;
  int contact_count() const { return static_cast<int>(contact_names().size()); }
  /// Planar contacts have one tangential row, spatial ones two.
  virtual ContactDimension contact_dimension() const = 0;

  /// Broad phase: the contacts that may close soon at q, into `nearby` (ascending indices),
  /// without allocating once `nearby` has grown. A contact left out is farther than the model's
  /// margin, or does not exist at q (a corner beyond the end of an edge, or behind it); its gap
  /// then cannot close before it is listed again, as long as no body moves farther than that
  /// margin between two calls. The default lists every contact.
  virtual void nearby_contacts(const Eigen::VectorXd& q, SystemWorkspace& workspace,
                               std::vector<int>& nearby) const {
    (void)q;
    (void)workspace;
    nearby.resize(static_cast<std::size_t>(contact_count()));
    for (int k = 0; k < contact_count(); ++k) nearby[static_cast<std::size_t>(k)] = k;
  }
  /// The broad phase's bound on the time between two calls of nearby_contacts() [s]: moving with
  /// velocities v from q for less than this, no body moves or turns farther than its margin
  /// allows. The simulator takes no longer steps. The default lists every contact: no bound.
  virtual double broad_phase_step_bound_s(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                          SystemWorkspace& workspace) const {
    (void)q;
    (void)v;
    (void)workspace;
    return std::numeric_limits<double>::infinity();
  }
  /// The contact that is `contact`'s feature against the other side of the same zero-thickness
  /// surface (a vertex against a segment's other face), or −1. The two have opposite normals, so
  /// that at a point on the surface both read as touching while their Jacobian rows are each
  /// other's negatives: together they make the impact problem's D singular. The simulator keeps
  /// at most one of them active. The default has none.
  virtual int opposite_face_contact(int contact) const {
    (void)contact;
    return -1;
  }
  /// How deep [m] two bodies that may touch, or a body and an obstacle, overlap at q, measured
  /// on their shapes (not on the contacts' gaps); −∞ when the model has no shapes. `where`, when
  /// given, receives their names. Bodies can only come to overlap through a contact whose gap
  /// the simulator did not see close; it ends a run that goes deeper than kOverlapLimit_m.
  virtual double deepest_overlap_m(const Eigen::VectorXd& q, SystemWorkspace& workspace,
                                   std::string* where = nullptr) const {
    (void)q;
    (void)workspace;
    (void)where;
    return -std::numeric_limits<double>::infinity();
  }

  /// Contact `contact`'s flat base (ContactBase) into `base`, when it belongs to one that lies flat
  /// at q; false otherwise. The default has no bases.
  virtual bool flat_base(const Eigen::VectorXd& q, int contact, SystemWorkspace& workspace,
                         ContactBase& base) const {
    (void)q;
    (void)contact;
    (void)workspace;
    (void)base;
    return false;
  }
  /// Turns contact `contact`'s base to `direction` (unit, in the axes of ContactBase::direction):
  /// `workspace` keeps it, and every later evaluation with it reads the base's contacts at their
  /// new points. The default has no bases.
  virtual void orient_base(int contact, const Eigen::Vector2d& direction,
                           SystemWorkspace& workspace) const {
    (void)contact;
    (void)direction;
    (void)workspace;
  }

  /// Scratch for evaluate(), owned by the caller.
  virtual std::unique_ptr<SystemWorkspace> make_workspace() const = 0;
  /// The requested quantities at (t, q, v) (see StateQuantities). f holds gravity, joint springs
  /// and dampers, base excitation as an inertial load, minus the velocity-product (Coriolis and
  /// centrifugal) terms; V holds gravity and springs (kinetic energy is ½ vᵀ M v). Throws
  /// std::invalid_argument when q or v has the wrong size or `workspace` is another model's.
  virtual void evaluate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                        const QuantityRequest& request, SystemWorkspace& workspace,
                        StateQuantities& out) const = 0;

  // One-off queries: each makes a workspace and evaluates one quantity.

  /// M(q), n × n.
  void mass_matrix(const Eigen::VectorXd& q, Eigen::MatrixXd& M) const {
    M = std::move(evaluate_once(0.0, q, {.mass_matrix = true}).mass_matrix);
  }
  /// f(q, v, t).
  void generalized_force(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                         Eigen::VectorXd& f) const {
    f = std::move(evaluate_once(t, q, v, {.generalized_force = true}).generalized_force);
  }
  /// Gaps, Jacobians and J̇v of every contact.
  void contact_kinematics(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                          ContactKinematics& contacts) const {
    contacts = std::move(evaluate_once(0.0, q, v, {.contacts = true}).contacts);
  }
  /// V(q) [J].
  double potential_energy(const Eigen::VectorXd& q) const {
    return evaluate_once(0.0, q, {.potential_energy = true}).potential_energy;
  }

 private:
  StateQuantities evaluate_once(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                const QuantityRequest& request) const {
    StateQuantities out;
    evaluate(t, q, v, request, *make_workspace(), out);
    return out;
  }
  // Position-only quantities: v = 0, nv of them where q has nq (a wrong size of q is caught by
  // evaluate()).
  StateQuantities evaluate_once(double t, const Eigen::VectorXd& q,
                                const QuantityRequest& request) const {
    return evaluate_once(t, q, Eigen::VectorXd::Zero(velocity_count()), request);
  }
};

}  // namespace routh
