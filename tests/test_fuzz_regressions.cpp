// Replays every input the fuzzers (tests/fuzz/) once failed on, saved under
// tests/fuzz/regressions/TARGET/, through the code path its fuzzer drives: the loaders must load
// it or refuse it with a located InputError, and every law must answer it with a status or a
// finite solution, never an exception. Law findings are test cases named "law fuzz regression:
// ..." so that those not yet fixed in sim/impact can be left out (-tce="law fuzz regression*").

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/law_fuzzing.hpp"
#include "sim/scenario/impact_problem_file.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/scenario/yaml_input.hpp"
#include "sim/text.hpp"

namespace routh {
namespace {

// The saved inputs of one fuzz target, in name order.
std::vector<std::filesystem::path> saved_inputs(const std::string& target) {
  const std::filesystem::path folder =
      std::filesystem::path(ROUTH_SOURCE_DIR) / "tests/fuzz/regressions" / target;
  std::vector<std::filesystem::path> inputs;
  if (!std::filesystem::is_directory(folder)) return inputs;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.is_regular_file()) inputs.push_back(entry.path());
  }
  std::sort(inputs.begin(), inputs.end());
  return inputs;
}

std::vector<std::uint8_t> bytes_of(const std::filesystem::path& path) {
  std::ifstream stream(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
}

// "" when `load` returns or throws InputError, otherwise what else it threw.
template <typename Load>
std::string unclean_failure(Load&& load) {
  try {
    load();
  } catch (const InputError&) {
    return "";
  } catch (const std::exception& error) {
    return cat("threw something other than InputError: ", error.what());
  } catch (...) {
    return "threw an exception of unknown type";
  }
  return "";
}

}  // namespace

TEST_CASE("fuzz regression: saved scenario inputs load or are located input errors") {
  for (const std::filesystem::path& input : saved_inputs("scenario_loader_fuzzer")) {
    CAPTURE(input);
    CHECK(unclean_failure([&] { load_scenario(input.string()); }) == "");
  }
}

TEST_CASE("fuzz regression: saved impact-problem inputs load or are located input errors") {
  for (const std::filesystem::path& input : saved_inputs("impact_problem_loader_fuzzer")) {
    CAPTURE(input);
    CHECK(unclean_failure([&] { load_impact_problem_file(input.string()); }) == "");
  }
}

TEST_CASE(
    "law fuzz regression: saved law inputs get a status or a finite solution from every law") {
  for (const std::filesystem::path& input : saved_inputs("impact_laws_fuzzer")) {
    CAPTURE(input);
    const std::vector<std::uint8_t> bytes = bytes_of(input);
    CHECK(fuzz::catalogue_failures(fuzz::decode_law_problem(bytes)) == "");
  }
}

}  // namespace routh
