#pragma once
// Intensity measures of a ground motion (docs/excitation.md, "Intensity measures and scaling"):
// the numbers earthquake engineers rank and scale records by. The motion is an acceleration given
// as samples (t_i, a_i), linear between them, as routh applies a record; times are non-decreasing,
// and two samples at one instant are a jump (a signal's start or end), which lasts no time.
//
// With h_i = t_{i+1} − t_i and the ground starting from rest (v_0 = d_0 = 0, no baseline
// correction: a record whose velocity does not return to zero drifts, as it does under routh):
//   PGA = max |a_i|                                         [m/s²]
//   v_{i+1} = v_i + h_i (a_i + a_{i+1}) / 2                  (trapezoidal rule, exact for linear a)
//   d_{i+1} = d_i + h_i v_i + h_i² (2 a_i + a_{i+1}) / 6     (exact for linear a)
//   PGV = max |v_i| [m/s],   PGD = max |d_i| [m],  over the samples
//   Arias intensity  I_a = π / (2g) ∫ a² dt,  per interval h_i (a_i² + a_i a_{i+1} + a_{i+1}²) / 3
//   CAV = ∫ |a| dt,  per interval h_i |a_i + a_{i+1}| / 2 without a sign change, and
//         h_i (a_i² + a_{i+1}²) / (2 (|a_i| + |a_{i+1}|)) across one (two triangles)
//   D5–95 = t(95 % of I_a) − t(5 % of I_a), each instant where the cumulative intensity, a cubic
//         of t within its interval, reaches the fraction (solved within the interval)
// Arias intensity (Arias 1970, "A measure of earthquake intensity"), CAV and the significant
// duration (Trifunac & Brady 1975) are integrated exactly for the piecewise-linear a, so that
// they do not depend on extra samples placed on a straight piece.

#include <array>
#include <span>
#include <string_view>
#include <vector>

namespace routh {

/// The intensity measures of one ground motion along one axis.
struct IntensityMeasures {
  double pga_m_s2 = 0.0;                ///< peak ground acceleration [m/s²]
  double pgv_m_s = 0.0;                 ///< peak ground velocity [m/s]
  double pgd_m = 0.0;                   ///< peak ground displacement [m]
  double arias_m_s = 0.0;               ///< Arias intensity I_a [m/s]
  double cav_m_s = 0.0;                 ///< cumulative absolute velocity [m/s]
  double significant_duration_s = 0.0;  ///< D5–95 [s]; 0 for a motion that is zero throughout
};

/// One measure as every output names it (sweep columns, `routh record --json`, Python), its SI
/// unit, and where IntensityMeasures holds it.
struct MeasureField {
  std::string_view name;
  std::string_view unit;
  double IntensityMeasures::*value;
};

/// The measures in the order every output lists them.
inline constexpr std::array<MeasureField, 6> kMeasureFields = {{
    {"pga", "m/s^2", &IntensityMeasures::pga_m_s2},
    {"pgv", "m/s", &IntensityMeasures::pgv_m_s},
    {"pgd", "m", &IntensityMeasures::pgd_m},
    {"arias", "m/s", &IntensityMeasures::arias_m_s},
    {"cav", "m/s", &IntensityMeasures::cav_m_s},
    {"d5_95", "s", &IntensityMeasures::significant_duration_s},
}};

/// The ground velocity [m/s] and displacement [m] at every sample, from rest, as above.
struct GroundVelocityDisplacement {
  std::vector<double> velocity_m_s;
  std::vector<double> displacement_m;
};

/// v_i and d_i of the acceleration samples `acceleration_m_s2` at `time_s` (equal lengths, times
/// non-decreasing).
GroundVelocityDisplacement integrate_ground_motion(std::span<const double> time_s,
                                                   std::span<const double> acceleration_m_s2);

/// The intensity measures of the samples; a motion of fewer than two samples lasts no time and
/// has only its PGA. O(samples).
IntensityMeasures intensity_measures(std::span<const double> time_s,
                                     std::span<const double> acceleration_m_s2);

}  // namespace routh
