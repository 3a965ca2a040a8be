#pragma once
// Housner's rocking block in closed form, for the simulator tests: the exact time between
// impacts (energy-integral quadrature), the accumulation time of a plastic free rocking, and the
// friction a sticking pivot needs. Everything here is computed from b, h and g only, never from
// routh's own output.
//
// Source: Housner (1963), "The behavior of inverted pendulum structures during earthquakes",
// Bull. Seismol. Soc. Am. 53(2). A rectangular block of half-width b and half-height h rocking
// about a corner: R = √(b² + h²) from the corner to the centre, α = atan(b/h), I_O = (4/3) m R²,
// and p² = m g R / I_O = 3g / (4R). With θ the tilt (0 upright on both corners), the centre is
// at height R cos(α − θ), so energy conservation between impacts reads
//     ½ I_O θ̇² = m g R (cos(α − θ₀) − cos(α − θ))   ⇒   θ̇² = 2p² (cos(α − θ₀) − cos(α − θ)),
// θ₀ the amplitude (the tilt where θ̇ = 0).

#include <algorithm>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <cmath>
#include <limits>
#include <numbers>

namespace routh::test {

struct HousnerBlock {
  double b, h;      // [m]
  double g = 9.81;  // [m/s²], as the models use
  double R() const { return std::hypot(b, h); }
  double alpha() const { return std::atan(b / h); }
  double p() const { return std::sqrt(3.0 * g / (4.0 * R())); }  // [1/s]

  // The spin |θ̇| [rad/s] at θ = 0 of a rocking with amplitude θ₀:
  // θ̇² = 2p² (cos(α − θ₀) − cos α) = 4p² sin(α − θ₀/2) sin(θ₀/2), without cancellation.
  double spin_at_impact(double theta0) const {
    return 2.0 * p() * std::sqrt(std::sin(alpha() - 0.5 * theta0) * std::sin(0.5 * theta0));
  }

  // The amplitude reached from θ = 0 with spin ω [rad/s]: cos(α − θ₀) − cos α = ω²/(2p²), i.e.
  // 2 sin(α − θ₀/2) sin(θ₀/2) = δ = ω²/(2p²). The acos form loses the small amplitudes to
  // cancellation (θ₀ ~ δ / sin α), so it only starts the fixed point
  // θ₀ = 2 asin(δ / (2 sin(α − θ₀/2))), which contracts by about θ₀ cot(α)/2 per pass.
  double amplitude_after(double spin) const {
    const double a = alpha(), delta = spin * spin / (2.0 * p() * p());
    double theta0 = a - std::acos(std::min(1.0, std::cos(a) + delta));
    for (int pass = 0; pass < 60; ++pass) {
      const double next = 2.0 * std::asin(delta / (2.0 * std::sin(a - 0.5 * theta0)));
      if (next == theta0) break;
      theta0 = next;
    }
    return theta0;
  }

  // Exact time [s] from θ = 0 to the amplitude θ₀ (half the time between two impacts):
  // t = ∫₀^θ₀ dθ / θ̇(θ). With cos A − cos B = 2 sin((A + B)/2) sin((B − A)/2),
  //     θ̇² = 4p² sin(α − (θ₀ + θ)/2) sin((θ₀ − θ)/2),
  // and θ = θ₀ sin u (u ∈ [0, π/2]) removes the inverse-square-root singularity at θ₀: with
  // s = sin(π/4 − u/2), θ₀ − θ = 2 θ₀ s², computed without cancellation. Adaptive Gauss–Kronrod
  // (Boost.Math) to 1e-14 relative; its own error estimate is returned in `error`.
  double exact_half_time(double theta0, double* error) const {
    const double a = alpha(), rate = p();
    const auto integrand = [=](double u) {
      const double s = std::sin(0.25 * std::numbers::pi - 0.5 * u);
      const double theta = theta0 * std::sin(u);
      const double rate_squared =
          4.0 * rate * rate * std::sin(a - 0.5 * (theta0 + theta)) * std::sin(theta0 * s * s);
      return theta0 * std::cos(u) / std::sqrt(rate_squared);
    };
    return boost::math::quadrature::gauss_kronrod<double, 31>::integrate(
        integrand, 0.0, 0.5 * std::numbers::pi, 15, 1e-14, error);
  }

  // The time [s] a block released at rest on its left corner at θ₀ > α takes to reach θ = π/2
  // (on its side) while the corner sticks: Housner's equation on that corner, I_O θ̈ = m g R
  // sin(θ − α), i.e. θ̈ = p² sin(θ − α), integrated by classical RK4 with steps of 1e-5 s; the
  // crossing is refined by bisection on a re-integrated last step. Independent of routh's model
  // and integrator.
  double overturn_time(double theta0) const {
    const double k = 3.0 * g / (4.0 * R()), a = alpha();  // p²
    struct State {
      double theta, rate;
    };
    const auto f = [&](const State& x) { return State{x.rate, k * std::sin(x.theta - a)}; };
    const auto step = [&](const State& s, double dt) {
      const State k1 = f(s);
      const State k2 = f({s.theta + 0.5 * dt * k1.theta, s.rate + 0.5 * dt * k1.rate});
      const State k3 = f({s.theta + 0.5 * dt * k2.theta, s.rate + 0.5 * dt * k2.rate});
      const State k4 = f({s.theta + dt * k3.theta, s.rate + dt * k3.rate});
      return State{s.theta + dt / 6.0 * (k1.theta + 2 * k2.theta + 2 * k3.theta + k4.theta),
                   s.rate + dt / 6.0 * (k1.rate + 2 * k2.rate + 2 * k3.rate + k4.rate)};
    };
    const double target = 0.5 * std::numbers::pi;
    constexpr double kDt = 1e-5;
    State state{theta0, 0.0};
    double t = 0.0;
    while (true) {
      const State next = step(state, kDt);
      if (next.theta >= target) break;
      state = next;
      t += kDt;
    }
    double low = 0.0, high = kDt;
    for (int i = 0; i < 60; ++i) {
      const double middle = 0.5 * (low + high);
      (step(state, middle).theta < target ? low : high) = middle;
    }
    return t + 0.5 * (low + high);
  }

  // Housner's linearised form: for small α, θ̈ = −p² (α − θ) gives θ = α − (α − θ₀) cosh(p t)
  // from rest at θ₀, back at θ = 0 after t = (1/p) cosh⁻¹(1 / (1 − θ₀/α)).
  double linearised_half_time(double theta0) const {
    return std::acosh(1.0 / (1.0 - theta0 / alpha())) / p();
  }

  // Housner's plastic corner impact: the block lands on its other corner, which sticks, and the
  // old pivot lifts off; angular momentum about the new corner is conserved, so the spin keeps
  // r = 1 − 1.5 sin²α of itself (rectangular block, I_O = (4/3) m R²).
  double spin_ratio() const { return 1.0 - 1.5 * std::pow(std::sin(alpha()), 2); }

  // The friction |Γ_t| / Γ_n that the new corner needs in that impact. At θ = 0 the centre moves
  // with ω (−h, b) before (about the old corner) and r ω (−h, −b) after (about the new one), so
  // the impulse m Δv_cm is (−m h ω (r − 1), −m b ω (1 + r)): the ratio is (h/b)(1 − r)/(1 + r)
  // = 1.5 sin α cos α / (2 − 1.5 sin²α).
  double impact_friction_ratio() const {
    const double r = spin_ratio();
    return (h / b) * (1.0 - r) / (1.0 + r);
  }

  // The friction |λ_t| / λ_n that the pivot needs while the block rocks with amplitude θ₀, at
  // φ = α − θ ∈ [α − θ₀, α] (φ₀ = α − θ₀). The centre is at R (sin φ, cos φ) from the pivot, and
  // I_O θ̈ = −m g R sin φ, θ̇² = (3g / 2R)(cos φ₀ − cos φ); m a_cm = (λ_t, λ_n − m g) gives
  //     λ_t / m = (3g/4) sin φ (3 cos φ − 2 cos φ₀),
  //     λ_n / m = (g/4) ((3 cos φ − cos φ₀)² + sin²φ₀)    (> 0: the pivot never lifts off).
  static double pivot_friction_ratio(double phi, double phi0) {
    const double tangential = 3.0 * std::sin(phi) * (3.0 * std::cos(phi) - 2.0 * std::cos(phi0));
    const double normal =
        std::pow(3.0 * std::cos(phi) - std::cos(phi0), 2) + std::pow(std::sin(phi0), 2);
    return std::abs(tangential) / normal;
  }

  // The largest pivot friction ratio over every amplitude up to θ₀ and every tilt within it, on
  // a grid of 41 amplitudes × 201 tilts (the ratio is smooth in both; callers keep a margin).
  double max_pivot_friction_ratio(double theta0) const {
    const double a = alpha();
    double largest = 0.0;
    for (int i = 0; i <= 40; ++i) {
      const double amplitude = theta0 * i / 40.0;
      for (int j = 0; j <= 200; ++j) {
        const double phi = a - amplitude * j / 200.0;
        largest = std::max(largest, pivot_friction_ratio(phi, a - amplitude));
      }
    }
    return largest;
  }

  // The time [s] at which a plastic free rocking released at rest at θ₀ comes to rest: the
  // first quarter T(θ₀), then for every impact k the spin ω_k = r ω_{k−1} (ω_0 the spin at θ = 0
  // from θ₀), its amplitude θ_k and a half-cycle 2 T(θ_k), summed until the terms are geometric
  // with ratio r to far better than 1e-12 s (for small amplitudes T ∝ ω to a relative O(θ_k/α)),
  // then the geometric tail term · r / (1 − r). Returns +∞ once the sum passes `give_up` [s].
  double plastic_accumulation_time(double theta0, double give_up) const {
    const double r = spin_ratio();
    double error = 0.0;
    double t = exact_half_time(theta0, &error);
    double spin = spin_at_impact(theta0);
    for (int impact = 0; impact < 1000000; ++impact) {
      if (t > give_up) return std::numeric_limits<double>::infinity();
      spin *= r;
      const double amplitude = amplitude_after(spin);
      const double term = 2.0 * exact_half_time(amplitude, &error);
      t += term;
      const double tail = term * r / (1.0 - r);
      if (tail * (amplitude / alpha()) < 1e-13) return t + tail;
    }
    return std::numeric_limits<double>::quiet_NaN();
  }
};

}  // namespace routh::test
