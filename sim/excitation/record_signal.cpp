#include "sim/excitation/record_signal.hpp"

#include <algorithm>
#include <iterator>
#include <limits>

namespace routh {

namespace {

// The index of the first sample whose instant start + t_i is after t (n if none).
std::size_t first_sample_after(const RecordSignal& signal, double t_s) {
  const std::vector<double>& times = signal.record->time_s;
  const auto after = std::upper_bound(
      times.begin(), times.end(), t_s,
      [start = signal.start_s](double t, double sample_t) { return t < start + sample_t; });
  return static_cast<std::size_t>(std::distance(times.begin(), after));
}

}  // namespace

double acceleration_at(const RecordSignal& signal, double t_s) {
  const GroundRecord& record = *signal.record;
  const std::size_t next = first_sample_after(signal, t_s);
  if (next == 0 || next == record.time_s.size()) return 0.0;  // before s_0, or at s_{n−1} on
  const std::size_t i = next - 1;
  const double s0 = signal.start_s + record.time_s[i];
  const double s1 = signal.start_s + record.time_s[next];
  const double a0 = record.acceleration_m_s2[i], a1 = record.acceleration_m_s2[next];
  return signal.scale * (a0 + (a1 - a0) * ((t_s - s0) / (s1 - s0)));
}

double next_sample_after(const RecordSignal& signal, double t_s) {
  const std::size_t next = first_sample_after(signal, t_s);
  if (next == signal.record->time_s.size()) return std::numeric_limits<double>::infinity();
  return signal.start_s + signal.record->time_s[next];
}

}  // namespace routh
