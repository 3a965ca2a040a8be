// The shared reading and finishing of spatial single-contact problems
// (sim/impact/spatial_contact.hpp).

#include <doctest/doctest.h>

#include "sim/contact_space.hpp"
#include "sim/impact/spatial_contact.hpp"

namespace {

// An SPD H [1/kg]: paper 001's numbers (§4) as printed, not mapped into our sign convention;
// any SPD matrix serves these checks.
Eigen::Matrix3d paper001_H() {
  Eigen::Matrix3d H;
  H << 8, -2, 1, -2, 3, -1, 1, -1, 5;
  return H;
}

}  // namespace

TEST_CASE("spatial contact: problems are read, checked and refused with a status") {
  const routh::ContactParameters parameters{0.5, 0.3, 0.3};
  routh::SpatialContact contact;
  routh::ImpactResult result;
  const auto approaching =
      routh::spatial_impact_problem(paper001_H(), Eigen::Vector3d(-15, 10, 0), parameters);
  CHECK(routh::read_spatial_contact(approaching, contact, result));
  CHECK(contact.u_n == -15.0);
  CHECK(contact.u_t == Eigen::Vector2d(10, 0));

  const auto separating =
      routh::spatial_impact_problem(paper001_H(), Eigen::Vector3d(0, 10, 0), parameters);
  CHECK_FALSE(routh::read_spatial_contact(separating, contact, result));
  CHECK(result.status == routh::ImpactStatus::no_impact);
  CHECK(result.u_post == separating.u_pre);

  Eigen::Matrix3d indefinite = paper001_H();
  indefinite(0, 1) = indefinite(1, 0) = 6.0;  // 8·3 < 36: not positive definite
  CHECK_FALSE(routh::read_spatial_contact(
      routh::spatial_impact_problem(indefinite, Eigen::Vector3d(-15, 10, 0), parameters), contact,
      result));
  CHECK(result.status == routh::ImpactStatus::invalid_problem);

  CHECK_FALSE(routh::read_spatial_contact(
      routh::planar_impact_problem(2.5, 2.5, -1.5, -1.0, 0.0, parameters), contact, result));
  CHECK(result.status == routh::ImpactStatus::unsupported);
}

TEST_CASE("spatial contact: the finished result's ΔT is the kinetic energy change") {
  // Frictionless Poisson impact along n: Γ = (Γ_n, 0, 0) with Γ_n = −(1 + e) u_n / H_nn.
  const double e = 0.5;
  const auto problem =
      routh::spatial_impact_problem(paper001_H(), Eigen::Vector3d(-15, 10, 0), {e, 0.0, 0.0});
  routh::SpatialContact contact;
  routh::ImpactResult result;
  REQUIRE(routh::read_spatial_contact(problem, contact, result));
  routh::SpatialImpactEnd end;
  end.impulse = Eigen::Vector3d((1.0 + e) * 15.0 / 8.0, 0.0, 0.0);
  routh::finish_spatial_result(contact, end, result);
  CHECK(result.status == routh::ImpactStatus::solved);
  CHECK(result.u_post[0] == doctest::Approx(7.5).epsilon(1e-15));
  CHECK(result.delta_T ==
        doctest::Approx(routh::kinetic_energy_change(problem.D, problem.u_pre, result.impulse))
            .epsilon(1e-14));
  CHECK(result.delta_T < 0.0);
  CHECK_FALSE(result.flags.has(routh::ImpactFlag::energy_gain));
  // an impulse that pushes too hard gains energy, and says so
  end.impulse[0] = 3.0 * 15.0 / 8.0;
  routh::ImpactResult gain;
  routh::finish_spatial_result(contact, end, gain);
  CHECK(gain.flags.has(routh::ImpactFlag::energy_gain));
}
