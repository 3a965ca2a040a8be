#include "sim/simulation/event_scan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "sim/simulation/active_contacts.hpp"
#include "sim/simulation/event_location.hpp"

namespace routh {

namespace {

// Contact k's gap and normal velocity on the step's dense output at t.
GapAndRate gap_and_rate_at(int k, double t, const DenseStepper& stepper, RunWorkspace& workspace) {
  dense_state_at(stepper, t, workspace);
  const ContactKinematics& kinematics =
      one_contact_at(workspace.evaluation, k, workspace.q, workspace.v);
  return {kinematics.gap[0],
          normal_velocity(kinematics, workspace.evaluation.rows_per_contact, 0, workspace.v),
          support_at(kinematics.support, 0)};
}

// Whether the broad phase lists active contact k at t on the step's dense output (and so whether
// the contact exists there: planar_broad_phase.hpp).
bool listed_at(int k, double t, const DenseStepper& stepper, const RunState& state,
               RunWorkspace& workspace) {
  const int contact = workspace.evaluation.active[static_cast<std::size_t>(k)];
  dense_state_at(stepper, t, workspace);
  wanted_contacts(workspace.q, state.modes, workspace, contact);
  return std::binary_search(workspace.wanted.begin(), workspace.wanted.end(), contact);
}

// A witness's value at (t, workspace.q, workspace.v) from what it reads alone: a force witness
// from the forces of its contact's island (workspace.island, island_dynamics_at()), a slip or
// support witness from its contact's kinematics, a rotation from q. The same value as
// sample_witnesses_at() gives it over every contact, at the cost of one island, not the model.
double island_witness_value(double t, const Witness& witness, const std::vector<ContactMode>& modes,
                            RunWorkspace& workspace) {
  SystemEvaluation& evaluation = workspace.evaluation;
  const int k = witness.contact;
  const auto c = static_cast<std::size_t>(k);
  switch (witness.kind) {
    case WitnessKind::normal_force:
    case WitnessKind::static_friction_margin: {
      const ConstrainedAcceleration& dynamics =
          island_dynamics_at(evaluation, t, workspace.q, workspace.v, modes, workspace.island);
      const auto at = static_cast<std::size_t>(
          std::lower_bound(workspace.island.begin(), workspace.island.end(), k) -
          workspace.island.begin());
      return witness_value(witness, modes[c], evaluation.parameters[c],
                           evaluation.island_quantities.contacts, static_cast<int>(at),
                           dynamics.forces[at], evaluation.rows_per_contact, workspace.q,
                           workspace.v);
    }
    case WitnessKind::slip:
    case WitnessKind::support:
    case WitnessKind::gap:
      return witness_value(
          witness, modes[c], evaluation.parameters[c],
          one_contact_at(evaluation, k, workspace.q, workspace.v, is_closed(modes[c])), 0,
          ContactForce{}, evaluation.rows_per_contact, workspace.q, workspace.v);
    case WitnessKind::rotation: break;
  }
  return witness_value(witness, ContactMode::open, ContactParameters{},
                       evaluation.quantities.contacts, 0, ContactForce{},
                       evaluation.rows_per_contact, workspace.q, workspace.v);
}

std::optional<WitnessCrossing> locate(std::size_t index, const DenseStepper& stepper,
                                      const SimulationSettings& settings, const RunState& state,
                                      RunWorkspace& workspace) {
  const double t0 = stepper.previous_time(), t1 = stepper.current_time();
  const double tolerance = settings.time_tolerance;
  const Witness& witness = state.witnesses[index];
  const WitnessSample &start = state.start, &end = state.end;
  if (witness.kind == WitnessKind::gap) {
    const int k = witness.contact;
    const auto gap_at = [&](double t) { return gap_and_rate_at(k, t, stepper, workspace); };
    const GapAndRate at_start{start.gap[k], start.separation_speed[k],
                              support_at(start.support, k)},
        at_end{end.gap[k], end.separation_speed[k], support_at(end.support, k)};
    if (!rests_touching(at_start, settings.contact_distance, settings.absolute_tolerance)) {
      std::optional<WitnessCrossing> closing =
          locate_gap_closing(gap_at, t0, at_start, t1, at_end, tolerance, settings.contact_distance,
                             settings.absolute_tolerance);
      if (closing) {
        closing = falling_crossing(gap_at, *closing, t0, at_start, t1, at_end,
                                   settings.contact_distance, tolerance);
      }
      if (closing) return closing;
    }
    // An open contact that starts touching without leaving (settled open: its acceleration let
    // it go) and sinks past half the contact distance within the step: it lands there, still
    // touching. One that leaves there sinks so only after its apex (landing_after_apex): an
    // impact that struck a contact as it sank past that depth left it there, and the depth read
    // on the dense output at the step's start put the crossing at the start again, where nothing
    // approached (an event storm, cylinder campaign run 266).
    const double deepest = -0.5 * settings.contact_distance;
    if (!(start.gap[k] > deepest && end.gap[k] <= deepest)) return std::nullopt;
    const auto sunk = [&](double t) {
      GapAndRate at = gap_at(t);
      at.gap -= deepest;
      return at;
    };
    GapAndRate sunk_start = at_start, sunk_end = at_end;
    sunk_start.gap -= deepest;
    sunk_end.gap -= deepest;
    if (at_start.rate >= settings.absolute_tolerance)
      return landing_after_apex(sunk, t0, sunk_start, t1, sunk_end, tolerance);
    const auto sunk_gap = [&](double t) { return sunk(t).gap; };
    return locate_witness_crossing(sunk_gap, t0, sunk_start.gap, t1, sunk_end.gap, tolerance);
  }
  const auto i = static_cast<Eigen::Index>(index);
  const double w0 = start.value[i], w1 = end.value[i];
  if (!witness_triggers(Witness::direction, w0, w1)) return std::nullopt;
  // the forces of the witness's island: the island is the same all along the step (its contacts'
  // bodies do not change), so it is found once, at the step's end
  if (witness.kind == WitnessKind::normal_force ||
      witness.kind == WitnessKind::static_friction_margin) {
    dense_state_at(stepper, t1, workspace);
    closed_island_of(workspace.evaluation, workspace.q, workspace.v, state.modes, witness.contact,
                     workspace.island);
  }
  const auto value_at = [&](double t) {
    dense_state_at(stepper, t, workspace);
    return island_witness_value(t, witness, state.modes, workspace);
  };
  return locate_witness_crossing(value_at, t0, w0, t1, w1, tolerance);
}

}  // namespace

void sample_witnesses_at(double t, const OdeState& x, const std::vector<ContactMode>& modes,
                         const std::vector<Witness>& witnesses, RunWorkspace& workspace,
                         WitnessSample& sample) {
  SystemEvaluation& evaluation = workspace.evaluation;
  unpack(x, workspace);
  if (any_closed(modes)) {  // the forces of open contacts are zero: no solve needed
    dynamics_at(evaluation, t, workspace.q, workspace.v, modes);
  } else {
    contacts_at(evaluation, workspace.q, workspace.v);
  }
  sample_witnesses(witnesses, modes, evaluation.parameters, evaluation.quantities.contacts,
                   evaluation.dynamics, evaluation.rows_per_contact, workspace.q, workspace.v,
                   sample);
}

void sample_witnesses_at_step_end(double t, const OdeState& x,
                                  const std::vector<ContactMode>& modes,
                                  const std::vector<Witness>& witnesses, RunWorkspace& workspace,
                                  WitnessSample& sample) {
  // dopri5's last stage evaluates the right-hand side at the accepted step's end (first same as
  // last); with a closed contact that solve is the one the witnesses need, still in the
  // workspace's evaluation.
  if (any_closed(modes) && t == workspace.last_derivative_t && x == workspace.last_derivative_x) {
    SystemEvaluation& evaluation = workspace.evaluation;
    unpack(x, workspace);
    sample_witnesses(witnesses, modes, evaluation.parameters, evaluation.quantities.contacts,
                     evaluation.dynamics, evaluation.rows_per_contact, workspace.q, workspace.v,
                     sample);
    return;
  }
  sample_witnesses_at(t, x, modes, witnesses, workspace, sample);
}

std::optional<TriggeredWitness> earliest_trigger(const DenseStepper& stepper,
                                                 const SimulationSettings& settings,
                                                 const RunState& state, RunWorkspace& workspace) {
  // the last step may end past the run's duration: an event there is not the run's (an impact
  // at 0.7124 s was logged in a completed run of 0.7 s, tall_stack:1 of the multibody campaign)
  std::optional<TriggeredWitness> earliest, support;
  for (std::size_t i = 0; i < state.witnesses.size(); ++i) {
    const std::optional<WitnessCrossing> crossing = locate(i, stepper, settings, state, workspace);
    if (!crossing || crossing->before > settings.duration) continue;
    if (!earliest || crossing->before < earliest->crossing.before)
      earliest = TriggeredWitness{i, *crossing};
    if (state.witnesses[i].kind == WitnessKind::support &&
        (!support || crossing->before < support->crossing.before))
      support = TriggeredWitness{i, *crossing};
  }
  // A closed contact that leaves the end of its surface at the instant another contact's gap
  // crosses zero (their crossings overlap) goes first: the gap may cross because the contacts
  // change there. A rim pivoting on a fixed point of its base leaves the flat band (the fixed
  // point's support reaches zero) where its tilt line's ends jump from the points (±ρ, 0) to the
  // deepest point, a hair below the floor (spatial_contact_geometry.hpp); struck at the gap
  // crossing's near side, still flat, nothing approached, and the same crossing was found again
  // at that instant: an event storm (run 55 of the cylinder campaign).
  if (earliest && support && state.witnesses[earliest->index].kind == WitnessKind::gap &&
      support->crossing.before < earliest->crossing.after)
    return support;
  return earliest;
}

namespace {

// Whether the gap falls across `crossing` (near and far its sides) by far more than its rate
// explains: it jumps there.
bool gap_jumps(const GapAndRate& near, const GapAndRate& far, const WitnessCrossing& crossing) {
  constexpr double kRateMargin = 10.0;  // a landing's gap changes at its rate, give or take
  const double explained = kRateMargin * std::max(std::abs(near.rate), std::abs(far.rate)) *
                           (crossing.after - crossing.before);
  return near.gap - far.gap > explained;
}

}  // namespace

// A gap that jumps across zero from within the contact distance (crossing_is_no_landing takes
// the larger jumps) as its point jumps over the surface is struck at the far side, the only one
// that touches: a rim leaving the flat
// band, its tilt line's ends jumping from the material points (±ρ, 0) to the deepest point, a hair
// below the floor (spatial_contact_geometry.hpp), was struck on the near side, where nothing
// approached, and the same crossing was found again at that instant (an event storm, run 792 of
// the cylinder campaign).
double impact_time(const TriggeredWitness& fired, const DenseStepper& stepper,
                   const SimulationSettings& settings, const RunState& state,
                   RunWorkspace& workspace) {
  const int k = state.witnesses[fired.index].contact;
  const auto gap_at = [&](double t) { return gap_and_rate_at(k, t, stepper, workspace); };
  const GapAndRate near = gap_at(fired.crossing.before), far = gap_at(fired.crossing.after);
  if (near.gap > 0.0 && point_jumps(near, far, settings.contact_distance) &&
      gap_jumps(near, far, fired.crossing))
    return fired.crossing.after;
  return impact_instant(gap_at, fired.crossing);
}

// A gap crossing across which the gap jumps is no landing where on its near side the contact
// does not touch: the impact stage would find nothing and the witness would fire again at the
// same instant. Unless the contact enters its surface's extent there, touching and approaching on
// the far side: its point came onto the surface already touching, which is a landing, struck on
// the far side (impact_instant). A rim's deepest point that an impact left 7.8e-10 m below the
// incline and falling passed from one tilt-line end to the other as the tilt line swung across
// the body's y axis (spatial_contact_geometry.hpp); the end taking it over jumped from the
// highest point, 1.45e-9 m up, to it, went on unseen as sunk deeper than the sinking witness
// looks (half the contact distance), and the rim sank 2.4e-9 m into the incline (cylinder
// campaign run 2081).
bool crossing_is_no_landing(const TriggeredWitness& fired, const DenseStepper& stepper,
                            const SimulationSettings& settings, const RunState& state,
                            RunWorkspace& workspace) {
  const int k = state.witnesses[fired.index].contact;
  const GapAndRate near = gap_and_rate_at(k, fired.crossing.before, stepper, workspace);
  const GapAndRate far = gap_and_rate_at(k, fired.crossing.after, stepper, workspace);
  const bool enters_touching =
      enters_extent(near, far) && std::abs(far.gap) <= settings.contact_distance && far.rate < 0.0;
  if (near.gap > settings.contact_distance && gap_jumps(near, far, fired.crossing) &&
      !enters_touching)
    return true;
  return !listed_at(k, fired.crossing.before, stepper, state, workspace);
}

// Where two corners slide past each other, one crosses the other's face (its gap falls
// continuously through zero) a hair before it enters the extent of the other's side face, whose
// gap jumps there. When the first gap is positive again at the step's end (the corner has left
// that face's end), only the jump is located, and restarting past it left the first contact sunk
// and open, its witness never to fire again (stack:145 of the multibody campaign: a top block
// fell 0.1 m into the one below). Such a contact, positive at the step's start, is sunk and
// approaching at the jump's far side; the earliest crossing of such contacts on the step at which
// the gap falls (event_location.hpp, falling_crossing: a corner touching at the step's start and
// leaving crosses zero there by round-off) and that is itself a landing (crossing_is_no_landing:
// stack:41's was another corner's gap jumping from +0.24 m to −0.24 m, and the impact stage found
// nothing approaching there at every try, an event storm) is the event, an impact.
std::optional<TriggeredWitness> landing_hidden_by_jump(const TriggeredWitness& jump,
                                                       const DenseStepper& stepper,
                                                       const SimulationSettings& settings,
                                                       const RunState& state,
                                                       RunWorkspace& workspace) {
  const double t0 = stepper.previous_time(), t_past = jump.crossing.after;
  const std::vector<Witness>& witnesses = state.witnesses;
  dense_state_at(stepper, t_past, workspace);
  std::vector<std::pair<std::size_t, double>> sunk;  // witness, gap at t_past
  {
    const ContactKinematics& kinematics =
        contacts_at(workspace.evaluation, workspace.q, workspace.v);
    for (std::size_t i = 0; i < witnesses.size(); ++i) {
      const Witness& witness = witnesses[i];
      if (i == jump.index || witness.kind != WitnessKind::gap) continue;
      const int k = witness.contact;
      if (state.start.gap[k] > 0.0 && kinematics.gap[k] <= 0.0 &&
          normal_velocity(kinematics, workspace.evaluation.rows_per_contact, k, workspace.v) <
              0.0) {
        sunk.emplace_back(i, kinematics.gap[k]);
      }
    }
  }
  std::optional<TriggeredWitness> earliest;
  for (const auto& [i, gap_past] : sunk) {
    const int k = witnesses[i].contact;
    const auto gap_and_rate = [&](double t) { return gap_and_rate_at(k, t, stepper, workspace); };
    const auto gap_at = [&](double t) { return gap_and_rate(t).gap; };
    const GapAndRate at_start{state.start.gap[k], state.start.separation_speed[k]};
    const std::optional<WitnessCrossing> crossing =
        falling_crossing(gap_and_rate,
                         locate_witness_crossing(gap_at, t0, at_start.gap, t_past, gap_past,
                                                 settings.time_tolerance),
                         t0, at_start, t_past, gap_and_rate(t_past), settings.contact_distance,
                         settings.time_tolerance);
    if (crossing && (!earliest || crossing->before < earliest->crossing.before) &&
        !crossing_is_no_landing({i, *crossing}, stepper, settings, state, workspace)) {
      earliest = TriggeredWitness{i, *crossing};
    }
  }
  return earliest;
}

}  // namespace routh
