#include "sim/simulation/run_guards.hpp"

#include <cmath>

namespace routh {

bool EventStormGuard::storm(double t) {
  if (!(std::abs(t - instant_) <= kSameInstant)) {
    instant_ = t;
    events_ = 0;
  }
  return ++events_ > kMaxEventsPerInstant;
}

WallClockLimit::WallClockLimit(double seconds) {
  if (seconds > 0.0) {
    deadline_ = std::chrono::steady_clock::now() +
                std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                    std::chrono::duration<double>(seconds));
  }
}

bool WallClockLimit::reached() const {
  return deadline_ && std::chrono::steady_clock::now() >= *deadline_;
}

}  // namespace routh
