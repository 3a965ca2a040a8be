#include "sim/simulation/output_sampling.hpp"

namespace routh {

void sample(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, SampleKind kind,
            SystemEvaluation& evaluation, TrajectoryObserver& observer) {
  observer.record_sample(t, q, v, energy_at(evaluation, q, v), kind);
}

bool emit_samples_until(double t_end, const DenseStepper& stepper,
                        const SimulationSettings& settings, const WallClockLimit& wall_clock,
                        OutputClock& clock, RunWorkspace& workspace, TrajectoryObserver& observer) {
  const double period = 1.0 / settings.output_rate;
  while (clock.next <= t_end && clock.next <= settings.duration) {
    if (interruption(wall_clock)) return false;
    dense_state_at(stepper, clock.next, workspace);
    sample(clock.next, workspace.q, workspace.v, SampleKind::output, workspace.evaluation,
           observer);
    clock.next = static_cast<double>(++clock.index) * period;
  }
  return true;
}

void skip_sample_at_event(double t_event, const SimulationSettings& settings, OutputClock& clock) {
  if (clock.next <= t_event) {
    clock.next = static_cast<double>(++clock.index) / settings.output_rate;
  }
}

}  // namespace routh
