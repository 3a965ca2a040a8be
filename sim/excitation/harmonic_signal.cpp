#include "sim/excitation/harmonic_signal.hpp"

#include <cmath>
#include <numbers>

namespace routh {

double end_time(const HarmonicSignal& signal) {
  return signal.start_s + signal.cycles / signal.frequency_hz;
}

double acceleration_at(const HarmonicSignal& signal, double t_s) {
  if (t_s < signal.start_s || t_s >= end_time(signal)) return 0.0;
  const double angular_frequency = 2.0 * std::numbers::pi * signal.frequency_hz;  // [rad/s]
  return signal.amplitude_m_s2 *
         std::sin(angular_frequency * (t_s - signal.start_s) + signal.phase_rad);
}

}  // namespace routh
