#pragma once
// The figures of a run's outcome, in one table that every output reads: the trajectory file's
// /summary attributes, a sweep's /runs columns after the status, and the members of
// `routh run --summary`'s JSON line. A figure added here reaches all three.

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "sim/simulation/simulator.hpp"

namespace routh {

/// One outcome figure: a count or flag (int64), a quantity (double, NaN where it did not occur)
/// or a name (text).
struct OutcomeFigure {
  std::string_view name;
  std::string_view unit;  ///< SI unit of a quantity, "" for counts, flags and names
  std::variant<std::int64_t, double, std::string> value;
};

/// The figures of `outcome`, always the same names in the same order: impacts, events,
/// uplift_time, overturn_time, overturned, overturned_body, max_abs_theta, max_abs_theta_time,
/// max_slide, dissipated_energy, final_time (RunSummary documents each).
std::vector<OutcomeFigure> outcome_figures(const SimulationOutcome& outcome);

}  // namespace routh
