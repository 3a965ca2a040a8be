// Tests of Lemke's method (sim/impact/lemke.hpp) on LCPs whose solutions are derived by hand
// (Cramer's rule on the complementary pair, or substitution), an infeasible LCP, and degenerate
// LCPs where the lexicographic rule must break ties. Every solution is checked for w ≥ 0, z ≥ 0,
// exact complementarity and w = M z + q to 1e-12 relative to |M| |z| + |q|.

#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <cmath>
#include <initializer_list>
#include <random>

#include "sim/impact/lemke.hpp"

namespace {

using routh::LcpMatrix;
using routh::LcpVector;
using routh::LemkeResult;
using routh::LemkeStatus;

LcpMatrix matrix(int n, std::initializer_list<double> entries) {
  LcpMatrix M(n, n);
  auto it = entries.begin();
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) M(i, j) = *it++;
  }
  return M;
}

LcpVector vector(std::initializer_list<double> entries) {
  LcpVector v(static_cast<Eigen::Index>(entries.size()));
  int i = 0;
  for (const double x : entries) v[i++] = x;
  return v;
}

/// w ≥ 0, z ≥ 0, wᵢ zᵢ = 0 and w = M z + q to `tolerance` relative to |M| |z| + |q|.
void check_solves(const LcpMatrix& M, const LcpVector& q, const LemkeResult& r,
                  double tolerance = 1e-12) {
  REQUIRE(r.status == LemkeStatus::solved);
  REQUIRE(r.z.size() == q.size());
  const double scale =
      M.cwiseAbs().maxCoeff() * r.z.cwiseAbs().maxCoeff() + q.cwiseAbs().maxCoeff();
  CHECK(r.z.minCoeff() >= 0.0);
  CHECK(r.w.minCoeff() >= 0.0);
  CHECK(r.w.cwiseProduct(r.z).cwiseAbs().maxCoeff() <=
        tolerance * scale * r.z.cwiseAbs().maxCoeff());
  CHECK((r.w - (M * r.z + q)).cwiseAbs().maxCoeff() <= tolerance * scale);
}

}  // namespace

// =============================================================================================
// Lemke's method

TEST_CASE("lemke: positive definite 2x2 LCP with both unknowns positive") {
  // M = [[2, 1], [1, 2]], q = (−5, −6). If both zᵢ > 0 then w = 0 and M z = −q, so by Cramer's
  // rule z = (5·2 − 6·1, 6·2 − 5·1)/3 = (4/3, 7/3) > 0: that is the solution (the only one: M
  // is a P-matrix, whose LCPs have exactly one solution for every q; Cottle–Pang–Stone ch. 3).
  const LcpMatrix M = matrix(2, {2, 1, 1, 2});
  const LcpVector q = vector({-5, -6});
  const LemkeResult r = routh::solve_lcp_lemke(M, q);
  check_solves(M, q, r);
  CHECK(r.z[0] == doctest::Approx(4.0 / 3.0).epsilon(1e-14));
  CHECK(r.z[1] == doctest::Approx(7.0 / 3.0).epsilon(1e-14));
  CHECK(r.w.isZero());
}

TEST_CASE("lemke: q >= 0 is solved by z = 0 without a pivot") {
  const LcpMatrix M = matrix(2, {-1, 3, 5, -7});
  const LcpVector q = vector({0, 2});
  const LemkeResult r = routh::solve_lcp_lemke(M, q);
  REQUIRE(r.status == LemkeStatus::solved);
  CHECK(r.pivots == 0);
  CHECK(r.z.isZero());
  CHECK(r.w == q);
}

TEST_CASE("lemke: a mixed solution built from a chosen complementary pair") {
  // M = 4I + S with S skew-symmetric is positive definite (xᵀMx = 4|x|²), hence a P-matrix and
  // the LCP has exactly one solution. Choose it: z* = (2, 0, 1), w* = (0, 3, 0), complementary;
  // then q = w* − M z* makes (z*, w*) that solution.
  const LcpMatrix M = matrix(3, {4, 1, -2, -1, 4, 3, 2, -3, 4});
  const LcpVector z_star = vector({2, 0, 1});
  const LcpVector w_star = vector({0, 3, 0});
  const LcpVector q = w_star - M * z_star;  // (−6, 2, −8)
  const LemkeResult r = routh::solve_lcp_lemke(M, q);
  check_solves(M, q, r);
  CHECK((r.z - z_star).cwiseAbs().maxCoeff() <= 1e-14 * 2.0);
  CHECK((r.w - w_star).cwiseAbs().maxCoeff() <= 1e-14 * 8.0);
}

TEST_CASE("lemke: a copositive matrix with three solutions gives one of them") {
  // M = [[1, 2], [2, 1]] ≥ 0 with a positive diagonal is strictly copositive, hence copositive-plus
  // with every LCP(M, q) feasible, so Lemke's method solves it (Cottle–Pang–Stone ch. 4), but M is
  // not a P-matrix (det = −3) and q = (−1, −1) has three solutions: z = (1, 0) with w = (0, 1); z =
  // (0, 1) with w = (1, 0); z = (1/3, 1/3) with w = 0 (each checked by substitution).
  const LcpMatrix M = matrix(2, {1, 2, 2, 1});
  const LcpVector q = vector({-1, -1});
  const LemkeResult r = routh::solve_lcp_lemke(M, q);
  check_solves(M, q, r);
  const bool first = std::abs(r.z[0] - 1.0) < 1e-14 && r.z[1] == 0.0;
  const bool second = r.z[0] == 0.0 && std::abs(r.z[1] - 1.0) < 1e-14;
  const bool third = std::abs(r.z[0] - 1.0 / 3.0) < 1e-14 && std::abs(r.z[1] - 1.0 / 3.0) < 1e-14;
  CHECK((first || second || third));
}

TEST_CASE("lemke: an infeasible LCP ends on a secondary ray") {
  // M = [[1, −1], [−1, 1]] is positive semidefinite, hence copositive-plus, and for such M
  // Lemke's method ends on a ray exactly when the LCP is infeasible (Cottle–Pang–Stone ch. 4). Here
  // w₁ + w₂ = q₁ + q₂ = −2 for every z, so w ≥ 0 is impossible.
  const LcpMatrix M = matrix(2, {1, -1, -1, 1});
  const LcpVector q = vector({3, -5});
  CHECK(routh::solve_lcp_lemke(M, q).status == LemkeStatus::ray_termination);
}

TEST_CASE(
    "lemke: a solvable copositive LCP whose first path ends on a ray is solved by the second") {
  // The expansion stage of the `lcp` law for a 4-contact impact of tall_stack:6 of the multibody
  // campaign (seed 20260917, under a settling rule tried on a branch): D is singular in the squeeze
  // of two corners on one face, and M is only copositive. Enumerating all 2^16 complementary bases
  // outside routh (z_B = -M_BB^-1 q_B, z_N = 0) finds two that solve it, so a ray from the
  // covering vector (1, ..., 1), which the first path ended on after 8 pivots, proves nothing
  // (lemke.hpp, Covering vectors). The check is complementarity against M and q as given.
  const LcpMatrix M = matrix(16, {0.13175783765661514,
                                  0.08829537550001282,
                                  -0.08829537550001282,
                                  0,
                                  0.011433935486303727,
                                  0.08829537482075975,
                                  -0.08829537482075975,
                                  0,
                                  -0.13175785230282308,
                                  0.08829537482075975,
                                  -0.08829537482075975,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0.08829537550001282,
                                  0.1690519073803389,
                                  -0.1690519073803389,
                                  1,
                                  0.08829536680119586,
                                  0.04872800412021803,
                                  -0.04872800412021803,
                                  0,
                                  -0.08829539713642139,
                                  0.04872800412021803,
                                  -0.04872800412021803,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  -0.08829537550001282,
                                  -0.1690519073803389,
                                  0.1690519073803389,
                                  1,
                                  -0.08829536680119586,
                                  -0.04872800412021803,
                                  0.04872800412021803,
                                  0,
                                  0.08829539713642139,
                                  -0.04872800412021803,
                                  0.04872800412021803,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0.39742163911946815,
                                  -1,
                                  -1,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0.011433935486303727,
                                  0.08829536680119586,
                                  -0.08829536680119586,
                                  0,
                                  0.655554317368179,
                                  -0.23527333245019494,
                                  0.23527333245019494,
                                  0,
                                  -0.10326801706589994,
                                  -0.23527333462145447,
                                  0.23527333462145447,
                                  0,
                                  -0.5237964219053756,
                                  -0.3235686988960264,
                                  0.3235686988960264,
                                  0,
                                  0.08829537482075975,
                                  0.04872800412021803,
                                  -0.04872800412021803,
                                  0,
                                  -0.23527333245019494,
                                  0.7251614558841714,
                                  -0.7251614558841714,
                                  1,
                                  0.23527330686383077,
                                  0.725161458166552,
                                  -0.725161458166552,
                                  0,
                                  0.32356862830938943,
                                  0.12414714132884762,
                                  -0.12414714132884762,
                                  0,
                                  -0.08829537482075975,
                                  -0.04872800412021803,
                                  0.04872800412021803,
                                  0,
                                  0.23527333245019494,
                                  -0.7251614558841714,
                                  0.7251614558841714,
                                  1,
                                  -0.23527330686383077,
                                  -0.725161458166552,
                                  0.725161458166552,
                                  0,
                                  -0.32356862830938943,
                                  -0.12414714132884762,
                                  0.12414714132884762,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0.39742163911946815,
                                  -1,
                                  -1,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  -0.13175785230282308,
                                  -0.08829539713642139,
                                  0.08829539713642139,
                                  0,
                                  -0.10326801706589994,
                                  0.23527330686383077,
                                  -0.23527330686383077,
                                  0,
                                  0.6555543504068967,
                                  0.23527330903509025,
                                  -0.23527330903509025,
                                  0,
                                  0.09183400081614156,
                                  0.32356869802032057,
                                  -0.32356869802032057,
                                  0,
                                  0.08829537482075975,
                                  0.04872800412021803,
                                  -0.04872800412021803,
                                  0,
                                  -0.23527333462145447,
                                  0.725161458166552,
                                  -0.725161458166552,
                                  0,
                                  0.23527330903509025,
                                  0.7251614604489326,
                                  -0.7251614604489326,
                                  1,
                                  0.3235686304806485,
                                  0.12414714361122821,
                                  -0.12414714361122821,
                                  0,
                                  -0.08829537482075975,
                                  -0.04872800412021803,
                                  0.04872800412021803,
                                  0,
                                  0.23527333462145447,
                                  -0.725161458166552,
                                  0.725161458166552,
                                  0,
                                  -0.23527330903509025,
                                  -0.7251614604489326,
                                  0.7251614604489326,
                                  1,
                                  -0.3235686304806485,
                                  -0.12414714361122821,
                                  0.12414714361122821,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0.39742163911946815,
                                  -1,
                                  -1,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  -0.5237964219053756,
                                  0.32356862830938943,
                                  -0.32356862830938943,
                                  0,
                                  0.09183400081614156,
                                  0.3235686304806485,
                                  -0.3235686304806485,
                                  0,
                                  0.9331805608066861,
                                  0.06816832563931977,
                                  -0.06816832563931977,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  -0.3235686988960264,
                                  0.12414714132884762,
                                  -0.12414714132884762,
                                  0,
                                  0.32356869802032057,
                                  0.12414714361122821,
                                  -0.12414714361122821,
                                  0,
                                  0.06816832563931977,
                                  0.9999999999999999,
                                  -0.9999999999999999,
                                  1,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0.3235686988960264,
                                  -0.12414714132884762,
                                  0.12414714132884762,
                                  0,
                                  -0.32356869802032057,
                                  -0.12414714361122821,
                                  0.12414714361122821,
                                  0,
                                  -0.06816832563931977,
                                  -0.9999999999999999,
                                  0.9999999999999999,
                                  1,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0.39742163911946815,
                                  -1,
                                  -1,
                                  0});
  const LcpVector q =
      vector({0.15723780942478166, 0.19471754382449877, -0.19471754382449877, 1.0817399992757313,
              -0.09479252603742269, 1.2527527749178384, -1.2527527749178384, 0.08429761345461542,
              0.6520000380934865, 1.2527527768287914, -1.2527527768287914, 0.6147783021372258,
              0.2184096374649335, 0.8239896055969045, -0.8239896055969045, 0.0798323030420575});
  check_solves(M, q, routh::solve_lcp_lemke(M, q), 1e-9);
}

TEST_CASE("lemke: degenerate LCPs, ties in the first pivot and zeros in q") {
  SUBCASE("M = I, q = (-1, -1, -1): three-way tie for the first pivot, z = -q") {
    const LcpMatrix M = LcpMatrix::Identity(3, 3);
    const LcpVector q = vector({-1, -1, -1});
    const LemkeResult r = routh::solve_lcp_lemke(M, q);
    check_solves(M, q, r);
    CHECK(r.z == vector({1, 1, 1}));
  }
  SUBCASE("a cyclic P-matrix, then a zero in q that makes w2 and z2 vanish together") {
    // M = [[1, 2, 0], [0, 1, 2], [2, 0, 1]]: principal minors 1, 1, 1, 1, 1, 1 and det 9, a
    // P-matrix, so each LCP below has exactly one solution. q = (−1, −1, −1): every row sum is 3,
    // so z = (1, 1, 1)/3 gives w = 0. q = (−1, 0, −1): z = (1, 0, 0) gives w = (0, 0, 1),
    // complementary, with w₂ = z₂ = 0 (a degenerate solution).
    const LcpMatrix M = matrix(3, {1, 2, 0, 0, 1, 2, 2, 0, 1});
    const LcpVector q = vector({-1, -1, -1});
    const LemkeResult r = routh::solve_lcp_lemke(M, q);
    check_solves(M, q, r);
    CHECK((r.z - LcpVector::Constant(3, 1.0 / 3.0)).cwiseAbs().maxCoeff() <= 1e-15);
    const LcpVector q0 = vector({-1, 0, -1});
    const LemkeResult r0 = routh::solve_lcp_lemke(M, q0);
    check_solves(M, q0, r0);
    CHECK((r0.z - vector({1, 0, 0})).cwiseAbs().maxCoeff() <= 1e-15);
    CHECK((r0.w - vector({0, 0, 1})).cwiseAbs().maxCoeff() <= 1e-15);
  }
  SUBCASE("random positive definite M with integer q in {-1, 0}: many ties, always solved") {
    // A positive definite M (symmetric part ≻ 0) makes the LCP uniquely solvable and Lemke's
    // method must find it from any q; q with many equal entries and zeros makes nearly every
    // ratio test a tie, which the lexicographic rule must break without cycling.
    std::mt19937_64 rng(0x1e3e'0001ULL);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    for (int trial = 0; trial < 500; ++trial) {
      const int n = 2 + trial % 12;
      CAPTURE(trial);
      Eigen::MatrixXd A(n, n);
      Eigen::MatrixXd S(n, n);
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
          A(i, j) = unit(rng);
          S(i, j) = unit(rng);
        }
      }
      const LcpMatrix M = A * A.transpose() + 0.1 * Eigen::MatrixXd::Identity(n, n) +
                          (S - S.transpose()) * (trial % 2);
      LcpVector q(n);
      for (int i = 0; i < n; ++i) q[i] = unit(rng) < 0.0 ? -1.0 : 0.0;
      q[0] = -1.0;
      check_solves(M, q, routh::solve_lcp_lemke(M, q), 1e-11);
    }
  }
}

// Near-redundant contacts (lemke.hpp, Weak pivots). Compression LCPs of the `lcp` law (lcp.cpp,
// unknowns per contact: Γ_n, β₊, β₋, λ) for a block landing on both bottom corners at once, taken
// from the seeded stack campaign (tests/test_multibody_campaign.cpp). The block lies almost flat,
// so the two corners' tangent rows of D differ only by ~1e-11 (first) and ~1e-10 (second): M's
// rows 1–2 and 5–6 agree to that. With the plain ratio test the first ended on a false ray
// (pivot 2 on cᵢ = 4.9e-12 with x_B,i = 1.1e-16, then B⁻¹ ~ 1e11), the second returned "solved"
// with min w = −0.94; exact rational arithmetic on the same data solves both.

namespace {

/// The friction cone of each contact of a planar compression LCP: β₊ + β₋ ≤ μ Γ_n, to `tolerance`.
void check_planar_cones(const LcpMatrix& M, const LemkeResult& r, double tolerance) {
  for (int first = 0; first + 3 < r.z.size(); first += 4) {
    const double mu = M(first + 3, first);
    CAPTURE(first);
    CHECK(r.z[first + 1] + r.z[first + 2] <= mu * r.z[first] + tolerance);
  }
}

}  // namespace

TEST_CASE("lemke: a block landing flat on two corners, tangent rows equal to 1e-11") {
  // one row of M per line
  // clang-format off
  const LcpMatrix M = matrix(8, {
      0.9999999999901134, -0.5545353356505135, 0.5545353356505135, 0.0, -0.25496590133526675, -0.5545353356449199, 0.5545353356449199, 0.0,
      -0.5545353356505135, 0.8625852466593611, -0.8625852466593611, 1.0, 0.5545353356548821, 0.8625852466544179, -0.8625852466544179, 0.0,
      0.5545353356505135, -0.8625852466593611, 0.8625852466593611, 1.0, -0.5545353356548821, -0.8625852466544179, 0.8625852466544179, 0.0,
      0.5009621585282075, -1.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0,
      -0.25496590133526675, 0.5545353356548821, -0.5545353356548821, 0.0, 1.0, 0.5545353356492886, -0.5545353356492886, 0.0,
      -0.5545353356449199, 0.8625852466544179, -0.8625852466544179, 0.0, 0.5545353356492886, 0.8625852466494747, -0.8625852466494747, 1.0,
      0.5545353356449199, -0.8625852466544179, 0.8625852466544179, 0.0, -0.5545353356492886, -0.8625852466494747, 0.8625852466494747, 1.0,
      0.0, 0.0, 0.0, 0.0, 0.5009621585282075, -1.0, -1.0, 0.0});
  // clang-format on
  const LcpVector q = vector({-2.7923984668338613e-05, 0.9999999999999999, -0.9999999999999999, 0.0,
                              5.764506030564426e-06, 0.9999999999999998, -0.9999999999999998, 0.0});
  const LemkeResult r = routh::solve_lcp_lemke(M, q);
  check_solves(M, q, r, 1e-9);  // the weak-row slack (lemke.hpp)
  check_planar_cones(M, r, 1e-9);
  CHECK(r.z[0] > 0.0);  // the approaching contact takes a normal impulse
}

TEST_CASE("lemke: two corners with tangent rows equal to 1e-10, no false solution") {
  // one row of M per line
  // clang-format off
  const LcpMatrix M = matrix(8, {
      0.7810092355056948, -0.5229629164602801, 0.5229629164602801, 0.0, -0.06860554140398531, -0.5229629163785874, 0.5229629163785874, 0.0,
      -0.5229629164602801, 1.0, -1.0, 1.0, 0.522962916584086, 0.9999999998994312, -0.9999999998994312, 0.0,
      0.5229629164602801, -1.0, 1.0, 1.0, -0.522962916584086, -0.9999999998994312, 0.9999999998994312, 0.0,
      0.26473075128738105, -1.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0,
      -0.06860554140398531, 0.522962916584086, -0.522962916584086, 0.0, 0.7810092357068319, 0.5229629165023932, -0.5229629165023932, 0.0,
      -0.5229629163785874, 0.9999999998994312, -0.9999999998994312, 0.0, 0.5229629165023932, 0.9999999997988629, -0.9999999997988629, 1.0,
      0.5229629163785874, -0.9999999998994312, 0.9999999998994312, 0.0, -0.5229629165023932, -0.9999999997988629, 0.9999999997988629, 1.0,
      0.0, 0.0, 0.0, 0.0, 0.26473075128738105, -1.0, -1.0, 0.0});
  // clang-format on
  const LcpVector q = vector(
      {-0.9065509167118477, 1.0, -1.0, 0.0, 0.0, 0.9999999999128326, -0.9999999999128326, 0.0});
  const LemkeResult r = routh::solve_lcp_lemke(M, q);
  check_solves(M, q, r, 1e-9);
  check_planar_cones(M, r, 1e-9);
}

TEST_CASE("lemke: pivot limit and invalid input are statuses") {
  const LcpMatrix M = matrix(3, {4, 1, -2, -1, 4, 3, 2, -3, 4});
  const LcpVector q = vector({-6, 2, -8});
  routh::LemkeOptions options;
  options.max_pivots = 1;
  CHECK(routh::solve_lcp_lemke(M, q, options).status == LemkeStatus::pivot_limit);
  CHECK(routh::solve_lcp_lemke(M, vector({-1, 2})).status == LemkeStatus::invalid_input);
  LcpVector nan_q = q;
  nan_q[1] = std::nan("");
  CHECK(routh::solve_lcp_lemke(M, nan_q).status == LemkeStatus::invalid_input);
}
