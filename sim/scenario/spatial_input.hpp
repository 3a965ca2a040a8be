#pragma once
// A scenario's spatial model: free rigid bodies in three dimensions (models/spatial/
// spatial_bodies.hpp), chosen by `dimension: 3` in the `model` map, and their initial state.
// Reading gives a SpatialBodiesDescription, plain data: the model is built from it in one place
// (scenario_file.cpp). The form, as `routh models` and docs/models.md show it, is kSpatialForm
// below.
//
// An obstacle's `name` defaults to `floor` for the first unnamed plane whose normal is +z and to
// planeK (K its place in the list, from 1) for any other; its normal, of any length but zero, is
// stored and written normalised. Each principal moment must be at most the sum of the other two:
// with I₁ = ∫(y² + z²) dm and its cyclic kin, I₁ + I₂ − I₃ = 2 ∫z² dm ≥ 0 for any body.
//
// Initial state, by name: a coordinate not given is 0, an orientation not given the identity. A
// quaternion is normalised on load (zero is refused); NAME.qw, NAME.qx, NAME.qy, NAME.qz may be
// given instead of NAME.orientation, all four together, never both forms. Roll, pitch and yaw
// turn the body about the world's x, y and z in that order: R = R_z(yaw) R_y(pitch) R_x(roll),
// the aerospace convention.

#include <yaml-cpp/yaml.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <string>
#include <string_view>
#include <vector>

#include "models/spatial/spatial_bodies.hpp"
#include "sim/scenario/yaml_input.hpp"

namespace routh {

/// The spatial form in brief, for `routh models`.
inline constexpr std::string_view kSpatialForm = R"(model:
  dimension: 3                   # free rigid bodies in space (2 or absent: planar)
  gravity: 9.81                  # [m/s^2], pointing -z (default 9.81)
  bodies:                        # at least one
    - name: ball                 # coordinates ball.x, .y, .z, .qw, .qx, .qy, .qz;
                                 # velocities ball.vx, .vy, .vz, .wx, .wy, .wz
      mass: 0.17                 # [kg]
      shape: {sphere: {radius: 0.028575}}   # centre: [x, y, z] in the body frame (default 0);
                                 # or {box: {size: [a, b, c]}}, {cylinder: {radius, height}}
      inertia: [2.2e-5, 2.2e-5, 2.2e-5]     # [kg m^2] principal, along the body axes;
                                 # default: uniform density; an eccentric sphere must give it
  obstacles:                     # optional ground-fixed planes; `name` defaults to floor (the
                                 # first unnamed one facing +z), else planeK (K: place in list)
    - {type: plane, name: floor, point: [0, 0, 0], normal: [0, 0, 1]}   # normal: any length
  collisions: {between_bodies: true}   # sphere-sphere contacts
initial:
  q: {ball.z: 0.028575, ball.orientation: [1, 0, 0, 0]}  # quaternion [w, x, y, z], or
                                 # {rpy: [roll, pitch, yaw]} (rad, or e.g. '30 deg')
  v: {ball.vx: 2.0, ball.wx: 20.0}   # centre-of-mass velocity (world) [m/s], angular velocity
                                 # (body frame) [rad/s, or 'deg/s']
)";

/// `model.dimension`: 2 (planar) when absent; 2 or 3 otherwise, else an error at the value.
int read_model_dimension(const InputNode& model);

/// A spatial model's description and its effective form.
struct SpatialModelInput {
  SpatialBodiesDescription description;  ///< without ground acceleration
  YAML::Node effective;                  ///< the model map with every default filled in
};

/// Reads a `model` map with `dimension: 3` (see above). Every mistake is a located InputError
/// naming the closest valid key.
SpatialModelInput read_spatial_model(const InputNode& model);

/// A complete initial state of the bodies and its effective form.
struct SpatialInitialInput {
  Eigen::VectorXd q;     ///< 7 per body (spatial_coordinate_start)
  Eigen::VectorXd v;     ///< 6 per body (spatial_velocity_start)
  YAML::Node effective;  ///< {q: {...}, v: {...}}, every coordinate named, orientations as lists
  /// located: a box's roll or pitch beyond a quarter turn as a bare number (probably degrees)
  std::vector<std::string> warnings;
};

/// Reads `initial` (see above) for the bodies of `description`.
SpatialInitialInput read_spatial_initial(const InputNode& initial,
                                         const SpatialBodiesDescription& description);

/// The rotation of roll, pitch and yaw [rad]: R_z(yaw) R_y(pitch) R_x(roll).
Eigen::Quaterniond quaternion_from_rpy(const Eigen::Vector3d& roll_pitch_yaw_rad);

}  // namespace routh
