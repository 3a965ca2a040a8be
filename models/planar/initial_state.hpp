#pragma once
// Completing a partial initial state so that a model starts where its user means: a rocking
// block given only θ rests on its lower corner, a ball given nothing sits on the floor, stacked
// blocks given nothing rest on each other.

#include <Eigen/Core>
#include <functional>
#include <map>
#include <string>

#include "models/planar/planar_tree.hpp"

namespace routh {

/// Values given by coordinate name, e.g. {{"theta", 0.1}} [m or rad] (for q), or
/// {{"theta", -0.5}} [m/s or rad/s] (for v: a velocity carries its coordinate's name).
using PartialState = std::map<std::string, double, std::less<>>;

/// A full planar state: q [m, rad], v = q̇ [m/s, rad/s].
struct PlanarState {
  Eigen::VectorXd q;
  Eigen::VectorXd v;
};

/// Completes a partial initial state. Names not among the tree's coordinates throw
/// std::invalid_argument, suggesting the closest valid name.
///  - Coordinates not given are 0 (angles: the model's reference pose), except the `y` of a free
///    body jointed to the ground: when it is not given, the body (with everything hanging from
///    it) is lowered from above onto what lies beneath it, and then *rests* there, touching with
///    gap 0 and penetrating nothing: an upward-facing obstacle (n_y > 0; met by its listed contacts
///    or its shapes' vertices and disks), or the shape of a body already placed. Bodies placed by
///    their given coordinates are there from the start; the others are placed in tree order, each
///    resting on those before it, so that blocks given nothing stack up bottom-first.
///  - Velocities not given are 0, except, for a resting body, its missing translational
///    velocities (of x and/or y): they are set so that a touching contact does not move along
///    the missing directions (e.g. a block given θ̇ rocks about its touching corner; a ball given
///    only θ̇ rolls). Of several touching contacts, the first about which no other touching
///    contact approaches the obstacle is the pivot.
PlanarState complete_initial_state(const PlanarTree& tree, const PartialState& q_given,
                                   const PartialState& v_given = {});

}  // namespace routh
