#include "tools/routh/aligned_columns.hpp"

#include <algorithm>

namespace routh::cli {

void AlignedColumns::measure(const std::vector<std::string>& row) {
  if (widths_.size() < row.size()) widths_.resize(row.size(), 0);
  for (std::size_t c = 0; c < row.size(); ++c) widths_[c] = std::max(widths_[c], row[c].size());
}

void AlignedColumns::print(std::ostream& out, const std::vector<std::string>& row) const {
  std::string line;
  for (std::size_t c = 0; c < row.size(); ++c) {
    line += row[c];
    const std::size_t width = c < widths_.size() ? widths_[c] : 0;
    if (c + 1 < row.size())
      line += std::string(std::max(width, row[c].size()) - row[c].size() + 2, ' ');
  }
  out << line << '\n';
}

}  // namespace routh::cli
