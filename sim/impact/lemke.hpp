#pragma once
// Lemke's complementary pivoting method for the linear complementarity problem LCP(M, q):
//
//     find z ∈ ℝⁿ with  w = M z + q ≥ 0,  z ≥ 0,  wᵀz = 0.
//
// Lemke (1965); Cottle, Pang & Stone, "The Linear Complementarity Problem" (1992) ch. 4 (the
// method, its termination for copositive-plus M, lexicographic degeneracy resolution); Anitescu
// & Potra 1997 (Lemke's method solves the frictional impact LCPs of paper 001 eq. 16, whose M is
// only copositive). Paper 001 cites both, as [9] and [7].
//
// The method. Add an artificial variable z₀ with the covering vector d = (1, …, 1):
//     w = M z + d z₀ + q.
// With z = 0 and z₀ = −min qᵢ every w is ≥ 0, and the w that was most negative is zero: it
// leaves the basis and z₀ enters ("almost complementary" basis: every pair (wᵢ, zᵢ) has one
// nonbasic member except one pair, both nonbasic). Then repeat: the complement of the variable
// that just left enters; the minimum-ratio test picks the basic variable that first reaches zero
// as it grows, and that variable leaves. The path ends
//  - with a solution when z₀ leaves (then every pair is complementary and z₀ = 0), or
//  - on a secondary ray when nothing limits the entering variable. For a copositive-plus M (and
//    for the impact LCPs) that proves the LCP infeasible; in general it means Lemke's method
//    cannot solve it.
// The basis is kept in revised form, B⁻¹ and x_B = B⁻¹ q, where the columns of B come from the
// system [I, −M, −d] for the unknowns (w, z, z₀).
//
// Pivoting rule. Entering column c = B⁻¹ a (a the entering variable's column); rows with
// cᵢ > pivot_tolerance · max|c| compete; the smallest ratio x_B,i / cᵢ leaves. Ties (ratios
// within tie_tolerance · max(1, min ratio), i.e. degenerate bases) are broken
//  1. in favour of z₀, which ends the path at once with a solution, else
//  2. lexicographically: the row whose vector (x_B,i, B⁻¹ᵢ,₁, …, B⁻¹ᵢ,ₙ) / cᵢ is smallest
//     (Cottle–Pang–Stone ch. 4). This is the ratio test of the perturbed right-hand side
//     q + (ε, ε², …, εⁿ); it never revisits a basis, so the method cannot cycle. The first pivot
//     (z₀ enters) takes, among the equally most negative qᵢ, the one with the largest index, the
//     choice that makes the perturbed start lexicographically feasible.
// Tolerances are absolute on O(1) data: scale M and q to O(1) first (the `lcp` law does).
//
// Weak pivots. Two contacts whose Jacobian rows are almost parallel (the two bottom corners of a
// block lying almost flat on a face: their tangent rows differ by the block's tilt, ~1e-11) give
// M rows that differ by a tiny δ, and bases in which a row has both a tiny basic value and a tiny
// entering entry, both differences of the O(1) data of order δ. Their ratio x_B,i / cᵢ is a
// quotient of two numbers with only a few correct digits (~1e-16 / δ relative error), yet the plain
// test took it whenever it was the smallest: the pivot on cᵢ ~ 1e-11 made B⁻¹ ~ 1e11, and the path
// ended on a false ray or with a "solution" violating w ≥ 0 by O(1) (tests/test_lemke.cpp keeps
// such a problem from a stack of blocks). So a row is weak when cᵢ < 1e-6 max|c|, and its bound is
// relaxed by a feasibility slack of 1e-9, ratio (x_B,i + 1e-9) / cᵢ: Harris's ratio test (Harris,
// "Pivot selection methods of the Devex LP code", Math. Programming 5, 1973; Gill, Murray,
// Saunders & Wright, "A practical anti-cycling procedure for linearly constrained optimization",
// Math. Programming 45, 1989), applied to weak rows only so that the lexicographic rule still
// decides between well-conditioned rows. A weak row passed over can end with its basic value down
// to −1e-9 (relative to the O(1) data); it counts as zero in later ratio tests, and read_solution
// clamps it to zero. The relaxation gives up the lexicographic proof against cycling where weak
// rows are involved; max_pivots still bounds the path.
//
// Accuracy. The frictional impact LCPs are degenerate by structure (a sticking contact has every
// edge velocity and its λ zero at once), so their ratio tests tie exactly in exact arithmetic.
// With the running B⁻¹ of an ill-conditioned basis such ties came apart by ~1e-12 relative, the
// wrong row left, and the path ended on a false ray (tests/test_lcp.cpp keeps that problem).
// So whenever two rows of a ratio test come within 1e-6 of each other, x_B and the entering
// column are refined once against the original columns, x += B⁻¹ (b − B x), and the test is
// decided again; refined, exact ties agree to a few ulps. x_B is refined once more at the end.
// Nonbasic variables are exactly zero, so the returned w and z are exactly complementary,
// wᵢ zᵢ = 0; w = M z + q holds to round-off, or to the slack 1e-9 where a weak row was passed over
// (Weak pivots).
//
// Any size. Up to kInlineLcpSize unknowns (a B⁻¹ of 80 × 80 doubles is 51 kB of stack; only the
// leading n × n block is touched) nothing is allocated; a larger LCP (an impact through the many
// contacts of a column of blocks) keeps its matrices on the heap (small_buffer_matrix.hpp).
//
// Covering vectors. For a copositive-plus M a secondary ray proves the LCP infeasible, whatever
// the covering vector; the frictional impact LCPs are only copositive, and there the path, which
// depends on d, can end on a ray where a solution exists (Cottle, Pang & Stone ch. 4 state the
// method for any d > 0). tall_stack:6 of the multibody campaign: an expansion stage of 16 unknowns
// (D singular in the squeeze of two corners on one face) has solutions, which enumerating its
// complementary bases finds, but its path from d = (1, …, 1) ended on a ray after 8 pivots. A path
// that ends on a ray is therefore followed by a second from d_i = 1 + i/n (n the size), which
// reached a solution there; only its ray, too, is reported. A path that reaches a solution is
// unchanged.

#include <Eigen/Core>
#include <string_view>

#include "sim/impact/small_buffer_matrix.hpp"

namespace routh {

/// Unknowns whose LCP is solved without touching the heap: eight spatial contacts with an 8-edge
/// friction cone (10 unknowns each: normal impulse, 8 edge impulses, slip speed).
inline constexpr int kInlineLcpSize = 80;

using LcpMatrix = SmallBufferMatrix<kInlineLcpSize, kInlineLcpSize>;
using LcpVector = SmallBufferMatrix<kInlineLcpSize, 1>;

enum class LemkeStatus {
  solved,           ///< z₀ left the basis: (w, z) solve the LCP
  ray_termination,  ///< the entering variable is unbounded (secondary ray): no solution found
  pivot_limit,      ///< LemkeOptions::max_pivots reached without a solution
  invalid_input,    ///< sizes do not match, or M, q are not finite
};

struct LemkeOptions {
  /// Pivots after which the method gives up; 0 means kDefaultPivotsPerUnknown · n. Lemke's path
  /// is a few n pivots long in practice (worst case exponential).
  int max_pivots = 0;
  /// Entries of an entering column below this fraction of its largest entry count as zero.
  double pivot_tolerance = 1e-12;
  /// Ratios within this (times max(1, smallest ratio)) of the smallest one tie. Choosing a tied
  /// row that is not the smallest leaves a basic value that negative (relative), so it is kept
  /// near round-off; the refined ratios make exact ties agree far more closely (see Accuracy).
  double tie_tolerance = 1e-12;
};

inline constexpr int kDefaultPivotsPerUnknown = 50;

struct LemkeResult {
  LemkeStatus status = LemkeStatus::invalid_input;
  LcpVector z;     ///< the solution when solved (n entries, ≥ 0)
  LcpVector w;     ///< M z + q, ≥ 0, with wᵢ = 0 exactly where zᵢ is basic
  int pivots = 0;  ///< pivots taken, the first one (z₀ entering) included
};

/// Solves LCP(M, q) by Lemke's method with covering vector (1, …, 1), and where that path ends on
/// a ray, once more with (1 + i/n) (Covering vectors, above). q ≥ 0 returns z = 0 at once.
LemkeResult solve_lcp_lemke(const LcpMatrix& M, const LcpVector& q,
                            const LemkeOptions& options = {});

std::string_view to_string(LemkeStatus status);

}  // namespace routh
