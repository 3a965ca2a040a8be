#pragma once
// Free rigid bodies in three dimensions (no joints): spheres, boxes and cylinders that touch
// ground-fixed planes (a floor, walls, inclines) and, optionally, each other. It implements
// MechanicalSystem for any number of such bodies; docs/models.md describes it for users.
//
// State of body b (7 coordinates, 6 velocities), in this order:
//     q_b = (x, y, z, qw, qx, qy, qz)  centre of mass in the world frame [m]; the unit quaternion
//                                      R_b that turns body-frame vectors into world-frame ones
//     v_b = (vx, vy, vz, wx, wy, wz)   centre-of-mass velocity in the world frame [m/s];
//                                      angular velocity ω in the body frame [rad/s]
// so that M = diag(m, m, m, I₁, I₂, I₃) is constant (principal axes are the body axes) and
// the gyroscopic term −ω × (I ω) is part of the force. The world's z points up: gravity is −z.
//
// Kinematics: ẋ = v, q̇ = ½ q ⊗ (0, ω) (Hamilton product; ω in the body frame). The exact flow of
// this equation keeps |q|: d|q|²/dt = q · (q ⊗ (0, ω)) = 0. Rotations are read from q/|q|, so a
// drifted |q| never shears the body; normalize() brings it back to 1.
//
// Contacts, found from the shapes (every body against every plane; with collide_bodies, every
// sphere against every other sphere):
//   sphere–plane     the sphere's lowest point along −n               BODY/PLANE
//   box corner–plane each of the 8 corners                            BODY.CORNER/PLANE, CORNER
//                                                                     as x+y-z- (signs of the
//                                                                     corner's body coordinates)
//   cylinder rim–plane per rim (top z = +h/2, bottom z = −h/2), the    BODY.top_rim.x+/PLANE,
//                    ends of its diameter along the tilt line (the     … .x-, .y+, .y-, and
//                    deepest and highest points), named by the        BODY.bottom_rim.x+/PLANE …
//                    body's axes, and the ends of its diameter along
//                    a diameter across it (spatial_contact_geometry.hpp):
//                    the deepest carries a tilted rim, all four a flat
//                    base, a square turned toward its load
//   sphere–sphere    along the line of centres                        BODY/OTHER
// Each contact has the normal row first, then two tangential rows along a basis (t₁, t₂) of the
// tangent plane that is smooth in q; J̇v is the time derivative of the contact's constraint
// velocity along the motion (zero in the tangential rows of a sphere rolling on a plane).

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <functional>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "sim/dynamics/mechanical_system.hpp"

namespace routh {

/// A sphere of radius r > 0 [m] whose centre is `centre_m` in the body frame: at the centre of
/// mass (0) for a uniform ball, elsewhere for an eccentric one (a tippe top).
struct SphereShape {
  double radius_m = 0.0;
  Eigen::Vector3d centre_m = Eigen::Vector3d::Zero();
};

/// A box of edge lengths (a, b, c) > 0 [m] along the body x, y, z, centred on the body origin.
struct BoxShape {
  Eigen::Vector3d size_m = Eigen::Vector3d::Zero();
};

/// A cylinder of radius r > 0 and height h > 0 [m], its axis the body z, centred on the body
/// origin. A coin or a disk is a short one.
struct CylinderShape {
  double radius_m = 0.0;
  double height_m = 0.0;
};

using SpatialShape = std::variant<SphereShape, BoxShape, CylinderShape>;

/// One free rigid body.
struct SpatialBody {
  std::string name;
  double mass_kg = 1.0;  ///< m > 0
  /// (I₁, I₂, I₃) > 0 [kg m²] about the centre of mass, along the body axes (principal).
  Eigen::Vector3d inertia_kg_m2 = Eigen::Vector3d::Ones();
  SpatialShape shape;
};

/// The principal inertia of `mass_kg` spread uniformly over `shape` about the body origin: a
/// uniform sphere 2/5 m r² (an eccentric sphere's centre of mass is the body origin; its inertia
/// must be given), a box m (b² + c², a² + c², a² + b²)/12, a cylinder m (3r² + h²)/12 twice and
/// m r²/2 about its axis.
Eigen::Vector3d uniform_inertia(const SpatialShape& shape, double mass_kg);

/// A ground-fixed plane: the half-space n · (p − point) ≥ 0 is free, n a unit vector.
struct SpatialPlane {
  std::string name;
  Eigen::Vector3d point_m = Eigen::Vector3d::Zero();
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();
};

/// Ground acceleration a_g(t) [m/s²] in an inertial frame, t [s].
using SpatialGroundAcceleration = std::function<Eigen::Vector3d(double)>;

/// Everything that defines a set of free rigid bodies.
struct SpatialBodiesDescription {
  std::vector<SpatialBody> bodies;
  std::vector<SpatialPlane> planes;
  bool collide_bodies = true;  ///< sphere–sphere contacts
  Eigen::Vector3d gravity_m_s2{0.0, 0.0, -9.81};
  SpatialGroundAcceleration ground_acceleration;  ///< empty: the ground does not move
};

/// The coordinates (7 per body) and velocities (6 per body) of one body in q and v.
inline int spatial_coordinate_start(int body) { return 7 * body; }
inline int spatial_velocity_start(int body) { return 6 * body; }

class SpatialBodies final : public MechanicalSystem {
 public:
  /// Checks the description (throws std::invalid_argument naming the offending entry): unique,
  /// non-empty body and plane names, masses and inertias > 0 (and each principal moment at most
  /// the sum of the other two), valid shapes, unit plane normals.
  explicit SpatialBodies(SpatialBodiesDescription description);
  ~SpatialBodies() override;

  int coordinate_count() const override;
  int velocity_count() const override;
  /// BODY.x, BODY.y, BODY.z, BODY.qw, BODY.qx, BODY.qy, BODY.qz per body.
  const std::vector<std::string>& coordinate_names() const override;
  const std::vector<std::string>& coordinate_units() const override;  ///< "m" and "1"
  /// BODY.vx, BODY.vy, BODY.vz, BODY.wx, BODY.wy, BODY.wz per body.
  const std::vector<std::string>& velocity_names() const override;
  std::vector<std::string> velocity_units() const override;  ///< "m/s" and "rad/s"
  const std::vector<std::string>& contact_names() const override;
  ContactDimension contact_dimension() const override { return ContactDimension::spatial; }
  bool constant_mass_matrix() const override { return true; }

  void position_rate(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                     Eigen::Ref<Eigen::VectorXd> q_dot) const override;
  /// Translates by δx and turns each body by its δω (body frame): q ⊗ exp(δω/2).
  void integrate(const Eigen::VectorXd& q, const Eigen::VectorXd& delta_v,
                 Eigen::VectorXd& q_out) const override;
  /// Every quaternion to unit norm.
  void normalize(Eigen::VectorXd& q) const override;

  std::unique_ptr<SystemWorkspace> make_workspace() const override;
  void nearby_contacts(const Eigen::VectorXd& q, SystemWorkspace& workspace,
                       std::vector<int>& nearby) const override;
  double broad_phase_step_bound_s(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                  SystemWorkspace& workspace) const override;
  double deepest_overlap_m(const Eigen::VectorXd& q, SystemWorkspace& workspace,
                           std::string* where = nullptr) const override;
  void evaluate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                const QuantityRequest& request, SystemWorkspace& workspace,
                StateQuantities& out) const override;
  /// A cylinder's rim lying flat on a plane: its four ends, at their points on the square in the
  /// body's xy plane, radius r, direction e(ψ) (spatial_contact_geometry.hpp).
  bool flat_base(const Eigen::VectorXd& q, int contact, SystemWorkspace& workspace,
                 ContactBase& base) const override;
  /// Sets the rim's ψ: its x+ end's flat point along `direction`.
  void orient_base(int contact, const Eigen::Vector2d& direction,
                   SystemWorkspace& workspace) const override;

  // Beyond the MechanicalSystem contract.

  const SpatialBodiesDescription& description() const;
  int body_count() const;
  /// Body b's rotation (body to world) at q, from q_b's quaternion divided by its norm.
  Eigen::Quaterniond orientation(const Eigen::VectorXd& q, int body) const;
  /// The index of `name` in the coordinates, −1 if none.
  int coordinate_index(const std::string& name) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The bodies for a reader who draws them without routh's C++: the JSON that a trajectory file
/// keeps in /model (docs/output.md has the schema): "dimension": 3, gravity, coordinates,
/// velocities, bodies (name, mass, inertia, shape with its parameters, the index of its first
/// coordinate and velocity), planes (name, point, normal), contacts.
std::string spatial_model_description_json(const SpatialBodies& bodies);

}  // namespace routh
