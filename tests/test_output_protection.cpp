// The output rule of `routh run` and `routh sweep` (sim/recorder/output_placement.hpp,
// docs/output.md "What routh will not overwrite"): the tool never destroys what it did not
// create. Each case below was a way to lose a file before the rule was shared by every command.

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "sim/recorder/output_placement.hpp"
#include "sim/recorder/sweep_table.hpp"
#include "sim/recorder/trajectory_summary.hpp"
#include "sim/simulation/run_guards.hpp"
#include "sim/text.hpp"
#include "support/routh_process.hpp"
#include "support/scratch_files.hpp"

namespace routh {

namespace {

namespace fs = std::filesystem;

using test::scratch;

std::string file_text(const fs::path& path) {
  std::ostringstream text;
  text << std::ifstream(path, std::ios::binary).rdbuf();
  return text.str();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A fresh folder in the scratch folder holding a copy of the shipped bouncing ball as ball.yaml.
fs::path folder_with_ball(const std::string& name) {
  const fs::path folder = scratch() / name;
  fs::remove_all(folder);
  fs::create_directories(folder);
  fs::copy_file(fs::path(ROUTH_SOURCE_DIR) / "scenarios" / "bouncing_ball.yaml",
                folder / "ball.yaml");
  return folder;
}

// `routh ARGUMENTS` run in `folder`.
test::RouthRun routh_in(const fs::path& folder, const std::string& arguments) {
  return test::run_command(cat("cd '", folder.string(), "' && '", ROUTH_BINARY, "' ", arguments));
}

// The names in `folder`, hidden ones too, one a line, sorted.
std::string listing(const fs::path& folder) {
  std::vector<std::string> names;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  std::string text;
  for (const std::string& name : names) text += name + "\n";
  return text;
}

// A two-run sweep of ball.yaml in `folder`, its output block as given.
void write_ball_sweep(const fs::path& folder, const std::string& name, const std::string& output) {
  std::ofstream(folder / name) << "base: ball.yaml\n"
                                  "grid:\n"
                                  "  contact.restitution: [0.5, 0.6]\n"
                               << output;
}

}  // namespace

TEST_CASE(
    "sweep: -o naming its base scenario or its own sweep file is refused, even with --force") {
  // Before: --force removed the named file first, then every run failed on the missing base,
  // and the sweep exited 0 with a table of failures written over the base scenario.
  const fs::path folder = folder_with_ball("sweep_inputs");
  write_ball_sweep(folder, "sweep.yaml", "");
  const std::string base = file_text(folder / "ball.yaml");
  const std::string sweep = file_text(folder / "sweep.yaml");
  const std::string before = listing(folder);
  for (const std::string output : {"ball.yaml", "./sweep.yaml"}) {
    CAPTURE(output);
    const test::RouthRun run = routh_in(folder, cat("sweep sweep.yaml -o ", output, " --force"));
    CHECK(run.exit_code == 1);
    CHECK(contains(run.err, output == "ball.yaml" ? "is the base scenario itself"
                                                  : "is the sweep file itself"));
    CHECK(file_text(folder / "ball.yaml") == base);
    CHECK(file_text(folder / "sweep.yaml") == sweep);
    CHECK(listing(folder) == before);  // no journal, no temporary file
  }
}

TEST_CASE("sweep: the table and its CSV never share a name") {
  // Before: -o x.csv with csv: true made the table and the CSV one file, both written through
  // "x.csv.partial": x.csv was neither, and every --resume failed on it.
  const fs::path folder = folder_with_ball("sweep_csv");
  write_ball_sweep(folder, "sweep.yaml", "output: {csv: true}\n");
  const std::string before = listing(folder);
  const test::RouthRun refused = routh_in(folder, "sweep sweep.yaml -o x.csv");
  CHECK(refused.exit_code == 1);
  CHECK(contains(refused.err, "output file x.csv would be written twice"));
  CHECK(listing(folder) == before);

  const test::RouthRun run = routh_in(folder, "sweep sweep.yaml -o x.h5");
  REQUIRE(run.exit_code == 0);
  CHECK(read_sweep_table(folder / "x.h5").rows.size() == 2);
  CHECK(file_text(folder / "x.csv").starts_with("run,"));
  CHECK(listing(folder) == before + "x.csv\nx.h5\n");  // no temporary file left
}

TEST_CASE("sweep: no file is written under a fixed temporary name a user's file may hold") {
  // Before: the table was written as "FILE.partial" (truncating whatever held that name) and
  // renamed: a user's x.h5.partial was destroyed. Each writer now has a name of its own.
  const fs::path folder = folder_with_ball("sweep_temporary");
  write_ball_sweep(folder, "sweep.yaml", "output: {csv: true}\n");
  std::ofstream(folder / "x.h5.partial") << "a user's file";
  std::ofstream(folder / "x.csv.partial") << "another user's file";
  const test::RouthRun run = routh_in(folder, "sweep sweep.yaml -o x.h5");
  REQUIRE(run.exit_code == 0);
  CHECK(file_text(folder / "x.h5.partial") == "a user's file");
  CHECK(file_text(folder / "x.csv.partial") == "another user's file");
  CHECK(read_sweep_table(folder / "x.h5").rows.size() == 2);
}

TEST_CASE(
    "run: -o naming a FIFO, a device, a directory or a link to one is refused, even with "
    "--force") {
  // Before: with --force, the rename at the end replaced a FIFO or a device node (`-o /dev/null`
  // as root) by a regular file.
  const fs::path folder = folder_with_ball("run_special");
  REQUIRE(::mkfifo((folder / "fifo.h5").c_str(), 0644) == 0);
  fs::create_directory(folder / "folder.h5");
  fs::create_symlink("fifo.h5", folder / "link_to_fifo.h5");
  std::vector<std::string> outputs = {"fifo.h5", "folder.h5", "link_to_fifo.h5"};
  // a device node of its own (the null device's numbers) where the test may make one (root)
  if (::mknod((folder / "null.h5").c_str(), S_IFCHR | 0666, ::makedev(1, 3)) == 0) {
    outputs.push_back("null.h5");
  } else {
    MESSAGE("no device node without CAP_MKNOD: the device case is left out");
  }
  for (const std::string& output : outputs) {
    CAPTURE(output);
    const std::string before = listing(folder);
    const test::RouthRun run = routh_in(folder, cat("run ball.yaml -o ", output, " --force"));
    CHECK(run.exit_code == 1);
    CHECK(contains(run.err, "routh writes only regular files, even with --force"));
    CHECK(listing(folder) == before);  // refused before the run: no temporary file
  }
  struct stat status {};
  REQUIRE(::lstat((folder / "fifo.h5").c_str(), &status) == 0);
  CHECK(S_ISFIFO(status.st_mode));
  CHECK(fs::is_symlink(folder / "link_to_fifo.h5"));
  CHECK(fs::is_directory(folder / "folder.h5"));
  if (outputs.size() == 4) {
    REQUIRE(::lstat((folder / "null.h5").c_str(), &status) == 0);
    CHECK(S_ISCHR(status.st_mode));
  }
}

TEST_CASE(
    "sweep: a second sweep naming the output of a running one is refused, whatever its flags") {
  // Before: --force removed the running sweep's journal and started its own beside it, and
  // --resume appended its rows to the journal the first was writing.
  const fs::path folder = folder_with_ball("sweep_running");
  std::ofstream(folder / "sweep.yaml")
      << "base: ball.yaml\n"
         "grid: {contact.restitution: [1.0], duration: [1e7], output.rate: [1]}\n";  // until
                                                                                     // stopped
  test::run_command(cat("cd '", folder.string(), "' && ('", ROUTH_BINARY,
                        "' sweep sweep.yaml -o x.h5 --jobs 1 >/dev/null 2>&1 & echo $! > pid)"));
  const pid_t first = std::stoi(file_text(folder / "pid"));
  for (int i = 0; i < 500 && !fs::exists(folder / "x.h5.journal"); ++i) ::usleep(10'000);
  REQUIRE(fs::exists(folder / "x.h5.journal"));
  for (const std::string flag : {"--force", "--resume"}) {
    CAPTURE(flag);
    // bounded: a second sweep that is not refused runs as long as the first
    const test::RouthRun second =
        test::run_command(cat("cd '", folder.string(), "' && timeout 20 '", ROUTH_BINARY,
                              "' sweep sweep.yaml -o x.h5 ", flag));
    CHECK(second.exit_code == 23);  // the output is in use (docs/sweeps.md)
    CHECK(contains(second.err, "x.h5.journal is being written by another routh process"));
  }
  REQUIRE(::kill(first, SIGTERM) == 0);
  for (int i = 0; i < 1000 && ::kill(first, 0) == 0; ++i) ::usleep(10'000);
  CHECK(::kill(first, 0) != 0);  // stopped cleanly, its table written
  CHECK(fs::exists(folder / "x.h5"));
}

TEST_CASE("run: -o naming a record file the scenario reads is refused, even with --force") {
  // Before: only the scenario file itself was compared with the output.
  const fs::path folder = folder_with_ball("run_record");
  fs::copy_file(fs::path(ROUTH_SOURCE_DIR) / "scenarios" / "motions" / "synthetic_sines.AT2",
                folder / "ground.AT2");
  std::ofstream(folder / "shaken.yaml")
      << "duration: 0.5\n"
         "model: {type: rocking_block, width: 0.2, height: 1.0, mass: 1.0}\n"
         "initial: {q: {theta: 0}}\n"
         "contact: {law: poisson, restitution: 0.0, friction: 0.7}\n"
         "excitation:\n"
         "  - record: {file: ground.AT2, direction: x}\n";
  const std::string record = file_text(folder / "ground.AT2");
  const test::RouthRun run = routh_in(folder, "run shaken.yaml -o ./ground.AT2 --force");
  CHECK(run.exit_code == 1);
  CHECK(contains(run.err, "output file ./ground.AT2 is the record file "));
  CHECK(file_text(folder / "ground.AT2") == record);
}

TEST_CASE("run: a symbolic link as -o is replaced with --force, never followed") {
  const fs::path folder = folder_with_ball("run_link");
  std::ofstream(folder / "precious.txt") << "precious";
  fs::create_symlink("precious.txt", folder / "link.h5");
  const test::RouthRun refused = routh_in(folder, "run ball.yaml -o link.h5");
  CHECK(refused.exit_code == 1);
  CHECK(contains(refused.err, "output file link.h5 is a symbolic link; use --force"));
  CHECK(fs::is_symlink(folder / "link.h5"));
  const test::RouthRun forced = routh_in(folder, "run ball.yaml -o link.h5 --force");
  CHECK(forced.exit_code == 0);
  CHECK(!fs::is_symlink(folder / "link.h5"));
  CHECK(summarize_trajectory(folder / "link.h5").sample_count > 0);
  CHECK(file_text(folder / "precious.txt") == "precious");
}

TEST_CASE("output rule: every temporary name is a name of its own") {
  // two writers in one process (two routh.run calls on threads) never share a temporary file
  const fs::path target = scratch() / "same.h5";
  const fs::path first = temporary_path(target);
  const fs::path second = temporary_path(target);
  CHECK(first != second);
  CHECK(first.parent_path() == target.parent_path());  // beside it: the rename is atomic
  CHECK(first.filename().string().starts_with(cat(".same.h5.tmp-", ::getpid(), "-")));
}

TEST_CASE("run: --time-limit takes any number of seconds > 0, inf is no limit") {
  // Before: 1e10 s or more overflowed the deadline into the past and stopped the run at t = 0.
  for (const double seconds : {1e10, 1e19, 1e308, std::numeric_limits<double>::infinity()}) {
    CAPTURE(seconds);
    CHECK(!WallClockLimit(seconds).reached());
  }
  const WallClockLimit short_limit(1e-3);
  ::usleep(5000);
  CHECK(short_limit.reached());  // a small limit still stops the run
  const fs::path folder = folder_with_ball("time_limit");
  for (const std::string limit : {"1e10", "1e308", "inf"}) {
    CAPTURE(limit);
    const test::RouthRun run =
        routh_in(folder, cat("run ball.yaml -o out.h5 --force --time-limit ", limit));
    CHECK(run.exit_code == 0);
    CHECK(summarize_trajectory(folder / "out.h5").status == "completed");
  }
  for (const std::string limit : {"0", "-1", "nan"}) {
    CAPTURE(limit);
    const test::RouthRun run =
        routh_in(folder, cat("run ball.yaml -o out.h5 --force --time-limit ", limit));
    CHECK(run.exit_code == 2);
    CHECK(contains(run.err, "expected a number of seconds > 0"));
  }
}

}  // namespace routh
