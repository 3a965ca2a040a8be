#pragma once
// Law `lcp`: Poisson-type impact at one or several contacts in two stages, each a linear
// complementarity problem with Coulomb friction linearised by a polyhedral cone (paper 001 §2.2:
// Glocker & Pfeiffer 1995 for the stages, Anitescu & Potra 1997 for the cone), solved by Lemke's
// method (lemke.hpp).
//
// Signs. Paper 001 takes v_z ≤ 0 as feasible and normal impulses negative; routh (docs/laws.md) has
// u_n < 0 approaching and Γ_n ≥ 0. The map is u_n = −v_z, Γ_n = −Γ_z, tangential components
// unchanged, and D is paper 001's H with rows and columns reordered (z, x, y) → (n, t1, t2) and
// the normal row and column negated. Below, every paper equation is written in routh's signs.
//
// Unknowns per contact k: the normal impulse Γ_n,k and p edge impulses β_k,j ≥ 0 along the
// tangent directions χ_j (paper 001 eq. 12: χ_j = cos(2πj/p) t1 + sin(2πj/p) t2 spatially;
// planar p = 2, χ = ±t), so the tangential impulse is Γ_t,k = Σ_j β_k,j χ_j, and a slip-speed
// multiplier λ_k. The polyhedron {Σ_j β_j χ_j : Σ_j β_j ≤ μ Γ_n} is inscribed in Coulomb's
// circular cone |Γ_t| ≤ μ Γ_n (paper 001 eqs. 8, 11); between two edges it allows only μ cos(π/p).
//
// Stage 1, compression (paper 001 eqs. 9, 13, 14, 16a). Γ_c = Σ_k (Γ_n,k n_k + Σ_j β_k,j χ_j),
// u(t) = u⁻ + D Γ_c, and for every contact
//     u_n,k(t) ≥ 0                 ⊥  Γ_n,k ≥ 0    (9: compression ends, no contact approaches)
//     χ_jᵀ u_t,k(t) + λ_k ≥ 0      ⊥  β_k,j ≥ 0    (13a: friction along the edges most opposed
//     μ_k Γ_n,k − Σ_j β_k,j ≥ 0    ⊥  λ_k ≥ 0          to the slip; λ_k ≈ slip speed)  (13b)
// Stage 2, expansion (paper 001 eqs. 5, 10, 15, 16b). Poisson's hypothesis gives each contact the
// restitution impulse e_k Γ_n,c,k along its normal; an additional normal impulse Γ̃_n,k prevents
// any remaining penetration. Γ_e = Σ_k ((e_k Γ_n,c,k + Γ̃_n,k) n_k + Σ_j β⁺_k,j χ_j),
// u⁺ = u(t) + D Γ_e, and
//     u⁺_n,k ≥ 0                                       ⊥  Γ̃_n,k ≥ 0    (10)
//     χ_jᵀ u⁺_t,k + λ⁺_k ≥ 0                           ⊥  β⁺_k,j ≥ 0   (13a)
//     μ_k (e_k Γ_n,c,k + Γ̃_n,k) − Σ_j β⁺_k,j ≥ 0       ⊥  λ⁺_k ≥ 0     (13b, the default)
// Each LCP is w = M z + q with z = (Γ_n or Γ̃_n, β, λ) per contact, M = [[Gᵀ D G, E], [μ, −Eᵀ, 0]]
// (G maps z's impulses into contact space, E puts λ_k into its contact's edge rows) and
// q = (Gᵀ u_start, cone offset): paper 001 eq. 16 with M⁻ = M⁺. Contacts without friction
// (μs = μd = 0) have only Γ_n, so their tangential impulse is exactly zero.
//
// Friction during expansion: a correction to the printed equations. Eq. 16b writes M⁺ = M⁻, so
// its cone row (13b) bounds the expansion friction by μ Γ̃_n, the additional impulse only. But
// eq. 13 is stated "for each phase" with Γ_z = Γ_z⁺, the whole expansion normal impulse, which
// eq. 15 shows to be e Γ_n,c + Γ̃_n; and Coulomb bounds friction by the whole normal impulse
// transmitted. As printed, Γ̃_n = 0 whenever the restitution impulse alone separates the contact
// (the usual case), so restitution acts without friction: its tangential coupling D_tn e Γ_n,c
// sets a stuck contact slipping again. That is what paper 001 §4 reports of "Anitescu's method":
// it deviates more the larger e is, and at μ = 1 (Fig. 4) it predicts sliding after every impact
// where Routh's method and paper 001 §3 predict sticking. It can even create energy: an elastic
// (e = 1) impact that sticks throughout loses ½(a − c²/b) Γ_n,c² in compression (planar,
// D = [[a, c], [c, b]]) and gets ½ a Γ_n,c² back from frictionless restitution, ΔT =
// ½ (c²/b) Γ_n,c² > 0 (tests/test_lcp.cpp). Default: ExpansionFriction::whole_expansion_impulse,
// the cone row above. Its LCP differs from the printed one only in q's cone entry
// μ_k e_k Γ_n,c,k, which is ≥ 0, so Anitescu–Potra's solvability argument is unchanged (it needs
// qᵀz ≥ 0 only on the pure-λ directions z, where qᵀz is that entry times λ).
// ExpansionFriction::additional_impulse_only keeps the printed form.
//
// Which μ. One Coulomb coefficient per contact and stage, after the rule of the incremental laws
// (μd while sliding, μs decides whether sticking persists; planar_contact.hpp):
//  - a contact that slips at the start of the stage (|u_t| > 0: u⁻ for compression, u(t) for
//    expansion) slides against kinetic friction: μ_k = μd;
//  - a contact that does not slip there is held by static friction, μ_k = max(μs, μd) (the
//    incremental laws' stick test μc ≤ max(μs, μd)). If the stage still ends with it slipping,
//    static friction did not hold it, and it slides with kinetic friction: μ_k = μd and the stage
//    is solved again, until no such contact is left (at most one re-solve per contact).
// So for one planar contact the stage's stick test is exactly `poisson`'s when the contact starts
// the stage at rest (sticking throughout, and the expansion after a stick in compression).
//
// Where `lcp` and `poisson` agree for one planar contact, and where they may not. Each stage is
// solved in one shot for its total impulse, with the friction direction set by the slip at the
// stage's end. `poisson` (Routh) follows the slip incrementally in Γ_n.
//  - Sticking throughout (u_t⁻ = 0, μc ≤ max(μs, μd)): both stick with ratio Γ_t/Γ_n = −c/b in
//    both stages (paper 004 eq. 13), so Γ_n,c and Γ are identical.
//  - Sliding throughout (the slip never halts in `poisson`): the sliding impulse Γ_t = −μd σ Γ_n
//    with Γ_n,c = −u_n⁻/(a − μd σ c) solves the compression LCP, and with the default expansion
//    friction, continued sliding with Γ_t⁺ = −μd σ e Γ_n,c solves the expansion LCP; these are
//    `poisson`'s phases (paper 004 eqs. 8, 31–33). With large slip no sticking impulse lies in
//    the cone, so the LCPs have no other solution.
//  - They differ when the slip halts within a stage: `poisson` slides with μd and then sticks or
//    reverses, so its total ratio |Γ_t|/Γ_n mixes μd with μc; the LCP only sees the end. A slip
//    reversal during compression is not represented (the LCP applies the whole compression
//    friction against the final slip), and a contact that halts and then sticks with
//    μd < μc ≤ μs ends up sliding in the LCP whenever its total sticking impulse needs more than
//    μd. Paper 001 §3 and §5 make the same criticism ("it cannot handle sticking occurring during
//    collision").
//
// Result. Γ = Γ_c + Γ_e, u⁺ = u⁻ + D Γ (normal velocities set to exactly 0 where a complementarity
// condition says so, slips to exactly 0 where λ = 0), ΔT = Γᵀu⁻ + ½ΓᵀDΓ, and the works of the
// normal and tangential impulses along a straight impulse path within each stage, W = Γ_stageᵀ
// (u_start + u_end)/2 per component (as `newton` does for its single mode; W_n + W_t = ΔT
// exactly; the LCP knows no other path). type = multi_contact; the phase trace has per contact a
// compression and a restitution phase of its stage-end mode (stick when λ = 0; reverse_slide when
// the final slip opposes u_t⁻). Flags: energy_gain when ΔT > 0 beyond round-off;
// nonphysical_normal_dissipation as in the other laws (restitution work of the normal impulses
// ≠ −Σ e_k² W_nc,k); slip_reversal_ignored when a contact ends a stage sliding against the slip
// it started the stage with: the slip reversed within the stage, but all of the stage's friction
// opposes the final slip. Unlike Routh's, these straight-path works are not those of a physical
// impulse history, and W_t can come out positive (after an ignored reversal the friction does
// positive work over the stage's first part; coupled contacts also do it): in about 3 % of the
// random impacts we tried.
//
// Guarantees when solved: u⁺_n,k ≥ 0 at every contact; Γ_n,k ≥ 0; the tangential impulse of each
// stage lies in its polyhedral cone, hence |Γ_t,k| ≤ max(μs, μd) Γ_n,k; complementarity above to
// round-off. Kinetic energy: compression never creates it (ΔT_c = −Σ_k λ_k μ_k Γ_n,k − ½ Γ_cᵀ D Γ_c
// ≤ 0 by eqs. 9, 13); frictionless contacts with a common e lose ½(1 − e²) Γ_cᵀ D Γ_c + ½ Γ̃ᵀ D Γ̃.
// With friction we know no proof that the expansion returns less than compression took. Over
// thousands of random problems (tests/test_impact_properties.cpp) no energy appears with one
// common e; with a different e_k per contact, strongly coupled frictional contacts can gain
// energy (Poisson's hypothesis contact by contact: the restitution impulses e_k Γ_n,c,k no longer
// balance large, nearly self-cancelling compression impulses). energy_gain reports it.
//
// Scope: planar and spatial, any number of contacts (the LCP has 1 + p + 1 unknowns per frictional
// contact, 1 per frictionless one); D symmetric positive semidefinite with a positive diagonal
// (several contacts of one rigid body make D singular). Up to kInlineContacts contacts whose LCP
// has at most kInlineLcpSize = 80 unknowns it never touches the heap; beyond, its vectors and
// Lemke's tableau live there (small_buffer_matrix.hpp). This is the law that answers an impact
// beyond the capacity of the scenario's laws (law_catalogue.hpp).
// Status: invalid_problem exactly when diagnose() reports an error (checked here without
// allocating); no_impact when no contact approaches; no_solution when Lemke's method ends on a
// ray or at its pivot limit.

#include <boost/container/small_vector.hpp>

#include "sim/impact/impact_problem.hpp"
#include "sim/impact/impact_result.hpp"
#include "sim/impact/lemke.hpp"

namespace routh {

/// Which normal impulse bounds the friction of the expansion stage (see the header comment).
enum class ExpansionFriction {
  whole_expansion_impulse,  ///< |Γ_t⁺| ≤ μ (e Γ_n,c + Γ̃_n): eq. 13 for the phase; default
  additional_impulse_only,  ///< |Γ_t⁺| ≤ μ Γ̃_n: eq. 16b as printed (M⁺ = M⁻)
};

inline constexpr int kMaxFrictionEdges = 16;

/// One number per contact, held in place for up to kInlineContacts contacts.
using PerContactValues = boost::container::small_vector<double, kInlineContacts>;

struct LcpLawOptions {
  /// Edges p of the polyhedral friction cone of a spatial contact: even, 4 ≤ p ≤ kMaxFrictionEdges
  /// (Anitescu–Potra need every edge's opposite). Planar contacts always have p = 2 (±t).
  int friction_edges = 8;
  ExpansionFriction expansion_friction = ExpansionFriction::whole_expansion_impulse;
  LemkeOptions lemke;
};

/// Both stages of a solved impact, for tests and for readers who want the complementarity.
struct LcpImpact {
  ImpactResult result;
  ContactVector compression_impulse;           ///< Γ_c [N s]
  ContactVector compression_velocity;          ///< u(t) at the end of compression [m/s]
  ContactVector expansion_impulse;             ///< Γ_e = restitution + additional + friction [N s]
  PerContactValues additional_normal_impulse;  ///< Γ̃_n,k [N s]
  PerContactValues compression_friction;       ///< μ_k of compression (after re-solves)
  PerContactValues expansion_friction;         ///< μ_k of expansion
  PerContactValues compression_slip;           ///< λ_k of compression [m/s]
  PerContactValues expansion_slip;             ///< λ⁺_k [m/s]
  int pivots = 0;                              ///< Lemke pivots over all LCPs solved
  int lcps_solved = 0;  ///< LCPs solved (2 plus one per static → kinetic re-solve)
};

/// The law with explicit options. Throws std::invalid_argument for an invalid friction_edges.
LcpImpact solve_lcp_stages(const ImpactProblem& problem, const LcpLawOptions& options);

ImpactResult solve_lcp(const ImpactProblem& problem, const LcpLawOptions& options);

/// The law as registered in the catalogue: default options.
ImpactResult solve_lcp(const ImpactProblem& problem);

}  // namespace routh
