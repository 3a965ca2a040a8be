#include "sim/simulation/outcome_figures.hpp"

namespace routh {

std::vector<OutcomeFigure> outcome_figures(const SimulationOutcome& outcome) {
  const RunSummary& summary = outcome.summary;
  return {{"impacts", "", std::int64_t{outcome.impacts}},
          {"events", "", std::int64_t{outcome.events}},
          {"uplift_time", "s", summary.uplift_time},
          {"overturn_time", "s", summary.overturn_time},
          {"overturned", "", std::int64_t{summary.overturned ? 1 : 0}},
          {"overturned_body", "", summary.overturned_body},
          {"max_abs_theta", "rad", summary.max_abs_theta},
          {"max_abs_theta_time", "s", summary.max_abs_theta_time},
          {"max_slide", "m", summary.max_slide},
          {"dissipated_energy", "J", summary.dissipated_energy},
          {"final_time", "s", outcome.final_state.t}};
}

}  // namespace routh
