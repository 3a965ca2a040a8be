#pragma once
// Named planar models, each a few lines on the generic PlanarTree (planar/planar_tree.hpp).
// Angles are counter-clockwise positive [rad]; gravity points −y; the floor is y ≥ 0 unless
// said otherwise. Every model's partial initial state is completed by complete_initial_state
// (planar/initial_state.hpp); what that does for each model is said below.
//
// | factory              | coordinates                     | contacts                          |
// | make_ball            | x, y, theta                     | floor                             |
// | make_rod             | x, y, theta                     | left_end, right_end               |
// | make_rocking_block   | x, y, theta                     | left_corner, right_corner,        |
// |                      |                                 | top_right_corner, top_left_corner |
// | make_pendulum        | theta                           | tip                               |
// | make_double_pendulum | theta1, theta2                  | tip                               |
// | make_chain           | theta1 … thetan                 | link1.end … link<n−1>.end, tip    |
// |                      |                                 | (when an obstacle is given)       |
// | make_stacked_blocks  | NAME.x, NAME.y, NAME.theta      | generated: NAME.VERTEX/floor,     |
// |                      | (NAME: block1 … blockn unless   | NAME.VERTEX/OTHER.EDGE            |
// |                      | the blocks are named)           |                                   |
// | make_two_disks       | disk<i>.x, disk<i>.y,           | generated: disk1/disk2            |
// |                      | disk<i>.theta (i = 1, 2)        |                                   |
//
// The free bodies carry shapes (planar/shape.hpp) and their contacts are the ones the shapes
// generate against the obstacles and each other, renamed where a model keeps its own names. The
// hanging links (pendulum, double pendulum, chain) carry point contacts at their free ends
// instead: a link's shape would also touch with its pivot end, which lies on the previous link's
// end (a second contact at the same point) or on the fixed pivot (a contact that never opens).

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/planar/initial_state.hpp"
#include "models/planar/planar_contact_geometry.hpp"
#include "models/planar/planar_joint.hpp"
#include "models/planar/planar_tree.hpp"

namespace routh {

/// What every named model shares.
struct ModelOptions {
  double gravity_m_s2 = kDefaultGravity;   ///< g ≥ 0 [m/s²], pointing −y
  GroundAcceleration ground_acceleration;  ///< base excitation a_g(t) [m/s²]; empty: none
};

/// A uniform disk (radius r [m], mass m [kg], I = m r²/2) free above the floor y ≥ 0.
/// (x, y) is its centre. Completion: given no y, it sits on the floor (y = r); given θ̇ alone
/// it rolls (ẋ = −r θ̇).
std::unique_ptr<PlanarTree> make_ball(double radius_m, double mass_kg,
                                      const ModelOptions& options = {});

/// A uniform thin rod (length L [m], mass m [kg], I = m L²/12) free above the floor y ≥ 0,
/// θ = 0 horizontal, the ends at (∓L/2, 0) in its frame. (x, y) is its centre. Paper 004's
/// falling rod is this rod at θ = 45° (its left end lower). Completion: given no y, the lower
/// end touches the floor; given θ̇ alone it turns about that end.
std::unique_ptr<PlanarTree> make_rod(double length_m, double mass_kg,
                                     const ModelOptions& options = {});

/// A uniform rectangular block (width w, height h [m], mass m [kg]) free above the floor
/// y ≥ 0; (x, y) is its centre; its bottom corners are (∓w/2, −h/2) in its frame and come first
/// among its contacts, then the top corners, which touch the floor once it has toppled. θ > 0
/// tilts it onto its left corner. Completion: given only θ (and θ̇), x = 0 and y puts the lower
/// corner on the floor, the other above it, and the block rocks about the lower corner.
std::unique_ptr<PlanarTree> make_rocking_block(double width_m, double height_m, double mass_kg,
                                               const ModelOptions& options = {});

/// A uniform rod (length L [m], mass m [kg]) pivoting about the origin; θ is its angle from the
/// downward vertical. Its free end ("tip") strikes `obstacle`: by default the vertical wall
/// through the pivot facing +x, so the pendulum swings at θ ≥ 0 and strikes at θ = 0; for a floor
/// use floor_at(height). Completion: missing values are 0.
std::unique_ptr<PlanarTree> make_pendulum(double length_m, double mass_kg,
                                          const HalfPlane& obstacle = wall_at(0.0, true),
                                          const ModelOptions& options = {});

/// One uniform link of a chain: length L [m], mass m [kg].
struct ChainLink {
  double length_m = 1.0;
  double mass_kg = 1.0;
};

/// Uniform links (link1 … linkn) hanging in series from a pivot at the origin. theta_i is link
/// i's angle from the downward vertical: absolute (against the ground, as Kane and Levinson
/// choose) by default, or relative to link i−1. With an obstacle, every link's free end strikes
/// it: contacts "link<i>.end", the last link's "tip". Completion: missing values are 0.
std::unique_ptr<PlanarTree> make_chain(const std::vector<ChainLink>& links,
                                       const std::optional<HalfPlane>& obstacle = {},
                                       AngleReference angles = AngleReference::absolute,
                                       const ModelOptions& options = {});

/// make_chain with `links` equal links.
std::unique_ptr<PlanarTree> make_chain(int links, double link_length_m, double link_mass_kg,
                                       const std::optional<HalfPlane>& obstacle = {},
                                       AngleReference angles = AngleReference::absolute,
                                       const ModelOptions& options = {});

/// The floor that the tip of a double pendulum of link lengths `lengths_m` touches at paper
/// 000's impact configuration θ = (20°, 30°): y ≥ −(L₁ cos 20° + L₂ cos 30°).
HalfPlane paper000_floor(const std::array<double, 2>& lengths_m);

/// Two uniform links (lengths L₁, L₂ [m], masses m₁, m₂ [kg]) hanging from the origin, absolute
/// angles θ₁, θ₂ from the downward vertical, the free end of the second ("tip") against
/// `obstacle`. Completion: missing values are 0.
std::unique_ptr<PlanarTree> make_double_pendulum(const std::array<ChainLink, 2>& links,
                                                 const HalfPlane& obstacle,
                                                 const ModelOptions& options = {});

/// Paper 000's example 1 (Kane & Levinson's problem 14.6): two uniform rods, 2 m and 3 kg each,
/// absolute angles θ₁, θ₂ from the downward vertical, the tip of B against paper000_floor, y ≥
/// −2 (cos 20° + cos 30°) m, so that it touches at the paper's θ = (20°, 30°).
///
/// Angle mapping: routh's θ_i (counter-clockwise from the downward vertical, x to the right) is
/// the paper's q_i, and the paper's tangent is routh's floor tangent +x. Then the paper's a_i =
/// ℓ sin q_i, b_i = ℓ cos q_i are the tip's normal and tangential Jacobian rows, and its C₁ = 4D₂,
/// D₁ = C₂ = ½ m ℓ² cos(q₂ − q₁), D₂ = ⅓ m ℓ² are M. A figure drawn with clockwise angles maps by
/// mirroring x: θ_routh = θ_figure with the tangent reversed. Completion: missing values are 0.
std::unique_ptr<PlanarTree> make_double_pendulum(const ModelOptions& options = {});

/// One uniform block of a stack: width w, height h [m], mass m [kg], and its name (empty: block<i>,
/// its place from the bottom, 1 first).
struct StackedBlock {
  double width_m = 1.0;
  double height_m = 1.0;
  double mass_kg = 1.0;
  std::string name;
};

/// Uniform rectangular blocks, the first at the bottom, each free (NAME.x, NAME.y at its centre,
/// NAME.theta; by default NAME is block1 … blockn), above `obstacle` and touching each other
/// (shapes rectangle_shape: their contacts are the generated ones, NAME.VERTEX/OBSTACLE and
/// NAME.VERTEX/OTHER.EDGE). The names must differ from each other and from the obstacle's.
/// Completion: given nothing, each rests centred on the one below, the first on the obstacle.
std::unique_ptr<PlanarTree> make_stacked_blocks(
    const std::vector<StackedBlock>& blocks,
    const std::optional<Obstacle>& obstacle = Obstacle{"floor", floor_at(0.0)},
    const ModelOptions& options = {});

/// A disk of radius r [m] and mass m [kg] standing for a sphere moving in the plane.
struct SphereDisk {
  double radius_m = 1.0;
  double mass_kg = 1.0;
};

/// Two free disks disk1, disk2 with the inertia of solid spheres, I = (2/5) m r², colliding with
/// each other (contact "disk1/disk2"), no obstacle: paper 000's example 2, Groesberg's two spheres
/// moving in a plane. Completion: missing values are 0 (no obstacle to rest on).
std::unique_ptr<PlanarTree> make_two_disks(const std::array<SphereDisk, 2>& disks,
                                           const ModelOptions& options = {});

}  // namespace routh
