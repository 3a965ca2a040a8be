#pragma once
// Where a simulation sends its trajectory as it produces it: the HDF5 recorder writes it to a
// file (trajectory_recorder.hpp), a test keeps it in memory.

#include <Eigen/Core>
#include <cstdint>

#include "sim/simulation/energy.hpp"
#include "sim/simulation/event_record.hpp"

namespace routh {

/// Why a state was sampled. The values are what a trajectory file's /sample_kind holds.
enum class SampleKind : std::uint8_t {
  output = 0,        ///< a regular sample, at the output rate
  before_event = 1,  ///< the state just before an event (the left limit of v)
  after_event = 2,   ///< the state just after the events of one instant (the right limit of v)
};

class TrajectoryObserver {
 public:
  virtual ~TrajectoryObserver() = default;
  /// One state of the trajectory: a regular sample, or the state just before or after an event
  /// (`kind`; the two share the event's time).
  virtual void record_sample(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                             const Energy& energy, SampleKind kind) = 0;
  virtual void record_event(const EventRecord& event) = 0;
};

}  // namespace routh
