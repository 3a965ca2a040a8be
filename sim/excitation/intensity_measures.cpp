#include "sim/excitation/intensity_measures.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numbers>

// g of the Arias intensity: the standard gravity that `N g` amplitudes and PEER records use (a
// header-only constant; the excitation library does not link the scenario reader)
#include "sim/excitation/standard_gravity.hpp"

namespace routh {

namespace {

// ∫ a² dt over one interval of a linear a from a0 to a1, of length h.
double squared_integral(double a0, double a1, double h) {
  return h * (a0 * a0 + a0 * a1 + a1 * a1) / 3.0;
}

// ∫ |a| dt over one interval of a linear a from a0 to a1: a trapezoid, or, where a changes sign,
// the two triangles on either side of its root.
double absolute_integral(double a0, double a1, double h) {
  if ((a0 < 0.0) == (a1 < 0.0) || a0 == 0.0 || a1 == 0.0) return h * std::abs(a0 + a1) / 2.0;
  return h * (a0 * a0 + a1 * a1) / (2.0 * (std::abs(a0) + std::abs(a1)));
}

// ∫₀^τ a² over the first τ of the interval: a0² τ + a0 s τ² + s² τ³ / 3, s the slope.
double squared_integral_to(double a0, double a1, double h, double tau) {
  const double slope = (a1 - a0) / h;
  return tau * (a0 * a0 + a0 * slope * tau + slope * slope * tau * tau / 3.0);
}

// The instant where the cumulative ∫ a² reaches `target`, within the interval [t0, t0 + h] that
// holds it (cumulative `before` at t0): bisection on the monotone cubic, to the last bit of t.
double time_of_cumulative(double t0, double h, double a0, double a1, double before, double target) {
  double low = 0.0;
  double high = h;
  while (true) {
    const double middle = 0.5 * (low + high);
    if (middle <= low || middle >= high) break;
    if (before + squared_integral_to(a0, a1, h, middle) < target) {
      low = middle;
    } else {
      high = middle;
    }
  }
  return t0 + high;
}

// D5–95 from the samples and the cumulative ∫ a² at each of them.
double significant_duration(std::span<const double> t, std::span<const double> a,
                            std::span<const double> cumulative) {
  const double total = cumulative.back();
  if (!(total > 0.0)) return 0.0;
  const auto instant = [&](double fraction) {
    const double target = fraction * total;
    const auto above = std::lower_bound(cumulative.begin(), cumulative.end(), target);
    const std::size_t i = static_cast<std::size_t>(above - cumulative.begin());
    if (i == 0) return t[0];
    return time_of_cumulative(t[i - 1], t[i] - t[i - 1], a[i - 1], a[i], cumulative[i - 1], target);
  };
  return instant(0.95) - instant(0.05);
}

}  // namespace

GroundVelocityDisplacement integrate_ground_motion(std::span<const double> time_s,
                                                   std::span<const double> acceleration_m_s2) {
  assert(time_s.size() == acceleration_m_s2.size());
  const std::size_t n = time_s.size();
  GroundVelocityDisplacement motion{std::vector<double>(n, 0.0), std::vector<double>(n, 0.0)};
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const double h = time_s[i + 1] - time_s[i];
    const double a0 = acceleration_m_s2[i], a1 = acceleration_m_s2[i + 1];
    motion.velocity_m_s[i + 1] = motion.velocity_m_s[i] + h * (a0 + a1) / 2.0;
    motion.displacement_m[i + 1] =
        motion.displacement_m[i] + h * motion.velocity_m_s[i] + h * h * (2.0 * a0 + a1) / 6.0;
  }
  return motion;
}

IntensityMeasures intensity_measures(std::span<const double> time_s,
                                     std::span<const double> acceleration_m_s2) {
  assert(time_s.size() == acceleration_m_s2.size());
  IntensityMeasures measures;
  const auto largest = [](std::span<const double> values) {
    double peak = 0.0;
    for (double value : values) peak = std::max(peak, std::abs(value));
    return peak;
  };
  measures.pga_m_s2 = largest(acceleration_m_s2);
  if (time_s.size() < 2) return measures;
  const GroundVelocityDisplacement motion = integrate_ground_motion(time_s, acceleration_m_s2);
  measures.pgv_m_s = largest(motion.velocity_m_s);
  measures.pgd_m = largest(motion.displacement_m);
  std::vector<double> cumulative(time_s.size(), 0.0);  // ∫ a² dt up to each sample
  for (std::size_t i = 0; i + 1 < time_s.size(); ++i) {
    const double h = time_s[i + 1] - time_s[i];
    const double a0 = acceleration_m_s2[i], a1 = acceleration_m_s2[i + 1];
    cumulative[i + 1] = cumulative[i] + squared_integral(a0, a1, h);
    measures.cav_m_s += absolute_integral(a0, a1, h);
  }
  measures.arias_m_s = std::numbers::pi / (2.0 * kGravityUnit_m_s2) * cumulative.back();
  measures.significant_duration_s = significant_duration(time_s, acceleration_m_s2, cumulative);
  return measures;
}

}  // namespace routh
