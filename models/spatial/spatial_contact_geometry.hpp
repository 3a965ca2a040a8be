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
//   rim–plane       the rim circle r(φ) = (ρ cos φ, ρ sin φ, ±h/2) of a cylinder, against a plane
//                   at four points (below). With m = Rᵀ n the normal in the body frame and
//                   μ = (m_x, m_y), the rim's point deepest along −n is r* = (−ρ û, ±h/2),
//                   û = μ/|μ|, and it moves over the body at ṙ* = −ρ û̇,
//                   û̇ = (I − û ûᵀ) μ̇ / |μ|, μ̇ the xy part of ṁ = −ω × m.
//
// A rim's four contacts: the ends of its diameter along the tilt line ℓ (direction û), the deepest
// point −ρ û and the highest +ρ û, and the ends ±ρ e(ψ + 90°) of a diameter fixed on the body,
// where e(ψ) = (cos ψ, sin ψ) in the body's xy plane and ψ is the rim's base orientation (below).
// While the rim is tilted its deepest end carries it alone; a rim lying flat carries a base on all
// four, a square inscribed in the rim whose vertices are ±ρ e(ψ) (the tilt line's ends) and
// ±ρ e(ψ + 90°) (the fixed ends). The tilt line's ends are named by a convention fixed on the body
// through ψ, not by their role: the end with a positive projection on e(ψ) is x+ (on a tie, the one
// with a positive projection on e(ψ + 90°)), the other x−; the fixed ends are y+ and y−. With
// ψ = 0, e(ψ) is the body x: why by the body: a cylinder rocking in the x–z plane (turning about y)
// passes through upright at every slap of its base, where û turns into −û and the deepest end
// jumps to the far side of the rim; named by the body, its bottom rim's ends are the material
// points (±ρ, 0, −h/2) throughout, the corners of the planar rectangle, and the slap is an
// ordinary impact of the far end (x+ landing while x− pivots), as in Housner's rocking block. Named
// by role (one contact following the deepest point), the contact would stay closed through the
// slap while its point jumped across the base, and no impact would be located. A base turned to ψ
// rocks in the same way in the plane through the axis and e(ψ). Why the y ends are fixed and not
// the ends of the diameter across ℓ: a point that moves over the body keeps ġ = J_n v only where
// the rim's tangent is level along n, at its deepest and highest points (n · R ṙ = 0 there); across
// ℓ the rim is steepest, and a moving point there would have a gap whose rate is not its row's. A
// material point is consistent wherever it is.
//
// The convention itself swaps the ends where ℓ passes across e(ψ + 90°) (û · e(ψ) changes sign, a
// rim rolling round on the floor as a wobbling coin does): x+ jumps from one end of ℓ to the
// other. There a closed contact hands over by an event (mechanical_system.hpp, ContactKinematics::
// support, as a planar corner slides off the end of an edge): a tilt-line end held closed is the
// deepest point whatever its name (a tilted rim touches nowhere else), its surface going on past
// the end of its name's half-rim, and its support
//     s = −σ ρ (û · e(ψ))        (σ = +1 for x+, −1 for x−)
// is > 0 while the deepest point is on its name's side, and crosses zero where the names swap:
// the simulator opens it there and settles the contacts again, in which the other name, now the
// deepest point and touching, takes over. An open end is the end of its name; the same s is > 0
// exactly while that is the deepest point (on the tie û · e(ψ) = 0, s takes the convention's sign
// at the smallest normal magnitude: read 0 there, the end was opened while still named the deepest
// point, closed again at once, and its hand-over lost). A tilt-line end held while the rim lies
// flat and then tilted onto its other end (the far side lifting) reads the deepest point with
// s = −ρ at once: its support jumps from ρ (flat, below) through zero, and the event opens it, the
// end that lifts.
//
// Flat rim: û is undefined where μ = 0 and û̇ grows as 1/|μ|. While the deepest point lies less
// than kFlatRim_m below the rim's centre level (ρ |μ| < kFlatRim_m, far below the simulator's
// overlap limit), the rim counts as flat: û is taken as e(ψ), the tilt line's ends are the
// material points ±ρ e(ψ), their motion over the body is not followed, and their supports are ρ. A
// rim rocking in the plane of e(ψ) has û = ±e(ψ) on both sides of flat: its ends are the same
// material points inside and outside the flat band. Otherwise an end's gap jumps at the band's
// edge, by at most 2 kFlatRim_m; a jump across zero is struck on its far side, where the end
// touches (sim/simulation/event_scan.hpp, impact_time).
//
// The fixed ends belong to the flat base: the square it stands on inside the band. Their support
//     s = kFlatRim_m − ρ |μ|
// is > 0 exactly inside the band. A fixed end held closed is its material point until the base
// tips out of the band, where the support event opens it: a base that tips about the chord
// between two adjacent points of the square has the rim's deepest point between them, below the
// chord once tilted, and the deepest end carries the rim from there (held on, the fixed end and
// the deepest end together held the rim at the band's edge: event storms, crawls, failed steps).
// An open fixed end beyond the band is off the end of its surface, as a planar corner past the
// end of its edge, and reads the rim's highest point +ρ û (a point moving over the body whose row
// is its gap's rate, as a tilt line's end's), 2ρ |μ| ≥ 2 kFlatRim_m above the deepest point: it
// neither lands nor closes while the deepest point carries the rim. A coin rolling on its rim
// passes the instant its deepest point is a fixed end, where the tilt line's ends hand over and
// cover it; read as its material point there, the fixed end touched down with the lean's residue
// (1e-8 to 1e-6 m/s), and settling held it with the deepest point 7e-8 m away, which forbids
// rolling. Entering the band, its gap falls to its material point's by at most 2 kFlatRim_m: a rim
// that lands flat (a coin dropped flat, a drum falling back onto its base) lands on all four ends.
//
// Base orientation ψ: a disk of radius ρ standing on its base tips only once the centre of
// pressure of its normal load reaches its rim, at a ground acceleration g·2ρ/h for a drum of
// height h; a square inscribed in it, held as the base, tips about the chord between two of its
// vertices, whose middle lies only ρ/√2 from the centre: a drum loaded toward that chord (at 45°
// to its axes) uplifted at g·√2ρ/h, 29 % early, chattered and ended in Painlevé's paradox. So ψ is
// the run's discrete state, kept per rim in the model's workspace (every evaluation reads it; 0 at
// the start), and the simulator turns it (sim/simulation/base_orientation.hpp): where a point of a
// flat, held base would lift off while the centre of pressure c lies short of ρ, it turns the
// square's vertex x+ to c and settles the contacts again, so that the square reaches ρ along the
// load, and a base tips only when c reaches the rim, about the vertex x+, the deepest end then by
// the convention above. A jump of ψ moves the four contacts to other material points of the same
// flat base: their gaps are those of the base, within kFlatRim_m, and their normal velocities
// those of a base that does not tilt (no angular velocity about a level axis once held flat),
// ~0 as well, so that no impact or overlap arises from the jump.
//
// Tangent basis (t₁, t₂) of a normal n, smooth in n except where the choice of axis changes:
// e the world axis of n's component smallest in magnitude (the first on a tie), so that
// |n × e| ≥ √(2/3), t₂ = (n × e)/|n × e|, t₁ = t₂ × n; a floor (n = z) gets t₁ = x, t₂ = y. A
// plane's normal is fixed, so its basis is constant; a sphere pair's turns with the line of
// centres and switches axis only where two components of n have equal magnitude.

#include <Eigen/Core>
#include <limits>
#include <string>
#include <vector>

#include "models/spatial/rigid_body_kinematics.hpp"
#include "models/spatial/spatial_bodies.hpp"

namespace routh {

/// How far [m] a rim's deepest point may lie below its centre's level before the rim counts as
/// tilted: below it, its four ends are fixed on the body and the fixed ends y± exist (the header
/// comment).
inline constexpr double kFlatRim_m = 1e-9;

enum class SpatialFeature { sphere, corner, tilt_line_end, fixed_rim_point, sphere_pair };

/// One contact: a feature of `body` against plane `plane` or, for a sphere pair, against body
/// `other`.
struct SpatialContact {
  SpatialFeature feature = SpatialFeature::sphere;
  int body = 0;
  int plane = -1;  ///< −1 for a sphere pair
  int other = -1;  ///< −1 against a plane
  /// On `body`: the sphere's centre, the corner, or the rim's centre (0, 0, ±h/2) for a rim's end
  /// [m], body frame.
  Eigen::Vector3d point_m = Eigen::Vector3d::Zero();
  double rim_side = 1.0;  ///< a rim end's σ: +1 for x+ and y+, −1 for x− and y−
  int rim = -1;  ///< a rim end's rim, numbered over the model (its ψ); −1 for the others
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
  double support_m = std::numeric_limits<double>::infinity();  ///< s of a rim's end
};

/// The contacts of `description` in the model's order: per body, per plane, its features
/// (a sphere's one; a box's 8 corners; a cylinder's top rim's ends x+, x−, y+, y−, then the
/// bottom's), then the sphere pairs (a, b), a < b, in lexicographic order. Their names into
/// `names`.
std::vector<SpatialContact> spatial_contacts(const SpatialBodiesDescription& description,
                                             std::vector<std::string>& names);

/// The gap alone, of the contact open (for the broad phase and the overlap check); `base` is
/// e(ψ) of a rim's end's rim (the header comment), unread for the other features.
double spatial_contact_gap(const SpatialContact& contact, const SpatialBodyMotion& body,
                           const SpatialBodyMotion* other, const SpatialPlane* plane,
                           const Eigen::Vector2d& base);

/// Gap, rows, J̇v and support of `contact`; `other` is null against a plane, `plane` null for a
/// pair; `base` as above; `held`: the contact is held closed (a tilt-line end is then the deepest
/// point).
SpatialContactRows spatial_contact_rows(const SpatialContact& contact,
                                        const SpatialBodyMotion& body,
                                        const SpatialBodyMotion* other, const SpatialPlane* plane,
                                        const Eigen::Vector2d& base, bool held);

/// Whether the rim of rim end `end` lies flat against `plane` (within kFlatRim_m).
bool rim_lies_flat(const SpatialContact& end, const SpatialBodyMotion& body,
                   const SpatialPlane& plane);

/// Rim end `end`'s point on its flat base, a vertex of the square, from the rim's centre in the
/// body's xy plane [m]: σ ρ e(ψ) for x±, σ ρ e(ψ + 90°) for y± (`base` = e(ψ)).
Eigen::Vector2d flat_base_point(const SpatialContact& end, const Eigen::Vector2d& base);

}  // namespace routh
