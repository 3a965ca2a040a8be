#include "sim/study/ida_stripes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "sim/text.hpp"

namespace routh {

namespace {

// The median of a stripe's responses (sorted in place).
double median(std::vector<double>& values) {
  std::sort(values.begin(), values.end());
  const std::size_t half = values.size() / 2;
  if (values.size() % 2 == 1) return values[half];
  const double low = values[half - 1], high = values[half];
  return std::isinf(high) ? high : 0.5 * (low + high);
}

}  // namespace

std::vector<IdaStripe> ida_stripes(std::span<const IdaRun> runs) {
  std::vector<IdaRun> sorted(runs.begin(), runs.end());
  for (const IdaRun& run : sorted) {
    if (!std::isfinite(run.im)) throw std::invalid_argument(cat("IDA: an IM of ", run.im));
    if (!run.collapsed && !std::isfinite(run.response)) {
      throw std::invalid_argument(cat("IDA: a response of ", run.response, " in a standing run"));
    }
  }
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const IdaRun& a, const IdaRun& b) { return a.im < b.im; });
  std::vector<IdaStripe> stripes;
  std::vector<double> values;
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    const IdaRun& run = sorted[i];
    if (stripes.empty() || stripes.back().im != run.im) stripes.push_back({run.im, 0, 0, 0.0});
    IdaStripe& stripe = stripes.back();
    ++stripe.runs;
    stripe.collapsed += run.collapsed ? 1 : 0;
    values.push_back(run.collapsed ? std::numeric_limits<double>::infinity() : run.response);
    if (i + 1 == sorted.size() || sorted[i + 1].im != run.im) {
      stripe.median = median(values);
      values.clear();
    }
  }
  return stripes;
}

}  // namespace routh
