#pragma once
// Random draws of a sweep, reproducible whatever runs them. Each run has its own generator,
// seeded from (sweep seed, run index) only, so a run draws the same values on any thread, any
// MPI rank, and after a resume. The std:: distributions are not used: the standard fixes the
// engines' output (std::mt19937_64) but not how a distribution turns it into values, which
// differs between library versions; the transforms below are written out instead.

#include <cstdint>
#include <random>

namespace routh {

/// The generator of run `run` of a sweep seeded `seed`: std::mt19937_64 seeded with a
/// SplitMix64 hash of both (Steele, Lea & Flood 2014), so neighbouring runs get unrelated
/// streams.
std::mt19937_64 run_generator(std::uint64_t seed, std::int64_t run);

/// A uniform double in [0, 1): the generator's top 53 bits × 2⁻⁵³.
double uniform_unit(std::mt19937_64& generator);

/// A standard normal value by the Box–Muller transform (Box & Muller 1958):
/// z = √(−2 ln u₁) cos(2π u₂), u₁ in (0, 1]; consumes two uniform draws.
double standard_normal(std::mt19937_64& generator);

}  // namespace routh
