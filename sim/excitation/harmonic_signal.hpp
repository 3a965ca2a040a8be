#pragma once
// A harmonic ground acceleration (docs/design.md §5, `excitation: harmonic`):
//     a(t) = A sin(2π f (t − t₀) + φ)   for t₀ ≤ t < t₀ + cycles / f,   0 otherwise.
// Without `cycles` it lasts the whole run. The start (with φ ≠ 0) and the end are where a(t) may
// jump: both are breakpoints of the excitation.

#include <limits>

namespace routh {

struct HarmonicSignal {
  double amplitude_m_s2 = 0.0;                              ///< A [m/s²]
  double frequency_hz = 1.0;                                ///< f [Hz], > 0
  double phase_rad = 0.0;                                   ///< φ [rad]
  double start_s = 0.0;                                     ///< t₀ [s]
  double cycles = std::numeric_limits<double>::infinity();  ///< periods it lasts; ∞: the whole run
};

/// t₀ + cycles / f [s]: the first instant the signal is zero again (∞ without cycles).
double end_time(const HarmonicSignal& signal);

/// a(t) [m/s²]; zero before the start and from the end on (the signal acts on [t₀, end)).
double acceleration_at(const HarmonicSignal& signal, double t_s);

}  // namespace routh
