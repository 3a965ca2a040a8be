#include "sim/simulation/outcome_figures.hpp"

namespace routh {

std::vector<OutcomeFigure> model_figures(const SimulationOutcome& outcome) {
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

std::vector<OutcomeFigure> outcome_figures(const SimulationOutcome& outcome) {
  std::vector<OutcomeFigure> figures = model_figures(outcome);
  for (const BodyOutcome& body : outcome.summary.bodies) {
    for (OutcomeFigure& figure : body_figures(body)) figures.push_back(std::move(figure));
  }
  return figures;
}

std::vector<OutcomeFigure> body_figures(const BodyOutcome& body) {
  const std::string prefix = body.body + ".";
  // the overturn mode: 0 overturned without an impact, −1 did not overturn
  const std::int64_t impacts_before = body.overturned ? body.impacts : -1;
  return {{prefix + "max_abs_theta", "rad", body.max_abs_theta},
          {prefix + "max_theta_over_alpha", "", body.max_theta_over_alpha},
          {prefix + "overturned", "", std::int64_t{body.overturned ? 1 : 0}},
          {prefix + "overturn_time", "s", body.overturn_time},
          {prefix + "impacts_before_overturn", "", impacts_before},
          {prefix + "max_slide", "m", body.max_slide},
          {prefix + "residual_rotation", "rad", body.residual_rotation},
          {prefix + "residual_slide", "m", body.residual_slide}};
}

}  // namespace routh
