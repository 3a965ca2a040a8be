#pragma once
// Static friction of a statically indeterminate spatial contact set (a box flat on four corners,
// or on an incline): which of the force distributions that hold the bodies alike is reported,
// and the set's stick reserve R, the value its slip witness watches (witnesses.hpp).
//
// The acceleration-level solve (contact_forces.hpp) gives the minimum-norm forces λ0 and a basis
// N of the force-free distributions (W N = 0); every λ0 + N z holds the bodies alike. A spatial
// contact's static cone is the true quadratic one, ‖λ_t‖ ≤ μs λ_n with λ_t = (λ_t1, λ_t2), so the
// planar linear program of static_friction.hpp does not apply. The rule here is a weighted least
// squares: among λ0 + N z, the one that minimizes
//
//     Σ_k ‖λ_t,k‖² / (μs,k N̄_k)  +  Σ_k λ_n,k² / N̄,        N̄_k = λ0_n,k > 0, N̄ their mean,  (1)
//
// whose tangential part, at fixed normal forces, is the distribution proportional to each
// contact's capacity μs,k λ_n,k (Lagrange: λ_t,k / (μs,k N̄_k) is the same for every k). For
// contacts on one plane with one μs the normal and tangential parts decouple (tangential forces
// in the plane have no moment about axes in it), and when the load is a force through the body
// (gravity, on a floor or an incline) the proportional split is itself a solution: its forces
// N_k (n + c) are parallel, their resultant acts at the centre of pressure, which is where the
// load's line meets the plane. Every contact then uses the same fraction ρ = ‖Σλ_t‖ / (μs Σλ_n)
// of its cone, and the set sticks exactly while ρ < 1: a box on an incline below its friction
// angle (tan β < μs) stays. Of λ0 and the distribution of (1), the one with the smaller largest
// utilization ρ = max_k ‖λ_t,k‖ / (μs,k λ_n,k) is reported, and the set's reserve is
//
//     R = (1 − ρ) Σ_k μs,k λ_n,k   [N],                                                     (2)
//
// positive exactly while every contact of the set lies strictly inside its cone, and equal to
// μs Σλ_n − ‖Σλ_t‖ for the proportional split. Unlike the planar program this is a sufficient
// test, not an exact one: a set whose loads are not in proportion to its normal forces may have
// a distribution inside every cone that (1) misses. Where (1) leaves a cone (ρ ≥ 1), program (3)
// below decides (cylinder campaign run 2702: a squat cylinder rolling on its side down an
// incline, on the deepest points of both rims, which lie on a line along its axis; (1) gave the
// lightly loaded top rim 1.03 of its cone, where squeezing the rims along the axis holds both
// inside theirs; its top rim was held sliding along the axis, where the rims' fixed distance
// lets it not slip, on a slip acceleration of round-off, whose sign at the rims' next hand-over
// refused it, and the run ended in contact_modes_unresolved).
//
// Where some λ0_n,k ≤ 0 the loads N̄_k of (1) do not exist, yet another distribution may push
// everywhere: a box leaning from a floor corner against a wall corner, whose minimum-norm forces
// pull at the wall, while squeezing the two corners together (the set's force-free direction)
// pushes at both (box campaign runs 1101 and 1165: stick at both corners was refused for a
// pulling wall, every other assignment was inconsistent too, and the runs ended in Painlevé's
// paradox). That distribution is the one of largest common margin,
//
//     maximize m over (z, m)  subject to  μs,k λ_n,k − ‖λ_t,k‖ ≥ m μs,k S   (sticking k),
//                                         λ_n,k ≥ m S  (every k),   m ≤ 1,                  (3)
//
// with S the largest |λ0| entry: a second-order cone program, solved with each cone replaced by
// a polygon that holds it, first of 8 facets tangent to it (e·λ_t ≤ μs λ_n for 8 unit directions
// e), a linear program, which Lemke's method solves (spatial_static_friction.cpp); where its
// distribution leaves a true cone, the facet tangent to that cone along its λ_t is added and the
// program solved again (cutting planes), until the true margin there is within 0.1 % of the
// program's m, which bounds it from above. The distribution's true margin m is reported as
// R = m S Σ_k μs,k: a set that the cones hold by a margin of a few per cent is found, which
// polygons inscribed in the cones missed (they gave up 1 − cos(π/8) ≈ 8 % of each: box campaign
// run 953). Where (3) finds no distribution of m > 0, the verdict of (1) stands where λ0 pushes
// everywhere; where it pulls, λ0 stays and R = +∞: the set has no verdict, and the lift-off
// witness decides; so too for a set whose program exceeds kInlineLcpSize unknowns (more than six
// sticking contacts), which is not solved, and the cuts stop where the next program would exceed
// it.

#include <Eigen/Core>
#include <vector>

namespace routh {

/// A closed contact of the set: where its unknowns sit in λ (its normal; when it sticks, its two
/// tangential ones follow) and its μs.
struct SpatialSetContact {
  int normal = 0;
  bool sticks = false;
  double static_friction = 0.0;
};

/// Replaces `lambda` (λ0 on entry) by the distribution of (1) when it uses the cones less, or
/// that of (3) where (1) leaves a cone, and returns its R [N] (+∞ without a verdict). `force_free`
/// is N (its rows are λ's).
double distribute_spatial_static_friction(const std::vector<SpatialSetContact>& contacts,
                                          const Eigen::MatrixXd& force_free,
                                          Eigen::VectorXd& lambda);

}  // namespace routh
