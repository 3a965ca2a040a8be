#include "sim/simulation/contact_modes.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "sim/impact/lemke.hpp"
#include "sim/simulation/constraint_projection.hpp"
#include "sim/simulation/contact_islands.hpp"
#include "sim/simulation/slip_reference.hpp"
#include "sim/simulation/witnesses.hpp"

namespace routh {

namespace {

// The sliding mode that opposes the tangential force sticking needed: friction at its limit
// pushes the way sticking pushed, so the contact slips the other way (a spatial contact starts
// from −λ_t/‖λ_t‖, and aligns with its acceleration: align_slips_from_rest). A contact that
// needed no tangential force at all slips along its first tangential row.
ContactMode slide_against(SystemEvaluation& evaluation, int k, const ContactForce& force) {
  const Eigen::Vector2d against = -tangential_force(force);
  // exactly zero only: a planar force of 1e-13 N still decides its slip's sign, as it always has
  return slide_along(evaluation, k,
                     against == Eigen::Vector2d::Zero() ? Eigen::Vector2d(1.0, 0.0) : against);
}

// Candidates start closed: sliding with their slip when it exceeds the rest speed, else sticking.
// The slip is read from their rows held closed, as the force solve of those modes reads them.
void close_candidates(SystemEvaluation& evaluation, const Eigen::VectorXd& q,
                      const Eigen::VectorXd& v, const std::vector<int>& candidates,
                      const SimulationSettings& settings, std::vector<ContactMode>& modes) {
  std::fill(modes.begin(), modes.end(), ContactMode::open);
  for (const int k : candidates) modes[static_cast<std::size_t>(k)] = ContactMode::stick;
  const ContactKinematics& kinematics = contacts_at(evaluation, q, v, modes);
  const int rows = evaluation.rows_per_contact;
  for (const int k : candidates) {
    const Eigen::Vector2d u_t = slip_of(kinematics, rows, k, v);
    modes[k] =
        u_t.norm() > settings.rest_speed ? slide_along(evaluation, k, u_t) : ContactMode::stick;
  }
}

// A candidate closed sliding may have lost its slip to the projection onto the closed contacts:
// when the others' constraints leave no motion in which it slips (a block leaning on a wall,
// its top corner sticking there: floor normal, wall normal and wall tangent are three rows on
// three degrees of freedom, so Δv = −M⁻¹Jᵀ(J M⁻¹ Jᵀ)⁻¹ J v leaves v = 0). Its mode then names
// a slip direction the projected velocity no longer has, and settling could neither let it
// stick (the slide-or-open options of a slipping contact) nor judge σ a_t ≥ 0 against its
// slip, and declared Painlevé's paradox at rest. Such a contact sticks, as one closed from
// rest does; true when one stuck (v must be projected again with its tangential row).
// The projection can also turn a slip around (tall_stack:1 of the multibody campaign: two
// corners of a block closed sliding at −u_t slipped at +2e-4 m/s once projected, and no mode
// assignment with friction pushing that slip was consistent); such a contact slides the way it
// now slips. Its constraint is its normal row alone, so v needs no new projection for it.
bool modes_follow_slips(SystemEvaluation& evaluation, const Eigen::VectorXd& q,
                        const Eigen::VectorXd& v, const std::vector<int>& candidates,
                        const SimulationSettings& settings, std::vector<ContactMode>& modes) {
  const ContactKinematics& kinematics = contacts_at(evaluation, q, v, modes);
  bool stuck = false;
  for (const int k : candidates) {
    if (!is_sliding(modes[k])) continue;
    const Eigen::Vector2d u_t = slip_of(kinematics, evaluation.rows_per_contact, k, v);
    if (u_t.norm() <= settings.rest_speed) {
      modes[k] = ContactMode::stick;
      stuck = true;
    } else {
      modes[k] = slide_along(evaluation, k, u_t);
    }
  }
  return stuck;
}

// One change at a time: a closed contact that pulls opens, the most pulling first; only when
// none pulls does a sticking contact whose margin is gone slide, against the force it needed.
// Contacts that would pull are released before friction modes are chosen, since the friction a
// contact needs depends on which others carry load. Each change is for good, so 2K + 1 passes
// suffice.
void change_modes_one_at_a_time(SystemEvaluation& evaluation, double t, const Eigen::VectorXd& q,
                                const Eigen::VectorXd& v, std::vector<ContactMode>& modes) {
  const int K = evaluation.contacts;
  for (int pass = 0; pass <= 2 * K; ++pass) {
    const ConstrainedAcceleration& dynamics = dynamics_at(evaluation, t, q, v, modes);
    int pulling = -1;
    for (int k = 0; k < K; ++k) {
      if (is_closed(modes[k]) && !(dynamics.forces[k].normal > 0.0) &&
          (pulling < 0 || dynamics.forces[k].normal < dynamics.forces[pulling].normal)) {
        pulling = k;
      }
    }
    if (pulling >= 0) {
      modes[pulling] = ContactMode::open;
      continue;
    }
    int slipping = -1;
    for (int k = 0; k < K && slipping < 0; ++k) {
      if (modes[k] == ContactMode::stick &&
          !(static_friction_margin(evaluation.parameters[k], dynamics.forces[k]) > 0.0)) {
        slipping = k;
      }
    }
    if (slipping < 0) return;
    modes[slipping] = slide_against(evaluation, slipping, dynamics.forces[slipping]);
  }
}

// The options enumerated for a candidate: a sliding one slides as it slips or opens, one without
// slip sticks, slides either way or opens. A spatial one without slip has one sliding option, along
// the direction its acceleration takes from rest (align_slips_from_rest), the one Coulomb's law
// with maximum dissipation allows.
constexpr std::size_t kSlidingOptions = 2, kRestingOptions = 4, kSpatialRestingOptions = 3;

// Whether every assignment of the candidates' options, from `modes`, is at most
// kMaxEnumeratedAssignments.
bool is_enumerable(const std::vector<ContactMode>& modes, const std::vector<int>& candidates,
                   int rows_per_contact) {
  const std::size_t resting = rows_per_contact > 2 ? kSpatialRestingOptions : kRestingOptions;
  std::size_t assignments = 1;
  for (const int k : candidates) {
    assignments *= is_sliding(modes[static_cast<std::size_t>(k)]) ? kSlidingOptions : resting;
    if (assignments > kMaxEnumeratedAssignments) return false;
  }
  return true;
}

// Every assignment of the candidates' modes (a slipping contact slides its way or opens; one
// without slip sticks, slides either way, or opens), in order of fewest opened contacts, then
// fewest slipping from rest, each contact's options in order of preference (the preferred slip
// opposes the force sticking needed). The first consistent one is taken.
//
// A spatial sliding option's direction is the contact's reference û₀ (slip_reference.hpp), kept
// in the evaluation, and judging an assignment aligns it (align_slips_from_rest): every
// assignment starts from the references the options set, not from those an earlier assignment
// aligned. Box campaign runs 271, 1048 and 1520: a box's edge on the floor (two corners, one
// indeterminate set) reached the edge of its static cone; the assignment sliding both corners was
// tried with the directions the trials sliding one of them had aligned, 2e-6 rad apart, which
// twisted the box's slip at 5e-8 m/s² against one of them, and no assignment was consistent;
// both from the direction against their sticking forces, the edge slides at a_t of round-off.
bool enumerate_consistent_modes(SystemEvaluation& evaluation, const SimulationSettings& settings,
                                double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                const std::vector<int>& candidates,
                                std::vector<ContactMode>& modes) {
  const std::size_t count = candidates.size();
  if (!is_enumerable(modes, candidates, evaluation.rows_per_contact)) return false;
  const std::vector<ContactForce> sticking_forces = dynamics_at(evaluation, t, q, v, modes).forces;
  std::vector<std::vector<ContactMode>> options(count);
  for (std::size_t i = 0; i < count; ++i) {
    const int k = candidates[i];
    if (is_sliding(modes[k])) {
      options[i] = {modes[k], ContactMode::open};  // kSlidingOptions
    } else if (evaluation.rows_per_contact > 2) {
      options[i] = {ContactMode::stick, slide_against(evaluation, k, sticking_forces[k]),
                    ContactMode::open};  // kSpatialRestingOptions
    } else {
      const ContactMode preferred = slide_against(evaluation, k, sticking_forces[k]);
      const ContactMode other = preferred == ContactMode::slide_negative
                                    ? ContactMode::slide_positive
                                    : ContactMode::slide_negative;
      options[i] = {ContactMode::stick, preferred, other, ContactMode::open};
    }
  }
  struct Assignment {
    int opened = 0, slipping = 0;
    std::vector<ContactMode> modes;
  };
  std::vector<Assignment> assignments;
  std::vector<std::size_t> choice(count, 0);
  while (true) {
    Assignment assignment;
    for (std::size_t i = 0; i < count; ++i) {
      const ContactMode mode = options[i][choice[i]];
      assignment.modes.push_back(mode);
      if (mode == ContactMode::open) ++assignment.opened;
      if (options[i].size() > kSlidingOptions && is_sliding(mode)) ++assignment.slipping;
    }
    assignments.push_back(std::move(assignment));
    std::size_t digit = count;  // the next choice, last contact fastest
    while (digit > 0 && ++choice[digit - 1] == options[digit - 1].size()) choice[--digit] = 0;
    if (digit == 0) break;
  }
  std::stable_sort(assignments.begin(), assignments.end(),
                   [](const Assignment& a, const Assignment& b) {
                     return a.opened != b.opened ? a.opened < b.opened : a.slipping < b.slipping;
                   });
  const auto model_contact = [&](std::size_t i) {
    return static_cast<std::size_t>(evaluation.active[static_cast<std::size_t>(candidates[i])]);
  };
  std::vector<Eigen::Vector2d> references(count);
  std::vector<bool> aligned(count);
  for (std::size_t i = 0; i < count; ++i) {
    references[i] = evaluation.slip_reference[model_contact(i)];
    aligned[i] = evaluation.slip_aligned[model_contact(i)];
  }
  std::vector<ContactMode> trial = modes;
  for (const Assignment& assignment : assignments) {
    for (std::size_t i = 0; i < count; ++i) {
      trial[candidates[i]] = assignment.modes[i];
      evaluation.slip_reference[model_contact(i)] = references[i];
      evaluation.slip_aligned[model_contact(i)] = aligned[i];
    }
    if (modes_are_consistent(evaluation, settings, t, q, v, trial, candidates)) {
      modes = trial;
      return true;
    }
  }
  return false;
}

// The modes of the candidates read from the acceleration-level frictional contact problem of the
// whole set, an LCP (Baraff 1994, "Fast contact force computation for nonpenetrating rigid
// bodies"; Pfeiffer & Glocker 1996, "Multibody Dynamics with Unilateral Contacts", ch. 7; Trinkle
// et al. 1997). With a = J v̇ + J̇v the contacts' accelerations, v̇ = a_free + M⁻¹ Σ columns·forces,
// per contact λ_n ≥ 0 ⟂ a_n ≥ 0; a sliding one (its mode from `modes`) pushes along
// J_nᵀ − μd σ J_tᵀ; a sticking candidate has λ_t = λ⁺ − λ⁻ with the slack σ:
//     σ + a_t ≥ 0 ⟂ λ⁺ ≥ 0,   σ − a_t ≥ 0 ⟂ λ⁻ ≥ 0,   μ λ_n − λ⁺ − λ⁻ ≥ 0 ⟂ σ ≥ 0,
// so that it sticks (σ = 0, |λ_t| ≤ μ λ_n) or slips (σ = |a_t| > 0) against its friction at the
// limit. Read: λ_n = 0 opens, σ > 0 slides the way a_t points, else sticks. Settling tries every
// assignment only for a few contacts; this solves a set of any size in one pivoting path (a
// column of 20 drums touches at 78 corners: 312 unknowns). Its ray termination is Lemke's verdict
// that no solution exists (Painlevé's paradox for the sliding ones), reported as such.
//
// The cone's bound μ is μs or μd (`cone`). With μs the slipping contacts of the solution slip
// against μs λ_n, while a contact slipping from rest is resisted by μd λ_n (contact_forces.hpp):
// when μd < μs the solution's accelerations are not those of its modes, and the check can refuse
// them (a block slipping off a corner under μs λ_n leaves the stack below it held, under μd λ_n
// it pushes less and a corner under it lifts). With μd the problem is the set's frictional
// contact problem with the friction a slipping contact really has; its sticking contacts keep
// |λ_t| ≤ μd λ_n ≤ μs λ_n, inside their static cones, so its solution is one of Coulomb's law
// with μs ≥ μd (the law then admits several: this one may slip where sticking could hold too).
//
// With `free_slips` a candidate sliding in `modes` gets the unknowns of one without slip (its
// friction anywhere in its cone, its slip either way), as stop_slow_slips needs.
enum class LcpModes { consistent, no_solution, inconsistent };
enum class FrictionCone { static_friction, kinetic_friction };
LcpModes lcp_consistent_modes(SystemEvaluation& evaluation, const SimulationSettings& settings,
                              double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                              const std::vector<int>& candidates, FrictionCone cone,
                              bool free_slips, std::vector<ContactMode>& modes) {
  const int rows = evaluation.rows_per_contact;
  // The spatial problem's cone is quadratic, not a complementarity problem of this form (a
  // polyhedral approximation would be): a spatial set too large to enumerate stays unsettled,
  // and the run says so (contact_modes_unresolved) rather than guessing.
  if (rows > 2) return LcpModes::inconsistent;
  const auto count = static_cast<int>(candidates.size());
  // unknowns: λ_n of every candidate, then λ⁺, λ⁻, σ of every one without slip
  std::vector<int> first(candidates.size(), -1);  // of a sticking candidate's λ⁺
  int size = count;
  for (int i = 0; i < count; ++i) {
    if (free_slips || !is_sliding(modes[candidates[i]])) first[i] = size, size += 3;
  }
  std::vector<ContactMode> open(modes.size(), ContactMode::open);
  const Eigen::VectorXd free_acceleration = dynamics_at(evaluation, t, q, v, open).acceleration;
  const Eigen::LLT<Eigen::MatrixXd> mass(mass_matrix_at(evaluation, q));
  // the candidates' rows as the force solve of their closed modes reads them (held)
  const ContactKinematics& kinematics = contacts_at(evaluation, q, v, modes);
  const auto n_dof = static_cast<Eigen::Index>(v.size());
  // R: the accelerations each row of the LCP reads; C: the generalized force of each unknown
  Eigen::MatrixXd R = Eigen::MatrixXd::Zero(size, n_dof), C = Eigen::MatrixXd::Zero(n_dof, size);
  Eigen::VectorXd bias = Eigen::VectorXd::Zero(size);
  for (int i = 0; i < count; ++i) {
    const int k = candidates[i];
    const Eigen::VectorXd normal = kinematics.jacobian.row(k * rows).transpose();
    const Eigen::VectorXd tangent = kinematics.jacobian.row(k * rows + 1).transpose();
    const double normal_product = kinematics.jacobian_dot_v[k * rows];
    const double tangent_product = kinematics.jacobian_dot_v[k * rows + 1];
    R.row(i) = normal.transpose();
    bias[i] = normal_product;
    if (first[i] < 0) {
      C.col(i) =
          normal - evaluation.parameters[k].kinetic_friction * slip_direction(modes[k]) * tangent;
      continue;
    }
    C.col(i) = normal;
    R.row(first[i]) = tangent.transpose();
    R.row(first[i] + 1) = -tangent.transpose();
    C.col(first[i]) = tangent;
    C.col(first[i] + 1) = -tangent;
    bias[first[i]] = tangent_product;
    bias[first[i] + 1] = -tangent_product;
  }
  Eigen::MatrixXd A = R * mass.solve(C);
  Eigen::VectorXd b = R * free_acceleration + bias;
  for (int i = 0; i < count; ++i) {
    if (first[i] < 0) continue;
    const int slack = first[i] + 2;
    b[slack] = 0.0;
    A(first[i], slack) = A(first[i] + 1, slack) = 1.0;
    const ContactParameters& contact = evaluation.parameters[candidates[i]];
    A(slack, i) =
        cone == FrictionCone::static_friction ? contact.static_friction : contact.kinetic_friction;
    A(slack, first[i]) = A(slack, first[i] + 1) = -1.0;
  }
  // Lemke's tolerances are absolute on O(1) data: the scales change z, not its signs
  const double matrix_scale = std::max(A.cwiseAbs().maxCoeff(), 1e-300);
  const double vector_scale = std::max(b.cwiseAbs().maxCoeff(), 1e-300);
  const LemkeResult solution = solve_lcp_lemke(A / matrix_scale, b / vector_scale);
  if (solution.status == LemkeStatus::ray_termination) return LcpModes::no_solution;
  if (solution.status != LemkeStatus::solved) return LcpModes::inconsistent;
  constexpr double kZero = 1e-9;  // of the scaled unknowns, O(1)
  // Two readings of a sticking candidate's unknowns. Its slack σ = |a_t| says whether it slips:
  // σ > 0 slides the way a_t = (w⁺ − w⁻)/2 points. At σ = 0 it does not accelerate along its
  // surface and sticks, inside its cone or on its edge; the set's friction reserve
  // (modes_are_consistent) then judges the whole indeterminate set, whose LCP solution may have
  // put a block's two corners at opposite edges of their cones (a squeeze). Only if sticking
  // there is not consistent, the second reading lets a contact at its cone's edge (its row
  // μs λ_n − λ⁺ − λ⁻ = 0) slip against its friction, or frictionless the way a_t points.
  // A candidate whose λ_n and a_n are both zero to the solution's resolution is at lift-off: the
  // LCP holds it open as well as closed (λ_n = 0 ⟂ a_n = 0), and which of the two the check
  // confirms is decided by the round-off of its force or acceleration (tall_stack:6 of the
  // multibody campaign: a sliding corner carrying λ_n = 2e-10 N, read open, accelerates in at
  // a_n = -1.09e-9 m/s²). Such candidates are read open, and where that is not consistent,
  // closed in the mode their tangential unknowns give.
  const auto at_lift_off = [&](int i) {
    return !(solution.z[i] > kZero) && !(solution.w[i] > kZero);
  };
  const auto read = [&](bool at_edge_slips, bool lift_offs_closed) {
    std::vector<ContactMode> trial = modes;
    for (int i = 0; i < count; ++i) {
      const int k = candidates[i];
      if (!(solution.z[i] > kZero) && !(lift_offs_closed && at_lift_off(i))) {
        trial[k] = ContactMode::open;
        continue;
      }
      if (first[i] < 0) continue;
      const int plus = first[i], minus = first[i] + 1, slack = first[i] + 2;
      if (solution.z[slack] > kZero) {
        trial[k] = solution.w[plus] >= solution.w[minus] ? ContactMode::slide_positive
                                                         : ContactMode::slide_negative;
      } else if (!at_edge_slips || solution.w[slack] > kZero) {
        trial[k] = ContactMode::stick;
      } else {
        const double against = solution.z[minus] != solution.z[plus]
                                   ? solution.z[minus] - solution.z[plus]
                                   : solution.w[plus] - solution.w[minus];
        trial[k] = against >= 0.0 ? ContactMode::slide_positive : ContactMode::slide_negative;
      }
    }
    return trial;
  };
  bool any_at_lift_off = false;
  for (int i = 0; i < count; ++i) any_at_lift_off = any_at_lift_off || at_lift_off(i);
  for (const bool lift_offs_closed : {false, true}) {
    if (lift_offs_closed && !any_at_lift_off) break;
    for (const bool at_edge_slips : {false, true}) {
      const std::vector<ContactMode> trial = read(at_edge_slips, lift_offs_closed);
      if (modes_are_consistent(evaluation, settings, t, q, v, trial, candidates, free_slips)) {
        modes = trial;
        return LcpModes::consistent;
      }
    }
  }
  return LcpModes::inconsistent;
}

// The contacts Painlevé's paradox holds when no assignment is consistent. A sliding contact k
// whose own effective normal inertia in its sliding mode is negative,
//     A_k = J_n M⁻¹ (J_n − μd σ J_t)ᵀ < 0                                   (Painlevé's condition)
// is driven into its surface by its normal force itself: pushing harder makes it accelerate in
// faster, and no λ_n ≥ 0 can hold it (Génot & Brogliato 1999; paper 004's du_n/dΓ_n < 0, the
// condition under which the planar laws start an impact without collision from u_n = 0). Those
// contacts take the tangential impact. Without such a contact the inconsistency is the set's:
// then the contacts of the one-at-a-time assignment that slide with an inconsistent solve, or
// were opened though they accelerate into the surface, take it. At a genuine lift-off both λ_n
// and a_n pass through 0, and the event leaves a_n of round-off size; in Painlevé's
// configurations a_n is of the size of gravity. A floor of 1e-6 m/s², or 1e-8 of the terms that
// make a_n when they are larger, tells them apart. Where neither finds a contact (every
// assignment was tried and none holds, yet no contact is driven in on its own: the set's
// inconsistency), the contacts that `closed` slides take the impact.
std::vector<int> painleve_contacts(SystemEvaluation& evaluation, const SimulationSettings& settings,
                                   double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                   const std::vector<ContactMode>& modes,
                                   const std::vector<ContactMode>& closed,
                                   const std::vector<int>& candidates) {
  constexpr double kAccelerationFloor = 1e-6;  // [m/s²]
  constexpr double kAccelerationRoundOff = 1e-8;
  const int rows = evaluation.rows_per_contact;
  std::vector<int> stuck;
  {
    const Eigen::LLT<Eigen::MatrixXd> mass(mass_matrix_at(evaluation, q));
    const ContactKinematics& kinematics = contacts_at(evaluation, q, v);
    for (const int k : candidates) {
      const double mu = evaluation.parameters[k].kinetic_friction;
      const Eigen::Vector2d u_t = slip_of(kinematics, rows, k, v);
      if (!(mu > 0.0) || !(u_t.norm() > settings.rest_speed)) continue;
      const auto J_n = kinematics.jacobian.row(k * rows);
      const Eigen::Vector2d slip = u_t.normalized();
      Eigen::VectorXd pushed = J_n.transpose();
      for (int r = 1; r < rows; ++r)
        pushed -= mu * slip[r - 1] * kinematics.jacobian.row(k * rows + r).transpose();
      if (J_n.dot(mass.solve(pushed)) < 0.0) stuck.push_back(k);
    }
  }
  if (!stuck.empty()) return stuck;
  const ConstrainedAcceleration& dynamics = dynamics_at(evaluation, t, q, v, modes);
  const ContactKinematics& kinematics = contacts_at(evaluation, q, v);
  for (const int k : candidates) {
    if (!(evaluation.parameters[k].kinetic_friction > 0.0)) continue;  // no friction, no paradox
    const double dynamic_term = kinematics.jacobian.row(k * rows).dot(dynamics.acceleration);
    const double curvature_term = kinematics.jacobian_dot_v[k * rows];
    const double a_n = dynamic_term + curvature_term;
    const bool driven_in =
        a_n < -std::max(kAccelerationFloor, kAccelerationRoundOff * (std::abs(dynamic_term) +
                                                                     std::abs(curvature_term)));
    if ((is_sliding(modes[k]) && !dynamics.consistent) ||
        (modes[k] == ContactMode::open && driven_in))
      stuck.push_back(k);
  }
  if (!stuck.empty()) return stuck;
  for (const int k : candidates) {
    if (is_sliding(closed[k])) stuck.push_back(k);
  }
  return stuck;
}

}  // namespace

bool is_persistent_contact_candidate(const ContactKinematics& kinematics, int rows_per_contact,
                                     int k, const Eigen::VectorXd& v,
                                     const SimulationSettings& settings) {
  return is_touching(kinematics, k, settings.contact_distance) &&
         normal_velocity(kinematics, rows_per_contact, k, v) <= settings.rest_speed;
}

namespace {

// The kinematics of the candidates held (contacts_at with modes, system_evaluation.hpp), the
// opened ones too: the rows the set's LCP reads (lcp_consistent_modes holds every candidate). A
// candidate is touching, so where its vertex lies past its edge's end it lies within the contact
// distance of that end, and whether opening it lets the vertex enter the other body is told by
// the edge's line, held: its open normal row, the gradient of its distance beyond the end, points
// along the edge there, and a vertex moving back towards the end along the line slides onto the
// face, flat, without entering it (tall_stack:66 of the multibody campaign: two blocks of one
// width sliding over each other's flush corners: a corner 3.2e-10 m past the end that the LCP
// opened, not accelerating across the line, was refused for approaching the end at -46 m/s² on
// its open row, and the run ended in contact_modes_unresolved).
const ContactKinematics& candidates_held_at(SystemEvaluation& evaluation, const Eigen::VectorXd& q,
                                            const Eigen::VectorXd& v,
                                            const std::vector<ContactMode>& modes,
                                            const std::vector<int>& candidates) {
  std::vector<ContactMode> held = modes;
  for (const int k : candidates) {
    if (!is_closed(held[static_cast<std::size_t>(k)]))
      held[static_cast<std::size_t>(k)] = ContactMode::stick;
  }
  return contacts_at(evaluation, q, v, held);
}

// The direction of a spatial contact slipping from rest (Coulomb's law with maximum
// dissipation): its friction −μd λ_n d opposes the tangential acceleration a_t(d) it leaves, so
// d(θ) = (cos θ, sin θ) must make a_t(d) point along d: c(θ) = d × a_t(d) = 0 with d·a_t ≥ 0,
// where c decreases through its root (a stable one: the slip's direction relaxes onto it,
// aligned_slip.hpp). Contacts slipping from rest are aligned: every force solve puts their
// directions at the roots nearest their references, which start against the sticking forces
// that left their cones (continuous friction where a slip starts at the cone's edge), and are
// solved together, coupled through their bodies (the two corners of a box's slipping edge).
// Newton's method from a reference finds the root nearest it, which need not be stable or slip
// forwards (a cube slipping from rest on one corner after tumbling: the fixed point of
// d ↦ a_t(d)/|a_t(d)| repelled, and the iteration oscillated 70° either side of it). For a
// single contact the stable root is then bracketed instead: c is sampled at kDirectionSamples
// angles around the circle from the reference, and the first decreasing sign change where
// d·a_t > 0 is bisected to round-off (about 130 force solves). Either way the outcome is checked
// like any assignment (a_t·d ≥ 0 for each), not assumed. Planar contacts and contacts that slip
// faster than the rest speed are left alone.
void bracket_stable_slip_direction(SystemEvaluation& evaluation, double t, const Eigen::VectorXd& q,
                                   const Eigen::VectorXd& v, const std::vector<ContactMode>& modes,
                                   int k) {
  constexpr int kDirectionSamples = 72, kBisections = 60;
  const int rows = evaluation.rows_per_contact;
  const auto m = static_cast<std::size_t>(evaluation.active[static_cast<std::size_t>(k)]);
  Eigen::Vector2d& reference = evaluation.slip_reference[m];
  const Eigen::Vector2d start = reference;
  evaluation.slip_aligned[m] = false;  // the trial directions as they are
  // d × a_t(d) and d·a_t(d) at the angle θ from the reference
  const auto misalignment = [&](double theta, double& along) {
    reference = Eigen::Vector2d(start.x() * std::cos(theta) - start.y() * std::sin(theta),
                                start.x() * std::sin(theta) + start.y() * std::cos(theta));
    const Eigen::VectorXd& acceleration = dynamics_at(evaluation, t, q, v, modes).acceleration;
    const Eigen::Vector2d a_t =
        tangential_acceleration(evaluation.quantities.contacts, rows, k, acceleration);
    along = reference.dot(a_t);
    return reference.x() * a_t.y() - reference.y() * a_t.x();
  };
  double along = 0.0, previous_along = 0.0;
  double previous = misalignment(0.0, previous_along);
  double root = std::numeric_limits<double>::quiet_NaN();
  for (int i = 1; i <= kDirectionSamples && std::isnan(root); ++i) {
    const double angle = 2.0 * std::numbers::pi * i / kDirectionSamples;
    double value_along = 0.0;
    const double value = misalignment(angle, value_along);
    if (previous > 0.0 && value <= 0.0 && (previous_along > 0.0 || value_along > 0.0)) {
      double low = angle - 2.0 * std::numbers::pi / kDirectionSamples, high = angle;
      for (int b = 0; b < kBisections; ++b) {
        const double middle = 0.5 * (low + high);
        (misalignment(middle, along) > 0.0 ? low : high) = middle;
      }
      misalignment(0.5 * (low + high), along);
      if (along > 0.0) root = 0.5 * (low + high);
    }
    previous = value, previous_along = value_along;
  }
  if (std::isnan(root)) reference = start;
  evaluation.slip_aligned[m] = true;
}

// Whether active contact k's aligned slip from rest goes forwards at (t, q, v): its slip
// acceleration along its direction d·a_t is positive. Where the slip starts at the edge of the
// cone, a_t is zero and that is round-off of either sign; then its rate decides, read a moment
// kSlipOnsetLookahead later (q ⊕ δ v, v + δ v̇, the direction aligned there too). A slip that
// would grow against its friction is no slip (ball on ball, throw 135 of the sphere campaign:
// the slide accepted on a round-off d·a_t grew backwards, its friction pushing it, and Painlevé's
// forces ran away; the contact was leaving, λ_n → 0).
bool slips_forwards(SystemEvaluation& evaluation, double t, const Eigen::VectorXd& q,
                    const Eigen::VectorXd& v, const std::vector<ContactMode>& modes, int k) {
  constexpr double kSlipOnsetLookahead = 1e-6;  // [s]
  const int rows = evaluation.rows_per_contact;
  const auto along = [&](const Eigen::VectorXd& q_at, const Eigen::VectorXd& v_at) {
    const ConstrainedAcceleration& dynamics = dynamics_at(evaluation, t, q_at, v_at, modes);
    return dynamics.forces[static_cast<std::size_t>(k)].slip.dot(
        tangential_acceleration(evaluation.quantities.contacts, rows, k, dynamics.acceleration));
  };
  const double now = along(q, v);
  if (std::abs(now) > kAccelerationTolerance) return now > 0.0;
  const Eigen::VectorXd v_later = v + kSlipOnsetLookahead * evaluation.dynamics.acceleration;
  Eigen::VectorXd q_later;
  evaluation.system.integrate(q, kSlipOnsetLookahead * v, q_later);
  evaluation.system.normalize(q_later);
  return along(q_later, v_later) > 0.0;
}

// Aligns the contacts slipping from rest (above); false when a single one has no direction in
// which it slips forwards.
bool align_slips_from_rest(SystemEvaluation& evaluation, const SimulationSettings& settings,
                           double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                           const std::vector<ContactMode>& modes,
                           const std::vector<int>& candidates) {
  const int rows = evaluation.rows_per_contact;
  if (rows == 2) return true;
  std::vector<int> from_rest;
  {
    const ContactKinematics& kinematics = contacts_at(evaluation, q, v, modes);
    for (const int k : candidates) {
      if (modes[static_cast<std::size_t>(k)] == ContactMode::slide &&
          slip_of(kinematics, rows, k, v).norm() <= settings.rest_speed)
        from_rest.push_back(k);
    }
  }
  if (from_rest.empty()) return true;
  for (const int k : from_rest)
    evaluation
        .slip_aligned[static_cast<std::size_t>(evaluation.active[static_cast<std::size_t>(k)])] =
        true;
  const ConstrainedAcceleration& dynamics = dynamics_at(evaluation, t, q, v, modes);
  for (const int k : from_rest)
    evaluation
        .slip_reference[static_cast<std::size_t>(evaluation.active[static_cast<std::size_t>(k)])] =
        dynamics.forces[static_cast<std::size_t>(k)].slip;
  if (from_rest.size() != 1) return true;
  const int k = from_rest.front();
  const bool stable =
      evaluation.slip_alignment.aligned && evaluation.slip_alignment.jacobian(0, 0) < 0.0;
  if (stable && slips_forwards(evaluation, t, q, v, modes, k)) return true;
  bracket_stable_slip_direction(evaluation, t, q, v, modes, k);
  return slips_forwards(evaluation, t, q, v, modes, k);
}

}  // namespace

bool modes_are_consistent(SystemEvaluation& evaluation, const SimulationSettings& settings,
                          double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                          const std::vector<ContactMode>& modes, const std::vector<int>& candidates,
                          bool slips_may_stop) {
  if (!align_slips_from_rest(evaluation, settings, t, q, v, modes, candidates)) return false;
  // An island whose forces have no solution (dynamics.consistent is false for the whole system
  // then) has zero forces, and its closed contacts fail λ_n > 0 below: another island's
  // candidates are judged by their own forces.
  const ConstrainedAcceleration& dynamics = dynamics_at(evaluation, t, q, v, modes);
  const ContactKinematics& kinematics = candidates_held_at(evaluation, q, v, modes, candidates);
  const int rows = evaluation.rows_per_contact;
  for (const int k : candidates) {
    const ContactForce& force = dynamics.forces[k];
    const ContactParameters& contact = evaluation.parameters[k];
    switch (modes[k]) {
      case ContactMode::open:
        if (contact_acceleration(kinematics, rows, k, 0, dynamics.acceleration) <
            -kAccelerationTolerance)
          return false;
        break;
      case ContactMode::stick:
        if (!(force.normal > 0.0) || !(static_friction_margin(contact, force) > 0.0)) return false;
        break;
      default: {
        if (!(force.normal > 0.0)) return false;
        const Eigen::Vector2d u_t = slip_of(kinematics, rows, k, v);
        const Eigen::Vector2d direction = mode_direction(evaluation, k, modes[k]);
        // friction opposing a slip the contact does not have would drive it: energy from
        // nothing (tall_stack:53 of the multibody campaign: slide_negative at u_t = +1.9e-6 m/s
        // after an impact cascade gained 0.1 J in 10 ms, its slip witness below zero throughout)
        if (!slips_may_stop && u_t.norm() > settings.rest_speed && direction.dot(u_t) < 0.0)
          return false;
        const double slip_acceleration =
            direction.dot(tangential_acceleration(kinematics, rows, k, dynamics.acceleration));
        if (u_t.norm() <= settings.rest_speed && slip_acceleration < -kAccelerationTolerance)
          return false;
      }
    }
  }
  return true;
}

namespace {

// The candidates' islands (contact_islands.hpp): candidates of bodies that no candidate joins
// settle independently, each set tried on its own, so that a handful of contacts on one tower is
// enumerated however many other towers stand in the model.
std::vector<std::vector<int>> candidate_islands(SystemEvaluation& evaluation,
                                                const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                                const std::vector<int>& candidates) {
  const Mechanisms& mechanisms = mechanisms_of(evaluation, mass_matrix_at(evaluation, q));
  std::vector<bool> in_set(static_cast<std::size_t>(evaluation.contacts), false);
  for (const int k : candidates) in_set[static_cast<std::size_t>(k)] = true;
  ContactIslands islands;
  find_contact_islands(contacts_at(evaluation, q, v), in_set, mechanisms.of_velocity, islands);
  std::vector<std::vector<int>> sets;
  for (int i = 0; i < islands.count; ++i) {
    sets.emplace_back(
        islands.contacts.begin() + islands.contact_start[static_cast<std::size_t>(i)],
        islands.contacts.begin() + islands.contact_start[static_cast<std::size_t>(i) + 1]);
  }
  return sets;
}

// A slip too slow to resolve. Where Lemke's method finds no forces for the island with its
// slipping contacts' friction fixed at the edge against their slip, the island's problem is
// solved again with that friction anywhere in the cone and the slip either way. Its solution may
// stick a slipping contact, or slip it against its slip (a reversal): Coulomb's law allows either
// only once the slip has stopped, which the contact's own friction does. Sliding at the edge of
// its cone it does work μd λ_n per unit of slip, and it stops once that work has taken the
// kinetic energy of its slip relative to the other closed contacts,
//     ΔT_k = ½ Δvᵀ M Δv,  Δv the M-orthogonal projection of v that stops it alone
// (= ½ u_t² / (J_t M_c⁻¹ J_tᵀ), its slip over the tangential compliance the others leave), i.e.
// after a slip of s_k = ΔT_k / (μd λ_n) (at constant λ_n). When s_k ≤ d, the contact distance,
// the slip ends within the distance below which routh does not tell touching from apart, so that
// stopping it at once differs from sliding it to rest by less than the contact geometry resolves:
// such contacts (`stopped`) stick, v being projected onto the closed contacts, and the set is
// settled again (settle_contact_modes), the other slips as they were: each stop stands on its
// own contact's friction. The projection is M-orthogonal, so the kinetic energy never rises,
// and it keeps u_n = 0 at every closed contact. A slip that needs longer to stop is a real one;
// when no slip stops, Lemke's verdict stands. False then. `trial` holds the modes of the free-slip
// solution (lcp_consistent_modes with free_slips).
bool stop_slow_slips(SystemEvaluation& evaluation, const SimulationSettings& settings, double t,
                     const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                     const std::vector<int>& candidates, const std::vector<ContactMode>& closed,
                     const std::vector<ContactMode>& trial, std::vector<ContactMode>& modes,
                     std::vector<int>& stopped) {
  const std::vector<ContactForce> forces = dynamics_at(evaluation, t, q, v, trial).forces;
  std::vector<int> stopping;
  for (const int k : candidates) {
    const auto c = static_cast<std::size_t>(k);
    if (is_sliding(closed[c]) && trial[c] != closed[c] && is_closed(trial[c]))
      stopping.push_back(k);
  }
  const Eigen::MatrixXd M = mass_matrix_at(evaluation, q);
  const std::size_t stopped_before = stopped.size();
  for (const int k : stopping) {
    std::vector<ContactMode> alone = trial;
    for (const int other : stopping) alone[static_cast<std::size_t>(other)] = closed[other];
    alone[static_cast<std::size_t>(k)] = ContactMode::stick;
    Eigen::VectorXd v_stopped = v;
    project_velocity_onto_closed_contacts(evaluation, alone, q, v_stopped);
    const Eigen::VectorXd dv = v_stopped - v;
    const double slip_energy = 0.5 * dv.dot(M * dv);
    const double friction_per_slip =
        evaluation.parameters[static_cast<std::size_t>(k)].kinetic_friction *
        forces[static_cast<std::size_t>(k)].normal;
    if (slip_energy <= settings.contact_distance * friction_per_slip) stopped.push_back(k);
  }
  for (std::size_t i = stopped_before; i < stopped.size(); ++i)
    modes[static_cast<std::size_t>(stopped[i])] = ContactMode::stick;
  return stopped.size() > stopped_before;
}

// Whether every candidate that `closed` slides keeps that mode in `modes`, or opens.
bool keeps_every_slip(const std::vector<ContactMode>& closed, const std::vector<ContactMode>& modes,
                      const std::vector<int>& candidates) {
  return std::all_of(candidates.begin(), candidates.end(), [&](int k) {
    const auto c = static_cast<std::size_t>(k);
    return !is_sliding(closed[c]) || modes[c] == closed[c] || modes[c] == ContactMode::open;
  });
}

// Settles the candidates of one island whose modes the one-at-a-time changes left inconsistent:
// every assignment of a few, else the island's LCP; `closed` holds the modes they started from.
// Other contacts keep their modes. An island that none of these settles keeps its one-at-a-time
// modes and adds its Painlevé contacts to `settlement`.
void settle_island(SystemEvaluation& evaluation, const SimulationSettings& settings, double t,
                   const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                   const std::vector<int>& candidates, const std::vector<ContactMode>& closed,
                   bool may_stop_slips, std::vector<ContactMode>& modes,
                   ModeSettlement& settlement) {
  const std::vector<ContactMode> one_at_a_time = modes;
  const auto restore = [&](const std::vector<ContactMode>& from) {
    for (const int k : candidates)
      modes[static_cast<std::size_t>(k)] = from[static_cast<std::size_t>(k)];
  };
  restore(closed);
  if (enumerate_consistent_modes(evaluation, settings, t, q, v, candidates, modes)) return;
  const bool enumerated = is_enumerable(closed, candidates, evaluation.rows_per_contact);
  LcpModes lcp = LcpModes::inconsistent;
  // the static cone first (it lets every contact stick that can), then the kinetic one, whose
  // solution has the forces of its modes; Lemke's ray is a verdict only for the latter
  for (const FrictionCone cone : {FrictionCone::static_friction, FrictionCone::kinetic_friction}) {
    if (enumerated || lcp == LcpModes::consistent) break;
    restore(closed);
    lcp = lcp_consistent_modes(evaluation, settings, t, q, v, candidates, cone,
                               /*free_slips=*/false, modes);
  }
  if (lcp == LcpModes::consistent) return;
  if (may_stop_slips && std::any_of(candidates.begin(), candidates.end(), [&](int k) {
        return is_sliding(closed[static_cast<std::size_t>(k)]);
      })) {
    restore(closed);
    std::vector<ContactMode> trial = modes;
    if (lcp_consistent_modes(evaluation, settings, t, q, v, candidates,
                             FrictionCone::static_friction, /*free_slips=*/true,
                             trial) == LcpModes::consistent) {
      // A free-slip solution that keeps every slip (or opens it) is one of the set's own
      // problem, which Lemke's method did not find with the slips' friction fixed (tall_stack:40
      // of the multibody campaign: a corner slipping at 2.7e-5 m/s among five sticking ones).
      if (keeps_every_slip(closed, trial, candidates)) {
        modes = trial;
        return;
      }
      if (stop_slow_slips(evaluation, settings, t, q, v, candidates, closed, trial, modes,
                          settlement.stopped_slips))
        return;
    }
  }
  restore(one_at_a_time);
  settlement.consistent = false;
  // no assignment is consistent (enumerated), or none exists (Lemke's ray)
  if (enumerated || lcp == LcpModes::no_solution) {
    // proven only if every island that reports it was enumerated
    settlement.painleve_proven =
        (settlement.painleve.empty() || settlement.painleve_proven) && enumerated;
    const std::vector<int> stuck =
        painleve_contacts(evaluation, settings, t, q, v, modes, closed, candidates);
    settlement.painleve.insert(settlement.painleve.end(), stuck.begin(), stuck.end());
  }
}

// One settling of the candidates at v (settle_contact_modes); slips are stopped only when
// `may_stop_slips`.
ModeSettlement settle_candidates(SystemEvaluation& evaluation, const SimulationSettings& settings,
                                 double t, const Eigen::VectorXd& q, Eigen::VectorXd& v,
                                 bool may_stop_slips, std::vector<ContactMode>& modes) {
  const int rows = evaluation.rows_per_contact;
  // The candidates are the touching contacts that do not leave once v is projected onto the
  // closed ones. Projecting onto some can turn another from leaving to approaching; such a
  // contact joins them, whatever its approach, and v is projected again. The projection is itself
  // a plastic change of velocity at the closed contacts, and an approach it creates is part of
  // it; left open, the contact would be struck only where its gap's round-off is positive (a
  // step that starts at g <= 0 takes it to have left: event_location.hpp). stack:41 of the
  // multibody campaign: a block's floor corner leaving at 1.4e-6 m/s after an impact approached
  // at 7.3e-7 m/s once its other corners were closed, was left open at -20 m/s^2 and sank 4 um
  // unseen. tall_stack:66: block2's corner touching block1 at a gap of -1.6e-16 m, turned to
  // approach at 1.5e-5 m/s (faster than the rest speed, which had kept it out), sank 6.7e-9 m; and
  // struck by an impact instead, each impact took a fifth of a neighbour's approach that the next
  // projection gave back (tall_stack:23), without end.
  std::vector<int> candidates;
  ModeSettlement settlement;
  for (;;) {
    const ContactKinematics& kinematics = contacts_at(evaluation, q, v);
    std::vector<int> touching;
    for (int k = 0; k < evaluation.contacts; ++k) {
      const bool joins = is_persistent_contact_candidate(kinematics, rows, k, v, settings);
      if (joins || std::binary_search(candidates.begin(), candidates.end(), k))
        touching.push_back(k);
    }
    if (touching == candidates && !candidates.empty()) break;
    candidates = std::move(touching);
    close_candidates(evaluation, q, v, candidates, settings, modes);
    if (candidates.empty()) return settlement;
    project_velocity_onto_closed_contacts(evaluation, modes, q, v);
  }
  // each round only turns sliding contacts into sticking ones, so at most K rounds
  while (modes_follow_slips(evaluation, q, v, candidates, settings, modes))
    project_velocity_onto_closed_contacts(evaluation, modes, q, v);
  const std::vector<ContactMode> closed = modes;
  change_modes_one_at_a_time(evaluation, t, q, v, modes);
  if (modes_are_consistent(evaluation, settings, t, q, v, modes, candidates)) return settlement;
  for (const std::vector<int>& island : candidate_islands(evaluation, q, v, candidates)) {
    if (modes_are_consistent(evaluation, settings, t, q, v, modes, island)) continue;
    settle_island(evaluation, settings, t, q, v, island, closed, may_stop_slips, modes, settlement);
  }
  std::sort(settlement.painleve.begin(), settlement.painleve.end());
  return settlement;
}

}  // namespace

ModeSettlement settle_contact_modes(SystemEvaluation& evaluation,
                                    const SimulationSettings& settings, double t,
                                    const Eigen::VectorXd& q, Eigen::VectorXd& v,
                                    std::vector<ContactMode>& modes) {
  // A round that stops slips (stop_slow_slips) projects them away and settles again, when they
  // close sticking from rest; every round stops at least one of at most K contacts' slips.
  for (int round = 0;; ++round) {
    ModeSettlement settlement =
        settle_candidates(evaluation, settings, t, q, v, round < evaluation.contacts, modes);
    if (settlement.stopped_slips.empty()) return settlement;
    project_velocity_onto_closed_contacts(evaluation, modes, q, v);
  }
}

}  // namespace routh
