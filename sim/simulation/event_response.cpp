#include "sim/simulation/event_response.hpp"

#include <string>

#include "sim/simulation/base_orientation.hpp"
#include "sim/simulation/contact_modes.hpp"
#include "sim/simulation/impact_step.hpp"
#include "sim/simulation/outcome_tracking.hpp"
#include "sim/simulation/sticking_impulse.hpp"
#include "sim/simulation/zeno_rest.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

void record_mode_changes(double t, const std::vector<ContactMode>& before,
                         const std::vector<ContactMode>& modes, StageReport& report) {
  // One event per kind of change, naming every contact that made it (a block's two corners
  // stick together), with the contacts' new modes as its status.
  for (const EventKind kind :
       {EventKind::liftoff, EventKind::slip, EventKind::stick, EventKind::reversal}) {
    EventRecord event;
    for (std::size_t k = 0; k < modes.size(); ++k) {
      const ContactMode was = before[k], is = modes[k];
      if (was == is || !is_closed(was)) continue;  // a contact closing without impact: no event
      const EventKind change = !is_closed(is)              ? EventKind::liftoff
                               : is == ContactMode::stick  ? EventKind::stick
                               : was == ContactMode::stick ? EventKind::slip
                                                           : EventKind::reversal;
      if (change != kind) continue;
      if (event.contacts.empty()) {
        event = mode_event(t, kind, static_cast<int>(k), modes);
      } else {
        event.contacts.push_back(static_cast<int>(k));
        if (event.status != to_string(is)) event.status = cat(event.status, ",", to_string(is));
      }
    }
    if (!event.contacts.empty()) report.events.push_back(event);
  }
}

bool apply_impact(const ImpactResolution& impact, Eigen::VectorXd& v, StageReport& report) {
  v += impact.velocity_change;
  report.events.push_back(impact.event);
  ++report.impacts;
  return v.allFinite();
}

bool resolve_painleve(double t, const ModeSettlement& paradox, const Eigen::VectorXd& q,
                      Eigen::VectorXd& v, const SimulationSettings& settings, RunState& state,
                      RunWorkspace& workspace, StageReport& report) {
  // No contact forces exist for these contacts: an impulse does (an impact without collision,
  // or tangential impact: Génot & Brogliato 1999), which the scenario's law resolves from
  // u_n = 0. One such impact leaves the contacts sticking or separating; were they still stuck,
  // the law could not resolve the paradox, and the run stops.
  // Lemke's ray on a large set is no proof of the paradox: the impact is tried, the log says so,
  // and a run it cannot save ends as one whose modes were not resolved
  const std::vector<int>& stuck = paradox.painleve;
  const RunStatus unresolved = paradox.painleve_proven ? RunStatus::painleve_unresolved
                                                       : RunStatus::contact_modes_unresolved;
  EventRecord event = mode_event(t, EventKind::painleve, stuck.front(), state.modes);
  event.contacts = stuck;
  event.status = paradox.painleve_proven
                     ? "no contact force is consistent: tangential impact"
                     : "Lemke's method found no contact forces (no proof for a set this large): "
                       "tangential impact";
  report.events.push_back(event);
  const ImpactResolution law = resolve_impact(workspace.evaluation, settings, t, q, v, stuck,
                                              /*at_rest=*/false, ImpactStart::without_collision);
  // the law found no impact from u_n = 0: the sticking end of the tangential impact, if Coulomb's
  const ImpactResolution impact =
      law.resolved ? law : sticking_impulse(workspace.evaluation, settings, t, q, v);
  if (!impact.resolved) {
    return end_run(report, unresolved, law.event.status, law.event);
  }
  if (!apply_impact(impact, v, report)) {
    return end_run(report, RunStatus::non_finite_state, "the velocity after a tangential impact");
  }
  const ModeSettlement after =
      settle_contact_modes(workspace.evaluation, settings, t, q, v, state.modes);
  if (after.consistent) return true;
  if (after.painleve.empty()) {
    return end_run(report, RunStatus::contact_modes_unresolved,
                   "settling found no consistent modes after a tangential impact", event);
  }
  if (after.painleve_proven) {
    return end_run(report, RunStatus::painleve_unresolved,
                   "Painlevé's paradox persists after a tangential impact", event);
  }
  return end_run(report, RunStatus::contact_modes_unresolved,
                 "Lemke's method finds no contact forces after a tangential impact", event);
}

// Settles the modes after an event (logging what changed when asked) and resolves Painlevé's
// paradox if no mode is consistent.
bool settle(double t, const Eigen::VectorXd& q, Eigen::VectorXd& v, bool log_changes,
            const SimulationSettings& settings, RunState& state, RunWorkspace& workspace,
            StageReport& report) {
  const std::vector<ContactMode> before = state.modes;
  const ModeSettlement settlement =
      settle_contact_modes(workspace.evaluation, settings, t, q, v, state.modes);
  if (log_changes) {
    record_mode_changes(t, before, state.modes, report);
    if (!note_uplift(t, before, state.modes, settings, state.outcome.summary, report)) {
      return false;
    }
  }
  if (!settlement.painleve.empty()) {
    return resolve_painleve(t, settlement, q, v, settings, state, workspace, report);
  }
  if (settlement.consistent) return true;
  // No consistent modes were found (settling tries every assignment where there are at most
  // kMaxEnumeratedAssignments, beyond that the set's LCP), and it is not Painlevé's
  // paradox: with the modes it ended on a closed contact would pull or an open one sink, and going
  // on would let bodies fall through each other.
  return end_run(report, RunStatus::contact_modes_unresolved,
                 "settling found no consistent modes for the touching contacts");
}

}  // namespace

EventRecord mode_event(double t, EventKind kind, int contact,
                       const std::vector<ContactMode>& modes) {
  EventRecord event;
  event.t = t;
  event.kind = kind;
  event.contacts = {contact};
  event.status = std::string(to_string(modes[static_cast<std::size_t>(contact)]));
  return event;
}

StageReport respond_to_impact(double t, const Eigen::VectorXd& q, Eigen::VectorXd& v,
                              const SimulationSettings& settings, RunState& state,
                              RunWorkspace& workspace) {
  StageReport report;
  const ApproachingContacts approaching =
      approaching_contacts(workspace.evaluation, settings, q, v);
  if (approaching.contacts.empty()) {
    // grazing: no impact, but a contact touching without approach may have to push now (a corner
    // sinking from u_n = 0 at a_n < 0 would cross zero again at once, an event storm)
    settle(t, q, v, /*log_changes=*/false, settings, state, workspace, report);
    return report;
  }
  const bool at_rest = too_slow_to_bounce(approaching.approach_speed, settings);
  const ImpactResolution impact =
      resolve_impact(workspace.evaluation, settings, t, q, v, approaching.contacts, at_rest,
                     ImpactStart::collision);
  if (!impact.resolved) {
    end_run(report, RunStatus::impact_law_failure, impact.event.status, impact.event);
    return report;
  }
  if (!apply_impact(impact, v, report)) {
    end_run(report, RunStatus::non_finite_state, "the velocity after an impact is not finite");
    return report;
  }
  if (!settle(t, q, v, /*log_changes=*/false, settings, state, workspace, report)) return report;
  rest_after_impact(t, q, v, impact.contacts, at_rest, settings, state, workspace, report);
  return report;
}

StageReport respond_to_mode_event(double t, const Witness& witness, const Eigen::VectorXd& q,
                                  Eigen::VectorXd& v, const SimulationSettings& settings,
                                  RunState& state, RunWorkspace& workspace) {
  if (witness.kind == WitnessKind::rotation) return overturn(t, witness, q, settings, state);
  StageReport report;
  if (witness.kind == WitnessKind::support) {
    // off the end of its edge the contact touches nothing: it opens, and the set settles anew
    // (a disk rolling off a block's top now pivots on its corner, a corner falls past an edge)
    EventRecord event = mode_event(t, EventKind::edge_end, witness.contact, state.modes);
    event.status = "left the end of its edge";
    report.events.push_back(event);
    state.modes[static_cast<std::size_t>(witness.contact)] = ContactMode::open;
  }
  // a flat base about to tip about a chord of the points that carry it turns toward its load
  // first (base_orientation.hpp)
  if (witness.kind == WitnessKind::normal_force ||
      witness.kind == WitnessKind::static_friction_margin) {
    turn_base_toward_load(t, q, v, witness.contact, state.modes, workspace);
  }
  // A normal force, friction margin or slip reached zero: the whole contact set is settled again
  // (static friction is a property of the set, docs/simulation.md step 1), and what changed is
  // logged.
  settle(t, q, v, /*log_changes=*/true, settings, state, workspace, report);
  return report;
}

StageReport settle_modes(double t, const Eigen::VectorXd& q, Eigen::VectorXd& v, bool log_changes,
                         const SimulationSettings& settings, RunState& state,
                         RunWorkspace& workspace) {
  StageReport report;
  settle(t, q, v, log_changes, settings, state, workspace, report);
  return report;
}

}  // namespace routh
