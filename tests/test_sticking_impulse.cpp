// The sticking impulse that resolves Painlevé's paradox when the law finds no impact
// (sim/simulation/sticking_impulse.hpp), alone, against the closed form of a 1 m, 1 kg rod whose
// left end slides on the floor at angle θ (I = 1/12 kg m²): the end's contact space is
//     D = [[1 + 3 cos²θ, −3 sinθ cosθ], [−3 sinθ cosθ, 1 + 3 sin²θ]],   det D = 4,
// so from u⁻ = (0, u_t) the impulse that stops it is Γ = −D⁻¹u⁻:
//     Γ_n = 3 sinθ cosθ (−u_t) / 4,   Γ_t = (1 + 3 cos²θ) (−u_t) / 4,   ΔT = −(1 + 3 cos²θ) u_t²
//     / 8.
// It is Coulomb's iff |Γ_t| ≤ μ Γ_n, i.e. μ > (1 + 3 cos²θ) / (3 sinθ cosθ): exactly Painlevé's
// condition for the end sliding outward, D_nn − μ σ D_nt < 0 (tests/test_painleve.cpp). At one
// contact, the sticking impulse is admissible precisely where the paradox holds.

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "models/named_models.hpp"
#include "sim/simulation/sticking_impulse.hpp"

namespace {

routh::ImpactResolution stick_sliding_rod(double theta, double slip, double mu) {
  routh::ModelOptions options;
  options.gravity_m_s2 = 9.81;
  const auto rod = routh::make_rod(1.0, 1.0, options);
  routh::SimulationSettings settings;
  settings.contacts.assign(2, {0.0, mu, mu});
  routh::SystemEvaluation evaluation(*rod, settings.contacts);
  const Eigen::Vector3d q(0.0, 0.5 * std::sin(theta), theta);
  const Eigen::Vector3d v(slip, 0.0, 0.0);  // the end slides with the centre, u_n = 0
  return routh::sticking_impulse(evaluation, settings, 0.0, q, v);
}

}  // namespace

TEST_CASE("sticking impulse: a rod's end in Painlevé's configuration stops inside its cone") {
  const double theta = std::numbers::pi / 3.0, slip = -1.0, mu = 1.5;
  const double s = std::sin(theta), c = std::cos(theta);
  REQUIRE(1.0 + 3.0 * c * c - 3.0 * mu * s * c < 0.0);  // Painlevé's configuration
  const routh::ImpactResolution stick = stick_sliding_rod(theta, slip, mu);
  REQUIRE(stick.resolved);
  CHECK(stick.contacts == std::vector<int>{0});
  const routh::EventRecord& event = stick.event;
  CHECK(event.kind == routh::EventKind::impact);
  CHECK(event.impulse[0] == doctest::Approx(3.0 * s * c * -slip / 4.0).epsilon(1e-12));
  CHECK(event.impulse[1] == doctest::Approx((1.0 + 3.0 * c * c) * -slip / 4.0).epsilon(1e-12));
  CHECK(std::abs(event.u_post[0]) < 1e-14);
  CHECK(std::abs(event.u_post[1]) < 1e-14);
  const double delta_T = -(1.0 + 3.0 * c * c) * slip * slip / 8.0;
  CHECK(event.delta_T == doctest::Approx(delta_T).epsilon(1e-12));
  CHECK(event.normal_work + event.tangential_work == doctest::Approx(delta_T).epsilon(1e-12));
  // the velocity change is the generalized one of the impulse: m = 1, so Δẋ = Γ_t and Δẏ = Γ_n
  CHECK(stick.velocity_change[0] == doctest::Approx(event.impulse[1]).epsilon(1e-12));
  CHECK(stick.velocity_change[1] == doctest::Approx(event.impulse[0]).epsilon(1e-12));
}

TEST_CASE("sticking impulse: below Painlevé's friction the impulse would leave the cone") {
  const double theta = std::numbers::pi / 3.0;
  const double s = std::sin(theta), c = std::cos(theta);
  const double threshold = (1.0 + 3.0 * c * c) / (3.0 * s * c);  // 1.347
  CHECK_FALSE(stick_sliding_rod(theta, -1.0, 0.99 * threshold).resolved);
  CHECK(stick_sliding_rod(theta, -1.0, 1.01 * threshold).resolved);
}
