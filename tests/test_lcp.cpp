// Tests of the law `lcp` (sim/impact/lcp.hpp, paper 001 §2.2): its reductions to Poisson's law
// where the two must agree (and the cases where they may not), the expansion friction as printed
// and as corrected, paper 001 §4's comparison at μ = 1, Housner's rocking block, spatial contacts
// with p-edge cones, statuses and allocation. Complementarity of both stages is checked by
// tests/support/lcp_checks.hpp; Lemke's method itself by tests/test_lemke.cpp.

#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>
#include <vector>

#include "models/named_models.hpp"
#include "models/planar/initial_state.hpp"
#include "sim/contact_space.hpp"
#include "sim/impact/law_catalogue.hpp"
#include "sim/impact/lcp.hpp"
#include "sim/impact/poisson.hpp"
#include "sim/impact/spatial_contact.hpp"
#include "sim/simulation/simulator.hpp"
#include "tests/support/allocation_counter.hpp"
#include "tests/support/lcp_checks.hpp"
#include "tests/support/rocking_block_contacts.hpp"
#include "tests/support/trajectory_memory.hpp"

namespace {

using routh::ContactDimension;
using routh::ContactParameters;
using routh::ExpansionFriction;
using routh::ImpactFlag;
using routh::ImpactProblem;
using routh::ImpactResult;
using routh::ImpactStatus;
using routh::ImpactType;
using routh::LcpImpact;
using routh::LcpLawOptions;
using routh::PhaseKind;
using routh::Stage;

// Paper 004's rod (D = [[2.5, −1.5], [−1.5, 2.5]], μc = |c|/b = 0.6), as in test_planar_laws.
ImpactProblem rod(double u_t, double mu_s, double mu_d, double e = 0.82) {
  return routh::planar_impact_problem(2.5, 2.5, -1.5, -1.0, u_t, ContactParameters{e, mu_s, mu_d});
}

double relative_difference(const routh::ContactVector& a, const routh::ContactVector& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(a.cwiseAbs().maxCoeff(), 1e-300);
}

}  // namespace

// =============================================================================================
// The law against Poisson's law (papers 000, 004) on one planar contact

TEST_CASE("lcp: one frictionless planar contact is Poisson's law") {
  // Paper 001 §1: without friction Newton's and Poisson's laws agree. Compression: w = a Γ_n + u_n⁻
  // ⊥ Γ_n gives Γ_n,c = −u_n⁻/a (eq. 9); expansion: the restitution impulse e Γ_n,c alone gives
  // u_n⁺ = −e u_n⁻ ≥ 0, so Γ̃_n = 0 (eq. 10) and Γ_n = (1 + e) Γ_n,c — Poisson's rule (eq. 5,
  // paper 004 eq. 25). A frictionless contact has no friction unknowns: Γ_t = 0 exactly.
  // Tolerance 1e-14: both laws evaluate these formulas in a few flops.
  for (const double e : {0.0, 0.3, 0.82, 1.0}) {
    for (const double c : {-1.5, 0.0, 0.4}) {
      for (const double u_t : {-0.7, 0.0, 2.0}) {
        CAPTURE(e);
        CAPTURE(c);
        CAPTURE(u_t);
        const ImpactProblem problem =
            routh::planar_impact_problem(2.5, 1.7, c, -1.3, u_t, ContactParameters{e, 0.0, 0.0});
        const ImpactResult lcp = routh::solve_lcp(problem);
        const ImpactResult poisson = routh::solve_poisson(problem);
        REQUIRE(lcp.status == ImpactStatus::solved);
        CHECK(lcp.impulse[1] == 0.0);
        CHECK(relative_difference(lcp.impulse, poisson.impulse) <= 1e-14);
        CHECK(relative_difference(lcp.u_post, poisson.u_post) <= 1e-14);
        CHECK(lcp.delta_T == doctest::Approx(poisson.delta_T).epsilon(1e-13));
        CHECK(lcp.u_post[0] == doctest::Approx(1.3 * e).epsilon(1e-14));
      }
    }
  }
}

TEST_CASE("lcp: sticking throughout agrees with poisson") {
  // u_t⁻ = 0 and μc = |c|/b ≤ max(μs, μd) (paper 004 eq. 16): `poisson` sticks throughout with
  // Γ_t/Γ_n = −c/b (eq. 13). The LCP starts both stages without slip, so μ = max(μs, μd), and
  // the sticking impulse Γ_c = −D⁻¹(u_n⁻, 0) = Γ_n,c (1, −c/b) lies in the cone: it solves the
  // compression LCP with u(t) = 0. In expansion the restitution impulse e Γ_n,c n and the sticking
  // friction −(c/b) e Γ_n,c again lie in the cone μ e Γ_n,c (the default expansion friction), with
  // u⁺ = (e (a − c²/b) Γ_n,c, 0), so Γ̃_n = 0. Same Γ, same u⁺; tolerance 1e-13 covers the
  // Lemke pivots on O(1) data against Routh's few flops.
  struct Case {
    double a, b, c, u_n, e, mu_s, mu_d;
  };
  for (const Case& k : {Case{2.5, 2.5, -1.5, -1.0, 0.82, 0.73, 0.7},  // paper 004's rod, μc = 0.6
                        Case{2.5, 2.5, -1.5, -1.0, 0.5, 0.6, 0.6},    // exactly on μc
                        Case{2.5, 2.5, -1.5, -1.0, 1.0, 0.9, 0.1},    // μd < μc ≤ μs
                        Case{1.0, 4.0, 1.9, -2.0, 0.3, 0.5, 0.5},     // c > 0, μc = 0.475
                        Case{3.0, 1.0, 0.2, -0.5, 0.0, 0.3, 0.2}}) {  // plastic
    CAPTURE(k.c);
    CAPTURE(k.mu_s);
    const ImpactProblem problem = routh::planar_impact_problem(
        k.a, k.b, k.c, k.u_n, 0.0, ContactParameters{k.e, k.mu_s, k.mu_d});
    const ImpactResult poisson = routh::solve_poisson(problem);
    REQUIRE(poisson.type == ImpactType::sticking_throughout);
    const LcpImpact lcp = routh::solve_lcp_stages(problem, {});
    routh::test::check_lcp_impact(problem, lcp);
    CHECK(relative_difference(lcp.result.impulse, poisson.impulse) <= 1e-13);
    CHECK(std::abs(lcp.result.u_post[0] - poisson.u_post[0]) <= 1e-13 * std::abs(k.u_n));
    CHECK(lcp.result.u_post[1] == 0.0);
    CHECK(lcp.compression_impulse[0] == doctest::Approx(poisson.phases[0].normal_impulse_to));
    for (const auto& phase : lcp.result.phases) CHECK(phase.kind == PhaseKind::stick);
    CHECK_FALSE(lcp.result.flags.has(ImpactFlag::nonphysical_normal_dissipation));
  }
}

TEST_CASE("lcp: sliding throughout with large slip agrees with poisson") {
  // When the slip never halts, `poisson` slides with Γ_t = −μd σ Γ_n throughout (paper 004
  // eqs. 8, 31–33): Γ_n,c = −u_n⁻/(a − μd σ c), then Γ_n = (1 + e) Γ_n,c. In the LCP the contact
  // slips at the start of both stages (μ = μd); sliding on the cone's edge −σt solves the
  // compression LCP (u_n(t) = 0, u_t(t) keeps the sign σ), and continued sliding with
  // Γ_t⁺ = −μd σ e Γ_n,c solves the expansion LCP with the default friction (eq. 13 for the whole
  // expansion impulse). The slip is large enough that no sticking impulse lies in the cone, so
  // these are the LCPs' only solutions. As printed (eq. 16b), expansion has no friction: only
  // −μd σ Γ_n,c, a different answer.
  struct Case {
    double a, b, c, u_n, u_t, e, mu_s, mu_d;
  };
  for (const Case& k : {Case{2.5, 2.5, -1.5, -1.0, 3.0, 0.82, 0.73, 0.7},
                        Case{2.5, 2.5, -1.5, -1.0, -3.0, 0.5, 0.4, 0.3},
                        Case{1.0, 4.0, 1.9, -2.0, 6.0, 0.9, 0.5, 0.2},
                        Case{3.0, 1.0, 0.2, -0.5, -4.0, 1.0, 1.2, 1.1}}) {
    CAPTURE(k.u_t);
    const ImpactProblem problem = routh::planar_impact_problem(
        k.a, k.b, k.c, k.u_n, k.u_t, ContactParameters{k.e, k.mu_s, k.mu_d});
    const ImpactResult poisson = routh::solve_poisson(problem);
    REQUIRE(poisson.type == ImpactType::permanent_sliding);
    const LcpImpact lcp = routh::solve_lcp_stages(problem, {});
    routh::test::check_lcp_impact(problem, lcp);
    CHECK(relative_difference(lcp.result.impulse, poisson.impulse) <= 1e-13);
    CHECK(relative_difference(lcp.result.u_post, poisson.u_post) <= 1e-13);
    CHECK(lcp.result.delta_T == doctest::Approx(poisson.delta_T).epsilon(1e-12));
    // the works along the straight path of each stage are Routh's: one mode per stage
    CHECK(lcp.result.normal_work == doctest::Approx(poisson.normal_work).epsilon(1e-12));
    CHECK(lcp.result.tangential_work == doctest::Approx(poisson.tangential_work).epsilon(1e-12));
    CHECK_FALSE(lcp.result.flags.has(ImpactFlag::slip_reversal_ignored));

    LcpLawOptions printed;
    printed.expansion_friction = ExpansionFriction::additional_impulse_only;
    const LcpImpact as_printed = routh::solve_lcp_stages(problem, printed);
    routh::test::check_lcp_impact(problem, as_printed, printed);
    const double sigma = k.u_t > 0.0 ? 1.0 : -1.0;
    const double compression_impulse = -k.u_n / (k.a - k.mu_d * sigma * k.c);
    CHECK(as_printed.result.impulse[1] ==
          doctest::Approx(-k.mu_d * sigma * compression_impulse).epsilon(1e-13));
    if (k.e > 0.0) CHECK(std::abs(as_printed.result.impulse[1] - poisson.impulse[1]) > 1e-3);
  }
}

TEST_CASE("lcp: where lcp and poisson legitimately differ, the slip halts within a stage") {
  // Paper 001 §3, §5: "the LCP-based model ... cannot handle sticking occurring during
  // collision". Each stage is solved for its total impulse with one friction direction, the one
  // opposing the slip at the stage's end.
  SUBCASE("slip reversal during compression is not represented") {
    // Rod, u_t = 0.1, μs = μd = 0.3 < μc = 0.6: `poisson` slides, halts early in compression
    // (paper 004 eq. 31: I_nh = 0.1/(0.3·2.5 + 1.5) = 0.044 < I_nc) and reverses. The LCP applies
    // all compression friction against the final (reversed) slip: Γ_t,c = +μd Γ_n,c exactly.
    const ImpactProblem problem = rod(0.1, 0.3, 0.3);
    const ImpactResult poisson = routh::solve_poisson(problem);
    REQUIRE(poisson.type == ImpactType::reverse_sliding_in_compression);
    const LcpImpact lcp = routh::solve_lcp_stages(problem, {});
    routh::test::check_lcp_impact(problem, lcp);
    CHECK(lcp.compression_velocity[1] < 0.0);  // reversed at the end of compression
    CHECK(lcp.compression_impulse[1] ==
          doctest::Approx(0.3 * lcp.compression_impulse[0]).epsilon(1e-13));
    CHECK(lcp.result.phases[0].kind == PhaseKind::reverse_slide);
    CHECK(lcp.result.flags.has(ImpactFlag::slip_reversal_ignored));
    CHECK(std::abs(lcp.result.impulse[1] - poisson.impulse[1]) > 1e-3);
    CHECK(lcp.result.delta_T <= 0.0);
  }
  SUBCASE("a halt followed by sticking that needs more than kinetic friction") {
    // Rod, u_t = 0.2, μd = 0.2 < μc = 0.6 ≤ μs = 0.7: `poisson` slides, halts and sticks
    // (u_t⁺ = 0). The LCP's compression starts slipping, so μ = μd; the sticking impulse
    // −D⁻¹u⁻ = (0.55, 0.25) has ratio 0.45 > μd: not in the cone, so the contact slides to the end.
    const ImpactProblem problem = rod(0.2, 0.7, 0.2);
    const ImpactResult poisson = routh::solve_poisson(problem);
    REQUIRE(poisson.type == ImpactType::sticking_in_compression);
    CHECK(poisson.u_post[1] == 0.0);
    const LcpImpact lcp = routh::solve_lcp_stages(problem, {});
    routh::test::check_lcp_impact(problem, lcp);
    CHECK(lcp.compression_friction[0] == 0.2);
    CHECK(lcp.compression_slip[0] > 0.0);
    CHECK(std::abs(lcp.result.u_post[1]) > 1e-3);
  }
}

TEST_CASE("lcp: static friction holds a contact at rest, kinetic friction slides it") {
  // The μ rule of lcp.hpp, for u_t⁻ = 0 on paper 004's rod (μc = 0.6):
  //  - μd = 0.2 < μc ≤ μs = 0.65: static friction holds, sticking throughout as in `poisson`;
  //  - μd = 0.2 ≤ μs = 0.5 < μc: static friction cannot hold; the contact slides with μd, in the
  //    direction sign(c) that `poisson` takes from rest (planar_contact.hpp), and it is solved
  //    again (3 LCPs: compression twice, then expansion from a slipping start with μd).
  const ImpactProblem held = rod(0.0, 0.65, 0.2);
  const LcpImpact stuck = routh::solve_lcp_stages(held, {});
  routh::test::check_lcp_impact(held, stuck);
  CHECK(stuck.compression_friction[0] == 0.65);
  CHECK(stuck.result.u_post[1] == 0.0);
  CHECK(stuck.lcps_solved == 2);

  const ImpactProblem slides = rod(0.0, 0.5, 0.2);
  const ImpactResult poisson = routh::solve_poisson(slides);
  REQUIRE(poisson.type == ImpactType::permanent_sliding);
  const LcpImpact sliding = routh::solve_lcp_stages(slides, {});
  routh::test::check_lcp_impact(slides, sliding);
  CHECK(sliding.compression_friction[0] == 0.2);
  CHECK(sliding.expansion_friction[0] == 0.2);
  CHECK(sliding.lcps_solved == 3);
  CHECK(relative_difference(sliding.result.impulse, poisson.impulse) <= 1e-13);
  CHECK(relative_difference(sliding.result.u_post, poisson.u_post) <= 1e-13);
}

// =============================================================================================
// Expansion friction: the printed form against the default (lcp.hpp)

TEST_CASE("lcp: the printed expansion LCP creates energy in an elastic sticking impact") {
  // Sticking throughout with e = 1 (rod, u_t = 0, μ = 0.9 ≥ μc): compression takes
  // ½ (a − c²/b) Γ_n,c² (the sticking rate du_n/dΓ_n = a − c²/b, paper 004 eq. 18). As printed
  // (eq. 16b, M⁺ = M⁻) the expansion cone is μ Γ̃_n = 0, so the restitution impulse Γ_n,c acts
  // without friction and returns ½ a Γ_n,c²: ΔT = ½ (c²/b) Γ_n,c² > 0. With friction for the
  // whole expansion impulse it sticks again and returns exactly what compression took (ΔT = 0).
  const ImpactProblem problem = rod(0.0, 0.9, 0.9, 1.0);
  const double a = 2.5, b = 2.5, c = -1.5;
  const double compression_impulse = 1.0 / (a - c * c / b);  // −u_n⁻ / (a − c²/b)

  LcpLawOptions printed;
  printed.expansion_friction = ExpansionFriction::additional_impulse_only;
  const LcpImpact as_printed = routh::solve_lcp_stages(problem, printed);
  routh::test::check_lcp_impact(problem, as_printed, printed);
  CHECK(as_printed.compression_impulse[0] == doctest::Approx(compression_impulse).epsilon(1e-14));
  CHECK(
      as_printed.result.delta_T ==
      doctest::Approx(0.5 * c * c / b * compression_impulse * compression_impulse).epsilon(1e-12));
  CHECK(as_printed.result.flags.has(ImpactFlag::energy_gain));
  CHECK(as_printed.result.u_post[1] == doctest::Approx(c * compression_impulse).epsilon(1e-13));

  const LcpImpact physical = routh::solve_lcp_stages(problem, {});
  routh::test::check_lcp_impact(problem, physical);
  CHECK(std::abs(physical.result.delta_T) <= 1e-13);
  CHECK_FALSE(physical.result.flags.has(ImpactFlag::energy_gain));
  CHECK(physical.result.u_post[1] == 0.0);
}

TEST_CASE("lcp: paper 001 section 4 at mu = 1, the printed LCP slides after every impact") {
  // Paper 001 §4: H = [[8, −2, 1], [−2, 3, −1], [1, −1, 5]] in (x, y, z), v_z⁻ = 15 m/s
  // (approaching in its signs), slip 10 m/s in 32 directions, μ = μs = μd = 1. In routh's signs
  // (lcp.hpp) D = [[Z, −W, −V], [−W, X, U], [−V, U, Y]] = [[5, −1, 1], [−1, 8, −2], [1, −2, 3]],
  // u⁻ = (−15, 10 cos θ_j, 10 sin θ_j). Fig. 4: Routh's and Park's methods stick for every
  // direction, "Anitescu's predicted sliding post-impact velocity for every initial velocity".
  // That is the printed form: its restitution impulse acts without friction. With friction for
  // the whole expansion impulse every impact that sticks in compression stays stuck (sticking is
  // stable: paper 001 eq. 22 gives λ = (D31² + D32²)/D33² = 37/400 ≤ μs², eq. 25, and an 8-edge
  // cone allows μ cos(π/8) = 0.92 > √λ = 0.30 in every direction), and at e = 0.9 all 32 do.
  routh::ImpactProblem problem;
  problem.dimension = ContactDimension::spatial;
  problem.D.resize(3, 3);
  problem.D << 5, -1, 1, -1, 8, -2, 1, -2, 3;
  problem.u_pre.resize(3);
  LcpLawOptions printed;
  printed.expansion_friction = ExpansionFriction::additional_impulse_only;
  for (const double e : {0.1, 0.5, 0.9}) {
    CAPTURE(e);
    problem.contacts.assign(1, ContactParameters{e, 1.0, 1.0});
    int stuck_after_physical = 0;
    for (int j = 1; j <= 32; ++j) {
      CAPTURE(j);
      const double theta = 2.0 * std::numbers::pi * (j - 1) / 32.0;
      problem.u_pre << -15.0, 10.0 * std::cos(theta), 10.0 * std::sin(theta);
      const LcpImpact as_printed = routh::solve_lcp_stages(problem, printed);
      routh::test::check_lcp_impact(problem, as_printed, printed);
      CHECK(as_printed.result.u_post.tail(2).norm() > 0.1);  // slides, by ≥ 0.36 m/s here

      const LcpImpact physical = routh::solve_lcp_stages(problem, {});
      routh::test::check_lcp_impact(problem, physical);
      const bool stuck_in_compression = physical.compression_slip[0] == 0.0;
      // stuck: no slip beyond the round-off of u⁻ itself (10 sin π = 1.2e-15 m/s at j = 17),
      // which the law reads as zero and carries into u⁺ so that u⁺ = u⁻ + DΓ holds
      const bool stuck_after =
          physical.result.u_post.tail(2).norm() <= 1e-12 * problem.u_pre.norm();
      if (stuck_in_compression) CHECK(stuck_after);
      stuck_after_physical += stuck_after ? 1 : 0;
      CHECK(physical.result.delta_T < 0.0);
    }
    if (e == 0.9) CHECK(stuck_after_physical == 32);
  }
}

// =============================================================================================
// Several contacts: the rocking block (Housner 1963), tests/support/rocking_block_contacts.hpp

namespace {

using routh::test::RockingBlock;

}  // namespace

TEST_CASE("lcp: Housner's rocking block, plastic landing on the other corner") {
  // Housner 1963: rocking about its left corner, the block lands on its right corner. With e = 0
  // and no slip, angular momentum about the right corner is conserved: ω⁺/ω⁻ = 1 − 1.5 sin²α,
  // α = atan(b/h), and the left corner lifts off while that ratio is positive (b/h < √2). The
  // compression LCP must find that the left corner carries no impulse: a solution with both
  // corners loaded would stop the block, which needs Γ_n,left = m|ω|(b² − 2h²)/(3b) ≥ 0, i.e.
  // b/h ≥ √2. Tolerance 1e-12: a few Lemke pivots on O(1) data.
  for (const double aspect : {0.1, 0.25, 0.5, 0.8, 1.0, 1.3}) {
    CAPTURE(aspect);
    const RockingBlock block(0.3 * aspect, 0.3);
    const double omega = -1.7;
    const Eigen::VectorXd v = block.rocking_about_left_corner(omega);
    const ImpactProblem problem = block.problem(v, ContactParameters{0.0, 10.0, 10.0});
    const LcpImpact lcp = routh::solve_lcp_stages(problem, {});
    routh::test::check_lcp_impact(problem, lcp);
    const ImpactResult& result = lcp.result;
    CHECK(result.type == ImpactType::multi_contact);
    CHECK(result.impulse[0] == 0.0);
    CHECK(result.impulse[1] == 0.0);
    CHECK(result.impulse[2] > 0.0);
    const Eigen::VectorXd v_post =
        v + routh::generalized_velocity_change(block.space, result.impulse);
    const double alpha = std::atan(block.b / block.h);
    CHECK(v_post[2] / omega ==
          doctest::Approx(1.0 - 1.5 * std::sin(alpha) * std::sin(alpha)).epsilon(1e-12));
    const Eigen::VectorXd u_post = block.J * v_post;
    const double speed = std::abs(omega) * std::hypot(block.b, block.h);
    CHECK(std::abs(u_post[2]) <= 1e-12 * speed);
    CHECK(std::abs(u_post[3]) <= 1e-12 * speed);
    CHECK(u_post[0] > 0.0);
    CHECK(result.delta_T < 0.0);
    for (const auto& phase : result.phases) CHECK(phase.contact == 1);
  }
}

TEST_CASE("lcp: a rocking block landing with restitution and friction") {
  // Two contacts of one rigid body (D singular): no penetration, complementarity of both stages,
  // impulses in the cone and no energy created, for bouncing, sliding and sticking landings, with
  // and without a slipping pivot. Checks: tests/support/lcp_checks.hpp.
  for (const double aspect : {0.25, 0.6, 1.0, 2.0}) {
    for (const double e : {0.0, 0.4, 0.9}) {
      for (const double mu : {0.0, 0.2, 0.7}) {
        for (const double drift : {0.0, 0.3}) {  // slip of the whole block [m/s]
          CAPTURE(aspect);
          CAPTURE(e);
          CAPTURE(mu);
          CAPTURE(drift);
          const RockingBlock block(0.3 * aspect, 0.3);
          Eigen::VectorXd v = block.rocking_about_left_corner(-1.7);
          v[0] += drift;
          const ImpactProblem problem = block.problem(v, ContactParameters{e, mu, mu});
          const LcpImpact lcp = routh::solve_lcp_stages(problem, {});
          routh::test::check_lcp_impact(problem, lcp);
          const auto s = routh::test::lcp_scales(problem, lcp.result);
          CHECK(lcp.result.delta_T <= 1e-12 * s.energy);
          for (int k = 0; k < 2; ++k) {
            CHECK(lcp.result.u_post[2 * k] >= 0.0);
            CHECK(std::abs(lcp.result.impulse[2 * k + 1]) <=
                  mu * lcp.result.impulse[2 * k] + 1e-12 * s.impulse);
          }
        }
      }
    }
  }
}

TEST_CASE("lcp: a structurally degenerate two-contact impact is solved, not sent onto a ray") {
  // Random D = Q diag(λ) Qᵀ with condition number ~1e4, both contacts sliding with e = 1.
  // Contact 1 ends compression stuck: both its edge velocities and its λ vanish together, so in
  // exact arithmetic the last ratio test ties three rows, z₀'s among them (a structural
  // degeneracy of every sticking contact). Computed with the running B⁻¹ alone, those ratios
  // came out 3e-12 apart, the wrong row left and the path ended on a false ray (no_solution);
  // lemke.hpp refines every ratio so that the tie stays a tie and z₀ leaves.
  ImpactProblem problem;
  problem.D.resize(4, 4);
  problem.D << 0.019520128894095299, 0.06777118377134865, -0.033209746600994537,
      0.0024710906934766498, 0.06777118377134865, 0.24341153664142692, -0.13737972942525026,
      -0.0086772475942884335, -0.033209746600994537, -0.13737972942525026, 0.14743712969817069,
      0.078765979207369913, 0.0024710906934766498, -0.0086772475942884335, 0.078765979207369913,
      0.079851072012892335;
  problem.u_pre.resize(4);
  problem.u_pre << -1.0, -0.073336746873580383, -1.1825113047844602, 0.066097656911550118;
  problem.contacts.push_back(ContactParameters{1.0, 1.14607, 0.573471});
  problem.contacts.push_back(ContactParameters{1.0, 1.47882, 1.38785});
  const LcpImpact lcp = routh::solve_lcp_stages(problem, {});
  routh::test::check_lcp_impact(problem, lcp);
  CHECK(lcp.compression_slip[0] == 0.0);
  CHECK(lcp.compression_slip[1] > 0.0);
  CHECK(lcp.result.delta_T <= 0.0);
}

TEST_CASE("lcp: a block sliding onto both corners, tangent rows equal to 1e-11, is solved") {
  // From the seeded stack campaign (stack:0): a block lands on both bottom corners while sliding.
  // It lies almost flat, so the corners' tangent rows of D differ only by ~1e-11 and D is singular
  // to round-off (eigenvalues 9e-17, 0.9, 1.9, 6.6). The compression LCP then had a ratio test on
  // a quotient of two such differences (1.1e-16 / 4.9e-12); the pivot it chose ended Lemke's
  // method on a false ray and the impact on no_solution. lemke.hpp (Weak pivots) passes over it.
  ImpactProblem problem;
  problem.D.resize(4, 4);
  problem.D << 2.5258032084840218, -1.4006471300176786, -0.64399369165300424, -1.4006471300035503,
      -1.4006471300176786, 2.1787205836247359, 1.4006471300287129, 2.1787205836122503,
      -0.64399369165300424, 1.4006471300287129, 2.5258032085089934, 1.4006471300145846,
      -1.4006471300035503, 2.1787205836122503, 1.4006471300145846, 2.1787205835997647;
  problem.u_pre.resize(4);
  problem.u_pre << -2.4649989177721844e-06, 0.088275328433592204, 5.0886366310549765e-07,
      0.08827532843359219;
  const ContactParameters contact{0.82392252076723538, 0.56732727565420649, 0.50096215852820747};
  problem.contacts.assign(2, contact);
  const LcpImpact lcp = routh::solve_lcp_stages(problem, {});
  routh::test::check_lcp_impact(problem, lcp);
  CHECK(lcp.compression_impulse[0] > 0.0);  // the approaching corner is stopped
  CHECK(lcp.result.delta_T <= 0.0);
}

TEST_CASE(
    "lcp: a block wedged between two others, two corners on one face, D singular, is solved") {
  // From stack:41 of the multibody campaign: block2 stands on block1 with both bottom corners and
  // touches block3 above with a top corner, everything sliding; block1's floor corner and
  // block3's contact with block4 join the impact. Block2's bottom corners lie on one face, so
  // their tangent rows of D agree to 4e-9 relative and D is singular (smallest eigenvalue 1e-15
  // of the largest, computed here). Lemke's method ended the compression LCP on a ray, and with
  // the fallback law the same, so the run stopped in impact_law_failure. Anitescu and Potra prove
  // these LCPs solvable; lcp.cpp solves D + 1e-12 s_D I where D's own LCP fails. Checked against
  // the problem as given (support/lcp_checks.hpp: both stages complementary, every impulse in
  // its cone, ΔT from Γ): the regularization moves nothing beyond 1e-10 of the scales.
  ImpactProblem problem;
  problem.D.resize(10, 10);
  problem.D << 7.185851079549298, -4.023340789897533, -7.185851694069248, -4.0233405554424255,
      -5.296376297278429, -4.023340503707926, 0, 0, 0, 0, -4.023340789897533, 6.305338168110673,
      4.023341791818849, 0.90886185452664, 2.3293447530938405, 0.9088618255606131, 0, 0, 0, 0,
      -7.185851694069248, 4.023341791818849, 12.267740910547234, 0.6036760654054236,
      5.796965603964184, 0.603676010066931, -0.9545127089889347, -3.321686426940227, 0, 0,
      -4.0233405554424255, 0.90886185452664, 0.6036760654054236, 15.296763074791034,
      6.80543427079646, 15.296763013599431, -4.060853450555985, 3.37081454319093, 0, 0,
      -5.296376297278429, 2.3293447530938405, 5.796965603964184, 6.80543427079646,
      10.699624641452932, 6.805434185888858, -5.838457602886374, 5.306700660965741, 0, 0,
      -4.023340503707926, 0.9088618255606131, 0.603676010066931, 15.296763013599431,
      6.805434185888858, 15.296762952407828, -4.060853408522045, 3.370814504985372, 0, 0, 0, 0,
      -0.9545127089889347, -4.060853450555985, -5.838457602886374, -4.060853408522045,
      5.859876863666602, -3.7393855496310433, -0.38833554636744533, 0.2444511730025628, 0, 0,
      -3.321686426940227, 3.37081454319093, 5.306700660965741, 3.370814504985372,
      -3.7393855496310433, 11.365192518897944, 0.14305581615338026, 0.3648756268984348, 0, 0, 0, 0,
      0, 0, -0.38833554636744533, 0.14305581615338026, 0.8343776806489638, -0.0021651314105771285,
      0, 0, 0, 0, 0, 0, 0.2444511730025628, 0.3648756268984348, -0.0021651314105771285,
      1.423928728182035;
  problem.u_pre.resize(10);
  problem.u_pre << 5.204170427930421e-18, -0.004681260829488033, -2.1662359406260379e-16,
      -0.20944078701523242, -2.1640675362810669e-16, -0.20944078704457023, 7.632783294297951e-17,
      5.551115123125783e-17, -0.007553843951283473, 0.18311361960871253;
  problem.contacts.assign(
      5, ContactParameters{0.78547943477637783, 0.19790605105820169, 0.17649117874190512});
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> spectrum(problem.D);
  REQUIRE(spectrum.eigenvalues()[0] < 1e-12 * spectrum.eigenvalues()[9]);
  const LcpImpact lcp = routh::solve_lcp_stages(problem, {});
  routh::test::check_lcp_impact(problem, lcp);
  CHECK(lcp.result.impulse[8] > 0.0);  // the approaching contact is stopped
  CHECK(lcp.result.u_post[8] >= 0.0);
  CHECK(lcp.result.delta_T <= 0.0);
}

TEST_CASE("lcp: the simulator rocks Housner's block to rest with lcp for every impact") {
  // As tests/test_simulator.cpp with lcp in place of poisson and multipoint_energetic: Housner's
  // 0.2 m x 1.0 m block, 1 kg, released at half its critical angle α = atan(b/h), plastic corners
  // with μ = 0.7. Each landing corner arrives without slip (the block turns about the other
  // corner), sticks throughout (μc ≤ 0.7), and the old pivot lifts off, so each impact keeps
  // θ̇⁺/θ̇⁻ = 1 − 1.5 sin²α (Housner 1963) until the impacts accumulate and the block rests
  // flat. Tolerance 1e-9 as there, over the first 3 s.
  const auto block = routh::make_rocking_block(0.2, 1.0, 1.0);
  const double alpha = std::atan(0.1 / 0.5);
  const routh::PlanarState start = routh::complete_initial_state(*block, {{"theta", alpha / 2.0}});
  routh::SimulationState initial;
  initial.q = start.q;
  initial.v = start.v;
  routh::SimulationSettings settings;
  settings.duration = 20.0;
  settings.output_rate = 100.0;
  settings.law = routh::find_law("lcp")->solve;
  settings.multi_contact_law = routh::find_law("lcp")->solve;
  settings.contacts.assign(static_cast<std::size_t>(block->contact_count()),
                           ContactParameters{0.0, 0.7, 0.7});
  routh::test::TrajectoryMemory trajectory;
  const routh::SimulationOutcome outcome = routh::simulate(*block, initial, settings, trajectory);
  CHECK(outcome.status == routh::RunStatus::completed);
  CHECK(trajectory.times_of(routh::EventKind::rest).size() == 1);
  CHECK(outcome.impacts > 150);
  CHECK(std::abs(outcome.final_state.q[2]) < 1e-12);
  const double housner = 1.0 - 1.5 * std::pow(std::sin(alpha), 2);
  int checked = 0;
  for (const double t : trajectory.times_of(routh::EventKind::impact)) {
    std::vector<double> spins;
    for (const auto& sample : trajectory.samples) {
      if (sample.t == t) spins.push_back(sample.v[2]);
    }
    if (t > 3.0) break;  // the first 3 s, as there; late rocks are tiny, the ratio less exact
    REQUIRE(spins.size() >= 2);
    CAPTURE(t);
    CHECK(spins[1] / spins[0] == doctest::Approx(housner).epsilon(1e-9));
    ++checked;
  }
  CHECK(checked >= 5);
}

// =============================================================================================
// Spatial contacts

TEST_CASE("lcp: one spatial contact, frictionless and sticking, in closed form") {
  // Frictionless: Γ = (1 + e) (−u_n⁻ / D_nn) n, as in the planar case. Sticking throughout
  // (u_t⁻ = 0, μ = 2): compression stops the contact, Γ_c = −D⁻¹ u⁻ = 2 (20, 1, −6)/93, whose
  // friction ratio √37/20 = 0.30 fits every cone of p ≥ 4 edges (μ cos(π/p) ≥ 1.41). From rest,
  // the expansion impulse e Γ_c (restitution e Γ_n,c plus sticking friction, in the cone of
  // e Γ_n,c) gives u⁺ = e D Γ_c = −e u⁻: so Γ = (1 + e) Γ_c and u⁺ = (2e, 0, 0).
  ImpactProblem problem;
  problem.dimension = ContactDimension::spatial;
  problem.D.resize(3, 3);
  problem.D << 5, -1, 1, -1, 8, -2, 1, -2, 3;
  problem.u_pre.resize(3);
  problem.u_pre << -2.0, 0.0, 0.0;
  for (const double e : {0.0, 0.5, 1.0}) {
    CAPTURE(e);
    problem.contacts.assign(1, ContactParameters{e, 0.0, 0.0});
    const ImpactResult frictionless = routh::solve_lcp(problem);
    REQUIRE(frictionless.status == ImpactStatus::solved);
    CHECK(frictionless.impulse[0] == doctest::Approx((1.0 + e) * 2.0 / 5.0).epsilon(1e-14));
    CHECK(frictionless.impulse.tail(2).isZero(0.0));

    problem.contacts.assign(1, ContactParameters{e, 2.0, 2.0});
    for (const int edges : {4, 8, 16}) {
      LcpLawOptions options;
      options.friction_edges = edges;
      const LcpImpact sticking = routh::solve_lcp_stages(problem, options);
      routh::test::check_lcp_impact(problem, sticking, options);
      const Eigen::Vector3d stick = -problem.D.inverse() * problem.u_pre;
      CHECK((sticking.result.impulse - (1.0 + e) * stick).cwiseAbs().maxCoeff() <=
            1e-13 * stick.norm());
      CHECK(sticking.result.u_post[0] == doctest::Approx(2.0 * e).epsilon(1e-13));
      CHECK(sticking.result.u_post.tail(2).isZero(0.0));
    }
  }
}

TEST_CASE("lcp: spatial sliding stays inside the inscribed polyhedral cone") {
  // Paper 001 eq. 11: the p-edge cone is inscribed in |Γ_t| ≤ μ Γ_n; it reaches μ along its
  // edges and μ cos(π/p) between two of them. Large slip along an edge (θ = 0) and midway
  // between edges (θ = π/p) shows both bounds.
  ImpactProblem problem;
  problem.dimension = ContactDimension::spatial;
  problem.D = routh::ContactMatrix::Identity(3, 3);
  problem.u_pre.resize(3);
  problem.contacts.assign(1, ContactParameters{0.5, 0.4, 0.4});
  for (const int edges : {4, 8}) {
    LcpLawOptions options;
    options.friction_edges = edges;
    for (const double theta : {0.0, std::numbers::pi / edges}) {
      CAPTURE(edges);
      CAPTURE(theta);
      problem.u_pre << -1.0, 20.0 * std::cos(theta), 20.0 * std::sin(theta);
      const LcpImpact lcp = routh::solve_lcp_stages(problem, options);
      routh::test::check_lcp_impact(problem, lcp, options);
      const double ratio = lcp.result.impulse.tail(2).norm() / lcp.result.impulse[0];
      const double expected = theta == 0.0 ? 0.4 : 0.4 * std::cos(std::numbers::pi / edges);
      CHECK(ratio == doctest::Approx(expected).epsilon(1e-13));
      // D = I: friction is anti-parallel to the slip when the slip lies along an edge
      if (theta == 0.0) CHECK(std::abs(lcp.result.impulse[2]) <= 1e-15);
    }
  }
}

// =============================================================================================
// Statuses, options, allocation

TEST_CASE("lcp: invalid_problem exactly when diagnose reports an error") {
  const ImpactProblem good = rod(0.6, 0.73, 0.7);
  auto expect = [](const ImpactProblem& problem) {
    const bool valid = routh::diagnose(problem).ok();
    const ImpactResult result = routh::solve_lcp(problem);
    CHECK((result.status == ImpactStatus::invalid_problem) == !valid);
  };
  expect(good);
  ImpactProblem p = good;
  p.D(0, 1) = 0.0;  // not symmetric
  expect(p);
  p = routh::planar_impact_problem(1.0, 1.0, 2.0, -1.0, 0.0, {0.5, 0.5, 0.5});  // indefinite
  expect(p);
  p = good;
  p.contacts[0].restitution = 1.3;
  expect(p);
  p = good;
  p.contacts[0].kinetic_friction = -0.1;
  expect(p);
  p = good;
  p.u_pre[1] = std::nan("");
  expect(p);
  p = good;
  p.contacts.push_back(ContactParameters{});  // two parameter sets for one contact
  expect(p);
  p = good;
  p.D(1, 1) = 0.0;
  p.D(0, 1) = p.D(1, 0) = 0.0;  // a zero row of J
  expect(p);
  // singular but valid: one degree of freedom (paper 004 pendulum-like, ab = c²)
  expect(routh::planar_impact_problem(1.0, 4.0, 2.0, -1.0, 0.3, {0.5, 0.5, 0.5}));
}

TEST_CASE("lcp: no impact, an LCP of any size, bad options") {
  ImpactProblem separating = rod(0.6, 0.73, 0.7);
  separating.u_pre[0] = 0.0;
  const ImpactResult none = routh::solve_lcp(separating);
  CHECK(none.status == ImpactStatus::no_impact);
  CHECK(none.impulse.isZero());
  CHECK(none.u_post == separating.u_pre);

  // eight spatial contacts with a 16-edge cone: 8 · 18 = 144 unknowns, more than Lemke holds in
  // place (kInlineLcpSize = 80): solved on the heap, as the 80 of the 8-edge cone in place
  ImpactProblem big;
  big.dimension = ContactDimension::spatial;
  big.D = routh::ContactMatrix::Identity(24, 24);
  big.u_pre = routh::ContactVector::Constant(24, -1.0);
  big.contacts.assign(8, ContactParameters{0.5, 0.5, 0.5});
  LcpLawOptions sixteen;
  sixteen.friction_edges = 16;
  routh::test::check_lcp_impact(big, routh::solve_lcp_stages(big, sixteen), sixteen);
  const LcpImpact eight = routh::solve_lcp_stages(big, {});
  routh::test::check_lcp_impact(big, eight);

  for (const int edges : {2, 5, 18}) {
    LcpLawOptions bad;
    bad.friction_edges = edges;
    CHECK_THROWS_AS(routh::solve_lcp(big, bad), std::invalid_argument);
  }
}

TEST_CASE("lcp: the catalogue entry is the default law") {
  const routh::LawEntry* entry = routh::find_law("lcp");
  REQUIRE(entry != nullptr);
  const ImpactProblem problem = rod(0.3, 0.73, 0.7);
  const ImpactResult a = entry->solve(problem);
  const ImpactResult b = routh::solve_lcp(problem, LcpLawOptions{});
  CHECK(a.impulse == b.impulse);
  CHECK(a.u_post == b.u_post);
}

TEST_CASE("lcp: solving does not allocate") {
  // No heap in the hot path for small problems: up to 12 contacts and 80 LCP unknowns every
  // matrix lives in place (contact_vector.hpp, lemke.hpp, small_buffer_matrix.hpp).
  const ImpactProblem planar = rod(0.3, 0.73, 0.7);
  ImpactProblem spatial;
  spatial.dimension = ContactDimension::spatial;
  spatial.D.resize(3, 3);
  spatial.D << 5, -1, 1, -1, 8, -2, 1, -2, 3;
  spatial.u_pre.resize(3);
  spatial.u_pre << -15.0, 3.0, -4.0;
  spatial.contacts.assign(1, ContactParameters{0.5, 0.6, 0.5});
  const RockingBlock block(0.15, 0.3);
  const ImpactProblem two = block.problem(block.rocking_about_left_corner(-1.7), {0.4, 0.5, 0.4});
  {  // the counter counts: a vector and its buffer
    const long before = routh::test::allocation_count();
    const auto* probe = new std::vector<int>(100);
    CHECK(routh::test::allocation_count() - before == 2);
    delete probe;
  }
  for (const ImpactProblem* problem :
       {&planar, static_cast<const ImpactProblem*>(&spatial), &two}) {
    const long before = routh::test::allocation_count();
    const ImpactResult result = routh::solve_lcp(*problem);
    const long after = routh::test::allocation_count();
    CHECK(result.status == ImpactStatus::solved);
    CHECK(after - before == 0);
  }
}

TEST_CASE("lcp: a spatial contact with a decoupled second tangent at rest is the planar lcp") {
  // Issue 4: every spatial law reduces to its planar counterpart. With H_{n,t2} = H_{t1,t2} = 0
  // and u_t2 = 0 nothing drives the second tangent; the 8-edge cone has edges along ±t1, so its
  // friction impulse along t1 is the planar cone's (±t), and the answers agree to round-off.
  std::mt19937_64 rng(0x0001'2004);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int compared = 0;
  for (int trial = 0; trial < 500; ++trial) {
    const double a = 0.5 + 4.0 * unit(rng), b = 0.5 + 4.0 * unit(rng);
    const double c = (2.0 * unit(rng) - 1.0) * 0.95 * std::sqrt(a * b);
    const double d = 0.5 + 4.0 * unit(rng);  // H_t2t2
    const double u_n = -0.1 - 2.0 * unit(rng), u_t = 4.0 * unit(rng) - 2.0;
    const double mu_s = 1.2 * unit(rng);
    const ContactParameters contact{unit(rng), mu_s, mu_s * unit(rng)};
    const ImpactResult planar = solve_lcp(planar_impact_problem(a, b, c, u_n, u_t, contact));
    Eigen::Matrix3d H;
    H << a, c, 0.0, c, b, 0.0, 0.0, 0.0, d;
    const ImpactResult spatial =
        solve_lcp(spatial_impact_problem(H, Eigen::Vector3d(u_n, u_t, 0.0), contact));
    REQUIRE(planar.status == spatial.status);
    if (planar.status != ImpactStatus::solved) continue;
    ++compared;
    const double scale = planar.impulse.norm();
    CHECK(std::abs(spatial.impulse[0] - planar.impulse[0]) <= 1e-10 * scale);
    CHECK(std::abs(spatial.impulse[1] - planar.impulse[1]) <= 1e-10 * scale);
    CHECK(std::abs(spatial.impulse[2]) <= 1e-10 * scale);
  }
  CHECK(compared > 400);
}

TEST_CASE(
    "lcp: a block landing flat with round-off slips is solved (rocking campaign regression)") {
  // Found by a seeded rocking campaign (a 1.35 m × 2.75 m block, μ = 1.6, e = 0.55): both corners
  // land at ~1e-6 m/s with slips of 8e-16 and 6e-19 m/s. D has rank 3 (the two corners' tangent
  // rows coincide). Read as slipping, those round-off slips made Lemke's method fail; at rest to
  // round-off, the answer is the one with the slips exactly zero.
  routh::ImpactProblem problem;
  problem.dimension = ContactDimension::planar;
  problem.D.resize(4, 4);
  problem.D << 1.583157449822671, -1.1871814259768101, 0.41684255129060466, -1.1871814265236642,
      -1.1871814259768101, 3.416842550177329, 1.1871814237104235, 3.4168425512906047,
      0.41684255129060466, 1.1871814237104235, 1.5831574475961196, 1.1871814242572776,
      -1.1871814265236642, 3.4168425512906047, 1.1871814242572776, 3.4168425524038804;
  problem.u_pre.resize(4);
  problem.u_pre << -6.152264023386442e-07, 8.265898070723178e-16, -2.3793474369486311e-06,
      -5.5967701989827895e-19;
  problem.contacts.assign(
      2, ContactParameters{0.55108164557852912, 1.5973779043060468, 1.5973779043060468});
  const routh::ImpactResult result = routh::find_law("lcp")->solve(problem);
  REQUIRE(result.status == routh::ImpactStatus::solved);
  routh::ImpactProblem at_rest = problem;
  at_rest.u_pre[1] = at_rest.u_pre[3] = 0.0;
  const routh::ImpactResult reference = routh::find_law("lcp")->solve(at_rest);
  REQUIRE(reference.status == routh::ImpactStatus::solved);
  CHECK(result.impulse.isApprox(reference.impulse, 1e-12));
  CHECK((result.u_post - (problem.u_pre + problem.D * result.impulse)).norm() <= 1e-18);
  CHECK(result.u_post[0] >= 0.0);
  CHECK(result.u_post[2] >= 0.0);
}
