#pragma once
// Painlevé's paradox resolved by a perfectly plastic sticking impulse, when the scenario's law
// finds no impact in it.
//
// Settling (contact_modes.hpp) reports Painlevé's paradox when no assignment of modes to the
// touching contacts admits contact forces: a slipping contact whose friction drives it into its
// surface (Génot & Brogliato 1999). Rigid bodies then take an impulse without collision, the
// tangential impact, which the simulator first asks of the scenario's law from u_n = 0. The
// multi-contact laws answer no_impact there: with u_n⁻ = 0 and Γ = 0, u⁺ = u⁻ already satisfies
// their velocity-level conditions (u_n⁺ ≥ 0 ⟂ Γ_n ≥ 0), and they cannot see that the
// acceleration-level problem has no solution. This stage gives the outcome a sticking end of that
// impact has: the touching contacts (gap within contact_distance, not separating faster than the
// rest speed) end with u⁺ = 0, normal and tangential, by the impulse of least kinetic metric
//     Γ = −D⁺ u⁻,   D = J M⁻¹ Jᵀ,   Δv = M⁻¹ Jᵀ Γ,   ΔT = Γᵀu⁻ + ½ ΓᵀDΓ = −½ u⁻ᵀ D⁺ u⁻ ≤ 0,
// (J the touching contacts' rows): a perfectly plastic impact that ends in stick. It is admissible
// only when it is Coulomb's, some split of it (Γ + N z, N a basis of ker D, which moves nothing;
// the set's reserve of static_friction.hpp) having every Γ_n ≥ 0 and every |Γ_t| ≤ μs Γ_n, and
// when D Γ = −u⁻ holds (the rows are consistent). At one contact it is Coulomb's exactly where
// Painlevé's condition holds (tests/test_sticking_impulse.cpp: Γ = −D⁻¹u⁻ from u⁻ = (0, u_t) has
// |Γ_t| / Γ_n = D_nn / |D_nt|, below μ iff D_nn − μ σ D_nt < 0).
//
// Where that impulse is not Coulomb's, not every touching contact need end
// stuck: the modes of the impulse are settled as a contact set's modes are (contact_modes.hpp),
// one change at a time. A contact the impulse would pull separates; a sticking one outside its
// cone slides (the way it slipped, Γ_t = −μd σ Γ_n); one opened earlier that now approaches
// closes again. The impulse of given modes is contact_forces.hpp's solve at velocity level (no
// applied force, J v in place of J̇v): M Δv = W Γ, J_c (v + Δv) = 0. It is taken when every
// closed contact pushes, every sticking one is inside its cone, no sliding one reverses, no
// opened one approaches, some contact stays closed (Γ = 0, all open, is the trivial solution at
// u_n⁻ = 0, no impact), and the kinetic energy does not grow: a sliding block stopped on its
// leading corner, its trailing corner rising (tests/test_sticking_impulse.cpp). Otherwise the
// paradox stays unresolved, and the run says so.

#include <Eigen/Core>
#include <string_view>
#include <vector>

#include "sim/simulation/impact_step.hpp"
#include "sim/simulation/simulation_settings.hpp"
#include "sim/simulation/system_evaluation.hpp"

namespace routh {

/// The sticking impulse at (t, q, v) on the touching contacts, as an impact: `resolved` when it
/// is admissible (above), with its event (kind impact) and Δv.
ImpactResolution sticking_impulse(SystemEvaluation& evaluation, const SimulationSettings& settings,
                                  double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v);

/// The same on the active contacts `contacts` (touching, ascending), the impulse that sticks them
/// all judged against the friction `cones[i]` of each (μs above; a dynamic jam's, dynamic_jam.hpp),
/// its event's status starting with `cause`.
ImpactResolution sticking_impulse(SystemEvaluation& evaluation, const SimulationSettings& settings,
                                  double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                  const std::vector<int>& contacts,
                                  const std::vector<double>& cones, std::string_view cause);

}  // namespace routh
