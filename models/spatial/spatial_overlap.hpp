#pragma once
// How deep free rigid bodies in 3D overlap a plane or each other, measured on their shapes (not
// on the contacts' gaps): MechanicalSystem::deepest_overlap_m. A shape's extent along −n is its
// support function (Ericson, "Real-Time Collision Detection", 2005, §3.8): with m = Rᵀ n,
//     sphere    n · R c − ρ            box   −½ Σ_i |m_i| s_i
//     cylinder  −ρ |(m_x, m_y)| − ½ h |m_z|,
// so a body is behind a plane by −(n · (x − p) + support); two spheres overlap by
// ρ_a + ρ_b − |c_a − c_b|.

#include <limits>
#include <string>
#include <vector>

#include "models/spatial/spatial_broad_phase.hpp"

namespace routh {

/// How far [m] `shape` at `body`'s pose reaches behind `plane` (> 0 overlapping).
double plane_overlap_m(const SpatialShape& shape, const SpatialBodyMotion& body,
                       const SpatialPlane& plane);

/// The deepest overlap [m] of any body with any plane or of any near sphere pair (sweep at the
/// same poses), −∞ with neither; `where` receives "BODY/PLANE" or "BODY/OTHER".
double deepest_spatial_overlap_m(const SpatialContactSet& set,
                                 const SpatialBodiesDescription& description,
                                 const std::vector<SpatialBodyMotion>& bodies, SphereSweep& sweep,
                                 std::string* where);

}  // namespace routh
