#pragma once
// A lognormal fragility curve fitted to the outcomes of runs at several levels of an intensity
// measure (IM): multiple-stripe analysis (Baker, "Efficient analytical fragility function
// fitting using dynamic structural analysis", Earthquake Spectra 2015). The probability that a
// run at IM x exceeds a limit state (overturns, say) is
//
//   P(x) = Φ(ln(x/θ) / β),   θ > 0 the median capacity, β > 0 its logarithmic dispersion,
//
// and level j, z_j of its n_j runs exceeding, contributes a binomial likelihood; the fit
// maximizes Baker's multiple-stripe log-likelihood (the constant binomial coefficients left out)
//
//   ln L(θ, β) = Σ_j z_j ln Φ(u_j) + (n_j − z_j) ln Φ(−u_j),   u_j = ln(x_j/θ) / β.
//
// With u_j = c0 + c1 ln x_j (c1 = 1/β, c0 = −ln θ / β) this is probit regression, whose
// log-likelihood is concave in (c0, c1) (Φ is log-concave): Newton's method with a backtracking
// line search climbs to the unique maximum whenever it is finite. It is not when the data
// separate (every exceeding run at an IM no lower than every other run: β → 0), when no run or
// every run exceeds, or when all runs share one IM; and the fit is no fragility curve when the
// fraction falls with the IM (c1 ≤ 0). Those cases are named, never returned as numbers.

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace routh {

/// The runs at one IM level.
struct FragilityLevel {
  double im = 0.0;             ///< the level, > 0 and finite
  std::int64_t runs = 0;       ///< n_j ≥ 0
  std::int64_t exceeding = 0;  ///< z_j, 0 ≤ z_j ≤ n_j
};

/// The levels of runs given one by one (IM and whether it exceeded): one level per distinct IM,
/// in increasing order. A continuous IM gives a level per run, which the likelihood treats right
/// (a Bernoulli trial each). Throws std::invalid_argument for an IM that is not finite and > 0,
/// or spans of different lengths.
std::vector<FragilityLevel> group_levels(std::span<const double> im,
                                         const std::vector<bool>& exceeded);

/// Whether a finite maximum-likelihood lognormal curve exists, and if not why.
enum class FragilityFitStatus {
  fitted,          ///< θ and β are the maximum-likelihood estimates
  no_runs,         ///< no level has a run
  single_level,    ///< every run is at one IM: β cannot be told
  none_exceed,     ///< no run exceeds: θ → ∞
  all_exceed,      ///< every run exceeds: θ → 0
  separated,       ///< no exceeding run below a run that does not exceed: β → 0
  not_increasing,  ///< the likelihood is largest for a fraction that does not rise with the IM
                   ///< (or rises so slowly that θ is beyond a double)
  not_converged,   ///< Newton's method did not settle (not seen on any data set)
};

/// "fitted", "none_exceed", ... (the names the JSON output uses).
std::string_view to_string(FragilityFitStatus status);
/// What the status means for a reader, e.g. "every run exceeds: no finite median (θ → 0)".
std::string_view explanation(FragilityFitStatus status);

struct FragilityFit {
  FragilityFitStatus status = FragilityFitStatus::no_runs;
  double median = 0.0;          ///< θ, in the IM's unit (when fitted)
  double beta = 0.0;            ///< β
  double log_likelihood = 0.0;  ///< ln L(θ, β) at the estimate
  int iterations = 0;           ///< Newton steps taken
};

/// The maximum-likelihood fit of P(x) = Φ(ln(x/θ)/β) to the levels' counts. Throws
/// std::invalid_argument for a level with IM not finite and > 0 or counts outside
/// 0 ≤ z_j ≤ n_j.
FragilityFit fit_lognormal_fragility(std::span<const FragilityLevel> levels);

/// ln L(θ, β) of the levels (the sum above), for θ, β > 0.
double fragility_log_likelihood(std::span<const FragilityLevel> levels, double median, double beta);

/// Φ(ln(x/θ)/β): the fitted probability of exceeding at IM x > 0.
double fragility_probability(double im, double median, double beta);

}  // namespace routh
