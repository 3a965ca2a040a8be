#include "sim/impact/lemke.hpp"

#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <cstddef>
#include <limits>

namespace routh {

namespace {

// A ratio test whose best rows lie within this relative distance of each other is decided again
// on refined values (lemke.hpp, Accuracy): round-off of the running B⁻¹ is far below it, so a
// test outside it cannot be changed by refining.
constexpr double kRefinementWindow = 1e-6;

// Weak pivots (lemke.hpp, Weak pivots): a row whose entry of the entering column is below
// kWeakPivot times the column's largest entry is weak, and its bound in the ratio test is relaxed
// by kFeasibilitySlack (Harris 1973), an absolute slack on the O(1) scaled data.
constexpr double kWeakPivot = 1e-6;
constexpr double kFeasibilitySlack = 1e-9;

/// Per-row data of an LCP: in place up to kInlineLcpSize rows, on the heap beyond.
template <typename T>
using PerRow = boost::container::small_vector<T, kInlineLcpSize>;

/// The basis of the augmented system w − M z − d z₀ = q in revised form. Unknowns are numbered
/// 0 … n−1 for w, n … 2n−1 for z and 2n for z₀.
struct Basis {
  int n = 0;
  LcpMatrix inverse;       ///< B⁻¹
  LcpVector values;        ///< x_B = B⁻¹ q, the basic unknowns' values
  PerRow<int> unknown_in;  ///< unknown_in[i]: the basic unknown of row i
  LcpVector cover;         ///< d, the covering vector of z₀ (every entry > 0)

  int artificial() const { return 2 * n; }
  int complement(int unknown) const { return unknown < n ? unknown + n : unknown - n; }
};

// The kernels below are plain loops over coefficients: for the n ≈ 4–40 of impact LCPs, Eigen's
// dynamic-size block expressions cost more in setup than in arithmetic.

/// out = B⁻¹ a, column by column, skipping the zeros of a (columns of M are often sparse).
void inverse_times(const Basis& basis, const LcpVector& a, LcpVector& out) {
  const int n = basis.n;
  out.resize(n);
  for (int i = 0; i < n; ++i) out[i] = 0.0;
  for (int k = 0; k < n; ++k) {
    const double a_k = a[k];
    if (a_k == 0.0) continue;
    const double* column = basis.inverse.data() + static_cast<std::ptrdiff_t>(k) * n;
    for (int i = 0; i < n; ++i) out[i] += a_k * column[i];
  }
}

/// a: the column of `unknown` in [I, −M, −d].
void original_column(const Basis& basis, const LcpMatrix& M, int unknown, LcpVector& a) {
  const int n = basis.n;
  a.resize(n);
  for (int i = 0; i < n; ++i) {
    a[i] = unknown < n       ? (i == unknown ? 1.0 : 0.0)
           : unknown < 2 * n ? -M(i, unknown - n)
                             : -basis.cover[i];
  }
}

/// B v, from the original columns of the basic unknowns (never from B⁻¹).
void basis_times(const Basis& basis, const LcpMatrix& M, const LcpVector& v, LcpVector& out) {
  const int n = basis.n;
  out.resize(n);
  for (int i = 0; i < n; ++i) out[i] = 0.0;
  for (int k = 0; k < n; ++k) {
    const int unknown = basis.unknown_in[k];
    if (unknown < n) {
      out[unknown] += v[k];
    } else if (unknown < 2 * n) {
      for (int i = 0; i < n; ++i) out[i] -= v[k] * M(i, unknown - n);
    } else {
      for (int i = 0; i < n; ++i) out[i] -= v[k] * basis.cover[i];
    }
  }
}

/// One step of iterative refinement of B x = b with the running B⁻¹, x += B⁻¹ (b − B x): the
/// round-off that B⁻¹ gathered over the pivots then barely reaches x.
void refine(const Basis& basis, const LcpMatrix& M, const LcpVector& b, LcpVector& x) {
  LcpVector residual;
  basis_times(basis, M, x, residual);
  for (int i = 0; i < basis.n; ++i) residual[i] = b[i] - residual[i];
  LcpVector correction;
  inverse_times(basis, residual, correction);
  for (int i = 0; i < basis.n; ++i) x[i] += correction[i];
}

/// c = B⁻¹ a for the column a of `unknown` in [I, −M, −d] (a column of B⁻¹ for a w).
void entering_column(const Basis& basis, const LcpMatrix& M, int unknown, LcpVector& c) {
  if (unknown < basis.n) {
    c = basis.inverse.col(unknown);
    return;
  }
  const int n = basis.n;
  c.resize(n);
  for (int i = 0; i < n; ++i) c[i] = 0.0;
  for (int k = 0; k < n; ++k) {  // c = −B⁻¹ M_j, or −B⁻¹ d for z₀
    const double a_k = unknown < 2 * n ? M(k, unknown - n) : basis.cover[k];
    if (a_k == 0.0) continue;
    const double* column = basis.inverse.data() + static_cast<std::ptrdiff_t>(k) * n;
    for (int i = 0; i < n; ++i) c[i] -= a_k * column[i];
  }
}

/// Makes `entering` basic in `row` (column c = B⁻¹ a): Gauss–Jordan elimination on [x_B | B⁻¹],
/// row `row` divided by c_row, then c_i times it subtracted from every other row i.
void pivot(Basis& basis, const LcpVector& c, int row, int entering) {
  const int n = basis.n;
  const double inverse_pivot = 1.0 / c[row];
  basis.values[row] *= inverse_pivot;
  for (int i = 0; i < n; ++i) {
    if (i != row) basis.values[i] -= c[i] * basis.values[row];
  }
  for (int j = 0; j < n; ++j) {
    double* column = basis.inverse.data() + static_cast<std::ptrdiff_t>(j) * n;
    const double pivot_entry = column[row] * inverse_pivot;
    if (pivot_entry != 0.0) {
      for (int i = 0; i < n; ++i) column[i] -= c[i] * pivot_entry;
    }
    column[row] = pivot_entry;
  }
  basis.unknown_in[row] = entering;
}

/// The outcome of a ratio test: the leaving row (−1: none, a ray), and whether another row came
/// within kRefinementWindow of it (then the test is repeated on refined values).
struct RatioTest {
  int row = -1;
  bool close = false;
};

/// The ratio of a row with basic value `value` and entering-column entry `entry` > 0, where
/// `largest` is max |c|: x_B,i / cᵢ, with a value the slack left below zero read as the zero it
/// stands for, and the bound of a weak row relaxed by the slack (lemke.hpp, Weak pivots).
double row_ratio(double value, double entry, double largest) {
  const double feasible = std::max(0.0, value);
  const bool weak = entry < kWeakPivot * largest;
  return (weak ? feasible + kFeasibilitySlack : feasible) / entry;
}

/// The minimum-ratio test with z₀ first and lexicographic tie breaking (see lemke.hpp).
RatioTest leaving_row(const Basis& basis, const LcpVector& c, const LemkeOptions& options) {
  const int n = basis.n;
  const double largest = c.cwiseAbs().maxCoeff();
  const double usable = options.pivot_tolerance * largest;
  PerRow<double> ratio(static_cast<std::size_t>(n));
  double smallest = std::numeric_limits<double>::infinity();
  for (int i = 0; i < n; ++i) {
    if (!(c[i] > usable)) continue;
    ratio[i] = row_ratio(basis.values[i], c[i], largest);
    smallest = std::min(smallest, ratio[i]);
  }
  if (smallest == std::numeric_limits<double>::infinity()) return {};

  RatioTest test;
  PerRow<int> tied(static_cast<std::size_t>(n));
  int tie_count = 0;
  const double slack = options.tie_tolerance * std::max(1.0, smallest);
  const double window = kRefinementWindow * std::max(1.0, smallest);
  int near_count = 0;
  int artificial_row = -1;
  for (int i = 0; i < n; ++i) {
    if (!(c[i] > usable)) continue;
    if (ratio[i] <= smallest + window) ++near_count;
    if (ratio[i] > smallest + slack) continue;
    if (basis.unknown_in[i] == basis.artificial()) artificial_row = i;
    tied[tie_count++] = i;
  }
  test.close = near_count > 1;
  if (artificial_row >= 0) {  // z₀ leaves: the path ends with a solution
    test.row = artificial_row;
    return test;
  }
  // lexicographic minimum of (x_B,i, B⁻¹ᵢ,·) / cᵢ over the tied rows, one column at a time
  for (int column = 0; column < n && tie_count > 1; ++column) {
    double least = std::numeric_limits<double>::infinity();
    for (int k = 0; k < tie_count; ++k) {
      least = std::min(least, basis.inverse(tied[k], column) / c[tied[k]]);
    }
    const double column_slack = options.tie_tolerance * std::max(1.0, std::abs(least));
    int kept = 0;
    for (int k = 0; k < tie_count; ++k) {
      if (basis.inverse(tied[k], column) / c[tied[k]] <= least + column_slack) {
        tied[kept++] = tied[k];
      }
    }
    tie_count = kept;
  }
  test.row = tied[0];
  return test;
}

/// The first pivot: z₀ enters where q_i / d_i is most negative, the largest index among equals
/// (lemke.hpp).
int first_leaving_row(const LcpVector& q, const LcpVector& cover) {
  int row = 0;
  for (int i = 1; i < q.size(); ++i) {
    if (q[i] / cover[i] <= q[row] / cover[row]) row = i;
  }
  return row;
}

/// z from the final basis (nonbasic unknowns are zero), and w = M z + q with wᵢ = 0 exactly where
/// wᵢ is nonbasic.
void read_solution(const Basis& basis, const LcpMatrix& M, const LcpVector& q,
                   LemkeResult& result) {
  const int n = basis.n;
  PerRow<bool> w_basic(static_cast<std::size_t>(n), false);
  result.z.setZero(n);
  for (int i = 0; i < n; ++i) {
    const int unknown = basis.unknown_in[i];
    // basic values are ≥ 0 by the ratio test; a negative one is round-off of a zero, or a weak
    // row's slack (lemke.hpp, Weak pivots)
    if (unknown < n) w_basic[unknown] = true;
    if (unknown >= n && unknown < 2 * n) result.z[unknown - n] = std::max(0.0, basis.values[i]);
  }
  result.w = q;
  for (int j = 0; j < n; ++j) {
    if (result.z[j] != 0.0) result.w += result.z[j] * M.col(j);
  }
  for (int i = 0; i < n; ++i) {
    if (!w_basic[i]) result.w[i] = 0.0;
    result.w[i] = std::max(0.0, result.w[i]);
  }
}

// One complementary path from z = 0 with the covering vector `cover` (lemke.hpp).
LemkeResult lemke_path(const LcpMatrix& M, const LcpVector& q, const LemkeOptions& options,
                       const LcpVector& cover) {
  LemkeResult result;
  const int n = static_cast<int>(q.size());
  Basis basis;
  basis.n = n;
  basis.cover = cover;
  basis.inverse.resize(n, n);
  std::fill_n(basis.inverse.data(), n * n, 0.0);
  for (int i = 0; i < n; ++i) basis.inverse(i, i) = 1.0;
  basis.values = q;
  basis.unknown_in.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) basis.unknown_in[i] = i;  // all w basic

  const int max_pivots = options.max_pivots > 0 ? options.max_pivots : kDefaultPivotsPerUnknown * n;
  LcpVector column(n);
  LcpVector original(n);
  int entering = basis.artificial();
  int row = first_leaving_row(q, cover);
  entering_column(basis, M, entering, column);
  for (result.pivots = 1;; ++result.pivots) {
    const int leaving = basis.unknown_in[row];
    pivot(basis, column, row, entering);
    if (leaving == basis.artificial()) break;  // z₀ = 0: complementary again
    if (result.pivots == max_pivots) {
      result.status = LemkeStatus::pivot_limit;
      return result;
    }
    entering = basis.complement(leaving);
    entering_column(basis, M, entering, column);
    RatioTest test = leaving_row(basis, column, options);
    if (test.close) {  // decide a (near) tie on refined ratios
      refine(basis, M, q, basis.values);
      original_column(basis, M, entering, original);
      refine(basis, M, original, column);
      test = leaving_row(basis, column, options);
    }
    if (test.row < 0) {
      result.status = LemkeStatus::ray_termination;
      return result;
    }
    row = test.row;
  }
  refine(basis, M, q, basis.values);
  read_solution(basis, M, q, result);
  result.status = LemkeStatus::solved;
  return result;
}

}  // namespace

LemkeResult solve_lcp_lemke(const LcpMatrix& M, const LcpVector& q, const LemkeOptions& options) {
  LemkeResult result;
  const int n = static_cast<int>(q.size());
  if (M.rows() != n || M.cols() != n || !M.allFinite() || !q.allFinite()) {
    return result;
  }
  if (n == 0 || q.minCoeff() >= 0.0) {  // z = 0 already solves it
    result.status = LemkeStatus::solved;
    result.z.setZero(n);
    result.w = q;
    return result;
  }
  LcpVector cover(n);
  for (int i = 0; i < n; ++i) cover[i] = 1.0;
  result = lemke_path(M, q, options, cover);
  if (result.status != LemkeStatus::ray_termination) return result;
  // A second path (lemke.hpp, Covering vectors): d_i = 1 + i / n
  const int first_pivots = result.pivots;
  for (int i = 0; i < n; ++i) cover[i] = 1.0 + static_cast<double>(i) / n;
  result = lemke_path(M, q, options, cover);
  result.pivots += first_pivots;
  return result;
}

std::string_view to_string(LemkeStatus status) {
  switch (status) {
    case LemkeStatus::solved: return "solved";
    case LemkeStatus::ray_termination: return "ray termination";
    case LemkeStatus::pivot_limit: return "pivot limit";
    case LemkeStatus::invalid_input: return "invalid input";
  }
  return "unknown";
}

}  // namespace routh
