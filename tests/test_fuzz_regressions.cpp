// Replays the inputs the fuzzers (tests/fuzz/) failed on, saved under
// tests/fuzz/regressions/TARGET/, through the code path its fuzzer drives: the loaders must load
// an input or refuse it with a located InputError (every saved loader input is replayed), and
// every law must answer a problem with a status or a finite solution, never an exception. Law
// findings are one test case each, named "law fuzz regression: ...", so that those not yet
// fixed in sim/impact can be left out (routh_tests -tce="law fuzz regression*").

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

std::filesystem::path saved_input(const std::string& target, const std::string& name) {
  return std::filesystem::path(ROUTH_SOURCE_DIR) / "tests/fuzz/regressions" / target / name;
}

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

// Every law's failures on the problem saved as `name`, followed by the problem; "" when none.
std::string law_failures_on_saved(const std::string& name) {
  const std::filesystem::path input = saved_input("impact_laws_fuzzer", name);
  REQUIRE_MESSAGE(std::filesystem::is_regular_file(input), input, " is missing");
  const ImpactProblem problem = fuzz::decode_law_problem(bytes_of(input));
  const std::string failures = fuzz::catalogue_failures(problem);
  return failures.empty() ? failures : cat(failures, fuzz::describe(problem));
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

// Law findings, one test case each, named for the law and the problem that breaks it. Each
// replays its saved input; the failure message says which law answered what.

TEST_CASE("law fuzz regression: newton on a singular planar D (one degree of freedom)") {
  // D = [[1, -1], [-1, 1]] · 1e-27 (J = [1, -1]ᵀ: one degree of freedom moves the normal and the
  // tangent together), u⁻ = (-1, 1) · 1e-13, e = 1, μ = 0.0156: newton answered `solved` with
  // an infinite impulse. The scale is not the cause: the same problem at scale 1 fails alike.
  CHECK(law_failures_on_saved("newton_singular_D") == "");
  const ImpactProblem unit_scale =
      planar_impact_problem(1.0, 1.0, -1.0, -1.0, 1.0, {1.0, 0.0156, 0.0156});
  INFO(fuzz::describe(unit_scale));
  CHECK(fuzz::catalogue_failures(unit_scale) == "");
}

TEST_CASE("law fuzz regression: multipoint_energetic on a vanishing normal entry D_nn") {
  // D_nn = 6.5e-44 next to D_tt = 1e-10, u⁻_n = -1.2e-28, e = 0, μ = 0: multipoint_energetic
  // answered `solved` with an infinite normal impulse and a NaN tangential one.
  CHECK(law_failures_on_saved("multipoint_energetic_vanishing_D_nn") == "");
}

TEST_CASE(
    "law fuzz regression: multipoint_energetic sharing a sticking impulse over more free "
    "directions than the share has constraints") {
  // The rate system of a degenerate D had a two-dimensional kernel, and the contacts it moves
  // gave the static friction stage fewer constraints than unknowns: its vertex enumeration read
  // past its table (UndefinedBehaviorSanitizer: index 38 of 37). Such a program has no vertex,
  // and the stage now keeps the minimum-norm share.
  CHECK(law_failures_on_saved("multipoint_energetic_sticking_share_without_vertex") == "");
}

}  // namespace routh
