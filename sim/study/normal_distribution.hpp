#pragma once
// The standard normal distribution, as the probit fragility fit (fragility.hpp) needs it far in
// the tails: a run at an IM many β below the median has ln Φ(u) with u = −40, where Φ(u)
// underflows to 0 but its logarithm and the ratio φ/Φ are ordinary numbers.

namespace routh {

/// Φ(u) = ½ erfc(−u/√2).
double normal_cdf(double u);

/// ln Φ(u), finite for every finite u: from erfc while Φ(u) is a normal double, from the
/// asymptotic series Φ(u) ≈ φ(u)/(−u) · (1 − 1/u² + 3/u⁴ − 15/u⁶ + 105/u⁸) below (Abramowitz &
/// Stegun, "Handbook of Mathematical Functions", 26.2.12).
double log_normal_cdf(double u);

/// φ(u)/Φ(u) (the inverse Mills ratio, > 0), the derivative of ln Φ(u); from the same series in
/// the far left tail, where it tends to −u.
double normal_hazard_left(double u);

}  // namespace routh
