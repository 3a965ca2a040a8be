// `routh run` end to end (tools/routh/run_command.cpp): a shipped scenario becomes an HDF5
// trajectory with its impacts and rest, --set overrides reach the file, bad input and bad usage
// get their exit codes, and SIGINT stops a long run with a valid file ending in `interrupted`;
// plus the simulator's own stop-request polling, in process.

#include <doctest/doctest.h>
#include <hdf5.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "sim/recorder/trajectory_recorder.hpp"
#include "sim/recorder/trajectory_summary.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/scenario/scenario_run.hpp"
#include "sim/simulation/run_status.hpp"
#include "sim/simulation/stop_request.hpp"
#include "sim/text.hpp"
#include "support/routh_process.hpp"
#include "support/scratch_files.hpp"
#include "support/trajectory_memory.hpp"

namespace routh {
namespace {

using test::scratch;

std::string shipped(const std::string& name) {
  return cat(ROUTH_SOURCE_DIR, "/scenarios/", name, ".yaml");
}

using Run = test::RouthRun;

constexpr int cli_output_error_code = 20;  // tools/routh/command.hpp kExitOutputError

// Runs `routh run ARGUMENTS`.
Run run_routh(const std::string& arguments) { return test::run_routh("run " + arguments); }

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::int64_t count_of(const TrajectorySummary& summary, const std::string& kind) {
  for (const auto& [name, count] : summary.events_by_kind) {
    if (name == kind) return count;
  }
  return 0;
}

// The `kind` column of /events, in order (HDF5 reads one member of the compound by name).
std::vector<std::string> event_kinds(const std::filesystem::path& path) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(file >= 0);
  const hid_t dataset = H5Dopen2(file, "/events", H5P_DEFAULT);
  REQUIRE(dataset >= 0);
  const hid_t space = H5Dget_space(dataset);
  const hssize_t rows = H5Sget_simple_extent_npoints(space);
  const hid_t text = H5Tcopy(H5T_C_S1);
  H5Tset_size(text, H5T_VARIABLE);
  H5Tset_cset(text, H5T_CSET_UTF8);
  const hid_t row_type = H5Tcreate(H5T_COMPOUND, sizeof(char*));
  H5Tinsert(row_type, "kind", 0, text);
  std::vector<char*> kinds(static_cast<std::size_t>(rows), nullptr);
  std::vector<std::string> result;
  if (rows > 0) {
    REQUIRE(H5Dread(dataset, row_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, kinds.data()) >= 0);
    for (char* kind : kinds) result.emplace_back(kind);
    H5Dvlen_reclaim(row_type, space, H5P_DEFAULT, kinds.data());
  }
  H5Tclose(row_type);
  H5Tclose(text);
  H5Sclose(space);
  H5Dclose(dataset);
  H5Fclose(file);
  return result;
}

// The /scenario text.
std::string scenario_text(const std::filesystem::path& path) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(file >= 0);
  const hid_t dataset = H5Dopen2(file, "/scenario", H5P_DEFAULT);
  REQUIRE(dataset >= 0);
  const hid_t text = H5Tcopy(H5T_C_S1);
  H5Tset_size(text, H5T_VARIABLE);
  H5Tset_cset(text, H5T_CSET_UTF8);
  const hid_t space = H5Dget_space(dataset);
  char* value = nullptr;
  REQUIRE(H5Dread(dataset, text, H5S_ALL, H5S_ALL, H5P_DEFAULT, &value) >= 0);
  std::string result = value != nullptr ? value : "";
  H5Dvlen_reclaim(text, space, H5P_DEFAULT, &value);
  H5Sclose(space);
  H5Tclose(text);
  H5Dclose(dataset);
  H5Fclose(file);
  return result;
}

std::string file_text(const std::filesystem::path& path) {
  std::ostringstream text;
  text << std::ifstream(path).rdbuf();
  return text.str();
}

// Starts `routh run ARGUMENTS...` as a child with stdout and stderr to files in the scratch
// folder; `limit_bytes` > 0 caps the size of any file it writes (test::RouthChild).
pid_t start_routh_run(std::vector<std::string> arguments, long limit_bytes = 0,
                      bool file_size_signal = false) {
  arguments.insert(arguments.begin(), "run");
  return test::start_routh(arguments, {.out = "child_stdout.txt",
                                       .err = "child_stderr.txt",
                                       .file_size_limit = limit_bytes,
                                       .file_size_signal = file_size_signal});
}

int exit_status_of(pid_t child) {
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  return WEXITSTATUS(status);
}

}  // namespace

TEST_CASE("run: an existing output file is kept without --force and replaced with it") {
  const std::filesystem::path out = scratch() / "existing.h5";
  std::ofstream(out) << "a previous run's file";
  const std::string command = cat("'", shipped("bouncing_ball"), "' -o '", out.string(), "'");
  const Run refused = run_routh(command);
  CHECK(refused.exit_code == 1);
  CHECK(contains(refused.err, cat("output file ", out.string(), " already exists")));
  CHECK(contains(refused.err, "--force"));
  CHECK(file_text(out) == "a previous run's file");
  CHECK(test::temporary_files(scratch(), "existing.h5")
            .empty());  // refused before anything is written

  const Run forced = run_routh(command + " --force");
  CHECK(forced.exit_code == 0);
  CHECK(summarize_trajectory(out).sample_count > 0);
  CHECK(test::temporary_files(scratch(), "existing.h5").empty());  // renamed onto the target
}

TEST_CASE("run: -o naming the scenario file itself is refused, even with --force") {
  const std::filesystem::path folder = scratch() / "self";
  std::filesystem::create_directories(folder);
  const std::filesystem::path scenario = folder / "ball.yaml";
  std::filesystem::copy_file(shipped("bouncing_ball"), scenario,
                             std::filesystem::copy_options::overwrite_existing);
  const std::string original = file_text(scenario);
  // the same file by another spelling and by a hard link: same device and inode
  const std::filesystem::path linked = folder / "ball_link.h5";
  std::filesystem::remove(linked);
  std::filesystem::create_hard_link(scenario, linked);
  for (const std::filesystem::path& output : {folder / ".." / "self" / "ball.yaml", linked}) {
    CAPTURE(output);
    const Run run = run_routh(cat("'", scenario.string(), "' -o '", output.string(), "' --force"));
    CHECK(run.exit_code == 1);
    CHECK(contains(run.err, "is the scenario file itself"));
    CHECK(file_text(scenario) == original);
  }
}

TEST_CASE("run: a target that appears during the run is left alone, the run keeps its own") {
  const std::filesystem::path out = scratch() / "appeared.h5";
  std::filesystem::remove(out);
  const pid_t child = start_routh_run({shipped("bouncing_ball"), "-o", out.string(), "--set",
                                       "duration=1000", "--set", "integrator.max_step=1e-4"});
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  std::ofstream(out) << "another run's file";
  REQUIRE(test::wait_until_catching(child, SIGINT));
  REQUIRE(::kill(child, SIGINT) == 0);
  CHECK(exit_status_of(child) == cli_output_error_code);
  CHECK(file_text(out) == "another run's file");
  const std::string err = file_text(scratch() / "child_stderr.txt");
  CHECK(contains(err, "appeared while the run was writing"));
  const std::vector<std::string> kept = test::temporary_files(scratch(), "appeared.h5");
  REQUIRE(kept.size() == 1);
  CHECK(contains(err, kept.front()));
  const TrajectorySummary summary = summarize_trajectory(scratch() / kept.front());
  CHECK(summary.status == "interrupted");
  CHECK(count_of(summary, "interrupted") == 1);
  std::filesystem::remove(scratch() / kept.front());
}

TEST_CASE("run: a full disk ends the run with a clear error and a readable prefix") {
  // 1 MB per file (RLIMIT_FSIZE): the ball's 10⁶ samples need 48 MB
  const std::filesystem::path out = scratch() / "full.h5";
  std::filesystem::remove(out);
  const pid_t child = start_routh_run({shipped("bouncing_ball"), "-o", out.string(), "--set",
                                       "duration=1000", "--set", "output.rate=1000"},
                                      1'000'000);
  CHECK(exit_status_of(child) == cli_output_error_code);  // not a crash inside HDF5
  const std::string err = file_text(scratch() / "child_stderr.txt");
  CHECK(contains(err, "File too large"));  // EFBIG; ENOSPC reads "No space left on device"
  CHECK(err.find("HDF5-DIAG") == std::string::npos);  // no HDF5 error stack on stderr
  CHECK(!std::filesystem::exists(out));
  const std::vector<std::string> kept = test::temporary_files(scratch(), "full.h5");
  REQUIRE(kept.size() == 1);
  CHECK(contains(err, kept.front()));
  const TrajectorySummary summary = summarize_trajectory(scratch() / kept.front());
  MESSAGE("a 1 MB file kept ", summary.sample_count, " samples up to t = ", summary.t_last);
  CHECK(summary.sample_count > 0);
  CHECK(summary.warnings.empty());
  CHECK(summary.status == kUnfinishedRunStatus);
  std::filesystem::remove(scratch() / kept.front());
}

TEST_CASE("run: a file-size limit ends the run with exit 20, not SIGXFSZ, and a readable file") {
  // SIGXFSZ at its default action (a plain shell's `ulimit -f`): routh used to die of it inside
  // its own posix_fallocate, leaving a temporary file that was not a trajectory
  const std::filesystem::path out = scratch() / "ulimit.h5";
  std::filesystem::remove(out);
  const pid_t child = start_routh_run({shipped("rocking_block"), "-o", out.string(), "--set",
                                       "duration=200", "--set", "output.rate=10000"},
                                      1'000'000, true);
  CHECK(exit_status_of(child) == cli_output_error_code);
  CHECK(contains(file_text(scratch() / "child_stderr.txt"), "File too large"));
  const std::vector<std::string> kept = test::temporary_files(scratch(), "ulimit.h5");
  REQUIRE(kept.size() == 1);
  const TrajectorySummary summary = summarize_trajectory(scratch() / kept.front());
  CHECK(summary.sample_count > 0);
  CHECK(summary.status == kUnfinishedRunStatus);
  std::filesystem::remove(scratch() / kept.front());
}

TEST_CASE("run: an output folder removed during the run is an output error saying what is lost") {
  // routh used to exit 1 saying the trajectory was kept in a temporary file that had gone with
  // its folder
  const std::filesystem::path folder = scratch() / "vanishing";
  std::filesystem::create_directories(folder);
  const pid_t child =
      start_routh_run({shipped("bouncing_ball"), "-o", (folder / "x.h5").string(), "--set",
                       "duration=1000", "--set", "integrator.max_step=1e-4"});
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  // until the temporary file has grown past its header (a flush, one second in): the run is
  // under way, writing there, and no longer creating the file
  std::uintmax_t header_bytes = 0;
  const auto flushed = [&] {
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
      if (header_bytes == 0) header_bytes = entry.file_size();
      return header_bytes > 0 && entry.file_size() > header_bytes;
    }
    return false;
  };
  while (!flushed() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  REQUIRE(test::wait_until_catching(child, SIGINT));
  std::filesystem::remove_all(folder);
  ::kill(child, SIGINT);
  const int code = exit_status_of(child);
  const std::string err = file_text(scratch() / "child_stderr.txt");
  INFO(err);
  CHECK(code == cli_output_error_code);
  CHECK(contains(err, "No such file or directory"));
  CHECK(contains(err, "what was written is lost"));
  CHECK(!contains(err, "is kept in"));
}

TEST_CASE("run: --summary prints one JSON line equal to the file's /summary") {
  const std::filesystem::path out = scratch() / "summary_json.h5";
  std::filesystem::remove(out);
  const Run run = run_routh(
      cat("'", shipped("rocking_block"), "' -o '", out.string(), "' --summary --set duration=2"));
  CHECK(run.exit_code == 0);
  CHECK(std::count(run.out.begin(), run.out.end(), '\n') == 1);
  // Python's json module reads the line (a check independent of routh's writer) and prints every
  // member as "name repr(value)"; null (an event that did not happen) as nan.
  const std::filesystem::path json = scratch() / "summary.json";
  std::ofstream(json) << run.out;
  const std::filesystem::path listed = scratch() / "summary.txt";
  const std::string python =
      cat("python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); "
          "[print(k, \"nan\" if v is None else repr(v)) for k, v in d.items()]' '",
          json.string(), "' > '", listed.string(), "'");
  REQUIRE(std::system(python.c_str()) == 0);
  std::map<std::string, std::string> members;
  std::istringstream lines(file_text(listed));
  for (std::string name, value; lines >> name >> value;) members[name] = value;
  CHECK(members["status"] == "'completed'");
  const TrajectorySummary summary = summarize_trajectory(out);
  REQUIRE(!summary.outcome.empty());
  for (const auto& [name, value] : summary.outcome) {
    CAPTURE(name);
    REQUIRE(members.count(name) == 1);
    const double printed = std::stod(members[name]);
    if (std::isnan(value)) {
      CHECK(std::isnan(printed));
    } else {
      CHECK(printed == value);
    }
  }
  CHECK(std::stod(members["final_time"]) == summary.t_last);
}

TEST_CASE("run: bouncing_ball.yaml becomes a trajectory file with its impacts and rest") {
  const std::filesystem::path out = scratch() / "ball_run.h5";
  const Run run = run_routh(cat("'", shipped("bouncing_ball"), "' -o '", out.string(), "'"));
  CHECK(run.exit_code == 0);
  CHECK(contains(run.out, "bouncing_ball: completed"));
  CHECK(contains(run.out, cat("output       ", out.string())));
  // the report of the written file: the ball bounces to rest without a flag
  CHECK(contains(run.out, "flags        none\n"));
  CHECK(contains(run.out, "events       "));
  CHECK(run.err.empty());  // not a terminal: no progress line
  const TrajectorySummary summary = summarize_trajectory(out);
  CHECK(summary.law == "poisson");
  CHECK(summary.t_last == doctest::Approx(10.0));
  CHECK(summary.coordinate_names == std::vector<std::string>{"x", "y", "theta"});
  CHECK(summary.contact_names == std::vector<std::string>{"floor"});
  CHECK(count_of(summary, "impact") > 20);
  CHECK(count_of(summary, "rest") == 1);
  CHECK(summary.max_energy_rise < 1e-9);
  CHECK(summary.warnings.empty());
  CHECK(summary.status == "completed");
  CHECK(summary.status_detail.empty());
  // /scenario holds the effective scenario, defaults filled in and the output file as run
  const std::string text = scenario_text(out);
  CHECK(contains(text, "name: bouncing_ball"));
  CHECK(contains(text, "stepper: dopri5"));
  CHECK(contains(text, cat("file: ", out.string())));
}

TEST_CASE("run: --time-limit takes seconds of wall-clock time, routh info shows the status") {
  const std::filesystem::path out = scratch() / "ball_limited.h5";
  const Run run = run_routh(cat("'", shipped("bouncing_ball"), "' -o '", out.string(),
                                "' --set duration=1 --time-limit 600"));
  CHECK(run.exit_code == 0);
  const Run info = test::run_routh(cat("info '", out.string(), "'"));
  CHECK(info.exit_code == 0);
  CHECK(contains(info.out, "\nstatus       completed\n"));
  for (const char* bad : {"0", "-1", "abc", "nan", "1s"}) {  // inf is no limit: accepted
    CAPTURE(bad);
    const Run usage = run_routh(cat("'", shipped("bouncing_ball"), "' --time-limit ", bad));
    CHECK(usage.exit_code == 2);
    CHECK(contains(usage.err, cat("--time-limit ", bad, ": expected a number of seconds > 0")));
  }
}

TEST_CASE("run: a run stopped by --time-limit exits 3 and its file says time_limit") {
  // an elastic ball bouncing for 1e6 s cannot finish in 0.2 s
  const std::filesystem::path out = scratch() / "ball_time_limit.h5";
  const Run run =
      run_routh(cat("'", shipped("bouncing_ball"), "' -o '", out.string(),
                    "' --set duration=1e6 --set contact.restitution=1 --set output.rate=1"
                    " --time-limit 0.2"));
  CHECK(run.exit_code == exit_code(RunStatus::time_limit));
  CHECK(contains(run.err, "time_limit"));
  const TrajectorySummary summary = summarize_trajectory(out);
  CHECK(summary.warnings.empty());
  CHECK(summary.status == "time_limit");
  CHECK(summary.t_last > 0.0);
  CHECK(summary.t_last < 1e6);
}

TEST_CASE("run: a model without contacts records an empty contact list") {
  // a chain has no obstacle unless given one; writing its empty contact_names failed before
  // ("cannot write attribute contact_names: null attribute buffer")
  const std::string scenario = test::write_problem(
      "duration: 0.1\nmodel: {type: chain, links: 2, length: 1, mass: 1}\n"
      "initial: {q: [0.3, 0.2]}\ncontact: {law: poisson, restitution: 0, friction: 0}\n",
      "free_chain.yaml");
  const std::filesystem::path out = scratch() / "free_chain.h5";
  const Run run = run_routh(cat("'", scenario, "' -o '", out.string(), "'"));
  CHECK(run.exit_code == 0);
  CHECK(run.err.empty());
  const TrajectorySummary summary = summarize_trajectory(out);
  CHECK(summary.contact_names.empty());
  CHECK(summary.status == "completed");
  CHECK(summary.t_last == doctest::Approx(0.1));
}

TEST_CASE("run: the default output is <name>.h5 in the current folder") {
  std::filesystem::remove(scratch() / "sliding_block.h5");
  const Run run = run_routh(cat("'", shipped("sliding_block"), "'"));
  CHECK(run.exit_code == 0);
  CHECK(std::filesystem::exists(scratch() / "sliding_block.h5"));
  const TrajectorySummary summary = summarize_trajectory(scratch() / "sliding_block.h5");
  CHECK(count_of(summary, "stick") == 1);
}

TEST_CASE("run: --set overrides contact.restitution and duration") {
  const std::filesystem::path out = scratch() / "ball_set.h5";
  const Run run = run_routh(cat("'", shipped("bouncing_ball"), "' -o '", out.string(),
                                "' --set duration=2 --set contact.restitution=0.5"));
  CHECK(run.exit_code == 0);
  const TrajectorySummary summary = summarize_trajectory(out);
  CHECK(summary.t_last == doctest::Approx(2.0));
  // e = 0.5: impacts accumulate at √(2/g) (1 + 2·0.5/0.5) = 1.35 s, before the 2 s end
  CHECK(count_of(summary, "rest") == 1);
  const std::string text = scenario_text(out);
  CHECK(contains(text, "duration: 2\n"));
  CHECK(contains(text, "restitution: 0.5\n"));
}

TEST_CASE("run: bad input exits 1 naming file:line:column or the override, usage exits 2") {
  const std::string bad = test::write_problem(
      "duration: 1\nmodel: {type: ball, radius: 0.1, mass: 1}\ninitial: {q: {y: 1}}\n"
      "contact: {law: poisson, restitution: 0.5, friction: 0.2, restitutin: 1}\n",
      "bad.yaml");
  Run run = run_routh(cat("'", bad, "'"));
  CHECK(run.exit_code == 1);
  CHECK(contains(run.err, "bad.yaml:4:58: contact: unknown key 'restitutin'"));
  run = run_routh(cat("'", shipped("bouncing_ball"), "' --set contact.restitution=2"));
  CHECK(run.exit_code == 1);
  CHECK(contains(run.err, "--set contact.restitution=2: contact.restitution = 2: must be in"));
  run = run_routh(cat("'", shipped("bouncing_ball"), "' --set model.type=bal"));
  CHECK(run.exit_code == 1);
  CHECK(contains(run.err, "did you mean 'ball'?"));
  run = run_routh("");
  CHECK(run.exit_code == 2);
  CHECK(contains(run.err, "missing the scenario file"));
  run = run_routh(cat("'", shipped("bouncing_ball"), "' --set duration"));
  CHECK(run.exit_code == 2);
  run = run_routh(cat("'", shipped("bouncing_ball"), "' --frobnicate"));
  CHECK(run.exit_code == 2);
  run = run_routh("--help");
  CHECK(run.exit_code == 0);
  CHECK(contains(run.out, "usage: routh run"));
}

TEST_CASE("run: SIGINT stops a long run and leaves a valid file ending in 'interrupted'") {
  // The ball comes to rest at 8.6 s and then rests for 1000 s in 1e-4 s steps: far longer than
  // the 0.3 s before the signal.
  const std::filesystem::path out = scratch() / "interrupted.h5";
  std::filesystem::remove(out);
  const std::string scenario = shipped("bouncing_ball");
  const std::string output = out.string();
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    std::freopen("/dev/null", "w", stdout);
    ::execl(ROUTH_BINARY, ROUTH_BINARY, "run", scenario.c_str(), "-o", output.c_str(), "--set",
            "duration=1000", "--set", "integrator.max_step=1e-4", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  REQUIRE(test::wait_until_catching(child, SIGINT));
  REQUIRE(::kill(child, SIGINT) == 0);
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));  // it stopped by itself, not by the signal
  CHECK(WEXITSTATUS(status) == routh::exit_code(routh::RunStatus::interrupted));  // 130
  const TrajectorySummary summary = summarize_trajectory(out);
  CHECK(summary.warnings.empty());
  CHECK(summary.t_last > 0.0);
  CHECK(summary.t_last < 1000.0);
  CHECK(count_of(summary, "interrupted") == 1);
  const std::vector<std::string> kinds = event_kinds(out);
  REQUIRE(!kinds.empty());
  CHECK(kinds.back() == "interrupted");
}

TEST_CASE("run: simulate() polls the stop request and ends with an interrupted event") {
  const Scenario scenario = load_scenario(shipped("bouncing_ball"));
  test::TrajectoryMemory trajectory;
  SimulationOutcome outcome;
  {
    const StopRequestHandlers handlers;
    std::raise(SIGINT);  // the handler only sets the flag
    REQUIRE(stop_requested());
    outcome = run_scenario(scenario, trajectory);
    clear_stop_request();
  }
  CHECK(outcome.status == RunStatus::interrupted);
  CHECK(outcome.final_state.t == 0.0);  // checked before the first step
  REQUIRE(trajectory.events.size() == 1);
  CHECK(trajectory.events.back().kind == EventKind::interrupted);
  CHECK(outcome.events == 1);
}

}  // namespace routh
