#include "sim/simulation/rest_rule.hpp"

#include <cmath>
#include <vector>

namespace routh {

void ImpactHistory::push(double t) {
  times_.push_back(t);
  if (times_.size() > kKept) times_.pop_front();
}

double ImpactHistory::zeno_limit(double t) const {
  // The last intervals are the shortest and the least accurate: a ball 0.1 m above the origin
  // has its gap resolved to ulp(0.1 m), 1.4e-17 m, which is 1e-11 s at a 1e-6 m/s landing, 5e-5
  // of its last interval; 1/(1 − r)² then amplifies a ratio error into the limit (to ~1e-9 s for
  // that ball). So the last three ratios decide whether the sequence is geometric, and r itself
  // is measured over all kept intervals, (Δ_last / Δ_first)^(1 / (intervals − 1)), where the
  // earlier, longer and faster ones dilute that error.
  std::vector<double> times(times_.begin(), times_.end());
  times.push_back(t);
  if (times.size() < kEvidence + 1) return t;
  const auto interval = [&](std::size_t back) {  // back = 0: the last interval
    return times[times.size() - 1 - back] - times[times.size() - 2 - back];
  };
  const double r_last = interval(0) / interval(1);
  for (std::size_t back = 0; back + 1 < kEvidence; ++back) {
    const double ratio = interval(back) / interval(back + 1);
    if (!(r_last < 1.0 && std::abs(ratio - r_last) <= kRatioAgreement * r_last)) return t;
  }
  const std::size_t oldest = times.size() - 2;  // the first interval, counted back from the last
  const double r = std::pow(interval(0) / interval(oldest), 1.0 / static_cast<double>(oldest));
  return t + interval(0) * r / (1.0 - r);
}

}  // namespace routh
