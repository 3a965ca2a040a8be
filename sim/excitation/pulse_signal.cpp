#include "sim/excitation/pulse_signal.hpp"

#include <cmath>
#include <numbers>

namespace routh {

double end_time(const PulseSignal& pulse) {
  const double periods = pulse.shape == PulseShape::ricker ? 2.0 : pulse.cycles;
  return pulse.start_s + periods * pulse.period_s;
}

double acceleration_at(const PulseSignal& pulse, double t_s) {
  if (t_s < pulse.start_s || t_s >= end_time(pulse)) return 0.0;
  const double tau = t_s - pulse.start_s;  // [s]
  const double phase = 2.0 * std::numbers::pi * tau / pulse.period_s;
  switch (pulse.shape) {
    case PulseShape::sine: return pulse.amplitude_m_s2 * std::sin(phase);
    case PulseShape::cosine: return pulse.amplitude_m_s2 * std::cos(phase);
    case PulseShape::ricker: {
      const double u = std::numbers::pi * (tau - pulse.period_s) / pulse.period_s;
      return pulse.amplitude_m_s2 * (1.0 - 2.0 * u * u) * std::exp(-u * u);
    }
  }
  return 0.0;
}

}  // namespace routh
