// The contact-mode stage (sim/simulation/contact_modes.hpp) alone, on a rectangular block
// (half-width b, half-height h, mass m, I = m (b² + h²) / 3 about its centre) flat on the floor:
// which contacts are candidates, which modes are consistent, and when Painlevé's paradox holds.
// The paradox's reference is the closed form of a sliding corner's effective normal inertia,
// A = D_nn − μ σ D_nt with D_nn = 1/m + b²/I and D_nt = ±b h / I (the sign of the corner's x),
// which is negative for the leading corner of the 0.4 m × 0.2 m block at μ = 3.

#include <doctest/doctest.h>

#include <cmath>

#include "models/named_models.hpp"
#include "sim/simulation/contact_modes.hpp"

namespace {

using routh::ContactMode;

constexpr double kWidth = 0.4, kHeight = 0.2, kMass = 1.0;

routh::SimulationSettings settings_with_friction(double mu) {
  routh::SimulationSettings settings;
  settings.contacts.assign(4, {0.0, mu, mu});  // every corner of the block
  return settings;
}

// The modes of the bottom corners; the top ones are open, far above the floor.
std::vector<ContactMode> bottom_corners(ContactMode left, ContactMode right) {
  return {left, right, ContactMode::open, ContactMode::open};
}

struct Settled {
  routh::ModeSettlement settlement;
  std::vector<ContactMode> modes;
  Eigen::VectorXd v;
};

Settled settle_flat_block(double mu, const Eigen::Vector3d& velocity) {
  const auto block = routh::make_rocking_block(kWidth, kHeight, kMass);
  routh::SimulationSettings settings = settings_with_friction(mu);
  settings.contacts.resize(static_cast<std::size_t>(block->contact_count()), settings.contacts[0]);
  routh::SystemEvaluation evaluation(*block, settings.contacts);
  const Eigen::VectorXd q = Eigen::Vector3d(0.0, 0.5 * kHeight, 0.0);
  Settled settled;
  settled.v = velocity;
  settled.modes.assign(static_cast<std::size_t>(block->contact_count()), ContactMode::open);
  settled.settlement =
      routh::settle_contact_modes(evaluation, settings, 0.0, q, settled.v, settled.modes);
  return settled;
}

}  // namespace

TEST_CASE("contact modes: a block at rest on the floor sticks on both corners") {
  const Settled settled = settle_flat_block(0.6, Eigen::Vector3d::Zero());
  CHECK(settled.settlement.consistent);
  CHECK(settled.settlement.painleve.empty());
  CHECK(settled.modes == bottom_corners(ContactMode::stick, ContactMode::stick));
}

TEST_CASE("contact modes: a block sliding with moderate friction slides on both corners") {
  const Settled settled = settle_flat_block(0.4, Eigen::Vector3d(2.0, 0.0, 0.0));
  CHECK(settled.settlement.consistent);
  CHECK(settled.modes == bottom_corners(ContactMode::slide_positive, ContactMode::slide_positive));
  CHECK(settled.v[0] == doctest::Approx(2.0));  // the slip is kept, not projected away
}

TEST_CASE("contact modes: Painlevé's paradox at the leading corner of a block sliding with mu 3") {
  // closed form: the corners' effective normal inertia when sliding in +x
  const double b = 0.5 * kWidth, h = 0.5 * kHeight, mu = 3.0;
  const double I = kMass * (b * b + h * h) / 3.0;
  const double D_nn = 1.0 / kMass + b * b / I, D_nt = b * h / I;
  REQUIRE(D_nn - mu * D_nt < 0.0);  // leading (right) corner: the paradox
  REQUIRE(D_nn + mu * D_nt > 0.0);  // trailing (left) corner: none
  const Settled settled = settle_flat_block(mu, Eigen::Vector3d(2.0, 0.0, 0.0));
  CHECK_FALSE(settled.settlement.consistent);
  CHECK(settled.settlement.painleve == std::vector<int>{1});
}

TEST_CASE("contact modes: without friction there is never a Painlevé configuration") {
  for (const double slip : {0.0, 2.0, -3.0}) {
    const Settled settled = settle_flat_block(0.0, Eigen::Vector3d(slip, 0.0, 0.0));
    CHECK(settled.settlement.consistent);
    CHECK(settled.settlement.painleve.empty());
    CHECK(routh::is_closed(settled.modes[0]));
    CHECK(routh::is_closed(settled.modes[1]));
  }
}

TEST_CASE("contact modes: a separating contact is open, never a candidate, never Painlevé") {
  const Settled lifting = settle_flat_block(3.0, Eigen::Vector3d(2.0, 0.1, 0.0));
  CHECK(lifting.modes == bottom_corners(ContactMode::open, ContactMode::open));
  CHECK(lifting.settlement.painleve.empty());
  CHECK(lifting.v[1] == 0.1);  // nothing projected
  // a corner separating slower than the rest speed counts as resting
  const Settled slow = settle_flat_block(0.6, Eigen::Vector3d(0.0, 1e-8, 0.0));
  CHECK(slow.modes == bottom_corners(ContactMode::stick, ContactMode::stick));
  CHECK(std::abs(slow.v[1]) < 1e-15);
}
