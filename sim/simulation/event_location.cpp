#include "sim/simulation/event_location.hpp"

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

}  // namespace routh
