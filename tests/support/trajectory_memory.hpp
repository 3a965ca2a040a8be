#pragma once
// A TrajectoryObserver that keeps everything in memory, for tests.

#include <vector>

#include "sim/simulation/simulator.hpp"

namespace routh::test {

struct TrajectoryMemory final : TrajectoryObserver {
  struct Sample {
    double t;
    Eigen::VectorXd q, v;
    Energy energy;
    SampleKind kind = SampleKind::output;
  };
  std::vector<Sample> samples;
  std::vector<EventRecord> events;

  void record_sample(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                     const Energy& energy, SampleKind kind) override {
    samples.push_back({t, q, v, energy, kind});
  }
  void record_event(const EventRecord& event) override { events.push_back(event); }

  std::vector<double> times_of(EventKind kind) const {
    std::vector<double> times;
    for (const auto& event : events) {
      if (event.kind == kind) times.push_back(event.t);
    }
    return times;
  }
};

}  // namespace routh::test
