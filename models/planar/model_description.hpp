#pragma once
// A planar tree described for a reader who draws it without routh's C++: the JSON that a
// trajectory file keeps in /model (docs/output.md has the schema, field by field).
//
// Every body is described about its centre of mass, with axes along its body frame's: its shape's
// vertices, its disk's centre and its joint point are given relative to the centre of mass, so
// that a body's pose is (position of its centre of mass, angle φ). The pose follows from q and
// the parent's pose by one rule for every joint type:
//     φ     = θ (free or revolute, absolute), φ_parent + θ (relative), φ_parent (prismatic)
//     p_com = p_parent + R(φ_parent) (parent_point + d) − R(φ) child_point
// with d = (x, y) for a free joint, s · axis for a prismatic one, 0 for a revolute one, and the
// ground's pose (0, 0), 0. So a free body on the ground whose centre of mass is its frame's origin
// (every named model's) sits at p_com = (x, y), φ = θ.

#include <string>

#include "models/planar/planar_tree.hpp"

namespace routh {

/// The version of the description's schema, written beside it.
inline constexpr int kModelDescriptionVersion = 1;

/// The tree as JSON (one object, indented): conventions, gravity, coordinates, bodies with their
/// shapes, inertia and joints, obstacles, contacts. Built from the tree the simulation runs.
std::string model_description_json(const PlanarTree& tree);

}  // namespace routh
