#include "sim/excitation/excitation_samples.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace routh {

namespace {

// The uniform grid's step: 5 ms at most, 200 steps per period of the fastest smooth signal, at
// most 10⁶ steps over the span.
constexpr double kMaxGridStep_s = 5e-3;
constexpr double kGridStepsPerPeriod = 200.0;
constexpr double kMaxGridSteps = 1e6;

double period_of(const HarmonicSignal& harmonic) { return 1.0 / harmonic.frequency_hz; }
double period_of(const PulseSignal& pulse) { return pulse.period_s; }

// The shortest period of the smooth signals; +∞ when there are only records.
double shortest_period(const Excitation& excitation) {
  double shortest = std::numeric_limits<double>::infinity();
  for (const GroundSignal& item : excitation) {
    std::visit(
        [&](const auto& signal) {
          if constexpr (!std::is_same_v<std::decay_t<decltype(signal)>, RecordSignal>) {
            shortest = std::min(shortest, period_of(signal));
          }
        },
        item.signal);
  }
  return shortest;
}

// The instants where a signal starts or ends: a_g may jump there.
std::vector<double> signal_edges(const Excitation& excitation) {
  std::vector<double> edges;
  for (const GroundSignal& item : excitation) {
    std::visit(
        [&](const auto& signal) {
          if constexpr (std::is_same_v<std::decay_t<decltype(signal)>, RecordSignal>) {
            edges.push_back(signal.start_s + signal.record->time_s.front());
            edges.push_back(signal.start_s + signal.record->time_s.back());
          } else {
            edges.push_back(signal.start_s);
            edges.push_back(end_time(signal));
          }
        },
        item.signal);
  }
  std::sort(edges.begin(), edges.end());
  return edges;
}

std::vector<double> sample_times(const Excitation& excitation, double t_end_s) {
  std::vector<double> times{0.0};
  for (double t = next_breakpoint(excitation, 0.0); t < t_end_s;
       t = next_breakpoint(excitation, t)) {
    times.push_back(t);
  }
  const double period = shortest_period(excitation);
  if (std::isfinite(period) && t_end_s > 0.0) {
    const double steps = std::min(
        kMaxGridSteps, std::ceil(t_end_s / std::min(kMaxGridStep_s, period / kGridStepsPerPeriod)));
    for (double k = 1.0; k < steps; k += 1.0) times.push_back(t_end_s * (k / steps));
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
  }
  if (t_end_s > 0.0) times.push_back(t_end_s);
  return times;
}

}  // namespace

GroundMotionSamples sample_excitation(const Excitation& excitation, const Eigen::Vector3d& axis,
                                      double t_end_s) {
  const std::vector<double> edges = signal_edges(excitation);
  const auto along_axis = [&](double t) { return ground_acceleration(excitation, t).dot(axis); };
  GroundMotionSamples samples;
  for (double t : sample_times(excitation, t_end_s)) {
    const double value = along_axis(t);
    if (t > 0.0 && std::binary_search(edges.begin(), edges.end(), t)) {
      const double left = along_axis(std::nextafter(t, -std::numeric_limits<double>::infinity()));
      if (left != value) {
        samples.time_s.push_back(t);
        samples.acceleration_m_s2.push_back(left);
      }
    }
    samples.time_s.push_back(t);
    samples.acceleration_m_s2.push_back(value);
  }
  return samples;
}

}  // namespace routh
