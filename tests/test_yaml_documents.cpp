// One document, each key once (sim/scenario/yaml_input.cpp, load_yaml_file): a duplicate key is
// an error at its second occurrence naming the line of its first, a second YAML document is an
// error where it starts, in scenario, sweep and impact problem files alike; every YAML file
// shipped under scenarios/ still loads.

#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "sim/scenario/impact_problem_file.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/scenario/yaml_input.hpp"
#include "sim/sweep/sweep_file.hpp"
#include "sim/text.hpp"
#include "support/ball_scenario.hpp"
#include "support/scenario_errors.hpp"
#include "support/scratch_files.hpp"

namespace routh {
namespace {

using test::load_error;

using test::kBall;

// The message of an error located in a file of the scratch folder ("NAME:LINE:COLUMN: ...").
std::string in_scratch(const std::string& located) {
  return cat(test::scratch().string(), "/", located);
}

// The whole message of the InputError loading `text` as a file of `load`'s kind raises.
template <typename Load>
std::string error_of(Load&& load, const std::string& text, const std::string& name) {
  const std::string path = test::write_problem(text, name);
  try {
    load(path);
  } catch (const InputError& error) {
    return error.what();
  }
  FAIL("no error for:\n", text);
  return "";
}

}  // namespace

TEST_CASE("yaml: a duplicate key is an error at its second occurrence, naming the first's line") {
  // yaml-cpp kept the first 'duration' and dropped the second without a word
  CHECK(load_error(kBall + "duration: 2\n") ==
        in_scratch("scenario.yaml:10:1: duplicate key 'duration' (first at line 2)"));
  CHECK(load_error(kBall + "  restitution: 0.5\n") ==
        in_scratch("scenario.yaml:10:3: contact: duplicate key 'restitution' (first at line 8)"));
  // in a flow map, and quoted: the same key as text
  CHECK(load_error("duration: 1\nmodel: {type: ball, radius: 0.1, mass: 1, 'mass': 2}\n") ==
        in_scratch("scenario.yaml:2:43: model: duplicate key 'mass' (first at line 2)"));
  // in a map inside a list
  CHECK(load_error("duration: 1\nexcitation:\n  - harmonic: {amplitude: 1, frequency: 2}\n"
                   "  - pulse: {shape: sine, period: 1, shape: ricker}\n") ==
        in_scratch(
            "scenario.yaml:4:37: excitation[1].pulse: duplicate key 'shape' (first at line 4)"));
  // the first duplicate in the file's order, though the later one is nearer the root
  CHECK(load_error("initial:\n  q: {y: 1}\n  q: {y: 2}\nduration: 1\nduration: 2\n") ==
        in_scratch("scenario.yaml:3:3: initial: duplicate key 'q' (first at line 2)"));
}

TEST_CASE("yaml: an alias is not a duplicate, and nested aliases are walked once") {
  const Scenario scenario = load_scenario(test::write_problem(
      "duration: 1\nmodel: {type: ball, radius: 0.1, mass: 1}\ninitial: {q: {y: 1.1}}\n"
      "contact:\n  law: poisson\n  restitution: 0.9\n"
      "  friction: &mu {static: 0.7, kinetic: 0.6}\n  contacts: {floor: {friction: *mu}}\n",
      "scenario.yaml"));
  CHECK(scenario.settings.contacts.at(0).static_friction == 0.7);
  CHECK(scenario.settings.contacts.at(0).kinetic_friction == 0.6);
  // ten to the ninth paths if every alias were followed: refused at once, for not being text
  std::string laughs = "description:\n  a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int level = 1; level < 9; ++level) {
    laughs += cat("  a", level, ": &a", level, " [");
    for (int i = 0; i < 10; ++i) laughs += cat(i == 0 ? "" : ", ", "*a", level - 1);
    laughs += "]\n";
  }
  const auto start = std::chrono::steady_clock::now();
  CHECK(load_error(laughs).starts_with(in_scratch("scenario.yaml:2:3: description: must be text")));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
}

TEST_CASE("yaml: a second document is an error where it starts") {
  // yaml-cpp read the first document and ignored the rest
  const std::string expected =
      ": a second YAML document starts here: the file must hold exactly one";
  CHECK(load_error(kBall + "---\nduration: 2\n") == in_scratch("scenario.yaml:10:1" + expected));
  // at its '---', not past the comments of an empty one (line 13 is past the end)
  CHECK(load_error(kBall + "--- # retired settings\n# duration: 2\n\n") ==
        in_scratch("scenario.yaml:10:1" + expected));
  // a '---' that opens the first document is not a second one
  CHECK(load_error("# a ball\n---\n" + kBall + "...\nduration: 2\n") ==
        in_scratch("scenario.yaml:13:1" + expected));
  CHECK(load_scenario(test::write_problem("# a ball\n---\n" + kBall + "...\n", "scenario.yaml"))
            .name == "ball");
}

TEST_CASE("yaml: a token no node can start with is a syntax error where it stands") {
  // yaml-cpp's parser reports an empty document at a stray ',' without consuming it, and again at
  // every call: reading every document (YAML::LoadAll) never returned and filled the memory
  // (found by scenario_loader_fuzzer; tests/fuzz/regressions/scenario_loader_fuzzer/
  // stray_comma_before_the_first_key.yaml). YAML::Load read the empty document and dropped the
  // rest of the file without a word.
  CHECK(load_error(", spinning\n" + kBall) ==
        in_scratch("scenario.yaml:1:1: YAML syntax: unexpected ','"));
  // after a whole first document (a map's stray ',' is "end of map not found")
  CHECK(load_error("- 1\n,\n") == in_scratch("scenario.yaml:2:1: YAML syntax: unexpected ','"));
}

TEST_CASE("yaml: sweep and impact problem files refuse duplicate keys and second documents") {
  const auto sweep = [](const std::string& path) { read_sweep_file(path); };
  const auto problem = [](const std::string& path) { load_impact_problem_file(path); };
  CHECK(error_of(sweep, "base: ball.yaml\ngrid: {duration: [1, 2]}\nbase: other.yaml\n",
                 "s.yaml") == in_scratch("s.yaml:3:1: duplicate key 'base' (first at line 1)"));
  CHECK(error_of(sweep, "base: ball.yaml\n---\nbase: other.yaml\n", "s.yaml")
            .starts_with(in_scratch("s.yaml:2:1: a second YAML document")));
  CHECK(error_of(problem, "D: [[1, 0], [0, 1]]\nu_pre: [-1, 0]\nrestitution: 0.5\nD: [[2]]\n",
                 "p.yaml") == in_scratch("p.yaml:4:1: duplicate key 'D' (first at line 1)"));
  CHECK(error_of(problem, "D: [[1, 0], [0, 1]]\n---\nu_pre: [-1, 0]\n", "p.yaml")
            .starts_with(in_scratch("p.yaml:2:1: a second YAML document")));
}

TEST_CASE("yaml: every YAML file shipped under scenarios/ still loads") {
  // scenarios/impacts/ holds impact problems, scenarios/sweeps/ sweeps, the rest scenarios
  int problems = 0, sweeps = 0, scenarios = 0;
  const std::filesystem::path root = cat(ROUTH_SOURCE_DIR, "/scenarios");
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.path().extension() != ".yaml") continue;
    const std::string path = entry.path().string();
    const std::string folder = entry.path().parent_path().filename().string();
    CAPTURE(path);
    if (folder == "impacts") {
      CHECK_NOTHROW(load_impact_problem_file(path));
      ++problems;
    } else if (folder == "sweeps") {
      CHECK_NOTHROW(read_sweep_file(path));
      ++sweeps;
    } else {
      CHECK_NOTHROW(load_scenario(path));
      ++scenarios;
    }
  }
  CHECK(problems >= 2);
  CHECK(sweeps >= 2);
  CHECK(scenarios >= 13);
}

}  // namespace routh
