// The spatial laws sliding_ode, sliding_ode_energetic (sim/impact/sliding_ode.hpp) and the spatial
// branch of newton (sim/impact/newton.hpp), checked against independent routes:
//   - the planar laws, on 3×3 problems whose second tangential direction is decoupled and at
//     rest (paper 004's closed forms through poisson, energetic and newton);
//   - themselves at a much tighter tolerance (convergence of the integrated slip flow);
//   - properties that hold for every problem (Stronge's energy bound, Coulomb's cone, the
//     energy balance ΔT = W_n + W_t, the restitution hypotheses);
//   - paper 001's numerical example (§4) and its sticking-stability parameter λ (eq. 22).

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
#include "sim/impact/energetic.hpp"
#include "sim/impact/law_catalogue.hpp"
#include "sim/impact/newton.hpp"
#include "sim/impact/poisson.hpp"
#include "sim/impact/sliding_ode.hpp"
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

routh::ImpactResult solve_with(const ImpactProblem& problem,
                               routh::RestitutionHypothesis hypothesis, double tolerance) {
  return routh::solve_sliding_ode(problem, routh::SlidingOdeOptions{hypothesis, tolerance});
}

/// Random spatial problems: H = A Aᵀ + 0.05 I (A with standard normal entries: any orientation,
/// condition numbers up to ~1e3), u_n < 0, slips of any direction, e ∈ [0, 1], μs ∈ [0, 1.5],
/// μd ∈ [0, μs]. Fixed seed, so a failure reproduces.
class SpatialProblemGenerator {
 public:
  explicit SpatialProblemGenerator(std::uint64_t seed) : rng_(seed) {}
  ImpactProblem next() {
    Eigen::Matrix3d A;
    for (int k = 0; k < 9; ++k) A(k / 3, k % 3) = normal_(rng_);
    const Eigen::Matrix3d H = A * A.transpose() + 0.05 * Eigen::Matrix3d::Identity();
    const Eigen::Vector3d u(-std::abs(normal_(rng_)), normal_(rng_), normal_(rng_));
    const double mu_s = 1.5 * unit_(rng_);
    return routh::spatial_impact_problem(H, u, {unit_(rng_), mu_s, mu_s * unit_(rng_)});
  }

 private:
  std::mt19937_64 rng_;
  std::normal_distribution<double> normal_{0.0, 1.0};
  std::uniform_real_distribution<double> unit_{0.0, 1.0};
};

}  // namespace

// ---------------------------------------------------------------------------------------------
// Reduction to the planar laws

TEST_CASE("sliding_ode: a decoupled second tangent at rest gives poisson's planar answer") {
  // Source: paper 004's closed forms (through `poisson`). With the direction across the planar
  // tangent decoupled and at rest, the slip stays on the planar tangent and the flow is paper
  // 004's straight phases, so the answers must agree to round-off; 1e-10 of the problem's scales
  // is the requirement, met with room to spare. Both an aligned and a turned tangent plane.
  std::vector<ImpactType> types_seen;
  for (const PlanarCase& p : planar_cases()) {
    const ImpactResult expected = routh::solve_poisson(planar(p));
    types_seen.push_back(expected.type);
    for (const double angle : {0.0, kTurnedPlane}) {
      CAPTURE(p.u_t);
      CAPTURE(p.contact.static_friction);
      CAPTURE(angle);
      check_reduces_to_planar(expected, routh::solve_sliding_ode(spatial_embedding(p, angle)),
                              planar(p), angle, 1e-10);
    }
  }
  for (const ImpactType type :
       {ImpactType::permanent_sliding, ImpactType::sticking_in_compression,
        ImpactType::reverse_sliding_in_compression, ImpactType::sticking_in_restitution,
        ImpactType::reverse_sliding_in_restitution, ImpactType::sticking_throughout}) {
    CAPTURE(routh::to_string(type));
    CHECK(std::count(types_seen.begin(), types_seen.end(), type) > 0);
  }
}

TEST_CASE("sliding_ode_energetic: a decoupled second tangent at rest gives energetic's answer") {
  // Source: paper 004 eqs. 26 and 50 (through `energetic`); as the Poisson reduction above.
  for (const PlanarCase& p : planar_cases()) {
    const ImpactResult expected = routh::solve_energetic(planar(p));
    for (const double angle : {0.0, kTurnedPlane}) {
      CAPTURE(p.u_t);
      CAPTURE(p.contact.static_friction);
      CAPTURE(angle);
      check_reduces_to_planar(expected,
                              routh::solve_sliding_ode_energetic(spatial_embedding(p, angle)),
                              planar(p), angle, 1e-10);
    }
  }
}

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

TEST_CASE("sliding_ode: the answer converges as the tolerance tightens") {
  // Genuinely 3D flows on paper 001's contact (the slip direction turns throughout): a long
  // slide, slips that halt and stick in restitution, and slips that swing around u_t = 0 where
  // sticking is unstable (in 3D such a slip passes by the origin, its direction turning at a rate
  // ∝ 1/|u_t|, and leaves along the resumed-slip direction). Reference: tolerance 1e-14. The
  // error must fall with every tightening, and stay within 50 × tolerance of the problem's scale
  // (measured: 0.1 to 5 × tolerance; see sliding_ode.hpp's accuracy note).
  struct Case {
    int direction;
    double beta;
    ContactParameters contact;
  };
  const Case cases[] = {
      {5, 10.0, {0.5, 0.5, 0.5}},   // permanent sliding
      {12, 10.0, {0.5, 1.0, 1.0}},  // halts, sticks in restitution
      {21, 10.0, {0.9, 0.5, 0.5}},  // halts, sticks in restitution
      {25, 0.5, {0.5, 0.25, 0.2}},  // swings around u_t = 0 (|r| = 0.30 > μs)
      {27, 2.0, {0.5, 0.25, 0.2}},  // likewise, from further away
  };
  for (const Case& c : cases) {
    for (const auto hypothesis :
         {routh::RestitutionHypothesis::poisson, routh::RestitutionHypothesis::energetic}) {
      CAPTURE(c.direction);
      CAPTURE(c.beta);
      CAPTURE(static_cast<int>(hypothesis));
      const ImpactProblem problem = paper001_problem(c.direction, c.beta, c.contact);
      const ImpactResult reference = solve_with(problem, hypothesis, 1e-14);
      REQUIRE(reference.status == ImpactStatus::solved);
      const double impulse_scale = reference.impulse.norm();
      const double velocity_scale = problem.u_pre.norm();
      double previous = std::numeric_limits<double>::infinity();
      for (const double tolerance : {1e-4, 1e-6, 1e-8, 1e-10}) {
        CAPTURE(tolerance);
        const ImpactResult result = solve_with(problem, hypothesis, tolerance);
        REQUIRE(result.status == ImpactStatus::solved);
        CHECK(result.type == reference.type);
        const double error = std::max((result.impulse - reference.impulse).norm() / impulse_scale,
                                      (result.u_post - reference.u_post).norm() / velocity_scale);
        CHECK(error < previous);
        CHECK(error <= 50.0 * tolerance);
        previous = error;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Properties over random problems

TEST_CASE("sliding_ode_energetic never gains kinetic energy") {
  // Stronge (1990): with the energetic hypothesis W_n = (1 − e²) W_n,c ≤ 0, and W_t ≤ 0 because
  // friction opposes the slip (or does no work while sticking), so ΔT = W_n + W_t ≤ 0 for every
  // H and u⁻. Allowance: ΔT's round-off, 1e-12 of |Γᵀu⁻| (finish_spatial_result's flag).
  SpatialProblemGenerator generator(0x5eed'0003'0001ULL);
  int checked = 0;
  for (int i = 0; i < 2000; ++i) {
    const ImpactProblem problem = generator.next();
    const ImpactResult result = routh::solve_sliding_ode_energetic(problem);
    CAPTURE(i);
    REQUIRE(result.status == ImpactStatus::solved);
    CHECK_FALSE(result.flags.has(ImpactFlag::energy_gain));
    CHECK(result.delta_T <= 1e-12 * std::abs(result.impulse.dot(problem.u_pre)));
    ++checked;
  }
  CHECK(checked == 2000);
}

TEST_CASE("sliding_ode: impulses in the cone, energies balanced, restitution as hypothesised") {
  // For every random problem and both endings:
  //  - Coulomb's cone: |Γ_t| ≤ μd Γ_n over every slipping stretch and ≤ μs Γ_n over a stick, so
  //    |Γ_t| ≤ max(μs, μd) Γ_n in total (1e-9 relative allowance for the integration);
  //  - ΔT = Γᵀu⁻ + ½ΓᵀHΓ (exact in Γ) equals the integrated W_n + W_t (docs/design.md §2) to
  //    1e-6 of |Γ||u⁻| (the works carry the integration error, ≤ 2e-8 measured at 1e-10);
  //  - the bodies separate or, flagged contact_jammed, stay closed: u_n⁺ ≥ 0 up to round-off;
  //  - the restitution hypothesis holds: Γ_n = (1 + e) Γ_n,c (Poisson), or no normal-dissipation
  //    flag (energetic), unless the contact jammed first;
  //  - the phase trace runs from 0 to Γ_n without gaps, compression before restitution.
  SpatialProblemGenerator generator(0x5eed'0003'0002ULL);
  int jammed = 0;
  for (int i = 0; i < 2000; ++i) {
    const ImpactProblem problem = generator.next();
    const ContactParameters& k = problem.contacts[0];
    for (const bool energetic : {false, true}) {
      CAPTURE(i);
      CAPTURE(energetic);
      const ImpactResult r = energetic ? routh::solve_sliding_ode_energetic(problem)
                                       : routh::solve_sliding_ode(problem);
      REQUIRE(r.status == ImpactStatus::solved);
      const double gamma_n = r.impulse[0];
      CHECK(r.impulse.segment<2>(1).norm() <=
            std::max(k.static_friction, k.kinetic_friction) * gamma_n * (1.0 + 1e-9));
      const double energy_scale = r.impulse.norm() * problem.u_pre.norm();
      CHECK(std::abs(r.delta_T - r.normal_work - r.tangential_work) <= 1e-6 * energy_scale);
      CHECK(r.tangential_work <= 1e-9 * energy_scale);
      CHECK(r.u_post[0] >= -1e-12 * problem.u_pre.norm());
      REQUIRE_FALSE(r.phases.empty());
      CHECK(r.phases.front().normal_impulse_from == 0.0);
      CHECK(r.phases.back().normal_impulse_to == doctest::Approx(gamma_n).epsilon(1e-12));
      double compression_impulse = 0.0;
      for (std::size_t p = 0; p < r.phases.size(); ++p) {
        if (p > 0) {
          CHECK(r.phases[p].normal_impulse_from == r.phases[p - 1].normal_impulse_to);
          CHECK(r.phases[p].stage >= r.phases[p - 1].stage);
        }
        if (r.phases[p].stage == Stage::compression) {
          compression_impulse = r.phases[p].normal_impulse_to;
        }
      }
      if (r.flags.has(ImpactFlag::contact_jammed)) {
        ++jammed;
        CHECK(std::abs(r.u_post[0]) <= 1e-9 * problem.u_pre.norm());
      } else if (energetic) {
        CHECK_FALSE(r.flags.has(ImpactFlag::nonphysical_normal_dissipation));
      } else {
        CHECK(gamma_n ==
              doctest::Approx((1.0 + k.restitution) * compression_impulse).epsilon(1e-12));
      }
    }
  }
  CHECK(jammed < 20);  // a rare 3D effect: friction turns u_n back down during restitution
}

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

TEST_CASE("paper 001: with high friction every slip of §4 ends in persistent sticking") {
  // Source: paper 001 §4 and Fig. 4: H as above, v_z = 15 m/s, |v_t| = 10 m/s in 32 directions,
  // μ = 1: Routh's (our) and Park's methods predict persistent sticking for every initial slip.
  // It is so for ε = 0.9 (Fig. 4c); with ε = 0.1 or 0.5 the restitution of some directions is too
  // short for the slip to halt (the text does not say which panels it means, and the figure is
  // not in our copy), so those are not asserted.
  for (int j = 1; j <= 32; ++j) {
    CAPTURE(j);
    const ImpactResult result =
        routh::solve_sliding_ode(paper001_problem(j, 10.0, {0.9, 1.0, 1.0}));
    REQUIRE(result.status == ImpactStatus::solved);
    CHECK((result.type == ImpactType::sticking_in_compression ||
           result.type == ImpactType::sticking_in_restitution));
    CHECK(result.u_post.segment<2>(1).norm() <= 1e-7 * 15.0);
    CHECK(result.phases.back().kind == PhaseKind::stick);
  }
}

// ---------------------------------------------------------------------------------------------
// Statuses and the catalogue

TEST_CASE("sliding_ode: statuses instead of crashes, and the catalogue entries") {
  const ImpactProblem problem = paper001_problem(5, 10.0, {0.5, 0.5, 0.5});
  for (const char* name : {"sliding_ode", "sliding_ode_energetic"}) {
    CAPTURE(name);
    const routh::LawEntry* law = routh::find_law(name);
    REQUIRE(law != nullptr);
    CHECK(to_string(law->scope) == "spatial, one contact");
    CHECK(law->solve(problem).status == ImpactStatus::solved);
    CHECK(law->solve(routh::planar_impact_problem(2.5, 2.5, -1.5, -1.0, 0.6, {0.5, 0.5, 0.5}))
              .status == ImpactStatus::unsupported);
    ImpactProblem separating = problem;
    separating.u_pre[0] = 0.0;
    const ImpactResult none = law->solve(separating);
    CHECK(none.status == ImpactStatus::no_impact);
    CHECK(none.u_post == separating.u_pre);
    ImpactProblem indefinite = problem;
    indefinite.D(0, 1) = indefinite.D(1, 0) = 10.0;
    CHECK(law->solve(indefinite).status == ImpactStatus::invalid_problem);
  }
  CHECK(to_string(routh::find_law("newton")->scope) == "planar or spatial, one contact");
  CHECK(solve_with(problem, routh::RestitutionHypothesis::poisson, 0.0).status ==
        ImpactStatus::invalid_problem);
  CHECK(solve_with(problem, routh::RestitutionHypothesis::poisson, 0.1).status ==
        ImpactStatus::invalid_problem);
}

TEST_CASE("sliding_ode: frictionless impacts reverse u_n by e and leave Γ_t = 0") {
  // Without friction the flow is du/dΓ_n = H e_n: Γ_t stays exactly 0 and Poisson's, Newton's
  // and the energetic hypotheses all give u_n⁺ = −e u_n⁻ (paper 001 §1: "two laws lead to an
  // identical collision resolution for frictionless collision"). Tolerance: the compression's
  // end is found on the dense output, to about the integration tolerance.
  const ImpactProblem problem = paper001_problem(5, 10.0, {0.7, 0.0, 0.0});
  for (const auto hypothesis :
       {routh::RestitutionHypothesis::poisson, routh::RestitutionHypothesis::energetic}) {
    const ImpactResult result = solve_with(problem, hypothesis, 1e-10);
    REQUIRE(result.status == ImpactStatus::solved);
    CHECK(result.impulse[1] == 0.0);
    CHECK(result.impulse[2] == 0.0);
    CHECK(result.u_post[0] == doctest::Approx(-0.7 * problem.u_pre[0]).epsilon(1e-9));
    CHECK(result.impulse[0] ==
          doctest::Approx(-1.7 * problem.u_pre[0] / problem.D(0, 0)).epsilon(1e-9));
  }
}
