#pragma once
// The files `routh fragility` and `routh ida` write besides what they print (CSV, Markdown,
// SVG), under the rule of docs/output.md: never the table they read, an existing file only with
// --force, each through a temporary file renamed into place.

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace routh::cli {

/// The command's output files (name, text), written only once all are checked: throws
/// OutputRefused naming a file the rule refuses (then none is written), OutputWriteError for
/// one that cannot be written.
void write_study_outputs(const std::filesystem::path& table,
                         const std::vector<std::pair<std::filesystem::path, std::string>>& files,
                         bool force);

/// `value` to 4 significant digits ("0.9329", "1.2e-05"): for people; CSV and JSON keep every
/// digit.
std::string readable(double value);

/// The rows as CSV (RFC 4180), the header first.
std::string csv_table(const std::vector<std::string>& header,
                      const std::vector<std::vector<std::string>>& rows);

/// The rows as a Markdown (GitHub) table, the header first.
std::string markdown_table(const std::vector<std::string>& header,
                           const std::vector<std::vector<std::string>>& rows);

}  // namespace routh::cli
