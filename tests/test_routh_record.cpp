// `routh record` end to end (tools/routh/record_command.hpp): the intensity measures of a small
// two-column record against values worked out here from its samples, the text and JSON forms,
// units, and located errors and usage errors.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numbers>
#include <string>

#include "sim/text.hpp"
#include "support/routh_process.hpp"
#include "support/scratch_files.hpp"

namespace routh {

namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The number after `"key": ` in one-line JSON.
double json_number(const std::string& json, const std::string& key) {
  const std::string tag = cat("\"", key, "\": ");
  const std::size_t at = json.find(tag);
  REQUIRE_MESSAGE(at != std::string::npos, "no ", key, " in ", json);
  return std::strtod(json.c_str() + at + tag.size(), nullptr);
}

// A triangle of acceleration [g]: 0 at 0 s, 0.5 g at 1 s, 0 at 2 s, then still until 3 s.
// In closed form: PGA = 0.5 g; v rises to ∫a = 0.5 g [m/s] at 2 s and stays; d grows; ∫a² =
// 2 · (0.5 g)² / 3; ∫|a| = 0.5 g.
std::string triangle_csv() { return "t,a\n0,0\n1,0.5\n2,0\n3,0\n"; }

constexpr double kG = 9.80665;

}  // namespace

TEST_CASE("routh record: the intensity measures of a triangle of acceleration, in closed form") {
  const std::string path = test::write_problem(triangle_csv(), "triangle.csv");
  const test::RouthRun json =
      test::run_routh(cat("record '", path, "' --units g --json --period 0.5 1.5"));
  REQUIRE_MESSAGE(json.exit_code == 0, json.err);
  CHECK(json.out.find('\n') == json.out.size() - 1);  // one line
  const double peak = 0.5 * kG;
  CHECK(json_number(json.out, "pga") == doctest::Approx(peak).epsilon(1e-15));
  CHECK(json_number(json.out, "pgv") == doctest::Approx(peak).epsilon(1e-15));
  // d(3) = ∫₀³ v: v = peak t²/2 on [0, 1], peak (1 − (2 − t)²/2) on [1, 2], peak on [2, 3]
  const double d3 = peak * (1.0 / 6.0 + (1.0 - 1.0 / 6.0) + 1.0);
  CHECK(json_number(json.out, "pgd") == doctest::Approx(d3).epsilon(1e-14));
  CHECK(json_number(json.out, "arias") ==
        doctest::Approx(std::numbers::pi / (2.0 * kG) * 2.0 * peak * peak / 3.0).epsilon(1e-14));
  CHECK(json_number(json.out, "cav") == doctest::Approx(peak).epsilon(1e-15));
  // the cumulative ∫a² is symmetric about 1 s: t(5 %) = ∛0.1, t(95 %) = 2 − ∛0.1
  CHECK(json_number(json.out, "d5_95") ==
        doctest::Approx(2.0 - 2.0 * std::cbrt(0.1)).epsilon(1e-12));
  CHECK(contains(json.out, "\"damping\": 0.05"));
  CHECK(contains(json.out, "{\"period\": 0.5, \"sa\": "));
  CHECK(contains(json.out, "{\"period\": 1.5, \"sa\": "));
  CHECK(contains(json.out, "\"pga\": \"m/s^2\""));

  const test::RouthRun text = test::run_routh(cat("record '", path, "' --units g"));
  REQUIRE_MESSAGE(text.exit_code == 0, text.err);
  for (const char* line : {"PGA", "m/s^2  (0.5 g)", "PGV", "PGD", "Arias intensity", "CAV", "D5-95",
                           "Sa(0.1 s, 5 %)", "Sa(2 s, 5 %)"}) {
    CHECK_MESSAGE(contains(text.out, line), line, "\n", text.out);
  }
}

TEST_CASE("routh record: --samples gives the samples and the ground's motion, in closed form") {
  const std::string path = test::write_problem(triangle_csv(), "triangle.csv");
  const test::RouthRun json =
      test::run_routh(cat("record '", path, "' --units g --json --samples"));
  REQUIRE_MESSAGE(json.exit_code == 0, json.err);
  const double peak = 0.5 * kG;
  CHECK(contains(json.out, "\"time\": [0, 1, 2, 3], "));
  const std::string a = round_trip(peak);
  CHECK(contains(json.out, cat("\"acceleration\": [0, ", a, ", 0, 0], ")));
  // v = ∫a on the piecewise-linear a: peak/2 at 1 s, peak from 2 s on
  CHECK(contains(json.out,
                 cat("\"velocity\": [0, ", round_trip(peak / 2.0), ", ", a, ", ", a, "], ")));
  CHECK(json_number(json.out, "pga") == doctest::Approx(peak).epsilon(1e-15));
  CHECK(contains(json.out, "\"displacement\": \"m\""));
  const test::RouthRun text = test::run_routh(cat("record '", path, "' --samples"));
  CHECK(text.exit_code == 2);
  CHECK(contains(text.err, "routh record: --samples goes with --json"));
}

TEST_CASE("routh record: a record in another format measures as its PEER twin") {
  // scenarios/motions holds one motion as PEER (g, 7 digits) and as ESM (cm/s², 6 decimals):
  // their samples agree within the printed precision, and so do their measures
  const std::string motions = cat(ROUTH_SOURCE_DIR, "/scenarios/motions/");
  const test::RouthRun peer =
      test::run_routh(cat("record '", motions, "synthetic_sines.AT2' --json"));
  const test::RouthRun esm =
      test::run_routh(cat("record '", motions, "synthetic_sines.esm.ASC' --format esm --json"));
  REQUIRE_MESSAGE(peer.exit_code == 0, peer.err);
  REQUIRE_MESSAGE(esm.exit_code == 0, esm.err);
  for (const char* key : {"pga", "pgv", "arias", "cav"}) {
    CAPTURE(key);
    CHECK(json_number(esm.out, key) == doctest::Approx(json_number(peer.out, key)).epsilon(1e-5));
  }
}

TEST_CASE("routh record: a bad record is located, a bad command line is a usage error") {
  const std::string bad = test::write_problem("t,a\n0,0\n0.01,n/a\n", "bad_record.csv");
  const test::RouthRun located = test::run_routh(cat("record '", bad, "'"));
  CHECK(located.exit_code == 1);
  CHECK(contains(located.err, "bad_record.csv:3:6: expected an acceleration"));
  const test::RouthRun missing = test::run_routh("record no_such_record.csv");
  CHECK(missing.exit_code == 1);
  CHECK(contains(missing.err, "no_such_record.csv: no record file there"));
  const std::string ok = test::write_problem(triangle_csv(), "triangle.csv");
  for (const char* arguments :
       {"--units cm", "--format sac", "--damping 1", "--period 0", "--period x"}) {
    CAPTURE(arguments);
    const test::RouthRun usage = test::run_routh(cat("record '", ok, "' ", arguments));
    CHECK(usage.exit_code == 2);
    CHECK(contains(usage.err, "usage: routh record FILE"));
  }
  CHECK(test::run_routh("record").exit_code == 2);
  CHECK(test::run_routh("record --help").exit_code == 0);
  CHECK(contains(test::run_routh("--help").out, "record"));
}

}  // namespace routh
