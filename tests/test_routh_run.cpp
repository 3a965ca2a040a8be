// `routh run` end to end (tools/routh/run_command.cpp): a shipped scenario becomes an HDF5
// trajectory with its impacts and rest, --set overrides reach the file, bad input and bad usage
// get their exit codes, and SIGINT stops a long run with a valid file ending in `interrupted`;
// plus the simulator's own stop-request polling, in process.

#include <doctest/doctest.h>
#include <hdf5.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

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

}  // namespace

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

TEST_CASE("run: --time-limit takes seconds of wall-clock time; routh info shows the status") {
  const std::filesystem::path out = scratch() / "ball_limited.h5";
  const Run run = run_routh(cat("'", shipped("bouncing_ball"), "' -o '", out.string(),
                                "' --set duration=1 --time-limit 600"));
  CHECK(run.exit_code == 0);
  const Run info = test::run_routh(cat("info '", out.string(), "'"));
  CHECK(info.exit_code == 0);
  CHECK(contains(info.out, "\nstatus       completed\n"));
  for (const char* bad : {"0", "-1", "abc", "inf", "1s"}) {
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

TEST_CASE("run: bad input exits 1 naming file:line:column or the override; usage exits 2") {
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
