#pragma once
// The header of a made-up trajectory that the recorder and reader tests write: a planar rod
// (x, y, θ) with its two corners as contacts, under the poisson law.

#include <string>
#include <utility>

#include "sim/recorder/trajectory_recorder.hpp"

namespace routh::test {

/// The rod's header with the scenario text and model JSON a test needs stored in the file.
inline RecorderHeader rod_recorder_header(std::string scenario_yaml, std::string model_json = "") {
  return RecorderHeader{"poisson",         std::move(scenario_yaml),        {"x", "y", "theta"},
                        {"m", "m", "rad"}, {"left_corner", "right_corner"}, std::move(model_json)};
}

}  // namespace routh::test
