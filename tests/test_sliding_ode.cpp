// The spatial branch of newton (sim/impact/newton.hpp) and the spatial sticking helpers
// (sim/impact/spatial_sticking.hpp), checked against independent routes:
//   - the planar law, on 3×3 problems whose second tangential direction is decoupled and at
//     rest (paper 004's closed forms through newton);
//   - paper 001's sticking-stability parameter λ (eq. 22).

#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "sim/contact_space.hpp"
#include "sim/impact/newton.hpp"
#include "sim/impact/spatial_contact.hpp"
#include "sim/impact/spatial_sticking.hpp"

namespace {

using routh::ContactParameters;
using routh::ImpactFlag;
using routh::ImpactProblem;
using routh::ImpactResult;
using routh::ImpactStatus;
using routh::ImpactType;
using routh::PhaseKind;
using routh::Stage;

/// A planar problem: D = [[a, c], [c, b]], u⁻ = (u_n, u_t).
struct PlanarCase {
  double a, b, c, u_n, u_t;
  ContactParameters contact;
};

ImpactProblem planar(const PlanarCase& p) {
  return routh::planar_impact_problem(p.a, p.b, p.c, p.u_n, p.u_t, p.contact);
}

/// The planar problem as a spatial one whose tangent plane is turned by `angle` about the normal:
/// the planar tangent is t = (cos angle, sin angle) in (t1, t2), and the direction across it, s,
/// is decoupled from everything (H_ns = H_ts = 0) with its own inverse inertia `across` [1/kg],
/// and at rest (u_s = 0). Nothing can then move along s, so the answer must be the planar one.
ImpactProblem spatial_embedding(const PlanarCase& p, double angle, double across = 1.7) {
  Eigen::Matrix3d H_planar_frame;  // rows/cols (n, t, s)
  H_planar_frame << p.a, p.c, 0.0, p.c, p.b, 0.0, 0.0, 0.0, across;
  Eigen::Matrix3d R = Eigen::Matrix3d::Identity();  // (n, t, s) → (n, t1, t2)
  R.bottomRightCorner<2, 2>() << std::cos(angle), -std::sin(angle), std::sin(angle),
      std::cos(angle);
  return routh::spatial_impact_problem(R * H_planar_frame * R.transpose(),
                                       R * Eigen::Vector3d(p.u_n, p.u_t, 0.0), p.contact);
}

/// The spatial answer seen in the planar frame (n, t, s) of spatial_embedding.
Eigen::Vector3d in_planar_frame(const routh::ContactVector& v, double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  return {v[0], c * v[1] + s * v[2], -s * v[1] + c * v[2]};
}

// Paper 004's rod (D = [[2.5, −1.5], [−1.5, 2.5]], u_n = −1) with chosen slip and friction, and
// test_planar_laws.cpp's strongly coupled contact (a − μd c < 0 while sliding), together covering
// every planar impact type of paper 004 §5 (the test checks that poisson's types do).
std::vector<PlanarCase> planar_cases() {
  const auto rod = [](double u_t, double e, double mu_s, double mu_d) {
    return PlanarCase{2.5, 2.5, -1.5, -1.0, u_t, {e, mu_s, mu_d}};
  };
  return {
      rod(0.6, 0.82, 0.73, 0.7),                    // sticking in compression
      rod(0.6, 0.82, 0.5, 0.4),                     // reverse sliding in compression
      rod(3.0, 0.82, 0.73, 0.7),                    // permanent sliding, slip decreasing
      rod(-0.2, 0.5, 0.73, 0.7),                    // sticking in restitution
      rod(1.2, 0.82, 0.5, 0.45),                    // reverse sliding in restitution
      rod(0.0, 0.5, 0.73, 0.7),                     // sticking throughout (no initial slip)
      rod(0.0, 0.5, 0.3, 0.2),                      // sliding from rest (sticking unstable)
      rod(0.6, 0.0, 0.73, 0.7),                     // plastic
      rod(0.6, 1.0, 0.5, 0.4),                      // elastic, reversal
      rod(0.6, 0.82, 0.3, 0.3),                     // newton ignores a reversal here
      {2.5, 2.5, 1.5, -1.0, 0.6, {0.5, 0.3, 0.3}},  // permanent sliding, slip growing
      {1.0, 4.0, 1.9, -1.0, 1.0, {0.5, 0.7, 0.6}},  // sliding drives compression until the halt
      {1.0, 4.0, 1.9, -1.0, 1.0, {0.5, 0.3, 0.6}},  // μd > μs: sticks though μs < μc
  };
}

/// Scales of a planar answer: impulse G = Γ_n + |Γ_t|, velocity V = |u⁻| + |u⁺|, energy G V.
struct Scales {
  double impulse, velocity, energy;
};

Scales scales(const ImpactProblem& problem, const ImpactResult& result) {
  const double impulse = result.impulse.cwiseAbs().sum();
  const double velocity = problem.u_pre.norm() + result.u_post.norm();
  return {impulse, velocity, impulse * velocity};
}

/// Checks that a spatial answer is the planar one to `tolerance` of the problem's scales:
/// status, type, impulse, velocities (nothing across the plane), energies, phases and flags.
void check_reduces_to_planar(const ImpactResult& planar_result, const ImpactResult& spatial,
                             const ImpactProblem& planar_problem, double angle, double tolerance) {
  REQUIRE(planar_result.status == ImpactStatus::solved);
  REQUIRE(spatial.status == ImpactStatus::solved);
  CHECK(spatial.type == planar_result.type);
  const Scales s = scales(planar_problem, planar_result);
  const Eigen::Vector3d impulse = in_planar_frame(spatial.impulse, angle);
  const Eigen::Vector3d u_post = in_planar_frame(spatial.u_post, angle);
  CHECK(std::abs(impulse[0] - planar_result.impulse[0]) <= tolerance * s.impulse);
  CHECK(std::abs(impulse[1] - planar_result.impulse[1]) <= tolerance * s.impulse);
  CHECK(std::abs(impulse[2]) <= tolerance * s.impulse);
  CHECK(std::abs(u_post[0] - planar_result.u_post[0]) <= tolerance * s.velocity);
  CHECK(std::abs(u_post[1] - planar_result.u_post[1]) <= tolerance * s.velocity);
  CHECK(std::abs(u_post[2]) <= tolerance * s.velocity);
  CHECK(std::abs(spatial.delta_T - planar_result.delta_T) <= tolerance * s.energy);
  CHECK(std::abs(spatial.normal_work - planar_result.normal_work) <= tolerance * s.energy);
  CHECK(std::abs(spatial.tangential_work - planar_result.tangential_work) <= tolerance * s.energy);
  REQUIRE(spatial.phases.size() == planar_result.phases.size());
  for (std::size_t i = 0; i < spatial.phases.size(); ++i) {
    CAPTURE(i);
    CHECK(spatial.phases[i].kind == planar_result.phases[i].kind);
    CHECK(spatial.phases[i].stage == planar_result.phases[i].stage);
    CHECK(std::abs(spatial.phases[i].normal_impulse_from -
                   planar_result.phases[i].normal_impulse_from) <= tolerance * s.impulse);
    CHECK(std::abs(spatial.phases[i].normal_impulse_to -
                   planar_result.phases[i].normal_impulse_to) <= tolerance * s.impulse);
  }
  for (const ImpactFlag flag : routh::kAllImpactFlags) {
    CAPTURE(routh::to_string(flag));
    CHECK(spatial.flags.has(flag) == planar_result.flags.has(flag));
  }
}

constexpr double kTurnedPlane = 0.7;  // [rad], a tangent plane not aligned with (t1, t2)

// Paper 001 §4's H [1/kg] in its frame (x, y tangential, z normal; v_z > 0 approaches, impulses
// ≤ 0), and the same contact in ours (n = −z, t1 = x, t2 = y; u_n < 0 approaches, Γ_n ≥ 0):
// u = T v with T orthogonal, so H_ours = T H Tᵀ.
Eigen::Matrix3d paper001_H_in_its_frame() {
  Eigen::Matrix3d H;
  H << 8, -2, 1, -2, 3, -1, 1, -1, 5;
  return H;
}

Eigen::Matrix3d paper001_to_ours() {
  Eigen::Matrix3d T;
  T << 0, 0, -1, 1, 0, 0, 0, 1, 0;
  return T;
}

Eigen::Matrix3d paper001_H() {
  return paper001_to_ours() * paper001_H_in_its_frame() * paper001_to_ours().transpose();
}

/// Paper 001 §4's initial velocity: v_z = 15 m/s approaching, slip β = 10 m/s in direction j of 32.
ImpactProblem paper001_problem(int j, double beta, const ContactParameters& contact) {
  const double angle = 2.0 * std::numbers::pi * (j - 1) / 32.0;
  const Eigen::Vector3d v(beta * std::cos(angle), beta * std::sin(angle), 15.0);  // (x, y, z)
  return routh::spatial_impact_problem(paper001_H(), paper001_to_ours() * v, contact);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Reduction to the planar laws

TEST_CASE("newton: the spatial conventional method reduces to the planar one") {
  // Source: the planar `newton` (paper 000 §6.1, paper 004 §6). The spatial branch solves
  // H Γ = Δu by LDLT where the planar one uses Cramer's rule on D, so they agree to round-off,
  // not bit for bit: 1e-13 of the scales. The flags must agree exactly, including paper 004's
  // energy gain (rod, μs = 0.73) and an ignored slip reversal (rod, μs = μd = 0.3).
  bool gain_seen = false, reversal_seen = false;
  for (const PlanarCase& p : planar_cases()) {
    const ImpactResult expected = routh::solve_newton(planar(p));
    if (expected.status != ImpactStatus::solved) continue;
    gain_seen = gain_seen || expected.flags.has(ImpactFlag::energy_gain);
    reversal_seen = reversal_seen || expected.flags.has(ImpactFlag::slip_reversal_ignored);
    for (const double angle : {0.0, kTurnedPlane}) {
      CAPTURE(p.u_t);
      CAPTURE(p.contact.static_friction);
      CAPTURE(angle);
      check_reduces_to_planar(expected, routh::solve_newton(spatial_embedding(p, angle)), planar(p),
                              angle, 1e-13);
    }
  }
  CHECK(gain_seen);
  CHECK(reversal_seen);
  // where the planar method has no answer (sliding cannot end compression), neither has this
  const PlanarCase no_answer{1.0, 4.0, 1.9, -1.0, 1.0, {0.5, 0.3, 0.6}};
  CHECK(routh::solve_newton(planar(no_answer)).status == ImpactStatus::no_solution);
  CHECK(routh::solve_newton(spatial_embedding(no_answer, kTurnedPlane)).status ==
        ImpactStatus::no_solution);
}

TEST_CASE("newton: in 3D it slides against the initial slip, or sticks inside the cone") {
  // Paper 001 §4's contact, v_z = 15 m/s, slip 10 m/s in direction j = 5 (45°).
  const double e = 0.5;
  SUBCASE("sliding throughout: Γ_t = −μd Γ_n û⁻ and u_n⁺ = −e u_n⁻") {
    const ImpactProblem problem = paper001_problem(5, 10.0, {e, 0.3, 0.25});
    const ImpactResult result = routh::solve_newton(problem);
    REQUIRE(result.status == ImpactStatus::solved);
    CHECK(result.type == ImpactType::permanent_sliding);
    const Eigen::Vector2d u_t = problem.u_pre.segment<2>(1);
    const Eigen::Vector2d expected_t = -0.25 * result.impulse[0] * u_t.normalized();
    CHECK((result.impulse.segment<2>(1) - expected_t).norm() <= 1e-14 * result.impulse[0]);
    CHECK(result.u_post[0] == doctest::Approx(-e * problem.u_pre[0]).epsilon(1e-14));
    CHECK(result.delta_T ==
          doctest::Approx(routh::kinetic_energy_change(problem.D, problem.u_pre, result.impulse))
              .epsilon(1e-13));
  }
  SUBCASE("sticking throughout: u_t⁺ = 0 with the impulse inside the cone") {
    const ImpactProblem problem = paper001_problem(5, 1.0, {e, 1.0, 1.0});
    const ImpactResult result = routh::solve_newton(problem);
    REQUIRE(result.status == ImpactStatus::solved);
    CHECK(result.type == ImpactType::sticking_throughout);
    CHECK(result.u_post.segment<2>(1).norm() <= 1e-13 * problem.u_pre.norm());
    CHECK(result.impulse.segment<2>(1).norm() <= 1.0 * result.impulse[0]);
    CHECK(result.u_post[0] == doctest::Approx(-e * problem.u_pre[0]).epsilon(1e-13));
  }
  SUBCASE("from rest with sticking unstable: along the direction slip resumes in") {
    // λ = |r|² = 0.0925 (paper 001 eq. 22), so μs = 0.2 < |r| cannot hold the contact
    const ImpactProblem problem = paper001_problem(1, 0.0, {e, 0.2, 0.15});
    routh::SpatialContact contact;
    contact.H = paper001_H();
    contact.parameters = problem.contacts[0];
    routh::ResumedSlip resumed;
    REQUIRE(routh::resumed_slip_direction(contact, resumed));
    const ImpactResult result = routh::solve_newton(problem);
    REQUIRE(result.status == ImpactStatus::solved);
    CHECK(result.type == ImpactType::permanent_sliding);
    const Eigen::Vector2d expected_t = -0.15 * result.impulse[0] * resumed.direction;
    CHECK((result.impulse.segment<2>(1) - expected_t).norm() <= 1e-13 * result.impulse[0]);
  }
}

// ---------------------------------------------------------------------------------------------
// Convergence of the integrated flow

// ---------------------------------------------------------------------------------------------
// Properties over random problems

// ---------------------------------------------------------------------------------------------
// Paper 001

TEST_CASE("paper 001: the sticking-stability parameter λ of eq. 22") {
  // Source: paper 001 eqs. 20–22 in its own frame and letters (X U W / U Y V / W V Z):
  // λ = (D31² + D32²)/D33² with D31 = UV − YW, D32 = UW − XV, D33 = XY − U²; for the §4 matrix
  // D31 = −1, D32 = 6, D33 = 20, λ = 37/400. Our r = −H_tt⁻¹ H_tn, computed in our frame, must
  // give |r|² = λ: the line of sticking is frame-independent.
  const Eigen::Matrix3d P = paper001_H_in_its_frame();
  const double X = P(0, 0), U = P(0, 1), W = P(0, 2), Y = P(1, 1), V = P(1, 2);
  const double D31 = U * V - Y * W, D32 = U * W - X * V, D33 = X * Y - U * U;
  const double lambda = (D31 * D31 + D32 * D32) / (D33 * D33);
  CHECK(lambda == doctest::Approx(37.0 / 400.0).epsilon(1e-15));
  CHECK(routh::sticking_friction_ratio(paper001_H()).squaredNorm() ==
        doctest::Approx(lambda).epsilon(1e-14));
  // eq. 25: sticking is stable iff λ ≤ μs²
  routh::SpatialContact contact;
  contact.H = paper001_H();
  contact.parameters = {0.5, 0.31, 0.31};
  CHECK(routh::stick_is_stable(contact));  // 0.31² = 0.0961 ≥ 0.0925
  contact.parameters = {0.5, 0.30, 0.30};
  CHECK_FALSE(routh::stick_is_stable(contact));  // 0.09 < 0.0925
}

// ---------------------------------------------------------------------------------------------
// Statuses and the catalogue
