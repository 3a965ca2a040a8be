// The run guards (sim/simulation/run_guards.hpp) alone, and the run statuses' names and exit
// codes (sim/simulation/run_status.hpp).

#include <doctest/doctest.h>

#include <chrono>
#include <limits>
#include <set>
#include <thread>

#include "sim/simulation/run_guards.hpp"
#include "sim/simulation/run_status.hpp"

TEST_CASE("run guards: an event storm is many events at one instant, not many events") {
  routh::EventStormGuard at_one_instant;
  int storm_at = 0;
  for (int i = 1; i <= 2 * routh::EventStormGuard::kMaxEventsPerInstant && storm_at == 0; ++i) {
    if (at_one_instant.storm(1.0 + 1e-13 * i)) storm_at = i;
  }
  CHECK(storm_at == routh::EventStormGuard::kMaxEventsPerInstant + 1);

  routh::EventStormGuard spread_out;  // a Zeno sequence's events are microseconds apart
  bool storm = false;
  for (int i = 0; i < 10 * routh::EventStormGuard::kMaxEventsPerInstant; ++i) {
    storm = storm || spread_out.storm(1e-6 * i);
  }
  CHECK_FALSE(storm);
}

TEST_CASE("run guards: non-finite states and the wall-clock limit") {
  Eigen::VectorXd q = Eigen::VectorXd::Ones(3), v = Eigen::VectorXd::Zero(3);
  CHECK(routh::is_finite_state(q, v));
  v[1] = std::numeric_limits<double>::quiet_NaN();
  CHECK_FALSE(routh::is_finite_state(q, v));
  v[1] = 0.0;
  q[2] = std::numeric_limits<double>::infinity();
  CHECK_FALSE(routh::is_finite_state(q, v));

  CHECK_FALSE(routh::WallClockLimit(0.0).reached());  // no limit
  CHECK_FALSE(routh::WallClockLimit(3600.0).reached());
  const routh::WallClockLimit short_limit(1e-3);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  CHECK(short_limit.reached());
}

TEST_CASE("run status: names round-trip and every trouble has its own exit code") {
  // a run stopped on an event it was asked to stop on succeeded, like a completed one
  std::set<int> codes;
  for (const routh::RunStatus status : routh::kAllRunStatuses) {
    CHECK(routh::run_status_from_string(routh::to_string(status)) == status);
    if (status != routh::RunStatus::stopped_on_event) codes.insert(routh::exit_code(status));
  }
  CHECK(codes.size() == std::size(routh::kAllRunStatuses) - 1);
  CHECK(routh::exit_code(routh::RunStatus::completed) == 0);
  CHECK(routh::exit_code(routh::RunStatus::stopped_on_event) == 0);
  CHECK(codes.count(1) == 0);  // bad input
  CHECK(codes.count(2) == 0);  // bad usage
  CHECK_FALSE(routh::run_status_from_string("finished").has_value());
}
