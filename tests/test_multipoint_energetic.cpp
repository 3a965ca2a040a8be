// Validation and property tests of the law `multipoint_energetic` (paper 002; Rodriguez & Bowling
// 2012): Housner's rocking block, the global energetic coefficient, the reduction to the
// single-contact `energetic` law, and energy/penetration/cone properties over random
// multi-contact problems.

#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>

#include "sim/contact_space.hpp"
#include "sim/impact/energetic.hpp"
#include "sim/impact/law_catalogue.hpp"
#include "sim/impact/multipoint_energetic.hpp"
#include "support/random_source.hpp"
#include "support/rocking_block_contacts.hpp"

namespace {

using routh::ContactDimension;
using routh::ContactParameters;
using routh::ImpactFlag;
using routh::ImpactProblem;
using routh::ImpactResult;
using routh::ImpactStatus;
using routh::PhaseKind;
using routh::Stage;

using routh::test::RockingBlock;

// Scales for round-off tolerances: impulse G, velocity V = |u⁻| + |D||Γ|, energy E = G V. Every
// result is a sum of a few phases of products of these, so its round-off is a modest multiple of
// ε ≈ 2.2e-16 times the scale.
struct Scales {
  double impulse, velocity, energy;
};

Scales scales_of(const ImpactProblem& problem, const ImpactResult& result) {
  const double G = result.impulse.cwiseAbs().sum() + 1e-300;
  const double V = problem.u_pre.cwiseAbs().maxCoeff() + problem.D.cwiseAbs().maxCoeff() * G;
  return {G, V, G * V};
}

class Generator : public routh::test::RandomSource {
 public:
  using RandomSource::RandomSource;

  ContactParameters parameters() {
    ContactParameters p;
    const double pick_e = uniform(0.0, 1.0);
    p.restitution = pick_e < 0.1 ? 0.0 : (pick_e < 0.2 ? 1.0 : uniform(0.0, 1.0));
    if (chance(0.1)) return p;  // frictionless
    p.static_friction = uniform(0.0, 1.5);
    p.kinetic_friction = chance(0.2) ? p.static_friction : uniform(0.0, p.static_friction);
    return p;
  }

  // Random SPD 2K × 2K: Q diag(λ) Qᵀ, condition number up to 1e3, overall scale over 4 decades.
  routh::ContactMatrix spd(int rows) {
    Eigen::MatrixXd A(rows, rows);
    for (int i = 0; i < rows; ++i) {
      for (int j = 0; j < rows; ++j) A(i, j) = uniform(-1.0, 1.0);
    }
    const Eigen::HouseholderQR<Eigen::MatrixXd> qr(A);
    const Eigen::MatrixXd Q = qr.householderQ();
    const double scale = std::pow(10.0, uniform(-2.0, 2.0));
    Eigen::VectorXd lambda(rows);
    for (int i = 0; i < rows; ++i) lambda[i] = scale * std::pow(10.0, uniform(-3.0, 0.0));
    const Eigen::MatrixXd D = Q * lambda.asDiagonal() * Q.transpose();
    return 0.5 * (D + D.transpose());
  }

  // One rigid body (m, I) with K contacts at random points below its centre of mass, normals +y:
  // D = J M⁻¹ Jᵀ has rank 3 (≤ 2 in the normal rows), so u⁻ must be J v⁻ for some v⁻ — a random
  // u⁻ would be kinematically impossible. Contacts that separate (u_n⁻ > 0) stay in the problem.
  ImpactProblem rigid_body(int contacts) {
    Eigen::MatrixXd M = Eigen::MatrixXd::Zero(3, 3);
    const double m = std::pow(10.0, uniform(-1.0, 1.0));
    M.diagonal() << m, m, m * uniform(0.05, 1.0);
    Eigen::MatrixXd J(2 * contacts, 3);
    for (int k = 0; k < contacts; ++k) {
      const double rx = uniform(-1.0, 1.0);
      const double ry = uniform(-1.0, -0.1);
      J.row(2 * k) << 0.0, 1.0, rx;
      J.row(2 * k + 1) << 1.0, 0.0, -ry;
    }
    routh::ContactSpace space;
    REQUIRE(routh::factor_contact_space(M, J, space));
    Eigen::VectorXd v(3);
    v << uniform(-2.0, 2.0), -std::pow(10.0, uniform(-2.0, 0.5)), uniform(-3.0, 3.0);
    routh::ContactParameterList parameters;
    for (int k = 0; k < contacts; ++k) parameters.push_back(this->parameters());
    return routh::generalized_impact_problem(space, v, ContactDimension::planar, parameters);
  }

  // u_n ≤ 0 for every contact (the event detector gathers touching contacts), some exactly 0.
  ImpactProblem problem(const routh::ContactMatrix& D) {
    const int K = static_cast<int>(D.rows()) / 2;
    ImpactProblem problem;
    problem.D = D;
    problem.u_pre.resize(2 * K);
    for (int k = 0; k < K; ++k) {
      problem.u_pre[2 * k] = chance(0.15) ? 0.0 : -std::pow(10.0, uniform(-2.0, 0.5));
      problem.u_pre[2 * k + 1] = chance(0.15) ? 0.0 : uniform(-2.0, 2.0);
      problem.contacts.push_back(parameters());
    }
    if (problem.u_pre[0] == 0.0) problem.u_pre[0] = -1.0;  // at least one contact approaches
    return problem;
  }

 private:
};

}  // namespace

TEST_CASE("multipoint_energetic: Housner's rocking block, plastic impact on the other corner") {
  // Housner 1963: a block rocking about its left corner hits the ground with its right corner.
  // With e = 0 and no slip, angular momentum about the right corner is conserved and
  //   ω⁺/ω⁻ = 1 − 1.5 sin²α,  α = atan(b/h),
  // and the left corner lifts off when that ratio is positive (b/h < √2). The law must find that
  // the left corner would pull (release it) and that the right corner sticks.
  // Tolerance 1e-12: the answer is a one-contact stick solve of a few flops per entry.
  for (const double aspect : {0.1, 0.25, 0.5, 0.8, 1.0, 1.3}) {  // b/h
    CAPTURE(aspect);
    const RockingBlock block(0.3 * aspect, 0.3);
    const double omega = -1.7;  // [rad/s], clockwise: the right corner approaches the ground
    const Eigen::VectorXd v = block.rocking_about_left_corner(omega);
    const ImpactProblem problem = block.problem(v, ContactParameters{0.0, 10.0, 10.0});
    CHECK(std::abs(problem.u_pre[0]) < 1e-15);  // the pivot corner is at rest
    CHECK(problem.u_pre[2] == doctest::Approx(2.0 * block.b * omega).epsilon(1e-15));

    const ImpactResult result = routh::solve_multipoint_energetic(problem);
    REQUIRE(result.status == ImpactStatus::solved);
    CHECK(result.type == routh::ImpactType::multi_contact);
    CHECK(result.impulse[0] == 0.0);  // released: no impulse at all
    CHECK(result.impulse[1] == 0.0);
    CHECK(result.impulse[2] > 0.0);

    const Eigen::VectorXd v_post =
        v + routh::generalized_velocity_change(block.space, result.impulse);
    const double alpha = std::atan(block.b / block.h);
    const double expected = 1.0 - 1.5 * std::sin(alpha) * std::sin(alpha);
    CHECK(v_post[2] / omega == doctest::Approx(expected).epsilon(1e-12));
    // the right corner stops (plastic, no slip); the left corner lifts off
    const Eigen::VectorXd u_post = block.J * v_post;
    const double speed = std::abs(omega) * std::hypot(block.b, block.h);
    CHECK(std::abs(u_post[2]) <= 1e-12 * speed);
    CHECK(std::abs(u_post[3]) <= 1e-12 * speed);
    CHECK(u_post[0] > 0.0);
    CHECK(u_post[0] == doctest::Approx(result.u_post[0]).epsilon(1e-12));
    // the trace names only the right corner, sticking in compression
    REQUIRE(!result.phases.empty());
    for (const auto& phase : result.phases) {
      CHECK(phase.contact == 1);
      CHECK(phase.kind == PhaseKind::stick);
      CHECK(phase.stage == Stage::compression);
    }
    CHECK(result.delta_T < 0.0);
    CHECK_FALSE(result.flags.any());
  }
}

TEST_CASE("multipoint_energetic: a squat block does not lift its pivot corner") {
  // b/h > √2: 1 − 1.5 sin²α < 0, so rotation about the right corner alone would drive the left
  // corner into the ground. The law must keep both corners, and with e = 0 and sticking at both
  // (D has rank 3: the four corner constraints fix the block) the block stops.
  const RockingBlock block(0.6, 0.3);
  const double omega = -1.0;
  const Eigen::VectorXd v = block.rocking_about_left_corner(omega);
  const ImpactResult result =
      routh::solve_multipoint_energetic(block.problem(v, ContactParameters{0.0, 10.0, 10.0}));
  REQUIRE(result.status == ImpactStatus::solved);
  const Eigen::VectorXd v_post =
      v + routh::generalized_velocity_change(block.space, result.impulse);
  CHECK(v_post.norm() <= 1e-12 * std::abs(omega) * 0.6);
  CHECK(result.impulse[0] >= 0.0);
  CHECK(result.impulse[2] > 0.0);
}

TEST_CASE("multipoint_energetic: the global energetic coefficient, frictionless contacts") {
  // Stronge's hypothesis summed over the contacts (hypothesis 5): W_nR = −e² W_nc. Frictionless,
  // the active normal velocities move linearly along one ray, so Γ = (1 + e) Γ_c and
  // u_n,k⁺ = −e u_n,k⁻ for every contact that carries impulse, and the compression work is
  // W_nc = −½ Σ_k w_k Γ_c,k (w_k = −u_n,k⁻). These closed forms are checked from Γ alone, with
  // ΔT recomputed from D: round-off only (1e-12 of the energy scale).
  Generator random(0x002'1963);
  int checked = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const int K = 2 + trial % 3;
    ImpactProblem problem = random.problem(random.spd(2 * K));
    const double e = random.uniform(0.0, 1.0);
    for (auto& p : problem.contacts) p = ContactParameters{e, 0.0, 0.0};
    const ImpactResult result = routh::solve_multipoint_energetic(problem);
    CAPTURE(trial);
    REQUIRE(result.status == ImpactStatus::solved);
    const Scales s = scales_of(problem, result);
    double compression_work = 0.0;
    for (int k = 0; k < K; ++k) {
      CHECK(result.impulse[2 * k + 1] == 0.0);
      const double w = std::max(-problem.u_pre[2 * k], 0.0);
      compression_work -= 0.5 * w * result.impulse[2 * k] / (1.0 + e);
      if (result.impulse[2 * k] > 0.0 && w > 0.0) {
        CHECK(std::abs(result.u_post[2 * k] + e * problem.u_pre[2 * k]) <= 1e-12 * s.velocity);
      }
    }
    const double delta_T = routh::kinetic_energy_change(problem.D, problem.u_pre, result.impulse);
    const double restitution_work = delta_T - compression_work;  // W_t = 0: ΔT = W_n
    CHECK(std::abs(restitution_work + e * e * compression_work) <= 1e-12 * s.energy);
    CHECK(std::abs(result.normal_work - delta_T) <= 1e-12 * s.energy);
    CHECK(result.tangential_work == 0.0);
    CHECK_FALSE(result.flags.has(ImpactFlag::nonphysical_normal_dissipation));
    ++checked;
  }
  CHECK(checked == 2000);
}

TEST_CASE("multipoint_energetic: unequal restitution gives the work-weighted global coefficient") {
  // Two uncoupled frictionless contacts (D diagonal) with the same approach: each alone would be
  // Newton with its own e; globally e² = Σ e_k² W_nc,k / Σ W_nc,k (hypothesis 5), and both
  // separate with the common ẽ.
  ImpactProblem problem;
  problem.D = routh::ContactMatrix::Identity(4, 4);
  problem.u_pre.resize(4);
  problem.u_pre << -1.0, 0.0, -1.0, 0.0;
  problem.contacts.push_back(ContactParameters{0.2, 0.0, 0.0});
  problem.contacts.push_back(ContactParameters{0.6, 0.0, 0.0});
  const ImpactResult result = routh::solve_multipoint_energetic(problem);
  REQUIRE(result.status == ImpactStatus::solved);
  const double e_global = std::sqrt(0.5 * (0.2 * 0.2 + 0.6 * 0.6));  // equal W_nc,k
  CHECK(result.u_post[0] == doctest::Approx(e_global).epsilon(1e-14));
  CHECK(result.u_post[2] == doctest::Approx(e_global).epsilon(1e-14));
}

TEST_CASE("multipoint_energetic: one contact is the single-contact energetic law") {
  // With one contact the rate system is Routh's method in Γ_n (hypothesis 3), with the same
  // events, the same stick test and the same restitution rule, so every output must agree with
  // routh::solve_energetic to round-off: 1e-12 of the impulse, velocity and energy scales.
  Generator random(0x004'2024);
  int solved = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const double scale = std::pow(10.0, random.uniform(-2.0, 2.0));
    const double a = scale * std::pow(10.0, random.uniform(-1.0, 1.0));
    const double b = scale * std::pow(10.0, random.uniform(-1.0, 1.0));
    const double c = random.uniform(-0.999, 0.999) * std::sqrt(a * b);
    const double u_n = -std::pow(10.0, random.uniform(-3.0, 0.5));
    const double u_t = random.chance(0.15) ? 0.0 : random.uniform(-3.0, 3.0);
    const ImpactProblem problem =
        routh::planar_impact_problem(a, b, c, u_n, u_t, random.parameters());
    const ImpactResult single = routh::solve_energetic(problem);
    const ImpactResult multi = routh::solve_multipoint_energetic(problem);
    CAPTURE(trial);
    REQUIRE(multi.status == single.status);
    if (single.status != ImpactStatus::solved) continue;
    ++solved;
    const Scales s = scales_of(problem, single);
    for (int i = 0; i < 2; ++i) {
      CHECK(std::abs(multi.impulse[i] - single.impulse[i]) <= 1e-12 * s.impulse);
      CHECK(std::abs(multi.u_post[i] - single.u_post[i]) <= 1e-12 * s.velocity);
    }
    CHECK(std::abs(multi.delta_T - single.delta_T) <= 1e-12 * s.energy);
    CHECK(std::abs(multi.normal_work - single.normal_work) <= 1e-12 * s.energy);
    CHECK(std::abs(multi.tangential_work - single.tangential_work) <= 1e-12 * s.energy);
    REQUIRE(multi.phases.size() == single.phases.size());
    for (std::size_t i = 0; i < single.phases.size(); ++i) {
      CHECK(multi.phases[i].kind == single.phases[i].kind);
      CHECK(multi.phases[i].stage == single.phases[i].stage);
      CHECK(multi.phases[i].contact == 0);
      CHECK(std::abs(multi.phases[i].normal_impulse_to - single.phases[i].normal_impulse_to) <=
            1e-12 * s.impulse);
    }
    CHECK(multi.flags.has(ImpactFlag::energy_gain) == single.flags.has(ImpactFlag::energy_gain));
  }
  CHECK(solved == 20000);
}

TEST_CASE(
    "multipoint_energetic: random multi-contact problems dissipate, do not penetrate, obey "
    "the cones") {
  // Properties that hold by construction (header: guarantees) and are checked from the returned
  // Γ with D and u⁻ only: ΔT ≤ 0, u_n⁺ ≥ 0 for every contact, Γ_n ≥ 0, |Γ_t| ≤ max(μs, μd) Γ_n,
  // ΔT = W_n + W_t, W_t ≤ 0, u⁺ = u⁻ + DΓ. Tolerances: 1e-10 of the scales, the law's own
  // penetration tolerance (a phase-wise sum of up to ~40 phases over 2K rows).
  Generator random(0x002'2012);
  for (const bool rigid_body : {false, true}) {
    std::array<int, 6> statuses{};
    int trials = 0;
    for (int trial = 0; trial < 6000; ++trial) {
      const int K = 2 + trial % 3;
      const ImpactProblem problem =
          rigid_body ? random.rigid_body(K) : random.problem(random.spd(2 * K));
      if (!(problem.u_pre[0] < 0.0 || problem.u_pre[2] < 0.0)) continue;
      ++trials;
      const ImpactResult result = routh::solve_multipoint_energetic(problem);
      ++statuses[static_cast<int>(result.status)];
      if (result.status != ImpactStatus::solved) continue;
      CAPTURE(rigid_body);
      CAPTURE(trial);
      const Scales s = scales_of(problem, result);
      const double delta_T = routh::kinetic_energy_change(problem.D, problem.u_pre, result.impulse);
      CHECK(delta_T <= 1e-10 * s.energy);
      CHECK_FALSE(result.flags.has(ImpactFlag::energy_gain));
      CHECK_FALSE(result.flags.has(ImpactFlag::nonphysical_normal_dissipation));
      CHECK(std::abs(result.delta_T - delta_T) <= 1e-10 * s.energy);
      CHECK(std::abs(result.normal_work + result.tangential_work - delta_T) <= 1e-10 * s.energy);
      CHECK(result.tangential_work <= 1e-10 * s.energy);
      const routh::ContactVector u_post = problem.u_pre + problem.D * result.impulse;
      CHECK((u_post - result.u_post).cwiseAbs().maxCoeff() <= 1e-10 * s.velocity);
      for (int k = 0; k < K; ++k) {
        CAPTURE(k);
        const auto& p = problem.contacts[k];
        CHECK(u_post[2 * k] >= -1e-10 * s.velocity);
        CHECK(result.impulse[2 * k] >= 0.0);
        CHECK(std::abs(result.impulse[2 * k + 1]) <=
              std::max(p.static_friction, p.kinetic_friction) * result.impulse[2 * k] +
                  1e-10 * s.impulse);
      }
      for (const auto& phase : result.phases) {
        CHECK(phase.contact >= 0);
        CHECK(phase.contact < K);
        CHECK(phase.normal_impulse_to >= phase.normal_impulse_from);
      }
    }
    // Documented failure modes (header, "Scope and limits"): the constraint of hypothesis 2 asks
    // every approaching contact to end compression together, which coupled friction can make
    // incompatible with unilateral impulses (the active set then cycles between a contact that
    // pulls and the same contact penetrating once released), or a slide from rest that closes
    // its own slip, or (rank-deficient D) a ray the bodies cannot follow. Counted here: after
    // the exhaustive search over active sets 56 of 5177 one-body problems (1.1%) and 477 of 6000
    // random coupled ones (8.0%) at K = 2..4 (the simulator resolves those with `lcp`, flagged).
    // Frictionless problems never fail (the test above).
    const std::string family = rigid_body ? "one rigid body" : "random SPD D";
    MESSAGE(family << ": solved " << statuses[static_cast<int>(ImpactStatus::solved)]
                   << ", no_solution " << statuses[static_cast<int>(ImpactStatus::no_solution)]
                   << " of " << trials);
    CHECK(statuses[static_cast<int>(ImpactStatus::invalid_problem)] == 0);
    CHECK(statuses[static_cast<int>(ImpactStatus::unsupported)] == 0);
    CHECK(statuses[static_cast<int>(ImpactStatus::solved)] +
              statuses[static_cast<int>(ImpactStatus::no_solution)] ==
          trials);
    CHECK(statuses[static_cast<int>(ImpactStatus::solved)] >= (rigid_body ? 0.985 : 0.9) * trials);
  }
}

TEST_CASE("multipoint_energetic: a phase trace that overflows is flagged, never cut silently") {
  // Ten contacts with random coupled D pass through many phases; the trace holds kMaxPhases.
  // Whenever a solved impact's trace is full the flag may be set, and it is set only then.
  Generator random(0x002'0016);
  int truncated = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const ImpactResult result = routh::solve_multipoint_energetic(random.problem(random.spd(20)));
    if (result.status != ImpactStatus::solved) continue;
    const bool flagged = result.flags.has(routh::ImpactFlag::phase_trace_truncated);
    if (!flagged) continue;
    CHECK(result.phases.size() == static_cast<std::size_t>(routh::kMaxPhases));
    ++truncated;
  }
  // the family does overflow the trace, so the check above was exercised
  CHECK(truncated > 0);
}

TEST_CASE("multipoint_energetic: statuses instead of crashes") {
  SUBCASE("spatial contacts are beyond this planar law") {
    ImpactProblem problem;
    problem.dimension = ContactDimension::spatial;
    problem.D = routh::ContactMatrix::Identity(3, 3);
    problem.u_pre = routh::ContactVector::Constant(3, -1.0);
    problem.contacts.assign(1, ContactParameters{0.5, 0.5, 0.5});
    CHECK(routh::solve_multipoint_energetic(problem).status == ImpactStatus::unsupported);
  }
  SUBCASE("no contact approaches") {
    ImpactProblem problem;
    problem.D = routh::ContactMatrix::Identity(4, 4);
    problem.u_pre = routh::ContactVector::Zero(4);
    problem.contacts.assign(2, ContactParameters{0.5, 0.5, 0.5});
    const ImpactResult result = routh::solve_multipoint_energetic(problem);
    CHECK(result.status == ImpactStatus::no_impact);
    CHECK(result.impulse.isZero());
  }
  SUBCASE("a contact whose own block of D is not positive definite") {
    ImpactProblem problem;
    problem.D = routh::ContactMatrix::Identity(4, 4);
    problem.D(2, 3) = problem.D(3, 2) = 2.0;
    problem.u_pre = routh::ContactVector::Constant(4, -1.0);
    problem.contacts.assign(2, ContactParameters{0.5, 0.5, 0.5});
    CHECK(routh::solve_multipoint_energetic(problem).status == ImpactStatus::invalid_problem);
  }
  SUBCASE("registered in the catalogue") {
    const routh::LawEntry* law = routh::find_law("multipoint_energetic");
    REQUIRE(law != nullptr);
    CHECK((law->solve == &routh::solve_multipoint_energetic));
  }
}

TEST_CASE("multipoint_energetic: the landing corner with the pivot at rest to round-off") {
  // A rocking block lands on its right corner while the left corner (the pivot) is at rest; in a
  // simulation the pivot's u_n and both corners' slips are round-off (±1e-12 and ~1e-11 m/s
  // here), of either sign (before the fix: no_solution on ~8% of them, when all three were
  // negative). The law must read them as touching and not slipping, release the pivot and give the
  // landing corner's answer (Housner 1963, extended to restitution), whatever those signs are.
  // Reference, from rigid-body mechanics alone: the impulse acts at the landing corner, so the
  // angular momentum about it is conserved; with r = (−b, h) from that corner to the centre of
  // mass, v⁻ = ω(−h, b), and v⁺ = (0, −2ebω) + ω⁺ × r (the corner's u_n⁺ = −e u_n⁻ = −2ebω,
  // sticking: u_t⁺ = 0),
  //   I ω⁺ + m(b² + h²) ω⁺ + 2 m e b² ω = I ω + m(h² − b²) ω,
  //   ω⁺/ω = 1 − 1.5 (1 + e) sin²α,  α = atan(b/h)   (I = m(b² + h²)/3; e = 0: Housner).
  // The landing corner sticks iff μ ≥ |Γ_t/Γ_n| = 1.5 x/(0.5 + 2x²), x = h/b (from Γ = mΔv at
  // e = 0; sticking keeps Γ_t/Γ_n fixed, so the ratio holds for every e). Below that it slides
  // from rest throughout with Γ_t = s Γ_n, s = μ sign(Γ_t of sticking), and u_n⁺ = −e u_n⁻ at the
  // corner fixes Γ_n: Γ_n (1/m + b(b + h s)/I) = −(1 + e) 2bω. Tolerance 1e-9 relative: the
  // round-off inputs themselves are 1e-11 of the velocity scale.
  Generator random(0x1963'0002);
  int sliding = 0;
  const int trials = 4000;
  for (int trial = 0; trial < trials; ++trial) {
    const double b = random.uniform(0.05, 0.5);
    const double x = random.uniform(1.5, 15.0);
    const double h = x * b;
    const double mu = random.uniform(0.3, 2.0);
    const double e = random.uniform(0.0, 0.6);
    const double omega = -random.uniform(0.1, 5.0);
    CAPTURE(trial);
    CAPTURE(x);
    CAPTURE(mu);
    CAPTURE(e);
    const RockingBlock block(b, h);
    const Eigen::VectorXd v = block.rocking_about_left_corner(omega);
    ImpactProblem problem = block.problem(v, ContactParameters{e, mu, mu});
    problem.u_pre[0] = (random.chance(0.5) ? 1.0 : -1.0) * 1e-12;
    problem.u_pre[1] = (random.chance(0.5) ? 1.0 : -1.0) * random.uniform(0.0, 1e-11);
    problem.u_pre[3] = (random.chance(0.5) ? 1.0 : -1.0) * random.uniform(0.0, 1e-11);
    const ImpactResult result = routh::solve_multipoint_energetic(problem);
    REQUIRE(result.status == ImpactStatus::solved);
    CHECK(result.impulse[0] == 0.0);  // the pivot is released
    CHECK(result.impulse[1] == 0.0);

    const double m = block.m;
    const double I = m * (b * b + h * h) / 3.0;
    const double sin2 = b * b / (b * b + h * h);
    const double stick_ratio = 1.5 * x / (0.5 + 2.0 * x * x);
    double expected_omega = 0.0;
    if (mu >= stick_ratio) {
      expected_omega = omega * (1.0 - 1.5 * (1.0 + e) * sin2);
    } else {
      ++sliding;
      const double omega_stick = omega * (1.0 - 1.5 * sin2);
      const double s = mu * (-h * (omega_stick - omega) > 0.0 ? 1.0 : -1.0);  // Γ_t = −mhΔω
      const double normal = -(1.0 + e) * 2.0 * b * omega / (1.0 / m + b * (b + h * s) / I);
      expected_omega = omega + (b * normal + h * s * normal) / I;
    }
    const Eigen::VectorXd v_post =
        v + routh::generalized_velocity_change(block.space, result.impulse);
    CHECK(std::abs(v_post[2] - expected_omega) <= 1e-9 * std::abs(omega));
  }
  MESSAGE("landing corner: " << trials - sliding << " stick, " << sliding << " slide");
  CHECK(sliding > 0);
}

TEST_CASE(
    "multipoint_energetic: a block landing flat while sliding has no solution under the "
    "simultaneous-compression hypothesis (proof by exhaustion of the active sets)") {
  // A uniform block, half-width b, half-height h, 1 kg, flat on the floor (θ = 0), lands with
  // v = (ẋ, ẏ, θ̇): both corners approach (u_n = ẏ ∓ b θ̇ < 0) and slip together at u_t = ẋ + h θ̇
  // (their tangential rows coincide), with μ = 1.2 and e = 0. Hypothesis 6 leaves three active
  // sets, and none stands:
  //  {left, right}: both slide (σ = −1, g_t = μ g_n), so hypothesis 2's first phase asks
  //      (D_nn + μ D_nt) g_n = φ' w with w = −u_n⁻ and Σ g_n = 1; its solution, computed here by
  //      Cramer's rule, has a negative g_n: one corner would have to pull;
  //  {left} alone: the single-contact energetic law (routh_incremental.hpp, another code path)
  //      leaves the right corner approaching, u_n⁺ < 0;
  //  {right} alone: likewise the left corner.
  // So the formulation (multipoint_energetic.hpp, hypotheses 1–6) has no solution here, and the
  // law says no_solution; the simulator then resolves the impact with `lcp` and flags it
  // (impact_step.hpp). `lcp`, without hypothesis 2, stops both corners.
  const double b = 0.16090076688675609, h = 0.21251350920289572, m = 1.0, mu = 1.1978066479786984;
  const double I = m * (b * b + h * h) / 3.0;
  Eigen::Matrix3d M = Eigen::Vector3d(m, m, I).asDiagonal();
  Eigen::MatrixXd J(4, 3);
  J << 0, 1, -b, 1, 0, h, 0, 1, b, 1, 0, h;  // left (normal, tangent), right (normal, tangent)
  const Eigen::Vector3d v(-0.015728007266373467, -0.52367528775445837, -0.66879470831762122);
  ImpactProblem problem;
  problem.dimension = ContactDimension::planar;
  problem.D = J * M.inverse() * J.transpose();
  problem.u_pre = J * v;
  problem.contacts.assign(2, ContactParameters{0.0, mu, mu});
  REQUIRE(problem.u_pre[0] < 0.0);
  REQUIRE(problem.u_pre[2] < 0.0);
  REQUIRE(problem.u_pre[1] < 0.0);  // both slip the same way
  const auto& D = problem.D;

  // {left, right}: A g_n = φ' w, A_kl = D_{n_k n_l} + μ D_{n_k t_l}; g_n = φ' A⁻¹ w
  const double a00 = D(0, 0) + mu * D(0, 1), a01 = D(0, 2) + mu * D(0, 3);
  const double a10 = D(2, 0) + mu * D(2, 1), a11 = D(2, 2) + mu * D(2, 3);
  const double w0 = -problem.u_pre[0], w1 = -problem.u_pre[2];
  const double det = a00 * a11 - a01 * a10;
  const double g0 = (a11 * w0 - a01 * w1) / det, g1 = (a00 * w1 - a10 * w0) / det;
  CHECK(g0 * g1 < 0.0);  // of opposite signs: one corner pulls, whatever the orientation of φ

  // {k} alone, the other released
  for (const int k : {0, 1}) {
    CAPTURE(k);
    ImpactProblem alone;
    alone.dimension = ContactDimension::planar;
    alone.D = D.block(2 * k, 2 * k, 2, 2);
    alone.u_pre = problem.u_pre.segment(2 * k, 2);
    alone.contacts.assign(1, ContactParameters{0.0, mu, mu});
    const ImpactResult single = routh::solve_energetic(alone);
    REQUIRE(single.status == ImpactStatus::solved);
    const int other = 1 - k;
    const double u_other =
        problem.u_pre[2 * other] + D.row(2 * other).segment(2 * k, 2).dot(single.impulse.head(2));
    CHECK(u_other < -0.1);  // the released corner goes on into the floor
  }

  CHECK(routh::solve_multipoint_energetic(problem).status == ImpactStatus::no_solution);
  const ImpactResult lcp = routh::find_law("lcp")->solve(problem);
  REQUIRE(lcp.status == ImpactStatus::solved);
  CHECK(lcp.u_post.norm() < 1e-12);  // both corners stop
}
