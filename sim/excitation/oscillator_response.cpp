#include "sim/excitation/oscillator_response.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "sim/text.hpp"

namespace routh {

namespace {

// Substeps per natural period at which the response is looked at for its peak.
constexpr double kSubstepsPerPeriod = 100.0;

// The free damped vibration over a time h: (u, u') ↦ (A11 u + A12 u', A21 u + A22 u').
struct FreeVibration {
  double a11 = 1.0, a12 = 0.0, a21 = 0.0, a22 = 1.0;
};

FreeVibration free_vibration(double omega, double damping, double h) {
  const double omega_d = omega * std::sqrt(1.0 - damping * damping);
  const double decay = std::exp(-damping * omega * h);
  const double c = std::cos(omega_d * h), s = std::sin(omega_d * h);
  return {decay * (c + damping * omega / omega_d * s), decay * s / omega_d,
          -decay * omega * omega / omega_d * s, decay * (c - damping * omega / omega_d * s)};
}

// |u| where u' changes sign within a substep of length h, from u and u' at its start and u' at
// its end: the extremum of the parabola whose slope is linear between them (0 when u' keeps its
// sign). Its error is of order |u'''| h³, against |u''| h² / 8 for the ends alone.
double turning_value(double u_start, double u_dot_start, double u_dot_end, double h) {
  if (!((u_dot_start > 0.0 && u_dot_end < 0.0) || (u_dot_start < 0.0 && u_dot_end > 0.0))) {
    return 0.0;
  }
  const double tau = h * u_dot_start / (u_dot_start - u_dot_end);
  return std::abs(u_start + 0.5 * u_dot_start * tau);
}

}  // namespace

double pseudo_spectral_acceleration(std::span<const double> time_s,
                                    std::span<const double> acceleration_m_s2, double period_s,
                                    double damping) {
  assert(time_s.size() == acceleration_m_s2.size());
  if (!(period_s > 0.0) || !std::isfinite(period_s)) {
    throw std::invalid_argument(cat("spectral period ", period_s, " s: must be > 0"));
  }
  if (!(damping >= 0.0 && damping < 1.0)) {
    throw std::invalid_argument(cat("damping ratio ", damping, ": must be in [0, 1)"));
  }
  const double omega = 2.0 * std::numbers::pi / period_s;
  const double omega2 = omega * omega;
  double u = 0.0, u_dot = 0.0, peak = 0.0;
  double substep = -1.0;  // the length `free` was formed for
  FreeVibration free;
  for (std::size_t i = 0; i + 1 < time_s.size(); ++i) {
    const double h = time_s[i + 1] - time_s[i];
    if (h == 0.0) continue;  // a jump: u and u' go on unchanged
    const double a0 = acceleration_m_s2[i], a1 = acceleration_m_s2[i + 1];
    const double count = std::max(1.0, std::ceil(h * kSubstepsPerPeriod / period_s));
    if (h / count != substep) {
      substep = h / count;
      free = free_vibration(omega, damping, substep);
    }
    // u_p = α + β τ solves u'' + 2ζω u' + ω² u = −(a + s τ)
    const double beta = -(a1 - a0) / h / omega2;
    for (double k = 0.0; k < count; k += 1.0) {
      const double a = a0 + (a1 - a0) * (k / count);
      const double alpha = -(a + 2.0 * damping * omega * beta) / omega2;
      const double free_u = u - alpha, free_u_dot = u_dot - beta;
      const double u_start = u, u_dot_start = u_dot;
      u = free.a11 * free_u + free.a12 * free_u_dot + alpha + beta * substep;
      u_dot = free.a21 * free_u + free.a22 * free_u_dot + beta;
      peak = std::max({peak, std::abs(u), turning_value(u_start, u_dot_start, u_dot, substep)});
    }
  }
  return omega2 * peak;
}

}  // namespace routh
