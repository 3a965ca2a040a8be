#pragma once
// A planar rigid multibody system: a tree of bodies, each attached to its parent (or the ground)
// by a revolute, prismatic or free joint, with point and circle contacts against ground-fixed
// half-planes and the contacts its bodies' shapes generate against obstacles and each other
// (planar_contact_candidates.hpp). It implements MechanicalSystem for any such tree; no
// model-specific algebra.
//
// Dynamics by Kane's method (Kane & Levinson, "Dynamics: Theory and Applications", 1985, ch. 6),
// whose partial velocities are the columns of the body Jacobians from one outward recursion
// (planar_kinematics.hpp; Featherstone 2008 §4):
//     M(q)       = Σ_b  m_b J_cᵀ J_c + I_b J_φᵀ J_φ                    (Featherstone §6.1 builds
//                                                                      the same M by the CRBA)
//     f(q, v, t) = Σ_b  J_cᵀ m_b (g − a_g(t) − J̇_c v) − J_φᵀ I_b J̇_φ v  + joint spring-dampers
// with J_c, J_φ the Jacobians of body b's centre of mass and angle. The J̇v terms (velocity
// products, centripetal and Coriolis) are the accelerations at v̇ = 0, as in the recursive
// Newton–Euler algorithm (Featherstone §5.3). Base excitation a_g(t) is the ground's acceleration
// in an inertial frame; the model lives in the ground frame, where it adds the inertial load
// −m a_g on every body; the obstacles are fixed in that frame.
//
// Costs O(B n) per evaluation for B bodies and n coordinates: one outward recursion, then the
// requested sums (M's sum costs O(Σ depth²); M⁻¹ by the articulated-body recursion O(B)). The
// recursion's results live in a PlanarTreeWorkspace, so evaluations do not allocate once it has
// been used (the tree itself is const and may be shared between threads).

#include <Eigen/Core>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/planar/articulated_body.hpp"
#include "models/planar/body_overlap.hpp"
#include "models/planar/planar_body.hpp"
#include "models/planar/planar_contact_candidates.hpp"
#include "models/planar/planar_contact_geometry.hpp"
#include "models/planar/planar_joint.hpp"
#include "models/planar/planar_kinematics.hpp"
#include "models/planar/shape.hpp"
#include "sim/dynamics/mechanical_system.hpp"

namespace routh {

/// Ground acceleration a_g(t) [m/s²] in an inertial frame, t [s].
using GroundAcceleration = std::function<Eigen::Vector2d(double)>;

/// The models' default gravity [m/s²], pointing −y. Not the standard gravity 9.80665 m/s² that
/// the `g` unit of an excitation uses (kGravityUnit_m_s2), but the 9.81 that the shipped scenarios
/// and the closed forms in the tests are written with.
inline constexpr double kDefaultGravity = 9.81;

/// The relative displacement d [m or rad] of one joint dof and its rate ḋ [m/s or rad/s].
struct JointDisplacement {
  double value = 0.0;
  double rate = 0.0;
};

/// The scratch of a PlanarTree's evaluations: every body's motion, one point's, and the zero
/// velocity at which the broad phase places the bodies.
struct PlanarTreeWorkspace final : SystemWorkspace {
  using SystemWorkspace::SystemWorkspace;
  TreeMotion motion;
  std::vector<bool> contact_bodies;  ///< the bodies (and ancestors) of the contacts evaluated
  PointMotion point;
  Eigen::VectorXd no_velocity;
  ArticulatedInverseMass inverse_mass;  ///< M⁻¹ of the latest evaluation that asked for it
};

/// A named ground-fixed obstacle: a floor, a wall, a slope.
struct Obstacle {
  std::string name;
  HalfPlane surface;
};

/// Everything that defines a planar tree; bodies[i] hangs from joints[i], parents first.
///
/// Its contacts are the listed ones (`contacts`: a point or circle against a half-plane), then
/// those the shapes generate (planar_contact_candidates.hpp): every vertex and disk against every
/// obstacle, and, with `collide_bodies`, every pair of bodies not joined to each other: vertex–
/// edge, disk–edge (and disk–vertex past an edge's end), disk–disk. Generated contacts are named
/// BODY.VERTEX/OBSTACLE, BODY/OBSTACLE (a disk), BODY.VERTEX/OTHER.EDGE, BODY/OTHER.EDGE and
/// BODY/OTHER (two disks), unless `contact_aliases` renames them.
struct PlanarTreeDescription {
  std::vector<std::string> body_names;
  std::vector<PlanarBody> bodies;
  std::vector<PlanarJoint> joints;
  std::vector<std::string> contact_names;    ///< of the listed contacts
  std::vector<ContactGeometry> contacts;     ///< listed contacts
  std::vector<std::optional<Shape>> shapes;  ///< empty, or one per body (nullopt: no shape)
  std::vector<Obstacle> obstacles;           ///< touched by every vertex and disk
  bool collide_bodies = true;                ///< body–body contacts (never across a joint)
  /// (generated name, name to use instead), e.g. ("block.bottom_left/floor", "left_corner").
  std::vector<std::pair<std::string, std::string>> contact_aliases;
  Eigen::Vector2d gravity_m_s2{0.0, -kDefaultGravity};
  GroundAcceleration ground_acceleration;  ///< empty: the ground does not move
};

class PlanarTree final : public MechanicalSystem {
 public:
  /// Checks the description (throws std::invalid_argument naming the offending entry): parents
  /// come before children, masses > 0, inertias ≥ 0, unit axes and normals, radii ≥ 0, one name
  /// per dof, valid shapes (check_shape), none or one per body, named obstacles, aliases of
  /// existing contacts, unique coordinate, body, obstacle and contact names, and that M(q) is
  /// positive definite at q = 0 or at a generic pose (a valid tree may be singular at special
  /// poses).
  explicit PlanarTree(PlanarTreeDescription description);

  int coordinate_count() const override { return coordinate_count_; }
  const std::vector<std::string>& coordinate_names() const override { return coordinate_names_; }
  const std::vector<std::string>& coordinate_units() const override { return coordinate_units_; }
  /// The listed contacts' names, then the generated ones' (after the aliases).
  const std::vector<std::string>& contact_names() const override { return contacts_.names; }
  ContactDimension contact_dimension() const override { return ContactDimension::planar; }
  bool constant_mass_matrix() const override { return constant_mass_matrix_.has_value(); }
  /// A tree hanging from one root joint whose M changes with q (a pendulum, a chain): its
  /// articulated-body factorization (articulated_body.hpp) applies M⁻¹ in O(n). A constant M is
  /// factored once per run anyway, and several mechanisms are solved island by island from M.
  bool applies_inverse_mass() const override { return applies_inverse_mass_; }

  std::unique_ptr<SystemWorkspace> make_workspace() const override;
  void nearby_contacts(const Eigen::VectorXd& q, SystemWorkspace& workspace,
                       std::vector<int>& nearby) const override;
  double broad_phase_step_bound_s(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                  SystemWorkspace& workspace) const override;
  /// A vertex against one face of a segment: the same vertex against its other face.
  int opposite_face_contact(int contact) const override {
    return contacts_.opposite_faces.at(static_cast<std::size_t>(contact));
  }
  double deepest_overlap_m(const Eigen::VectorXd& q, SystemWorkspace& workspace,
                           std::string* where = nullptr) const override;
  void evaluate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                const QuantityRequest& request, SystemWorkspace& workspace,
                StateQuantities& out) const override;

  // Beyond the MechanicalSystem contract: the tree's structure and its kinematics.

  const PlanarTreeDescription& description() const { return description_; }
  int body_count() const { return static_cast<int>(description_.bodies.size()); }
  /// Index in q of joint i's first degree of freedom.
  int first_coordinate(int joint) const {
    return columns_.first_coordinate[static_cast<std::size_t>(joint)];
  }
  /// Every contact: the listed ones, then the generated ones, as in contact_names().
  const std::vector<TreeContact>& contacts() const { return contacts_.contacts; }
  /// The bodies contact k acts between: (body, other body), the other kGround for an obstacle.
  std::pair<int, int> contact_bodies(int contact) const;
  /// The deepest overlap of the shaped bodies at q (body_overlap.hpp): deepest_overlap_m's
  /// depth, with the bodies or the obstacle by index.
  BodyOverlap deepest_body_overlap(const Eigen::VectorXd& q, SystemWorkspace& workspace) const;
  /// Index of coordinate `name`, or −1.
  int coordinate_index(const std::string& name) const;
  /// a_g(t) [m/s²]; zero without base excitation.
  Eigen::Vector2d ground_acceleration(double t_s) const;

  /// World position [m] of the point at `offset_m` in body `body`'s frame.
  Eigen::Vector2d point_position(const Eigen::VectorXd& q, int body,
                                 const Eigen::Vector2d& offset_m) const;
  /// Per contact, the tangential coordinate s = t·(p − p₀) + r φ [m] whose rate is the slip u_t:
  /// with the gap, a holonomic pair (g, s) whose gradients are the contact Jacobian rows. Obstacle
  /// contacts only: throws std::logic_error when the tree has a body–body contact, whose slip
  /// (rolling on a moving surface) is not the rate of such a coordinate.
  Eigen::VectorXd contact_tangential_positions(const Eigen::VectorXd& q) const;

 private:
  void check_mass_matrix() const;
  bool mass_matrix_is_constant() const;
  void check_sizes(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const;
  PlanarTreeWorkspace& own(SystemWorkspace& workspace) const;
  /// Forward kinematics at q with v = 0, into the workspace (the broad phase and the overlap
  /// check read positions only).
  const TreeMotion& placed_at(const Eigen::VectorXd& q, SystemWorkspace& workspace) const;
  const TreeMotion& motion_at(const Eigen::VectorXd& q, TreeMotion& motion) const;
  void inertial_terms(double t, bool sum_mass_matrix, bool generalized_force,
                      PlanarTreeWorkspace& ws, StateQuantities& out) const;
  JointDisplacement joint_displacement(const TreeMotion& motion, const Eigen::VectorXd& q,
                                       const Eigen::VectorXd& v, int joint, int dof) const;
  void add_spring_forces(const TreeMotion& motion, const Eigen::VectorXd& q,
                         const Eigen::VectorXd& v, Eigen::VectorXd& f) const;
  double potential_energy_at(const TreeMotion& motion, const Eigen::VectorXd& q,
                             const Eigen::VectorXd& v) const;
  const std::vector<bool>* bodies_of(const std::vector<int>& subset, PlanarTreeWorkspace& ws) const;
  void contact_kinematics_at(const std::vector<int>* subset, const std::vector<bool>* held,
                             const TreeMotion& motion, ContactKinematics& contacts) const;

  PlanarTreeDescription description_;
  TreeColumns columns_;  ///< each joint's first coordinate and each body's velocities
  int coordinate_count_ = 0;
  std::vector<std::string> coordinate_names_;
  std::vector<std::string> coordinate_units_;
  std::optional<Eigen::MatrixXd> constant_mass_matrix_;  ///< M, when no q changes it
  bool applies_inverse_mass_ = false;
  PlanarContactSet contacts_;  ///< listed and generated
};

/// Assembles a PlanarTreeDescription step by step: add bodies parents first, then contacts.
class PlanarTreeBuilder {
 public:
  /// Adds body `name` hanging from `joint`; returns its index (for children and contacts).
  int add_body(std::string name, const PlanarBody& body, PlanarJoint joint);
  /// Adds a contact of a point or circle on a body against a half-plane.
  void add_contact(std::string name, const ContactGeometry& contact);
  /// Gives body `body` a shape: its vertices and disk touch obstacles and other bodies.
  void set_shape(int body, Shape shape);
  /// Adds a ground-fixed obstacle that every vertex and disk touches.
  void add_obstacle(std::string name, const HalfPlane& surface);
  /// Whether bodies touch each other (default true; jointed bodies never do).
  void set_body_collisions(bool collide);
  /// Names the generated contact `generated` `name` instead.
  void rename_contact(std::string generated, std::string name);
  /// g [m/s²], default (0, −9.81).
  void set_gravity(const Eigen::Vector2d& gravity_m_s2);
  void set_ground_acceleration(GroundAcceleration ground_acceleration);

  std::unique_ptr<PlanarTree> build() const;

 private:
  PlanarTreeDescription description_;
};

}  // namespace routh
