#include "sim/study/fragility.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "sim/study/normal_distribution.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

// Newton stops once a step moves the centred intercept a by less than this and c1 by less than
// this relative to itself: θ and β are then exact to about as many digits.
constexpr double kStepTolerance = 1e-11;
// A search that ran out of steps still stands at the maximum if the score (a sum over the runs,
// each term of order 1) is this small per run.
constexpr double kScorePerRunTolerance = 1e-6;
constexpr int kMaxNewtonSteps = 200;
// Halvings of a Newton step before the line search gives up: the likelihood cannot be raised
// beyond rounding there, which is the maximum.
constexpr int kMaxHalvings = 60;

void check_level(const FragilityLevel& level) {
  if (!std::isfinite(level.im) || !(level.im > 0.0)) {
    throw std::invalid_argument(cat("an IM level of ", level.im, " is not finite and > 0"));
  }
  if (level.runs < 0 || level.exceeding < 0 || level.exceeding > level.runs) {
    throw std::invalid_argument(
        cat("at IM ", level.im, ": ", level.exceeding, " exceeding of ", level.runs, " runs"));
  }
}

// ln L, its gradient and Hessian in (a, c1), u_j = a + c1 s_j, s_j = ln x_j − s̄.
struct LikelihoodTerms {
  double value = 0.0;
  double g_a = 0.0, g_c = 0.0;
  double h_aa = 0.0, h_ac = 0.0, h_cc = 0.0;
};

// The levels' terms; `derivatives` false computes the value only (the line search's).
LikelihoodTerms likelihood_terms(std::span<const FragilityLevel> levels, std::span<const double> s,
                                 double a, double c1, bool derivatives) {
  LikelihoodTerms terms;
  for (std::size_t j = 0; j < levels.size(); ++j) {
    const double u = a + c1 * s[j];
    const auto exceeding = static_cast<double>(levels[j].exceeding);
    const auto surviving = static_cast<double>(levels[j].runs - levels[j].exceeding);
    // d/du and d²/du² of z ln Φ(u) + (n − z) ln Φ(−u), with (ln Φ)'' = −λ(u)(u + λ(u))
    double first = 0.0;
    double second = 0.0;
    if (exceeding > 0.0) {
      terms.value += exceeding * log_normal_cdf(u);
      if (derivatives) {
        const double hazard = normal_hazard_left(u);
        first += exceeding * hazard;
        second -= exceeding * hazard * (u + hazard);
      }
    }
    if (surviving > 0.0) {
      terms.value += surviving * log_normal_cdf(-u);
      if (derivatives) {
        const double hazard = normal_hazard_left(-u);
        first -= surviving * hazard;
        second -= surviving * hazard * (hazard - u);
      }
    }
    terms.g_a += first, terms.g_c += first * s[j];
    terms.h_aa += second, terms.h_ac += second * s[j], terms.h_cc += second * s[j] * s[j];
  }
  return terms;
}

// Why no finite, increasing maximum exists, read off the counts (fitted: it exists, unless the
// maximum has c1 ≤ 0, which only the fit tells).
FragilityFitStatus degeneracy(std::span<const FragilityLevel> levels) {
  std::int64_t runs = 0, exceeding = 0, levels_with_runs = 0;
  double lowest_exceeding = HUGE_VAL, highest_exceeding = -HUGE_VAL;
  double lowest_surviving = HUGE_VAL, highest_surviving = -HUGE_VAL;
  for (const FragilityLevel& level : levels) {
    if (level.runs == 0) continue;
    runs += level.runs, exceeding += level.exceeding, ++levels_with_runs;
    if (level.exceeding > 0) {
      lowest_exceeding = std::min(lowest_exceeding, level.im);
      highest_exceeding = std::max(highest_exceeding, level.im);
    }
    if (level.exceeding < level.runs) {
      lowest_surviving = std::min(lowest_surviving, level.im);
      highest_surviving = std::max(highest_surviving, level.im);
    }
  }
  if (runs == 0) return FragilityFitStatus::no_runs;
  if (exceeding == 0) return FragilityFitStatus::none_exceed;
  if (exceeding == runs) return FragilityFitStatus::all_exceed;
  if (levels_with_runs == 1) return FragilityFitStatus::single_level;
  // (quasi-)complete separation of the runs by ln x: a step fits them better than any β > 0
  if (lowest_exceeding >= highest_surviving) return FragilityFitStatus::separated;
  // separated the other way: the likelihood climbs towards c1 → −∞
  if (highest_exceeding <= lowest_surviving) return FragilityFitStatus::not_increasing;
  return FragilityFitStatus::fitted;
}

}  // namespace

std::vector<FragilityLevel> group_levels(std::span<const double> im,
                                         const std::vector<bool>& exceeded) {
  if (im.size() != exceeded.size()) {
    throw std::invalid_argument(cat(im.size(), " IM values for ", exceeded.size(), " outcomes"));
  }
  std::map<double, FragilityLevel> by_im;
  for (std::size_t i = 0; i < im.size(); ++i) {
    FragilityLevel& level = by_im[im[i]];
    level.im = im[i];
    ++level.runs;
    if (exceeded[i]) ++level.exceeding;
    check_level(level);
  }
  std::vector<FragilityLevel> levels;
  levels.reserve(by_im.size());
  for (const auto& entry : by_im) levels.push_back(entry.second);
  return levels;
}

std::string_view to_string(FragilityFitStatus status) {
  switch (status) {
    case FragilityFitStatus::fitted: return "fitted";
    case FragilityFitStatus::no_runs: return "no_runs";
    case FragilityFitStatus::single_level: return "single_level";
    case FragilityFitStatus::none_exceed: return "none_exceed";
    case FragilityFitStatus::all_exceed: return "all_exceed";
    case FragilityFitStatus::separated: return "separated";
    case FragilityFitStatus::not_increasing: return "not_increasing";
    case FragilityFitStatus::not_converged: return "not_converged";
  }
  return "unknown";
}

std::string_view explanation(FragilityFitStatus status) {
  switch (status) {
    case FragilityFitStatus::fitted: return "maximum-likelihood lognormal fit";
    case FragilityFitStatus::no_runs: return "no runs to fit";
    case FragilityFitStatus::single_level:
      return "every run is at one IM level: the dispersion cannot be estimated";
    case FragilityFitStatus::none_exceed:
      return "no run exceeds: no finite median (theta -> infinity)";
    case FragilityFitStatus::all_exceed: return "every run exceeds: no finite median (theta -> 0)";
    case FragilityFitStatus::separated:
      return "the outcomes are separated by the IM (no exceeding run below a run that does not "
             "exceed): the likelihood grows as beta -> 0, no finite estimate";
    case FragilityFitStatus::not_increasing:
      return "the fraction exceeding does not rise with the IM (or so slowly that the median is "
             "beyond any number): no fragility curve fits";
    case FragilityFitStatus::not_converged: return "the maximization did not converge";
  }
  return "unknown";
}

double fragility_log_likelihood(std::span<const FragilityLevel> levels, double median,
                                double beta) {
  std::vector<double> s;
  s.reserve(levels.size());
  for (const FragilityLevel& level : levels) s.push_back(std::log(level.im));
  return likelihood_terms(levels, s, -std::log(median) / beta, 1.0 / beta, false).value;
}

double fragility_probability(double im, double median, double beta) {
  return normal_cdf(std::log(im / median) / beta);
}

FragilityFit fit_lognormal_fragility(std::span<const FragilityLevel> levels) {
  for (const FragilityLevel& level : levels) check_level(level);
  FragilityFit fit;
  fit.status = degeneracy(levels);
  if (fit.status != FragilityFitStatus::fitted) return fit;

  // centred on the runs' mean ln x and started at the runs' spread: the step scales are 1
  double runs = 0.0, mean = 0.0;
  for (const FragilityLevel& level : levels) {
    runs += static_cast<double>(level.runs);
    mean += static_cast<double>(level.runs) * std::log(level.im);
  }
  mean /= runs;
  std::vector<double> s;
  double variance = 0.0;
  for (const FragilityLevel& level : levels) {
    s.push_back(std::log(level.im) - mean);
    variance += static_cast<double>(level.runs) * s.back() * s.back() / runs;
  }
  double a = 0.0;
  double c1 = 1.0 / std::sqrt(variance);
  LikelihoodTerms terms = likelihood_terms(levels, s, a, c1, true);
  bool converged = false;
  while (!converged && fit.iterations < kMaxNewtonSteps) {
    ++fit.iterations;
    // the Newton step solves H δ = −g; concavity makes H negative definite, so a Hessian that
    // rounding made otherwise falls back to the gradient
    const double det = terms.h_aa * terms.h_cc - terms.h_ac * terms.h_ac;
    double da = terms.g_a, dc = terms.g_c;
    if (terms.h_aa < 0.0 && det > 0.0) {
      da = (-terms.h_cc * terms.g_a + terms.h_ac * terms.g_c) / det;
      dc = (terms.h_ac * terms.g_a - terms.h_aa * terms.g_c) / det;
    }
    double step = 1.0;
    LikelihoodTerms next;
    int halvings = 0;
    for (; halvings <= kMaxHalvings; ++halvings, step *= 0.5) {
      next = likelihood_terms(levels, s, a + step * da, c1 + step * dc, false);
      if (next.value >= terms.value) break;
    }
    if (halvings > kMaxHalvings) break;  // no higher value within rounding: the maximum
    a += step * da, c1 += step * dc;
    converged =
        std::abs(step * da) < kStepTolerance && std::abs(step * dc) < kStepTolerance * std::abs(c1);
    terms = likelihood_terms(levels, s, a, c1, true);
  }
  if (!converged && std::hypot(terms.g_a, terms.g_c) > kScorePerRunTolerance * runs) {
    fit.status = FragilityFitStatus::not_converged;
    return fit;
  }
  const double median = std::exp(mean - a / c1);
  // c1 ≤ 0 falls with the IM; a c1 > 0 so small that θ overflows rises too slowly to tell
  if (!(c1 > 0.0) || !std::isfinite(median) || !(median > 0.0)) {
    fit.status = FragilityFitStatus::not_increasing;
    return fit;
  }
  fit.median = median;
  fit.beta = 1.0 / c1;
  fit.log_likelihood = terms.value;
  return fit;
}

}  // namespace routh
