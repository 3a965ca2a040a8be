#include "sim/recorder/scenario_recorder.hpp"

#include <utility>

#include "sim/excitation/excitation.hpp"

namespace routh {

TrajectoryRecorder open_scenario_recorder(const Scenario& scenario,
                                          const std::filesystem::path& path) {
  const MechanicalSystem& model = *scenario.model;
  TrajectoryRecorder recorder(
      path,
      RecorderHeader{scenario.law, scenario.effective_yaml, model.coordinate_names(),
                     model.coordinate_units(), model.contact_names(), scenario.model_json,
                     model.velocity_names(), model.velocity_units()},
      TrajectoryRecorder::kDefaultBufferSamples, scenario.output_flush_interval);
  if (scenario.excitation) {
    recorder.record_ground_acceleration(
        [excitation = scenario.excitation](double t) {
          return ground_acceleration(*excitation, t);
        },
        scenario.dimension);
  }
  return recorder;
}

}  // namespace routh
