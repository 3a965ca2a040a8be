#pragma once
// The impact step (docs/simulation.md): which contacts take part in an impact, the problem in
// contact space, the law's answer, and the velocity jump.
//
// Touching is not approaching. An impact starts with the touching contacts (gap within
// contact_distance) that approach faster than round-off: a resting pivot's u_n of 1e-12 m/s,
// left by the integrator and the constraint projection, is not an approach. The round-off
// scale is kApproachRoundOff times the largest contact velocity of the state, so it follows the
// problem's units, but never below the integrator's absolute tolerance, its resolution of a
// velocity: at a block's uplift every contact velocity is zero to round-off, and a lifting
// corner's landing located a hair after its lift-off, at u_n = −4e-19 m/s, was an impact of
// ΔT = −9e-38 J that a run shifted by 1e-16 s did not have. Then a touching contact that the impact
// would drive into its obstacle (u_n⁺ < −rest_speed) joins, and the impact is solved again (an
// active set that only grows, so at most K rounds): only contacts that must carry impulse take
// part, and in Housner's rocking the old pivot carries none and lifts off. A column of blocks
// dropped flat is one impact: the floor corners strike, the bottom block stops, the corners of the
// face above it would then be driven in and join, and so on up the column until every touching
// contact takes part (with restitution 0 the whole column stops at once;
// tests/test_many_contact_impacts.cpp). Starting instead with every touching contact that does not
// separate would hand a rocking block's pivot, at rest to round-off, to the multi-contact law at
// every pivot switch. The rocking calibrations (LawScope::rocking_calibration, rocking.hpp) are
// the exception: they set the motion after the impact, which the old pivot must be free to carry
// impulse for, so a collision they answer starts with every touching contact of the islands of the
// striking contacts (a rocking block's two bottom corners), and the law decides which close.
//
// The scenario's law answers a one-contact impact, its multi-contact law a simultaneous one, of
// any number of contacts: a law answers unsupported beyond the capacity it declares in the
// catalogue (law_catalogue.hpp; multipoint_energetic takes 12), and the impact goes on. A
// law that cannot answer (a named status, or a number that is not finite) is never the end of
// the run while another law can: the `lcp` law, which answers every problem a model produces,
// resolves the impact instead, and the event carries the flag `law_fallback` and both statuses.

#include <Eigen/Core>
#include <string>
#include <vector>

#include "sim/impact/impact_problem.hpp"
#include "sim/impact/impact_result.hpp"
#include "sim/simulation/event_record.hpp"
#include "sim/simulation/simulation_settings.hpp"
#include "sim/simulation/system_evaluation.hpp"

namespace routh {

/// Relative round-off of a contact velocity: touching contacts approaching slower than this
/// times the state's largest contact speed are at rest, not approaching.
inline constexpr double kApproachRoundOff = 1e-9;

/// The touching contacts of the state (q, v) that approach faster than round-off, and the
/// fastest approach speed among them [m/s].
struct ApproachingContacts {
  std::vector<int> contacts;
  double approach_speed = 0.0;
};
ApproachingContacts approaching_contacts(SystemEvaluation& evaluation,
                                         const SimulationSettings& settings,
                                         const Eigen::VectorXd& q, const Eigen::VectorXd& v);

/// Whether an impact whose fastest contact approaches at `approach_speed` [m/s] is too slow to
/// bounce: below the rest speed its contacts close (restitution 0, the `at_rest` of an impact).
inline bool too_slow_to_bounce(double approach_speed, const SimulationSettings& settings) {
  return approach_speed < settings.rest_speed;
}

/// How the contacts of an impact came to it: approaching, or closed with u_n = 0 but unable to
/// stay closed (Painlevé: an impact without collision, which the law sees from u_n = 0 exactly).
enum class ImpactStart { collision, without_collision };

/// One resolved impact: its event row (an `impact`, or a `trouble` when no law could answer),
/// the contacts that took part and the generalized velocity jump.
struct ImpactResolution {
  bool resolved = false;
  EventRecord event;
  std::vector<int> contacts;
  Eigen::VectorXd velocity_change;  ///< Δv = M⁻¹JᵀΓ, when resolved
};

/// The problem a law is given for an impact of the contacts `involved` (ascending) at (t, q, v⁻):
/// D = J M⁻¹ Jᵀ and u⁻ = J v⁻ of those contacts, their restitution (0 when `at_rest`) and
/// friction (none where no slip can change), u_n = 0 for an impact without collision. It is the
/// problem resolve_impact answers in its last round, where `involved` are the event's contacts;
/// a recorded impact is exported with it (the Python package's Trajectory.impact_problem).
ImpactProblem impact_problem_at(SystemEvaluation& evaluation, double t, const Eigen::VectorXd& q,
                                const Eigen::VectorXd& v, const std::vector<int>& involved,
                                bool at_rest, ImpactStart start);

/// Resolves an impact at (t, q, v⁻) starting with the contacts `involved`. `at_rest`: the
/// approach is slower than the rest speed, so the contacts close (restitution 0).
ImpactResolution resolve_impact(SystemEvaluation& evaluation, const SimulationSettings& settings,
                                double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                std::vector<int> involved, bool at_rest, ImpactStart start);

/// Whether every number of a solved impact is finite.
bool is_finite(const ImpactResult& result);

}  // namespace routh
