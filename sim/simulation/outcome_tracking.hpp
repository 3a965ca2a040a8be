#pragma once
// The run's outcome figures as it goes (RunSummary; docs/simulation.md, "Guards" and /summary):
// the watched bodies' largest rotation and slide, their overturn, and the first uplift of a
// resting contact set; and per watched body (docs/output.md) the same with its θ/α, the impacts
// it took part in before it overturned, and where it ended. The figures are written into the run's
// summary; an overturn or uplift event is reported to the loop, which records it and, when
// `events.stop_on` names it, ends the run there.

#include <Eigen/Core>
#include <vector>

#include "sim/simulation/contact_mode.hpp"
#include "sim/simulation/ode_state.hpp"
#include "sim/simulation/run_state.hpp"
#include "sim/simulation/simulation_settings.hpp"
#include "sim/simulation/simulator.hpp"
#include "sim/simulation/system_evaluation.hpp"
#include "sim/simulation/witnesses.hpp"

namespace routh {

/// Whether `events.stop_on` names `kind`.
bool stops_on(const SimulationSettings& settings, EventKind kind);

/// Where the watched bodies' base points stand at the start (q), for their slide
/// (OverturnWatch), each body's in turn, into x_m [m].
void base_points_start_x(const std::vector<OverturnWatch>& watched, const Eigen::VectorXd& q,
                         std::vector<double>& x_m);

/// The watched bodies' figures (RunSummary::bodies) before the run: nothing turned or slid yet;
/// NaN for θ/α of a body without a standing base and for the slide of one without base points.
void start_body_outcomes(const std::vector<OverturnWatch>& watched, RunSummary& summary);

/// The largest rotation and slide so far (RunSummary), the whole model's and each watched
/// body's, with those of the state q at t.
void note_excursions(double t, const Eigen::VectorXd& q, const std::vector<OverturnWatch>& watched,
                     const std::vector<double>& base_start_x_m, RunSummary& summary);

/// note_excursions() over the step just taken: at its end (or the run's duration, where the last
/// step ends past it) and where a watched θ̇ changes sign within it.
void track_rotation(const DenseStepper& stepper, const SimulationSettings& settings,
                    const std::vector<double>& base_start_x_m, RunWorkspace& workspace,
                    RunSummary& summary);

/// A watched body's rotation witness reached 0 at (t, q): an `overturn` event; the body is
/// watched no more, and the run ends there when asked.
StageReport overturn(double t, const Witness& witness, const Eigen::VectorXd& q,
                     const SimulationSettings& settings, RunState& state);

/// The impacts among `report`'s events at q: each counts for every watched body not yet
/// overturned whose motion one of its contacts takes part in (its rows touch the body's rotation
/// rate, ContactKinematics::touched_velocities): a block's impacts on the floor, and a stacked
/// block's on the one beneath, which counts for both.
void note_impacts(const StageReport& report, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                  const std::vector<OverturnWatch>& watched, SystemEvaluation& evaluation,
                  RunSummary& summary);

/// Each watched body's residual rotation and slide at the run's end q (nothing at a q that is
/// not finite).
void note_residuals(const Eigen::VectorXd& q, const std::vector<OverturnWatch>& watched,
                    const std::vector<double>& base_start_x_m, RunSummary& summary);

/// After the modes at t changed from `before` to `modes`: the first lift-off from a set of several
/// closed contacts (a block standing flat begins to rock) is an `uplift` event, once per run,
/// into `report`. False when the run ends there, as asked.
bool note_uplift(double t, const std::vector<ContactMode>& before,
                 const std::vector<ContactMode>& modes, const SimulationSettings& settings,
                 RunSummary& summary, StageReport& report);

}  // namespace routh
