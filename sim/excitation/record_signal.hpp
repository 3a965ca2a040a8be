#pragma once
// A recorded ground motion (docs/design.md §5, `excitation: record`): samples (t_i, a_i), linear
// between them, scaled and shifted by `start`:
//     a(t) = scale · (a_i + (a_{i+1} − a_i) (t − s_i) / (s_{i+1} − s_i)),   s_i = start + t_i,
// for s_0 ≤ t < s_{n−1}, and zero otherwise. Every s_i is a breakpoint: a(t) has a kink there
// (and may jump at s_0 and s_{n−1}). The instants are always formed as start + t_i, the same
// double in the breakpoints and in the interpolation, so that a step ending at a breakpoint
// and the signal agree on which side of it they are.
//
// Lookups are binary searches, O(log n); the samples are shared, never copied per signal.

#include <memory>
#include <vector>

namespace routh {

/// The samples of a record, as read from its file: times strictly increasing [s],
/// accelerations [m/s²], at least two of each.
struct GroundRecord {
  std::vector<double> time_s;
  std::vector<double> acceleration_m_s2;
};

struct RecordSignal {
  std::shared_ptr<const GroundRecord> record;
  double scale = 1.0;    ///< multiplies every acceleration
  double start_s = 0.0;  ///< shifts the record's own times
};

/// a(t) [m/s²]: linear between samples on [s_0, s_{n−1}), zero elsewhere.
double acceleration_at(const RecordSignal& signal, double t_s);

/// The first sample instant s_i strictly after t [s]; +∞ past the last.
double next_sample_after(const RecordSignal& signal, double t_s);

}  // namespace routh
