// Static friction of an indeterminate contact set (sim/static_friction.hpp), against
// closed forms: (a) the stage alone on hand-made force sets; (b) constrained_acceleration on a
// block flat on the floor under a constant ground acceleration a_g, whose set sticks iff
// |a_g| ≤ μs g with reserve μs ΣN − |ΣF_t| = m (μs g − |a_g|); (c) determinate sets keep their
// (unique) forces.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "models/named_models.hpp"
#include "sim/simulation/contact_forces.hpp"
#include "sim/static_friction.hpp"
#include "support/allocation_counter.hpp"

namespace {

using routh::ContactMatrix;
using routh::ContactMode;
using routh::ContactVector;

// Two corners on one floor, λ = (N1, T1, N2, T2), with fixed normal forces (a block or rod: force
// and moment balance fix them) and the total friction ΣT. The particular solution splits ΣT
// equally (the minimum-norm split); the one force-free direction moves friction from corner 2 to
// corner 1: N = (0, 1, 0, −1)ᵀ.
struct TwoCorners {
  ContactVector particular;
  ContactMatrix null_basis;
  routh::SetContacts contacts;

  TwoCorners(double N1, double N2, double total_friction, double mu1, double mu2) {
    particular.resize(4);
    particular << N1, total_friction / 2.0, N2, total_friction / 2.0;
    null_basis.setZero(4, 1);
    null_basis(1, 0) = 1.0;
    null_basis(3, 0) = -1.0;
    contacts = {{0, 1, mu1}, {2, 3, mu2}};
  }
};

routh::StaticFrictionDistribution distribute(const ContactVector& particular,
                                             const ContactMatrix& null_basis,
                                             const routh::SetContacts& contacts) {
  routh::StaticFrictionDistribution out;
  routh::distribute_static_friction(particular, null_basis, contacts, out);
  return out;
}

// Every cone and normal bound of the set holds for λ (to round-off of the loads).
bool inside_every_cone(const ContactVector& lambda, const routh::SetContacts& contacts) {
  for (const routh::SetContact& contact : contacts) {
    const double N = lambda[contact.normal];
    if (N < -1e-12) return false;
    if (contact.tangential >= 0 &&
        std::abs(lambda[contact.tangential]) > contact.static_friction * N + 1e-12)
      return false;
  }
  return true;
}

}  // namespace

TEST_CASE("static friction: two corners stick iff |ΣF_t| ≤ μs ΣN, with reserve μs ΣN − |ΣF_t|") {
  // Source: the two cones |T_k| ≤ μs N_k summed give |ΣT| ≤ μs ΣN, and the split T_k = ΣT N_k/ΣN
  // attains it; the least utilization ρ* = |ΣT| / (μs ΣN), so R = (1 − ρ*) μs ΣN.
  SUBCASE("the issue's case: the minimum-norm split overloads the lighter corner, the set holds") {
    const double mu = 0.5;
    const TwoCorners set(3.0, 7.0, 4.0, mu, mu);  // μs N1 = 1.5 < ΣT / 2 = 2, μs ΣN = 5 > 4
    CHECK(mu * set.particular[0] - std::abs(set.particular[1]) < 0.0);
    const auto out = distribute(set.particular, set.null_basis, set.contacts);
    CHECK(out.stick_reserve == doctest::Approx(5.0 - 4.0).epsilon(1e-14));
    CHECK(out.forces[1] == doctest::Approx(4.0 * 3.0 / 10.0).epsilon(1e-14));  // ΣT N1 / ΣN
    CHECK(out.forces[3] == doctest::Approx(4.0 * 7.0 / 10.0).epsilon(1e-14));
    CHECK(out.forces[0] == 3.0);
    CHECK(out.forces[2] == 7.0);
    CHECK(inside_every_cone(out.forces, set.contacts));
  }
  SUBCASE("infeasible: |ΣT| > μs ΣN, the reserve is negative") {
    const TwoCorners set(3.0, 7.0, -6.0, 0.5, 0.5);
    const auto out = distribute(set.particular, set.null_basis, set.contacts);
    CHECK(out.stick_reserve == doctest::Approx(5.0 - 6.0).epsilon(1e-14));
    CHECK(!inside_every_cone(out.forces, set.contacts));
    CHECK(out.forces[1] + out.forces[3] == doctest::Approx(-6.0).epsilon(1e-14));  // ΣT kept
  }
  SUBCASE("random loads: R = μs ΣN − |ΣT| to round-off, the sign says whether the set sticks") {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int i = 0; i < 2000; ++i) {
      const double N1 = 10.0 * unit(rng), N2 = 10.0 * unit(rng), mu = unit(rng);
      const double total = (2.0 * unit(rng) - 1.0) * 1.5 * mu * (N1 + N2);
      const TwoCorners set(N1, N2, total, mu, mu);
      const auto out = distribute(set.particular, set.null_basis, set.contacts);
      const double expected = mu * (N1 + N2) - std::abs(total);
      CAPTURE(i);
      CHECK(std::abs(out.stick_reserve - expected) <= 1e-12 * mu * (N1 + N2));
      CHECK(inside_every_cone(out.forces, set.contacts) == (expected >= 0.0));
      CHECK(std::abs(out.forces[1] + out.forces[3] - total) <= 1e-12 * std::abs(total) + 1e-300);
    }
  }
}

TEST_CASE("static friction: unequal μs per corner: R = μ1 N1 + μ2 N2 − |ΣT|") {
  // Source: the cones summed, |ΣT| ≤ μ1 N1 + μ2 N2, attained by T_k = ΣT μk Nk / Σ μ N (every
  // corner equally utilized, ρ* = |ΣT| / Σ μ N).
  const double mu1 = 0.2, mu2 = 0.8, N1 = 6.0, N2 = 4.0, total = 3.5;  // Σ μ N = 4.4
  const TwoCorners set(N1, N2, total, mu1, mu2);
  const auto out = distribute(set.particular, set.null_basis, set.contacts);
  CHECK(out.stick_reserve == doctest::Approx(4.4 - 3.5).epsilon(1e-13));
  CHECK(out.forces[1] == doctest::Approx(total * mu1 * N1 / 4.4).epsilon(1e-13));
  CHECK(out.forces[3] == doctest::Approx(total * mu2 * N2 / 4.4).epsilon(1e-13));
  // the minimum-norm split (1.75 each) exceeds corner 1's cone μ1 N1 = 1.2
  CHECK(mu1 * N1 < total / 2.0);
}

TEST_CASE("static friction: three contacts on one face, normal forces indeterminate too") {
  // Source: a body on contacts at x = −1, 0, 1 of a floor, weight W on the middle, friction load
  // F. Statics fix ΣN = W, Σ x N = 0, ΣT = F: d = 3 (normals (1, −2, 1); two tangential splits).
  // The cones summed give μs W − |F| ≥ Σ (μs N_k − |T_k|) ≥ m μs Σ N̄_k = m μs W with the
  // minimum-norm loads N̄_k = W/3, attained by N_k = W/3, T_k = F/3: R = μs W − |F|.
  const double W = 9.0, mu = 0.4;
  for (const double F : {0.0, 1.0, -3.0, 3.6, 4.0, -5.0}) {
    CAPTURE(F);
    ContactVector particular(6);
    particular << W / 3.0, F / 3.0, W / 3.0, F / 3.0, W / 3.0, F / 3.0;
    ContactMatrix null_basis = ContactMatrix::Zero(6, 3);
    null_basis.col(0) << 1.0, 0.0, -2.0, 0.0, 1.0, 0.0;
    null_basis.col(1) << 0.0, 1.0, 0.0, -1.0, 0.0, 0.0;
    null_basis.col(2) << 0.0, 0.0, 0.0, 1.0, 0.0, -1.0;
    const routh::SetContacts contacts = {{0, 1, mu}, {2, 3, mu}, {4, 5, mu}};
    const auto out = distribute(particular, null_basis, contacts);
    CHECK(out.stick_reserve == doctest::Approx(mu * W - std::abs(F)).epsilon(1e-12));
    CHECK(inside_every_cone(out.forces, contacts) == (mu * W >= std::abs(F)));
    // the distribution is one of the set's: λ − λ0 lies in the span of N
    const ContactVector change = out.forces - particular;
    CHECK(change[0] + change[2] + change[4] == doctest::Approx(0.0));  // ΣN kept
    CHECK(change[4] - change[0] == doctest::Approx(0.0));              // moment kept
    CHECK(change[1] + change[3] + change[5] == doctest::Approx(0.0));  // ΣT kept
  }
}

TEST_CASE("static friction: a column of pairs, more directions than enumerated, each pair whole") {
  // Source: the face pairs of a column of blocks, each two corners with fixed normal forces and a
  // total friction F_g, squeezed independently (one direction per pair: d = 12 pairs, beyond the
  // enumeration's kMaxIndeterminacy). Alone, pair g sticks best with both corners equally
  // utilized, T_k = F_g N_k / ΣN_g, margin m_g = 1 − |F_g| / (μs ΣN_g) (the two-corner case
  // above); the common margin of the set is the least of them, R = m* Σ_k μs N_k. The basis is
  // handed over scrambled by a random invertible matrix, as a kernel solver returns it.
  constexpr int kPairs = 12;
  const double mu = 0.6;
  std::mt19937_64 rng(0x5ca1'ab1e);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int compared = 0;
  for (int trial = 0; trial < 20; ++trial) {
    CAPTURE(trial);
    ContactVector particular(4 * kPairs);
    ContactMatrix squeeze = ContactMatrix::Zero(4 * kPairs, kPairs);
    routh::SetContacts contacts;
    std::vector<double> total(kPairs), load(kPairs);
    double least_margin = 1.0, weight = 0.0;
    for (int g = 0; g < kPairs; ++g) {
      const double N1 = 1.0 + 9.0 * unit(rng), N2 = 1.0 + 9.0 * unit(rng);
      total[g] = (2.0 * unit(rng) - 1.0) * 1.2 * mu * (N1 + N2);  // some pairs beyond sticking
      load[g] = N1 + N2;
      particular.segment(4 * g, 4) << N1, total[g] / 2.0, N2, total[g] / 2.0;
      squeeze(4 * g + 1, g) = 1.0;
      squeeze(4 * g + 3, g) = -1.0;
      contacts.push_back({4 * g, 4 * g + 1, mu});
      contacts.push_back({4 * g + 2, 4 * g + 3, mu});
      least_margin = std::min(least_margin, 1.0 - std::abs(total[g]) / (mu * load[g]));
      weight += mu * load[g];
    }
    ContactMatrix scramble(kPairs, kPairs);
    for (Eigen::Index i = 0; i < scramble.size(); ++i) scramble.data()[i] = 2.0 * unit(rng) - 1.0;
    scramble.diagonal().array() += 4.0;  // diagonally dominant: invertible
    const ContactMatrix null_basis = squeeze * scramble;
    const auto out = distribute(particular, null_basis, contacts);
    CHECK(out.stick_reserve == doctest::Approx(least_margin * weight).epsilon(1e-11));
    for (int g = 0; g < kPairs; ++g) {
      for (const int corner : {0, 2}) {
        const double N = particular[4 * g + corner];
        CHECK(out.forces[4 * g + corner] == doctest::Approx(N).epsilon(1e-12));
        CHECK(out.forces[4 * g + corner + 1] ==
              doctest::Approx(total[g] * N / load[g]).epsilon(1e-11));
        ++compared;
      }
    }
  }
  CHECK(compared == 20 * kPairs * 2);
}

TEST_CASE(
    "static friction: three pairs and a sliding contact, coupled only at the contact "
    "distance, each pair whole") {
  // Source: as above, the closed form of independent pairs, T_k = F_g N_k / ΣN_g and
  // R = m* Σ_k μs N_k with m* = min_g (1 − |F_g| / (μs ΣN_g)). Three pairs (d = 3, within the
  // enumeration) and a sliding contact give 3 × 6 + 1 + 1 = 20 constraints, C(20, 4) = 4845
  // vertices for one joint program, beyond its cap: the pairs must be distributed one by one.
  // The squeezes are handed over as a kernel solver returned them for a drum column whose
  // interface corners touch up to 6e-10 m off one line: entries of 1e-9 couple each squeeze to
  // the other pairs and to the sliding contact's load (a 5-drum column at t = 0.506 s). Those
  // couplings are geometry below the contact resolution, not shared contacts; read as shared,
  // the set kept its minimum-norm split, whose loosest corner left its cone (R = −964 N), and
  // settling found no consistent modes.
  constexpr int kPairs = 3;
  const double mu = 0.7;
  const double N[kPairs][2] = {{9167.0, 6864.0}, {2717.0, 8723.0}, {207.9, 3217.0}};
  const double F[kPairs] = {-7916.0, -2674.0, 2218.0};  // the last pair: min-norm 1109 each
  ContactVector particular(4 * kPairs + 1);
  ContactMatrix squeeze = ContactMatrix::Zero(4 * kPairs + 1, kPairs);
  routh::SetContacts contacts;
  double least_margin = 1.0, weight = 0.0;
  for (int g = 0; g < kPairs; ++g) {
    particular.segment(4 * g, 4) << N[g][0], F[g] / 2.0, N[g][1], F[g] / 2.0;
    squeeze(4 * g + 1, g) = 1.0;
    squeeze(4 * g + 3, g) = -1.0;
    contacts.push_back({4 * g, 4 * g + 1, mu});
    contacts.push_back({4 * g + 2, 4 * g + 3, mu});
    const double load = N[g][0] + N[g][1];
    least_margin = std::min(least_margin, 1.0 - std::abs(F[g]) / (mu * load));
    weight += mu * load;
  }
  particular[4 * kPairs] = 20761.0;  // the sliding contact's load (its friction is in it)
  contacts.push_back({4 * kPairs, -1, mu});
  std::mt19937_64 rng(0xd7a3);
  std::uniform_real_distribution<double> noise(-1.3e-9, 1.3e-9);
  ContactMatrix null_basis = squeeze;
  for (Eigen::Index i = 0; i < null_basis.size(); ++i) {
    if (null_basis.data()[i] == 0.0) null_basis.data()[i] = noise(rng);
  }
  REQUIRE(least_margin > 0.0);  // every pair can stick, the last one only when redistributed
  REQUIRE(mu * N[2][0] < std::abs(F[2]) / 2.0);
  const auto out = distribute(particular, null_basis, contacts);
  CHECK(out.stick_reserve == doctest::Approx(least_margin * weight).epsilon(1e-9));
  int compared = 0;
  for (int g = 0; g < kPairs; ++g) {
    for (const int corner : {0, 1}) {
      const double load = N[g][0] + N[g][1];
      CHECK(out.forces[4 * g + 2 * corner] == doctest::Approx(N[g][corner]).epsilon(1e-9));
      CHECK(out.forces[4 * g + 2 * corner + 1] ==
            doctest::Approx(F[g] * N[g][corner] / load).epsilon(1e-9));
      ++compared;
    }
  }
  CHECK(compared == 2 * kPairs);
  CHECK(out.forces[4 * kPairs] == doctest::Approx(particular[4 * kPairs]).epsilon(1e-9));
}

TEST_CASE("static friction: a corner at zero load carries no friction, below zero, no verdict") {
  // Source: at N1 = 0 corner 1's cone is the point T1 = 0, so corner 2 carries ΣT alone:
  // R = μs N2 − |ΣT| (claim (c) of static_friction.hpp), not 0 as corner 1's own margin
  // μs N1 − |T1| would be. At N1 < 0 no split keeps both normals ≥ 0: λ0 stands, R = +∞ (d).
  const double mu = 0.5;
  const TwoCorners unloaded(0.0, 10.0, 3.0, mu, mu);
  const auto out = distribute(unloaded.particular, unloaded.null_basis, unloaded.contacts);
  CHECK(out.stick_reserve == doctest::Approx(5.0 - 3.0).epsilon(1e-14));
  CHECK(out.forces[1] == 0.0);
  CHECK(out.forces[3] == doctest::Approx(3.0).epsilon(1e-14));
  // approaching the lift-off the reserve tends to the same value
  const TwoCorners nearly(1e-9, 10.0, 3.0, mu, mu);
  const auto before = distribute(nearly.particular, nearly.null_basis, nearly.contacts);
  CHECK(before.stick_reserve == doctest::Approx(mu * (10.0 + 1e-9) - 3.0).epsilon(1e-13));

  const TwoCorners pulling(-1e-3, 10.0, 3.0, mu, mu);
  const auto past = distribute(pulling.particular, pulling.null_basis, pulling.contacts);
  CHECK(past.stick_reserve == std::numeric_limits<double>::infinity());
  CHECK(past.forces == pulling.particular);
}

TEST_CASE("static friction: a corner's round-off load beside large ones is a zero load") {
  // Source: three blocks of 1 kg stacked, each flat on two corners, under a_g = 0.1 g, with the top
  // block at its uplift threshold (its right corner's load −3.9e-12 N, round-off of 0). Each pair's
  // normal forces are fixed by balance; the three force-free directions move friction within one
  // pair (columns 1–3 of N). The minimum-norm solve leaves round-off of 4e-15 in N's normal rows,
  // as the solve in contact_forces.cpp did in that stack. Every pair needs ΣT = 0.1 of its ΣN, so
  // the best distribution utilizes every cone to ρ = 0.1 / μs and, with m* = 1 − ρ:
  //     R = m* Σ μs N̄ = (1 − 0.1 / 0.6) · 0.6 · (29.43 + 19.62 + 9.81) N = 29.43 N.
  // On the corner's own terms λ_n ≥ 0 asked for an exact 0: with the round-off entry it forced a
  // squeeze of 1000 N into the middle pair, and R came out at −2e4 N.
  const double mu = 0.6;
  ContactVector particular(12);
  particular << 26.487, 1.4715, 2.943, 1.4715, 16.677, 0.981, 2.943, 0.981, 9.81, 0.4905,
      -3.91092e-12, 0.4905;
  ContactMatrix null_basis = ContactMatrix::Zero(12, 3);
  null_basis(1, 0) = 1.0, null_basis(3, 0) = -1.0;
  null_basis(5, 1) = -1.0, null_basis(7, 1) = 1.0;
  null_basis(9, 2) = -1.0, null_basis(11, 2) = 1.0;
  null_basis(0, 1) = -5.2162e-15, null_basis(2, 1) = 5.16069e-15, null_basis(4, 1) = -4.10597e-15;
  null_basis(6, 1) = 4.05046e-15, null_basis(8, 1) = -3.73775e-15, null_basis(10, 1) = 3.68224e-15;
  const routh::SetContacts contacts = {{0, 1, mu}, {2, 3, mu}, {4, 5, mu},
                                       {6, 7, mu}, {8, 9, mu}, {10, 11, mu}};
  const auto out = distribute(particular, null_basis, contacts);
  const double loads = 29.43 + 19.62 + 9.81;
  CHECK(out.stick_reserve == doctest::Approx((1.0 - 0.1 / mu) * mu * loads).epsilon(1e-9));
  // the distribution moves friction within pairs only: every pair keeps its total
  CHECK(out.forces[1] + out.forces[3] == doctest::Approx(2.943).epsilon(1e-12));
  CHECK(out.forces[5] + out.forces[7] == doctest::Approx(1.962).epsilon(1e-12));
  CHECK(std::abs(out.forces[11]) < 1e-9);  // the unloaded corner carries no friction
}

TEST_CASE("static friction: a sliding contact in the set bounds only its normal force") {
  // Source: a point on a floor with a sticking contact 1 and a sliding one 2 (σ = +1, μd): the
  // force-free direction shifts load to contact 2 with its friction, N = (−1, μd, 1)ᵀ on
  // λ = (N1, T1, N2) (net force n (−1 + 1) + t (μd − μd) = 0). With the weight W and an applied
  // horizontal load P > 0, statics give N1 + N2 = W and T1 − μd N2 = −P. Contact 1 sticks iff
  // some N2 ∈ [0, W] keeps |μd N2 − P| ≤ μs (W − N2); with μd < μs each unit of load shifted to
  // the sliding contact lowers the friction the set can hold by μs − μd, so the best is N2 = 0:
  // the set sticks iff P ≤ μs W.
  const double W = 10.0, mu_s = 0.5, mu_d = 0.3;
  const routh::SetContacts contacts = {{0, 1, mu_s}, {2, -1, 0.0}};
  ContactMatrix null_basis(3, 1);
  null_basis << -1.0, mu_d, 1.0;
  for (const double P : {2.0, 4.9, 5.1, 8.0}) {
    CAPTURE(P);
    ContactVector particular(3);  // an equal split of the weight
    particular << W / 2.0, mu_d * W / 2.0 - P, W / 2.0;
    const auto out = distribute(particular, null_basis, contacts);
    CHECK((out.stick_reserve > 0.0) == (P < mu_s * W));
    CHECK(inside_every_cone(out.forces, contacts) == (P <= mu_s * W));
    CHECK(out.forces[0] + out.forces[2] == doctest::Approx(W));
    CHECK(out.forces[1] - mu_d * out.forces[2] == doctest::Approx(-P));
  }
}

namespace {

constexpr double kGravity = routh::kDefaultGravity;

// A block (width w, height h, mass m) flat on the floor, both corners sticking, the ground
// accelerating at a constant a_g along +x: v̇ and the contact forces at rest.
routh::ConstrainedAcceleration flat_block(double w, double h, double m, double a_g, double mu_s) {
  routh::ModelOptions options;
  options.ground_acceleration = [a_g](double) { return Eigen::Vector2d(a_g, 0.0); };
  const auto block = routh::make_rocking_block(w, h, m, options);
  const std::vector<ContactMode> modes = {ContactMode::stick, ContactMode::stick};
  const Eigen::VectorXd q = Eigen::Vector3d(0.0, h / 2.0, 0.0), v = Eigen::Vector3d::Zero();
  routh::StateQuantities state;
  block->evaluate(0.0, q, v, routh::constrained_acceleration_needs(modes), *block->make_workspace(),
                  state);
  const routh::ContactParameterTable parameters(2, {0.0, mu_s, mu_s});
  routh::ContactForceWorkspace workspace;
  routh::ConstrainedAcceleration out;
  routh::constrained_acceleration(state, modes, parameters, workspace, out);
  // M v̇ = f + Σ J_kᵀ λ_k with the forces reported: the distribution moves no body
  Eigen::VectorXd generalized = state.generalized_force;
  for (int k = 0; k < 2; ++k) {
    generalized += state.contacts.jacobian.row(2 * k).transpose() * out.forces[k].normal +
                   state.contacts.jacobian.row(2 * k + 1).transpose() * out.forces[k].tangential;
  }
  CHECK((state.mass_matrix * out.acceleration - generalized).norm() < 1e-12 * m * kGravity);
  return out;
}

}  // namespace

TEST_CASE(
    "static friction: a block flat on the floor under a steady ground acceleration sticks iff "
    "|a_g| ≤ μs g, with reserve m (μs g − |a_g|)") {
  // Source: statics of the block in the ground frame (inertial load −m a_g): ΣN = m g,
  // ΣF_t = m a_g, so the set sticks iff |a_g| ≤ μs g, with R = μs ΣN − |ΣF_t| = m (μs g − |a_g|)
  // (the classic slide criterion, Shenton 1996). Each case keeps |a_g| < g w/h so that both
  // corners stay loaded (λ_n,trailing = m (g − (h/w) |a_g|) / 2 > 0).
  struct Block {
    double w, h, m, mu_s;
  };
  for (const Block& b : {Block{0.4, 0.6, 1.0, 0.6}, Block{1.0, 1.0, 50.0, 0.5},
                         Block{0.3, 0.2, 2.5, 0.9}, Block{2.0, 0.5, 7.0, 0.3}}) {
    for (const double fraction : {0.0, 0.3, 0.55 / 0.6, 0.99, 1.01, -0.8, -1.05, 1.1}) {
      const double a_g = fraction * b.mu_s * kGravity;
      REQUIRE(std::abs(a_g) < kGravity * b.w / b.h);
      CAPTURE(b.w);
      CAPTURE(b.h);
      CAPTURE(b.mu_s);
      CAPTURE(fraction);
      const auto out = flat_block(b.w, b.h, b.m, a_g, b.mu_s);
      REQUIRE(out.consistent);
      CHECK(out.acceleration.norm() < 1e-12 * kGravity);
      const double expected = b.m * (b.mu_s * kGravity - std::abs(a_g));
      CHECK(std::abs(out.stick_reserve - expected) <= 1e-9 * b.m * b.mu_s * kGravity);
      CHECK((out.stick_reserve > 0.0) == (std::abs(a_g) < b.mu_s * kGravity));
      double normal = 0.0, friction = 0.0;
      for (const routh::ContactForce& force : out.forces) {
        CHECK(force.in_indeterminate_set);
        normal += force.normal;
        friction += force.tangential;
        // both corners equally utilized: |λ_t| = ρ* μs λ_n with ρ* = |a_g| / (μs g)
        CHECK(std::abs(std::abs(force.tangential) - std::abs(a_g) / kGravity * force.normal) <
              1e-12 * b.m * kGravity);
      }
      CHECK(normal == doctest::Approx(b.m * kGravity).epsilon(1e-12));
      CHECK(friction == doctest::Approx(b.m * a_g).epsilon(1e-12));
    }
  }
}

TEST_CASE("static friction: the issue's block at 0.55 g with μs = 0.6 sticks") {
  // Source: the issue. Statics give ΣF_t = 0.55 m g ≤ μs ΣN = 0.6 m g; the minimum-norm split
  // (0.275 m g per corner) exceeds the cone of the unloading corner, λ_n = m (g − (h/w) a_g) / 2.
  const double w = 0.4, h = 0.6, m = 1.0, mu_s = 0.6, a_g = 0.55 * kGravity;
  const double light = m * (kGravity - h / w * a_g) / 2.0;
  CHECK(mu_s * light < m * a_g / 2.0);  // what the per-contact rule on minimum norm tested
  const auto out = flat_block(w, h, m, a_g, mu_s);
  CHECK(out.stick_reserve == doctest::Approx(0.05 * m * kGravity).epsilon(1e-9));
  for (const routh::ContactForce& force : out.forces)
    CHECK(mu_s * force.normal - std::abs(force.tangential) > 0.0);
}

TEST_CASE("static friction: determinate sets keep their forces and report no set") {
  // Source: with one closed corner (a block tilted onto it) A = J_c M⁻¹ W is regular, the forces
  // are unique, and nothing is distributed: stick_reserve = +∞, no contact in a set.
  routh::ModelOptions options;
  options.ground_acceleration = [](double) { return Eigen::Vector2d(1.0, 0.0); };
  const auto block = routh::make_rocking_block(0.4, 0.6, 1.0, options);
  const std::vector<ContactMode> modes = {ContactMode::stick, ContactMode::open};
  const routh::PlanarState tilted = routh::complete_initial_state(*block, {{"theta", 0.1}});
  routh::StateQuantities state;
  block->evaluate(0.0, tilted.q, tilted.v, routh::constrained_acceleration_needs(modes),
                  *block->make_workspace(), state);
  routh::ContactForceWorkspace workspace;
  routh::ConstrainedAcceleration out;
  routh::constrained_acceleration(state, modes, routh::ContactParameterTable(2, {0.0, 0.5, 0.5}),
                                  workspace, out);
  CHECK(out.stick_reserve == std::numeric_limits<double>::infinity());
  CHECK(!out.forces[0].in_indeterminate_set);
  CHECK(!out.forces[1].in_indeterminate_set);
}

TEST_CASE("static friction: distributing a sticking block's forces does not allocate") {
  routh::ModelOptions options;
  options.ground_acceleration = [](double) { return Eigen::Vector2d(3.0, 0.0); };
  const auto block = routh::make_rocking_block(0.4, 0.6, 1.0, options);
  const std::vector<ContactMode> modes = {ContactMode::stick, ContactMode::stick};
  const Eigen::VectorXd q = Eigen::Vector3d(0.0, 0.3, 0.0), v = Eigen::Vector3d::Zero();
  routh::StateQuantities state;
  block->evaluate(0.0, q, v, routh::constrained_acceleration_needs(modes), *block->make_workspace(),
                  state);
  const routh::ContactParameterTable parameters(2, {0.0, 0.6, 0.6});
  routh::ContactForceWorkspace workspace;
  routh::ConstrainedAcceleration out;
  routh::constrained_acceleration(state, modes, parameters, workspace, out);  // sizes everything
  const long before = routh::test::allocation_count();
  routh::constrained_acceleration(state, modes, parameters, workspace, out);
  CHECK(routh::test::allocation_count() == before);
}

TEST_CASE("static friction: fewer constraints than free directions keep the particular forces") {
  // One sliding contact (only λ_n ≥ 0 constrains the set, plus m ≤ 1) over two free directions:
  // the program (1) has three unknowns (z, m) and two constraints, so no vertex bounds it; the
  // stage keeps λ0 (found by a fuzzer, where the enumeration read past its table).
  ContactVector particular(2);
  particular << 1.0, -0.3;
  ContactMatrix null_basis = ContactMatrix::Zero(2, 2);
  null_basis(0, 0) = 1.0;
  null_basis(1, 1) = 1.0;
  const routh::SetContacts sliding = {{0, -1, 0.5}};
  const routh::StaticFrictionDistribution out = distribute(particular, null_basis, sliding);
  CHECK(out.forces == particular);
  CHECK(out.stick_reserve == std::numeric_limits<double>::infinity());  // no sticking contact
}
