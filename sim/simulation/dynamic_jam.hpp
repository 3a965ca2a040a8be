#pragma once
// A dynamic jam (Génot & Brogliato 1999, "New results on Painlevé paradoxes", Eur. J. Mech.
// A/Solids 18, §4): a sliding contact whose sliding compliance
//     A = J_n M⁻¹ (J_n − μd û·J_t)ᵀ
// falls toward 0 from the positive side while the applied forces press it in (a_n = A λ_n + b,
// b < 0). Closed, it needs λ_n = −b/A, which grows without bound; the friction μd λ_n then stops
// the slip before A reaches 0, within a time that vanishes with A, by a finite impulse: an impact
// without collision, which ends with the contact closed (u_n stays 0) and at rest (u_t = 0). The
// sliding phase cannot integrate it: its step shrinks with the time the slip has left, and the
// run ended in step_size_failure (box campaign runs 3213 and 3551, λ_n of 1e6–1e9 N, the slip
// decelerating at 1e8 m/s²). Nor can the scenario's law from u_n = 0: with A > 0 a sliding
// impulse separates the contact at once, and the law sees no compression.
//
// The witness of the approach is the island's sliding compliance against its value without
// friction. For the sliding contacts of one island of closed contacts (contact_islands.hpp), with
// N their normal rows and W their force directions J_nᵀ − μd û·J_tᵀ,
//     S = N M⁻¹ W,   S₀ = N M⁻¹ Nᵀ = L₀ L₀ᵀ,   r = σ_min(L₀⁻¹ S L₀⁻ᵀ),
// r = 1 without friction and r = A/A₀ at one contact; r = 0 is Painlevé's singularity, where two
// corners sliding together (run 3551) reach it through their 2 × 2 matrix while neither corner's
// own compliance does. Once r < kJamCompliance the island jams: λ_n is 1/r times what it is
// without friction, and the integrator's step follows the slip's vanishing stop time.
//
// The jam's outcome is the limit of the slide, an impulse at the island's contacts alone (the
// applied forces give none in a vanishing time) that stops the slip with every contact still
// closed. Where it stops every slip, the island's closed contacts end at rest, u⁺ = 0 normal and
// tangential, and with D = J M⁻¹ Jᵀ of their rows that is
//     Γ = −D⁺ u⁻,   Δv = M⁻¹ Jᵀ Γ,   ΔT = ½ Γᵀ u⁻ = −½ u⁻ᵀ D⁺ u⁻ ≤ 0,
// the perfectly plastic sticking impulse of Painlevé's paradox (sticking_impulse.hpp), unique in
// Δv whatever the split of an indeterminate set. As a limit of impulses on the kinetic cone's
// edge it lies in that cone; taken at r > 0 it leaves it by that much: at one planar contact
// |Γ_t|/Γ_n = D_nn/|D_nt| = μd/(1 − r) (tests/test_dynamic_jam.cpp), on the edge as r → 0. So a
// jammed slip's impulse is judged against the cone μd (1 + kJamCompliance) that the jam resolves
// (or μs, when larger), a sticking contact's against its static cone. Where that impulse is not
// Coulomb's the slips do not all stop together (run 3551: leaving both corners at rest needs
// |Γ_t|/Γ_n = 5.2 at one of them against μ = 0.95): the impulse's modes are then settled as
// sticking_impulse.hpp settles them, each contact sticking inside its cone, sliding on its edge
// along its slip, or separating, every closed one ending at u_n⁺ = 0, and the kinetic energy not
// growing (run 3551: one corner stops, the other slides on at 0.041 m/s instead of 0.105 m/s).
// When neither is admissible the slide goes on. After the impulse the modes are settled
// (contact_modes.hpp), and the event is logged as a `painleve` row naming the jammed slips and r,
// then the impact of the impulse.

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
#include <optional>
#include <vector>

#include "sim/simulation/contact_forces.hpp"
#include "sim/simulation/contact_mode.hpp"
#include "sim/simulation/impact_step.hpp"
#include "sim/simulation/simulation_settings.hpp"
#include "sim/simulation/system_evaluation.hpp"

namespace routh {

struct RunState;
struct RunWorkspace;
struct StageReport;

/// [-] An island jams once its sliding compliance r (above) falls below this: λ_n is then 1e4
/// times what it was without friction, and the impulse that stops the slip lies within this
/// fraction of the kinetic cone's edge.
inline constexpr double kJamCompliance = 1e-4;

/// An island of closed contacts that jams: its contacts (active, ascending) and its r.
struct Jam {
  std::vector<int> contacts;
  double compliance = 1.0;
};

/// The scratch of jam_at(), reused from step to step (it runs after every accepted step with a
/// sliding contact), as the loop's other scratch is.
struct JamWorkspace {
  std::vector<bool> judged;           ///< per contact, its island already judged
  std::vector<int> island;            ///< the island being gathered
  std::vector<int> islands, sliding;  ///< every island's contacts, its sliding ones
  std::vector<std::size_t> island_start, sliding_start;  ///< where each island starts in them
  SlipDirections slips;                                  ///< of the force solve
  Eigen::LLT<Eigen::MatrixXd> mass;                      ///< M = L Lᵀ
  Eigen::MatrixXd normals, directions;                   ///< N, W of an island's sliding contacts
  Eigen::MatrixXd inverse_mass_normals;                  ///< M⁻¹ N
  Eigen::MatrixXd product;                               ///< S₀, then S
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> frictionless;  ///< of S₀
  Eigen::MatrixXd scale, half, scaled;  ///< U Λ^-½, S U Λ^-½, Λ^-½ Uᵀ S U Λ^-½
  Eigen::JacobiSVD<Eigen::MatrixXd> svd;
};

/// The first island of the closed contacts of `modes` at (t, q, v) whose sliding contacts jam
/// (r < kJamCompliance, every one of them pushing), if any.
std::optional<Jam> jam_at(SystemEvaluation& evaluation, double t, const Eigen::VectorXd& q,
                          const Eigen::VectorXd& v, const std::vector<ContactMode>& modes,
                          JamWorkspace& scratch);

/// The impulse that ends the jam (above) at (t, q, v⁻), as an impact of the jam's contacts:
/// `resolved` when it is admissible, its ΔT ≤ 0.
ImpactResolution jam_impulse(SystemEvaluation& evaluation, const SimulationSettings& settings,
                             double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                             const std::vector<ContactMode>& modes, const Jam& jam);

/// The jam's event at (t, q, v): a `painleve` row naming the jammed contacts and r, the impact
/// that ends it (v becomes v⁺), and the modes settled after it, what changed logged. Nothing when
/// the impulse is not admissible: the slide goes on.
StageReport respond_to_jam(double t, const Eigen::VectorXd& q, Eigen::VectorXd& v, const Jam& jam,
                           const SimulationSettings& settings, RunState& state,
                           RunWorkspace& workspace);

}  // namespace routh
