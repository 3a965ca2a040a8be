#pragma once
// Reading what the shipped sweeps and studies print, as a user's script would: a sweep's CSV table
// row by row, and a number of a one-line JSON object (`routh run --summary`, `routh fragility
// --json`).

#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace routh::test {

/// The rows of a sweep's CSV table, each a map from column name to its text (no text of the
/// shipped tables holds a comma).
inline std::vector<std::map<std::string, std::string>> read_sweep_csv(
    const std::filesystem::path& path) {
  std::ifstream file(path);
  REQUIRE_MESSAGE(file, "no table " << path);
  const auto split = [](const std::string& line) {
    std::vector<std::string> cells;
    std::stringstream stream(line);
    std::string cell;
    while (std::getline(stream, cell, ',')) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.emplace_back();
    return cells;
  };
  std::string line;
  std::getline(file, line);
  const std::vector<std::string> header = split(line);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(file, line)) {
    const std::vector<std::string> cells = split(line);
    REQUIRE(cells.size() == header.size());
    std::map<std::string, std::string>& row = rows.emplace_back();
    for (std::size_t c = 0; c < header.size(); ++c) row[header[c]] = cells[c];
  }
  return rows;
}

/// A number member of a one-line JSON object, NaN for null.
inline double json_number(const std::string& json, const std::string& key) {
  const std::string tag = "\"" + key + "\": ";
  const std::size_t at = json.find(tag);
  REQUIRE_MESSAGE(at != std::string::npos, "no " << key << " in " << json);
  const char* value = json.c_str() + at + tag.size();
  return std::strncmp(value, "null", 4) == 0 ? std::nan("") : std::strtod(value, nullptr);
}

}  // namespace routh::test
