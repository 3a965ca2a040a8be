#pragma once
// Pulses (docs/design.md §5, `excitation: pulse`): the near-fault pulses of earthquake engineering,
// with τ = t − t₀ and T_p the period,
//   sine    a = A sin(2π τ / T_p)            for 0 ≤ τ < cycles T_p   (Zhang & Makris 2001, type A)
//   cosine  a = A cos(2π τ / T_p)            for 0 ≤ τ < cycles T_p   (Zhang & Makris 2001, type B)
//   ricker  a = A (1 − 2u²) exp(−u²), u = π (τ − T_p) / T_p,  for 0 ≤ τ < 2 T_p
// and zero otherwise. The Ricker wavelet peaks at A at t₀ + T_p, its peak frequency is 1 / T_p,
// and it is cut at ±T_p around the peak, where it has fallen to (1 − 2π²) e^{−π²} ≈ −1e-3 of A.
// A cosine pulse jumps to A at its start: the start and end are breakpoints of the excitation.

namespace routh {

enum class PulseShape { sine, cosine, ricker };

struct PulseSignal {
  PulseShape shape = PulseShape::sine;
  double amplitude_m_s2 = 0.0;  ///< A [m/s²]
  double period_s = 1.0;        ///< T_p [s], > 0
  double start_s = 0.0;         ///< t₀ [s]
  double cycles = 1.0;          ///< sine and cosine: periods it lasts; a Ricker wavelet is one
};

/// The first instant the pulse is zero again [s]: t₀ + cycles T_p, or t₀ + 2 T_p for a Ricker.
double end_time(const PulseSignal& pulse);

/// a(t) [m/s²]; zero before the start and from the end on (the pulse acts on [t₀, end)).
double acceleration_at(const PulseSignal& pulse, double t_s);

}  // namespace routh
