#pragma once
// Contact modes (docs/design.md §4 steps 3–4): which touching contacts are closed, and whether each
// closed one sticks or slides, decided for the contact set as a whole after every event.
//
// A touching contact (gap ≤ contact_distance) that does not separate faster than the rest speed
// is a candidate for persistent contact; the others are open. An assignment of modes to the
// candidates is consistent (the acceleration-level complementarity conditions) when
//   - every closed contact pushes:                λ_n > 0,
//   - every sticking contact stays strictly in its cone: its static friction margin, the value
//     its slip witness watches (witnesses.hpp), is positive; in a statically indeterminate set
//     that is the set's stick reserve, so a block flat on two corners sticks while some
//     distribution of its forces lies inside both cones,
//   - a contact slipping from rest slips the way its friction assumes:  σ a_t ≥ 0,
//   - every opened candidate does not accelerate into its obstacle:     a_n ≥ 0,
// with a = J v̇ + J̇ v from the forces of that assignment (contact_forces.hpp), J the rows that
// solve reads: a closed contact's held ones (contacts_at with the modes, system_evaluation.hpp),
// which for a vertex past its edge's end are the edge line's, not the open ones; an opened
// candidate's a_n is read on its held row too, as the set's LCP reads it (a touching vertex past
// the end lies at the end, where only the line tells whether it enters the body). The modes are
// first changed one at a time (a pulling contact opens, then a sticking contact outside its
// cone slides against the friction it needed), which settles the common cases with a few
// solves; if that ends inconsistent, every assignment is tried where there are at most
// kMaxEnumeratedAssignments (five contacts without slip, ten slipping), in order of fewest opened
// contacts, then fewest slipping from rest. A larger set is solved as one acceleration-level LCP
// (Baraff 1994; Pfeiffer & Glocker 1996), by Lemke's method (lemke.hpp), and its modes are read
// from the solution and checked as above.
//
// Spatial contacts (three rows) have one sliding mode, `slide`, whose direction comes from the
// state (slip_reference.hpp). A spatial candidate without slip is enumerated as stick, slide
// along the direction Coulomb's maximum dissipation gives from rest (a fixed point of
// d ↦ a_t(d)/|a_t(d)|, contact_modes.cpp align_slips_from_rest), or open; its condition
// "slips the way its friction assumes" is a_t·û₀ ≥ 0. The LCP of modes above is planar (one
// tangential row per contact): a spatial set too large to enumerate that the one-at-a-time
// changes leave inconsistent stays unsettled (docs/simulation.md, "Spatial contacts").
//
// Painlevé's paradox (docs/design.md §4 step 4) is reported only when no assignment at all is
// consistent (proven by enumeration; for a larger set Lemke's ray is no proof, and says so), and
// only for contacts with friction: without friction the acceleration-level
// problem is a linear complementarity problem with a positive semidefinite matrix and always has
// a solution, and a contact that simply separates is never a candidate.

#include <Eigen/Core>
#include <vector>

#include "sim/simulation/contact_mode.hpp"
#include "sim/simulation/simulation_settings.hpp"
#include "sim/simulation/system_evaluation.hpp"

namespace routh {

/// Candidates with more assignments than this are not enumerated (each is one force solve; 4⁵:
/// five contacts without slip, or ten slipping ones, each of which slides as it slips or opens):
/// their modes come from the set's LCP.
inline constexpr std::size_t kMaxEnumeratedAssignments = 1024;

/// [m/s²] contact accelerations this far on the wrong side of 0 are round-off of a zero (a
/// contact held at a_t = 0 by another one), not a violated condition; 1e-10 of gravity.
inline constexpr double kAccelerationTolerance = 1e-9;

/// Whether contact k touches its obstacle and does not separate faster than the rest speed, at
/// the state of `kinematics` and v.
bool is_persistent_contact_candidate(const ContactKinematics& kinematics, int rows_per_contact,
                                     int k, const Eigen::VectorXd& v,
                                     const SimulationSettings& settings);

/// Whether `modes` satisfy the conditions above for the contacts `candidates` at (t, q, v). A
/// sliding mode against the contact's own slip (faster than the rest speed) is consistent only
/// when `slips_may_stop`: for a contact whose slip its friction stops before it reverses
/// (contact_modes.cpp, stop_slow_slips, which decides whether it does).
bool modes_are_consistent(SystemEvaluation& evaluation, const SimulationSettings& settings,
                          double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                          const std::vector<ContactMode>& modes, const std::vector<int>& candidates,
                          bool slips_may_stop = false);

/// What settling found.
struct ModeSettlement {
  bool consistent = true;  ///< a consistent assignment was found (and is in `modes`)
  /// Painlevé's paradox: no assignment is consistent, and these contacts (sliding, with friction)
  /// can neither stay closed nor open. Empty otherwise.
  std::vector<int> painleve;
  /// Whether the paradox is proven: every assignment of the candidates was tried (at most
  /// kMaxEnumeratedAssignments). A larger set's verdict is the ray of Lemke's method, which proves
  /// nothing where sliding contacts make the LCP's matrix other than copositive: its tangential
  /// impact is tried all the same, but a run it cannot save ends in contact_modes_unresolved.
  bool painleve_proven = false;
  /// Slipping contacts whose slip friction stops within the contact distance, now sticking
  /// (settling projects v and settles again; empty in what settle_contact_modes returns).
  std::vector<int> stopped_slips;
};

/// Settles every touching contact's mode at (t, q, v): candidates start closed (sticking when
/// their slip is below the rest speed, else sliding with it), v is projected onto their
/// constraints, and a consistent assignment is sought; the other contacts open. A closed
/// contact must push (λ_n > 0): one that carries exactly nothing is as well open, and open it
/// is watched by its gap, where closed its zero force could never fall "from positive". Where
/// Lemke's method finds no forces for an island with its slips' friction fixed, slips that their
/// friction would stop within the contact distance are stopped (v projected) and the set settled
/// again (contact_modes.cpp, stop_slow_slips).
ModeSettlement settle_contact_modes(SystemEvaluation& evaluation,
                                    const SimulationSettings& settings, double t,
                                    const Eigen::VectorXd& q, Eigen::VectorXd& v,
                                    std::vector<ContactMode>& modes);

}  // namespace routh
