// Contact-space algebra: D = J M⁻¹ Jᵀ through a Cholesky factor of M, the velocity
// jump Δv = M⁻¹ Jᵀ Γ, and ΔT = Γᵀu⁻ + ½ΓᵀDΓ, each against a direct computation with M⁻¹.

#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <stdexcept>

#include "sim/contact_space.hpp"

TEST_CASE("contact space: D, Δv and ΔT agree with the explicit inverse") {
  std::srand(7);  // Eigen's Random() draws from rand(); fixed seed for a repeatable test
  for (int n = 2; n <= 7; ++n) {
    CAPTURE(n);
    const Eigen::MatrixXd A = Eigen::MatrixXd::Random(n, n);
    const Eigen::MatrixXd M = A * A.transpose() + n * Eigen::MatrixXd::Identity(n, n);
    const Eigen::MatrixXd J = Eigen::MatrixXd::Random(2, n);
    const Eigen::VectorXd v = Eigen::VectorXd::Random(n);
    routh::ContactSpace space;
    REQUIRE(routh::factor_contact_space(M, J, space));

    const Eigen::MatrixXd M_inverse = M.inverse();  // the route the library avoids
    const Eigen::MatrixXd D = routh::contact_space_inertia(space);
    CHECK((D - J * M_inverse * J.transpose()).norm() < 1e-12 * D.norm());
    CHECK(D == D.transpose());

    routh::ContactVector impulse(2);
    impulse << 0.7, -0.2;
    const Eigen::VectorXd dv = routh::generalized_velocity_change(space, impulse);
    CHECK((dv - M_inverse * J.transpose() * impulse).norm() < 1e-12 * dv.norm());

    routh::ContactParameterList contacts(1);
    const routh::ImpactProblem problem =
        routh::generalized_impact_problem(space, v, routh::ContactDimension::planar, contacts);
    CHECK((problem.u_pre - J * v).norm() < 1e-14 * (1.0 + problem.u_pre.norm()));
    const double delta_T = routh::kinetic_energy(M, v + dv) - routh::kinetic_energy(M, v);
    CHECK(routh::kinetic_energy_change(problem.D, problem.u_pre, impulse) ==
          doctest::Approx(delta_T).epsilon(1e-12));
  }
}

TEST_CASE("contact space: bad shapes and an indefinite M are reported, not undefined") {
  routh::ContactSpace space;
  const Eigen::MatrixXd M = Eigen::MatrixXd::Identity(3, 3);
  CHECK_THROWS_AS(routh::factor_contact_space(M, Eigen::MatrixXd::Ones(2, 4), space),
                  std::invalid_argument);
  Eigen::MatrixXd indefinite = M;
  indefinite(2, 2) = -1.0;
  CHECK_FALSE(routh::factor_contact_space(indefinite, Eigen::MatrixXd::Ones(2, 3), space));
}

TEST_CASE("contact space: some contacts' rows of a factored set equal factoring them alone") {
  // a column of n free bodies' worth of velocities, and more contact rows than velocities: the
  // sizes of an impact in a column of drums, where the blocked triangular solves and products
  // take their general paths
  std::srand(11);
  for (const int n : {3, 12, 60}) {
    CAPTURE(n);
    const Eigen::MatrixXd A = Eigen::MatrixXd::Random(n, n);
    const Eigen::MatrixXd M = A * A.transpose() + n * Eigen::MatrixXd::Identity(n, n);
    const int contacts = n + 2;
    const Eigen::MatrixXd J = Eigen::MatrixXd::Random(2 * contacts, n);
    routh::ContactSpace all;
    REQUIRE(routh::factor_contact_space(M, J, all));
    for (const std::vector<int>& chosen :
         {std::vector<int>{0}, std::vector<int>{1, 2}, std::vector<int>{0, 3, 4, contacts - 1}}) {
      std::vector<Eigen::Index> rows;
      Eigen::MatrixXd J_chosen(2 * static_cast<Eigen::Index>(chosen.size()), n);
      for (std::size_t i = 0; i < chosen.size(); ++i) {
        rows.push_back(2 * chosen[i]);
        rows.push_back(2 * chosen[i] + 1);
        J_chosen.middleRows(2 * static_cast<Eigen::Index>(i), 2) = J.middleRows(2 * chosen[i], 2);
      }
      routh::ContactSpace alone;
      REQUIRE(routh::factor_contact_space(M, J_chosen, alone));
      routh::ContactSpace selected;
      routh::select_contact_rows(all, rows, selected);
      // the same numbers to the last bit: the simulator's impacts stay as they were
      CHECK(selected.jacobian == alone.jacobian);
      CHECK(selected.inverse_mass_jacobian_transpose == alone.inverse_mass_jacobian_transpose);
      CHECK(routh::contact_space_inertia(selected) == routh::contact_space_inertia(alone));
    }
  }
}
