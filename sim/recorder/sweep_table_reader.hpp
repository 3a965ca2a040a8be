#pragma once
// Reading a sweep table (sweep_table.hpp) column by column, for the studies made of it: `routh
// info` on a table, fragility curves and IDA (docs/sweeps.md). Any column of the three types
// (int64, float64, UTF-8 text) is read, in the order of /runs' `columns` attribute, with its
// unit, so tables with columns this routh does not know (added by a later one) read too.
//
// A file that is not a sweep table (missing, not HDF5, a trajectory) is refused with a message
// naming what it is; one whose HDF5 structure is damaged, or whose columns disagree in length or
// type, throws DamagedSweepTableError. HDF5 itself may crash or hang on some damaged files: a
// caller that must survive them reads in a child process (`routh info` does).

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sim/recorder/sweep_table.hpp"

namespace routh {

/// The file is HDF5 and says it is a sweep table, but HDF5 cannot read what a table holds.
class DamagedSweepTableError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One column: its values in the vector of its type (the other two are empty).
struct SweepColumn {
  std::string name;
  CellType type = CellType::real;
  std::string unit;  ///< "" for a pure number or text
  std::vector<std::int64_t> integers;
  std::vector<double> reals;
  std::vector<std::string> texts;

  std::size_t size() const;
  bool numeric() const { return type != CellType::text; }
  /// Row i of a numeric column as a double (an int64 converted).
  double number(std::size_t i) const;
  /// Row i as text: a number in its shortest exact form.
  std::string text(std::size_t i) const;
};

struct SweepColumns {
  int format_version = 0;
  std::string routh_version;
  std::int64_t planned_runs = 0;  ///< the root's `runs`
  std::int64_t rows_written = 0;  ///< the root's `rows`
  std::string sweep_text;
  std::string base_text;
  std::vector<SweepColumn> columns;  ///< in the table's order, all of rows() values

  std::size_t rows() const { return columns.empty() ? 0 : columns.front().size(); }
  /// The column of that name, or nullptr.
  const SweepColumn* find(std::string_view name) const;
};

/// True when `path` is an HDF5 file whose root says format = "routh-sweep"; false for anything
/// else (no file, another file), without throwing.
bool is_sweep_table(const std::filesystem::path& path);

/// Reads the whole table. Throws std::runtime_error naming the file when it is missing, not
/// HDF5, not a sweep table or of a format_version this routh does not read, and
/// DamagedSweepTableError when HDF5 cannot read it or its columns disagree.
SweepColumns read_sweep_columns(const std::filesystem::path& path);

}  // namespace routh
