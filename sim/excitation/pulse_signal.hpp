#pragma once
// Pulses (docs/design.md §5, `excitation: pulse`): the idealised near-fault pulses of earthquake
// engineering. With τ = t − t₀ (t₀ the start), T_p the period and Ω = 2π / T_p, each acts on
// [t₀, end) and is zero otherwise:
//
//   sine         a = A sin(Ωτ)                       τ < cycles T_p  (Zhang & Makris 2001, type A)
//   cosine       a = A cos(Ωτ)                       τ < cycles T_p  (Zhang & Makris 2001, type B)
//   ricker       a = A (1 − 2u²) exp(−u²),  u = π (τ − T_p) / T_p,   τ < 2 T_p
//   rectangular  a = A for τ < T_p / 2, −A for T_p / 2 ≤ τ < T_p  (one cycle: the ground ends at
//                rest, having moved A T_p² / 4 in all)
//
// The cycloidal pulses of Makris & Roussos (2000), "Rocking response of rigid blocks under
// near-source ground motions" (Géotechnique 50(3)), given by their velocity amplitude V_p:
//
//   type A  v = (V_p / 2)(1 − cos Ωτ),    a = (Ω V_p / 2) sin Ωτ,   τ < T_p
//           the ground moves forward, V_p T_p / 2, and stays there;
//   type B  v = V_p sin Ωτ,               a = Ω V_p cos Ωτ,         τ < T_p
//           the ground moves forward and comes back;
//   type Cₙ v = V_p (sin(Ωτ + φ) − sin φ), a = Ω V_p cos(Ωτ + φ),   τ < (n + 1/2 − φ/π) T_p
//           n main cycles of velocity; the support ends where v is zero again, and φ ∈ (0, π/2)
//           makes the displacement zero there too: tan φ ((2n + 1)π − 2φ) = 2 (φ = 0.0697π for
//           n = 1, as Makris & Roussos give it; 0.0410π for n = 2).
//
// The pulse of Mavroeidis & Papageorgiou (2003), "A mathematical representation of near-fault
// ground motions" (Bull. Seismol. Soc. Am. 93(3)), with f_p = 1 / T_p, γ > 1 (the oscillations
// under the envelope), ν (the phase) and its support's centre t_c = t₀ + γ T_p / 2, s = t − t_c:
//
//   v = (V_p / 2) [1 + cos(Ω s / γ)] cos(Ω s + ν)
//   a = −(Ω V_p / 2) [(1/γ) sin(Ω s / γ) cos(Ω s + ν) + (1 + cos(Ω s / γ)) sin(Ω s + ν)]
//
// for |s| ≤ γ T_p / 2, that is t₀ ≤ t < t₀ + γ T_p; a and v are both zero at either end.
//
// The Ricker wavelet peaks at A at t₀ + T_p, its peak frequency is 1 / T_p, and it is cut at ±T_p
// around the peak, where it has fallen to (1 − 2π²) e^{−π²} ≈ −1e-3 of A. The cosine, rectangular,
// type B and Cₙ pulses jump at their start (and the rectangular one at T_p / 2 and at its end):
// these instants are the pulse's breakpoints (next_breakpoint_after).

namespace routh {

enum class PulseShape {
  sine,
  cosine,
  ricker,
  rectangular,
  cycloidal_a,
  cycloidal_b,
  cycloidal_c,
  mavroeidis_papageorgiou
};

struct PulseSignal {
  PulseShape shape = PulseShape::sine;
  double amplitude_m_s2 = 0.0;  ///< A [m/s²]: sine, cosine, Ricker and rectangular pulses
  double period_s = 1.0;        ///< T_p [s], > 0
  double start_s = 0.0;         ///< t₀ [s]
  double cycles = 1.0;          ///< sine and cosine: periods it lasts; the others have one shape
  double velocity_m_s = 0.0;    ///< V_p [m/s]: cycloidal and Mavroeidis–Papageorgiou pulses
  int cycloid_cycles = 1;       ///< n ≥ 1 of a type Cₙ cycloidal pulse
  double gamma = 2.0;           ///< γ > 1 of a Mavroeidis–Papageorgiou pulse
  double phase_rad = 0.0;       ///< ν [rad] of a Mavroeidis–Papageorgiou pulse
};

/// φ ∈ (0, π/2) of a type Cₙ pulse, n ≥ 1: the root of sin φ ((2n + 1)π − 2φ) = 2 cos φ.
double cycloid_phase(int n);

/// The first instant the pulse is zero again [s] (the end of its support).
double end_time(const PulseSignal& pulse);

/// a(t) [m/s²]; zero before the start and from the end on (the pulse acts on [t₀, end)).
double acceleration_at(const PulseSignal& pulse, double t_s);

/// The first instant strictly after t [s] where a(t) may jump or kink: the start, the end, and the
/// middle of a rectangular pulse; +∞ when none is left.
double next_breakpoint_after(const PulseSignal& pulse, double t_s);

/// An upper bound of |a(t)| [m/s²] (the peak itself but for a Mavroeidis–Papageorgiou pulse,
/// bounded by Ω |V_p| (1 + 1/(2γ))), for the range check of the scenario reader.
double peak_acceleration_bound(const PulseSignal& pulse);

}  // namespace routh
