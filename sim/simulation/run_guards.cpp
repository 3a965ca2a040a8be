#include "sim/simulation/run_guards.hpp"

#include <cmath>

#include "sim/simulation/stop_request.hpp"
#include "sim/text.hpp"

namespace routh {

bool EventStormGuard::storm(double t) {
  if (!(std::abs(t - instant_) <= kSameInstant)) {
    instant_ = t;
    events_ = 0;
  }
  return ++events_ > kMaxEventsPerInstant;
}

WallClockLimit::WallClockLimit(double seconds) {
  using Clock = std::chrono::steady_clock;
  if (!(seconds > 0.0)) return;
  const Clock::time_point now = Clock::now();
  // A limit near or beyond the clock's range (about 292 years of nanoseconds from its epoch, or
  // infinity) is no limit: converted, it would overflow into the past and stop the run at once.
  // Half the range left keeps the double's rounding of the conversion well clear of it.
  const std::chrono::duration<double> room = Clock::time_point::max() - now;
  if (!(seconds < 0.5 * room.count())) return;
  deadline_ =
      now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

bool WallClockLimit::reached() const {
  return deadline_ && std::chrono::steady_clock::now() >= *deadline_;
}

std::optional<RunStatus> interruption(const WallClockLimit& wall_clock) {
  if (stop_requested()) return RunStatus::interrupted;  // SIGINT/SIGTERM (stop_request.hpp)
  if (wall_clock.reached()) return RunStatus::time_limit;
  return std::nullopt;
}

std::string interruption_detail(RunStatus reason) {
  return reason == RunStatus::interrupted ? "stopped on request (SIGINT or SIGTERM)"
                                          : "the wall-clock limit was reached";
}

std::optional<std::string> interpenetration(const MechanicalSystem& system,
                                            SystemWorkspace& workspace, const Eigen::VectorXd& q) {
  const double depth_m = system.deepest_overlap_m(q, workspace);
  if (!(depth_m > kOverlapLimit_m)) return std::nullopt;
  std::string where;
  system.deepest_overlap_m(q, workspace, &where);
  return cat(where, " overlap by ", depth_m, " m: a contact closed without an event");
}

}  // namespace routh
