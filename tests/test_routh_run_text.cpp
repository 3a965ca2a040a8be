// `routh run -` and `routh check -` (tools/routh/run_request.cpp): the scenario's YAML read from
// standard input, as the Python package's program backend hands a scenario given as text. The
// run is the file's run, number for number; errors are located at <stdin>:LINE:COLUMN; record
// files are found relative to the current folder; without `name` the output is scenario.h5.

#include <doctest/doctest.h>
#include <hdf5.h>

#include <filesystem>
#include <string>
#include <vector>

#include "sim/text.hpp"
#include "support/routh_process.hpp"
#include "support/scratch_files.hpp"

namespace routh {
namespace {

using test::scratch;

std::string shipped(const std::string& name) {
  return cat(ROUTH_SOURCE_DIR, "/scenarios/", name, ".yaml");
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Every number of the dataset `name` (/time, /q, ...) of the trajectory file at `path`.
std::vector<double> dataset_values(const std::filesystem::path& path, const char* name) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(file >= 0);
  const hid_t dataset = H5Dopen2(file, name, H5P_DEFAULT);
  REQUIRE(dataset >= 0);
  const hid_t space = H5Dget_space(dataset);
  std::vector<double> values(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
  REQUIRE(H5Dread(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0);
  H5Sclose(space);
  H5Dclose(dataset);
  H5Fclose(file);
  return values;
}

// `routh ARGUMENTS < INPUT`, in the scratch folder.
test::RouthRun routh_reading(const std::string& arguments, const std::string& input) {
  return test::run_command(cat("'", ROUTH_BINARY, "' ", arguments, " < '", input, "'"));
}

TEST_CASE("run -: a scenario on standard input runs as its file does, sample for sample") {
  const std::filesystem::path from_file = scratch() / "ball_from_file.h5";
  const std::filesystem::path from_text = scratch() / "ball_from_text.h5";
  const std::string settings = " --set duration=2 --force";
  REQUIRE(test::run_routh(
              cat("run '", shipped("bouncing_ball"), "' -o '", from_file.string(), "'", settings))
              .exit_code == 0);
  const test::RouthRun run =
      routh_reading(cat("run - -o '", from_text.string(), "'", settings), shipped("bouncing_ball"));
  CHECK(run.exit_code == 0);
  CHECK(contains(run.out, "bouncing_ball: completed"));  // the file's `name`
  for (const char* name : {"/time", "/q", "/v", "/energy"}) {
    CAPTURE(name);
    CHECK(dataset_values(from_text, name) == dataset_values(from_file, name));
  }
}

TEST_CASE("run -: errors are located at <stdin>:LINE:COLUMN, those of --set at the override") {
  const std::string bad = test::write_problem(
      "duration: 1\nmodel: {type: ball, radius: 0.1, mass: 1}\ninitial: {q: {y: 1}}\n"
      "contact: {law: poisson, restitution: 0.5, friction: 0.2, restitutin: 1}\n",
      "bad_text.yaml");
  test::RouthRun run = routh_reading("run -", bad);
  CHECK(run.exit_code == 1);
  CHECK(contains(run.err, "<stdin>:4:58: contact: unknown key 'restitutin'"));
  run = routh_reading("check -", bad);
  CHECK(run.exit_code == 1);
  CHECK(contains(run.err, "<stdin>:4:58: contact: unknown key 'restitutin'"));
  run = routh_reading("run - --set contact.restitution=2", shipped("bouncing_ball"));
  CHECK(run.exit_code == 1);
  CHECK(contains(run.err, "--set contact.restitution=2: contact.restitution = 2: must be in"));
  // standard input is read up to the scenario file's size limit, not for ever
  run = test::run_command(
      cat("head -c 17000000 /dev/zero | '", ROUTH_BINARY, "' run - -o never_written.h5"));
  CHECK(run.exit_code == 1);
  CHECK(contains(run.err, "<stdin>: the scenario text is longer than the limit of 16777216 bytes"));
  CHECK_FALSE(std::filesystem::exists(scratch() / "never_written.h5"));
  // one scenario: a file after "-" is a usage error
  run = routh_reading(cat("run - '", bad, "'"), bad);
  CHECK(run.exit_code == 2);
  CHECK(contains(run.err, "give one scenario file"));
}

TEST_CASE("run -: without a name the output is scenario.h5, check names <stdin>") {
  const std::string nameless = test::write_problem(
      "duration: 0.2\nmodel: {type: ball, radius: 0.1, mass: 1}\ninitial: {q: {y: 1}}\n"
      "contact: {law: poisson, restitution: 0.5, friction: 0}\n",
      "nameless.yaml");
  std::filesystem::remove(scratch() / "scenario.h5");
  const test::RouthRun check = routh_reading("check -", nameless);
  CHECK(check.exit_code == 0);
  CHECK(contains(check.out, "<stdin>: ok (model ball"));
  CHECK(contains(check.out, "output scenario.h5)"));
  const test::RouthRun run = routh_reading("run -", nameless);
  CHECK(run.exit_code == 0);
  CHECK(contains(run.out, "scenario: completed"));
  CHECK(std::filesystem::exists(scratch() / "scenario.h5"));
}

TEST_CASE("run -: record files are relative to the current folder") {
  // rocking_block_record.yaml names motions/synthetic_sines.AT2, beside it in scenarios/
  const std::filesystem::path out = scratch() / "record_text.h5";
  const std::string scenarios = cat(ROUTH_SOURCE_DIR, "/scenarios");
  const std::string arguments = cat("run - -o '", out.string(), "' --force --set duration=0.2 < '",
                                    shipped("rocking_block_record"), "'");
  test::RouthRun run =
      test::run_command(cat("cd '", scenarios, "' && '", ROUTH_BINARY, "' ", arguments));
  CHECK(run.exit_code == 0);
  CHECK(std::filesystem::exists(out));
  // from the scratch folder the same relative name finds nothing
  run = test::run_command(cat("'", ROUTH_BINARY, "' ", arguments));
  CHECK(run.exit_code == 1);
  CHECK(contains(run.err, "<stdin>:"));
  CHECK(contains(run.err, "motions/synthetic_sines.AT2"));
}

}  // namespace
}  // namespace routh
