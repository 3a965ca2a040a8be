// The impact problem file reader: both forms of the paper 004 rod load to the same problem, and
// every kind of bad input is reported with its message at the right line and column.

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "sim/scenario/impact_problem_file.hpp"
#include "sim/scenario/yaml_input.hpp"
#include "sim/text.hpp"
#include "support/scratch_files.hpp"

namespace routh {
namespace {

using test::write_problem;

std::string shipped(const std::string& name) {
  return cat(ROUTH_SOURCE_DIR, "/scenarios/impacts/", name);
}

// The rod of paper 004 §6 in contact space (eqs. 58–59).
void check_is_paper004_rod(const ImpactProblem& problem) {
  // 1e-12: M's 1/12 is written with 16 digits, so D carries an error of order 1e-15
  REQUIRE(problem.D.rows() == 2);
  CHECK(problem.dimension == ContactDimension::planar);
  CHECK(problem.D(0, 0) == doctest::Approx(2.5).epsilon(1e-12));
  CHECK(problem.D(1, 1) == doctest::Approx(2.5).epsilon(1e-12));
  CHECK(problem.D(0, 1) == doctest::Approx(-1.5).epsilon(1e-12));
  CHECK(problem.u_pre[0] == doctest::Approx(-1.0).epsilon(1e-12));
  CHECK(problem.u_pre[1] == doctest::Approx(0.6).epsilon(1e-12));
  REQUIRE(problem.contacts.size() == 1);
  CHECK(problem.contacts[0].restitution == 0.82);
  CHECK(problem.contacts[0].static_friction == 0.73);
  CHECK(problem.contacts[0].kinetic_friction == 0.7);
}

struct BadInput {
  const char* text;
  int line;
  int column;
  const char* message;  // a part of the expected message
};

void check_rejected(const BadInput& input) {
  const std::string path = write_problem(input.text);
  INFO("input:\n", input.text);
  try {
    load_impact_problem_file(path);
    FAIL("loaded without error");
  } catch (const InputError& error) {
    INFO("error: ", error.what());
    CHECK(error.location().file == path);
    CHECK(error.location().line == input.line);
    CHECK(error.location().column == input.column);
    CHECK(error.message().find(input.message) != std::string::npos);
    CHECK(std::string(error.what()) ==
          cat(path, ":", input.line, ":", input.column, ": ", error.message()));
  }
}

}  // namespace

TEST_CASE("impact_problem_file: the paper 004 rod loads in generalized form") {
  const ImpactProblemFile file = load_impact_problem_file(shipped("falling_rod_paper004.yaml"));
  CHECK(file.law == "poisson");
  CHECK(file.name == "falling rod, paper 004");
  CHECK(file.warnings.empty());
  check_is_paper004_rod(file.problem);
  REQUIRE(file.generalized.has_value());
  CHECK(file.generalized->v_pre.size() == 3);
}

TEST_CASE("impact_problem_file: the paper 004 rod loads in contact space") {
  const ImpactProblemFile file =
      load_impact_problem_file(shipped("falling_rod_paper004_contact_space.yaml"));
  CHECK(file.law == "poisson");
  CHECK_FALSE(file.generalized.has_value());
  check_is_paper004_rod(file.problem);
}

TEST_CASE("impact_problem_file: parameters per contact, and the dimension inferred or given") {
  SUBCASE("two planar contacts, a list of restitutions and friction maps or numbers") {
    const ImpactProblemFile file = load_impact_problem_file(write_problem(R"(
D: [[2, 0, 1, 0], [0, 2, 0, 0], [1, 0, 2, 0], [0, 0, 0, 2]]
u: [-1, 0, -1, 0]
restitution: [0.5, 0.6]
friction: [{static: 0.4, kinetic: 0.3}, 0.2]
)"));
    CHECK_FALSE(file.law.has_value());
    CHECK(file.problem.dimension == ContactDimension::planar);
    REQUIRE(file.problem.contact_count() == 2);
    CHECK(file.problem.contacts[1].restitution == 0.6);
    CHECK(file.problem.contacts[0].kinetic_friction == 0.3);
    CHECK(file.problem.contacts[1].static_friction == 0.2);
    CHECK(file.problem.contacts[1].kinetic_friction == 0.2);
  }
  SUBCASE("three rows are one spatial contact") {
    const ImpactProblemFile file = load_impact_problem_file(write_problem(R"(
D: [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
u: [-1, 0.5, 0]
restitution: 0.5
friction: 0.3
)"));
    CHECK(file.problem.dimension == ContactDimension::spatial);
    CHECK(file.problem.contact_count() == 1);
  }
  SUBCASE("six rows need the dimension") {
    const ImpactProblemFile file = load_impact_problem_file(write_problem(R"(
dimension: 3
D: [[1, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0],
    [0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 1]]
u: [-1, 0, 0, -1, 0, 0]
restitution: 0.5
friction: 0.3
)"));
    CHECK(file.problem.dimension == ContactDimension::spatial);
    CHECK(file.problem.contact_count() == 2);
  }
}

TEST_CASE("impact_problem_file: kinetic friction above static friction is a located warning") {
  const ImpactProblemFile file = load_impact_problem_file(write_problem(R"(law: poisson
D: [[2.5, -1.5], [-1.5, 2.5]]
u: [-1, 0.6]
restitution: 0.82
friction: {static: 0.7, kinetic: 0.8}
)"));
  REQUIRE(file.warnings.size() == 1);
  CHECK(file.warnings[0].find(
            ":5:34: warning: friction.kinetic = 0.8: exceeds static friction 0.7") !=
        std::string::npos);
}

TEST_CASE("impact_problem_file: bad parameters, keys and laws are located") {
  const BadInput inputs[] = {
      {R"(law: poisson
D: [[2.5, -1.5], [-1.5, 2.5]]
u: [-1, 0.6]
restitution: 1.3
friction: {static: 0.73, kinetic: 0.7}
)",
       4, 14, "restitution = 1.3: must be in [0, 1]"},
      {R"(law: poisson
D: [[2.5, -1.5], [-1.5, 2.5]]
u: [-1, 0.6]
restitution: 0.82
friction: {static: -0.1, kinetic: 0.7}
)",
       5, 20, "friction.static = -0.1: must be >= 0"},
      {R"(law: poisson
D: [[2.5, -1.5], [-1.5, 2.5]]
u: [-1, 0.6]
restitution: 0.82
friction: -0.1
)",
       5, 11, "friction = -0.1: must be >= 0"},
      {R"(law: poisson
D: [[2.5, -1.5], [-1.5, 2.5]]
u: [-1, 0.6]
restitution: .nan
friction: 0.7
)",
       4, 14, "restitution = .nan: must be finite"},
      {R"(law: posson
D: [[2.5, -1.5], [-1.5, 2.5]]
u: [-1, 0.6]
restitution: 0.82
friction: 0.7
)",
       1, 6, "unknown law 'posson'; did you mean 'poisson'?"},
      {R"(law: poisson
D: [[2.5, -1.5], [-1.5, 2.5]]
u: [-1, 0.6]
restution: 0.82
friction: 0.7
)",
       4, 1, "unknown key 'restution'; did you mean 'restitution'?"},
      {R"(law: poisson
D: [[2.5, -1.5], [-1.5, 2.5]]
u: [-1, 0.6]
restitution: 0.82
friction: {statc: 0.73, kinetic: 0.7}
)",
       5, 12, "friction: unknown key 'statc'; did you mean 'static'?"},
      {R"(law: poisson
D: [[2.5, -1.5], [-1.5, 2.5]]
u: [-1, 0.6]
friction: 0.7
)",
       1, 1, "missing required key 'restitution'"},
      {R"(law: poisson
D: [[2.5, -1.5], [-1.5, 2.5]]
u: [-1, 0.6]
restitution: 0.82
friction: {static: 0.73}
)",
       5, 11, "friction: missing required key 'kinetic'"},
      {R"(law: poisson
D: [[2.5, -1.5], [-1.5, 2.5]]
u: [-1, 0.6]
restitution: [0.82, 0.5]
friction: 0.7
)",
       4, 14, "restitution: has 2 entries for 1 contacts"},
      {R"(name: [rod]
D: [[2.5, -1.5], [-1.5, 2.5]]
u: [-1, 0.6]
restitution: 0.82
friction: 0.7
)",
       1, 7, "name: must be text"},
  };
  for (const BadInput& input : inputs) check_rejected(input);
}

TEST_CASE("impact_problem_file: bad shapes and matrices are located") {
  const BadInput inputs[] = {
      {R"(restitution: 0.82
friction: 0.7
)",
       1, 1, "no problem given: add D and u (contact space) or M, J and v"},
      {R"(D: [[2.5, -1.5], [-1.5, 2.5]]
u: [-1, 0.6]
v: [0, -1]
restitution: 0.82
friction: 0.7
)",
       3, 4, "either in contact space (D, u) or in generalized form (M, J, v), not both"},
      {R"(D: [[2.5, -1.5], [-1.5, 2.5]]
restitution: 0.82
friction: 0.7
)",
       1, 1, "missing required key 'u'"},
      {R"(D: [[2.5, -1.5], [-1.4, 2.5]]
u: [-1, 0.6]
restitution: 0.82
friction: 0.7
)",
       1, 4, "D must be symmetric"},
      {R"(D: [[1, 2], [2, 1]]
u: [-1, 0.6]
restitution: 0.82
friction: 0.7
)",
       1, 4, "D must be positive semidefinite"},
      {R"(D: [[1, 0, 0], [0, 1, 0]]
u: [-1, 0.6]
restitution: 0.82
friction: 0.7
)",
       1, 4, "D: is 2x3: must be square"},
      {R"(D: [[2.5, -1.5], [-1.5]]
u: [-1, 0.6]
restitution: 0.82
friction: 0.7
)",
       1, 18, "D[1]: has 1 entries but the first row has 2"},
      {R"(D: [[2.5, -1.5], [abc, 2.5]]
u: [-1, 0.6]
restitution: 0.82
friction: 0.7
)",
       1, 19, "D[1][0] = abc: must be a number"},
      {R"(D: [[2.5, -1.5], [-1.5, 2.5]]
u: [-1, 0.6, 0]
restitution: 0.82
friction: 0.7
)",
       2, 4, "u: has 3 entries but D has 2 rows"},
      {R"(D: [[1]]
u: [-1]
restitution: 0.82
friction: 0.7
)",
       1, 4, "D: has 1 rows, not a multiple of 2 (planar contacts: normal, tangential) or 3"},
      {R"(dimension: 3
D: [[2.5, -1.5], [-1.5, 2.5]]
u: [-1, 0.6]
restitution: 0.82
friction: 0.7
)",
       2, 4, "D: has 2 rows, not a multiple of 3"},
      {R"(dimension: 4
D: [[2.5, -1.5], [-1.5, 2.5]]
u: [-1, 0.6]
restitution: 0.82
friction: 0.7
)",
       1, 12, "dimension = 4: must be 2 (planar) or 3 (spatial)"},
      {R"(D: [[1, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0],
    [0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 1]]
u: [-1, 0, 0, -1, 0, 0]
restitution: 0.5
friction: 0.3
)",
       1, 4, "D: has 6 rows: 3 planar or 2 spatial contacts; say which with 'dimension: 2'"},
  };
  for (const BadInput& input : inputs) check_rejected(input);
}

TEST_CASE("impact_problem_file: an impact at any number of contacts loads") {
  // No law caps the contacts of an impact (law_catalogue.hpp): 26 rows, 13 planar contacts, more
  // than are held in place (contact_vector.hpp), load as given.
  constexpr int kRows = 26;
  std::string D = "D: [";
  std::string u = "u: [";
  for (int i = 0; i < kRows; ++i) {
    D += i == 0 ? "[" : ", [";
    for (int j = 0; j < kRows; ++j) D += cat(j == 0 ? "" : ", ", i == j ? 1 : 0);
    D += "]";
    u += cat(i == 0 ? "" : ", ", i % 2 == 0 ? -1 : 0);
  }
  const std::string text = D + "]\n" + u + "]\ndimension: 2\nrestitution: 0.5\nfriction: 0.3\n";
  const ImpactProblemFile file = load_impact_problem_file(write_problem(text, "many.yaml"));
  CHECK(file.problem.contact_count() == kRows / 2);
  CHECK(file.problem.D == Eigen::MatrixXd::Identity(kRows, kRows));
}

TEST_CASE("impact_problem_file: bad generalized forms are located") {
  const BadInput inputs[] = {
      {R"(M: [[1, 0, 0], [0, -1, 0], [0, 0, 1]]
J: [[0, 1, -0.35], [1, 0, 0.35]]
v: [0.6, -1, 0]
restitution: 0.82
friction: 0.7
)",
       1, 4, "M must be positive definite"},
      {R"(M: [[1, 0.5, 0], [0, 1, 0], [0, 0, 1]]
J: [[0, 1, -0.35], [1, 0, 0.35]]
v: [0.6, -1, 0]
restitution: 0.82
friction: 0.7
)",
       1, 4, "M must be symmetric"},
      {R"(M: [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
J: [[0, 1], [1, 0]]
v: [0.6, -1, 0]
restitution: 0.82
friction: 0.7
)",
       2, 4, "J: has 2 columns but M is 3x3"},
      {R"(M: [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
J: [[0, 1, -0.35], [1, 0, 0.35]]
v: [0.6, -1]
restitution: 0.82
friction: 0.7
)",
       3, 4, "v: has 2 entries but M is 3x3"},
      {R"(M: [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
J: [[0, 1, -0.35], [0, 0, 0]]
v: [0.6, -1, 0]
restitution: 0.82
friction: 0.7
)",
       2, 4, "contact 0: its tangential direction does not move the bodies"},
      {R"(M: [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
J: [[0, 1, -0.35], [1, 0, 0.35]]
restitution: 0.82
friction: 0.7
)",
       1, 1, "missing required key 'v'"},
  };
  for (const BadInput& input : inputs) check_rejected(input);
}

TEST_CASE("impact_problem_file: YAML syntax errors, empty and missing files") {
  check_rejected({"law: poisson\nD: [[2.5, -1.5], [-1.5, 2.5]\nu: [-1, 0.6]\n", 3, 1,
                  "YAML syntax: end of sequence flow not found"});
  check_rejected({"[1, 2]\n", 1, 1, "must be a map with keys among: name, description, law"});

  const std::string missing = cat(ROUTH_SOURCE_DIR, "/scenarios/impacts/no_such_problem.yaml");
  try {
    load_impact_problem_file(missing);
    FAIL("loaded a missing file");
  } catch (const InputError& error) {
    CHECK(error.location().line == 0);
    CHECK(std::string(error.what()) ==
          missing + ": cannot open the file: No such file or directory");
  }
}

}  // namespace routh
