// Edge cases and structural checks of the planar single-contact laws: the boundary cases of
// Routh's method (paper 000 case (ii); zero initial slip), paper 004's classification into five
// impact types (its computational strategy, Fig. 1, re-implemented here from eqs. 31–35), mirror
// symmetry, and the statuses a law returns instead of crashing.

#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string_view>
#include <utility>

#include "sim/impact/energetic.hpp"
#include "sim/impact/law_catalogue.hpp"
#include "sim/impact/lcp.hpp"
#include "sim/impact/newton.hpp"
#include "sim/impact/newton_routh.hpp"
#include "sim/impact/poisson.hpp"
#include "tests/support/allocation_counter.hpp"

namespace {

using routh::ContactParameters;
using routh::ImpactResult;
using routh::ImpactStatus;
using routh::ImpactType;
using routh::PhaseKind;
using routh::Stage;

constexpr routh::ImpactLaw kRouthLaws[] = {routh::solve_newton_routh, routh::solve_poisson,
                                           routh::solve_energetic};

// The catalogue's laws that take planar contacts; the spatial-only laws (e.g. sliding_ode)
// answer unsupported to a planar problem and are tested elsewhere.
bool takes_planar(const routh::LawEntry& law) { return law.scope.planar; }

// Paper 004's rod (c < 0, μc = 0.6) with a chosen initial slip and friction.
routh::ImpactProblem rod(double u_t, double mu_s, double mu_d, double e = 0.82) {
  return routh::planar_impact_problem(2.5, 2.5, -1.5, -1.0, u_t, ContactParameters{e, mu_s, mu_d});
}

}  // namespace

TEST_CASE("planar laws: slip halting exactly at the end of compression (paper 000 case ii)") {
  // Sliding with σ = +1: u_n and u_t both reach 0 at the same Γ_n when
  // u_t / (c − μd b) = u_n / (a − μd c)  (paper 004 eqs. 31, 33).
  const double a = 2.5, b = 2.5, c = -1.5, u_n = -1.0;
  // (μs, μd): sticking stable, then unstable (μc = 0.6)
  for (const auto& [mu_s, mu] : {std::pair{0.73, 0.7}, std::pair{0.5, 0.45}}) {
    CAPTURE(mu_s);
    const double u_t = u_n * (c - mu * b) / (a - mu * c);
    REQUIRE(u_t > 0.0);
    const auto problem = routh::planar_impact_problem(a, b, c, u_n, u_t, {0.82, mu_s, mu});
    for (const routh::ImpactLaw solve : kRouthLaws) {
      const ImpactResult result = solve(problem);
      REQUIRE(result.status == ImpactStatus::solved);
      // Exactly two phases: no sliver of round-off length between the two events.
      REQUIRE(result.phases.size() == 2);
      CHECK(result.phases[0].kind == PhaseKind::slide);
      CHECK(result.phases[0].stage == Stage::compression);
      CHECK(result.phases[1].stage == Stage::restitution);
      CHECK(result.phases[1].kind == (mu_s > 0.6 ? PhaseKind::stick : PhaseKind::reverse_slide));
      CHECK(result.type == (mu_s > 0.6 ? ImpactType::sticking_in_compression
                                       : ImpactType::reverse_sliding_in_compression));
      // The answer is continuous across the boundary: slightly more or less initial slip moves
      // the halt into restitution or compression but changes Γ only by O(δ).
      for (const double factor : {1.0 - 1e-9, 1.0 + 1e-9}) {
        const auto nearby =
            routh::planar_impact_problem(a, b, c, u_n, u_t * factor, {0.82, mu_s, mu});
        const ImpactResult near_result = solve(nearby);
        CHECK(near_result.impulse[0] == doctest::Approx(result.impulse[0]).epsilon(1e-8));
        CHECK(near_result.impulse[1] == doctest::Approx(result.impulse[1]).epsilon(1e-8));
      }
    }
  }
}

TEST_CASE(
    "planar laws: an impact without initial slip sticks if it can, else slides as the dynamics "
    "choose") {
  SUBCASE("stable: no slip at any time") {
    for (const routh::ImpactLaw solve : kRouthLaws) {
      const ImpactResult result = solve(rod(0.0, 0.73, 0.7));
      REQUIRE(result.status == ImpactStatus::solved);
      CHECK(result.type == ImpactType::sticking_throughout);
      for (const auto& phase : result.phases) CHECK(phase.kind == PhaseKind::stick);
      CHECK(result.u_post[1] == 0.0);
      CHECK(result.impulse[1] / result.impulse[0] == doctest::Approx(0.6));  // −c/b
    }
  }
  SUBCASE("unstable: slip starts along sign(c) and the answer is the limit from that side") {
    // μs = 0.5 < μc = 0.6. With c < 0 the normal impulse drives the slip negative.
    for (const routh::ImpactLaw solve : kRouthLaws) {
      const ImpactResult result = solve(rod(0.0, 0.5, 0.4));
      REQUIRE(result.status == ImpactStatus::solved);
      CHECK(result.type == ImpactType::permanent_sliding);
      CHECK(result.u_post[1] < 0.0);
      CHECK(result.impulse[1] == doctest::Approx(0.4 * result.impulse[0]));  // friction along +t
      const ImpactResult limit = solve(rod(-1e-12, 0.5, 0.4));
      CHECK(limit.impulse[0] == doctest::Approx(result.impulse[0]).epsilon(1e-9));
      CHECK(limit.impulse[1] == doctest::Approx(result.impulse[1]).epsilon(1e-9));
    }
  }
}

namespace {

// Paper 004 §5: the five impact types from I_nh (eq. 31), I_np (eq. 33), I_nf (eqs. 34–35) and
// μs against μc (eq. 14). Eq. 31 is used as −v_ti/(c − μd b σ_I): as printed, with an extra
// factor σ_I in the denominator, it gives a negative impulse whenever σ_I = −1 (a misprint;
// the halting impulse follows from integrating eq. 11, dv_t/dI_n = c − μd b σ_I).
ImpactType paper004_type(double a, double b, double c, double v_ni, double v_ti,
                         const ContactParameters& k) {
  const double sigma = v_ti > 0.0 ? 1.0 : -1.0;
  const double zeta = 1.0 / (a - k.kinetic_friction * c * sigma);  // ζ_I^s, eq. 45
  const double slip_rate = c - k.kinetic_friction * b * sigma;     // 1/ε_I, eq. 11
  const double I_nh = slip_rate * v_ti < 0.0 ? -v_ti / slip_rate : INFINITY;
  const double I_np = -zeta * v_ni;
  const double I_nf = zeta * (-k.restitution * v_ni - v_ni);
  const bool sticks = k.static_friction > std::abs(c) / b;
  if (I_nh > I_nf) return ImpactType::permanent_sliding;
  if (I_nh < I_np) {
    return sticks ? ImpactType::sticking_in_compression
                  : ImpactType::reverse_sliding_in_compression;
  }
  return sticks ? ImpactType::sticking_in_restitution : ImpactType::reverse_sliding_in_restitution;
}

}  // namespace

TEST_CASE("planar laws: the impact type agrees with paper 004's computational strategy") {
  std::mt19937_64 random(4);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int counts[8] = {};
  int checked = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const double a = 0.2 + 3.0 * unit(random), b = 0.2 + 3.0 * unit(random);
    const double c = (2.0 * unit(random) - 1.0) * 0.95 * std::sqrt(a * b);
    const double v_ni = -0.1 - 2.0 * unit(random), v_ti = 4.0 * unit(random) - 2.0;
    const double mu_d = 1.5 * unit(random), mu_s = mu_d + 0.5 * unit(random);
    const ContactParameters k{unit(random), mu_s, mu_d};
    const double sigma = v_ti > 0.0 ? 1.0 : -1.0;
    // The paper's strategy presumes compression can end while sliding and no exact ties.
    if (a - mu_d * c * sigma <= 0.05 || std::abs(mu_s - std::abs(c) / b) < 1e-6) continue;
    const ImpactType expected = paper004_type(a, b, c, v_ni, v_ti, k);
    for (const routh::ImpactLaw solve : kRouthLaws) {
      const ImpactResult result = solve(routh::planar_impact_problem(a, b, c, v_ni, v_ti, k));
      REQUIRE(result.status == ImpactStatus::solved);
      CHECK(result.type == expected);
    }
    ++counts[static_cast<int>(expected)];
    ++checked;
  }
  // Every one of the five types occurred, so the comparison covered them all.
  for (const ImpactType type :
       {ImpactType::permanent_sliding, ImpactType::sticking_in_compression,
        ImpactType::reverse_sliding_in_compression, ImpactType::sticking_in_restitution,
        ImpactType::reverse_sliding_in_restitution}) {
    CAPTURE(routh::to_string(type));
    CHECK(counts[static_cast<int>(type)] > 20);
  }
  CHECK(checked > 2000);
}

TEST_CASE("planar laws: mirroring the tangent direction mirrors the answer") {
  // u_t → −u_t and c → −c describe the same impact seen with t → −t (the rod struck from the
  // other side). Every law must give the same Γ_n and a mirrored Γ_t.
  for (const auto& law : routh::impact_laws()) {
    if (!takes_planar(law)) continue;
    CAPTURE(law.name);
    const ImpactResult original = law.solve(rod(0.6, 0.73, 0.7));
    const ImpactResult mirrored =
        law.solve(routh::planar_impact_problem(2.5, 2.5, 1.5, -1.0, -0.6, {0.82, 0.73, 0.7}));
    REQUIRE(mirrored.status == ImpactStatus::solved);
    CHECK(mirrored.impulse[0] == doctest::Approx(original.impulse[0]).epsilon(1e-14));
    CHECK(mirrored.impulse[1] == doctest::Approx(-original.impulse[1]).epsilon(1e-14));
    CHECK(mirrored.delta_T == doctest::Approx(original.delta_T).epsilon(1e-13));
    CHECK(mirrored.type == original.type);
  }
}

TEST_CASE("planar laws: compression that sliding cannot end (a - μd σ c <= 0)") {
  // a = 1, c = 1.9, μd = 0.6: sliding with σ = +1 makes du_n/dΓ_n = 1 − 1.14 < 0, so the bodies
  // keep approaching until the slip halts; only then does u_n rise (stick or reverse slide).
  const auto problem = routh::planar_impact_problem(1.0, 4.0, 1.9, -1.0, 1.0, {0.5, 0.7, 0.6});
  for (const routh::ImpactLaw solve : kRouthLaws) {
    const ImpactResult result = solve(problem);
    REQUIRE(result.status == ImpactStatus::solved);
    CHECK(result.type == ImpactType::sticking_in_compression);  // μc = 1.9/4 = 0.475 ≤ 0.7
    CHECK(result.u_post[0] > 0.0);
    CHECK(result.delta_T < 0.0);
  }
  // The conventional method sticks throughout here (|Γ_t/Γ_n| = 0.487 ≤ μs). Where sticking
  // fails too, its sliding impulse Γ_n = −(1 + e) u_n / (a − μd σ c) would be negative and it
  // has no answer. In this geometry that needs μd > μs (allowed, with a warning).
  CHECK(routh::solve_newton(problem).type == ImpactType::sticking_throughout);
  const auto no_answer = routh::planar_impact_problem(1.0, 4.0, 1.9, -1.0, 1.0, {0.5, 0.3, 0.6});
  CHECK(routh::solve_newton(no_answer).status == ImpactStatus::no_solution);
  // Routh's method: μs = 0.3 < μc = 0.475, yet μd = 0.6 would stop a slip in either direction
  // at once, so the contact sticks once the slip halts (planar_contact.hpp, stick_is_stable).
  const ImpactResult routh_answer = routh::solve_poisson(no_answer);
  REQUIRE(routh_answer.status == ImpactStatus::solved);
  CHECK(routh_answer.type == ImpactType::sticking_in_compression);
}

TEST_CASE("planar laws: a closed contact in Painlevé's configuration impacts without collision") {
  // A uniform rod (m = 1 kg, L = 1 m, I = mL²/12) at θ = 60° from the floor, its lower end
  // closed (u_n = 0) and sliding outward (u_t = −1 m/s, σ = −1). In contact space
  // a = 1 + 3cos²θ, b = 1 + 3sin²θ, c = −3 sinθ cosθ (l²/I = 3). Sliding friction, r = μd, gives
  // du_n/dΓ_n = a + c μd, negative for μd > (1 + 3cos²θ)/(3 sinθ cosθ) = 1.347 here: friction
  // drives the end into the floor (Painlevé 1895; Génot & Brogliato 1999 call the ensuing impulse
  // an impact without collision). The slip compresses the contact until it halts, then sticking
  // (μc = |c|/b ≤ μs) ends compression, and Poisson's rule doubles back by e.
  const double theta = M_PI / 3.0, mu = 1.5, e = 0.5;
  const double a = 1.0 + 3.0 * std::cos(theta) * std::cos(theta);
  const double b = 1.0 + 3.0 * std::sin(theta) * std::sin(theta);
  const double c = -3.0 * std::sin(theta) * std::cos(theta);
  const double u_t = -1.0;
  REQUIRE(a + c * mu < 0.0);
  // Hand-followed phases: slide until u_t = 0, then stick (r = −c/b) to u_n = 0.
  const double slide_impulse = -u_t / (c + b * mu);
  const double u_n_at_halt = (a + c * mu) * slide_impulse;
  const double stick_rate = a - c * c / b;
  const double compression_impulse = slide_impulse - u_n_at_halt / stick_rate;
  const double normal_impulse = (1.0 + e) * compression_impulse;
  const double tangential_impulse = mu * slide_impulse - c / b * (normal_impulse - slide_impulse);

  const ImpactResult result =
      routh::solve_poisson(routh::planar_impact_problem(a, b, c, 0.0, u_t, {e, mu, mu}));
  REQUIRE(result.status == ImpactStatus::solved);
  CHECK(result.type == ImpactType::sticking_in_compression);
  CHECK(result.impulse[0] == doctest::Approx(normal_impulse).epsilon(1e-13));
  CHECK(result.impulse[1] == doctest::Approx(tangential_impulse).epsilon(1e-13));
  CHECK(result.u_post[1] == doctest::Approx(0.0).scale(1.0).epsilon(1e-14));
  // restitution, e Γ_nc of normal impulse, sticks throughout
  CHECK(result.u_post[0] == doctest::Approx(stick_rate * e * compression_impulse).epsilon(1e-13));
  CHECK(result.delta_T < 0.0);
  // With e = 0 every law that follows Routh's process stops at the end of compression.
  for (const routh::ImpactLaw solve : kRouthLaws) {
    const ImpactResult plastic =
        solve(routh::planar_impact_problem(a, b, c, 0.0, u_t, {0.0, mu, mu}));
    REQUIRE(plastic.status == ImpactStatus::solved);
    CHECK(plastic.impulse[0] == doctest::Approx(compression_impulse).epsilon(1e-13));
    CHECK(plastic.u_post[0] == 0.0);
  }
  // Below the Painlevé threshold the closed contact can slide under a finite force: no impact.
  CHECK(
      routh::solve_poisson(routh::planar_impact_problem(a, b, c, 0.0, u_t, {e, 1.0, 1.0})).status ==
      ImpactStatus::no_impact);
}

TEST_CASE("planar laws: a plastic impact (e = 0) ends with compression") {
  for (const routh::ImpactLaw solve : kRouthLaws) {
    const ImpactResult result = solve(rod(0.6, 0.73, 0.7, 0.0));
    REQUIRE(result.status == ImpactStatus::solved);
    CHECK(result.u_post[0] == 0.0);
    for (const auto& phase : result.phases) CHECK(phase.stage == Stage::compression);
    CHECK(result.impulse[0] == doctest::Approx(0.4).epsilon(1e-14));  // I_nc of paper 004's rod
  }
}

TEST_CASE("planar laws: frictionless impacts reverse u_n by e and leave Γ_t = 0") {
  for (const auto& law : routh::impact_laws()) {
    if (!takes_planar(law)) {
      CHECK(law.solve(rod(0.6, 0.0, 0.0, 0.7)).status == ImpactStatus::unsupported);
      continue;
    }
    // a rocking calibration's e is a ratio of rocking spins, not a normal restitution, and its
    // corners stick (tests/test_rocking_restitution.cpp)
    if (law.scope.rocking_calibration) continue;
    CAPTURE(law.name);
    const ImpactResult result = law.solve(rod(0.6, 0.0, 0.0, 0.7));
    REQUIRE(result.status == ImpactStatus::solved);
    CHECK(result.impulse[1] == 0.0);
    CHECK(result.u_post[0] == doctest::Approx(0.7).epsilon(1e-14));
    CHECK(result.impulse[0] == doctest::Approx(1.7 / 2.5).epsilon(1e-14));
  }
}

TEST_CASE("planar laws: statuses instead of crashes") {
  for (const std::string_view name : {"newton", "newton_routh", "poisson", "energetic"}) {
    const routh::LawEntry& law = *routh::find_law(name);
    CAPTURE(law.name);
    SUBCASE("not approaching: no impact, nothing changes") {
      const auto problem = rod(0.6, 0.73, 0.7);
      auto separating = problem;
      separating.u_pre[0] = 0.0;
      const ImpactResult result = law.solve(separating);
      CHECK(result.status == ImpactStatus::no_impact);
      CHECK(result.impulse.isZero());
      CHECK(result.u_post == separating.u_pre);
    }
    SUBCASE("D not positive definite") {
      const auto problem = routh::planar_impact_problem(1.0, 1.0, 2.0, -1.0, 0.0, {0.5, 0.5, 0.5});
      CHECK(law.solve(problem).status == ImpactStatus::invalid_problem);
    }
    SUBCASE("two contacts are beyond a single-contact law") {
      routh::ImpactProblem problem;
      problem.D = routh::ContactMatrix::Identity(4, 4);
      problem.u_pre = routh::ContactVector::Constant(4, -1.0);
      problem.contacts.assign(2, ContactParameters{0.5, 0.5, 0.5});
      CHECK(law.solve(problem).status == ImpactStatus::unsupported);
    }
    SUBCASE("spatial contacts are beyond a planar law (newton takes them too)") {
      routh::ImpactProblem problem;
      problem.dimension = routh::ContactDimension::spatial;
      problem.D = routh::ContactMatrix::Identity(3, 3);
      problem.u_pre = routh::ContactVector::Constant(3, -1.0);
      problem.contacts.assign(1, ContactParameters{0.5, 0.5, 0.5});
      CHECK(law.solve(problem).status ==
            (name == "newton" ? ImpactStatus::solved : ImpactStatus::unsupported));
    }
  }
}

TEST_CASE("planar laws: a single-contact law never touches the heap") {
  // A law is a pure function of its problem and runs thousands of times in a sweep: contact-space
  // storage of a few contacts lives in place (contact_vector.hpp), so building the result of a
  // one-contact impact allocates nothing. Every planar single-contact law of the catalogue, on a
  // sliding impact that halts and sticks.
  const routh::ImpactProblem problem =
      routh::planar_impact_problem(1.0, 3.0, -0.5, -2.0, 0.8, ContactParameters{0.5, 0.6, 0.4});
  int laws = 0;
  for (const routh::LawEntry& law : routh::impact_laws()) {
    if (!law.scope.planar || law.scope.max_contacts != 1) continue;
    CAPTURE(law.name);
    const long before = routh::test::allocation_count();
    const ImpactResult result = law.solve(problem);
    CHECK(routh::test::allocation_count() == before);
    CHECK(result.status == ImpactStatus::solved);
    ++laws;
  }
  CHECK(laws == 4);  // newton, newton_routh, poisson, energetic
}

TEST_CASE("planar laws: the catalogue finds laws by name and suggests the closest") {
  CHECK(routh::find_law("poisson") != nullptr);
  CHECK((routh::find_law("energetic")->solve == &routh::solve_energetic));
  CHECK(routh::find_law("posson") == nullptr);
  CHECK(routh::unknown_law_message("posson").find("did you mean 'poisson'") != std::string::npos);
  CHECK(routh::unknown_law_message("newton_rooth").find("'newton_routh'") != std::string::npos);
}

TEST_CASE("planar laws: problem diagnosis names what is wrong") {
  auto problem = rod(0.6, 0.5, 0.7);  // μd > μs
  routh::ProblemDiagnosis diagnosis = routh::diagnose(problem);
  CHECK(diagnosis.ok());
  REQUIRE(diagnosis.warnings.size() == 1);
  CHECK(diagnosis.warnings[0].find("kinetic friction") != std::string::npos);

  problem.contacts[0].restitution = 1.3;
  problem.D(0, 1) = 0.0;
  diagnosis = routh::diagnose(problem);
  CHECK_FALSE(diagnosis.ok());
  CHECK(diagnosis.errors[0].find("symmetric") != std::string::npos);

  problem = rod(0.6, 0.73, 0.7);
  problem.contacts[0].restitution = 1.3;
  diagnosis = routh::diagnose(problem);
  REQUIRE(diagnosis.errors.size() == 1);
  CHECK(diagnosis.errors[0].find("restitution = 1.3 must be in [0, 1]") != std::string::npos);
}

TEST_CASE("planar laws: a singular D of several contacts is a valid problem") {
  // A rocking block's two corners on a 3-dof body give a 4x4 D of rank 3: positive
  // semidefinite with a positive diagonal. diagnose() accepts it (multi-contact laws solve it);
  // a contact direction that moves nothing (a zero row of J) is an error.
  Eigen::MatrixXd J(4, 3);
  J << 0, 1, -0.1, 1, 0, 0.5, 0, 1, 0.1, 1, 0, 0.5;  // corners (∓0.1, −0.5) of a block
  const Eigen::Matrix3d M_inverse = Eigen::Vector3d(1.0, 1.0, 1.0 / 0.0867).asDiagonal();
  routh::ImpactProblem problem;
  problem.D = J * M_inverse * J.transpose();
  problem.u_pre = routh::ContactVector::Constant(4, -0.1);
  problem.contacts.assign(2, ContactParameters{0.0, 1.0, 1.0});
  CHECK(routh::diagnose(problem).ok());
  J.row(3).setZero();
  problem.D = J * M_inverse * J.transpose();
  const routh::ProblemDiagnosis diagnosis = routh::diagnose(problem);
  REQUIRE_FALSE(diagnosis.ok());
  CHECK(diagnosis.errors[0].find("contact 1: its tangential direction does not move") !=
        std::string::npos);
  // Without friction that direction carries no impulse: it may move nothing (a link folded back
  // onto the next touches it with their common joint, which moves along the normal only), and
  // the problem is valid; the lcp law solves it as frictionless impacts, whose normal impulses
  // stop both corners (e = 0): u⁺_n = 0, Γ_n ≥ 0, and the kinetic energy falls.
  problem.contacts.assign(2, ContactParameters{0.0, 0.0, 0.0});
  CHECK(routh::diagnose(problem).ok());
  const routh::ImpactResult result = routh::solve_lcp(problem);
  REQUIRE(result.status == ImpactStatus::solved);
  for (int k = 0; k < 2; ++k) {
    CHECK(result.impulse[2 * k] >= 0.0);
    CHECK(result.u_post[2 * k] == doctest::Approx(0.0).scale(1.0).epsilon(1e-12));
  }
  CHECK(result.delta_T < 0.0);
}

TEST_CASE("planar laws: a one-degree-of-freedom contact jams when friction can hold it") {
  // A pendulum (one coordinate) whose tip strikes a wall: u = J v with J a column, so
  // D = J M⁻¹ Jᵀ has rank 1 and u_t ∝ u_n: the slip and the approach stop together (paper 000
  // case ii). If friction can then stick (μs ≥ μc = |c|/b), no impulse can move the tip away
  // from the wall without slipping: the contact jams at rest, whatever e. Otherwise it slides
  // back out, reversing (the same-sign slip cannot continue).
  const double j_n = 0.9, j_t = -0.4, inverse_mass = 3.0;  // tip Jacobian; 1/M [1/(kg m²)]
  const double a = j_n * j_n * inverse_mass, b = j_t * j_t * inverse_mass,
               c = j_n * j_t * inverse_mass;
  const double v = -2.0;  // [rad/s], towards the wall: u = (j_n v, j_t v)
  for (const routh::ImpactLaw solve : kRouthLaws) {
    // μs = 0.5 < μc = |c|/b = 2.25: sticking cannot hold, the tip slides back out
    const ImpactResult released =
        solve(routh::planar_impact_problem(a, b, c, j_n * v, j_t * v, {0.8, 0.5, 0.4}));
    REQUIRE(released.status == ImpactStatus::solved);
    CHECK_FALSE(released.flags.has(routh::ImpactFlag::contact_jammed));
    CHECK(released.type == ImpactType::reverse_sliding_in_compression);
    CHECK(released.u_post[0] > 0.0);
    CHECK(released.u_post[1] * j_t * v < 0.0);  // the slip reversed
    // μs = 2.5 ≥ μc: friction holds the tip where it stopped
    const ImpactResult held =
        solve(routh::planar_impact_problem(a, b, c, j_n * v, j_t * v, {0.8, 2.5, 2.4}));
    REQUIRE(held.status == ImpactStatus::solved);
    CHECK(held.flags.has(routh::ImpactFlag::contact_jammed));
    CHECK(held.type == ImpactType::sticking_in_compression);
    CHECK(std::abs(held.u_post[0]) < 1e-12);
    CHECK(held.u_post[1] == 0.0);
    CHECK(held.delta_T == doctest::Approx(-0.5 * v * v / inverse_mass).epsilon(1e-12));  // all lost
  }
}
