#pragma once
// The rank-revealing factorization of a symmetric positive semidefinite matrix that the contact
// force solve uses on large islands: P A Pᵀ = L D Lᵀ with diagonal pivoting (Golub & Van Loan,
// "Matrix Computations", §4.2.8, the pivoted Cholesky), stopped at the first pivot not above
// `threshold` times the first.
//
// Why this and not a full-pivot LU: on a semidefinite A the largest entry of every Schur
// complement lies on its diagonal (|a_ij| ≤ (a_ii a_jj)^½), so full pivoting picks the pivots that
// diagonal pivoting picks, with the same values: the rank, the particular solution and the null
// basis below are the full-pivot LU's ones up to round-off. Diagonal pivoting reads one diagonal
// instead of the whole trailing matrix at every step and touches one triangle, which on the 80
// unknowns of a 20-drum column makes it about twenty times cheaper.
#include <Eigen/Core>
#include <vector>

namespace routh {

/// P A Pᵀ = L D Lᵀ over A's first `rank` pivots, the workspace of one factorization at a time.
class PivotedLdlt {
 public:
  /// Factors the lower triangle of `A`; a pivot counts when it exceeds `relative_threshold`
  /// times the first (the largest diagonal entry), as a full-pivot LU counts its pivots.
  void compute(const Eigen::MatrixXd& A, double relative_threshold);

  int rank() const { return rank_; }
  bool is_invertible() const { return rank_ == static_cast<int>(factor_.rows()); }

  /// The particular solution of A x = b whose components at the pivots left out are 0: the
  /// solution of the leading r × r block A₁₁ x₁ = b₁ (a full-pivot LU's `solve`).
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const;

  /// A basis of ker A: in pivot order the columns of [−L₁₁⁻ᵀ L₂₁ᵀ; I], one per pivot left out.
  void kernel(Eigen::MatrixXd& basis) const;

 private:
  Eigen::MatrixXd factor_;  // L strictly below the diagonal, D on it; rows in pivot order
  std::vector<int> order_;  // order_[k]: the row of A that is the k-th pivot
  mutable Eigen::VectorXd scratch_;
  int rank_ = 0;
};

}  // namespace routh
