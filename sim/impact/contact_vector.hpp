#pragma once
// Contact-space vectors and matrices of any size. Up to kInlineContactRows rows (twelve planar
// contacts, eight spatial ones) they live in place, so that building and solving the impact of a
// few contacts never touches the heap; a larger impact (a column of blocks on the floor) stores
// them on the heap (small_buffer_matrix.hpp).

#include "sim/impact/small_buffer_matrix.hpp"

namespace routh {

/// Contact-space rows held in place: eight spatial contacts (3 rows each) or twelve planar ones
/// (2 rows each). Not a limit: a larger problem goes to the heap.
inline constexpr int kInlineContactRows = 24;
/// Contacts whose per-contact data (parameters, multipliers) is held in place.
inline constexpr int kInlineContacts = 12;

/// Contact-space vector: per contact the normal component first, then the tangential one(s).
using ContactVector = SmallBufferMatrix<kInlineContactRows, 1>;
/// Contact-space matrix, e.g. D = J M⁻¹ Jᵀ.
using ContactMatrix = SmallBufferMatrix<kInlineContactRows, kInlineContactRows>;
/// A plain Eigen matrix of at most kInlineContactRows rows and columns, in place: for Eigen's
/// decompositions (LU, LDLT), which need a plain matrix type, on the small sizes that must not
/// allocate.
using InlineContactMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor,
                                          kInlineContactRows, kInlineContactRows>;

}  // namespace routh
