#pragma once
// A table printed with its columns aligned, two blanks apart, measured before it is printed:
// measure() every row, then print() every row. A table too long to hold (an event log) is read
// twice instead, once for each.

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

namespace routh::cli {

class AlignedColumns {
 public:
  /// Widens the columns to fit `row`.
  void measure(const std::vector<std::string>& row);
  /// Writes `row` as one line, each cell but the last padded to its column's width.
  void print(std::ostream& out, const std::vector<std::string>& row) const;

 private:
  std::vector<std::size_t> widths_;
};

}  // namespace routh::cli
