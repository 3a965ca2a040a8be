// The dynamic jam's witness and impulse (sim/simulation/dynamic_jam.hpp), alone, against the
// closed form of a 1 m, 1 kg rod (I = 1/12 kg m²) whose left end slides on the floor at angle θ
// with u_t < 0, its centre moving horizontally: the end's contact space is
//     D = [[1 + 3 cos²θ, −3 sinθ cosθ], [−3 sinθ cosθ, 1 + 3 sin²θ]],   det D = 4,
// so that its sliding compliance is A = D_nn − μ σ D_nt = 1 + 3 cos²θ − 3 μ sinθ cosθ (σ = −1),
// A₀ = 1 + 3 cos²θ without friction, and r = A/A₀ = 1 − μ/μ* with Painlevé's friction
// μ* = (1 + 3 cos²θ) / (3 sinθ cosθ) (Génot & Brogliato 1999). Just below μ* the end jams; the
// impulse that stops it, Γ = −D⁻¹u⁻ from u⁻ = (0, u_t), is
//     Γ_n = 3 sinθ cosθ (−u_t) / 4,   Γ_t = (1 + 3 cos²θ) (−u_t) / 4,   ΔT = −(1 + 3 cos²θ) u_t²/8,
// with |Γ_t| / Γ_n = μ* = μ / (1 − r): on the kinetic cone's edge as r → 0, outside it by the
// fraction r at r.

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <optional>
#include <vector>

#include "models/named_models.hpp"
#include "sim/simulation/dynamic_jam.hpp"

namespace {

constexpr double kTheta = std::numbers::pi / 3.0, kSlip = -1.0;

double painleve_friction() {
  const double s = std::sin(kTheta), c = std::cos(kTheta);
  return (1.0 + 3.0 * c * c) / (3.0 * s * c);
}

// The rod's end sliding with friction μ* (1 − r): its jam, if the witness finds one, and the
// impulse of the jam found or, with `forced`, of a jam of that end taken all the same.
struct RodJam {
  std::optional<routh::Jam> jam;
  routh::ImpactResolution impulse;
};

RodJam sliding_rod(double r, bool forced = false) {
  routh::ModelOptions options;
  options.gravity_m_s2 = 9.81;
  const auto rod = routh::make_rod(1.0, 1.0, options);
  const double mu = painleve_friction() * (1.0 - r);
  routh::SimulationSettings settings;
  settings.contacts.assign(2, {0.0, mu, mu});
  routh::SystemEvaluation evaluation(*rod, settings.contacts);
  const Eigen::Vector3d q(0.0, 0.5 * std::sin(kTheta), kTheta);
  const Eigen::VectorXd v = Eigen::Vector3d(kSlip, 0.0, 0.0);  // u_n = 0 at the end
  const std::vector<routh::ContactMode> modes{routh::ContactMode::slide_negative,
                                              routh::ContactMode::open};
  RodJam out;
  routh::JamWorkspace scratch;
  out.jam = routh::jam_at(evaluation, 0.0, q, v, modes, scratch);
  const routh::Jam taken = forced ? routh::Jam{{0}, r} : out.jam.value_or(routh::Jam{});
  if (out.jam || forced) {
    out.impulse = routh::jam_impulse(evaluation, settings, 0.0, q, v, modes, taken);
  }
  return out;
}

}  // namespace

TEST_CASE("dynamic jam: a rod's end sliding just below Painlevé's friction jams") {
  const double r = 0.5 * routh::kJamCompliance;
  const RodJam rod = sliding_rod(r);
  REQUIRE(rod.jam);
  CHECK(rod.jam->contacts == std::vector<int>{0});
  CHECK(rod.jam->compliance == doctest::Approx(r).epsilon(1e-6));
  REQUIRE(rod.impulse.resolved);
  const routh::EventRecord& event = rod.impulse.event;
  const double s = std::sin(kTheta), c = std::cos(kTheta);
  CHECK(event.impulse[0] == doctest::Approx(3.0 * s * c * -kSlip / 4.0).epsilon(1e-12));
  CHECK(event.impulse[1] == doctest::Approx((1.0 + 3.0 * c * c) * -kSlip / 4.0).epsilon(1e-12));
  CHECK(std::abs(event.u_post[0]) < 1e-14);
  CHECK(std::abs(event.u_post[1]) < 1e-14);
  CHECK(event.delta_T ==
        doctest::Approx(-(1.0 + 3.0 * c * c) * kSlip * kSlip / 8.0).epsilon(1e-12));
}

TEST_CASE("dynamic jam: a rod's end sliding well below Painlevé's friction slides on") {
  CHECK_FALSE(sliding_rod(10.0 * routh::kJamCompliance).jam);
  CHECK_FALSE(sliding_rod(0.5).jam);
}

TEST_CASE(
    "dynamic jam: the impulse is refused where it leaves the kinetic cone by more than "
    "the jam resolves") {
  // taken at r = 2 kJamCompliance, |Γ_t| / Γ_n = μ / (1 − r) exceeds μ (1 + kJamCompliance)
  CHECK_FALSE(sliding_rod(2.0 * routh::kJamCompliance, /*forced=*/true).impulse.resolved);
  CHECK(sliding_rod(0.9 * routh::kJamCompliance, /*forced=*/true).impulse.resolved);
}
