#pragma once
// The torque-free asymmetric top in closed form (Landau & Lifshitz, "Mechanics", §37): with
// principal moments I₁ < I₂ < I₃, energy E and |L|² = M², Euler's equations are solved by Jacobi's
// elliptic functions, and ω returns with the period T = 4 K(k) / s (eq. 37.10; the case
// M² < 2 E I₂ by exchanging the indices 1 and 3). Near the intermediate axis the body flips over
// once per half period (the tennis-racket theorem).

#include <Eigen/Core>
#include <cmath>
#include <numbers>

namespace routh::test {

/// The complete elliptic integral of the first kind from the complementary modulus k' = √(1 − k²):
/// K = π / (2 AGM(1, k')) (Abramowitz & Stegun, 17.6).
inline double elliptic_k(double complementary_modulus) {
  double a = 1.0, b = complementary_modulus;
  while (std::abs(a - b) > 1e-16 * a) {
    const double mean = 0.5 * (a + b);
    b = std::sqrt(a * b);
    a = mean;
  }
  return std::numbers::pi / (2.0 * a);
}

/// The period [s] of ω of the torque-free top with principal moments I (I₁ < I₂ < I₃) [kg m²],
/// energy E [J] and M² = |L|² [(kg m²/s)²].
inline double torque_free_period_s(const Eigen::Vector3d& I, double E, double M2) {
  const double I1 = I[0], I2 = I[1], I3 = I[2];
  double rate = 0.0, complementary2 = 0.0;
  if (M2 > 2.0 * E * I2) {
    rate = std::sqrt((I3 - I2) * (M2 - 2.0 * E * I1) / (I1 * I2 * I3));
    complementary2 = (I3 - I1) * (M2 - 2.0 * E * I2) / ((I3 - I2) * (M2 - 2.0 * E * I1));
  } else {
    rate = std::sqrt((I2 - I1) * (2.0 * E * I3 - M2) / (I1 * I2 * I3));
    complementary2 = (I3 - I1) * (2.0 * E * I2 - M2) / ((I2 - I1) * (2.0 * E * I3 - M2));
  }
  return 4.0 * elliptic_k(std::sqrt(complementary2)) / rate;
}

}  // namespace routh::test
