// Robustness of every impact law on physical but awkward input (issue "a simulator that never
// aborts on physical input"): degenerate D, extreme scales, round-off velocities, μ at 0 and near
// it. A law never throws for a problem that passes validation, never reports a non-finite number
// as solved (law_guard.hpp), and a solved answer obeys its unilateral and energy promises.

#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <cmath>

#include "sim/impact/law_catalogue.hpp"
#include "sim/impact/spatial_contact.hpp"

namespace {

using routh::ContactParameters;
using routh::ImpactProblem;
using routh::ImpactResult;
using routh::ImpactStatus;

bool all_finite(const ImpactResult& r) {
  return r.impulse.allFinite() && r.u_post.allFinite() && std::isfinite(r.delta_T) &&
         std::isfinite(r.normal_work) && std::isfinite(r.tangential_work);
}

}  // namespace

TEST_CASE("robustness: a spatial contact from rest with vanishing friction never throws") {
  // Regression: `routh impact` aborted (exit 134) on Boost.Math's bracketing exception. Starting
  // from rest, the slip direction comes from the resumed-slip root k of |û(k)| = 1
  // (spatial_sticking.hpp), bracketed in [0, |H_tn|]; with μd → 0 the root tends to |H_tn|, where
  // the bracket's sign is decided by round-off (for μd ≲ 1e-16 on about 30% of random SPD H).
  // Every spatial law must answer, and with μ ≤ 1e-12 agree with μ = 0 to round-off: friction
  // that small changes nothing.
  Eigen::Matrix3d H;
  H << 4.0, 0.7, 0.2, 0.7, 1.5, -0.3, 0.2, -0.3, 1.5;  // SPD, one whose bracket round-off broke
  const double round_off = 1e-16;
  for (const auto& slip : {Eigen::Vector2d(0.0, 0.0), Eigen::Vector2d(round_off, -round_off),
                           Eigen::Vector2d(-round_off, 0.0)}) {
    for (const char* name : {"newton", "park", "sliding_ode", "sliding_ode_energetic", "lcp"}) {
      const routh::LawEntry* law = routh::find_law(name);
      REQUIRE(law != nullptr);
      CAPTURE(name);
      CAPTURE(slip.transpose());
      const Eigen::Vector3d u_pre(-1.0, slip[0], slip[1]);
      ImpactResult frictionless;
      for (const double mu : {0.0, 1e-12, 1e-17, 1e-300}) {
        CAPTURE(mu);
        const ImpactProblem problem =
            routh::spatial_impact_problem(H, u_pre, ContactParameters{0.5, mu, mu});
        ImpactResult result;
        CHECK_NOTHROW(result = law->solve(problem));
        REQUIRE(result.status == ImpactStatus::solved);
        CHECK(all_finite(result));
        if (mu == 0.0) {
          frictionless = result;
          continue;
        }
        // Γ is O(1) here (|u⁻| = 1, H = O(1)); μ Γ_n = 1e-12 perturbs it by about that much
        CHECK((result.impulse - frictionless.impulse).cwiseAbs().maxCoeff() <= 1e-9);
        CHECK((result.u_post - frictionless.u_post).cwiseAbs().maxCoeff() <= 1e-9);
      }
    }
  }
}

TEST_CASE("robustness: newton on the bouncing pendulum's singular D answers finitely") {
  // A pendulum (one degree of freedom θ, inertia I about its pivot) whose bob strikes the floor:
  // the contact Jacobian is one column j = (j_n, j_t), so D = j jᵀ / I = [[a, c], [c, c²/a]] has
  // rank 1 and u⁻ = j θ̇⁻. Cramer's rule divided by det D = 0 and returned ±∞ (or 0/0) as solved.
  // Newton's rule fixes θ̇⁺ = −e θ̇⁻ whatever the friction (u_n⁺ = −e u_n⁻ with u⁺ ∥ j), so
  // u⁺ = −e u⁻ exactly: sticking is reachable only for e = 0 (then Γ is the minimum-norm stick
  // impulse) and otherwise the contact slides (u_t cannot stop while u_n reverses).
  const double I = 0.7;                  // [kg m²]
  const Eigen::Vector2d j(0.48, -0.36);  // [m]: bob at 0.6 m, 37° from the vertical
  const double theta_dot = -2.5;         // [rad/s]: u_n⁻ = −1.2 m/s
  const double a = j[0] * j[0] / I;
  const double b = j[1] * j[1] / I;
  const double c = j[0] * j[1] / I;
  for (const double e : {0.0, 0.5, 1.0}) {
    for (const double mu : {0.0, 0.3, 10.0}) {
      CAPTURE(e);
      CAPTURE(mu);
      const ImpactProblem problem = routh::planar_impact_problem(
          a, b, c, j[0] * theta_dot, j[1] * theta_dot, ContactParameters{e, mu, mu});
      const ImpactResult result = routh::find_law("newton")->solve(problem);
      REQUIRE(result.status == ImpactStatus::solved);
      CHECK(all_finite(result));
      const double speed = std::abs(theta_dot) * j.norm();
      for (int i = 0; i < 2; ++i) {
        CHECK(std::abs(result.u_post[i] + e * problem.u_pre[i]) <= 1e-12 * speed);
      }
      CHECK(result.impulse[0] >= 0.0);
      CHECK(std::abs(result.impulse[1]) <= mu * result.impulse[0] + 1e-12 * result.impulse[0]);
      if (e == 0.0 && mu >= std::abs(c) / a) {  // the minimum-norm stick impulse, Γ ∥ (a, c)
        CHECK(result.type == routh::ImpactType::sticking_throughout);
        CHECK(std::abs(result.impulse[0] * c - result.impulse[1] * a) <=
              1e-12 * a * result.impulse[0]);
      }
    }
  }
}
