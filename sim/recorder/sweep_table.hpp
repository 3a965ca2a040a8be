#pragma once
// The table of a sweep (docs/sweeps.md, "The table"): one row per run, written to HDF5 as flat
// columns that h5py and pandas read directly. Layout (format_version 1):
//
//   /           attrs format = "routh-sweep", format_version = 1, routh_version, runs (int64:
//               the sweep's planned number of runs), rows (int64: rows written; < runs when the
//               sweep was stopped before its end)
//   /sweep      scalar variable-length UTF-8 string: the sweep file's text
//   /base       scalar variable-length UTF-8 string: the base scenario file's text
//   /runs       group; attr columns[k] = the column names in table order; one 1-D dataset per
//               column, all of the same length, chunked and extendable:
//                 integer columns int64, real columns float64, text columns variable-length
//                 UTF-8 strings; each with attr units ("" for a pure number or text)
//
// pandas: pd.DataFrame({c: f["runs"][c][:] for c in f["runs"].attrs["columns"]}) (text columns
// arrive as bytes: .str.decode("utf-8")). The file uses the HDF5 1.8 format, as trajectories do.
// The table is written in blocks of rows, so memory stays bounded for any number of runs. It is
// written under a temporary name of its own (".FILE.tmp-PID-N") and renamed over FILE when closed,
// so FILE is either the previous complete table or the new complete one, never a torn write.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace routh {

enum class CellType { integer, real, text };

/// One value of the table: an int64, a float64 or a UTF-8 text, by its column's type.
using Cell = std::variant<std::int64_t, double, std::string>;
using TableRow = std::vector<Cell>;

struct TableColumn {
  std::string name;
  CellType type = CellType::real;
  std::string unit;  ///< "s", "rad", "J"; "" for a pure number or a text
};

inline constexpr const char* kSweepFormat = "routh-sweep";
inline constexpr int kSweepFormatVersion = 1;

/// What the file says about the sweep besides its rows.
struct SweepTableHeader {
  std::string sweep_text;  ///< the sweep file
  std::string base_text;   ///< the base scenario file
  std::int64_t planned_runs = 0;
};

/// Writes a sweep table; rows go in the order they are given (the caller's run order).
class SweepTableWriter {
 public:
  /// Creates its temporary file beside `path` (".NAME.tmp-PID-N", output_placement.hpp). Throws
  /// std::runtime_error naming the file.
  SweepTableWriter(const std::filesystem::path& path, std::vector<TableColumn> columns,
                   const SweepTableHeader& header);
  ~SweepTableWriter();
  SweepTableWriter(const SweepTableWriter&) = delete;
  SweepTableWriter& operator=(const SweepTableWriter&) = delete;

  /// Appends rows, each with one cell per column of the column's type.
  void append(std::span<const TableRow> rows);
  /// Writes the row count, closes the file and renames it to `path`. Without close() (an
  /// exception on the way) the destructor removes the partial file and `path` is untouched.
  void close();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// A sweep table read back whole (for tests and small sweeps; a large table is better read with
/// h5py column by column).
struct SweepTable {
  std::vector<TableColumn> columns;
  std::vector<TableRow> rows;
  std::string sweep_text;
  std::string base_text;
  std::int64_t planned_runs = 0;
};

/// Reads a file written by SweepTableWriter. Throws std::runtime_error naming the file.
SweepTable read_sweep_table(const std::filesystem::path& path);

}  // namespace routh
