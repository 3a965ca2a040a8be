#include "sim/simulation/forcing_breakpoints.hpp"

#include <cmath>
#include <limits>

namespace routh {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

}  // namespace

std::optional<double> breakpoint_reached(const DenseStepper& stepper,
                                         const SimulationSettings& settings) {
  if (!settings.next_breakpoint) return std::nullopt;
  const double t = stepper.current_time();
  const double breakpoint = settings.next_breakpoint(t);
  if (breakpoint < settings.duration && std::nextafter(t, kInfinity) >= breakpoint) {
    return breakpoint;
  }
  return std::nullopt;
}

void end_step_before_breakpoint(DenseStepper& stepper, const SimulationSettings& settings) {
  if (!settings.next_breakpoint) return;
  const double t = stepper.current_time();
  const double breakpoint = settings.next_breakpoint(t);
  const double last_before = std::nextafter(breakpoint, -kInfinity);
  if (!(breakpoint < settings.duration) || t + stepper.current_time_step() <= last_before) return;
  double step = last_before - t;
  while (t + step > last_before) step = std::nextafter(step, 0.0);
  stepper.initialize(stepper.current_state(), t, step);
}

}  // namespace routh
