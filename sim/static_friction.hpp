#pragma once
// Static friction of a statically indeterminate contact set, decided for the set as a whole
// (a statically indeterminate set, such as a block flat on two corners, sticks as long as SOME
// distribution of forces lies inside every cone, not only the minimum-norm one).
//
// Two callers: the acceleration-level contact forces of the simulation (contact_forces.hpp), and
// the impulse rates of the multi-contact energetic law (multipoint_energetic.cpp), whose sticking
// contacts of one rigid body are indeterminate in the same way. Below, "forces" stand for either.
//
// The acceleration-level solve (contact_forces.hpp) gives one particular force solution λ0 of
// the closed contacts (the minimum-norm one) and a basis N (m × d) of the force distributions
// that act on no generalized coordinate (W N = 0: a block's two corners pulling the floor
// towards each other). Every λ(z) = λ0 + N z holds the bodies alike. Per contact k of the set,
// λ_n,k(z) and λ_t,k(z) are its rows of λ(z); a sticking contact's planar cone is
// |λ_t,k| ≤ μs,k λ_n,k; a sliding one's friction is part of its one unknown (λ_t = −μd σ λ_n), so
// only its λ_n,k ≥ 0 constrains z.
//
// The margin is relative to each contact's load. With the reference loads N̄_k = max(λ0_n,k, 0)
// of the particular solution and the weights w_k = μs,k N̄_k, the stage solves the linear program
//
//     maximize m over (z, m)  subject to   μs,k λ_n,k(z) − |λ_t,k(z)| ≥ m w_k   (sticking k),
//                                          λ_n,k(z) ≥ 0                        (every k),
//                                          m ≤ 1,                                            (1)
//
// and reports the distribution λ(z*) and the set's stick reserve
//
//     R = m* Σ_k w_k   [N].                                                                  (2)
//
// When the set's normal forces do not depend on z (a block or a rod flat on two corners: force
// and moment balance fix them, only the tangential split is free), N̄_k = λ_n,k and (1) asks for
// the least friction utilization ρ* = 1 − m* = min_z max_k |λ_t,k| / (μs,k λ_n,k), reached with
// every loaded contact equally utilized; then R = Σ_k μs,k λ_n,k − |Σ_k λ_t,k| for contacts on
// one line, which for two corners with one μs is μs ΣN − |ΣF_t|. For one sticking contact, R is
// the single-contact witness μs λ_n − |λ_t|.
//
// R as the slip witness of the set (proofs from (1) and w_k ≥ 0):
//   (a) R > 0 ⇒ the set sticks: λ(z*) lies strictly inside every loaded cone (μs λ_n − |λ_t| ≥
//       m* w_k > 0) and inside every unloaded one, with every λ_n ≥ 0.
//   (b) the set sticks ⇒ R ≥ 0: a distribution inside every cone with λ_n ≥ 0 makes (z, 0)
//       feasible in (1), so m* ≥ 0. Hence R < 0 ⇒ no distribution sticks: the set slips.
//   (c) a pure lift-off does not zero R. As a corner's load N̄_j → 0⁺ its weight w_j → 0: its cone
//       (shrinking to the point λ_t,j = 0) still constrains z but demands no margin. For two
//       corners R → μs,i N_i − |ΣF_t| of the other corner, positive while it holds the set alone.
//       The per-contact margin μs λ_n,j − |λ_t,j| ≤ μs λ_n,j instead reaches 0 with the load, at
//       the same instant as the lift-off witness λ_n,j, which would make the two events tie.
//   (d) (1) is infeasible only if some λ0_n,k ≤ 0: with every λ0_n,k > 0, every w_k > 0 and z = 0
//       with m = min(1, min_k (μs,k λ0_n,k − |λ0_t,k|) / w_k) is feasible. Then the lift-off
//       witness of the particular solution is at or past its zero: the stage reports λ0 and
//       R = +∞ (no verdict on friction; the lift-off decides).
//
// The program has d + 1 unknowns and at most 3 per contact + 1 constraints; d is small (1 for
// two corners on a floor: 4 unknowns, 3 degrees of freedom; 3 for three contacts on one face).
// Its optimum is a vertex (the feasible set has no line: N has full column rank and every
// unknown of λ is constrained), found by enumerating every d + 1 of the constraints, solving them
// as equalities and keeping the feasible one of greatest m, among equal m the one of least |z|
// (the distribution nearest the minimum-norm one). No heap. Measured (Release, one shared core):
// 0.25 µs for two corners (21 vertices), 6.5 µs for three contacts on a face (210); a sticking
// flat block's whole constrained_acceleration() goes from 0.35 to about 0.7 µs.
//
// Large sets. A column of n blocks standing on the floor has d = n force-free directions, one per
// face pair (the squeeze of its two corners), far beyond an enumeration; and even three face pairs
// with a sliding contact (d = 3, 20 constraints: C(20, 4) = 4845 vertices) exceed one joint
// enumeration, whose cost is the product of its parts'. But such a set is made of
// independent parts, and any set of more than one direction is split into them when it has several:
// the directions can be chosen so that each group of them moves contacts that no other group moves.
// A reduced echelon form of Nᵀ, the identity on d pivot columns, is such a basis whatever the
// pivot order (a vector's part in another part vanishes at every pivot column), and groups follow
// from which contacts each direction moves. Then (1) separates but for the common m: each group's
// program alone has its optimum m*_g, and since lowering m only relaxes a constraint (w_k ≥ 0), m*
// = min_g m*_g, each group keeping its own optimal z_g; R = m* Σ_k w_k as in (2), exactly the
// optimum of (1) for the whole set. (Among equally good distributions of a group the one of least
// |z| in the echelon basis is kept.) A set with a group beyond kMaxIndeterminacy directions or
// kMaxVertexCandidates vertices is not distributed: it keeps λ0 and the per-contact rule (R = the
// least μs λ_n − |λ_t| of λ0), which can report slip where some distribution still sticks.

#include <boost/container/small_vector.hpp>
#include <limits>

#include "sim/impact/contact_vector.hpp"

namespace routh {

/// Most force-free directions d the stage distributes over (three contacts on one face).
inline constexpr int kMaxIndeterminacy = 3;

/// Where one contact's force unknowns sit in λ, and its static friction.
struct SetContact {
  int normal = 0;       ///< the index of λ_n,k
  int tangential = -1;  ///< the index of λ_t,k when the contact sticks; −1 when it slides
  double static_friction = 0.0;  ///< μs,k ≥ 0
};

/// The contacts whose forces the null space N moves.
using SetContacts = boost::container::small_vector<SetContact, kInlineContacts>;

/// The stage's outcome.
struct StaticFrictionDistribution {
  ContactVector forces;  ///< λ(z*) = λ0 + N z*, or λ0 when the set is not distributed
  /// R of (2) [N]: > 0 the set sticks, < 0 it slips; +∞ when no distribution keeps the set's
  /// normal forces ≥ 0 (a lift-off witness is at or past its zero; see (d)).
  double stick_reserve = std::numeric_limits<double>::infinity();
};

/// Solves (1) for the particular solution λ0 (m unknowns), the force-free basis N (m × d, full
/// column rank) and the contacts of the set (those of λ's rows that N moves), and writes λ(z*)
/// and R into `out`. Any size; allocation-free up to kMaxIndeterminacy directions.
void distribute_static_friction(const ContactVector& particular, const ContactMatrix& null_basis,
                                const SetContacts& contacts, StaticFrictionDistribution& out);

}  // namespace routh
