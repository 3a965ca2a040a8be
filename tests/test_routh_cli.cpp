// End-to-end runs of the routh program: exit codes, the JSON of `routh impact` for the paper 004
// rod under two laws, located errors on stderr, the law catalogue and the model catalogue.

#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "sim/impact/law_catalogue.hpp"
#include "sim/recorder/trajectory_summary.hpp"
#include "sim/scenario/model_factory.hpp"
#include "sim/text.hpp"
#include "support/routh_process.hpp"
#include "support/scratch_files.hpp"

namespace routh {
namespace {

using test::run_routh;
using test::scratch;
using test::write_problem;
using Run = test::RouthRun;

std::string shipped(const std::string& name) {
  return cat(ROUTH_SOURCE_DIR, "/scenarios/impacts/", name);
}

// The numbers of the JSON array `"key": [...]`.
std::vector<double> numbers(const std::string& json, const std::string& key) {
  const std::string opening = cat("\"", key, "\": [");
  const std::size_t start = json.find(opening);
  REQUIRE_MESSAGE(start != std::string::npos, "no ", key, " in ", json);
  std::vector<double> values;
  const char* cursor = json.c_str() + start + opening.size();
  while (*cursor != ']') {
    char* end = nullptr;
    values.push_back(std::strtod(cursor, &end));
    REQUIRE(end != cursor);
    cursor = end;
    if (*cursor == ',') cursor += 2;
  }
  return values;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("cli: routh impact solves the paper 004 rod with its file's law, poisson") {
  // Paper 004 §6: Γ = (0.728, 0.1968) for Poisson's e = 0.82, μs = 0.73, μd = 0.7. The law's
  // arithmetic is exact up to round-off, and the JSON keeps 17 digits, hence 1e-12.
  for (const char* file :
       {"falling_rod_paper004.yaml", "falling_rod_paper004_contact_space.yaml"}) {
    INFO(file);
    const Run run = run_routh(cat("impact '", shipped(file), "'"));
    CHECK(run.exit_code == 0);
    CHECK(run.err.empty());
    CHECK(contains(run.out, "\"law\": \"poisson\""));
    CHECK(contains(run.out, "\"status\": \"solved\""));
    CHECK(contains(run.out, "\"type\": \"non-sliding in compression\""));
    const std::vector<double> impulse = numbers(run.out, "impulse");
    REQUIRE(impulse.size() == 2);
    CHECK(impulse[0] == doctest::Approx(0.728).epsilon(1e-12));
    CHECK(impulse[1] == doctest::Approx(0.1968).epsilon(1e-12));
    CHECK(numbers(run.out, "u_post").size() == 2);
    CHECK(contains(run.out, "\"phases\": [\n    {\"kind\": \"slide\", \"stage\": \"compression\""));
  }
}

TEST_CASE("cli: --law overrides the file's law and v_post follows the generalized form") {
  // Paper 004 §6, conventional method: Γ = (0.9125, 0.3075), gaining energy.
  const Run run =
      run_routh(cat("impact '", shipped("falling_rod_paper004.yaml"), "' --law newton"));
  CHECK(run.exit_code == 0);
  CHECK(contains(run.out, "\"law\": \"newton\""));
  const std::vector<double> impulse = numbers(run.out, "impulse");
  REQUIRE(impulse.size() == 2);
  CHECK(impulse[0] == doctest::Approx(0.9125).epsilon(1e-12));
  CHECK(impulse[1] == doctest::Approx(0.3075).epsilon(1e-12));
  CHECK(contains(run.out, "\"flags\": [\"energy_gain\"]"));
  // v⁺ = v⁻ + M⁻¹ Jᵀ Γ: the centre of mass takes the impulse as a unit mass, (0.6 + Γ_t, -1 + Γ_n)
  const std::vector<double> v_post = numbers(run.out, "v_post");
  REQUIRE(v_post.size() == 3);
  CHECK(v_post[0] == doctest::Approx(0.6 + 0.3075).epsilon(1e-12));
  CHECK(v_post[1] == doctest::Approx(-1 + 0.9125).epsilon(1e-12));
}

TEST_CASE("cli: bad input is located on stderr and exits 1") {
  const std::string path = write_problem(R"(law: poisson
D: [[2.5, -1.5], [-1.5, 2.5]]
u: [-1, 0.6]
restitution: 1.3
friction: {static: 0.73, kinetic: 0.7}
)");
  const Run run = run_routh(cat("impact '", path, "'"));
  CHECK(run.exit_code == 1);
  CHECK(run.out.empty());
  CHECK(run.err == cat(path, ":4:14: restitution = 1.3: must be in [0, 1]\n"));

  const Run missing = run_routh("impact no_such_problem.yaml");
  CHECK(missing.exit_code == 1);
  CHECK(contains(missing.err, "no_such_problem.yaml: cannot open the file"));
}

TEST_CASE("cli: a warning goes to stderr and into the JSON, and the run continues") {
  const std::string path = write_problem(R"(law: poisson
D: [[2.5, -1.5], [-1.5, 2.5]]
u: [-1, 0.6]
restitution: 0.82
friction: {static: 0.7, kinetic: 0.8}
)");
  const Run run = run_routh(cat("impact '", path, "'"));
  CHECK(run.exit_code == 0);
  CHECK(contains(run.err, ":5:34: warning: friction.kinetic = 0.8: exceeds static friction 0.7"));
  CHECK(contains(run.out, "\"warnings\": [\n    \"" + path + ":5:34: warning: friction.kinetic"));
}

TEST_CASE("cli: no approaching contact is no impact, exit 0") {
  const std::string path = write_problem(R"(law: poisson
D: [[2.5, -1.5], [-1.5, 2.5]]
u: [0.2, 0.6]
restitution: 0.82
friction: 0.7
)");
  const Run run = run_routh(cat("impact '", path, "'"));
  CHECK(run.exit_code == 0);
  CHECK(contains(run.err, "no impact"));
  CHECK(contains(run.out, "\"status\": \"no_impact\""));
  CHECK(numbers(run.out, "impulse") == std::vector<double>{0, 0});
  CHECK(numbers(run.out, "u_post") == std::vector<double>{0.2, 0.6});
}

TEST_CASE("cli: a law that cannot solve the problem prints its status and exits 1") {
  // two planar contacts: every law in the catalogue so far handles one
  const std::string path = write_problem(R"(law: poisson
D: [[2, 0, 1, 0], [0, 2, 0, 0], [1, 0, 2, 0], [0, 0, 0, 2]]
u: [-1, 0, -1, 0]
restitution: 0.5
friction: 0.3
)");
  const Run run = run_routh(cat("impact '", path, "'"));
  CHECK(run.exit_code == 1);
  CHECK(contains(run.out, "\"status\": \"unsupported\""));
  CHECK(contains(run.err, "law 'poisson' cannot solve"));
}

TEST_CASE("cli: a file without a law needs --law") {
  const std::string path = write_problem(R"(D: [[2.5, -1.5], [-1.5, 2.5]]
u: [-1, 0.6]
restitution: 0.82
friction: {static: 0.73, kinetic: 0.7}
)");
  const Run without = run_routh(cat("impact '", path, "'"));
  CHECK(without.exit_code == 1);
  CHECK(without.err ==
        cat(path, ": no law given: add 'law: NAME' to the file or pass --law NAME\n"));
  const Run with = run_routh(cat("impact '", path, "' --law energetic"));
  CHECK(with.exit_code == 0);
  CHECK(contains(with.out, "\"law\": \"energetic\""));
}

TEST_CASE("cli: a directory given as the input file is an input error, never an abort") {
  // it used to escape yaml-cpp as std::ios_base::failure and abort (exit 134)
  const std::filesystem::path folder = test::scratch() / "a_folder.yaml";
  std::filesystem::create_directories(folder);
  for (const char* command : {"impact", "compare", "run"}) {
    INFO(command);
    const Run run = run_routh(cat(command, " '", folder.string(), "'"));
    CHECK(run.exit_code == 1);
    CHECK(run.err.starts_with(cat(folder.string(), ": is a directory, not a regular file: ")));
  }
  const Run info = run_routh(cat("info '", folder.string(), "'"));
  CHECK(info.exit_code == 1);
  CHECK(info.err == cat("routh info: ", folder.string(), ": is a directory, not a file\n"));
}

TEST_CASE("cli: an error that is not an input error names the command and the file, exit 1") {
  // an output file in a folder that does not exist: a std::runtime_error from the output's
  // placement, not an InputError, raised before anything runs (HDF5 found it, in its own words,
  // when it created the temporary file)
  const std::filesystem::path folder = test::scratch() / "no_such_folder";
  const std::string scenario = cat(ROUTH_SOURCE_DIR, "/scenarios/bouncing_ball.yaml");
  const Run run = run_routh(cat("run '", scenario, "' -o '", (folder / "out.h5").string(), "'"));
  CHECK(run.exit_code == 1);
  CHECK(run.err == cat("routh run: ", scenario, ": output file ", (folder / "out.h5").string(),
                       ": the folder ", folder.string(), " does not exist\n"));
  CHECK(run.out.empty());
  CHECK(!std::filesystem::exists(folder));
}

TEST_CASE("cli: routh laws lists every law") {
  const Run run = run_routh("laws");
  CHECK(run.exit_code == 0);
  // one line each, starting with the name
  for (const char* law : {"newton ", "newton_routh ", "poisson ", "energetic "}) {
    CHECK(contains("\n" + run.out, cat("\n", law)));
  }
}

TEST_CASE("cli: routh laws --json lists every law of the catalogue as name, scope and summary") {
  const Run run = run_routh("laws --json");
  CHECK(run.exit_code == 0);
  CHECK(run.out.starts_with("[\n  {\"name\": "));
  for (const LawEntry& law : impact_laws()) {
    CHECK(contains(run.out, cat("{\"name\": \"", law.name, "\", \"scope\": \"",
                                to_string(law.scope), "\", \"summary\": \"")));
  }
  CHECK(run_routh("laws --json --json").exit_code == 2);
}

TEST_CASE("cli: routh models lists every named model with its keys, coordinates and contacts") {
  const Run run = test::run_routh("models");
  CHECK(run.exit_code == 0);
  CHECK(run.err.empty());
  for (const ModelPreset& preset : model_presets()) {
    CHECK(contains(run.out, cat("\n", preset.name, ": ", preset.summary, "\n")));
  }
  // a parameter row: key, type, unit, default, range, meaning; the type is the kind of the
  // reader that reads the parameter (model_factory.cpp refuses to read it as another)
  CHECK(contains(run.out, "radius   number  m      0.1      [1e-06, 1000000] m      radius\n"));
  CHECK(contains(run.out, "links     whole number         -      3         [1, 1000]"));
  CHECK(contains(run.out, "length    number or list       m      1 "));
  CHECK(contains(run.out, "angles    absolute | relative  -      absolute"));
  CHECK(contains(run.out, "obstacle  obstacle or none  -      (computed)"));
  // the coordinates and contacts of each model built with its defaults
  CHECK(contains(run.out, "  coordinates  x, y, theta\n  contacts     floor\n"));
  CHECK(contains(run.out,
                 "  contacts     left_corner, right_corner, top_right_corner, top_left_corner\n"));
  CHECK(contains(run.out, "  coordinates  theta1, theta2, theta3\n  contacts     none\n"));
  CHECK(contains(run.out, "  coordinates  disk1.x, disk1.y, disk1.theta, disk2.x, disk2.y"));
  CHECK(contains(run.out, "block1.bottom_left/floor"));
  // and the generic form
  CHECK(contains(run.out, "A generic multibody instead of a named model:\nmodel:\n"));
  CHECK(contains(run.out, "  joints:"));
  const Run extra = test::run_routh("models ball");
  CHECK(extra.exit_code == 2);
  CHECK(contains(extra.err, "routh models: unexpected argument 'ball'"));
  CHECK(test::run_routh("models --help").exit_code == 0);
}

TEST_CASE("cli: routh --version and routh version print the project version, as files record it") {
  for (const char* command : {"--version", "version"}) {
    CAPTURE(command);
    const Run run = run_routh(command);
    CHECK(run.exit_code == 0);
    CHECK(run.out == cat("routh ", ROUTH_VERSION, "\n"));
    CHECK(run.err.empty());
  }
  CHECK(std::string_view(ROUTH_VERSION).find('.') != std::string_view::npos);  // e.g. 0.1.0
  const std::filesystem::path out = scratch() / "version.h5";
  const Run run = run_routh(cat("run '", ROUTH_SOURCE_DIR,
                                "/scenarios/bouncing_ball.yaml' --set duration=0.1 --force -o '",
                                out.string(), "'"));
  REQUIRE(run.exit_code == 0);
  CHECK(summarize_trajectory(out).routh_version == ROUTH_VERSION);
  CHECK(contains(run_routh("--help").out, "routh --version"));
}

TEST_CASE("cli: usage errors exit 2, help exits 0") {
  CHECK(run_routh("--help").exit_code == 0);
  CHECK(contains(run_routh("--help").out, "impact"));
  CHECK(run_routh("impact --help").exit_code == 0);
  CHECK(run_routh("").exit_code == 2);
  CHECK(run_routh("impact").exit_code == 2);
  const Run unknown = run_routh("impct");
  CHECK(unknown.exit_code == 2);
  CHECK(contains(unknown.err, "unknown command 'impct'; did you mean 'impact'?"));
  const Run bad_law =
      run_routh(cat("impact '", shipped("falling_rod_paper004.yaml"), "' --law posson"));
  CHECK(bad_law.exit_code == 2);
  CHECK(contains(bad_law.err, "unknown law 'posson'; did you mean 'poisson'?"));
}

}  // namespace routh
