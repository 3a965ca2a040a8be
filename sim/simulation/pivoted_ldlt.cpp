#include "sim/simulation/pivoted_ldlt.hpp"

#include <utility>

namespace routh {

// Right-looking elimination on the lower triangle: at step k the largest diagonal entry of the
// Schur complement is swapped to k, its column scaled into L, and its rank-one term removed from
// the trailing block. The trailing block left when the pivots fall below the threshold is
// round-off of a semidefinite zero and is not used.
void PivotedLdlt::compute(const Eigen::MatrixXd& A, double relative_threshold) {
  const auto n = A.rows();
  factor_ = A;
  order_.resize(static_cast<std::size_t>(n));
  for (Eigen::Index i = 0; i < n; ++i) order_[static_cast<std::size_t>(i)] = static_cast<int>(i);
  rank_ = 0;
  double first = 0.0;
  for (Eigen::Index k = 0; k < n; ++k) {
    Eigen::Index p = 0;
    const double pivot = factor_.diagonal().tail(n - k).maxCoeff(&p);
    p += k;
    if (k == 0) first = pivot;
    if (!(pivot > relative_threshold * first) || !(first > 0.0)) break;
    if (p != k) {  // symmetric swap of k and p, on the lower triangle's entries
      factor_.row(k).head(k).swap(factor_.row(p).head(k));
      std::swap(factor_(k, k), factor_(p, p));
      for (Eigen::Index i = k + 1; i < p; ++i) std::swap(factor_(i, k), factor_(p, i));
      factor_.col(k).tail(n - p - 1).swap(factor_.col(p).tail(n - p - 1));
      std::swap(order_[static_cast<std::size_t>(k)], order_[static_cast<std::size_t>(p)]);
    }
    const Eigen::Index rest = n - k - 1;
    auto column = factor_.col(k).tail(rest);
    factor_.bottomRightCorner(rest, rest)
        .selfadjointView<Eigen::Lower>()
        .rankUpdate(column, -1.0 / pivot);
    column /= pivot;
    ++rank_;
  }
}

void PivotedLdlt::solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const {
  const auto n = factor_.rows();
  const auto r = static_cast<Eigen::Index>(rank_);
  scratch_.resize(r);
  for (Eigen::Index k = 0; k < r; ++k) scratch_[k] = b[order_[static_cast<std::size_t>(k)]];
  const auto L = factor_.topLeftCorner(r, r).triangularView<Eigen::UnitLower>();
  L.solveInPlace(scratch_);
  scratch_.array() /= factor_.diagonal().head(r).array();
  L.transpose().solveInPlace(scratch_);
  x.setZero(n);
  for (Eigen::Index k = 0; k < r; ++k) x[order_[static_cast<std::size_t>(k)]] = scratch_[k];
}

void PivotedLdlt::kernel(Eigen::MatrixXd& basis) const {
  const auto n = factor_.rows();
  const auto r = static_cast<Eigen::Index>(rank_);
  // in pivot order: x₁ = −L₁₁⁻ᵀ L₂₁ᵀ x₂ makes the leading rows' residual (L₁₁ D₁)(L₁₁ᵀ x₁ +
  // L₂₁ᵀ x₂) vanish, and the trailing rows' then vanish with the semidefinite remainder
  Eigen::MatrixXd top = -factor_.bottomLeftCorner(n - r, r).transpose();
  factor_.topLeftCorner(r, r).triangularView<Eigen::UnitLower>().transpose().solveInPlace(top);
  basis.setZero(n, n - r);
  for (Eigen::Index k = 0; k < r; ++k) basis.row(order_[static_cast<std::size_t>(k)]) = top.row(k);
  for (Eigen::Index j = 0; j < n - r; ++j) basis(order_[static_cast<std::size_t>(r + j)], j) = 1.0;
}

}  // namespace routh
