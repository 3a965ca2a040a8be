#include "sim/excitation/pulse_signal.hpp"

#include <cmath>
#include <limits>
#include <numbers>

namespace routh {

namespace {

constexpr double kPi = std::numbers::pi;

// Ω = 2π / T_p [rad/s].
double circular_frequency(const PulseSignal& pulse) { return 2.0 * kPi / pulse.period_s; }

// The middle of a rectangular pulse, where it jumps from A to −A: always formed this way, so that
// the breakpoint and the signal agree on which side of it an instant is.
double rectangular_middle(const PulseSignal& pulse) { return pulse.start_s + 0.5 * pulse.period_s; }

// The Mavroeidis–Papageorgiou acceleration at s = t − t_c (header comment).
double mavroeidis_papageorgiou_acceleration(const PulseSignal& pulse, double s) {
  const double omega = circular_frequency(pulse);
  const double envelope_phase = omega * s / pulse.gamma;
  const double carrier_phase = omega * s + pulse.phase_rad;
  return -0.5 * omega * pulse.velocity_m_s *
         (std::sin(envelope_phase) * std::cos(carrier_phase) / pulse.gamma +
          (1.0 + std::cos(envelope_phase)) * std::sin(carrier_phase));
}

}  // namespace

double cycloid_phase(int n) {
  // g(φ) = sin φ ((2n + 1)π − 2φ) − 2 cos φ rises on (0, π/2) (g' = cos φ ((2n + 1)π − 2φ) > 0)
  // from −2 to a positive value: Newton from φ₀ = atan(2 / ((2n + 1)π)), the root of the same
  // equation without the small 2φ, converges in a few steps.
  const double odd_pi = (2.0 * n + 1.0) * kPi;
  double phi = std::atan(2.0 / odd_pi);
  for (int iteration = 0; iteration < 50; ++iteration) {
    const double g = std::sin(phi) * (odd_pi - 2.0 * phi) - 2.0 * std::cos(phi);
    const double step = g / (std::cos(phi) * (odd_pi - 2.0 * phi));
    phi -= step;
    if (std::abs(step) <= 4.0 * std::numeric_limits<double>::epsilon() * phi) break;
  }
  return phi;
}

double end_time(const PulseSignal& pulse) {
  switch (pulse.shape) {
    case PulseShape::sine:
    case PulseShape::cosine: return pulse.start_s + pulse.cycles * pulse.period_s;
    case PulseShape::ricker: return pulse.start_s + 2.0 * pulse.period_s;
    case PulseShape::cycloidal_c: {
      const double n = pulse.cycloid_cycles;
      return pulse.start_s + (n + 0.5 - cycloid_phase(pulse.cycloid_cycles) / kPi) * pulse.period_s;
    }
    case PulseShape::mavroeidis_papageorgiou: return pulse.start_s + pulse.gamma * pulse.period_s;
    case PulseShape::rectangular:
    case PulseShape::cycloidal_a:
    case PulseShape::cycloidal_b: break;
  }
  return pulse.start_s + pulse.period_s;
}

double acceleration_at(const PulseSignal& pulse, double t_s) {
  if (t_s < pulse.start_s || t_s >= end_time(pulse)) return 0.0;
  const double tau = t_s - pulse.start_s;  // [s]
  const double omega = circular_frequency(pulse);
  const double phase = omega * tau;
  switch (pulse.shape) {
    case PulseShape::sine: return pulse.amplitude_m_s2 * std::sin(phase);
    case PulseShape::cosine: return pulse.amplitude_m_s2 * std::cos(phase);
    case PulseShape::ricker: {
      const double u = kPi * (tau - pulse.period_s) / pulse.period_s;
      return pulse.amplitude_m_s2 * (1.0 - 2.0 * u * u) * std::exp(-u * u);
    }
    case PulseShape::rectangular:
      return t_s < rectangular_middle(pulse) ? pulse.amplitude_m_s2 : -pulse.amplitude_m_s2;
    case PulseShape::cycloidal_a: return 0.5 * omega * pulse.velocity_m_s * std::sin(phase);
    case PulseShape::cycloidal_b: return omega * pulse.velocity_m_s * std::cos(phase);
    case PulseShape::cycloidal_c:
      return omega * pulse.velocity_m_s * std::cos(phase + cycloid_phase(pulse.cycloid_cycles));
    case PulseShape::mavroeidis_papageorgiou:
      return mavroeidis_papageorgiou_acceleration(pulse, tau - 0.5 * pulse.gamma * pulse.period_s);
  }
  return 0.0;
}

double next_breakpoint_after(const PulseSignal& pulse, double t_s) {
  if (pulse.start_s > t_s) return pulse.start_s;
  if (pulse.shape == PulseShape::rectangular && rectangular_middle(pulse) > t_s) {
    return rectangular_middle(pulse);
  }
  const double end = end_time(pulse);
  return end > t_s ? end : std::numeric_limits<double>::infinity();
}

double peak_acceleration_bound(const PulseSignal& pulse) {
  const double omega_v = circular_frequency(pulse) * std::abs(pulse.velocity_m_s);
  switch (pulse.shape) {
    case PulseShape::sine:
    case PulseShape::cosine:
    case PulseShape::ricker:
    case PulseShape::rectangular: return std::abs(pulse.amplitude_m_s2);
    case PulseShape::cycloidal_a: return 0.5 * omega_v;
    case PulseShape::cycloidal_b:
    case PulseShape::cycloidal_c: return omega_v;
    case PulseShape::mavroeidis_papageorgiou: return omega_v * (1.0 + 0.5 / pulse.gamma);
  }
  return 0.0;
}

}  // namespace routh
