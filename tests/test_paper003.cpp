// Paper 003 (Giacaglia & Lemes da Silva, "A note about the mechanics of collision between two
// rough solid bodies"): its equations of motion (eq. 2.3), its no-slip condition (eqs. 4.3–4.4)
// and its worked examples, the disk hitting a step (§6.1) and Beghin's disk striking a spike
// (§6.3), against the laws sliding_ode and sliding_ode_energetic.
//
// The contact-space H of each body is derived here from rigid-body mechanics, independently of
// the paper: an impulse P at the contact point O of a body of mass m, central inertia I_G and
// offset r = O − G changes v_G by P/m and ω by I_G⁻¹ (r × P), so the velocity of O by
//     Δv_O = (1/m − [r]× I_G⁻¹ [r]×) P,
// and in the contact frame (n, t1, t2) H = Cᵀ (1/m − [r]× I_G⁻¹ [r]×) C, C = [n t1 t2].
//
// Not every printed formula of the paper agrees with its own equations of motion. Each one is
// checked against the independent computation; where it is wrong the test says why:
//   eq. 2.3  v̇_O = (I − S) F, S = ΓJΓ                        holds (I − S is H for m = 1)
//   eq. 4.3  a13, a23 with (1 + S_ii) and −S12 S23          wrong: the sign of S is reversed
//   eq. 4.4  a13² + a23² < μ²                                 holds with the corrected a13, a23
//   §6.1     S11 = 1                                          wrong: S11 = 0 (H_nn = 1/m)
//   §6.1     v_O2(0) = R ω0 cos ϑ                             wrong: that is v_G's tangential
//                                                             component; the point's is R ω0 (cos ϑ
//                                                             − 1)
//   eqs. 6.1.3–6.1.5                                          hold for the (true) negative slip
//   eq. 6.1.6  v_O1(final) = −e v_O1(0)                       holds (H_nt = 0)
//   eqs. 6.3.1–6.3.3                                          hold (slip v_O2(0) = −a ω0 < 0)
//   eq. 6.3.4  v_O3 = v_O3(0) − (1 − S33)/((1 − S22) μ)       wrong: lacks the factor v_O2(0)

#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <cmath>
#include <numbers>

#include "sim/impact/sliding_ode.hpp"
#include "sim/impact/spatial_contact.hpp"
#include "sim/impact/spatial_sticking.hpp"

namespace {

using routh::ImpactResult;
using routh::ImpactStatus;
using routh::ImpactType;
using routh::PhaseKind;

/// [r]×, the matrix with [r]× x = r × x.
Eigen::Matrix3d cross_matrix(const Eigen::Vector3d& r) {
  Eigen::Matrix3d m;
  m << 0.0, -r[2], r[1], r[2], 0.0, -r[0], -r[1], r[0], 0.0;
  return m;
}

/// A rigid body striking a fixed obstacle at its point O.
struct StrikingBody {
  double mass = 1.0;                                           ///< [kg]
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();           ///< I_G, world frame [kg m²]
  Eigen::Vector3d offset = Eigen::Vector3d::Zero();            ///< r = O − G [m]
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();          ///< v_G [m/s]
  Eigen::Vector3d angular_velocity = Eigen::Vector3d::Zero();  ///< ω [rad/s]
};

/// The contact frame C = [n t1 t2] (columns, world components).
Eigen::Matrix3d contact_frame(const Eigen::Vector3d& n, const Eigen::Vector3d& t1,
                              const Eigen::Vector3d& t2) {
  Eigen::Matrix3d C;
  C << n, t1, t2;
  return C;
}

/// H = Cᵀ (1/m − [r]× I_G⁻¹ [r]×) C [1/kg].
Eigen::Matrix3d contact_space_H(const StrikingBody& body, const Eigen::Matrix3d& C) {
  const Eigen::Matrix3d R = cross_matrix(body.offset);
  const Eigen::Matrix3d world =
      Eigen::Matrix3d::Identity() / body.mass - R * body.inertia.inverse() * R;
  return C.transpose() * world * C;
}

/// u = Cᵀ (v_G + ω × r) [m/s].
Eigen::Vector3d contact_velocity(const StrikingBody& body, const Eigen::Matrix3d& C) {
  return C.transpose() * (body.velocity + body.angular_velocity.cross(body.offset));
}

/// Paper 003 eq. 2.2–2.3 for a unit mass: Γ with v_O = v_G + Γω is −[r]×, J = I_G⁻¹, S = ΓJΓ.
Eigen::Matrix3d paper003_S(const StrikingBody& body) {
  const Eigen::Matrix3d Gamma = -cross_matrix(body.offset);
  return Gamma * body.inertia.inverse() * Gamma;
}

/// Paper 003 eq. 4.3 as printed, reading its "I" as 1 (the identity matrix cannot stand there:
/// everything else in the formula is a scalar).
Eigen::Vector2d no_slip_ratios_as_printed(const Eigen::Matrix3d& S) {
  const double d = S(0, 1) * S(0, 1) - (1.0 + S(0, 0)) * (1.0 + S(1, 1));
  return {((1.0 + S(1, 1)) * S(0, 2) - S(0, 1) * S(1, 2)) / d,
          ((1.0 + S(0, 0)) * S(1, 2) - S(0, 1) * S(0, 2)) / d};
}

/// Eqs. 4.1–4.2 solved with eq. 2.3: v̇_1 = v̇_2 = 0 needs (I − S)_tt F_t + (I − S)_t3 F_3 = 0, so
/// F_t = −[(I − S)_tt]⁻¹ (I − S)_t3 F_3 = (a13, a23) F_3 with
///   a13 = ((1 − S22) S13 + S12 S23) / ((1 − S11)(1 − S22) − S12²),
///   a23 = ((1 − S11) S23 + S12 S13) / ((1 − S11)(1 − S22) − S12²).
Eigen::Vector2d no_slip_ratios_derived(const Eigen::Matrix3d& S) {
  const double d = (1.0 - S(0, 0)) * (1.0 - S(1, 1)) - S(0, 1) * S(0, 1);
  return {((1.0 - S(1, 1)) * S(0, 2) + S(0, 1) * S(1, 2)) / d,
          ((1.0 - S(0, 0)) * S(1, 2) + S(0, 1) * S(0, 2)) / d};
}

/// A body with no symmetry to help: a box's principal inertia turned about a skew axis, struck
/// at an offset with components along every axis. Unit mass, as in the paper.
StrikingBody generic_body() {
  StrikingBody body;
  const Eigen::Matrix3d Q =
      Eigen::AngleAxisd(0.6, Eigen::Vector3d(1.0, 2.0, 3.0).normalized()).toRotationMatrix();
  body.inertia = Q * Eigen::Vector3d(0.02, 0.05, 0.08).asDiagonal() * Q.transpose();
  body.offset = Eigen::Vector3d(0.3, -0.2, -0.5);
  return body;
}

// Paper 003's axes: x1, x2 tangent, x3 the normal; ours: (n, t1, t2) = (x3, x1, x2).
Eigen::Matrix3d paper003_frame() {
  return contact_frame(Eigen::Vector3d::UnitZ(), Eigen::Vector3d::UnitX(),
                       Eigen::Vector3d::UnitY());
}

/// The normal velocity when the slip halted: u_n⁻ + H_nn Γ_n at the end of the last slide
/// phase, for bodies whose H_nt = 0 (the normal velocity then ignores friction).
double normal_velocity_at_halt(const ImpactResult& result, double u_n, double H_nn) {
  double halt = 0.0;
  for (const routh::Phase& phase : result.phases) {
    if (phase.kind == PhaseKind::slide) halt = phase.normal_impulse_to;
  }
  return u_n + H_nn * halt;
}

}  // namespace

TEST_CASE("paper 003 eq. 2.3: I - S is the contact-space inverse inertia of a unit mass") {
  // Source: paper 003 eqs. 2.1–2.3 against the rigid-body derivation above. S = ΓJΓ = −ΓJΓᵀ is
  // symmetric negative semidefinite, so I − S is positive definite with diagonal ≥ 1.
  const StrikingBody body = generic_body();
  const Eigen::Matrix3d S = paper003_S(body);
  CHECK((S - S.transpose()).norm() <= 1e-15 * S.norm());
  CHECK(Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(S).eigenvalues().maxCoeff() <=
        1e-15 * S.norm());
  const Eigen::Matrix3d I_minus_S = Eigen::Matrix3d::Identity() - S;  // order (x1, x2, x3)
  const Eigen::Matrix3d H = contact_space_H(body, paper003_frame());  // order (n, t1, t2)
  const int paper_axis[3] = {2, 0, 1};                                // n = x3, t1 = x1, t2 = x2
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      CHECK(H(i, j) == doctest::Approx(I_minus_S(paper_axis[i], paper_axis[j])).epsilon(1e-14));
    }
  }
}

TEST_CASE("paper 003 eqs. 4.3-4.4: the no-slip ratios a13, a23 have the sign of S reversed") {
  // Source: paper 003 §4. Printed: a13 = ((1 + S22) S13 − S12 S23) / (S12² − (1 + S11)(1 + S22))
  // and likewise a23. Solving eqs. 4.1–4.2 with the paper's own eq. 2.3, v̇_O = (I − S) F, gives
  // no_slip_ratios_derived above, which is the printed formula with S replaced by −S: eq. 4.3
  // was written for v̇_O = (I + S) F. Proof by numbers: for a generic body the printed ratios
  // differ from the derived ones by 20%, the printed ones of −S equal the derived ones, and the
  // derived ones are exactly the sticking ratio r = −H_tt⁻¹ H_tn of paper 001 (eq. 20–22).
  const StrikingBody body = generic_body();
  const Eigen::Matrix3d S = paper003_S(body);
  const Eigen::Vector2d derived = no_slip_ratios_derived(S);
  const Eigen::Vector2d printed = no_slip_ratios_as_printed(S);
  const Eigen::Vector2d printed_for_minus_S = no_slip_ratios_as_printed(-S);
  const Eigen::Matrix3d H = contact_space_H(body, paper003_frame());
  const Eigen::Vector2d r = routh::sticking_friction_ratio(H);
  CHECK((derived - r).norm() <= 1e-14 * r.norm());
  CHECK((printed_for_minus_S - derived).norm() <= 1e-14 * derived.norm());
  CHECK((printed - derived).norm() >= 0.1 * derived.norm());

  // Eq. 4.4 with the derived ratios decides what the law does once the slip halts; the printed
  // ones would misjudge it. Here |a|printed = 0.80 > μ = 0.73 > |a|derived = 0.66: eq. 4.4 as
  // printed says slip resumes, the equations of motion say sticking holds, and it does. The
  // small initial slip halts early in compression; the stick persists to the end (final slip at
  // the integration's tolerance, 1e-10 of |u⁻|, far below 1e-8).
  const double mu = 0.5 * (printed.norm() + derived.norm());
  REQUIRE(printed.norm() > mu);
  REQUIRE(derived.norm() < mu);
  const Eigen::Vector3d u_pre(-2.0, 0.05, -0.03);
  const ImpactResult result =
      routh::solve_sliding_ode(routh::spatial_impact_problem(H, u_pre, {0.5, mu, mu}));
  REQUIRE(result.status == ImpactStatus::solved);
  CHECK(result.type == ImpactType::sticking_in_compression);
  CHECK(result.phases.back().kind == PhaseKind::stick);
  CHECK(result.u_post.segment<2>(1).norm() <= 1e-8 * u_pre.norm());
}

TEST_CASE("paper 003 section 6.1: a rolling disk hitting a step") {
  // Source: paper 003 §6.1, eqs. 6.1.1–6.1.6. Numbers ours: a uniform thin disk of unit mass
  // (the paper's), radius R = 0.25 m, J = R²/2 about its axis (R²/4 about a diameter), rolling
  // without slip at ω0 = 8 rad/s on a table into a step whose corner O is at angle ϑ = 35° from
  // the downward vertical through G. x right, y up, z towards the viewer; the disk rolls towards
  // +x, so v_G = (R ω0, 0, 0), ω = (0, 0, −ω0), O − G = R (sin ϑ, −cos ϑ, 0). The corner pushes
  // along n = (G − O)/R; t1 = (cos ϑ, sin ϑ, 0) is the paper's axis 2, t2 = n × t1 the disk axis.
  // The table releases the disk (the corner's impulse lifts it), so O is the only contact.
  const double R = 0.25, omega0 = 8.0, theta = 35.0 * std::numbers::pi / 180.0;
  const double J = 0.5 * R * R, J_diameter = 0.25 * R * R;
  StrikingBody disk;
  disk.inertia = Eigen::Vector3d(J_diameter, J_diameter, J).asDiagonal();
  disk.offset = R * Eigen::Vector3d(std::sin(theta), -std::cos(theta), 0.0);
  disk.velocity = Eigen::Vector3d(R * omega0, 0.0, 0.0);
  disk.angular_velocity = Eigen::Vector3d(0.0, 0.0, -omega0);
  const Eigen::Vector3d n(-std::sin(theta), std::cos(theta), 0.0);
  const Eigen::Vector3d t1(std::cos(theta), std::sin(theta), 0.0);
  const Eigen::Matrix3d C = contact_frame(n, t1, n.cross(t1));
  const Eigen::Matrix3d H = contact_space_H(disk, C);
  const Eigen::Vector3d u_pre = contact_velocity(disk, C);

  // H = diag(1, 1 − S22, 1 + R²/J_diameter): S22 = −R²/J as printed, but S11 = 1 − H_nn = 0, not
  // the printed S11 = 1 (that would make 1 − S11 = 0: a normal impulse that does not change the
  // normal velocity of a free unit mass).
  const double S22 = -R * R / J;
  CHECK(H(0, 0) == doctest::Approx(1.0).epsilon(1e-15));
  CHECK(H(1, 1) == doctest::Approx(1.0 - S22).epsilon(1e-14));
  CHECK(H(2, 2) == doctest::Approx(1.0 + R * R / J_diameter).epsilon(1e-14));
  CHECK((H - Eigen::Matrix3d(H.diagonal().asDiagonal())).norm() <= 1e-15);

  // v_O1(0) = −R ω0 sin ϑ as printed. The printed v_O2(0) = R ω0 cos ϑ is G's velocity along t1;
  // the contact point also moves with ω × r, −R ω0 along t1, so its slip is R ω0 (cos ϑ − 1) < 0.
  const double v1 = -R * omega0 * std::sin(theta);
  const double v2 = R * omega0 * (std::cos(theta) - 1.0);
  CHECK(u_pre[0] == doctest::Approx(v1).epsilon(1e-14));
  CHECK(u_pre[1] == doctest::Approx(v2).epsilon(1e-14));
  CHECK(disk.velocity.dot(t1) == doctest::Approx(R * omega0 * std::cos(theta)).epsilon(1e-14));
  CHECK(std::abs(u_pre[2]) <= 1e-15);

  const double e = 0.6;
  const auto solve = [&](double mu) {
    return routh::solve_sliding_ode(routh::spatial_impact_problem(H, u_pre, {e, mu, mu}));
  };
  SUBCASE("slipping throughout: eqs. 6.1.3, 6.1.4 and 6.1.6") {
    // the slip v2 = −0.36 m/s would halt after Γ_n = |v2|/((1 − S22) μ) = 2.4 N s, beyond the
    // impact's (1 + e)|v1| = 1.8 N s
    const double mu = 0.05;
    const ImpactResult result = solve(mu);
    REQUIRE(result.status == ImpactStatus::solved);
    CHECK(result.type == ImpactType::permanent_sliding);
    const double du1 = result.u_post[0] - u_pre[0];
    const double du2 = result.u_post[1] - u_pre[1];
    CHECK(du2 / du1 == doctest::Approx((1.0 - S22) * mu).epsilon(1e-12));  // 6.1.3
    CHECK(result.u_post[0] == doctest::Approx(-e * v1).epsilon(1e-12));    // 6.1.6
    CHECK(result.u_post[0] == doctest::Approx(e * omega0 * R * std::sin(theta)).epsilon(1e-12));
  }
  SUBCASE("slip halting in compression, then in restitution: eq. 6.1.5") {
    // The slip halts where v_O1 = v_O1(0) − v_O2(0)/((1 − S22) μ) (6.1.5), inside compression for
    // μ = 0.3 and inside restitution for μ = 0.08. H_tn = 0, so a13 = a23 = 0: sticking holds
    // for any μ > 0 (eq. 4.4) and the slip stays zero; the normal velocity still ends at −e v1.
    for (const double mu : {0.3, 0.08}) {
      CAPTURE(mu);
      const ImpactResult result = solve(mu);
      REQUIRE(result.status == ImpactStatus::solved);
      CHECK(result.type == (mu == 0.3 ? ImpactType::sticking_in_compression
                                      : ImpactType::sticking_in_restitution));
      const double halt = v1 - v2 / ((1.0 - S22) * mu);
      CHECK(normal_velocity_at_halt(result, u_pre[0], H(0, 0)) ==
            doctest::Approx(halt).epsilon(1e-12));
      CHECK(std::abs(result.u_post[1]) <= 1e-12);
      CHECK(result.u_post[0] == doctest::Approx(-e * v1).epsilon(1e-12));
      // with the printed v_O2(0) = R ω0 cos ϑ > 0, eq. 6.1.5 would put the halt at a normal
      // velocity below v_O1(0): the approach speeding up under a pushing impulse, impossible
      const double printed_halt = v1 - R * omega0 * std::cos(theta) / ((1.0 - S22) * mu);
      CHECK(printed_halt < v1);
    }
  }
  SUBCASE("a plastic impact ends with compression: v_O2 = v_O2(0) − (1 − S22) μ v_O1(0)") {
    const double mu = 0.05;
    const ImpactResult result =
        routh::solve_sliding_ode(routh::spatial_impact_problem(H, u_pre, {0.0, mu, mu}));
    REQUIRE(result.status == ImpactStatus::solved);
    CHECK(std::abs(result.u_post[0]) <= 1e-12);
    CHECK(result.u_post[1] == doctest::Approx(v2 - (1.0 - S22) * mu * v1).epsilon(1e-12));
  }
  SUBCASE("the energetic ending agrees: H_nt = 0 makes the three hypotheses one") {
    for (const double mu : {0.3, 0.08, 0.05}) {
      CAPTURE(mu);
      const auto problem = routh::spatial_impact_problem(H, u_pre, {e, mu, mu});
      const ImpactResult poisson = routh::solve_sliding_ode(problem);
      const ImpactResult energetic = routh::solve_sliding_ode_energetic(problem);
      REQUIRE(energetic.status == ImpactStatus::solved);
      CHECK((energetic.impulse - poisson.impulse).norm() <= 1e-12 * poisson.impulse.norm());
    }
  }
}

TEST_CASE("paper 003 section 6.3: Beghin's disk striking a spike") {
  // Source: paper 003 §6.3 (Beghin, ch. XV n. 287), eqs. 6.3.1–6.3.4. Numbers ours: a uniform
  // thin disk of unit mass (the paper's M = 1), radius R = 0.3 m, held horizontal, spinning at
  // ω0 = 4 rad/s about its vertical axis and falling at 2 m/s onto a rough spike under the point
  // O at a = 0.2 m from its centre. x = radial (towards O), y = tangential, z up; ω = (0, 0, −ω0),
  // so O moves at ω × r = (0, −a ω0, 0): v_O(0) = (−a ω0, −v) in the paper's (axis 2, axis 3),
  // as eq. 6.3.1 prints. The spike pushes up: n = z; t1 = y (the paper's axis 2), t2 = x.
  const double R = 0.3, a = 0.2, omega0 = 4.0, v = 2.0;
  StrikingBody disk;
  disk.inertia = Eigen::Vector3d(0.25 * R * R, 0.25 * R * R, 0.5 * R * R).asDiagonal();
  disk.offset = Eigen::Vector3d(a, 0.0, 0.0);
  disk.velocity = Eigen::Vector3d(0.0, 0.0, -v);
  disk.angular_velocity = Eigen::Vector3d(0.0, 0.0, -omega0);
  const Eigen::Matrix3d C =
      contact_frame(Eigen::Vector3d::UnitZ(), Eigen::Vector3d::UnitY(), Eigen::Vector3d::UnitX());
  const Eigen::Matrix3d H = contact_space_H(disk, C);
  const Eigen::Vector3d u_pre = contact_velocity(disk, C);

  // S22 = −2(a/R)², S33 = −4(a/R)² as printed: H = diag(1 − S33, 1 − S22, 1), all decoupled.
  const double S22 = -2.0 * (a / R) * (a / R), S33 = -4.0 * (a / R) * (a / R);
  CHECK(H(0, 0) == doctest::Approx(1.0 - S33).epsilon(1e-14));
  CHECK(H(1, 1) == doctest::Approx(1.0 - S22).epsilon(1e-14));
  CHECK(H(2, 2) == doctest::Approx(1.0).epsilon(1e-14));
  CHECK((H - Eigen::Matrix3d(H.diagonal().asDiagonal())).norm() <= 1e-15);
  const double v2 = -a * omega0, v3 = -v;  // eq. 6.3.1
  CHECK(u_pre[0] == doctest::Approx(v3).epsilon(1e-15));
  CHECK(u_pre[1] == doctest::Approx(v2).epsilon(1e-15));
  CHECK(u_pre[2] == 0.0);

  const double e = 0.5;
  const auto solve = [&](double mu) {
    return routh::solve_sliding_ode(routh::spatial_impact_problem(H, u_pre, {e, mu, mu}));
  };
  SUBCASE("curve I: slipping throughout, eqs. 6.3.2–6.3.3, Newton's final normal velocity") {
    const double mu = 0.3;
    const ImpactResult result = solve(mu);
    REQUIRE(result.status == ImpactStatus::solved);
    CHECK(result.type == ImpactType::permanent_sliding);
    const double ratio = (result.u_post[1] - v2) / (result.u_post[0] - v3);
    CHECK(ratio == doctest::Approx(mu * (1.0 - S22) / (1.0 - S33)).epsilon(1e-12));
    CHECK(result.u_post[0] == doctest::Approx(-e * v3).epsilon(1e-12));
    CHECK(result.u_post[1] < 0.0);  // still slipping the original way
  }
  SUBCASE("curves II and III: the slip halts before the end, eq. 6.3.4 corrected") {
    // Eq. 6.3.3 with v_O2 = 0 gives the normal velocity at the halt
    //     v_O3 = v_O3(0) − v_O2(0) (1 − S33) / ((1 − S22) μ).
    // The printed eq. 6.3.4, v_O3(0) − (1 − S33)/((1 − S22) μ), has lost the factor v_O2(0): it
    // subtracts a pure number from a velocity, and is right only when v_O2(0) = 1 m/s. Here
    // v_O2(0) = −0.8 m/s and it is off by 2.6 m/s / μ. μ = 0.8 halts in compression, μ = 0.45 in
    // restitution; a13 = a23 = 0, so the disk then sticks, and Newton's law still ends it.
    for (const double mu : {0.8, 0.45}) {
      CAPTURE(mu);
      const ImpactResult result = solve(mu);
      REQUIRE(result.status == ImpactStatus::solved);
      CHECK(result.type == (mu == 0.8 ? ImpactType::sticking_in_compression
                                      : ImpactType::sticking_in_restitution));
      const double corrected = v3 - v2 * (1.0 - S33) / ((1.0 - S22) * mu);
      const double printed = v3 - (1.0 - S33) / ((1.0 - S22) * mu);
      const double at_halt = normal_velocity_at_halt(result, u_pre[0], H(0, 0));
      CHECK(at_halt == doctest::Approx(corrected).epsilon(1e-12));
      CHECK(std::abs(at_halt - printed) > 1.0);
      CHECK(std::abs(result.u_post[1]) <= 1e-12);
      CHECK(result.u_post[0] == doctest::Approx(-e * v3).epsilon(1e-12));
    }
  }
}
