#include "sim/study/fragility_bootstrap.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "sim/text.hpp"

namespace routh {

namespace {

// A uniform index in [0, count) from the generator's top 53 bits, as a uniform in [0, 1) scaled
// (the bias against 2⁵³ is nothing for run counts).
std::int64_t draw_index(std::mt19937_64& generator, std::int64_t count) {
  const double uniform = static_cast<double>(generator() >> 11) * 0x1.0p-53;
  return std::min(count - 1, static_cast<std::int64_t>(uniform * static_cast<double>(count)));
}

// Each level's runs drawn among themselves: a drawn run exceeds when its index falls among the
// level's exceeding runs (counted first).
void resample_within_levels(std::span<const FragilityLevel> levels, std::mt19937_64& generator,
                            std::vector<FragilityLevel>& replicate) {
  for (std::size_t j = 0; j < levels.size(); ++j) {
    replicate[j].runs = levels[j].runs;
    for (std::int64_t r = 0; r < levels[j].runs; ++r) {
      if (draw_index(generator, levels[j].runs) < levels[j].exceeding) ++replicate[j].exceeding;
    }
  }
}

// The runs one by one, for drawing them all together: each one's level and whether it exceeded.
struct RunList {
  std::vector<std::size_t> level;
  std::vector<bool> exceeds;
};

RunList list_runs(std::span<const FragilityLevel> levels) {
  RunList runs;
  for (std::size_t j = 0; j < levels.size(); ++j) {
    for (std::int64_t r = 0; r < levels[j].runs; ++r) {
      runs.level.push_back(j);
      runs.exceeds.push_back(r < levels[j].exceeding);
    }
  }
  return runs;
}

void resample_all_runs(const RunList& runs, std::mt19937_64& generator,
                       std::vector<FragilityLevel>& replicate) {
  const auto count = static_cast<std::int64_t>(runs.level.size());
  for (std::int64_t r = 0; r < count; ++r) {
    const auto i = static_cast<std::size_t>(draw_index(generator, count));
    ++replicate[runs.level[i]].runs;
    if (runs.exceeds[i]) ++replicate[runs.level[i]].exceeding;
  }
}

}  // namespace

std::string_view to_string(BootstrapScheme scheme) {
  return scheme == BootstrapScheme::within_levels ? "within_levels" : "all_runs";
}

double sorted_quantile(std::span<const double> sorted, double q) {
  const double position = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double weight = position - static_cast<double>(below);
  return sorted[below] + weight * (sorted[above] - sorted[below]);
}

FragilityBootstrap bootstrap_fragility(std::span<const FragilityLevel> levels,
                                       const BootstrapSettings& settings) {
  if (!(settings.confidence > 0.0 && settings.confidence < 1.0)) {
    throw std::invalid_argument(cat("confidence ", settings.confidence, " is not in (0, 1)"));
  }
  if (settings.replicates < 1) {
    throw std::invalid_argument(cat(settings.replicates, " bootstrap replicates: need at least 1"));
  }
  FragilityBootstrap result;
  result.replicates = settings.replicates;
  for (const FragilityLevel& level : levels) {
    if (level.runs == 1) result.scheme = BootstrapScheme::all_runs;
  }
  const RunList runs = result.scheme == BootstrapScheme::all_runs ? list_runs(levels) : RunList();
  std::mt19937_64 generator(settings.seed);
  std::vector<FragilityLevel> replicate;
  std::vector<double> medians, betas;
  for (std::int64_t b = 0; b < settings.replicates; ++b) {
    replicate.assign(levels.begin(), levels.end());
    for (FragilityLevel& level : replicate) level.runs = 0, level.exceeding = 0;
    if (result.scheme == BootstrapScheme::within_levels) {
      resample_within_levels(levels, generator, replicate);
    } else {
      resample_all_runs(runs, generator, replicate);
    }
    const FragilityFit fit = fit_lognormal_fragility(replicate);
    if (fit.status != FragilityFitStatus::fitted) {
      ++result.degenerate;
      continue;
    }
    medians.push_back(fit.median);
    betas.push_back(fit.beta);
  }
  if (medians.empty()) return result;
  std::sort(medians.begin(), medians.end());
  std::sort(betas.begin(), betas.end());
  const double tail = 0.5 * (1.0 - settings.confidence);
  result.median =
      ConfidenceInterval{sorted_quantile(medians, tail), sorted_quantile(medians, 1.0 - tail)};
  result.beta =
      ConfidenceInterval{sorted_quantile(betas, tail), sorted_quantile(betas, 1.0 - tail)};
  return result;
}

}  // namespace routh
