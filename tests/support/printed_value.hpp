#pragma once
// Comparing against numbers printed in a paper: a value printed with d decimals is only known to
// ±0.5·10⁻ᵈ, so that is the tolerance, plus round-off.

#include <doctest/doctest.h>

#include <cmath>

namespace routh::test {

/// True when `computed` rounds to `printed` at `decimals` decimals.
inline bool matches_printed(double computed, double printed, int decimals) {
  return std::abs(computed - printed) <= 0.5 * std::pow(10.0, -decimals) + 1e-12;
}

}  // namespace routh::test

/// CHECK that `computed` agrees with a value printed in a paper with `decimals` decimals.
#define CHECK_PRINTED(computed, printed, decimals)                          \
  do {                                                                      \
    INFO("computed " << (computed) << ", printed " << (printed));           \
    CHECK(routh::test::matches_printed((computed), (printed), (decimals))); \
  } while (false)
