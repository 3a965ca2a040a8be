#pragma once
// What the simulator knows of a multibody system (DESIGN §1–2): the dynamics
//     M(q) v̇ = f(q, v, t) + Σ_k J_k(q)ᵀ λ_k,      q̇ = v (planar systems),
// and, per contact k, a gap g_k(q) ≥ 0 with contact velocity u_k = J_k(q) v, normal row first,
// then the tangential row(s). Models (models/) implement this; the simulator, the impact laws
// and the recorder never see a particular model. Implementations are immutable after
// construction (Pinocchio's Model); every query writes only its output arguments.

#include <Eigen/Core>
#include <string>
#include <vector>

#include "sim/impact/impact_problem.hpp"

namespace routh {

/// The contact quantities of every contact at one state, stacked contact by contact.
struct ContactKinematics {
  Eigen::VectorXd gap;             ///< g_k(q) [m], one per contact; > 0 apart, 0 touching
  Eigen::MatrixXd jacobian;        ///< rows_per_contact·K × n: J_k, normal row first
  Eigen::VectorXd jacobian_dot_v;  ///< rows_per_contact·K: J̇_k(q, v) v [m/s²], the velocity
                                   ///< product in the contact acceleration a_k = J_k v̇ + J̇_k v
};

class MechanicalSystem {
 public:
  virtual ~MechanicalSystem() = default;

  /// n, the number of generalized coordinates (= velocities for planar systems).
  virtual int coordinate_count() const = 0;
  /// Names of q in order, e.g. {"x", "y", "theta"} or {"theta1", "theta2"}.
  virtual const std::vector<std::string>& coordinate_names() const = 0;
  /// SI unit of each coordinate, "m" or "rad".
  virtual const std::vector<std::string>& coordinate_units() const = 0;
  /// Names of the contacts in order, e.g. {"left_corner", "right_corner"}.
  virtual const std::vector<std::string>& contact_names() const = 0;
  int contact_count() const { return static_cast<int>(contact_names().size()); }
  /// Planar contacts have one tangential row, spatial ones two.
  virtual ContactDimension contact_dimension() const = 0;

  /// M(q) [kg, kg m, kg m²], symmetric positive definite, n × n.
  virtual void mass_matrix(const Eigen::VectorXd& q, Eigen::MatrixXd& M) const = 0;
  /// f(q, v, t) [N, N m]: gravity, joint springs and dampers, base excitation as an inertial
  /// load, minus the velocity-product (Coriolis and centrifugal) terms.
  virtual void generalized_force(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                 Eigen::VectorXd& f) const = 0;
  /// Gaps, Jacobians and J̇v of every contact.
  virtual void contact_kinematics(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                  ContactKinematics& contacts) const = 0;
  /// V(q) [J], gravity and springs, for the energy record. Kinetic energy is ½ vᵀ M v.
  virtual double potential_energy(const Eigen::VectorXd& q) const = 0;
};

}  // namespace routh
