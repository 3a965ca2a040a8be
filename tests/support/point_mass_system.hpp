#pragma once
// The smallest MechanicalSystem: a point mass (q = (x, y)) under gravity, a constant applied
// force and optionally a force that varies in time, touching fixed half-planes. Independent of
// models/, so the simulator's tests check it against closed forms without any multibody algebra in
// between.

#include <Eigen/Core>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/dynamics/mechanical_system.hpp"

namespace routh::test {

/// A fixed line the point must stay above: gap = n·(p − p0) [m]; tangent t = (n_y, −n_x), so for
/// the floor n = (0, 1) the tangent is +x.
struct HalfPlane {
  Eigen::Vector2d point{0.0, 0.0};
  Eigen::Vector2d normal{0.0, 1.0};  ///< unit, pointing to the free side
  Eigen::Vector2d tangent() const { return {normal.y(), -normal.x()}; }
};

/// A plane inclined at `angle` [rad] through the origin, rising towards +x; its tangent points
/// up the slope.
inline HalfPlane incline(double angle) {
  return HalfPlane{{0.0, 0.0}, {-std::sin(angle), std::cos(angle)}};
}

/// A force f(t) [N] on the point, t [s].
using ForceOfTime = std::function<Eigen::Vector2d(double)>;

class PointMassSystem final : public MechanicalSystem {
 public:
  PointMassSystem(double mass, double gravity, std::vector<HalfPlane> obstacles,
                  Eigen::Vector2d applied_force = Eigen::Vector2d::Zero())
      : mass_(mass), gravity_(gravity), obstacles_(std::move(obstacles)), applied_(applied_force) {
    for (std::size_t k = 0; k < obstacles_.size(); ++k)
      contacts_.push_back("plane" + std::to_string(k));
  }

  /// A point mass pushed by `force`(t) on top of gravity. A force that varies in time has no
  /// potential: V counts gravity only, so T + V is not conserved.
  static PointMassSystem pushed(double mass, double gravity, std::vector<HalfPlane> obstacles,
                                ForceOfTime force) {
    PointMassSystem system(mass, gravity, std::move(obstacles));
    system.force_of_time_ = std::move(force);
    return system;
  }

  int coordinate_count() const override { return 2; }
  const std::vector<std::string>& coordinate_names() const override { return names_; }
  const std::vector<std::string>& coordinate_units() const override { return units_; }
  const std::vector<std::string>& contact_names() const override { return contacts_; }
  ContactDimension contact_dimension() const override { return ContactDimension::planar; }

  std::unique_ptr<SystemWorkspace> make_workspace() const override {
    return std::make_unique<SystemWorkspace>(*this);  // closed forms need no scratch
  }
  void evaluate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& /*v*/,
                const QuantityRequest& request, SystemWorkspace& /*workspace*/,
                StateQuantities& out) const override {
    if (request.mass_matrix) out.mass_matrix = mass_ * Eigen::MatrixXd::Identity(2, 2);
    if (request.generalized_force) {
      out.generalized_force = applied_ + Eigen::Vector2d(0.0, -mass_ * gravity_);
      if (force_of_time_) out.generalized_force += force_of_time_(t);
    }
    if (request.contacts) fill_contacts(q, request.contact_subset, out.contacts);
    if (request.potential_energy) {
      out.potential_energy = mass_ * gravity_ * q[1] - applied_.dot(Eigen::Vector2d(q));
    }
  }

 private:
  // The contacts of `subset` (every one when it is null), in its order.
  void fill_contacts(const Eigen::VectorXd& q, const std::vector<int>* subset,
                     ContactKinematics& contacts) const {
    const int count = static_cast<int>(subset ? subset->size() : obstacles_.size());
    contacts.gap.resize(count);
    contacts.jacobian.resize(2 * count, 2);
    contacts.jacobian_dot_v = Eigen::VectorXd::Zero(2 * count);  // straight lines: J is constant
    for (int k = 0; k < count; ++k) {
      const HalfPlane& plane = obstacles_.at(
          static_cast<std::size_t>(subset ? (*subset)[static_cast<std::size_t>(k)] : k));
      contacts.gap[k] = plane.normal.dot(Eigen::Vector2d(q) - plane.point);
      contacts.jacobian.row(2 * k) = plane.normal.transpose();
      contacts.jacobian.row(2 * k + 1) = plane.tangent().transpose();
    }
    touch_every_velocity(contacts);
  }

  double mass_, gravity_;
  std::vector<HalfPlane> obstacles_;
  Eigen::Vector2d applied_;
  ForceOfTime force_of_time_;  // empty: none
  std::vector<std::string> names_{"x", "y"}, units_{"m", "m"}, contacts_;
};

}  // namespace routh::test
