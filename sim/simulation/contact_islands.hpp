#pragma once
// Islands: the groups of bodies that contacts join, solved one group at a time (docs/design.md
// §4). Four towers standing apart are four problems of one tower each, not one problem four
// times as large, and an event in one tower leaves the others' matrices alone.
//
// The simulator knows no bodies, only velocities, so it finds both levels from the matrices:
//   - Mechanisms are the groups of velocities that M couples: the connected components of the
//     graph whose edges are M's nonzero off-diagonal entries. M is block diagonal over them, and
//     so is M⁻¹. A chain hanging from a pivot is one; a free body is one or more (at its centre
//     of mass its x, y and θ are not coupled by M at all, and only its contacts join them).
//   - Islands are the groups of mechanisms that a set of contacts joins: contact k joins every
//     mechanism of the velocities its Jacobian rows J_k may be nonzero in (its two bodies', as
//     the system lists them in ContactKinematics::touched_velocities).
// A contact's accelerations and forces then involve only its island's velocities: in
//     (J_c M⁻¹ W) λ = −(J_c M⁻¹ f + J̇_c v)
// an entry of J_c M⁻¹ W couples two contacts only through a block of M⁻¹ that both rows touch,
// so the matrix is block diagonal over islands, and each island's block uses only its own
// columns of J_c and its own blocks of M⁻¹ (contact_forces.hpp). Found this way, the islands
// are exact for any model: an entry of M that is zero by coincidence at one state (a chain at a
// pose where a coupling vanishes) decouples that state's equations exactly, and a contact row's
// entry that is zero by coincidence leaves its velocity in the island, where it changes nothing.

#include <Eigen/Core>
#include <vector>

#include "sim/dynamics/mechanical_system.hpp"

namespace routh {

/// Per velocity, the mechanism it belongs to (0, 1, …, in order of each one's first velocity),
/// from the sparsity of M (nv × nv, symmetric).
void find_mechanisms(const Eigen::MatrixXd& mass_matrix, std::vector<int>& mechanism_of_velocity);

/// M's mechanisms, with the velocities of each: mechanism m's are
/// velocities[start[m] … start[m + 1]), ascending.
struct Mechanisms {
  std::vector<int> of_velocity;  ///< per velocity, its mechanism (find_mechanisms())
  std::vector<int> velocities;
  std::vector<int> start;  ///< count() + 1 entries
  int count() const { return static_cast<int>(start.size()) - 1; }
};

/// The mechanisms of M and the velocities of each.
void find_mechanisms(const Eigen::MatrixXd& mass_matrix, Mechanisms& mechanisms);

/// aᵀ M b over M's mechanisms, block by block: the sum of its entries within them, where the
/// dense product would also run over the zeros between them (a 50-sphere pile's M has 300
/// nonzero entries of 90,000).
double mass_product(const Mechanisms& mechanisms, const Eigen::MatrixXd& mass_matrix,
                    const Eigen::VectorXd& a, const Eigen::VectorXd& b);

/// Members 0 … count − 1 grouped by label_of(i) ∈ [0, groups) (−1: in no group), ascending
/// within each group: group g's are sorted[start[g] … start[g + 1]). A counting sort; `next` is
/// scratch.
template <class LabelOf>
void group_by_label(int count, int groups, const LabelOf& label_of, std::vector<int>& sorted,
                    std::vector<int>& start, std::vector<int>& next) {
  start.assign(static_cast<std::size_t>(groups) + 1, 0);
  for (int i = 0; i < count; ++i) {
    const int group = label_of(i);
    if (group >= 0) ++start[static_cast<std::size_t>(group) + 1];
  }
  for (int g = 0; g < groups; ++g)
    start[static_cast<std::size_t>(g) + 1] += start[static_cast<std::size_t>(g)];
  sorted.resize(static_cast<std::size_t>(start.back()));
  next.assign(start.begin(), start.end() - 1);
  for (int i = 0; i < count; ++i) {
    const int group = label_of(i);
    if (group >= 0) sorted[static_cast<std::size_t>(next[static_cast<std::size_t>(group)]++)] = i;
  }
}

/// The islands of a set of contacts: island i holds the contacts
/// contacts[contact_start[i] … contact_start[i + 1]) and the velocities
/// velocities[velocity_start[i] … velocity_start[i + 1]), each ascending; islands are ordered by
/// their first contact. Velocities of mechanisms that no contact of the set touches are in no
/// island. Kept between calls: once sized, finding islands does not allocate.
struct ContactIslands {
  int count = 0;
  std::vector<int> contacts;
  std::vector<int> contact_start;  ///< count + 1 entries
  std::vector<int> velocities;
  std::vector<int> velocity_start;  ///< count + 1 entries
  // scratch
  std::vector<int> root_of_mechanism;
  std::vector<int> island_of_mechanism;
  std::vector<int> mechanisms_of_contact;  ///< per contact of the set, one mechanism it touches
};

/// The islands of the contacts k with in_set[k] (one entry per contact of `kinematics`), over
/// the mechanisms of `mechanism_of_velocity`, from the velocities each contact touches.
void find_contact_islands(const ContactKinematics& kinematics, const std::vector<bool>& in_set,
                          const std::vector<int>& mechanism_of_velocity, ContactIslands& islands);

}  // namespace routh
