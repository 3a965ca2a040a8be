#pragma once
// A hand-written spatial MechanicalSystem for the simulation stages' spatial tests, independent of
// models/: one rigid body with isotropic inertia (a uniform sphere, I = 2/5 m r², or a uniform
// cube, I = m a²/6 with a its edge) on the plane z = 0, gravity g tilted by β towards the heading
// φ, g = g (sin β cos φ, sin β sin φ, −cos β), so that the plane is an incline whose fall line
// points along (cos φ, sin φ, 0).
//
// q = (x, y, z, w, i, j, k): the centre and the unit quaternion of the orientation; v = (v, ω),
// the centre's velocity and the angular velocity, both in the world frame. With an isotropic
// inertia, I_world = R I Rᵀ = I is constant and ω × I ω = 0, so M = diag(m, m, m, I, I, I) and
// f = (m g, 0): the Newton–Euler equations without gyroscopic terms. q̇ = (v, ½ (0, ω) ⊗ q).
//
// Contacts, rows n = e_z, t1 = e_x, t2 = e_y at a body point at offset ρ from the centre:
// the point's velocity is v + ω × ρ, so a row along e is (eᵀ, (ρ × e)ᵀ), and since ρ̇ = ω × ρ,
// J̇v along e is e·(ω × (ω × ρ)). The sphere has one contact, ρ = −r e_z (J constant, J̇v = 0,
// gap z − r); the cube has one per corner, ρ = R c_i, gap z + ρ_z.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "sim/dynamics/mechanical_system.hpp"

namespace routh::test {

class SpatialBodyOnPlane final : public MechanicalSystem {
 public:
  /// A uniform sphere of mass m [kg] and radius r [m]; incline β and its heading φ [rad].
  static SpatialBodyOnPlane sphere(double mass, double radius, double gravity, double incline = 0.0,
                                   double heading = 0.0) {
    SpatialBodyOnPlane body(mass, 0.4 * mass * radius * radius, gravity, incline, heading);
    body.sphere_radius_ = radius;
    body.contacts_ = {"ball.floor"};
    return body;
  }
  /// A uniform cube of mass m [kg] and edge a [m]; incline β and its heading φ [rad].
  static SpatialBodyOnPlane cube(double mass, double edge, double gravity, double incline = 0.0,
                                 double heading = 0.0) {
    SpatialBodyOnPlane body(mass, mass * edge * edge / 6.0, gravity, incline, heading);
    const double h = 0.5 * edge;
    for (int i = 0; i < 8; ++i) {
      body.corners_.emplace_back((i & 1) ? h : -h, (i & 2) ? h : -h, (i & 4) ? h : -h);
      body.contacts_.push_back("cube.corner" + std::to_string(i));
    }
    return body;
  }

  double mass() const { return mass_; }
  double inertia() const { return inertia_; }
  Eigen::Vector3d gravity() const { return gravity_; }

  int coordinate_count() const override { return 7; }
  int velocity_count() const override { return 6; }
  bool constant_mass_matrix() const override { return true; }
  const std::vector<std::string>& coordinate_names() const override { return names_; }
  const std::vector<std::string>& coordinate_units() const override { return units_; }
  const std::vector<std::string>& velocity_names() const override { return velocity_names_; }
  std::vector<std::string> velocity_units() const override {
    return {"m/s", "m/s", "m/s", "rad/s", "rad/s", "rad/s"};
  }
  const std::vector<std::string>& contact_names() const override { return contacts_; }
  ContactDimension contact_dimension() const override { return ContactDimension::spatial; }

  void position_rate(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                     Eigen::Ref<Eigen::VectorXd> q_dot) const override {
    q_dot.head<3>() = v.head<3>();
    const Eigen::Quaterniond spin(0.0, v[3], v[4], v[5]);
    const Eigen::Quaterniond rate = spin * orientation(q);
    q_dot[3] = 0.5 * rate.w();
    q_dot.segment<3>(4) = 0.5 * rate.vec();
  }
  void integrate(const Eigen::VectorXd& q, const Eigen::VectorXd& delta_v,
                 Eigen::VectorXd& q_out) const override {
    const Eigen::Vector3d turn = delta_v.tail<3>();
    const double angle = turn.norm();
    const Eigen::Quaterniond rotation =
        angle > 0.0 ? Eigen::Quaterniond(Eigen::AngleAxisd(angle, turn / angle))
                    : Eigen::Quaterniond::Identity();
    const Eigen::Quaterniond turned = rotation * orientation(q);
    q_out = q;
    q_out.head<3>() += delta_v.head<3>();
    q_out[3] = turned.w();
    q_out.segment<3>(4) = turned.vec();
  }
  void normalize(Eigen::VectorXd& q) const override { q.segment<4>(3).normalize(); }

  std::unique_ptr<SystemWorkspace> make_workspace() const override {
    return std::make_unique<SystemWorkspace>(*this);
  }
  void evaluate(double /*t*/, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                const QuantityRequest& request, SystemWorkspace& /*workspace*/,
                StateQuantities& out) const override {
    if (request.mass_matrix) {
      out.mass_matrix = Eigen::MatrixXd::Zero(6, 6);
      out.mass_matrix.diagonal() << mass_, mass_, mass_, inertia_, inertia_, inertia_;
    }
    if (request.generalized_force) {
      out.generalized_force = Eigen::VectorXd::Zero(6);
      out.generalized_force.head<3>() = mass_ * gravity_;
    }
    if (request.potential_energy) out.potential_energy = -mass_ * gravity_.dot(q.head<3>());
    if (request.contacts) fill_contacts(q, v, request.contact_subset, out.contacts);
  }

  /// The world offset of contact k's body point from the centre at q.
  Eigen::Vector3d offset(const Eigen::VectorXd& q, int k) const {
    if (corners_.empty()) return {0.0, 0.0, -sphere_radius_};
    return orientation(q) * corners_[static_cast<std::size_t>(k)];
  }

  static Eigen::Quaterniond orientation(const Eigen::VectorXd& q) {
    return Eigen::Quaterniond(q[3], q[4], q[5], q[6]);
  }

 private:
  SpatialBodyOnPlane(double mass, double inertia, double gravity, double incline, double heading)
      : mass_(mass),
        inertia_(inertia),
        gravity_(gravity * std::sin(incline) * std::cos(heading),
                 gravity * std::sin(incline) * std::sin(heading), -gravity * std::cos(incline)) {}

  void fill_contacts(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                     const std::vector<int>* subset, ContactKinematics& contacts) const {
    const int count = static_cast<int>(subset ? subset->size() : contacts_.size());
    contacts.gap.resize(count);
    contacts.jacobian.resize(3 * count, 6);
    contacts.jacobian_dot_v.resize(3 * count);
    contacts.support.resize(0);
    const Eigen::Vector3d omega =
        v.size() == 6 ? Eigen::Vector3d(v.tail<3>()) : Eigen::Vector3d::Zero();
    for (int c = 0; c < count; ++c) {
      const int k = subset ? (*subset)[static_cast<std::size_t>(c)] : c;
      const Eigen::Vector3d rho = offset(q, k);
      contacts.gap[c] = q[2] + rho.z();  // the sphere's ρ = −r e_z: z − r
      // a corner is a body point, ρ̇ = ω × ρ; the sphere's contact point stays below the centre,
      // ρ = −r e_z, so its rows are constant
      const Eigen::Vector3d centripetal = corners_.empty()
                                              ? Eigen::Vector3d::Zero()
                                              : Eigen::Vector3d(omega.cross(omega.cross(rho)));
      for (int r = 0; r < 3; ++r) {
        const Eigen::Vector3d e = Eigen::Vector3d::Unit(r == 0 ? 2 : r - 1);
        contacts.jacobian.block<1, 3>(3 * c + r, 0) = e.transpose();
        contacts.jacobian.block<1, 3>(3 * c + r, 3) = rho.cross(e).transpose();
        contacts.jacobian_dot_v[3 * c + r] = e.dot(centripetal);
      }
    }
    touch_every_velocity(contacts);
  }

  double mass_, inertia_;
  Eigen::Vector3d gravity_;
  double sphere_radius_ = 0.0;
  std::vector<Eigen::Vector3d> corners_;  ///< body frame, the cube's
  std::vector<std::string> contacts_;
  std::vector<std::string> names_{"x", "y", "z", "qw", "qx", "qy", "qz"},
      units_{"m", "m", "m", "1", "1", "1", "1"},
      velocity_names_{"vx", "vy", "vz", "wx", "wy", "wz"};
};

}  // namespace routh::test
