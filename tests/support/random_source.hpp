#pragma once
// The seeded random numbers the property tests and campaigns draw from: one engine, and the few
// draws every generator of test problems needs.

#include <cmath>
#include <cstdint>
#include <random>

namespace routh::test {

class RandomSource {
 public:
  explicit RandomSource(std::uint64_t seed) : engine_(seed) {}

  /// Uniform in [lo, hi).
  double uniform(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(engine_);
  }
  /// True with probability p.
  bool chance(double p) { return uniform(0.0, 1.0) < p; }
  /// 10^x with x uniform in [lo, hi): a scale drawn evenly over decades.
  double decade(double lo, double hi) { return std::pow(10.0, uniform(lo, hi)); }
  std::mt19937_64& engine() { return engine_; }

 private:
  std::mt19937_64 engine_;
};

}  // namespace routh::test
