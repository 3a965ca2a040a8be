// The pivoted LDLᵀ of a semidefinite matrix (sim/simulation/pivoted_ldlt.hpp) against Eigen's
// full-pivot LU, the factorization it stands in for, on random matrices J Jᵀ of known rank (the
// shape of a contact problem J M⁻¹ Jᵀ with more constraint rows than velocities): the same rank,
// a solution that satisfies A x = b, a kernel that A annihilates and that spans the LU's, and
// the same minimum-norm solution once the kernel part is removed.

#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <random>

#include "sim/simulation/pivoted_ldlt.hpp"

namespace routh {
namespace {

// A symmetric semidefinite n × n matrix of rank r: J Jᵀ with J an n × r random matrix, some of
// whose rows are repeated (two corners with the same contact rows, as on a flat interface).
Eigen::MatrixXd semidefinite(int n, int r, std::mt19937_64& engine) {
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  Eigen::MatrixXd J(n, r);
  for (Eigen::Index i = 0; i < J.size(); ++i) J.data()[i] = uniform(engine);
  if (n > 3) J.row(n - 1) = J.row(0);
  return J * J.transpose();
}

double threshold(int n) { return n * Eigen::NumTraits<double>::epsilon(); }

TEST_CASE("pivoted LDLT: the rank, solution and kernel of the full-pivot LU") {
  std::mt19937_64 engine(20261126);
  int compared = 0;
  for (const int n : {1, 2, 5, 24, 40, 80}) {
    for (int trial = 0; trial < 20; ++trial) {
      const int r = std::max(1, n - static_cast<int>(engine() % static_cast<unsigned>(n)));
      const Eigen::MatrixXd A = semidefinite(n, r, engine);
      const Eigen::VectorXd b = A * Eigen::VectorXd::Random(n);  // in A's range
      Eigen::FullPivLU<Eigen::MatrixXd> lu(A);
      PivotedLdlt ldlt;
      ldlt.compute(A, threshold(n));
      CAPTURE(n);
      CAPTURE(trial);
      REQUIRE(ldlt.rank() == lu.rank());
      CHECK(ldlt.is_invertible() == lu.isInvertible());
      Eigen::VectorXd x;
      ldlt.solve(b, x);
      CHECK((A * x - b).norm() <= 1e-9 * b.norm());
      Eigen::MatrixXd N;
      ldlt.kernel(N);
      REQUIRE(N.cols() == n - ldlt.rank());
      if (N.cols() == 0) continue;
      CHECK((A * N).norm() <= 1e-9 * A.norm() * N.norm());
      // the same space as the LU's kernel: each basis projects onto the other without loss
      const Eigen::MatrixXd K = lu.kernel();
      const Eigen::MatrixXd onto_N = N * (N.transpose() * N).ldlt().solve(N.transpose() * K);
      CHECK((onto_N - K).norm() <= 1e-8 * K.norm());
      // the minimum-norm solutions agree
      const Eigen::VectorXd least = x - N * (N.transpose() * N).ldlt().solve(N.transpose() * x);
      const Eigen::VectorXd reference = A.completeOrthogonalDecomposition().solve(b);
      CHECK((least - reference).norm() <= 1e-7 * reference.norm());
      ++compared;
    }
  }
  CHECK(compared > 50);
}

TEST_CASE("pivoted LDLT: a zero matrix has rank 0, a regular one full rank") {
  PivotedLdlt ldlt;
  ldlt.compute(Eigen::MatrixXd::Zero(3, 3), threshold(3));
  CHECK(ldlt.rank() == 0);
  Eigen::MatrixXd N;
  ldlt.kernel(N);
  CHECK(N.isApprox(Eigen::MatrixXd::Identity(3, 3)));
  const Eigen::Matrix3d A{{4.0, 1.0, 0.5}, {1.0, 3.0, 0.2}, {0.5, 0.2, 2.0}};
  ldlt.compute(A, threshold(3));
  CHECK(ldlt.is_invertible());
  Eigen::VectorXd x;
  ldlt.solve(Eigen::Vector3d(1.0, 2.0, 3.0), x);
  CHECK((A * x - Eigen::Vector3d(1.0, 2.0, 3.0)).norm() < 1e-14);
}

}  // namespace
}  // namespace routh
