#pragma once
// An excitation as it is applied, sampled along one axis for its intensity measures
// (intensity_measures.hpp, oscillator_response.hpp): a_g(t) · e on [0, t_end], at
//   - 0, t_end and every breakpoint in between (every record sample, every signal's start and
//     end: excitation.hpp), where a_g may have a kink or a jump;
//   - when a harmonic or a pulse is present, a uniform grid of step min(5 ms, T_min / 200),
//     T_min the shortest period among them, coarsened if need be to at most 10⁶ steps.
// Between the samples the intensity measures take a_g as linear: exact for records, which are
// linear between their samples, and for the smooth signals within about (ω dt)² / 12 ≈ 1e-4
// (relative, for a sine of period 200 dt). At a signal's start or end, where a_g may jump, the
// value on the left is sampled too, at the same instant: a record alone over its own span gives
// back its samples (scaled, shifted by its start), and so its own intensity measures.

#include <Eigen/Core>
#include <vector>

#include "sim/excitation/excitation.hpp"

namespace routh {

/// Samples (t_i, a_i) of a ground acceleration along one axis: times non-decreasing [s], two
/// samples at one instant a jump; accelerations [m/s²].
struct GroundMotionSamples {
  std::vector<double> time_s;
  std::vector<double> acceleration_m_s2;
};

/// a_g(t) · `axis` on [0, `t_end_s`], sampled as above; t_end_s ≥ 0.
GroundMotionSamples sample_excitation(const Excitation& excitation, const Eigen::Vector3d& axis,
                                      double t_end_s);

}  // namespace routh
