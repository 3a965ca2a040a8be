#include "sim/excitation/excitation.hpp"

#include <algorithm>
#include <limits>

namespace routh {

namespace {

template <class Signal>
double next_edge_after(const Signal& signal, double t_s) {
  if (signal.start_s > t_s) return signal.start_s;
  const double end = end_time(signal);
  return end > t_s ? end : std::numeric_limits<double>::infinity();
}

double next_breakpoint_of(const HarmonicSignal& signal, double t_s) {
  return next_edge_after(signal, t_s);
}
double next_breakpoint_of(const PulseSignal& signal, double t_s) {
  return next_breakpoint_after(signal, t_s);
}
double next_breakpoint_of(const RecordSignal& signal, double t_s) {
  return next_sample_after(signal, t_s);
}

}  // namespace

Eigen::Vector3d ground_acceleration(const Excitation& excitation, double t_s) {
  Eigen::Vector3d sum = Eigen::Vector3d::Zero();
  for (const GroundSignal& item : excitation) {
    const double value =
        std::visit([t_s](const auto& signal) { return acceleration_at(signal, t_s); }, item.signal);
    sum += value * item.direction;
  }
  return sum;
}

double next_breakpoint(const Excitation& excitation, double t_s) {
  double next = std::numeric_limits<double>::infinity();
  for (const GroundSignal& item : excitation) {
    next = std::min(
        next, std::visit([t_s](const auto& signal) { return next_breakpoint_of(signal, t_s); },
                         item.signal));
  }
  return next;
}

}  // namespace routh
