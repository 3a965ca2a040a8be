#pragma once
// The response spectrum of a ground motion (docs/excitation.md, "Intensity measures and
// scaling"): a linear oscillator of natural period T = 2π/ω and damping ratio ζ on the ground,
//     u'' + 2ζω u' + ω² u = −a(t),      u(0) = u'(0) = 0,
// u its displacement relative to the ground, and its pseudo-spectral acceleration
//     Sa(T, ζ) = ω² max |u|.
//
// a(t) is linear between samples, so each interval has an exact solution: the linear particular
// solution u_p(τ) = α + β τ, with β = −s/ω², α = −(a_i + 2ζω β)/ω² (s the interval's slope), plus
// the free damped vibration from (u_i − α, u'_i − β). This is the piecewise-exact recurrence of
// N. C. Nigam & P. C. Jennings (1969), "Calculation of response spectra from strong-motion
// earthquake records" (Bull. Seismol. Soc. Am. 59(2), 909–922), whose coefficient matrices it
// expands; here they are formed for each interval's own length, so uneven sampling is exact too.
//
// The peak is looked for between samples too: the exact solution is stepped in substeps of each
// interval no longer than T / 100, and where u' changes sign within a substep the turning value
// of u is taken from the parabola whose slope runs linearly between u' at its ends. Its error is
// of order |u'''| δ³ for a substep δ: about (ωδ)³ / 12 ≈ 2e-5 of a free vibration's amplitude,
// and as small for a record's own content, which its sampling resolves.

#include <span>

namespace routh {

/// The default damping ratio of a response spectrum: 5 % of critical.
inline constexpr double kSpectrumDamping = 0.05;
/// What routh's inputs (`scale_to`, `routh record`) accept: periods in [1 ms, 100 s], as response
/// spectra are drawn, and damping ratios up to 0.99.
inline constexpr double kMinSpectralPeriod_s = 1e-3;
inline constexpr double kMaxSpectralPeriod_s = 100.0;
inline constexpr double kMaxSpectralDamping = 0.99;

/// Sa(T, ζ) [m/s²] of the acceleration samples (times non-decreasing; two samples at one instant
/// are a jump) for `period_s` > 0 and 0 ≤ `damping` < 1; throws std::invalid_argument otherwise.
/// O(samples · max(1, 100 · dt / T)).
double pseudo_spectral_acceleration(std::span<const double> time_s,
                                    std::span<const double> acceleration_m_s2, double period_s,
                                    double damping = kSpectrumDamping);

}  // namespace routh
