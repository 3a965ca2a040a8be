// The rest rule's Zeno limit (sim/simulation/rest_rule.hpp) alone: impact times of a geometric
// sequence, whose limit is t_0 + Δ_0 / (1 − r) in closed form.

#include <doctest/doctest.h>

#include <cmath>

#include "sim/simulation/rest_rule.hpp"

TEST_CASE("rest rule: a geometric sequence of impacts is jumped to its limit") {
  for (const double r : {0.5, 0.9, 0.99}) {
    routh::ImpactHistory history;
    const double first_interval = 0.3;
    double t = 1.0, interval = first_interval;
    for (int k = 0; k < 6; ++k) {
      history.push(t);
      t += interval;
      interval *= r;
    }
    // impacts at 1, 1 + Δ, ...; the sequence's limit is 1 + Δ / (1 − r)
    CHECK(history.zeno_limit(t) ==
          doctest::Approx(1.0 + first_interval / (1.0 - r)).epsilon(1e-12));
  }
}

TEST_CASE(
    "rest rule: too few impacts, or intervals that do not shrink geometrically, are no Zeno") {
  routh::ImpactHistory history;
  history.push(0.0);
  history.push(1.0);
  history.push(1.5);
  CHECK(history.zeno_limit(1.75) == 1.75);  // three ratios are needed, two are known
  history.push(1.75);
  CHECK(history.zeno_limit(1.9) == 1.9);  // ratios 0.5, 0.5, 0.6
  routh::ImpactHistory steady;            // a periodic bounce: r = 1
  for (int k = 0; k < 8; ++k) steady.push(k);
  CHECK(steady.zeno_limit(8.0) == 8.0);
  steady.clear();
  CHECK(steady.zeno_limit(9.0) == 9.0);
}
