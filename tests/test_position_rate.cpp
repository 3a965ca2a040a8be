// The loop with nq ≠ nv: a rotor on a fixed pin whose orientation is the unit complex number
// q = (cos θ, sin θ), 2 coordinates for 1 velocity v = ω, turned by a constant torque τ. The model
// supplies q̇ = N(q) v = (−sin θ, cos θ) ω, the retraction q ⊕ δ (a rotation by δ) and the
// normalization of q; the simulator integrates (q, v), 3 numbers, and samples v with its own size.
// Source: the closed form of uniformly accelerated rotation, ω(t) = ω₀ + (τ/I) t,
// θ(t) = ω₀ t + ½ (τ/I) t².

#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "sim/dynamics/mechanical_system.hpp"
#include "sim/simulation/simulator.hpp"
#include "support/trajectory_memory.hpp"

namespace {

using routh::ContactDimension;
using routh::MechanicalSystem;
using routh::QuantityRequest;
using routh::StateQuantities;
using routh::SystemWorkspace;

constexpr double kInertia = 0.5;  // [kg m²]
constexpr double kTorque = 0.2;   // [N m]

class UnitComplexRotor final : public MechanicalSystem {
 public:
  int coordinate_count() const override { return 2; }
  int velocity_count() const override { return 1; }
  const std::vector<std::string>& coordinate_names() const override { return names_; }
  const std::vector<std::string>& coordinate_units() const override { return units_; }
  const std::vector<std::string>& velocity_names() const override { return velocity_names_; }
  std::vector<std::string> velocity_units() const override { return {"rad/s"}; }
  const std::vector<std::string>& contact_names() const override { return contacts_; }
  ContactDimension contact_dimension() const override { return ContactDimension::planar; }

  void position_rate(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                     Eigen::Ref<Eigen::VectorXd> q_dot) const override {
    q_dot[0] = -q[1] * v[0];
    q_dot[1] = q[0] * v[0];
  }
  void integrate(const Eigen::VectorXd& q, const Eigen::VectorXd& delta_v,
                 Eigen::VectorXd& q_out) const override {
    const double c = std::cos(delta_v[0]), s = std::sin(delta_v[0]);
    const double q0 = q[0], q1 = q[1];
    q_out.resize(2);
    q_out << c * q0 - s * q1, s * q0 + c * q1;
  }
  void normalize(Eigen::VectorXd& q) const override { q.normalize(); }

  std::unique_ptr<SystemWorkspace> make_workspace() const override {
    return std::make_unique<SystemWorkspace>(*this);
  }
  void evaluate(double /*t*/, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                const QuantityRequest& request, SystemWorkspace& /*workspace*/,
                StateQuantities& out) const override {
    REQUIRE(q.size() == 2);
    REQUIRE(v.size() == 1);
    if (request.mass_matrix) out.mass_matrix = Eigen::MatrixXd::Constant(1, 1, kInertia);
    if (request.generalized_force) out.generalized_force = Eigen::VectorXd::Constant(1, kTorque);
    if (request.contacts) {
      out.contacts.gap.resize(0);
      out.contacts.jacobian.resize(0, 1);
      out.contacts.jacobian_dot_v.resize(0);
      touch_every_velocity(out.contacts);
    }
    // the torque does work −V: V = −τ θ
    if (request.potential_energy) out.potential_energy = -kTorque * std::atan2(q[1], q[0]);
  }

 private:
  std::vector<std::string> names_{"rotor.c", "rotor.s"}, units_{"1", "1"},
      velocity_names_{"rotor.omega"}, contacts_;
};

}  // namespace

TEST_CASE("position rate: a rotor with 2 coordinates and 1 velocity turns as the closed form") {
  const UnitComplexRotor rotor;
  const double omega0 = 1.0;  // [rad/s]
  routh::SimulationState initial;
  initial.q = Eigen::Vector2d(1.0, 0.0);
  initial.v = Eigen::VectorXd::Constant(1, omega0);
  routh::SimulationSettings settings;
  settings.duration = 2.0;
  settings.output_rate = 10.0;
  routh::test::TrajectoryMemory trajectory;
  const routh::SimulationOutcome outcome = routh::simulate(rotor, initial, settings, trajectory);
  REQUIRE(outcome.status == routh::RunStatus::completed);
  REQUIRE(trajectory.samples.size() == 21);
  // dopri5 at tolerances 3e-11 over 2 s: the angle and rate are met to ~1e-9, the norm of q,
  // which the integrator does not know to keep, drifts at that level too
  for (const auto& sample : trajectory.samples) {
    CAPTURE(sample.t);
    REQUIRE(sample.q.size() == 2);
    REQUIRE(sample.v.size() == 1);
    const double theta = omega0 * sample.t + 0.5 * kTorque / kInertia * sample.t * sample.t;
    CHECK(sample.q[0] == doctest::Approx(std::cos(theta)).epsilon(1e-9));
    CHECK(std::abs(sample.q[1] - std::sin(theta)) < 1e-9);
    CHECK(sample.v[0] == doctest::Approx(omega0 + kTorque / kInertia * sample.t).epsilon(1e-12));
  }
  CHECK(outcome.final_state.q.size() == 2);
  CHECK(outcome.final_state.v.size() == 1);
}

TEST_CASE("position rate: a planar model keeps the defaults, v named as q and q ⊕ δv = q + δv") {
  struct Planar final : MechanicalSystem {
    int coordinate_count() const override { return 2; }
    const std::vector<std::string>& coordinate_names() const override { return names; }
    const std::vector<std::string>& coordinate_units() const override { return units; }
    const std::vector<std::string>& contact_names() const override { return contacts; }
    ContactDimension contact_dimension() const override { return ContactDimension::planar; }
    std::unique_ptr<SystemWorkspace> make_workspace() const override {
      return std::make_unique<SystemWorkspace>(*this);
    }
    void evaluate(double, const Eigen::VectorXd&, const Eigen::VectorXd&, const QuantityRequest&,
                  SystemWorkspace&, StateQuantities&) const override {}
    std::vector<std::string> names{"x", "theta"}, units{"m", "rad"}, contacts;
  } planar;
  CHECK(planar.velocity_count() == 2);
  CHECK(planar.velocity_names() == planar.coordinate_names());
  CHECK((planar.velocity_units() == std::vector<std::string>{"m/s", "rad/s"}));
  // (q̇ = v is what every planar run integrates: their trajectories are unchanged by it)
  Eigen::VectorXd q(2), v(2), q_next;
  q << 0.5, -1.25;
  v << 3.0, 0.75;
  planar.integrate(q, v, q_next);
  CHECK(q_next == q + v);
  Eigen::VectorXd unchanged = q;
  planar.normalize(unchanged);
  CHECK(unchanged == q);
}
