#pragma once
// What the two readers of a scenario's `model` share, the named models (model_factory.hpp) and the
// generic bodies (multibody_input.hpp): the ranges of physical parameters, numbers and points for
// the effective scenario, obstacles, and the names of bodies and obstacles.
//
// Ranges (labs to buildings): lengths in [1e-6, 1e6] m, masses in [1e-9, 1e9] kg, positions in
// [-1e6, 1e6] m, moments of inertia in [0, 1e21] kg m² (the largest mass times the largest length
// squared), gravity in [0, 1000] m/s²; a value outside is an input error naming the range.
//
// Obstacles, ground-fixed half-planes:
//   {type: floor, position: y}                           the floor y ≥ position [m]
//   {type: wall, position: x, free_side: positive}       a vertical wall at x [m], the free side
//                                                        x ≥ position (negative: x ≤ position)
//   {type: plane, point: [x, y], normal: [n_x, n_y]}     any line through `point` [m], `normal`
//                                                        (any length, not zero) into the free side

#include <yaml-cpp/yaml.h>

#include <Eigen/Core>
#include <numbers>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "models/planar/planar_contact_geometry.hpp"
#include "sim/scenario/yaml_input.hpp"

namespace routh {

// Physical parameters span labs to buildings: a micrometre to a thousand kilometres, a microgram
// to a million tonnes, up to a hundred times Earth's gravity. Beyond these the products the
// dynamics forms (m g L, m L², their ratios) leave double precision's comfortable range, and a
// mass of 1e308 turned the whole run into NaN; a gravity of 1e300 livelocked the event loop.
inline constexpr NumberRange kLengthRange{1e-6, 1e6, "m"};
inline constexpr NumberRange kMassRange{1e-9, 1e9, "kg"};
inline constexpr NumberRange kGravityRange{0.0, 1e3, "m/s^2"};
inline constexpr NumberRange kPositionRange{-1e6, 1e6, "m"};
inline constexpr NumberRange kInertiaRange{0.0, 1e21, "kg m^2"};

// Initial coordinates and velocities, in m or rad and m/s or rad/s: ten times the largest
// length, so that a body of the largest size can be placed above its obstacle; beyond that the
// energies (m v², m g y) leave the range where their balance can be checked.
inline constexpr double kMaxInitialMagnitude = 1e7;

/// An initial coordinate (`rate` false) or velocity (`rate` true): an angle takes unit suffixes
/// ("10 deg", "5 deg/s"), a length a plain number [m, m/s]; within ±kMaxInitialMagnitude.
double read_initial_value(const InputNode& node, bool is_angle, bool rate);

/// [rad] A block tilted beyond a quarter turn lies on its side or stands on its head: not a start
/// anyone writes in radians on purpose, while a tilt in degrees (`theta: 30`) passes it at 2.
inline constexpr double kBlockTiltLimit_rad = 0.5 * std::numbers::pi;

/// The warning at `node`, a tilt of block `body` of `angle_rad`, when it is a bare number (no
/// unit) beyond kBlockTiltLimit_rad: read in radians, where degrees were probably meant; it gives
/// the tilt in degrees and what the number in degrees would be. Nothing otherwise.
std::optional<std::string> tilt_in_degrees_warning(const InputNode& node, double angle_rad,
                                                   std::string_view body);

/// true or false.
bool read_bool(const InputNode& node);

/// A list (empty only when `may_be_empty`); `example` shows an item.
std::vector<InputNode> read_list(const InputNode& node, std::string_view example,
                                 bool may_be_empty);

/// A number for the effective scenario, written in its shortest round-trip form (0.1, not
/// 0.10000000000000001).
YAML::Node number_node(double value);

/// A point [x, y] [m], each coordinate in kPositionRange.
Eigen::Vector2d read_point(const InputNode& node);
/// [x, y] for the effective scenario, in flow style.
YAML::Node point_node(const Eigen::Vector2d& point);

/// An obstacle read from its map: its type (floor, wall or plane), its half-plane, and the map
/// as the effective scenario writes it.
struct ObstacleInput {
  std::string type;
  HalfPlane surface;
  YAML::Node described;
};

/// Reads one obstacle map (see above). Keys other than its type's and `extra_keys` (which the
/// caller reads) are errors naming the closest valid key.
ObstacleInput read_obstacle(const InputNode& node, std::span<const std::string_view> extra_keys);

/// A body's or an obstacle's name: letters, digits, '_' and '-', not empty. Names become parts of
/// coordinate and contact names (base.x, block.bottom_left/floor), whose separators they must not
/// contain.
std::string read_name(const InputNode& node);

/// The names already given to bodies and obstacles: they name the contacts together, so each is
/// claimed once from one pool.
class NamePool {
 public:
  /// Claims `name`, read at `node`; a name claimed before is an error at `node` naming the first.
  void claim(const std::string& name, const InputNode& node);

 private:
  std::vector<std::pair<std::string, InputLocation>> used_;
};

}  // namespace routh
