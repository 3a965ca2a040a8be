#pragma once
// A free body's slenderness α about the base edge it rocks on, and its tilt measured in it
// (θ/α, the per-body figure max_theta_over_alpha; docs/output.md). Housner (1963), "The behavior
// of inverted pendulum structures during earthquakes": a rigid block of half-width b and
// half-height h standing on a base starts to rock when the ground's acceleration reaches
// g tan α, tan α = b/h, and under gravity alone it overturns once its tilt passes α; θ/α says
// how near to overturning a rocking came, whatever the block's size.
//
// For any body standing upright on a flat base, leaning so that its top moves toward the
// horizontal unit direction l (body frame, upright pose), it rocks on the edge (or corner) of
// its base furthest along l, and
//     tan α(l) = σ(l) / h,   σ(l) = max_i p_i · l + ρ,   h = max_i (−p_i · a),
// p_i the base's corners from the centre of mass, ρ how far a rounded base reaches beyond them
// (a cylinder's base: its centre and radius r, so tan α = r / h), a the body's up axis: σ is
// the horizontal distance from the centre of mass to that edge, h the centre's height above the
// base. A rectangular block rocking square to a face has tan α = b/h; leaning toward a corner,
// σ is the corner's distance along l.
//   planar  θ − θ₀ > 0 turns the body counter-clockwise: its top moves toward −x and it rocks
//           on its left-most base corner (α₊); θ − θ₀ < 0 on its right-most (α₋).
//   spatial l is the horizontal part of the up axis R a, taken back into the body frame and
//           made perpendicular to a (the lean in the upright pose).

#include <Eigen/Core>
#include <vector>

#include "sim/simulation/upright_tilt.hpp"

namespace routh {

/// The base a body stands on, in its frame, from its centre of mass [m] (a planar body's with
/// z = 0): the corners of its outline and how far the outline reaches beyond them.
struct StandingBase {
  std::vector<Eigen::Vector3d> corners_m;
  double rounding_m = 0.0;  ///< ρ: a disk base's radius about its one corner, its centre
};

/// α(l) [rad] for the unit body-frame lean l ⊥ up (the header comment); NaN where the base is
/// empty or does not stand under the centre of mass along l (σ ≤ 0 or h ≤ 0).
double slenderness_rad(const StandingBase& base, const Eigen::Vector3d& up,
                       const Eigen::Vector3d& lean);

/// The body's tilt from upright over α of the direction it leans in at q; 0 upright, NaN where
/// α is.
double tilt_over_slenderness(const UprightFrame& frame, const StandingBase& base,
                             const Eigen::VectorXd& q);

}  // namespace routh
