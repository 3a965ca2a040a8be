#pragma once
// Where a simulation sends its trajectory as it produces it: the HDF5 recorder writes it to a
// file (trajectory_recorder.hpp), a test keeps it in memory.

#include <Eigen/Core>

#include "sim/simulation/energy.hpp"
#include "sim/simulation/event_record.hpp"

namespace routh {

class TrajectoryObserver {
 public:
  virtual ~TrajectoryObserver() = default;
  /// One state of the trajectory: a regular sample, or the state just before or after an event.
  virtual void record_sample(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                             const Energy& energy) = 0;
  virtual void record_event(const EventRecord& event) = 0;
};

}  // namespace routh
