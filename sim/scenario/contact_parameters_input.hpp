#pragma once
// Reading one contact's restitution and friction from YAML, shared by impact problem files and
// scenario files: `restitution: e` in [0, 1], and `friction: {static: μs, kinetic: μd}` or one
// number for both, with a located warning when μd > μs.

#include <string>
#include <vector>

#include "sim/impact/impact_problem.hpp"
#include "sim/scenario/yaml_input.hpp"

namespace routh {

/// e ∈ [0, 1]; anything else is an error at the value.
double read_restitution(const InputNode& node);

/// μ ≥ 0; anything else is an error at the value.
double read_friction_coefficient(const InputNode& node);

/// Fills μs and μd of `contact` from `node`; a kinetic coefficient above the static one adds a
/// located warning to `warnings` (the laws then let either coefficient hold a stick).
void read_friction(const InputNode& node, ContactParameters& contact,
                   std::vector<std::string>& warnings);

}  // namespace routh
