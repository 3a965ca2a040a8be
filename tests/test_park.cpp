// Law `park` (paper 001 §3: Park, Chung & Youm, collision mode evolution by algebraic equations
// with the exact quadratic impulse cone), checked against three independent routes:
//   1. the planar `poisson` law (Routh's method, papers 000 and 004) on problems whose second
//      tangent is decoupled: in the plane a sliding phase keeps its direction, so paper 001's
//      straight modes are exact and both laws must agree to round-off;
//   2. a fine RK4 integration of paper 001's sliding flow (eq. 7), written here, where the flow
//      keeps its slip direction (exact agreement) and where it turns it (documented difference);
//   3. paper 001's own equations, evaluated literally in its convention at the law's events.
// Then properties over random problems, and the statuses.
//
// Paper 001's convention: (x, y, z) with z the normal, v_z ≤ 0 feasible, Γ_z ≤ 0. Ours
// (docs/design.md §2): u = (u_n, u_t1, u_t2) = (−v_z, v_x, v_y), Γ_n = −Γ_z, so H_ours = P H_paper
// Pᵀ below.
//
// Typos and gaps found in paper 001, each proved by a test here:
//   - eq. 5 defines Poisson's law as Γ_z(t⁻ : t⁺) = ε Γ_z(t⁻ : t); it must be the restitution
//     impulse Γ_z(t : t⁺) (as §2.1 and §3.2.3 use it): "frictionless impacts ..." below.
//   - §3.2.4 says "(28) is used to compute Γ_z(τ : t)" in CRSlide; it is eq. 32 (eq. 28 is the
//     sticking compression impulse): "paper 001 equations at a resumed slide in compression".
//   - §3.2.2's tan θ has the denominator −XY + UUᵀ = −D33 < 0 and a stray transpose (UᵀW); the
//     angle of the line of sticking has tan θ = √(D31² + D32²) / D33 = √λ. Eq. 25 squares it,
//     so nothing downstream is affected: "paper 001 equations at a persistent stick".
//   - eq. 23 (the CStick event hypothesis) is necessary, not sufficient: "... eq. 23 ...".
//   - prose of §3.2: "the mode CStick finishes and ... ESlide begins" (CSlide finishes), "the
//     event ESlide (Expansion-Sticking)" and "Were the event ESlide affirmed" (EStick),
//     "PEStick (Persistent-ESlide)" (Persistent-EStick), §3.2.1 "While in the mode CStick"
//     (CSlide); §4 samples with index j but says "k = 1, ..., 32", and describes four friction
//     levels (0.01, 0.1, 0.5, 1.0) for three figures captioned 0.1, 0.5, 1.0. Its
//     v_z(t⁻) = 15 m/s is consistent with its convention (approaching), i.e. u_n = −15 m/s.

#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <random>
#include <utility>
#include <vector>

#include "sim/impact/park.hpp"
#include "sim/impact/poisson.hpp"
#include "sim/impact/spatial_contact.hpp"

namespace {

using Eigen::Matrix2d;
using Eigen::Matrix3d;
using Eigen::Vector2d;
using Eigen::Vector3d;
using routh::ContactParameters;
using routh::ImpactResult;
using routh::ImpactStatus;
using routh::ImpactType;
using routh::PhaseKind;
using routh::Stage;

ImpactResult park(const Matrix3d& H, const Vector3d& u, const ContactParameters& parameters) {
  return routh::solve_park(routh::spatial_impact_problem(H, u, parameters));
}

Vector3d impulse_of(const ImpactResult& result) { return result.impulse.head<3>(); }

// ---------------------------------------------------------------------------------------------
// Paper 001 in its own convention

/// Ours from the paper's: u = P v with (u_n, u_t1, u_t2) = (−v_z, v_x, v_y).
Matrix3d paper_to_ours() {
  Matrix3d P;
  P << 0, 0, -1, 1, 0, 0, 0, 1, 0;
  return P;
}

/// Paper 001 §4's H = [[8, −2, 1], [−2, 3, −1], [1, −1, 5]] [1/kg] in (x, y, z), in our
/// (n, t1, t2): [[5, −1, 1], [−1, 8, −2], [1, −2, 3]].
Matrix3d paper001_H() {
  Matrix3d paper;
  paper << 8, -2, 1, -2, 3, -1, 1, -1, 5;
  return paper_to_ours() * paper * paper_to_ours().transpose();
}

/// Paper 001 §4's pre-impact velocity: v_z = 15 m/s approaching, slip β at angle `angle`.
Vector3d paper001_u(double slip, double angle) {
  return Vector3d(-15.0, slip * std::cos(angle), slip * std::sin(angle));
}

/// Paper 001's symbols (eqs. 2, 20–24, 34) for our H, in its convention.
struct PaperSymbols {
  double X, Y, Z, U, V, W;
  double D11, D21, D22, D31, D32, D33, D;
  explicit PaperSymbols(const Matrix3d& H_ours) {
    const Matrix3d H = paper_to_ours().transpose() * H_ours * paper_to_ours();
    X = H(0, 0), Y = H(1, 1), Z = H(2, 2), U = H(0, 1), W = H(0, 2), V = H(1, 2);
    D31 = U * V - Y * W, D32 = U * W - X * V, D33 = X * Y - U * U;
    D11 = Y * Z - V * V, D21 = W * V - U * Z, D22 = X * Z - W * W;
    D = W * D31 + V * D32 + Z * D33;
  }
  double lambda() const { return (D31 * D31 + D32 * D32) / (D33 * D33); }  // eq. 22
  /// γ of eq. 24 for the paper's velocity v = (v_x, v_y, v_z).
  double gamma(const Vector3d& v) const { return (D31 * v.x() + D32 * v.y() + D33 * v.z()) / D; }
  /// v_z(τ) where the slip halts after Γ_z (eq. 20).
  double v_z_at_halt(const Vector3d& v, double G_z) const {
    return (D31 * v.x() + D32 * v.y() + D33 * v.z()) / D33 + D / D33 * G_z;
  }
  /// The quadratic of eq. 21 at Γ_z, and the size of its terms (for a relative residual).
  std::pair<double, double> eq21(const Vector3d& v, double mu, double G_z) const {
    const double Q = D33 * D33 * (mu * mu - lambda());
    const double L = 2.0 * ((D31 * Y - D32 * U) * v.x() - (D31 * U - D32 * X) * v.y());
    const double C = -std::pow(Y * v.x() - U * v.y(), 2) - std::pow(U * v.x() - X * v.y(), 2);
    return {Q * G_z * G_z + L * G_z + C, std::abs(Q * G_z * G_z) + std::abs(L * G_z) + std::abs(C)};
  }
  /// Γ_x, Γ_y that stop the slip v_x, v_y with the normal impulse Γ_z (eq. 19a in IM_x, IM_y).
  Vector2d sticking_tangential_impulse(const Vector3d& v, double G_z) const {
    Matrix2d T;
    T << X, U, U, Y;
    return T.inverse() * -Vector2d(v.x() + W * G_z, v.y() + V * G_z);
  }
};

Vector3d to_paper(const Vector3d& ours) { return paper_to_ours().transpose() * ours; }

// ---------------------------------------------------------------------------------------------
// Paper 001 eq. 7, integrated: the reference the mode method is compared with

/// Step in normal impulse [N s] of the RK4 integration. Where the slip keeps its direction the
/// rates are constant and RK4 is exact whatever the step; elsewhere its error (~1e-12 here) is
/// far below the differences it is compared with.
constexpr double kFlowStep = 1e-3;
/// Near a halt the slip's direction turns on the scale of the slip itself (the rate is singular
/// at u_t = 0): there a step moves the slip by at most this fraction of its size, so the steps
/// shrink geometrically and RK4 stays accurate down to round-off.
constexpr double kSlipFractionPerStep = 0.05;

struct FlowState {
  Vector3d u = Vector3d::Zero();
  Vector3d impulse = Vector3d::Zero();
};

/// dΓ/dΓ_n = ξ = (1, −μd û_t) while sliding (our signs); du/dΓ_n = H ξ.
Vector3d sliding_direction(const Vector3d& u, double mu) {
  Vector3d xi(1.0, 0.0, 0.0);
  xi.tail<2>() = -mu * u.tail<2>().normalized();
  return xi;
}

/// One RK4 step of length h. `crossed` tells whether any stage point reached the plane
/// u_t·d0 = 0: past the halt the rate flips, so a step whose stages straddle it is not the flow
/// (and would place the halt too late); the halt is then looked for inside the step.
FlowState rk4_step(const FlowState& x, const Matrix3d& H, double mu, double h, const Vector2d& d0,
                   bool& crossed) {
  crossed = false;
  auto rate = [&](const Vector3d& u) {
    crossed = crossed || u.tail<2>().dot(d0) <= 0.0;
    return sliding_direction(u, mu);
  };
  const Vector3d k1 = rate(x.u);
  const Vector3d k2 = rate(x.u + 0.5 * h * H * k1);
  const Vector3d k3 = rate(x.u + 0.5 * h * H * k2);
  const Vector3d k4 = rate(x.u + h * H * k3);
  const Vector3d dG = h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
  const FlowState end{x.u + H * dG, x.impulse + dG};
  crossed = crossed || end.u.tail<2>().dot(d0) <= 0.0;
  return end;
}

enum class FlowEvent { reached_end, compression_ended, slip_halted };

/// Slides until Γ_n = `until`, or u_n = 0 (if `to_compression_end`), or the slip halts; events
/// are located by bisection on the last step's length. When both come together the halt wins
/// (paper 000's case (ii)).
FlowEvent slide(const Matrix3d& H, double mu, double until, bool to_compression_end, FlowState& x) {
  const double slip_at_start = x.u.tail<2>().norm();
  while (x.impulse[0] < until) {
    const Vector2d d0 = x.u.tail<2>();
    const Vector2d slip_rate = (H * sliding_direction(x.u, mu)).tail<2>();
    if (d0.norm() <= 1e-13 * slip_at_start) break;  // halted, up to round-off
    // near a halt the rate turns on the scale of the slip: steps of at most 5 % of the slip
    const double h = std::min(
        {kFlowStep, until - x.impulse[0], kSlipFractionPerStep * d0.norm() / slip_rate.norm()});
    auto step = [&](double length, bool& event) {
      bool crossed = false;
      const FlowState y = rk4_step(x, H, mu, length, d0, crossed);
      event = crossed || (to_compression_end && y.u[0] >= 0.0);
      return y;
    };
    bool event = false;
    const FlowState trial = step(h, event);
    if (!event) {
      x = trial;
      continue;
    }
    double lo = 0.0, hi = h;
    for (int i = 0; i < 200 && hi - lo > 1e-16 * (x.impulse[0] + h); ++i) {
      const double mid = 0.5 * (lo + hi);
      step(mid, event);
      (event ? hi : lo) = mid;
    }
    bool crossed = false;
    const FlowState at_event = rk4_step(x, H, mu, hi, d0, crossed);
    if (!crossed) {
      x = at_event;
      x.u[0] = 0.0;
      return FlowEvent::compression_ended;
    }
    x = rk4_step(x, H, mu, lo, d0, crossed);
    break;
  }
  if (x.impulse[0] < until) {
    // The slip halted. What is left of it (round-off, or the gap by which the stages' predictor
    // points reach u_t·d0 = 0 before the solution) goes at the current rate.
    const Vector3d xi = sliding_direction(x.u, mu);
    const Vector2d slip_rate = (H * xi).tail<2>();
    const double finish = -x.u.tail<2>().dot(slip_rate) / slip_rate.squaredNorm();
    if (finish > 0.0) {
      x.impulse += finish * xi;
      x.u += finish * H * xi;
    }
    x.u.tail<2>().setZero();
    return FlowEvent::slip_halted;
  }
  return FlowEvent::reached_end;
}

/// The unit slip directions d that the flow keeps: H_tn − μd H_tt d ∥ d (κ = d·(H_tn − μd H_tt d)
/// > 0 diverging, < 0 converging), found by sampling d × (H_tn − μd H_tt d) on 20000 angles
/// and bisecting each sign change (independent of the law's quartic).
std::vector<Vector2d> invariant_slip_directions(const Matrix3d& H, double mu) {
  const Vector2d h = H.block<2, 1>(1, 0);
  const Matrix2d T = H.block<2, 2>(1, 1);
  auto direction = [](double phi) { return Vector2d(std::cos(phi), std::sin(phi)); };
  auto F = [&](double phi) {
    const Vector2d d = direction(phi);
    const Vector2d rate = h - mu * T * d;
    return d.x() * rate.y() - d.y() * rate.x();
  };
  std::vector<Vector2d> directions;
  constexpr int kSamples = 20000;
  for (int i = 0; i < kSamples; ++i) {
    double lo = 2.0 * std::numbers::pi * i / kSamples,
           hi = 2.0 * std::numbers::pi * (i + 1) / kSamples;
    if ((F(lo) < 0.0) == (F(hi) < 0.0)) continue;
    const bool lo_negative = F(lo) < 0.0;
    for (int k = 0; k < 100; ++k) {
      const double mid = 0.5 * (lo + hi);
      ((F(mid) < 0.0) == lo_negative ? lo : hi) = mid;
    }
    directions.push_back(direction(lo));
  }
  return directions;
}

/// The diverging invariant direction the slip resumes in after a halt where sticking fails.
Vector2d resumed_slip_direction(const Matrix3d& H, double mu) {
  const Vector2d h = H.block<2, 1>(1, 0);
  const Matrix2d T = H.block<2, 2>(1, 1);
  Vector2d best = Vector2d::Zero();
  double best_rate = 0.0;
  for (const Vector2d& d : invariant_slip_directions(H, mu)) {
    const double rate = d.dot(h - mu * T * d);
    if (rate > best_rate) best = d, best_rate = rate;
  }
  return best;
}

/// Moves x along constant friction ratios dΓ_t/dΓ_n = r by the normal impulse s.
void straight(const Matrix3d& H, double s, const Vector2d& r, FlowState& x) {
  const Vector3d dG = s * Vector3d(1.0, r.x(), r.y());
  x.u += H * dG;
  x.impulse += dG;
}

struct FlowAnswer {
  Vector3d impulse;
  bool halted_in_compression = false;
  bool halted = false;
};

/// The whole impact by the sliding flow with Poisson's end (1 + e) Γ_n,c (paper 001 §2.1):
/// after a halt the contact sticks along the line of sticking if λ ≤ μs² (eq. 25), else slides
/// along the resumed direction, both of constant rate.
FlowAnswer flow_impact(const Matrix3d& H, const Vector3d& u, const ContactParameters& p) {
  const double mu = p.kinetic_friction;
  const Vector2d stick_ratio = H.block<2, 2>(1, 1).ldlt().solve(-H.block<2, 1>(1, 0));
  const double holding = std::max(p.static_friction, mu);
  const bool stable = stick_ratio.squaredNorm() <= holding * holding;
  auto ratio_after_halt = [&]() -> Vector2d {
    return stable ? stick_ratio : Vector2d(-mu * resumed_slip_direction(H, mu));
  };
  FlowState x;
  x.u = u;
  FlowAnswer answer;
  Vector2d ratio = Vector2d::Zero();
  if (slide(H, mu, 1e300, true, x) == FlowEvent::slip_halted) {
    answer.halted = answer.halted_in_compression = true;
    ratio = ratio_after_halt();
    const double normal_rate = H.row(0).dot(Vector3d(1.0, ratio.x(), ratio.y()));
    straight(H, std::max(0.0, -x.u[0] / normal_rate), ratio, x);
  }
  const double end = (1.0 + p.restitution) * x.impulse[0];
  if (!answer.halted && slide(H, mu, end, false, x) == FlowEvent::slip_halted) {
    answer.halted = true;
    ratio = ratio_after_halt();
  }
  if (answer.halted) straight(H, end - x.impulse[0], ratio, x);
  answer.impulse = x.impulse;
  return answer;
}

double relative_difference(const Vector3d& a, const Vector3d& b) {
  return (a - b).norm() / b.norm();
}

}  // namespace

// =============================================================================================
// 1. Reduction to the plane

TEST_CASE("park: a decoupled second tangent gives the planar poisson answer") {
  // H = [[a, c, 0], [c, b, 0], [0, 0, b2]] and u_t2 = 0: nothing couples t2 to n or t1, so the
  // mode impulses never leave the plane (each is the unique minimizer of a problem symmetric
  // under t2 → −t2, park.hpp) and the sliding direction is constant in each phase. Routh's
  // incremental method (poisson) is then the same computation: both must agree to round-off
  // (1e-10 relative; each is a few dozen flops, the quartic's roots are exact to ~1e-15).
  struct Planar {
    double a, b, c;
  };
  // paper 004's rod (μc = 0.6), a weakly coupled body, a strongly coupled one (μc = 0.65)
  const std::array<Planar, 3> bodies = {Planar{2.5, 2.5, -1.5}, Planar{3.0, 1.0, 0.2},
                                        Planar{1.0, 2.0, 1.3}};
  const std::array<std::pair<double, double>, 6> frictions = {
      std::pair{0.73, 0.7}, std::pair{0.5, 0.45}, std::pair{0.1, 0.1},
      std::pair{0.3, 0.2},  std::pair{1.2, 1.0},  std::pair{0.0, 0.0}};
  std::array<int, 8> types_seen{};
  int compared = 0;
  for (const Planar& body : bodies) {
    for (const double u_t : {-2.5, -0.6, 0.0, 0.05, 0.3, 0.6, 1.2, 2.5}) {
      for (const auto& [mu_s, mu_d] : frictions) {
        for (const double e : {0.0, 0.5, 0.82, 1.0}) {
          const ContactParameters p{e, mu_s, mu_d};
          const ImpactResult planar = routh::solve_poisson(
              routh::planar_impact_problem(body.a, body.b, body.c, -1.0, u_t, p));
          Matrix3d H;
          H << body.a, body.c, 0.0, body.c, body.b, 0.0, 0.0, 0.0, 1.7;
          const ImpactResult spatial = park(H, Vector3d(-1.0, u_t, 0.0), p);
          CAPTURE(body.a);
          CAPTURE(body.b);
          CAPTURE(body.c);
          CAPTURE(u_t);
          CAPTURE(mu_s);
          CAPTURE(mu_d);
          CAPTURE(e);
          REQUIRE(planar.status == ImpactStatus::solved);
          REQUIRE(spatial.status == ImpactStatus::solved);
          ++compared;
          ++types_seen[static_cast<std::size_t>(planar.type)];
          const double scale = std::abs(planar.impulse[0]) + std::abs(planar.impulse[1]);
          CHECK(spatial.type == planar.type);
          CHECK(std::abs(spatial.impulse[0] - planar.impulse[0]) <= 1e-10 * scale);
          CHECK(std::abs(spatial.impulse[1] - planar.impulse[1]) <= 1e-10 * scale);
          CHECK(std::abs(spatial.impulse[2]) <= 1e-12 * scale);
          const double velocity_scale = 1.0 + std::abs(u_t) + (body.a + body.b) * scale;
          const double energy_scale = scale * velocity_scale;
          CHECK(std::abs(spatial.u_post[0] - planar.u_post[0]) <= 1e-10 * velocity_scale);
          CHECK(std::abs(spatial.u_post[1] - planar.u_post[1]) <= 1e-10 * velocity_scale);
          CHECK(std::abs(spatial.delta_T - planar.delta_T) <= 1e-10 * energy_scale);
          CHECK(std::abs(spatial.normal_work - planar.normal_work) <= 1e-10 * energy_scale);
          CHECK(std::abs(spatial.tangential_work - planar.tangential_work) <= 1e-10 * energy_scale);
          CHECK(spatial.flags.has(routh::ImpactFlag::nonphysical_normal_dissipation) ==
                planar.flags.has(routh::ImpactFlag::nonphysical_normal_dissipation));
          REQUIRE(spatial.phases.size() == planar.phases.size());
          for (std::size_t i = 0; i < planar.phases.size(); ++i) {
            CAPTURE(i);
            CHECK(spatial.phases[i].kind == planar.phases[i].kind);
            CHECK(spatial.phases[i].stage == planar.phases[i].stage);
            CHECK(std::abs(spatial.phases[i].normal_impulse_to -
                           planar.phases[i].normal_impulse_to) <= 1e-10 * scale);
          }
        }
      }
    }
  }
  // every planar outcome was covered: sliding throughout, sticking throughout, and sticking or
  // reverse sliding after a halt in compression and in restitution
  for (const ImpactType type :
       {ImpactType::permanent_sliding, ImpactType::sticking_throughout,
        ImpactType::sticking_in_compression, ImpactType::reverse_sliding_in_compression,
        ImpactType::sticking_in_restitution, ImpactType::reverse_sliding_in_restitution}) {
    CAPTURE(routh::to_string(type));
    CHECK(types_seen[static_cast<std::size_t>(type)] > 0);
  }
  CHECK(compared == 3 * 8 * 6 * 4);
}

TEST_CASE("park: random planar problems embedded in space, in any tangent frame") {
  // As above over random planar problems, and with the tangent frame turned by a random angle
  // α (H → R H Rᵀ, u → R u, R = diag(1, rot α)): the answer must turn with it.
  std::mt19937_64 rng(0x9a7c'0001);
  auto uniform = [&](double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  };
  for (int i = 0; i < 2000; ++i) {
    const double a = std::pow(10.0, uniform(-1.0, 1.0)), b = std::pow(10.0, uniform(-1.0, 1.0));
    const double c = uniform(-0.95, 0.95) * std::sqrt(a * b);
    const double u_n = -std::pow(10.0, uniform(-2.0, 1.0)), u_t = uniform(-3.0, 3.0);
    const double mu_s = uniform(0.0, 1.5);
    const ContactParameters p{uniform(0.0, 1.0), mu_s,
                              uniform(0.0, 1.0) < 0.3 ? mu_s : uniform(0.0, mu_s)};
    const double alpha = uniform(0.0, 2.0 * std::numbers::pi);
    Matrix3d R = Matrix3d::Identity();
    R.block<2, 2>(1, 1) = Eigen::Rotation2Dd(alpha).toRotationMatrix();
    Matrix3d H;
    H << a, c, 0.0, c, b, 0.0, 0.0, 0.0, uniform(0.1, 10.0);
    const ImpactResult planar =
        routh::solve_poisson(routh::planar_impact_problem(a, b, c, u_n, u_t, p));
    const ImpactResult spatial = park(R * H * R.transpose(), R * Vector3d(u_n, u_t, 0.0), p);
    CAPTURE(i);
    CAPTURE(a);
    CAPTURE(b);
    CAPTURE(c);
    CAPTURE(u_n);
    CAPTURE(u_t);
    CAPTURE(alpha);
    REQUIRE(planar.status == ImpactStatus::solved);
    REQUIRE(spatial.status == ImpactStatus::solved);
    const Vector3d expected = R * Vector3d(planar.impulse[0], planar.impulse[1], 0.0);
    CHECK((impulse_of(spatial) - expected).norm() <= 1e-10 * expected.norm());
    CHECK(spatial.type == planar.type);
  }
}

// =============================================================================================
// 2. Frictionless

TEST_CASE("park: frictionless impacts give Gamma = (1 + e)(-u_n / H_nn) along n") {
  // Without friction the cone is the normal axis: Γ_t = 0, compression ends at −u_n / H_nn and
  // Poisson's restitution adds e times that (paper 001 §1: both laws then agree).
  //
  // Typo in paper 001 eq. 5: it defines Γ_z⁺ = Γ_z(t⁻ : t⁺), the WHOLE impulse, and asks
  // Γ_z⁺ = ε Γ_z⁻. Read literally, the total normal impulse would be ε Γ_n,c ≤ Γ_n,c, and the
  // frictionless u_n⁺ = u_n⁻ + H_nn ε Γ_n,c = (1 − ε) u_n⁻ < 0: the bodies would still approach
  // after the impact. §2.1 integrates "from Γ_z⁻ to (1 + ε) Γ_z⁻" and §3.2.3 writes
  // Γ_z(t : t⁺) = ε Γ_z(t⁻ : t): Γ_z⁺ in eq. 5 is the restitution impulse Γ_z(t : t⁺).
  const Matrix3d H = paper001_H();
  for (const double e : {0.0, 0.3, 0.82, 1.0}) {
    for (const double angle : {0.0, 1.0, 2.5, 4.0}) {
      for (const double slip : {0.0, 10.0}) {
        const Vector3d u = paper001_u(slip, angle);
        const ImpactResult result = park(H, u, {e, 0.0, 0.0});
        REQUIRE(result.status == ImpactStatus::solved);
        const double compression = -u[0] / H(0, 0);
        CHECK(result.impulse[0] == doctest::Approx((1.0 + e) * compression).epsilon(1e-15));
        CHECK(result.impulse[1] == 0.0);
        CHECK(result.impulse[2] == 0.0);
        CHECK(result.u_post[0] == doctest::Approx(-e * u[0]).epsilon(1e-14));
        CHECK(result.tangential_work == 0.0);
        // without slip, sticking fails (λ = 0.0925 > 0): slip starts, frictionless
        CHECK(result.type == ImpactType::permanent_sliding);
        // eq. 5 as printed: total ε Γ_n,c leaves the contact approaching when ε < 1
        const double literal_u_n = u[0] + H(0, 0) * e * compression;
        if (e < 1.0) CHECK(literal_u_n < 0.0);
      }
    }
  }
}

// =============================================================================================
// 3. The sliding flow (paper 001 eq. 7)

TEST_CASE("park: equals the sliding flow where the flow keeps the slip direction") {
  // Paper 001 §4's example (H above, u_n = −15 m/s, slip 10 m/s) with the slip along each
  // direction the flow keeps (H_tn − μd H_tt d ∥ d): the slip then moves on a straight line
  // (diverging: it grows; converging: it shrinks to a halt, after which it sticks or resumes
  // along the diverging direction), so a mode's straight impulse IS the flow's. RK4 integrates
  // constant rates exactly and the events are bisected to 1e-16 N s: 1e-9 relative is round-off.
  const Matrix3d H = paper001_H();
  int compared = 0;
  for (const double mu : {0.1, 0.5}) {
    const std::vector<Vector2d> directions = invariant_slip_directions(H, mu);
    REQUIRE(directions.size() >= 2);
    for (const Vector2d& d : directions) {
      for (const double e : {0.1, 0.5, 0.9}) {
        const Vector3d u(-15.0, 10.0 * d.x(), 10.0 * d.y());
        const ContactParameters p{e, mu, mu};
        const ImpactResult result = park(H, u, p);
        const FlowAnswer flow = flow_impact(H, u, p);
        CAPTURE(mu);
        CAPTURE(e);
        CAPTURE(d.transpose());
        REQUIRE(result.status == ImpactStatus::solved);
        CHECK(relative_difference(impulse_of(result), flow.impulse) <= 1e-9);
        ++compared;
      }
    }
  }
  CHECK(compared >= 12);
}

TEST_CASE("park: after a persistent stick in compression the answer is the flow's") {
  // When the slip halts in compression and sticking holds (λ ≤ μs², paper 001 eq. 25), the
  // impact ends on the line of sticking at (1 + e) γ (eqs. 28–30), wherever the slip halted:
  // the final impulse depends on u⁻ only, not on the sliding path. The straight modes and the
  // curved flow then agree exactly although they halt at different Γ_n. Paper 001 §4's sweep of
  // 32 slip directions, μ = 0.5 (λ = 0.0925 ≤ 0.25) and μ = 1.0 (its Fig. 4: all stick).
  const Matrix3d H = paper001_H();
  int compared = 0;
  for (const double mu : {0.5, 1.0}) {
    for (const double e : {0.1, 0.5, 0.9}) {
      for (int j = 1; j <= 32; ++j) {
        const Vector3d u = paper001_u(10.0, 2.0 * std::numbers::pi * (j - 1) / 32.0);
        const ContactParameters p{e, mu, mu};
        const ImpactResult result = park(H, u, p);
        REQUIRE(result.status == ImpactStatus::solved);
        const FlowAnswer flow = flow_impact(H, u, p);
        if (result.type != ImpactType::sticking_in_compression || !flow.halted_in_compression) {
          continue;
        }
        CAPTURE(mu);
        CAPTURE(e);
        CAPTURE(j);
        CHECK(relative_difference(impulse_of(result), flow.impulse) <= 1e-9);
        ++compared;
      }
    }
  }
  CHECK(compared >= 20);
}

TEST_CASE("park: where the flow turns the slip, the straight modes differ from it") {
  // Paper 001's modes are straight impulses on the cone, opposite to the slip at the mode's END
  // (eqs. 17–18): one backward-Euler step of the flow over the whole mode (park.hpp). Where the
  // flow turns the slip the two differ. Over paper 001 §4's sweep (32 directions, μ ∈ {0.1,
  // 0.5}, ε ∈ {0.1, 0.5, 0.9}) the impulses differ by up to ~12 % (μ = 0.5, ε = 0.1, slip
  // along ~(1, −0.2)); the paper itself notes that its method and Routh's (the flow) give
  // similar but not equal loci (§4, Figs. 2–3). This test pins that size, so that a change which
  // silently turns the law into the flow, or breaks it, shows.
  const Matrix3d H = paper001_H();
  double largest = 0.0;
  for (const double mu : {0.1, 0.5}) {
    for (const double e : {0.1, 0.5, 0.9}) {
      for (int j = 1; j <= 32; ++j) {
        const Vector3d u = paper001_u(10.0, 2.0 * std::numbers::pi * (j - 1) / 32.0);
        const ContactParameters p{e, mu, mu};
        const ImpactResult result = park(H, u, p);
        REQUIRE(result.status == ImpactStatus::solved);
        const FlowAnswer flow = flow_impact(H, u, p);
        const double difference = relative_difference(impulse_of(result), flow.impulse);
        largest = std::max(largest, difference);
        CAPTURE(mu);
        CAPTURE(e);
        CAPTURE(j);
        CHECK(difference <= 0.15);
        // both dissipate (the flow always does, Wang & Mason's argument in 3D)
        CHECK(result.delta_T < 0.0);
      }
    }
  }
  CHECK(largest > 0.05);
}

// =============================================================================================
// 4. Paper 001's equations at the law's events, in the paper's own convention

TEST_CASE("park: paper 001 equations at a persistent stick in compression") {
  // §4's H, μ = 1.0, ε = 0.5, slip (10, 0) m/s: CSlide, CStick, PCStick (type 2 in its Fig. 4).
  const Matrix3d H = paper001_H();
  const double mu = 1.0, e = 0.5;
  const Vector3d u = paper001_u(10.0, 0.0);
  const ImpactResult result = park(H, u, {e, mu, mu});
  REQUIRE(result.status == ImpactStatus::solved);
  REQUIRE(result.type == ImpactType::sticking_in_compression);
  REQUIRE(result.phases.size() == 3);
  CHECK(result.phases[0].kind == PhaseKind::slide);
  CHECK(result.phases[1].kind == PhaseKind::stick);
  CHECK(result.phases[2].kind == PhaseKind::stick);
  CHECK(result.phases[2].stage == Stage::restitution);

  const PaperSymbols paper(H);
  const Vector3d v = to_paper(u);  // (v_x, v_y, v_z) = (10, 0, 15)
  // eq. 21 at the CStick impulse Γ_z(t⁻ : τ) = −Γ_n, and the event hypotheses (eq. 23, 24)
  const double G_halt = -result.phases[0].normal_impulse_to;
  const auto [q, q_size] = paper.eq21(v, mu, G_halt);
  CHECK(std::abs(q) <= 1e-13 * q_size);
  CHECK(0.0 <= -G_halt);
  CHECK(-G_halt <= paper.gamma(v));
  CHECK(paper.v_z_at_halt(v, G_halt) >= 0.0);  // eq. 20: still compressing (v_z > 0 approaches)
  // eq. 28: PCStick ends compression at Γ_z(t⁻ : t) = −γ
  CHECK(result.phases[1].normal_impulse_to == doctest::Approx(paper.gamma(v)).epsilon(1e-13));
  // eq. 30: v_z(t⁺) = −ε (D31 v_x + D32 v_y + D33 v_z) / D33, our u_n⁺ = −v_z(t⁺)
  CHECK(result.u_post[0] ==
        doctest::Approx(e * (paper.D31 * v.x() + paper.D32 * v.y() + paper.D33 * v.z()) / paper.D33)
            .epsilon(1e-12));
  CHECK(result.u_post.tail<2>().norm() <= 1e-12 * u.norm());
  // eq. 25: sticking holds, λ ≤ μs²
  CHECK(paper.lambda() == doctest::Approx(0.0925).epsilon(1e-12));
  CHECK(paper.lambda() <= mu * mu);

  // Typo in §3.2.2's tan θ = √((YW − UV)² + (UᵀW − XV)²) / (−XY + UUᵀ): the denominator is
  // −D33 < 0 and makes tan θ negative, for an angle between the line of sticking and the
  // Γ_z axis. Measured directly: two points of the line of sticking (eq. 19a).
  const Vector2d t0 = paper.sticking_tangential_impulse(v, 0.0);
  const Vector2d t1 = paper.sticking_tangential_impulse(v, -1.0);
  const double tan_theta = (t1 - t0).norm() / 1.0;
  CHECK(tan_theta == doctest::Approx(std::sqrt(paper.lambda())).epsilon(1e-13));
  const double printed =
      std::hypot(paper.Y * paper.W - paper.U * paper.V, paper.U * paper.W - paper.X * paper.V) /
      (-paper.X * paper.Y + paper.U * paper.U);
  CHECK(printed < 0.0);
  CHECK(printed == doctest::Approx(-tan_theta).epsilon(1e-13));
}

TEST_CASE("park: paper 001 equations at a resumed slide in compression") {
  // §4's H, μ = 0.2 (λ = 0.0925 > 0.04: sticking fails), slip 2 m/s at 3π/4 + π/2: CSlide,
  // CStick, CRSlide. The compression impulse is the answer with ε = 0 (same compression).
  const Matrix3d H = paper001_H();
  const double mu = 0.2, e = 0.5;
  const Vector3d u = paper001_u(2.0, 2.0 * std::numbers::pi * 24.0 / 32.0);
  const ImpactResult result = park(H, u, {e, mu, mu});
  const ImpactResult compression = park(H, u, {0.0, mu, mu});
  REQUIRE(result.status == ImpactStatus::solved);
  REQUIRE(result.type == ImpactType::reverse_sliding_in_compression);
  REQUIRE(compression.status == ImpactStatus::solved);
  REQUIRE(result.phases.size() == 3);
  CHECK(result.phases[1].kind == PhaseKind::reverse_slide);
  CHECK(result.phases[2].kind == PhaseKind::reverse_slide);

  const PaperSymbols paper(H);
  const Vector3d v = to_paper(u);
  // Γ(t⁻ : τ): the CStick impulse on the line of sticking (eqs. 19a, 21)
  const double G_z_halt = -result.phases[0].normal_impulse_to;
  const Vector2d G_t_halt = paper.sticking_tangential_impulse(v, G_z_halt);
  const auto [q, q_size] = paper.eq21(v, mu, G_z_halt);
  CHECK(std::abs(q) <= 1e-13 * q_size);
  const double v_z_tau = paper.v_z_at_halt(v, G_z_halt);  // eq. 20
  // Γ(τ : t) = Γ(t⁻ : t) − Γ(t⁻ : τ), in the paper's convention
  const Vector3d G_comp = to_paper(impulse_of(compression));
  const double Gx = G_comp.x() - G_t_halt.x(), Gy = G_comp.y() - G_t_halt.y();
  const double Gz = G_comp.z() - G_z_halt;
  const double Z = paper.Z, V = paper.V, W = paper.W;
  const double m2 = mu * mu;
  // eq. 33: the cone with Γ_z(τ : t) eliminated by eq. 32
  const std::array<double, 6> eq33 = {
      (m2 * W * W - Z * Z) * Gx * Gx, (m2 * V * V - Z * Z) * Gy * Gy, 2.0 * m2 * W * V * Gx * Gy,
      2.0 * m2 * W * v_z_tau * Gx,    2.0 * m2 * V * v_z_tau * Gy,    m2 * v_z_tau * v_z_tau};
  double sum = 0.0, size = 0.0;
  for (const double term : eq33) sum += term, size += std::abs(term);
  CHECK(std::abs(sum) <= 1e-12 * size);
  // eq. 35: the direction of Γ_t(τ : t) against the slip v_t(t) (eqs. 31e, 34)
  const std::array<double, 5> eq35 = {-paper.D21 * Gx * Gx, paper.D21 * Gy * Gy,
                                      (paper.D11 - paper.D22) * Gx * Gy, -V * v_z_tau * Gx,
                                      W * v_z_tau * Gy};
  sum = 0.0, size = 0.0;
  for (const double term : eq35) sum += term, size += std::abs(term);
  CHECK(std::abs(sum) <= 1e-12 * size);
  // eq. 32 gives Γ_z(τ : t), and v_z(t) = 0 (eq. 31c); eq. 18b: Γ_t(τ : t)·v_t(t) ≤ 0
  CHECK(Gz == doctest::Approx(-(W * Gx + V * Gy + v_z_tau) / Z).epsilon(1e-12));
  const Vector3d v_t = v + paper_to_ours().transpose() * H * impulse_of(compression);
  CHECK(std::abs(v_t.z()) <= 1e-12 * v.norm());
  CHECK(Gx * v_t.x() + Gy * v_t.y() < 0.0);
  // Typo in §3.2.4: "(28) is used to compute Γ_z(τ : t)". Eq. 28 is the compression impulse of
  // a persistent stick, −γ; with it (or eq. 27's Γ_z(τ : t) = −γ − Γ_z(t⁻ : τ)) the resumed
  // sliding impulse would not end compression. It is eq. 32.
  CHECK(std::abs((-paper.gamma(v) - G_z_halt) - Gz) > 1e-3 * std::abs(Gz));
  // the restitution continues the resumed slip in the same direction (eqs. 36–37 hold too)
  const Vector3d G_rest = to_paper(impulse_of(result) - impulse_of(compression));
  CHECK(G_rest.z() == doctest::Approx(e * G_comp.z()).epsilon(1e-13));
  CHECK(G_rest.x() * Gy - G_rest.y() * Gx == doctest::Approx(0.0).scale(1e-12 * Gx * Gx));
}

TEST_CASE("park: paper 001 equations at the end of a sliding restitution") {
  // §4's H, μ = 0.5, ε = 0.5, slip (10, 0) m/s: CSlide, EndComp, ESlide, EndExp. The conics of
  // EndExp (eqs. 36–37) hold for Γ(t : t⁺) = Γ(ε) − Γ(ε = 0) from v(t).
  const Matrix3d H = paper001_H();
  const double mu = 0.5, e = 0.5;
  const Vector3d u = paper001_u(10.0, 0.0);
  const ImpactResult result = park(H, u, {e, mu, mu});
  const ImpactResult compression = park(H, u, {0.0, mu, mu});
  REQUIRE(result.status == ImpactStatus::solved);
  REQUIRE(result.type == ImpactType::permanent_sliding);
  const PaperSymbols paper(H);
  const Vector3d G_c = to_paper(impulse_of(compression));
  const Vector3d v_t = to_paper(u + H * impulse_of(compression));  // v(t)
  const Vector3d G = to_paper(impulse_of(result) - impulse_of(compression));
  CHECK(std::abs(v_t.z()) <= 1e-12 * u.norm());
  // eq. 36: the cone, |Γ_t(t : t⁺)| = μ ε |Γ_z(t⁻ : t)|
  CHECK(std::hypot(G.x(), G.y()) == doctest::Approx(mu * e * std::abs(G_c.z())).epsilon(1e-13));
  // eq. 37
  const double X = paper.X, Y = paper.Y, U = paper.U, V = paper.V, W = paper.W;
  const std::array<double, 5> eq37 = {U * G.x() * G.x(), -U * G.y() * G.y(),
                                      (Y - X) * G.x() * G.y(), (e * V * G_c.z() + v_t.y()) * G.x(),
                                      -(e * W * G_c.z() + v_t.x()) * G.y()};
  double sum = 0.0, size = 0.0;
  for (const double term : eq37) sum += term, size += std::abs(term);
  CHECK(std::abs(sum) <= 1e-12 * size);
  // eq. 18b: the impulse opposes the final slip
  const Vector3d v_end = to_paper(Vector3d(result.u_post.head<3>()));
  CHECK(G.x() * v_end.x() + G.y() * v_end.y() < 0.0);
}

TEST_CASE("park: the event hypothesis of eq. 23 does not make CStick come first") {
  // Paper 001 accepts CStick when its root of eq. 21 satisfies eq. 23, u_n ≤ 0 where the slip
  // halts (s ≤ γ). Here it does (s = 13.6 < γ = 13.8 N s), yet a sliding mode reaches u_n = 0
  // much earlier, at Γ_n = 6.52 N s, and satisfies every condition of EndComp (u_n = 0, the
  // cone, friction opposite to the end slip, eqs. 17–18): u_n along the modes turns positive
  // and back. Compression ends first; the law takes the event that comes first. (Found among
  // random H with μd > 1, where it happens in ~0.3 % of halts.)
  Matrix3d H;
  H << 1.39, 0.99, 0.98, 0.99, 0.88, 0.63, 0.98, 0.63, 0.91;
  const Vector3d u(-1.21, -0.7, 1.49);
  const double mu = 1.0;
  const PaperSymbols paper(H);
  const Vector3d v = to_paper(u);
  // the paper's CStick root, smallest positive: it passes eq. 23
  const Vector2d a = -H.block<2, 2>(1, 1).inverse() * u.tail<2>();
  const Vector2d b = -H.block<2, 2>(1, 1).inverse() * H.block<2, 1>(1, 0);
  const double A = b.squaredNorm() - mu * mu, B = a.dot(b), C = a.squaredNorm();
  const double halt = C / (std::sqrt(B * B - A * C) - B);
  CHECK(halt == doctest::Approx(13.6127).epsilon(1e-5));
  CHECK(std::abs(paper.eq21(v, mu, -halt).first) <= 1e-12 * paper.eq21(v, mu, -halt).second);
  CHECK(halt <= paper.gamma(v));

  const ImpactResult result = park(H, u, {0.0, mu, mu});
  REQUIRE(result.status == ImpactStatus::solved);
  CHECK(result.type == ImpactType::permanent_sliding);
  REQUIRE(result.phases.size() == 1);
  CHECK(result.phases[0].kind == PhaseKind::slide);
  const double G_n = result.impulse[0];
  CHECK(G_n == doctest::Approx(6.5231).epsilon(1e-4));
  // an EndComp of a sliding mode, checked directly: u_n = 0, on the cone, opposing the slip
  const Vector3d u_end = u + H * impulse_of(result);
  CHECK(std::abs(u_end[0]) <= 1e-12 * u.norm());
  CHECK(result.impulse.tail<2>().norm() == doctest::Approx(mu * G_n).epsilon(1e-13));
  const Vector2d slip = u_end.tail<2>();
  CHECK(result.impulse.tail<2>().dot(slip) ==
        doctest::Approx(-mu * G_n * slip.norm()).epsilon(1e-12));
}

// =============================================================================================
// 5. Properties over random problems

TEST_CASE("property: park conserves the cone, separates the bodies and never gains energy") {
  // Random SPD H = Q diag(λ) Qᵀ with condition numbers up to 1e4 (strongly coupled), random
  // approaching u⁻ (5 % without slip), e ∈ [0, 1], μs ∈ [0, 2], μd ≤ μs or = μs (and μd > μs
  // in 10 %). For every problem: a status, never a crash; when solved:
  //   - Γ in the cone |Γ_t| ≤ max(μs, μd) Γ_n (each mode is in it, sticking within μs);
  //   - u_n⁺ ≥ 0 and Poisson's end Γ_n = (1 + e) Γ_n,c;
  //   - ΔT ≤ 0 or the energy_gain flag; ΔT = W_n + W_t (velocities are linear along each mode);
  //   - the phase trace covers [0, Γ_n] without gaps, compression first.
  // Tolerances: 1e-12 relative to the sizes of the terms summed (round-off of short sums).
  std::mt19937_64 rng(0x9a7c'0004);
  auto uniform = [&](double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  };
  int solved = 0, no_solution = 0;
  for (int i = 0; i < 5000; ++i) {
    Eigen::Matrix3d Q = Eigen::HouseholderQR<Matrix3d>(Matrix3d::Random()).householderQ();
    const Vector3d spectrum(std::pow(10.0, uniform(-4.0, 0.0)), std::pow(10.0, uniform(-1.0, 1.0)),
                            1.0);
    Matrix3d H = std::pow(10.0, uniform(-2.0, 2.0)) * Q * spectrum.asDiagonal() * Q.transpose();
    H = (0.5 * (H + H.transpose())).eval();
    Vector3d u(-std::pow(10.0, uniform(-2.0, 1.0)), uniform(-3.0, 3.0), uniform(-3.0, 3.0));
    if (uniform(0.0, 1.0) < 0.05) u.tail<2>().setZero();
    const double mu_s = uniform(0.0, 2.0);
    const double pick = uniform(0.0, 1.0);
    const double mu_d = pick < 0.3 ? mu_s : (pick < 0.9 ? uniform(0.0, mu_s) : uniform(mu_s, 2.0));
    const ContactParameters p{uniform(0.0, 1.0), mu_s, mu_d};
    const ImpactResult result = park(H, u, p);
    CAPTURE(i);
    CAPTURE(H);
    CAPTURE(u.transpose());
    CAPTURE(p.restitution);
    CAPTURE(mu_s);
    CAPTURE(mu_d);
    if (result.status == ImpactStatus::no_solution) {
      ++no_solution;
      continue;
    }
    REQUIRE(result.status == ImpactStatus::solved);
    ++solved;
    const double G_n = result.impulse[0];
    const double G_size = impulse_of(result).norm();
    const double velocity_size = u.norm() + H.norm() * G_size;
    CHECK(G_n > 0.0);
    CHECK(result.impulse.tail<2>().norm() <= std::max(mu_s, mu_d) * G_n + 1e-12 * G_size);
    CHECK(result.u_post[0] >= -1e-12 * velocity_size);
    const double energy_size = G_size * velocity_size;
    if (!result.flags.has(routh::ImpactFlag::energy_gain)) {
      CHECK(result.delta_T <= 1e-12 * energy_size);
    }
    CHECK(result.delta_T == doctest::Approx(result.normal_work + result.tangential_work)
                                .scale(energy_size)
                                .epsilon(1e-12));
    REQUIRE_FALSE(result.phases.empty());
    double reached = 0.0, compression_end = 0.0;
    bool restitution_started = false;
    for (const routh::Phase& phase : result.phases) {
      CHECK(phase.normal_impulse_from == doctest::Approx(reached).scale(G_size).epsilon(1e-12));
      CHECK(phase.normal_impulse_to > phase.normal_impulse_from);
      reached = phase.normal_impulse_to;
      if (phase.stage == Stage::compression) {
        CHECK_FALSE(restitution_started);
        compression_end = reached;
      } else {
        restitution_started = true;
      }
    }
    CHECK(reached == doctest::Approx(G_n).epsilon(1e-12));
    CHECK(G_n == doctest::Approx((1.0 + p.restitution) * compression_end).epsilon(1e-12));
  }
  // no_solution: a restitution mode whose friction presses the bodies together (strongly
  // coupled H, μd near 1 and above): rare
  CHECK(no_solution <= solved / 200);
  CHECK(solved > 4900);
}

TEST_CASE("property: park is unchanged by turning the tangent frame") {
  // Coulomb's cone is isotropic: turning t1, t2 by α (H → R H Rᵀ, u → R u) turns Γ by R.
  std::mt19937_64 rng(0x9a7c'0005);
  auto uniform = [&](double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  };
  for (int i = 0; i < 1000; ++i) {
    const Matrix3d A = Matrix3d::Random();
    const Matrix3d H = A * A.transpose() + 0.05 * Matrix3d::Identity();
    const Vector3d u(-uniform(0.1, 3.0), uniform(-3.0, 3.0), uniform(-3.0, 3.0));
    const double mu_s = uniform(0.0, 1.5);
    const ContactParameters p{uniform(0.0, 1.0), mu_s, uniform(0.0, mu_s)};
    Matrix3d R = Matrix3d::Identity();
    R.block<2, 2>(1, 1) =
        Eigen::Rotation2Dd(uniform(0.0, 2.0 * std::numbers::pi)).toRotationMatrix();
    const ImpactResult original = park(H, u, p);
    const ImpactResult turned = park(R * H * R.transpose(), R * u, p);
    CAPTURE(i);
    REQUIRE(original.status == ImpactStatus::solved);
    REQUIRE(turned.status == ImpactStatus::solved);
    CHECK((impulse_of(turned) - R * impulse_of(original)).norm() <=
          1e-9 * impulse_of(original).norm());
    CHECK(turned.type == original.type);
  }
}

// =============================================================================================
// 6. Statuses

TEST_CASE("park: statuses instead of crashes") {
  const ContactParameters p{0.5, 0.5, 0.5};
  SUBCASE("a planar problem is beyond a spatial law") {
    CHECK(routh::solve_park(routh::planar_impact_problem(2.5, 2.5, -1.5, -1.0, 0.6, p)).status ==
          ImpactStatus::unsupported);
  }
  SUBCASE("two contacts are beyond a single-contact law") {
    routh::ImpactProblem problem;
    problem.dimension = routh::ContactDimension::spatial;
    problem.D = routh::ContactMatrix::Identity(6, 6);
    problem.u_pre = routh::ContactVector::Constant(6, -1.0);
    problem.contacts.assign(2, p);
    CHECK(routh::solve_park(problem).status == ImpactStatus::unsupported);
  }
  SUBCASE("H not positive definite, or not finite") {
    Matrix3d H = paper001_H();
    H(0, 1) = H(1, 0) = 7.0;  // 5·8 < 49
    CHECK(park(H, paper001_u(10.0, 0.0), p).status == ImpactStatus::invalid_problem);
    CHECK(park(paper001_H(), Vector3d(-1.0, std::nan(""), 0.0), p).status ==
          ImpactStatus::invalid_problem);
  }
  SUBCASE("not approaching: no impact, nothing changes") {
    const ImpactResult result = park(paper001_H(), Vector3d(0.0, 10.0, 0.0), p);
    CHECK(result.status == ImpactStatus::no_impact);
    CHECK(result.impulse.isZero());
  }
  SUBCASE("a restitution mode that presses the bodies together") {
    // Strongly coupled H, μd = 1.35: compression ends while sliding at Γ_n = 0.34 N s, but the
    // restitution mode's friction drives u_n down (H_nn − μd H_nt·ĝ < 0), so Poisson's end
    // would leave the bodies approaching. The paper's equations have no admissible answer.
    Matrix3d H;
    H << 1.9398046922374381, 1.308153264655846, 3.6877524142008107, 1.308153264655846,
        1.924243420201371, 2.4035418406390261, 3.6877524142008107, 2.4035418406390261,
        7.1609211535274504;
    const ImpactResult result =
        park(H, Vector3d(-0.83230394067018143, -1.4117927726581361, -1.4323029246374923),
             {0.867, 1.35221777915624, 1.35221777915624});
    CHECK(result.status == ImpactStatus::no_solution);
  }
}
