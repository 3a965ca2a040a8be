#pragma once
// A flat base turned toward its load (models/spatial/spatial_contact_geometry.hpp, "Base
// orientation ψ"): the stage that sets a model's ContactBase orientations, discrete state of the
// run that the model's workspace keeps and every evaluation reads.
//
// A face standing flat on a plane on the points p_i of a polygon inscribed in its outline carries
// its load at the centre of pressure of their normal forces λ_i,
//     c = Σ λ_i p_i / Σ λ_i,
// which stays in the polygon's convex hull while every λ_i ≥ 0. A disk of radius ρ tips once c
// reaches its rim (|c| = ρ: a standing drum of height h under a ground acceleration a tips at
// a = g·2ρ/h, Housner's rocking block for a cylinder), but the square ±ρ e(ψ), ±ρ e(ψ + 90°) that
// carries a cylinder's rim reaches only ρ/(|cos δ| + |sin δ|) along a direction δ from e(ψ), as
// little as ρ/√2 midway between two vertices: held on the square alone, the drum would tip about
// the chord there, at g·√2ρ/h (a drum yawed by 45° to its load did, then chattered on 79 impacts
// and ended in Painlevé's paradox). So where a point of a flat base whose contacts are held would
// lift off (its normal-force witness, λ_n → 0, or, for a sticking base whose forces are
// indeterminate, the set's stick reserve, which reaches zero there: witnesses.hpp) while c lies
// short of ρ and off the base's direction, both by more than kBaseTurnTolerance, the base turns its
// vertex x+ to c, and the contacts are settled again: the square then reaches ρ along c, and the
// base tips only once c reaches ρ, about the vertex x+ (the point opposite may still lift as c
// passes ρ/2, which tips nothing). Why at a lift-off only: in between, the square carries c
// wherever it is, and a base that turned with every change of its load would move its contacts at
// every step.
//
// The turn moves the base's contacts to other material points of the same flat face: their gaps
// are the face's, within the flat band, and their normal velocities those of a face that does not
// tilt, ~0 (a held flat base has no tilt rate): the settling that follows sees no impact.

#include <Eigen/Core>
#include <vector>

#include "sim/simulation/contact_mode.hpp"
#include "sim/simulation/run_state.hpp"

namespace routh {

/// How far [rad, and a fraction of ρ] a base's centre of pressure must lie off its direction and
/// short of its rim for a lift-off to turn it: the base's reach along the load then falls short of
/// ρ by at most this fraction, and the tipping threshold of the disk is met to it.
inline constexpr double kBaseTurnTolerance = 1e-6;

/// At a lift-off of active contact k at (t, q, v) in `modes` (a normal-force or static-friction
/// witness of k fired: the latter also where k is about to slip, which turns nothing that matters:
/// the base stays the same face): turns k's flat base toward the
/// centre of pressure of its closed contacts (above), true if it turned. `workspace.base` is its
/// scratch.
bool turn_base_toward_load(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, int k,
                           const std::vector<ContactMode>& modes, RunWorkspace& workspace);

}  // namespace routh
