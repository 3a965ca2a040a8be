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

namespace {

// A uniform block (width w, height h, 1 kg) flat on the floor, sliding at u > 0 on both bottom
// corners (contacts 0, left, and 1, right).
routh::ImpactResolution stick_sliding_block(double w, double h, double u, double mu) {
  routh::ModelOptions options;
  options.gravity_m_s2 = 9.81;
  const auto block = routh::make_rocking_block(w, h, 1.0, options);
  routh::SimulationSettings settings;
  settings.contacts.assign(4, {0.0, mu, mu});
  routh::SystemEvaluation evaluation(*block, settings.contacts);
  const Eigen::Vector3d q(0.0, 0.5 * h, 0.0);
  const Eigen::Vector3d v(u, 0.0, 0.0);
  return routh::sticking_impulse(evaluation, settings, 0.0, q, v);
}

}  // namespace

TEST_CASE("sticking impulse: a flat block stopped on its leading corner lifts its trailing one") {
  // Source: stopping both corners of a block sliding flat at u needs, by its moment balance about
  // the centre, normal impulses ±h m u / (2w) that sum to zero: the trailing corner would pull,
  // in every split (only the tangential split is free). So it separates, and the leading corner
  // (r = (w/2, −h/2); J_n = [0, 1, w/2], J_t = [1, 0, h/2]; I = m (w² + h²)/12) stops alone:
  //     D_nn = 1/m + w²/(4I),  D_tt = 1/m + h²/(4I),  D_nt = w h/(4I),
  //     Γ = −D⁻¹ (0, u):  Γ_n = u D_nt / det D,  Γ_t = −u D_nn / det D,
  // inside the cone iff μ ≥ D_nn / D_nt = (4w² + h²) / (3 w h) (2.5 for w = 0.4, h = 1.2: the
  // block tips onto that corner as it stops). The trailing corner then rises,
  // u_n = Δv_y − (w/2) Δω > 0, and ΔT = −½ u² D_nn / det D.
  const double w = 0.4, h = 1.2, u = 0.3;
  const double I = (w * w + h * h) / 12.0;
  const double D_nn = 1.0 + w * w / (4.0 * I), D_tt = 1.0 + h * h / (4.0 * I),
               D_nt = w * h / (4.0 * I);
  const double det = D_nn * D_tt - D_nt * D_nt;
  const double threshold = D_nn / D_nt;
  REQUIRE(threshold == doctest::Approx((4.0 * w * w + h * h) / (3.0 * w * h)).epsilon(1e-14));
  CHECK_FALSE(stick_sliding_block(w, h, u, 0.99 * threshold).resolved);
  const routh::ImpactResolution stick = stick_sliding_block(w, h, u, 1.01 * threshold);
  REQUIRE(stick.resolved);
  CHECK(stick.contacts == std::vector<int>{1});
  const routh::EventRecord& event = stick.event;
  REQUIRE(event.impulse.size() == 2);
  CHECK(event.impulse[0] == doctest::Approx(u * D_nt / det).epsilon(1e-12));
  CHECK(event.impulse[1] == doctest::Approx(-u * D_nn / det).epsilon(1e-12));
  CHECK(std::abs(event.u_post[0]) < 1e-14);
  CHECK(std::abs(event.u_post[1]) < 1e-14);
  CHECK(event.delta_T == doctest::Approx(-0.5 * u * u * D_nn / det).epsilon(1e-12));
  CHECK(event.normal_work + event.tangential_work == doctest::Approx(event.delta_T).epsilon(1e-12));
  const Eigen::VectorXd& dv = stick.velocity_change;
  const double omega = 0.5 * w * event.impulse[0] + 0.5 * h * event.impulse[1];
  CHECK(dv[2] == doctest::Approx(omega / I).epsilon(1e-12));
  CHECK(dv[1] - 0.5 * w * dv[2] > 0.0);  // the trailing corner rises
}
