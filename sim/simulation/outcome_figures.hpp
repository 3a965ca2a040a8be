#pragma once
// The figures of a run's outcome, in one table that every output reads: the trajectory file's
// /summary attributes, a sweep's /runs columns after the status, and the members of
// `routh run --summary`'s JSON line. A figure added here reaches all three.
//
// The whole model's figures come first, then each watched body's (RunSummary::bodies), in the
// order the bodies are watched, named BODY.figure: "statue.max_abs_theta".

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
  std::string name;
  std::string_view unit;  ///< SI unit of a quantity, "" for counts, flags and names
  std::variant<std::int64_t, double, std::string> value;
};

/// The whole model's figures of `outcome`: impacts, events, uplift_time, overturn_time,
/// overturned, overturned_body, max_abs_theta, max_abs_theta_time, max_slide, dissipated_energy,
/// final_time (RunSummary documents each), always these names in this order.
std::vector<OutcomeFigure> model_figures(const SimulationOutcome& outcome);

/// model_figures(), then body_figures() of each watched body in turn: every figure of `outcome`.
std::vector<OutcomeFigure> outcome_figures(const SimulationOutcome& outcome);

/// One watched body's figures, each named "BODY." and: max_abs_theta, max_theta_over_alpha,
/// overturned (0/1), overturn_time, impacts_before_overturn (−1 if it did not overturn),
/// max_slide, residual_rotation, residual_slide (BodyOutcome documents each).
std::vector<OutcomeFigure> body_figures(const BodyOutcome& body);

}  // namespace routh
