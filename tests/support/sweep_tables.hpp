#pragma once
// Comparing sweep tables as a resume promises: bit for bit.

#include <cstring>

#include "sim/recorder/sweep_table.hpp"

namespace routh::test {

/// Bit for bit: doubles compared by their bytes (NaN equals NaN), texts and integers exactly.
inline bool same_bits(const SweepTable& a, const SweepTable& b) {
  if (a.columns.size() != b.columns.size() || a.rows.size() != b.rows.size()) return false;
  for (std::size_t c = 0; c < a.columns.size(); ++c) {
    if (a.columns[c].name != b.columns[c].name || a.columns[c].type != b.columns[c].type) {
      return false;
    }
  }
  for (std::size_t r = 0; r < a.rows.size(); ++r) {
    for (std::size_t c = 0; c < a.columns.size(); ++c) {
      const Cell& x = a.rows[r][c];
      const Cell& y = b.rows[r][c];
      if (x.index() != y.index()) return false;
      if (const auto* real = std::get_if<double>(&x)) {
        if (std::memcmp(real, &std::get<double>(y), sizeof(double)) != 0) return false;
      } else if (x != y) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace routh::test
