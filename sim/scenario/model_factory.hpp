#pragma once
// The named models a scenario's `model.type` selects (models/named_models.hpp), with the
// parameters each one reads:
//
//   type             parameters (SI: m, kg)                     contacts
//   ball             radius, mass                               floor
//   rod              length, mass                               left_end, right_end
//   rocking_block    width, height, mass                        left_corner, right_corner
//   pendulum         length, mass, obstacle                     tip
//   double_pendulum  (none: paper 000's two 2 m, 3 kg rods)     tip
//   chain            links, length, mass, angles, obstacle      tip (with an obstacle)
//
// Ranges (labs to buildings): lengths (radius, length, width, height) in [1e-6, 1e6] m, masses
// in [1e-9, 1e9] kg, obstacle positions in [-1e6, 1e6] m, gravity in [0, 1000] m/s²; a value
// outside is an input error naming the range.
// Every type also takes `gravity` [m/s²] (default 9.81, pointing −y). `obstacle` is
// {type: wall, position: x [m], free_side: positive|negative} (a vertical wall at x, the free
// side x ≥ position when positive) or {type: floor, position: y [m]} (the floor y ≥ position);
// the pendulum's default is the wall through its pivot, {type: wall, position: 0, free_side:
// positive}; a chain has no obstacle unless given one. `angles` is absolute (default: each
// link's angle from the downward vertical) or relative (to the previous link).

#include <yaml-cpp/yaml.h>

#include <memory>
#include <span>
#include <string_view>

#include "models/planar/planar_tree.hpp"
#include "sim/scenario/yaml_input.hpp"

namespace routh {

/// A number for the effective scenario, written in its shortest round-trip form (0.1, not
/// 0.10000000000000001).
YAML::Node number_node(double value);

/// The `model.type` names, in table order.
std::span<const std::string_view> model_types();

struct BuiltModel {
  std::unique_ptr<PlanarTree> tree;
  YAML::Node effective;  ///< type, every parameter (defaults filled in) and gravity
};

/// Reads the `model` map and builds the model; `ground_acceleration` is the base excitation
/// (empty: none). An unknown type names the closest one; bad parameters are located errors.
BuiltModel build_model(const InputNode& model, GroundAcceleration ground_acceleration);

}  // namespace routh
