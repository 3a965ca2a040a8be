#pragma once
// The contacts of free rigid bodies in 3D (models/spatial/spatial_bodies.hpp): which features touch
// which, and per contact its gap, its three Jacobian rows and their velocity products J̇v.
//
// Every contact is a point p_a on body a (offset a = p_a − x_a from its centre of mass, world
// axes) against a point p_b on a plane or on a second body b, with a unit normal n from b towards
// a and a tangent basis (t₁, t₂):
//     g = n · (p_a − p_b),    u_d = d · (ṗ_a − ṗ_b) for d = n, t₁, t₂,
//     ṗ_a = v_a + ω_wa × a    (the velocity of the material point of a at p_a),
// so that the rows of J are d against v_a and Rᵀ(a × d) against ω_a (and their negatives for b).
// J̇v is the derivative of u_d(q, v) along q̇ = N(q) v with v held, which keeps ω_w constant
// (rigid_body_kinematics.hpp):
//     J̇v_d = ḋ · (ṗ_a − ṗ_b) + d · (ω_wa × ȧ − ω_wb × ḃ),
// where ȧ is the offset's rate: ω_wa × a for a point fixed on the body, plus the rate at which the
// contact point moves over the body where it does (a sphere's lowest point, a rim's deepest
// point). This is the exact derivative of the contact velocity the simulator constrains, so that a
// sticking contact keeps u = 0: for a ball rolling on a plane the tangential J̇v is zero.
//
// Features (names as in spatial_bodies.hpp):
//   sphere–plane    a = R c − ρ n (c the sphere's centre on the body): ȧ = ω_w × R c.
//   corner–plane    a = R r for each of a box's 8 corners.
//   sphere–sphere   n = (c_a − c_b)/|c_a − c_b|, ṅ = (I − n nᵀ)(ċ_a − ċ_b)/|c_a − c_b|,
//                   a = R_a c_a − ρ_a n, b = R_b c_b + ρ_b n (points on the line of centres).
//   rim–plane       the rim circle r(φ) = (ρ cos φ, ρ sin φ, ±h/2) of a cylinder; with m = Rᵀ n
//                   the normal in the body frame and μ = (m_x, m_y), the point deepest along −n
//                   is r* = (−ρ μ/|μ|, ±h/2), and it moves over the body at
//                   ṙ* = −ρ (I − û ûᵀ) μ̇ / |μ|, û = μ/|μ|, μ̇ the xy part of ṁ = −ω × m.
//   fixed rim point each rim also carries three material points at 90°, 210° and 330° (BODY.
//                   top_rim.0/PLANE …): a cylinder standing on its base needs three non-collinear
//                   supports, and a single deepest point cannot be one: it is undefined when the
//                   axis is along n (μ = 0), where ṙ* grows as 1/|μ|.
// The rim's two kinds of contacts take turns (spatial_contact_exists()): the deepest point exists
// while the rim is tilted, ρ |μ| ≥ kFlatRim_m, the three fixed points while it is flat. A flat
// rim's lowest point is at most kFlatRim_m below its fixed points, far below the simulator's
// overlap limit, and the two kinds never coincide: at a tilt below that, the deepest point is taken
// at û = (1, 0), r* at 180° (none of the fixed points' angles), and ṙ* is not followed (a closed
// contact the simulator keeps while its rim comes to lie flat reads as that material point).
//
// Tangent basis (t₁, t₂) of a normal n, smooth in n except where the choice of axis changes:
// e the world axis of n's component smallest in magnitude (the first on a tie), so that
// |n × e| ≥ √(2/3), t₂ = (n × e)/|n × e|, t₁ = t₂ × n; a floor (n = z) gets t₁ = x, t₂ = y. A
// plane's normal is fixed, so its basis is constant; a sphere pair's turns with the line of
// centres and switches axis only where two components of n have equal magnitude.

#include <Eigen/Core>
#include <string>
#include <vector>

#include "models/spatial/rigid_body_kinematics.hpp"
#include "models/spatial/spatial_bodies.hpp"

namespace routh {

/// How far [m] a rim's deepest point may lie below its centre's level before the rim counts as
/// tilted: below it, the rim is carried by its fixed points (the header comment).
inline constexpr double kFlatRim_m = 1e-9;

enum class SpatialFeature { sphere, corner, deepest_rim_point, fixed_rim_point, sphere_pair };

/// One contact: a feature of `body` against plane `plane` or, for a sphere pair, against body
/// `other`.
struct SpatialContact {
  SpatialFeature feature = SpatialFeature::sphere;
  int body = 0;
  int plane = -1;  ///< −1 for a sphere pair
  int other = -1;  ///< −1 against a plane
  /// On `body`: the sphere's centre, the corner, the rim's centre (0, 0, ±h/2) or the fixed rim
  /// point [m], body frame.
  Eigen::Vector3d point_m = Eigen::Vector3d::Zero();
  double radius_m = 0.0;  ///< the sphere's or the rim's radius [m]; 0 for a corner
  Eigen::Vector3d other_point_m = Eigen::Vector3d::Zero();  ///< the other sphere's centre [m]
  double other_radius_m = 0.0;                              ///< the other sphere's radius [m]
};

/// A contact's quantities at one state.
struct SpatialContactRows {
  double gap_m = 0.0;
  Eigen::Matrix<double, 3, 6> body_rows;   ///< ∂u/∂v_a, rows n, t₁, t₂
  Eigen::Matrix<double, 3, 6> other_rows;  ///< ∂u/∂v_b (zero against a plane)
  Eigen::Vector3d jacobian_dot_v;          ///< J̇v [m/s²]
};

/// The contacts of `description` in the model's order: per body, per plane, its features
/// (a sphere's one; a box's 8 corners; a cylinder's top rim, its 3 fixed points, then the
/// bottom's), then the sphere pairs (a, b), a < b, in lexicographic order. Their names into
/// `names`.
std::vector<SpatialContact> spatial_contacts(const SpatialBodiesDescription& description,
                                             std::vector<std::string>& names);

/// Whether the contact exists at this pose (the rim's deepest and fixed points take turns).
bool spatial_contact_exists(const SpatialContact& contact, const SpatialBodyMotion& body,
                            const SpatialPlane* plane);

/// The gap alone (for the broad phase and the overlap check).
double spatial_contact_gap(const SpatialContact& contact, const SpatialBodyMotion& body,
                           const SpatialBodyMotion* other, const SpatialPlane* plane);

/// Gap, rows and J̇v of `contact`; `other` is null against a plane, `plane` null for a pair.
SpatialContactRows spatial_contact_rows(const SpatialContact& contact,
                                        const SpatialBodyMotion& body,
                                        const SpatialBodyMotion* other, const SpatialPlane* plane);

}  // namespace routh
