// `routh check` end to end (tools/routh/check_command.cpp): a good scenario is "ok" with exit 0,
// every kind of mistake exits 1 with the message `routh run` prints for it (file:line:column and
// what was expected), and neither writes or touches a file: each check runs in a fresh folder
// that holds the scenario, whose listing (names, sizes, modification times) must not change.

#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/text.hpp"
#include "support/ball_scenario.hpp"
#include "support/routh_process.hpp"
#include "support/scratch_files.hpp"

namespace routh {
namespace {

namespace fs = std::filesystem;

using test::scratch;

using test::kBall;  // its output would be ball.h5 in the current folder

const std::string kBallOk =
    "scenario.yaml: ok (model ball, law poisson, multi-contact law multipoint_energetic, "
    "3 coordinates, 1 contact, output ball.h5)\n";

// kBall with `from` replaced by `to`.
std::string ball_with(const std::string& from, const std::string& to) {
  std::string text = kBall;
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

// An empty folder in the scratch folder (routh's stdout and stderr are captured outside it).
fs::path fresh_folder(const std::string& name) {
  const fs::path folder = scratch() / name;
  fs::remove_all(folder);
  fs::create_directories(folder);
  return folder;
}

void write_file(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

// Every file and folder under `folder`: its size (0 for a folder) and modification time.
using Listing = std::map<std::string, std::pair<std::uintmax_t, fs::file_time_type>>;
Listing listing(const fs::path& folder) {
  Listing files;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    files[fs::relative(entry.path(), folder).string()] = {
        entry.is_regular_file() ? entry.file_size() : 0, entry.last_write_time()};
  }
  return files;
}

// Runs `routh ARGUMENTS` with `folder` as the current folder.
test::RouthRun routh_in(const fs::path& folder, const std::string& arguments) {
  return test::run_command(cat("cd '", folder.string(), "' && '", ROUTH_BINARY, "' ", arguments));
}

struct Mistake {
  std::string what;
  std::string text;       ///< scenario.yaml
  std::string arguments;  ///< after the scenario file
  std::string error;      ///< all of stderr, but its newline
};

}  // namespace

TEST_CASE("check: a good scenario is ok, exits 0 and writes nothing, not even with -o") {
  const fs::path folder = fresh_folder("check_good");
  write_file(folder / "scenario.yaml", kBall);
  const Listing before = listing(folder);
  test::RouthRun check = routh_in(folder, "check scenario.yaml");
  CHECK(check.exit_code == 0);
  CHECK(check.out == kBallOk);
  CHECK(check.err.empty());
  CHECK(listing(folder) == before);

  check = routh_in(folder, "check scenario.yaml -o out.h5 --set duration=2");
  CHECK(check.exit_code == 0);
  CHECK(check.out ==
        "scenario.yaml: ok (model ball, law poisson, multi-contact law "
        "multipoint_energetic, 3 coordinates, 1 contact, output out.h5)\n");
  CHECK(listing(folder) == before);  // no out.h5, no .out.h5.tmp-PID

  // a warning is printed as run prints it, and the scenario is still ok
  write_file(folder / "scenario.yaml",
             ball_with("friction: 0.5", "friction: {static: 0.3, kinetic: 0.5}"));
  const Listing warned = listing(folder);
  check = routh_in(folder, "check scenario.yaml");
  CHECK(check.exit_code == 0);
  CHECK(check.out == kBallOk);
  CHECK(check.err ==
        "scenario.yaml:9:36: warning: contact.friction.kinetic = 0.5: exceeds static friction "
        "0.3; sticking then persists whenever either coefficient could hold it\n");
  CHECK(listing(folder) == warned);

  // a warning an override caused names the override, not a line past the file's end
  write_file(folder / "scenario.yaml", kBall);
  check =
      routh_in(folder, "check scenario.yaml --set 'contact.friction={static: 0.3, kinetic: 0.5}'");
  CHECK(check.exit_code == 0);
  CHECK(check.err ==
        "--set contact.friction={static: 0.3, kinetic: 0.5}: warning: contact.friction.kinetic = "
        "0.5: exceeds static friction 0.3; sticking then persists whenever either coefficient "
        "could hold it\n");
}

TEST_CASE("check: every shipped scenario is ok, records read, and nothing is written") {
  const fs::path folder = fresh_folder("check_shipped");
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(cat(ROUTH_SOURCE_DIR, "/scenarios"))) {
    if (entry.path().extension() != ".yaml") continue;
    CAPTURE(entry.path());
    const test::RouthRun check = routh_in(folder, cat("check '", entry.path().string(), "'"));
    CHECK(check.exit_code == 0);
    CHECK(check.out.starts_with(cat(entry.path().string(), ": ok (model ")));
    CHECK(check.err.empty());
    ++checked;
  }
  CHECK(checked >= 14);
  CHECK(listing(folder).empty());  // no <name>.h5 in the current folder
}

TEST_CASE("check: each kind of mistake exits 1 with run's located message and writes nothing") {
  const std::vector<Mistake> mistakes = {
      {"unknown key", kBall + "  restitutin: 0.5\n", "",
       "scenario.yaml:10:3: contact: unknown key 'restitutin'; did you mean 'restitution'?"},
      {"duplicate key", kBall + "duration: 2\n", "",
       "scenario.yaml:10:1: duplicate key 'duration' (first at line 2)"},
      {"text for a number", ball_with("mass: 1}", "mass: heavy}"), "",
       "scenario.yaml:3:40: model.mass = heavy: must be a number"},
      {"negative mass", ball_with("mass: 1}", "mass: -1}"), "",
       "scenario.yaml:3:40: model.mass = -1: must be in [1e-09, 1000000000] kg"},
      {"negative friction", ball_with("friction: 0.5", "friction: -0.5"), "",
       "scenario.yaml:9:13: contact.friction = -0.5: must be >= 0"},
      {"a law for spatial contacts", ball_with("law: poisson", "law: park"), "",
       "scenario.yaml:7:8: contact.law = park: this law takes spatial, one contact; the model's "
       "planar contacts need one of: newton, newton_routh, poisson, energetic, "
       "multipoint_energetic, lcp, rocking, rocking_over_housner"},
      {"a single-contact law for simultaneous impacts", kBall + "  multi_contact_law: energetic\n",
       "",
       "scenario.yaml:10:22: contact.multi_contact_law = energetic: this law takes planar, one "
       "contact; simultaneous impacts at several planar contacts need one of: "
       "multipoint_energetic, lcp, rocking, rocking_over_housner (or none)"},
      {"a second document", kBall + "---\nduration: 2\n", "",
       "scenario.yaml:10:1: a second YAML document starts here: the file must hold exactly one"},
      {"a bad value in a record file",
       kBall + "excitation: {record: {file: word.csv, direction: x}}\n", "",
       "word.csv:3:6: expected an acceleration, found 'one'"},
      {"an override out of range", kBall, "--set model.mass=-1",
       "--set model.mass=-1: model.mass = -1: must be in [1e-09, 1000000000] kg"},
      {"an override of a key that is no list", kBall, "--set duration.0=2",
       "--set duration.0=2: 'duration' is not a map: it cannot hold '0'"},
      {"a bad value, with -o", ball_with("mass: 1}", "mass: -1}"), "-o out.h5",
       "scenario.yaml:3:40: model.mass = -1: must be in [1e-09, 1000000000] kg"},
  };
  for (std::size_t i = 0; i < mistakes.size(); ++i) {
    const Mistake& mistake = mistakes[i];
    CAPTURE(mistake.what);
    const fs::path folder = fresh_folder(cat("check_mistake_", i));
    write_file(folder / "scenario.yaml", mistake.text);
    write_file(folder / "word.csv", "t,a\n0,1\n0.01,one\n");
    const Listing before = listing(folder);
    const test::RouthRun check = routh_in(folder, "check scenario.yaml " + mistake.arguments);
    CHECK(check.exit_code == 1);
    CHECK(check.out.empty());
    CHECK(check.err == mistake.error + "\n");
    CHECK(listing(folder) == before);
    // word for word what run says, where run stops before it writes too
    const test::RouthRun run = routh_in(folder, "run scenario.yaml " + mistake.arguments);
    CHECK(run.exit_code == 1);
    CHECK(run.err == check.err);
    CHECK(listing(folder) == before);
  }
}

TEST_CASE("check: the output file is checked as run checks it, and left alone") {
  const fs::path folder = fresh_folder("check_output");
  write_file(folder / "scenario.yaml", kBall);
  write_file(folder / "ball.h5", "a previous run's file");
  const Listing before = listing(folder);
  // check writes nothing: an existing output is a note for the run, not a mistake
  test::RouthRun check = routh_in(folder, "check scenario.yaml");
  CHECK(check.exit_code == 0);
  CHECK(check.out == kBallOk);
  CHECK(check.err ==
        "scenario.yaml: note: output file ball.h5 already exists: `routh run` replaces it only "
        "with --force\n");
  const test::RouthRun run = routh_in(folder, "run scenario.yaml");
  CHECK(run.exit_code == 1);
  CHECK(run.err ==
        "routh run: scenario.yaml: output file ball.h5 already exists; use --force to "
        "overwrite it\n");
  check = routh_in(folder, "check scenario.yaml --force");
  CHECK(check.exit_code == 0);
  CHECK(check.out == kBallOk);
  CHECK(check.err.empty());
  check = routh_in(folder, "check scenario.yaml -o scenario.yaml --force");
  CHECK(check.exit_code == 1);
  CHECK(check.err ==
        "routh check: scenario.yaml: output file scenario.yaml is the scenario file itself; "
        "choose another output file\n");
  check = routh_in(folder, "check scenario.yaml -o missing/ball.h5");
  CHECK(check.exit_code == 1);
  CHECK(check.err ==
        "routh check: scenario.yaml: output file missing/ball.h5: the folder missing does not "
        "exist\n");
  CHECK(listing(folder) == before);
}

TEST_CASE("check: usage errors exit 2, --help exits 0") {
  const fs::path folder = fresh_folder("check_usage");
  write_file(folder / "scenario.yaml", kBall);
  for (const char* arguments :
       {"check", "check scenario.yaml other.yaml", "check scenario.yaml --time-limit 3",
        "check scenario.yaml --set"}) {
    CAPTURE(arguments);
    const test::RouthRun check = routh_in(folder, arguments);
    CHECK(check.exit_code == 2);
    CHECK(check.err.starts_with("routh check: "));
    CHECK(check.err.find("usage: routh check SCENARIO.yaml") != std::string::npos);
  }
  const test::RouthRun help = routh_in(folder, "check --help");
  CHECK(help.exit_code == 0);
  CHECK(help.out.starts_with("usage: routh check SCENARIO.yaml"));
  CHECK(routh_in(folder, "--help").out.find("\n  check ") != std::string::npos);
}

}  // namespace routh
