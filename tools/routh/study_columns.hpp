#pragma once
// Choosing a sweep table's columns for a study of its runs (`routh fragility`, `routh ida`,
// routh.fragility in Python): the intensity measure, the runs whose outcome counts, and the
// runs left out and why, so that no run is dropped silently (docs/sweeps.md, "Fragility and
// IDA").

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/recorder/sweep_table_reader.hpp"

namespace routh::cli {

/// The swept keys: the columns between `run` and `status` (docs/sweeps.md, "The table").
std::vector<std::string> swept_keys(const SweepColumns& table);

/// True for a run status whose outcome is the structure's (`completed`, `stopped_on_event`);
/// false for trouble (`time_limit`, `input_error`, ...), whose outcome is unknown.
bool outcome_counts(std::string_view status);

/// The IM column: `requested`, or by default the one numeric swept key naming a scaled
/// intensity (ending in `.scale`, or `scale_to.pga`, `scale_to.pgv`, `scale_to.sa...`), else
/// `pga`.
/// Throws std::invalid_argument naming the candidates when there is none, several, or the
/// column is not a number.
const SweepColumn& im_column(const SweepColumns& table,
                             const std::optional<std::string>& requested);

/// The numeric column `name` (`role` says what it is for in the message), or
/// std::invalid_argument naming the closest and the numeric columns.
const SweepColumn& numeric_column(const SweepColumns& table, std::string_view name,
                                  std::string_view role);

/// The rows a study uses and those it leaves out, counted by reason ("status time_limit", ...).
struct RunSelection {
  std::vector<std::size_t> rows;
  std::vector<std::pair<std::string, std::int64_t>> excluded;  ///< by first appearance

  void exclude(const std::string& reason);
  std::int64_t excluded_count() const;
};

/// The rows whose status counts and whose IM is finite and > 0.
RunSelection runs_with_outcomes(const SweepColumns& table, const SweepColumn& im);

}  // namespace routh::cli
