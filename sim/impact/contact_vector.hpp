#pragma once
// Contact-space vectors and matrices with a fixed capacity, so that building and solving an
// impact problem never touches the heap (DESIGN §3: laws are allocation-free).

#include <Eigen/Core>

namespace routh {

/// Largest contact-space dimension an impact problem may have: eight spatial contacts
/// (3 rows each) or twelve planar ones (2 rows each).
inline constexpr int kMaxContactRows = 24;
inline constexpr int kMaxContacts = 12;

/// Contact-space vector: per contact the normal component first, then the tangential one(s).
using ContactVector = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, kMaxContactRows, 1>;
/// Contact-space matrix, e.g. D = J M⁻¹ Jᵀ.
using ContactMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor,
                                    kMaxContactRows, kMaxContactRows>;

}  // namespace routh
