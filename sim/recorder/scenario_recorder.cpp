#include "sim/recorder/scenario_recorder.hpp"

#include <utility>

#include "models/planar/model_description.hpp"
#include "sim/excitation/excitation.hpp"

namespace routh {

TrajectoryRecorder open_scenario_recorder(const Scenario& scenario,
                                          const std::filesystem::path& path) {
  const MechanicalSystem& model = *scenario.model;
  TrajectoryRecorder recorder(
      path,
      RecorderHeader{scenario.law, scenario.effective_yaml, model.coordinate_names(),
                     model.coordinate_units(), model.contact_names(),
                     model_description_json(*scenario.model), model.velocity_names(),
                     model.velocity_units()},
      TrajectoryRecorder::kDefaultBufferSamples, scenario.output_flush_interval);
  if (scenario.excitation) {
    recorder.record_ground_acceleration([excitation = scenario.excitation](double t) {
      return ground_acceleration(*excitation, t);
    });
  }
  return recorder;
}

}  // namespace routh
