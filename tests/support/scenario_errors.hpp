#pragma once
// Scenario texts that must be refused: the message of the InputError, and where in the text a
// message must point ("scenario.yaml:LINE:COLUMN").

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "scratch_files.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/scenario/yaml_input.hpp"
#include "sim/text.hpp"

namespace routh::test {

/// The message of the InputError that loading `text` as scenario.yaml (after `overrides`) throws.
inline std::string load_error(const std::string& text, std::vector<std::string> overrides = {}) {
  const std::string path = write_problem(text, "scenario.yaml");
  try {
    load_scenario(path, overrides);
  } catch (const InputError& error) {
    return error.what();
  }
  FAIL("no error for:\n", text);
  return "";
}

/// "scenario.yaml:LINE:COLUMN" of `value` within `part` of `text`.
inline std::string location_of(const std::string& text, const std::string& part,
                               const std::string& value) {
  const std::size_t at = text.find(part);
  REQUIRE_MESSAGE(at != std::string::npos, part, " not in ", text);
  const std::size_t value_at = at + part.find(value);
  const std::size_t line_start = text.rfind('\n', value_at);
  const std::size_t line = 1 + static_cast<std::size_t>(std::count(
                                   text.begin(), text.begin() + static_cast<long>(value_at), '\n'));
  const std::size_t column = value_at - (line_start == std::string::npos ? 0 : line_start + 1) + 1;
  return cat("scenario.yaml:", line, ":", column);
}

}  // namespace routh::test
