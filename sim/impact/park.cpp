#include "sim/impact/park.hpp"
#include "sim/impact/law_guard.hpp"

#include <Eigen/Core>
#include <Eigen/LU>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

#include "sim/impact/routh_incremental.hpp"
#include "sim/impact/spatial_contact.hpp"

namespace routh {

namespace {

using Eigen::Matrix2d;
using Eigen::Vector2d;
using Eigen::Vector3d;

// A mode's end slip may oppose its friction direction by this fraction of the slip's size and
// still count as opposing it (eq. 18b): round-off in a root that is exact in exact arithmetic.
constexpr double kAdmissibleSlip = 1e-9;
// Relative size of round-off in a short sum of products (a discriminant, a determinant).
constexpr double kRoundOff = 1e-12;
// Newton's method on a root of a polynomial in t = tan(ψ/2) ∈ [−1, 1] stops at this step size:
// a few ulps of t, so the angle is exact to round-off.
constexpr double kRootStep = 4.0 * std::numeric_limits<double>::epsilon();

// ---------------------------------------------------------------------------------------------
// The contact's inertia, split as paper 001 eq. 2 does (normal and tangential blocks).

struct ContactInertia {
  double normal = 0.0;                             ///< H_nn [1/kg] (paper Z)
  Vector2d coupling = Vector2d::Zero();            ///< H_tn [1/kg] (paper −(W, V))
  Matrix2d tangential = Matrix2d::Zero();          ///< H_tt [1/kg] (paper [[X, U], [U, Y]])
  Matrix2d tangential_inverse = Matrix2d::Zero();  ///< H_tt⁻¹ [kg]
  Vector2d stick_slope = Vector2d::Zero();         ///< b = −H_tt⁻¹ H_tn = dΓ_t/dΓ_n sticking
  double stick_normal_rate = 0.0;                  ///< du_n/dΓ_n sticking [1/kg] (paper D/D33)
  double critical_friction_squared = 0.0;          ///< λ = |b|² (paper 001 eq. 22)
};

ContactInertia contact_inertia(const Eigen::Matrix3d& H) {
  ContactInertia inertia;
  inertia.normal = H(0, 0);
  inertia.coupling = H.block<2, 1>(1, 0);
  inertia.tangential = H.block<2, 2>(1, 1);
  inertia.tangential_inverse = inertia.tangential.inverse();
  inertia.stick_slope = -(inertia.tangential_inverse * inertia.coupling);
  // the Schur complement H_nn − H_ntᵀ H_tt⁻¹ H_tn = det H / det H_tt > 0 (paper 001 eq. 20)
  inertia.stick_normal_rate = inertia.normal + inertia.coupling.dot(inertia.stick_slope);
  inertia.critical_friction_squared = inertia.stick_slope.squaredNorm();
  return inertia;
}

/// Sticking, once reached, persists iff the line of sticking lies in the static cone, λ ≤ μs²
/// (paper 001 eq. 25; Mirtich's Thm. 9). With μd > μs no slip direction would be consistent
/// either, so, as in the planar laws, either coefficient holds it.
bool stick_is_stable(const ContactInertia& inertia, const ContactParameters& parameters) {
  const double mu = std::max(parameters.static_friction, parameters.kinetic_friction);
  return inertia.critical_friction_squared <= mu * mu;
}

// ---------------------------------------------------------------------------------------------
// Slip halts: the line of sticking (paper 001 §3.2.1). A mode that starts with slip u_t stops
// it after the normal impulse s with Γ_t = a + b s, a = −H_tt⁻¹ u_t (eq. 19a).

/// Normal impulse after which a sliding mode starting with slip u_t ≠ 0 halts it (CStick, EStick),
/// or ∞: the smallest positive root of |a + b s|² = μd² s² (paper 001 eq. 21 divided by −D33²:
/// (λ − μd²) s² + 2 a·b s + |a|² = 0).
///
/// Why the smallest positive root: a mode ending at s has a unique impulse (see park.hpp); it
/// stops the slip iff a + b s lies in the cone, and the cone meets the line of sticking in one
/// interval of s. The slip first halts where the line enters it, the smallest root. (The larger
/// root, when λ > μd², is where the line would leave the cone again; the other sign of the
/// square root on a planar problem would be friction pushing along the slip.)
double impulse_to_slip_halt(const ContactInertia& inertia, const Vector2d& u_t, double mu) {
  const Vector2d a = -(inertia.tangential_inverse * u_t);
  const double quadratic = inertia.critical_friction_squared - mu * mu;
  const double half_linear = a.dot(inertia.stick_slope);
  const double constant = a.squaredNorm();
  if (constant == 0.0) return 0.0;
  double discriminant = half_linear * half_linear - quadratic * constant;
  // A line that touches the cone (Δ = 0 in exact arithmetic: without friction, the line of
  // sticking through the normal axis of a planar problem) may come out with Δ of round-off size
  // and either sign.
  if (std::abs(discriminant) <=
      kRoundOff * (half_linear * half_linear + std::abs(quadratic * constant))) {
    discriminant = 0.0;
  }
  if (discriminant < 0.0) return kNeverInImpulse;  // the line misses the cone
  const double root = std::sqrt(discriminant);
  // Roots (−B ± √Δ)/A = C/(−B ∓ √Δ); each form below adds numbers of one sign (no cancellation).
  if (half_linear <= 0.0) return constant / (root - half_linear);  // smaller root (A > 0, A = 0)
  if (quadratic < 0.0) return (-half_linear - root) / quadratic;   // the one positive root
  return kNeverInImpulse;  // both roots negative: the line leaves the cone behind it
}

/// Normal impulse after which u_n reaches 0 along the line of sticking from (u_n, u_t): γ of
/// paper 001 eq. 24 (and eq. 28: a persistent stick ends compression there). u_n along the line
/// is u_n + H_nt·a + (det H / det H_tt) s (eq. 20).
double sticking_impulse_to_compression_end(const ContactInertia& inertia, double u_n,
                                           const Vector2d& u_t) {
  const Vector2d a = -(inertia.tangential_inverse * u_t);
  return -(u_n + inertia.coupling.dot(a)) / inertia.stick_normal_rate;
}

// ---------------------------------------------------------------------------------------------
// Sliding modes that end at EndComp or EndExp: paper 001's pairs of conics (eqs. 33 and 35 at
// the end of compression; eqs. 36 and 37 at the end of the impact). Writing the mode's friction
// impulse as Γ_t = −μd s ĝ with ĝ = (cos φ, sin φ) satisfies the cone equation (33, 36) at
// once; the direction equation (35, 37), ĝ × u_t(end) = 0, becomes
//     F(φ) = ĝ × (p + N ĝ) = k0 + k1 cos φ + l1 sin φ + k2 cos 2φ + l2 sin 2φ = 0,
// a trigonometric polynomial of degree 2 (the two conics meet in at most four points).

struct DirectionEquation {
  double k0, k1, l1, k2, l2;
};

/// F(φ) = ĝ × (p + N ĝ): ĝ × p = p₂ cos φ − p₁ sin φ and
/// ĝ × N ĝ = N₂₁ cos²φ + (N₂₂ − N₁₁) cos φ sin φ − N₁₂ sin²φ.
DirectionEquation direction_equation(const Vector2d& p, const Matrix2d& N) {
  return {0.5 * (N(1, 0) - N(0, 1)), p.y(), -p.x(), 0.5 * (N(1, 0) + N(0, 1)),
          0.5 * (N(1, 1) - N(0, 0))};
}

// Polynomials of low degree, coefficients in ascending powers.
template <int Degree>
using Polynomial = std::array<double, Degree + 1>;

template <int Degree>
double evaluate(const Polynomial<Degree>& p, double x) {
  double value = p[Degree];
  for (int k = Degree - 1; k >= 0; --k) value = value * x + p[k];
  return value;
}

template <int Degree>
Polynomial<Degree - 1> derivative(const Polynomial<Degree>& p) {
  Polynomial<Degree - 1> d{};
  for (int k = 1; k <= Degree; ++k) d[k - 1] = k * p[k];
  return d;
}

/// The root of p in [lo, hi], given that p(lo) and p(hi) have opposite signs: Newton's method
/// from the secant's root, kept inside the shrinking bracket, bisecting whenever Newton would
/// leave it.
template <int Degree>
double bracketed_root(const Polynomial<Degree>& p, double lo, double hi, double p_lo, double p_hi) {
  const Polynomial<Degree - 1> slope = derivative<Degree>(p);
  double x = lo - p_lo * (hi - lo) / (p_hi - p_lo);
  if (!(x > lo && x < hi)) x = 0.5 * (lo + hi);
  for (int iteration = 0; iteration < 100; ++iteration) {
    const double value = evaluate<Degree>(p, x);
    if (value == 0.0) return x;
    if ((value < 0.0) == (p_lo < 0.0)) {
      lo = x;
      p_lo = value;
    } else {
      hi = x;
    }
    double next = x - value / evaluate<Degree - 1>(slope, x);
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);  // also catches a zero slope
    if (std::abs(next - x) <= kRootStep) return next;
    x = next;
  }
  return x;
}

/// The real roots of p in [lo, hi], ascending; returns how many. Between consecutive roots of
/// p' the polynomial is monotone, so each such piece holds at most one root, bracketed by the
/// signs at its ends (recursion on the degree; no companion matrix, no allocation).
template <int Degree>
int real_roots(const Polynomial<Degree>& p, double lo, double hi,
               std::array<double, Degree>& roots) {
  if constexpr (Degree == 1) {
    if (p[1] == 0.0) return 0;
    const double root = -p[0] / p[1];
    roots[0] = root;
    return root >= lo && root <= hi ? 1 : 0;
  } else if constexpr (Degree == 2) {  // closed form, in the form without cancellation
    if (p[2] == 0.0) {
      std::array<double, 1> root{};
      const int count = real_roots<1>(Polynomial<1>{p[0], p[1]}, lo, hi, root);
      roots[0] = root[0];
      return count;
    }
    const double discriminant = p[1] * p[1] - 4.0 * p[2] * p[0];
    if (discriminant < 0.0) return 0;
    const double q = -0.5 * (p[1] + std::copysign(std::sqrt(discriminant), p[1]));
    std::array<double, 2> candidates = {q / p[2], q != 0.0 ? p[0] / q : q / p[2]};
    if (candidates[1] < candidates[0]) std::swap(candidates[0], candidates[1]);
    int count = 0;
    for (const double root : candidates) {
      if (root >= lo && root <= hi && (count == 0 || roots[count - 1] != root)) {
        roots[count++] = root;
      }
    }
    return count;
  } else {
    std::array<double, Degree - 1> critical{};
    const int critical_count = real_roots<Degree - 1>(derivative<Degree>(p), lo, hi, critical);
    int count = 0;
    auto add = [&](double root) {
      if (count < Degree && (count == 0 || roots[count - 1] != root)) roots[count++] = root;
    };
    double x0 = lo;
    double p0 = evaluate<Degree>(p, lo);
    for (int piece = 0; piece <= critical_count; ++piece) {
      const double x1 = piece < critical_count ? critical[piece] : hi;
      const double p1 = evaluate<Degree>(p, x1);
      if (p0 == 0.0) {
        add(x0);
      } else if (p1 != 0.0 && (p0 < 0.0) != (p1 < 0.0)) {
        add(bracketed_root<Degree>(p, x0, x1, p0, p1));
      }
      x0 = x1;
      p0 = p1;
    }
    if (p0 == 0.0) add(x0);
    return count;
  }
}

/// The roots of F in the half circle of directions within 90° of the unit vector `center`, as
/// unit vectors ĝ. With ĝ = center rotated by ψ and t = tan(ψ/2) ∈ [−1, 1], (1 + t²)² F is a
/// quartic in t; ĝ follows from t rationally, without trigonometric functions.
int roots_in_half_circle(const DirectionEquation& F, const Vector2d& center,
                         std::array<Vector2d, 4>& directions) {
  // F(center + ψ) = k0 + A1 cos ψ + B1 sin ψ + A2 cos 2ψ + B2 sin 2ψ
  const double c1 = center.x(), s1 = center.y();
  const double c2 = c1 * c1 - s1 * s1, s2 = 2.0 * c1 * s1;
  const double A1 = F.k1 * c1 + F.l1 * s1, B1 = F.l1 * c1 - F.k1 * s1;
  const double A2 = F.k2 * c2 + F.l2 * s2, B2 = F.l2 * c2 - F.k2 * s2;
  // cos ψ = (1 − t²)/(1 + t²), sin ψ = 2t/(1 + t²),
  // cos 2ψ = (1 − 6t² + t⁴)/(1 + t²)², sin 2ψ = 4t(1 − t²)/(1 + t²)²
  const Polynomial<4> quartic = {F.k0 + A1 + A2, 2.0 * B1 + 4.0 * B2, 2.0 * F.k0 - 6.0 * A2,
                                 2.0 * B1 - 4.0 * B2, F.k0 - A1 + A2};
  std::array<double, 4> ts{};
  const int count = real_roots<4>(quartic, -1.0, 1.0, ts);
  for (int i = 0; i < count; ++i) {
    const double t = ts[i];
    const Vector2d rotation(1.0 - t * t, 2.0 * t);  // (cos ψ, sin ψ) (1 + t²)
    directions[i] =
        Vector2d(c1 * rotation.x() - s1 * rotation.y(), s1 * rotation.x() + c1 * rotation.y()) /
        (1.0 + t * t);
  }
  return count;
}

/// A unit vector along v, or along t1 when v = 0.
Vector2d unit_or_first_axis(const Vector2d& v) {
  const double size = v.norm();
  return size > 0.0 ? Vector2d(v / size) : Vector2d::UnitX();
}

/// A sliding mode's straight impulse: Γ_t = −μd s ĝ, over the normal impulse s.
struct SlidingMode {
  bool found = false;
  Vector2d slip_direction = Vector2d::Zero();  ///< ĝ: the slip's direction at the mode's end
  double normal_impulse = 0.0;                 ///< s [N s]
};

/// Slip at the end of a sliding mode from slip u_t: u_t + s (H_tn − μd H_tt ĝ) (eqs. 31a–b).
Vector2d slip_after(const ContactInertia& inertia, const Vector2d& u_t, double s, double mu,
                    const Vector2d& g) {
  return u_t + s * (inertia.coupling - mu * (inertia.tangential * g));
}

/// The sliding mode from (u_n < 0, u_t) to the end of compression (EndComp of CSlide and
/// CRSlide; paper 001 eqs. 31–35). For a direction ĝ, u_n = 0 fixes s = −u_n / ν with
/// ν = H_nn − μd H_nt·ĝ (eq. 32); the direction equation (35) times ν > 0 is
/// F = ĝ × (ν u_t − u_n (H_tn − μd H_tt ĝ)), i.e. p = H_nn u_t − u_n H_tn and
/// N = μd u_n H_tt − μd u_t H_ntᵀ.
///
/// Root choice: a root is admissible when ν > 0 (the mode separates the bodies, s > 0) and the
/// end slip does not point along ĝ's opposite, ĝ·u_t(end) ≥ 0 (eq. 18b: the friction impulse
/// opposes the end slip; the other roots of eqs. 33 and 35 have friction pushing the slip, or
/// lie on the cone's other nappe, s < 0). Each admissible root is the unique mode impulse at its
/// s (park.hpp), so they are the zeros of u_n along the one family of mode impulses; compression
/// ends at the first, the smallest s. Not found: no sliding mode ends compression.
SlidingMode slide_to_compression_end(const ContactInertia& inertia, double u_n, const Vector2d& u_t,
                                     double mu) {
  const Vector2d p = inertia.normal * u_t - u_n * inertia.coupling;
  const Matrix2d N = mu * u_n * inertia.tangential - mu * u_t * inertia.coupling.transpose();
  const DirectionEquation F = direction_equation(p, N);
  const Vector2d center = unit_or_first_axis(p);
  SlidingMode best;
  for (const Vector2d& half : {center, Vector2d(-center)}) {
    std::array<Vector2d, 4> directions{};
    const int count = roots_in_half_circle(F, half, directions);
    for (int i = 0; i < count; ++i) {
      const Vector2d& g = directions[i];
      const double nu = inertia.normal - mu * inertia.coupling.dot(g);
      if (!(nu > 0.0)) continue;
      const double s = -u_n / nu;
      const Vector2d slip = slip_after(inertia, u_t, s, mu, g);
      const double size =
          u_t.norm() + s * (inertia.coupling.norm() + mu * inertia.tangential.norm());
      if (g.dot(slip) < -kAdmissibleSlip * size) continue;
      if (!best.found || s < best.normal_impulse) best = {true, g, s};
    }
  }
  return best;
}

/// The sliding mode over a given normal impulse s from slip u_t (ESlide to EndExp, eqs. 36–37;
/// the direction of resumed slip): F = ĝ × (w − μd s H_tt ĝ), w = u_t + s H_tn.
///
/// Root choice: this is the convex problem of park.hpp at fixed s, so exactly one root has
/// ĝ·u_t(end) ≥ 0 when its unconstrained minimum lies outside the cone (the caller has ruled
/// out a halt): take the root that best satisfies eq. 18b, the largest ĝ·u_t(end). That root
/// has ĝ·w ≥ μd s ĝᵀH_tt ĝ > 0, so it lies in the half circle around w.
SlidingMode slide_over(const ContactInertia& inertia, const Vector2d& u_t, double s, double mu) {
  const Vector2d w = u_t + s * inertia.coupling;
  const DirectionEquation F = direction_equation(w, -mu * s * inertia.tangential);
  std::array<Vector2d, 4> directions{};
  const int count = roots_in_half_circle(F, unit_or_first_axis(w), directions);
  SlidingMode best;
  double best_alignment = 0.0;
  for (int i = 0; i < count; ++i) {
    const Vector2d& g = directions[i];
    const double alignment = g.dot(slip_after(inertia, u_t, s, mu, g));
    if (!best.found || alignment > best_alignment) {
      best = {true, g, s};
      best_alignment = alignment;
    }
  }
  const double size = w.norm() + mu * s * inertia.tangential.norm();
  if (best.found && best_alignment < -kAdmissibleSlip * size) best.found = false;
  return best;
}

/// The direction slip resumes in after a halt where sticking cannot hold (CRSlide, ERSlide):
/// the mode from zero slip, ĝ with H_tn − μd H_tt ĝ = κ ĝ, κ > 0 (eqs. 33 and 35 with
/// v(τ) tangential zero). The slip then grows along ĝ at the constant rate κ, so the sliding
/// flow (eq. 7) follows the same straight line: here the mode method is exact.
SlidingMode resumed_slip(const ContactInertia& inertia, double mu) {
  return slide_over(inertia, Vector2d::Zero(), 1.0, mu);
}

// ---------------------------------------------------------------------------------------------
// Following the impact.

/// Where the impact stands: impulses so far and the velocities they left (paper 001 eq. 1).
struct ImpactProgress {
  Vector3d impulse = Vector3d::Zero();  ///< Γ(t⁻ : τ) [N s]
  double u_n = 0.0;                     ///< [m/s]
  Vector2d u_t = Vector2d::Zero();      ///< [m/s]
  double normal_work = 0.0;             ///< ∫ u_n dΓ_n [J]
  double tangential_work = 0.0;         ///< ∫ u_t·dΓ_t [J]
  Stage stage = Stage::compression;
  double compression_impulse = 0.0;  ///< Γ_n(t⁻ : t) [N s]
  double compression_work = 0.0;     ///< W_n up to the end of compression [J]
};

/// Moves `state` by one mode's straight impulse (s, Γ_t) and records the phase. Velocities are
/// linear along a straight impulse, so the works are exact with the mean velocities.
void advance(const ContactInertia& inertia, double s, const Vector2d& tangential_impulse,
             PhaseKind kind, ImpactProgress& state, PhaseTrace& phases) {
  if (!(s > 0.0)) return;
  const double normal_from = state.impulse[0];
  const double du_n = inertia.normal * s + inertia.coupling.dot(tangential_impulse);
  const Vector2d du_t = inertia.coupling * s + inertia.tangential * tangential_impulse;
  state.normal_work += s * (state.u_n + 0.5 * du_n);
  state.tangential_work += tangential_impulse.dot(state.u_t + 0.5 * du_t);
  state.impulse += Vector3d(s, tangential_impulse.x(), tangential_impulse.y());
  state.u_n += du_n;
  state.u_t += du_t;
  phases.push_back(Phase{kind, state.stage, normal_from, state.impulse[0], 0});
}

/// A sliding mode's straight impulse over s in direction ĝ.
void advance_sliding(const ContactInertia& inertia, double mu, const SlidingMode& mode,
                     PhaseKind kind, ImpactProgress& state, PhaseTrace& phases) {
  advance(inertia, mode.normal_impulse, -mu * mode.normal_impulse * mode.slip_direction, kind,
          state, phases);
}

/// A sliding mode that ends where its slip halts, s ahead (CStick, EStick: Γ_t = a + b s).
void advance_to_slip_halt(const ContactInertia& inertia, double s, ImpactProgress& state,
                          PhaseTrace& phases) {
  const Vector2d a = -(inertia.tangential_inverse * state.u_t);
  advance(inertia, s, a + inertia.stick_slope * s, PhaseKind::slide, state, phases);
  state.u_t.setZero();  // exactly, by eq. 19a
}

/// Compression has ended (EndComp): u_n = 0 exactly, Γ_n,c and W_nc are recorded.
void enter_restitution(ImpactProgress& state) {
  state.u_n = 0.0;
  state.stage = Stage::restitution;
  state.compression_impulse = state.impulse[0];
  state.compression_work = state.normal_work;
}

/// When the slip halted.
enum class Halt { never, at_start, in_compression, in_restitution };

/// What the contact does once its slip has halted, or while it has not.
enum class Motion { sliding, sticking, resumed_sliding };

/// The impact so far and the mode it is in.
struct ModeEvolution {
  ImpactProgress state;
  Halt halt = Halt::never;
  Motion motion = Motion::sliding;
  SlidingMode resumed;  ///< the resumed slip's direction, once a halt needs it

  PhaseKind resumed_kind() const {
    return halt == Halt::at_start ? PhaseKind::slide : PhaseKind::reverse_slide;
  }
};

/// After a halt: sticking persists (PCStick, PEStick) or slip resumes (CRSlide, ERSlide).
void start_after_halt(const ContactInertia& inertia, bool sticking_holds, double mu, Halt halt,
                      ModeEvolution& evolution) {
  evolution.halt = halt;
  evolution.motion = sticking_holds ? Motion::sticking : Motion::resumed_sliding;
  if (!sticking_holds) evolution.resumed = resumed_slip(inertia, mu);
}

/// Compression (the upper half of paper 001 Fig. 1): CSlide until CStick or EndComp, whichever
/// comes first; after CStick (or without initial slip), PCStick or CRSlide until EndComp.
/// Returns false when no mode ends compression.
bool follow_compression(const ContactInertia& inertia, bool sticking_holds, double mu,
                        ModeEvolution& evolution, PhaseTrace& phases) {
  ImpactProgress& state = evolution.state;
  if (state.u_t.isZero()) {
    start_after_halt(inertia, sticking_holds, mu, Halt::at_start, evolution);
  } else {
    const double to_halt = impulse_to_slip_halt(inertia, state.u_t, mu);
    const double to_end_stuck = sticking_impulse_to_compression_end(inertia, state.u_n, state.u_t);
    const SlidingMode sliding_end = slide_to_compression_end(inertia, state.u_n, state.u_t, mu);
    // CStick needs eq. 23, u_n ≤ 0 where the slip halts (s ≤ γ). That is necessary but not
    // sufficient: u_n along the family of mode impulses can reach 0 earlier and turn negative
    // again (random H with μd > 1; tests/test_park.cpp). Compression then ends first.
    const bool halts_first =
        no_later_than(to_halt, to_end_stuck, 0.0) &&
        (!sliding_end.found || no_later_than(to_halt, sliding_end.normal_impulse, 0.0));
    if (!halts_first) {                      // CSlide to EndComp (eqs. 31–35 from t⁻)
      if (!sliding_end.found) return false;  // no sliding mode separates the bodies
      advance_sliding(inertia, mu, sliding_end, PhaseKind::slide, state, phases);
      enter_restitution(state);
      return true;
    }
    advance_to_slip_halt(inertia, to_halt, state, phases);           // CStick (eqs. 19–24)
    if (no_later_than(to_end_stuck, to_halt, 0.0)) state.u_n = 0.0;  // halt at EndComp
    start_after_halt(inertia, sticking_holds, mu, Halt::in_compression, evolution);
  }
  if (evolution.motion == Motion::sticking) {  // PCStick: EndComp at γ (eqs. 26–28)
    const double s = -state.u_n / inertia.stick_normal_rate;
    advance(inertia, s, inertia.stick_slope * s, PhaseKind::stick, state, phases);
  } else {  // CRSlide: EndComp with the resumed slip (eqs. 31–35 from τ, zero slip)
    if (!evolution.resumed.found) return false;
    const double nu = inertia.normal - mu * inertia.coupling.dot(evolution.resumed.slip_direction);
    if (!(nu > 0.0)) return false;  // the resumed slip presses the bodies together
    const SlidingMode mode{true, evolution.resumed.slip_direction, -state.u_n / nu};
    advance_sliding(inertia, mu, mode, evolution.resumed_kind(), state, phases);
  }
  enter_restitution(state);
  return true;
}

/// Restitution (the lower half of paper 001 Fig. 1) up to Poisson's end, the normal impulse
/// Γ_n(t : t⁺) = e Γ_n(t⁻ : t) (paper 001 §2.1, §3.2.3): ESlide until EStick or EndExp, then
/// PEStick or ERSlide; a stick or resumed slip from compression continues to EndExp. Returns
/// false when no mode gets there.
bool follow_restitution(const ContactInertia& inertia, bool sticking_holds, double mu, double e,
                        ModeEvolution& evolution, PhaseTrace& phases) {
  ImpactProgress& state = evolution.state;
  double remaining = e * state.compression_impulse;
  if (!(remaining > 0.0)) return true;
  if (evolution.motion == Motion::sliding) {
    const double to_halt = impulse_to_slip_halt(inertia, state.u_t, mu);  // eq. 21 from t
    if (!no_later_than(to_halt, remaining, state.compression_impulse)) {  // ESlide to EndExp
      const SlidingMode mode = slide_over(inertia, state.u_t, remaining, mu);
      if (!mode.found) return false;
      advance_sliding(inertia, mu, mode, PhaseKind::slide, state, phases);
      return true;
    }
    // EStick; a halt at the very end leaves no later mode, only a slip of exactly zero
    if (no_later_than(remaining, to_halt, state.compression_impulse)) {
      advance_to_slip_halt(inertia, remaining, state, phases);
      return true;
    }
    advance_to_slip_halt(inertia, to_halt, state, phases);
    remaining -= to_halt;
    start_after_halt(inertia, sticking_holds, mu, Halt::in_restitution, evolution);
  }
  if (evolution.motion == Motion::sticking) {  // PCStick or PEStick to EndExp (eqs. 29–30)
    advance(inertia, remaining, inertia.stick_slope * remaining, PhaseKind::stick, state, phases);
    return true;
  }
  if (!evolution.resumed.found) return false;  // CRSlide or ERSlide to EndExp
  advance_sliding(inertia, mu, SlidingMode{true, evolution.resumed.slip_direction, remaining},
                  evolution.resumed_kind(), state, phases);
  return true;
}

ImpactType impact_type(Halt halt, bool sticking_holds) {
  switch (halt) {
    case Halt::never: return ImpactType::permanent_sliding;
    case Halt::at_start:
      return sticking_holds ? ImpactType::sticking_throughout : ImpactType::permanent_sliding;
    case Halt::in_compression:
      return sticking_holds ? ImpactType::sticking_in_compression
                            : ImpactType::reverse_sliding_in_compression;
    case Halt::in_restitution:
      return sticking_holds ? ImpactType::sticking_in_restitution
                            : ImpactType::reverse_sliding_in_restitution;
  }
  return ImpactType::none;
}

/// The law proper; solve_park passes its answer through the guard (law_guard.hpp).
ImpactResult park_impact(const ImpactProblem& problem) {
  ImpactResult result;
  SpatialContact contact;
  if (!read_spatial_contact(problem, contact, result)) return result;
  const ContactInertia inertia = contact_inertia(contact.H);
  const double mu = contact.parameters.kinetic_friction;
  const bool sticking_holds = stick_is_stable(inertia, contact.parameters);
  ModeEvolution evolution;
  evolution.state.u_n = contact.u_n;
  evolution.state.u_t = contact.u_t;
  const ImpactProgress& state = evolution.state;
  // Poisson's end must also leave the bodies separating: a restitution mode whose friction
  // presses them together (H_nn − μd H_nt·ĝ < 0) ends with u_n < 0, no answer of this law.
  const auto separates = [&] {
    const double velocity_scale =
        std::abs(contact.u_n) + contact.u_t.norm() + contact.H.norm() * state.impulse.norm();
    return state.u_n >= -kRoundOff * velocity_scale;
  };
  if (!follow_compression(inertia, sticking_holds, mu, evolution, result.phases) ||
      !follow_restitution(inertia, sticking_holds, mu, contact.parameters.restitution, evolution,
                          result.phases) ||
      !separates()) {
    result.status = ImpactStatus::no_solution;
    return result;
  }
  result.type = impact_type(evolution.halt, sticking_holds);
  SpatialImpactEnd end;
  end.impulse = state.impulse;
  end.normal_work = state.normal_work;
  end.tangential_work = state.tangential_work;
  end.compression_work = state.compression_work;
  finish_spatial_result(contact, end, result);
  return result;
}

}  // namespace

ImpactResult solve_park(const ImpactProblem& problem) {
  return guarded_law([&] { return park_impact(problem); });
}

}  // namespace routh
