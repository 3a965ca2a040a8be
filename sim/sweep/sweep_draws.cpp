#include "sim/sweep/sweep_draws.hpp"

#include <cmath>
#include <numbers>

namespace routh {

namespace {

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

std::mt19937_64 run_generator(std::uint64_t seed, std::int64_t run) {
  return std::mt19937_64(splitmix64(splitmix64(seed) ^ static_cast<std::uint64_t>(run)));
}

double uniform_unit(std::mt19937_64& generator) {
  return static_cast<double>(generator() >> 11) * 0x1.0p-53;
}

double standard_normal(std::mt19937_64& generator) {
  const double u1 = 1.0 - uniform_unit(generator);  // in (0, 1]: the log stays finite
  const double u2 = uniform_unit(generator);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

}  // namespace routh
