#include "sim/simulation/event_location.hpp"

#include <cmath>

namespace routh {

double hermite_root(double g_a, double slope_a, double g_b, double slope_b, double h) {
  const double m_a = h * slope_a, m_b = h * slope_b;
  // the Hermite basis on s ∈ [0, 1] and its derivative
  const auto p = [&](double s) {
    return (2 * s * s * s - 3 * s * s + 1) * g_a + (s * s * s - 2 * s * s + s) * m_a +
           (3 * s * s - 2 * s * s * s) * g_b + (s * s * s - s * s) * m_b;
  };
  const auto dp = [&](double s) {
    return 6 * (s * s - s) * (g_a - g_b) + (3 * s * s - 4 * s + 1) * m_a +
           (3 * s * s - 2 * s) * m_b;
  };
  double lo = 0.0, hi = 1.0, s = g_a / (g_a - g_b);
  constexpr int kIterations = 50;  // Newton converges in a handful; bisection halves the bracket
  for (int i = 0; i < kIterations && hi - lo > 1e-16; ++i) {
    const double value = p(s);
    if (value > 0.0) {
      lo = s;
    } else {
      hi = s;
    }
    const double slope = dp(s);
    const double newton = slope != 0.0 ? s - value / slope : lo;
    const double next = newton > lo && newton < hi ? newton : 0.5 * (lo + hi);
    if (next == s) break;
    s = next;
  }
  return s;
}

double hermite_lowest(double g_a, double slope_a, double g_b, double slope_b, double h) {
  const double m_a = h * slope_a, m_b = h * slope_b;
  // p'(s) = A s² + B s + C for the interpolant p of hermite_root()
  const double A = 6.0 * (g_a - g_b) + 3.0 * m_a + 3.0 * m_b;
  const double B = -6.0 * (g_a - g_b) - 4.0 * m_a - 2.0 * m_b;
  const double C = m_a;
  const auto p = [&](double s) {
    return (2 * s * s * s - 3 * s * s + 1) * g_a + (s * s * s - 2 * s * s + s) * m_a +
           (3 * s * s - 2 * s * s * s) * g_b + (s * s * s - s * s) * m_b;
  };
  double lowest = 0.0, p_lowest = g_a;
  const auto consider = [&](double s) {
    if (!(s > 0.0 && s < 1.0) || !(2.0 * A * s + B > 0.0)) return;  // an interior minimum only
    if (p(s) < p_lowest) lowest = s, p_lowest = p(s);
  };
  // the roots of A s² + B s + C without cancellation (Press et al., Numerical Recipes §5.6):
  // q = −½ (B + sgn(B) √(B² − 4AC)), s = q / A and s = C / q; A may be round-off of a zero
  const double discriminant = B * B - 4.0 * A * C;
  if (discriminant >= 0.0) {
    const double q = -0.5 * (B + std::copysign(std::sqrt(discriminant), B));
    if (A != 0.0) consider(q / A);
    if (q != 0.0) consider(C / q);
  }
  return lowest;
}

}  // namespace routh
