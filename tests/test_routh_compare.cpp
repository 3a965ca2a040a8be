// `routh compare`: one problem, several laws side by side, as a table and as JSON. The answers
// must be the laws' own (the same numbers `routh impact` prints), in the order asked for.

#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "sim/impact/law_catalogue.hpp"
#include "sim/impact/poisson.hpp"
#include "sim/text.hpp"
#include "support/routh_process.hpp"

namespace routh {
namespace {

using test::run_routh;
using Run = test::RouthRun;

std::string rod_problem() {
  return cat("'", ROUTH_SOURCE_DIR, "/scenarios/impacts/falling_rod_paper004_contact_space.yaml'");
}

// The table's line for `law` (it starts with the law's name and a blank).
std::string row_of(const std::string& table, const std::string& law) {
  std::istringstream lines(table);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(law + " ", 0) == 0) return line;
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("compare: by default every planar law answers paper 004's rod, each in its row") {
  const Run run = run_routh(cat("compare ", rod_problem()));
  REQUIRE(run.exit_code == 0);
  for (const LawEntry& law : impact_laws()) {
    const ImpactProblem rod = planar_impact_problem(2.5, 2.5, -1.5, -1.0, 0.6, {0.82, 0.73, 0.7});
    const ImpactResult result = law.solve(rod);
    if (result.status == ImpactStatus::unsupported) {
      CHECK(row_of(run.out, std::string(law.name)).empty());
      continue;
    }
    CAPTURE(law.name);
    const std::string row = row_of(run.out, std::string(law.name));
    CHECK(contains(row, std::string(to_string(result.status))));
    CHECK(contains(row, std::string(to_string(result.type))));
  }
  // Paper 004 Table 1, Poisson: Γ = (0.728, 0.1968) N s, and Newton gains energy (flagged).
  CHECK(contains(row_of(run.out, "poisson"), "0.728 0.1968"));
  CHECK(contains(row_of(run.out, "newton"), "energy_gain"));
}

TEST_CASE("compare: --laws picks and orders the laws, --json gives one impact object each") {
  const Run run = run_routh(cat("compare ", rod_problem(), " --laws energetic,poisson --json"));
  REQUIRE(run.exit_code == 0);
  const std::size_t energetic = run.out.find("\"law\": \"energetic\"");
  const std::size_t poisson = run.out.find("\"law\": \"poisson\"");
  REQUIRE(energetic != std::string::npos);
  REQUIRE(poisson != std::string::npos);
  CHECK(energetic < poisson);
  CHECK_FALSE(contains(run.out, "\"law\": \"newton\""));
  CHECK(contains(run.out, "\"problem\": \"falling rod, paper 004, contact space\""));
  // the same object `routh impact --law poisson` prints, member for member
  const Run single = run_routh(cat("impact ", rod_problem(), " --law poisson"));
  const std::size_t impulse = single.out.find("\"impulse\"");
  const std::string line = single.out.substr(impulse, single.out.find('\n', impulse) - impulse);
  CHECK(contains(run.out.substr(poisson), line));
}

TEST_CASE("compare: an unknown law is a usage error that suggests the closest name") {
  const Run run = run_routh(cat("compare ", rod_problem(), " --laws poisson,energtic"));
  CHECK(run.exit_code == 2);
  CHECK(contains(run.err, "unknown law 'energtic'; did you mean 'energetic'?"));
  CHECK(run.out.empty());
  const Run missing = run_routh("compare no_such_problem.yaml");
  CHECK(missing.exit_code == 1);
  CHECK(contains(missing.err, "no_such_problem.yaml"));
  CHECK(run_routh("compare --help").exit_code == 0);
}
}  // namespace routh
