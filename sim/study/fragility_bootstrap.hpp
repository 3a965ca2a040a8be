#pragma once
// Confidence intervals of a fragility curve's median θ and dispersion β by the percentile
// bootstrap (Efron & Tibshirani, "An Introduction to the Bootstrap", 1993, ch. 13): the runs are
// resampled with replacement, the curve refitted (fragility.hpp), and the interval read off the
// replicates' quantiles.
//
// With several runs at every level (a multiple-stripe analysis) the runs are resampled within
// each level, so that every replicate has the design's IM levels and run counts, as Baker's
// multiple-stripe analysis has (Baker 2015, "Efficient analytical fragility function fitting
// using dynamic structural analysis"). With a level of one run (a continuous IM, a cloud of runs)
// resampling within levels would copy the data, so all runs are resampled together instead.
//
// A replicate whose data have no finite fit (fragility.hpp's degenerate cases: resampling a
// level near the edge of the curve can make every run of it exceed) is counted and left out;
// the interval is that of the fitted replicates.
//
// Draws use std::mt19937_64 seeded with the seed and routh's own transform to an index (the
// std:: distributions differ between library versions), so an interval is the same on every
// machine.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "sim/study/fragility.hpp"

namespace routh {

/// How the runs are resampled.
enum class BootstrapScheme {
  within_levels,  ///< each level's runs among themselves: the levels and counts stay
  all_runs,       ///< all runs together (a level with a single run)
};

std::string_view to_string(BootstrapScheme scheme);

struct ConfidenceInterval {
  double low = 0.0;
  double high = 0.0;
};

struct FragilityBootstrap {
  BootstrapScheme scheme = BootstrapScheme::within_levels;
  std::int64_t replicates = 0;  ///< drawn
  std::int64_t degenerate = 0;  ///< of them, without a finite fit (left out)
  /// The percentile intervals; nothing when no replicate was fitted.
  std::optional<ConfidenceInterval> median;
  std::optional<ConfidenceInterval> beta;
};

struct BootstrapSettings {
  double confidence = 0.95;        ///< in (0, 1)
  std::int64_t replicates = 1000;  ///< ≥ 1
  std::uint64_t seed = 1;
};

/// Resamples the levels' runs `settings.replicates` times, refits each, and returns the
/// percentile intervals (quantiles (1 − c)/2 and (1 + c)/2, linear between order statistics).
/// Throws std::invalid_argument for a confidence outside (0, 1) or replicates < 1, and as
/// fit_lognormal_fragility for bad levels.
FragilityBootstrap bootstrap_fragility(std::span<const FragilityLevel> levels,
                                       const BootstrapSettings& settings);

/// The q-quantile (0 ≤ q ≤ 1) of sorted values, linear between order statistics (Hyndman & Fan's
/// definition 7, numpy's default); `sorted` must not be empty.
double sorted_quantile(std::span<const double> sorted, double q);

}  // namespace routh
