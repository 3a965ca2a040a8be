#include "sim/simulation/active_contacts.hpp"

#include <algorithm>
#include <iterator>
#include <limits>

namespace routh {

namespace {

bool is_closed_contact(int contact, const SystemEvaluation& evaluation,
                       const std::vector<ContactMode>& modes) {
  const int k = local_index(evaluation, contact);
  return k >= 0 && is_closed(modes[static_cast<std::size_t>(k)]);
}

// Of a vertex's contacts with a segment's two faces, both wanted, the one to keep: the closed one,
// else the one whose gap fired the event, else the one already active, else the first. A vertex
// reaches the line of a segment only from the face it then touches: that face was listed while
// the vertex approached it, its gap located the landing, and the other face joins only within a
// hair of the line (or for the step in which the vertex crossed it), where its gap reads as small
// as the first's. When the broad phase cannot tell the faces apart by the vertex's body (two
// segments lying flat on each other), the face touched is the one it was touching before, and a
// drift of 1e-11 m across the line does not move it to the other face. (Beyond the segment's
// ends both are listed by their gaps, there equal, as are their rows: one of them is enough.)
bool keeps_over_opposite(int contact, int opposite, int fired, const SystemEvaluation& evaluation,
                         const std::vector<ContactMode>& modes) {
  const bool closed = is_closed_contact(contact, evaluation, modes),
             other_closed = is_closed_contact(opposite, evaluation, modes);
  if (closed != other_closed) return closed;
  if (contact == fired || opposite == fired) return contact == fired;
  const bool active = local_index(evaluation, contact) >= 0,
             other_active = local_index(evaluation, opposite) >= 0;
  if (active != other_active) return active;
  return contact < opposite;
}

// Never both faces of a segment for one vertex (MechanicalSystem::opposite_face_contact): their
// rows are opposite, and an impact law handed both solves a singular problem.
void keep_one_face(std::vector<int>& wanted, int fired, const std::vector<ContactMode>& modes,
                   RunWorkspace& workspace) {
  const SystemEvaluation& evaluation = workspace.evaluation;
  const MechanicalSystem& system = evaluation.system;
  std::vector<int>& kept = workspace.kept;
  kept.clear();
  for (const int contact : wanted) {
    const int opposite = system.opposite_face_contact(contact);
    if (opposite < 0 || !std::binary_search(wanted.begin(), wanted.end(), opposite) ||
        keeps_over_opposite(contact, opposite, fired, evaluation, modes)) {
      kept.push_back(contact);
    }
  }
  if (kept.size() < wanted.size()) wanted.swap(kept);
}

// The broad phase lists only contacts within a margin, on the assumption that no body moves or
// turns farther than that margin between two calls (MechanicalSystem::broad_phase_step_bound_s);
// a step that broke it could carry a contact from beyond the margin through its gap and out
// again unseen (a fast disk through another). Its bound at the state x [s]:
double broad_phase_bound_at(const OdeState& x, RunWorkspace& workspace) {
  unpack(x, workspace);
  SystemEvaluation& evaluation = workspace.evaluation;
  return evaluation.system.broad_phase_step_bound_s(workspace.q, workspace.v,
                                                    *evaluation.model_workspace);
}

}  // namespace

int local_index(const SystemEvaluation& evaluation, int contact) {
  const auto found = std::lower_bound(evaluation.active.begin(), evaluation.active.end(), contact);
  if (found == evaluation.active.end() || *found != contact) return -1;
  return static_cast<int>(found - evaluation.active.begin());
}

std::vector<ContactMode> model_modes(const SystemEvaluation& evaluation,
                                     const std::vector<ContactMode>& modes) {
  std::vector<ContactMode> by_model(static_cast<std::size_t>(evaluation.all_contacts),
                                    ContactMode::open);
  for (int k = 0; k < evaluation.contacts; ++k) {
    by_model[static_cast<std::size_t>(evaluation.active[static_cast<std::size_t>(k)])] =
        modes[static_cast<std::size_t>(k)];
  }
  return by_model;
}

// The contacts to evaluate at q: those the model's broad phase finds nearby, and every closed
// one (it stays closed until an event opens it, wherever the broad phase would put it).
void wanted_contacts(const Eigen::VectorXd& q, const std::vector<ContactMode>& modes,
                     RunWorkspace& workspace, int fired) {
  SystemEvaluation& evaluation = workspace.evaluation;
  std::vector<int>& wanted = workspace.wanted;
  evaluation.system.nearby_contacts(q, *evaluation.model_workspace, wanted);
  const std::size_t listed = wanted.size();
  for (int k = 0; k < evaluation.contacts; ++k) {
    const int contact = evaluation.active[static_cast<std::size_t>(k)];
    if (is_closed(modes[static_cast<std::size_t>(k)]) &&
        !std::binary_search(wanted.begin(), wanted.begin() + static_cast<long>(listed), contact)) {
      wanted.push_back(contact);
    }
  }
  if (wanted.size() > listed) std::sort(wanted.begin(), wanted.end());
  keep_one_face(wanted, fired, modes, workspace);
}

bool activate(const std::vector<int>& wanted, RunState& state, RunWorkspace& workspace) {
  SystemEvaluation& evaluation = workspace.evaluation;
  if (wanted == evaluation.active) return false;
  std::vector<ContactMode> modes(wanted.size(), ContactMode::open);
  for (std::size_t i = 0; i < wanted.size(); ++i) {
    const int k = local_index(evaluation, wanted[i]);
    if (k >= 0) modes[i] = state.modes[static_cast<std::size_t>(k)];
  }
  select_contacts(evaluation, wanted);
  state.modes = std::move(modes);
  state.witnesses = witnesses_of(state.modes, state.rotations);
  // its kinematics are stale
  workspace.last_derivative_t = std::numeric_limits<double>::quiet_NaN();
  return true;
}

bool widen_for_step(const DenseStepper& stepper, RunState& state, RunWorkspace& workspace) {
  unpack(stepper.current_state(), workspace);
  wanted_contacts(workspace.q, state.modes, workspace);
  const std::vector<int>& active = workspace.evaluation.active;
  const std::vector<int>& wanted = workspace.wanted;
  if (std::includes(active.begin(), active.end(), wanted.begin(), wanted.end())) return false;
  workspace.merged.clear();
  std::set_union(active.begin(), active.end(), wanted.begin(), wanted.end(),
                 std::back_inserter(workspace.merged));
  activate(workspace.merged, state, workspace);
  return true;
}

bool narrow_after_step(const OdeState& x, bool projected, RunState& state,
                       RunWorkspace& workspace) {
  if (projected) {
    unpack(x, workspace);
    wanted_contacts(workspace.q, state.modes, workspace);
  }
  return activate(workspace.wanted, state, workspace);
}

// The active set is the broad phase's at the step's ends, and a contact listed at one of them
// need not exist at the event: a block's corner resting on another block's top near its side
// lies, within the side face's extent, behind that face by less than half the block's width,
// where the gap reads as sunk into the side face (the broad phase's nearest_face() tells the two
// faces apart; the gap, which locates landings from steps' ends, does not). Left active, that
// contact was touching at the next event, and settling closed it against the side face and threw
// the block into the other. Closed contacts stay, so the fired witness's contact does unless it
// is an open gap's, which an impact finds again if it touches.
Witness contacts_at_event(const Eigen::VectorXd& q, Witness fired, RunState& state,
                          RunWorkspace& workspace) {
  const SystemEvaluation& evaluation = workspace.evaluation;
  const int watched = fired.kind == WitnessKind::rotation
                          ? -1
                          : evaluation.active[static_cast<std::size_t>(fired.contact)];
  wanted_contacts(q, state.modes, workspace, watched);
  activate(workspace.wanted, state, workspace);
  if (watched >= 0) fired.contact = local_index(evaluation, watched);
  return fired;
}

void bound_next_step(DenseStepper& stepper, RunWorkspace& workspace) {
  const double bound_s = broad_phase_bound_at(stepper.current_state(), workspace);
  if (stepper.current_time_step() <= bound_s) return;
  workspace.step_start = stepper.current_state();
  stepper.initialize(workspace.step_start, stepper.current_time(), bound_s);
}

// A step bounded at its start may still outrun the bound at its end, where the bodies move
// faster: one longer than 1.5 times that bound is taken again from its start, no longer than
// it (the model's bound allows for that factor, planar_broad_phase.hpp's kBroadPhaseReach).
bool outran_broad_phase(DenseStepper& stepper, RunWorkspace& workspace) {
  constexpr double kAllowance = 1.5;
  const double t0 = stepper.previous_time(), taken_s = stepper.current_time() - t0;
  const double bound_s = broad_phase_bound_at(stepper.current_state(), workspace);
  if (taken_s <= kAllowance * bound_s) return false;
  workspace.step_start = stepper.previous_state();
  stepper.initialize(workspace.step_start, t0, bound_s);
  return true;
}

}  // namespace routh
