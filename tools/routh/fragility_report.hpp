#pragma once
// A fragility study of a sweep table, as `routh fragility` prints it and routh.fragility (Python)
// returns it: the runs chosen (study_columns.hpp), their outcome, the levels' counts, the
// lognormal fit and its bootstrap intervals (sim/study/), and the JSON of all of it.

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "sim/recorder/sweep_table_reader.hpp"
#include "sim/study/fragility.hpp"
#include "sim/study/fragility_bootstrap.hpp"

namespace routh::cli {

/// What to study.
struct FragilityRequest {
  /// A 0/1 column (`overturned`, `BODY.overturned`) or `COLUMN>VALUE` on a numeric column.
  std::string outcome = "overturned";
  std::optional<std::string> im;  ///< the IM column; nothing: im_column()'s default
  BootstrapSettings bootstrap;    ///< replicates 0: no bootstrap
};

inline constexpr std::uint64_t kDefaultBootstrapSeed = 20151;
inline constexpr std::int64_t kDefaultBootstrapReplicates = 1000;
/// Seeds up to 2⁵³, the integers JSON numbers (doubles) hold exactly, so that the seed printed
/// is the seed used.
inline constexpr std::uint64_t kLargestSeed = std::uint64_t{1} << 53;

struct FragilityStudy {
  std::string outcome;
  std::string im;
  std::string im_unit;
  std::vector<FragilityLevel> levels;
  std::int64_t runs_used = 0;
  std::vector<std::pair<std::string, std::int64_t>> excluded;  ///< (reason, runs)
  std::int64_t excluded_count = 0;
  FragilityFit fit;
  BootstrapSettings bootstrap_settings;
  std::optional<FragilityBootstrap> bootstrap;  ///< when fitted and replicates > 0
};

/// Chooses the runs, counts them by level, fits, and bootstraps. Throws std::invalid_argument
/// for an outcome or IM the table does not have (naming the candidates), a confidence outside
/// (0, 1), negative replicates or a seed above kLargestSeed.
FragilityStudy study_fragility(const SweepColumns& table, const FragilityRequest& request);

/// The study as one line of JSON: median, beta (null when not fitted), status and message,
/// the intervals, the levels' im, runs, exceeding and fractions, the runs excluded.
void write_fragility_json(std::ostream& out, const FragilityStudy& study);

/// The JSON of the study of the table at `path` (the Python binding's entry).
std::string fragility_json(const std::string& path, const FragilityRequest& request);

}  // namespace routh::cli
