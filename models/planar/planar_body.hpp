#pragma once
// Inertial data of one rigid body in the plane, in its own body frame. The body frame's origin is
// the point where the body's joint attaches it (for a free body: wherever x, y put it), and its
// orientation is the body angle φ, counter-clockwise positive.

#include <Eigen/Core>

namespace routh {

/// Mass, centre of mass and central moment of inertia of a planar rigid body.
struct PlanarBody {
  double mass_kg = 1.0;                                        ///< m > 0 [kg]
  Eigen::Vector2d centre_of_mass_m = Eigen::Vector2d::Zero();  ///< c in the body frame [m]
  double inertia_kg_m2 = 0.0;  ///< I ≥ 0 about the centre of mass [kg m²]
};

/// A uniform thin rod of length L [m] and mass m [kg], I = m L²/12, its centre of mass at
/// `centre_of_mass_m` in the body frame.
inline PlanarBody uniform_rod(double length_m, double mass_kg,
                              const Eigen::Vector2d& centre_of_mass_m = Eigen::Vector2d::Zero()) {
  return {mass_kg, centre_of_mass_m, mass_kg * length_m * length_m / 12.0};
}

/// A uniform rectangle w × h [m] of mass m [kg] centred on the body origin, I = m (w² + h²)/12.
inline PlanarBody uniform_rectangle(double width_m, double height_m, double mass_kg) {
  return {mass_kg, Eigen::Vector2d::Zero(),
          mass_kg * (width_m * width_m + height_m * height_m) / 12.0};
}

/// A uniform disk of radius r [m] and mass m [kg] centred on the body origin, I = m r²/2.
inline PlanarBody uniform_disk(double radius_m, double mass_kg) {
  return {mass_kg, Eigen::Vector2d::Zero(), 0.5 * mass_kg * radius_m * radius_m};
}

}  // namespace routh
