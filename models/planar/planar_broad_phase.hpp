#pragma once
// The broad phase of a planar tree (MechanicalSystem::nearby_contacts): which of its contacts
// (planar_contact_candidates.hpp) may close soon, in O(B² + near candidates) for B bodies.
//
// Margin: each body is bounded by the circle about its origin of radius R = bounding_radius of its
// shape. A body pair is near when those circles come closer than m = ½ max(R_a, R_b), a body near
// an obstacle when its circle comes closer than m = ½ R; within a near pair or body–obstacle
// group a candidate is listed when its gap is below the same m. A contact left out is therefore
// m or farther apart (or does not exist, below), and cannot close before the next call as long as
// the two bodies' points move less than m relative to each other in between: the caller calls
// often enough that no body point moves a quarter of its body's size (broad_phase_step_bound_s).
//
// Existence (contact_pair_kinematics.hpp): a vertex within its edge's extent is listed only when
// it is not deeper behind the edge than half the polygon's depth there (a segment: not behind it
// at all, d > −1e-9 L) and, behind it by more than 1e-6 L, no deeper than behind those
// neighbouring edges whose reversed normals lie within the vertex's normal cone (to 1e-9 L), so
// that a vertex on one face of a block is not read as sunk into the opposite face, nor into a
// side face whose end it lies at, and only when the edge's outward normal, reversed, is within 30°
// of the vertex's normal cone (the directions in which the vertex is its body's extreme point): a
// vertex touches an edge's inside only so, and a corner of one block resting at a corner of another
// then touches the face it rests on, not also the side face through the same corner (whose gap is
// zero too, and whose normal would stop the blocks sliding apart). A pair left out by the cone
// cannot come into contact before the next call as long as the two bodies also turn less than 30°
// relative to each other in between. A vertex beyond its extent is listed by its gap alone. A disk
// past an edge's end touches the end corner only while the direction from the corner to the disk's
// centre lies within 30° of the corner's normal cone; within the edge's extent, as a vertex (by its
// centre's d); before the edge's start, by its gap alone. A vertex within a hair of a segment's
// line, where both of its faces exist, is listed against the face on its own body's side only,
// unless its body lies along the line: then, at a joint, against the face on the side of the body
// joined there (a chain's joint on a link lying flat on another touches from the next link's
// side, or that link would cross the line), and otherwise, or when that body lies along the line
// too, against both (the simulator keeps the one it had).
// Listed contacts (the description's `contacts`) are always listed.

#include <vector>

#include "models/planar/planar_contact_candidates.hpp"
#include "models/planar/planar_kinematics.hpp"

namespace routh {

/// Tolerance on a vertex's or corner's normal cone [rad], 30°.
inline constexpr double kNormalConeTolerance_rad = 0.5235987755982988;

/// Reach of a body between two calls of the broad phase, as a fraction of its bounding radius R,
/// at the speed where the call is made. The simulator lets a step reach 1.5 times as far where
/// the body speeds up within it: ¼ R. Two bodies each moving less than ¼ of their own R come
/// less than ½ max(R_a, R_b) (a pair's margin) closer, and a body less than ½ R (an obstacle's
/// margin) closer to an obstacle.
inline constexpr double kBroadPhaseReach = 1.0 / 6.0;
/// The longest time [s] over which, moving with the velocities of `motion`, no body of `set`
/// that can touch another body moves a point farther than kBroadPhaseReach R (at speed
/// |ȯ| + |ω| R; a disk centred on its origin at |ȯ|, turning moves none of its outline): the
/// broad phase's assumption, as a bound on the integrator's steps. Infinite without body pairs:
/// against an obstacle, a half-plane, no step can pass through and out again, so a contact that
/// closed within a step is behind its obstacle, and listed, at the step's end. It bounds turning
/// too: a body turning at ω moves its farthest point at |ω| R, so it turns less than 1.5
/// kBroadPhaseReach = ¼ rad (14.3°) in a step, two bodies less than the normal cones' 30° relative
/// to each other.
double broad_phase_step_bound_s(const PlanarContactSet& set, const TreeMotion& motion);

/// The nearby contacts of `set` with the bodies at `motion` (only positions are read), ascending,
/// into `nearby` (cleared first; no allocation once it has the capacity).
void nearby_planar_contacts(const PlanarContactSet& set, const TreeMotion& motion,
                            std::vector<int>& nearby);

}  // namespace routh
