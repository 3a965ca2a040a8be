#include "sim/study/normal_distribution.hpp"

#include <cmath>
#include <numbers>

namespace routh {

namespace {

// Below this u, Φ(u) < 1e-197 and erfc loses its relative accuracy to underflow soon after;
// the series' first omitted term, 945/u¹⁰, is below 2e-12 there.
constexpr double kTailStart = -30.0;

// 1 − 1/u² + 3/u⁴ − 15/u⁶ + 105/u⁸: Φ(u) (−u)/φ(u) in the far left tail.
double tail_series(double u) {
  const double r = 1.0 / (u * u);
  return 1.0 - r * (1.0 - r * (3.0 - r * (15.0 - 105.0 * r)));
}

double log_normal_pdf(double u) { return -0.5 * u * u - 0.5 * std::log(2.0 * std::numbers::pi); }

}  // namespace

double normal_cdf(double u) { return 0.5 * std::erfc(-u / std::numbers::sqrt2); }

double log_normal_cdf(double u) {
  if (u >= kTailStart) return std::log(normal_cdf(u));
  return log_normal_pdf(u) - std::log(-u) + std::log(tail_series(u));
}

double normal_hazard_left(double u) {
  if (u >= kTailStart) return std::exp(log_normal_pdf(u)) / normal_cdf(u);
  return -u / tail_series(u);
}

}  // namespace routh
