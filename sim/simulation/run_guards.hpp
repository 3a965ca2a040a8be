#pragma once
// Guards (docs/simulation.md, step 7): what ends a run that cannot complete, with a named RunStatus
// instead of NaN samples or an endless loop. The loop asks them after every step and event.

#include <Eigen/Core>
#include <chrono>
#include <optional>
#include <string>

#include "sim/dynamics/mechanical_system.hpp"
#include "sim/simulation/run_status.hpp"

namespace routh {

/// Whether q and v hold only finite numbers.
inline bool is_finite_state(const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  return q.allFinite() && v.allFinite();
}

/// [m] how deep shaped bodies may overlap each other or an obstacle
/// (MechanicalSystem::deepest_overlap_m) before the run ends as `interpenetration`. Contacts close
/// at gaps within the contact distance and drift back to within 1e-10 m
/// (constraint_projection.hpp), so an overlap of a micrometre is not the contact handling's doing:
/// a contact closed without its gap witness seeing it, and the bodies went on through each other.
/// Going on would report a motion that is not the system's.
inline constexpr double kOverlapLimit_m = 1e-6;

/// An event storm: events that follow each other without simulated time advancing. Events closer
/// than kSameInstant [s] to the first of a run of them count as one instant; more than
/// kMaxEventsPerInstant of them there is a storm (a Zeno sequence that is not geometric, or
/// tolerances that cannot separate events). A legitimate accumulation is jumped to its limit
/// (rest_rule.hpp) long before: a ball's 146 impacts span 8 s.
class EventStormGuard {
 public:
  static constexpr double kSameInstant = 1e-9;
  static constexpr int kMaxEventsPerInstant = 1000;

  /// Counts an event at t [s]; true when it makes a storm.
  bool storm(double t);

 private:
  double instant_ = -1.0;
  int events_ = 0;
};

/// The wall-clock limit of a run (`routh run --time-limit`); 0 or less, infinity, or more than
/// half of what the steady clock can count from now (over a century): none.
class WallClockLimit {
 public:
  explicit WallClockLimit(double seconds);
  bool reached() const;

 private:
  std::optional<std::chrono::steady_clock::time_point> deadline_;
};

/// Why the run is to stop between steps: a stop request (SIGINT or SIGTERM, stop_request.hpp) or
/// the wall-clock limit; nothing if neither.
std::optional<RunStatus> interruption(const WallClockLimit& wall_clock);

/// What an interruption() means, in words.
std::string interruption_detail(RunStatus reason);

/// Bodies overlapping deeper than kOverlapLimit_m at q went through each other where a contact's
/// gap closed unseen by its witness: the run cannot go on right. What overlaps, in words, or
/// nothing while the bodies are apart.
std::optional<std::string> interpenetration(const MechanicalSystem& system,
                                            SystemWorkspace& workspace, const Eigen::VectorXd& q);

}  // namespace routh
