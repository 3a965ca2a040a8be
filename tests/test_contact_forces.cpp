// Acceleration-level contact forces for given modes (sim/simulation/contact_forces.hpp), against
// the closed forms of a point mass on an incline: sticking needs tan θ ≤ μs and holds it at rest
// with λ_n = m g cos θ; sliding accelerates it at g (sin θ − μd cos θ) down the slope.

#include <doctest/doctest.h>

#include <cmath>

#include "sim/simulation/contact_forces.hpp"
#include "support/point_mass_system.hpp"

namespace {

using routh::ContactMode;

constexpr double kMass = 2.0, kGravity = 9.81;

routh::ConstrainedAcceleration solve(const routh::MechanicalSystem& system,
                                     const std::vector<ContactMode>& modes, double mu_s,
                                     double mu_d) {
  routh::ContactParameterTable parameters(modes.size(), {0.0, mu_s, mu_d});
  const Eigen::VectorXd q = Eigen::Vector2d::Zero(), v = Eigen::Vector2d::Zero();
  routh::StateQuantities state;
  system.evaluate(0.0, q, v, routh::constrained_acceleration_needs(modes), *system.make_workspace(),
                  state);
  routh::ContactForceWorkspace workspace;
  routh::ConstrainedAcceleration out;
  routh::constrained_acceleration(state, modes, parameters, workspace, out);
  return out;
}

routh::ConstrainedAcceleration solve(const routh::MechanicalSystem& system, ContactMode mode,
                                     double mu_s, double mu_d) {
  return solve(system, std::vector<ContactMode>{mode}, mu_s, mu_d);
}

}  // namespace

TEST_CASE("contact forces: a point mass sticking on an incline is held at rest") {
  const double angle = 0.3;  // tan θ = 0.309
  const routh::test::PointMassSystem system(kMass, kGravity, {routh::test::incline(angle)});
  const auto out = solve(system, ContactMode::stick, 0.5, 0.4);
  REQUIRE(out.consistent);
  CHECK(out.acceleration.norm() < 1e-12);
  CHECK(out.forces[0].normal == doctest::Approx(kMass * kGravity * std::cos(angle)).epsilon(1e-14));
  // friction holds the weight's downslope component: λ_t = +m g sin θ (tangent points upslope)
  CHECK(out.forces[0].tangential ==
        doctest::Approx(kMass * kGravity * std::sin(angle)).epsilon(1e-14));
  // the sticking witness μs λ_n − |λ_t| is positive: sticking is consistent when tan θ ≤ μs
  CHECK(0.5 * out.forces[0].normal - std::abs(out.forces[0].tangential) > 0.0);
}

TEST_CASE("contact forces: sliding down an incline accelerates at g (sin θ − μd cos θ)") {
  const double angle = 0.6, mu_d = 0.3;
  const routh::test::PointMassSystem system(kMass, kGravity, {routh::test::incline(angle)});
  const auto out = solve(system, ContactMode::slide_negative, 0.35, mu_d);
  REQUIRE(out.consistent);
  const Eigen::Vector2d tangent = routh::test::incline(angle).tangent();
  const double downslope = -out.acceleration.dot(tangent);
  CHECK(downslope ==
        doctest::Approx(kGravity * (std::sin(angle) - mu_d * std::cos(angle))).epsilon(1e-13));
  CHECK(std::abs(out.acceleration.dot(routh::test::incline(angle).normal)) < 1e-12);  // a_n = 0
  CHECK(out.forces[0].normal == doctest::Approx(kMass * kGravity * std::cos(angle)).epsilon(1e-14));
  CHECK(out.forces[0].tangential == doctest::Approx(mu_d * out.forces[0].normal).epsilon(1e-14));
}

TEST_CASE("contact forces: a pull away from the floor makes the normal force negative (lift-off)") {
  // Upward applied force larger than the weight: keeping the contact closed would need λ_n < 0,
  // which is what the lift-off witness watches.
  const routh::test::PointMassSystem system(kMass, kGravity, {routh::test::HalfPlane{}},
                                            Eigen::Vector2d(0.0, 1.5 * kMass * kGravity));
  const auto out = solve(system, ContactMode::stick, 0.5, 0.5);
  REQUIRE(out.consistent);
  CHECK(out.forces[0].normal == doctest::Approx(-0.5 * kMass * kGravity).epsilon(1e-14));
  // and an open contact feels no force: the mass accelerates freely
  const auto open = solve(system, ContactMode::open, 0.5, 0.5);
  CHECK(open.acceleration[1] == doctest::Approx(0.5 * kGravity).epsilon(1e-14));
  CHECK(open.forces[0].normal == 0.0);
}

TEST_CASE(
    "contact forces: two contacts on one floor share the weight equally, sticking or sliding") {
  // Statically indeterminate: two contacts on one floor give a point mass four constraint rows
  // for its two degrees of freedom when they stick (a singular 4 x 4 J_c M⁻¹ W), two normal rows
  // for one direction when they slide (a singular 2 x 2). Any split of the weight holds the mass;
  // the simulator takes the minimum-norm forces, which split it equally, as no other particular
  // solution would.
  const routh::test::PointMassSystem system(kMass, kGravity,
                                            {routh::test::HalfPlane{}, routh::test::HalfPlane{}});
  const double mu = 0.5;
  for (const ContactMode mode : {ContactMode::stick, ContactMode::slide_positive}) {
    CAPTURE(routh::to_string(mode));
    const auto out = solve(system, {mode, mode}, mu, mu);
    REQUIRE(out.consistent);
    CHECK(std::abs(out.acceleration[1]) < 1e-12);  // held on the floor
    for (const routh::ContactForce& force : out.forces) {
      CHECK(force.normal == doctest::Approx(0.5 * kMass * kGravity).epsilon(1e-14));
      CHECK(std::abs(force.tangential + mu * slip_direction(mode) * force.normal) < 1e-12);
    }
  }
}
