// Sweeps (docs/sweeps.md, `routh sweep`): the sweep file's errors, the draws, the
// journal, and end-to-end sweeps of the rocking block checked against their own runs, across thread
// and MPI rank counts, after kills and resumes, and with a run that fails.

#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "sim/recorder/sweep_table.hpp"
#include "sim/recorder/trajectory_recorder.hpp"
#include "sim/recorder/trajectory_summary.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/scenario/scenario_run.hpp"
#include "sim/sweep/sweep_draws.hpp"
#include "sim/sweep/sweep_file.hpp"
#include "sim/sweep/sweep_journal.hpp"
#include "sim/text.hpp"
#include "support/routh_process.hpp"
#include "support/sanitizers.hpp"
#include "support/scratch_files.hpp"
#include "support/sweep_tables.hpp"

namespace routh {
namespace {

using test::run_routh;
using test::same_bits;
using test::scratch;
using test::start_routh;
using test::temporary_files;
using test::wait_exit;
using test::write_problem;

// The sanitizers slow a run about tenfold: under them the kill-and-resume test kills once, not
// three times, and the MPI test is left out (OpenMPI's own allocations are not ours to check).
using routh::test::kSanitized;

// A slender block (b/h = 0.2: uplift when a_g exceeds g tan α ≈ 1.96 m/s²) on harmonic ground
// motion: the amplitudes below straddle uplift, so rows differ in impacts and rotations.
std::string block_scenario(double duration_s) {
  return cat("duration: ", duration_s, "\n",
             "model: {type: rocking_block, width: 0.2, height: 1.0, mass: 1.0}\n"
             "initial: {q: {theta: 0}}\n"
             "contact: {law: poisson, restitution: 0.5, friction: 0.7}\n"
             "excitation:\n"
             "  harmonic: {amplitude: 2.0, frequency: 2, direction: x}\n"
             "output: {rate: 50}\n");
}

// 4 restitutions × 5 amplitudes × 5 random widths = 100 runs; under the sanitizers one width
// per grid point, 20 runs, so that the sweep tests stay within seconds there too.
constexpr int kWidthsPerPoint = kSanitized ? 1 : 5;
constexpr std::size_t kRuns = 20 * kWidthsPerPoint;
const std::string kHundredRuns =
    cat("base: block.yaml\n"
        "grid:\n"
        "  contact.restitution: [0.0, 0.3, 0.6, 0.9]\n"
        "  excitation.harmonic.amplitude: {from: 1.5, to: 4.0, count: 5}\n"
        "random: {runs: ",
        kWidthsPerPoint, ", seed: 11, keys: {model.width: {uniform: [0.15, 0.3]}}}\n");

// Writes block.yaml and `name` (the sweep) in the scratch folder; returns the sweep's path.
std::string write_sweep(const std::string& name, const std::string& sweep, double duration_s) {
  write_problem(block_scenario(duration_s), "block.yaml");
  return write_problem(sweep, name);
}

SweepTable table(const std::string& name) { return read_sweep_table(scratch() / name); }

std::size_t column(const SweepTable& t, const std::string& name) {
  for (std::size_t c = 0; c < t.columns.size(); ++c) {
    if (t.columns[c].name == name) return c;
  }
  FAIL("no column ", name);
  return 0;
}

double real(const SweepTable& t, std::size_t row, const std::string& name) {
  return std::get<double>(t.rows[row][column(t, name)]);
}
std::int64_t integer(const SweepTable& t, std::size_t row, const std::string& name) {
  return std::get<std::int64_t>(t.rows[row][column(t, name)]);
}
std::string text(const SweepTable& t, std::size_t row, const std::string& name) {
  return std::get<std::string>(t.rows[row][column(t, name)]);
}

// NaN-aware equality of a figure.
bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

// The error read_sweep_file + check_first_run raise for `sweep`.
InputError sweep_error(const std::string& sweep) {
  const std::string path = write_sweep("bad_sweep.yaml", sweep, 1.0);
  try {
    check_first_run(read_sweep_file(path));
  } catch (const InputError& error) {
    return error;
  }
  FAIL("no error for ", sweep);
  return InputError({}, "");
}

// Starts `routh ARGUMENTS...` like start_routh, with its stderr kept in `stderr_name` and every
// file it writes capped at `limit_bytes` with SIGXFSZ ignored, as Python and many batch shells
// leave it: a write past the cap fails with EFBIG, as a full disk fails with ENOSPC.
pid_t start_routh_capped(const std::vector<std::string>& arguments, long limit_bytes,
                         const std::string& stderr_name) {
  return test::start_routh(arguments, {.err = stderr_name, .file_size_limit = limit_bytes});
}

// Like wait_exit, but a process still running after `timeout` is killed (SIGKILL) and -1 is
// returned: the faults below once hung a sweep for ever.
int wait_exit_within(pid_t pid, std::chrono::seconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string scratch_text(const std::string& name) {
  std::ifstream in(scratch() / name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("sweep file: errors name the sweep file's line and column") {
  struct Case {
    const char* what;
    std::string sweep;
    int line, column;
    const char* says;
  };
  const std::vector<Case> cases = {
      {"unknown scenario key", "base: block.yaml\ngrid:\n  model.widht: [0.2, 0.3]\n", 3, 16,
       "widht"},
      {"range without `to`", "base: block.yaml\ngrid:\n  model.width: {from: 0.1, count: 3}\n", 3,
       16, "to"},
      {"count 0", "base: block.yaml\ngrid:\n  model.width: {from: 0.1, to: 0.3, count: 0}\n", 3, 44,
       "integer in [1"},
      {"unknown distribution",
       "base: block.yaml\nrandom: {runs: 2, seed: 1, keys: {model.width: {gaussian: [0.2, "
       "0.01]}}}\n",
       2, 49, "did you mean 'normal'"},
      {"bad base path", "base: no_such_block.yaml\ngrid:\n  model.width: [0.2]\n", 1, 7,
       "no scenario file"},
      {"empty uniform range",
       "base: block.yaml\nrandom: {runs: 2, seed: 1, keys: {model.width: {uniform: [0.3, 0.2]}}}\n",
       2, 58, "low < high"},
      {"unknown top-level key", "base: block.yaml\ngird:\n  model.width: [0.2]\n", 2, 1, "grid"},
      {"key in grid and random",
       "base: block.yaml\ngrid: {model.width: [0.2]}\n"
       "random: {runs: 2, seed: 1, keys: {model.width: {uniform: [0.1, 0.3]}}}\n",
       3, 48, "already in the grid"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    const InputError error = sweep_error(c.sweep);
    CHECK(
        std::filesystem::path(error.location().file).filename() ==
        (c.line == 1 && std::string(c.what) != "bad base path" ? "block.yaml" : "bad_sweep.yaml"));
    CHECK(error.location().line == c.line);
    CHECK(error.location().column == c.column);
    CHECK_MESSAGE(std::string(error.what()).find(c.says) != std::string::npos, error.what());
  }
}

TEST_CASE("sweep file: grid order, the last key fastest, and draws per grid point") {
  const SweepPlan plan = read_sweep_file(write_sweep("order.yaml", kHundredRuns, 1.0));
  REQUIRE(plan.run_count() == static_cast<std::int64_t>(kRuns));
  const std::vector<double> restitutions = {0.0, 0.3, 0.6, 0.9};
  const std::vector<double> amplitudes = {1.5, 2.125, 2.75, 3.375, 4.0};
  for (std::int64_t run = 0; run < plan.run_count(); ++run) {
    const std::vector<SweepValue> values = run_values(plan, run);
    const auto point = static_cast<std::size_t>(run / kWidthsPerPoint);
    CHECK(std::get<double>(values[0]) == restitutions[point / 5]);
    CHECK(std::get<double>(values[1]) == doctest::Approx(amplitudes[point % 5]).epsilon(1e-15));
    const double width = std::get<double>(values[2]);
    CHECK((width >= 0.15 && width < 0.3));
  }
  // the draws are the run's, whatever was drawn before: run 57 alone equals run 57 in sequence
  CHECK(std::get<double>(run_values(plan, 57)[2]) == std::get<double>(run_values(plan, 57)[2]));
  CHECK(std::get<double>(run_values(plan, 57)[2]) != std::get<double>(run_values(plan, 58)[2]));
}

TEST_CASE("sweep draws: the transforms have the distributions' moments") {
  // Closed forms: uniform on [0, 1) has mean 1/2 and variance 1/12; the Box–Muller normal has
  // mean 0 and variance 1. With n = 40000 draws the standard error of a mean is σ/√n = 0.005 for
  // the normal; 5 standard errors make a false failure impossible in practice (fixed seeds).
  constexpr int kDraws = 40000;
  double sum_u = 0.0, sum_u2 = 0.0, sum_z = 0.0, sum_z2 = 0.0;
  for (int run = 0; run < kDraws; ++run) {
    std::mt19937_64 generator = run_generator(3, run);
    const double u = uniform_unit(generator);
    const double z = standard_normal(generator);
    CHECK((u >= 0.0 && u < 1.0));
    sum_u += u, sum_u2 += u * u, sum_z += z, sum_z2 += z * z;
  }
  const double n = kDraws;
  CHECK(sum_u / n == doctest::Approx(0.5).epsilon(5.0 * std::sqrt(1.0 / 12.0 / n) / 0.5));
  CHECK(std::abs(sum_u2 / n - sum_u * sum_u / n / n - 1.0 / 12.0) < 0.003);
  CHECK(std::abs(sum_z / n) < 5.0 / std::sqrt(n));
  CHECK(std::abs(sum_z2 / n - 1.0) < 5.0 * std::sqrt(2.0 / n));
}

TEST_CASE("sweep journal: rows round-trip exactly, and a torn or corrupt line ends the scan") {
  const std::vector<TableColumn> columns = {
      {"run", CellType::integer, ""}, {"x", CellType::real, ""}, {"note", CellType::text, ""}};
  const std::vector<TableRow> rows = {
      {std::int64_t{0}, 0.1, std::string("plain")},
      {std::int64_t{1}, std::nan(""), std::string("tab\there\nline \\ back")},
      {std::int64_t{2}, -1e-310, std::string("")}};
  for (const TableRow& row : rows) {
    std::string line = encode_row(row);
    REQUIRE(line.back() == '\n');
    line.pop_back();
    const std::optional<TableRow> decoded = decode_row(line, columns);
    REQUIRE(decoded);
    CHECK(std::get<std::string>((*decoded)[2]) == std::get<std::string>(row[2]));
    const double x = std::get<double>(row[1]);
    CHECK(std::memcmp(&x, &std::get<double>((*decoded)[1]), sizeof x) == 0);
  }
  const std::filesystem::path path = scratch() / "unit.journal";
  std::filesystem::remove(path);
  {
    SweepJournal journal = SweepJournal::create(path, "0123456789abcdef");
    for (const TableRow& row : rows) journal.append(encode_row(row));
    const std::string torn = encode_row({std::int64_t{3}, 2.0, std::string("cut")});
    journal.append(torn.substr(0, torn.size() / 2));  // a kill inside the write
  }
  const auto good = std::filesystem::file_size(path) -
                    encode_row({std::int64_t{3}, 2.0, std::string("cut")}).size() / 2;
  const JournalScan scan = scan_journal(path, "0123456789abcdef", columns);
  CHECK(scan.rows == 3);
  CHECK(scan.valid_bytes == good);
  CHECK_THROWS_WITH(scan_journal(path, "fedcba9876543210", columns),
                    doctest::Contains("changed since this sweep started"));
  // a flipped character fails the checksum: the scan stops before that row
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  bytes[bytes.find("plain")] = 'P';
  std::ofstream(path, std::ios::binary) << bytes;
  CHECK(scan_journal(path, "0123456789abcdef", columns).rows == 0);
}

TEST_CASE("routh sweep: 100 runs, each row equal to its own run_scenario") {
  const std::string sweep = write_sweep("hundred.yaml", kHundredRuns, 1.0);
  const test::RouthRun run = run_routh("sweep hundred.yaml -o hundred.h5 --jobs 2");
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  const SweepTable t = table("hundred.h5");
  REQUIRE(t.rows.size() == kRuns);
  CHECK(t.planned_runs == static_cast<std::int64_t>(kRuns));
  CHECK(t.sweep_text == kHundredRuns);
  int uplifted = 0;
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    INFO("run ", r);
    CHECK(integer(t, r, "run") == static_cast<std::int64_t>(r));
    // the reference: the base scenario with the row's values as --set overrides, run here
    std::vector<std::string> overrides;
    for (const char* key :
         {"contact.restitution", "excitation.harmonic.amplitude", "model.width"}) {
      char value[40];
      std::snprintf(value, sizeof value, "%.17g", real(t, r, key));
      overrides.push_back(cat(key, "=", value));
    }
    const Scenario scenario = load_scenario((scratch() / "block.yaml").string(), overrides);
    struct Discard final : TrajectoryObserver {
      void record_sample(double, const Eigen::VectorXd&, const Eigen::VectorXd&, const Energy&,
                         SampleKind) override {}
      void record_event(const EventRecord&) override {}
    } discard;
    const SimulationOutcome outcome = run_scenario(scenario, discard);
    CHECK(text(t, r, "status") == to_string(outcome.status));
    CHECK(integer(t, r, "status_code") == exit_code(outcome.status));
    CHECK(text(t, r, "message") == outcome.detail);
    CHECK(integer(t, r, "impacts") == outcome.impacts);
    CHECK(integer(t, r, "events") == outcome.events);
    CHECK(same(real(t, r, "uplift_time"), outcome.summary.uplift_time));
    CHECK(same(real(t, r, "overturn_time"), outcome.summary.overturn_time));
    CHECK(integer(t, r, "overturned") == (outcome.summary.overturned ? 1 : 0));
    CHECK(text(t, r, "overturned_body") == outcome.summary.overturned_body);
    CHECK(same(real(t, r, "max_abs_theta"), outcome.summary.max_abs_theta));
    CHECK(same(real(t, r, "max_abs_theta_time"), outcome.summary.max_abs_theta_time));
    CHECK(same(real(t, r, "dissipated_energy"), outcome.summary.dissipated_energy));
    CHECK(same(real(t, r, "final_time"), outcome.final_state.t));
    if (!std::isnan(outcome.summary.uplift_time)) ++uplifted;
  }
  // the sweep straddles uplift (a_g = g tan α ≈ 1.47–2.9 m/s² for these widths): both kinds occur
  CHECK(uplifted > 0);
  CHECK(uplifted < static_cast<int>(kRuns));
}

TEST_CASE("routh sweep: the table is bit-identical for 1 and 2 threads and 2 MPI ranks") {
  write_sweep("same.yaml", kHundredRuns, 1.0);
  REQUIRE(run_routh("sweep same.yaml -o one.h5 --jobs 1").exit_code == 0);
  REQUIRE(run_routh("sweep same.yaml -o two.h5 --jobs 2").exit_code == 0);
  const SweepTable one = table("one.h5");
  CHECK(one.rows.size() == kRuns);
  CHECK(same_bits(one, table("two.h5")));
  if (kSanitized || !ROUTH_MPI_BUILD || std::system("command -v mpirun >/dev/null 2>&1") != 0) {
    MESSAGE("mpirun part skipped (sanitizers, a build without MPI, or no mpirun)");
    return;
  }
  // --allow-run-as-root lets CI run as root and changes nothing for a normal user;
  // --oversubscribe lets 2 ranks start on a machine with fewer free slots
  const test::RouthRun mpi =
      test::run_command(cat("mpirun --allow-run-as-root --oversubscribe -n 2 '", ROUTH_BINARY,
                            "' sweep same.yaml -o ranks.h5"));
  REQUIRE_MESSAGE(mpi.exit_code == 0, mpi.err);
  CHECK(same_bits(one, table("ranks.h5")));
}

TEST_CASE("routh sweep: killed at random moments and resumed, the table equals the whole run") {
  // runs of 6 s of motion make the sweep last about a second on 2 threads: kills land mid-sweep
  write_sweep("killed.yaml", kHundredRuns, 6.0);
  REQUIRE(run_routh("sweep killed.yaml -o whole.h5 --jobs 2").exit_code == 0);
  std::mt19937_64 delays(20261124);
  const int kills = kSanitized ? 1 : 3;
  int killed_mid_sweep = 0;
  std::vector<std::string> arguments = {"sweep", "killed.yaml", "-o", "killed.h5", "--jobs", "2"};
  for (int k = 0; k < kills; ++k) {
    const pid_t pid = start_routh(arguments);
    const auto delay_ms = static_cast<int>(50 + delays() % 300);
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    ::kill(pid, SIGKILL);
    const int code = wait_exit(pid);
    CHECK((code == 128 + SIGKILL || code == 0));
    if (code == 128 + SIGKILL) ++killed_mid_sweep;
    if (k == 0) arguments.push_back("--resume");
  }
  CHECK(killed_mid_sweep >= 1);
  // a stop by SIGTERM: clean, exit 130, the table holds the rows before the stop
  const pid_t stopped = start_routh(arguments);
  REQUIRE(test::wait_until_catching(stopped, SIGTERM));
  ::kill(stopped, SIGTERM);
  const int stop_code = wait_exit(stopped);
  CHECK((stop_code == 130 || stop_code == 0));
  if (stop_code == 130) CHECK(table("killed.h5").rows.size() < kRuns);
  const test::RouthRun resumed = run_routh("sweep killed.yaml -o killed.h5 --jobs 2 --resume");
  REQUIRE_MESSAGE(resumed.exit_code == 0, resumed.err);
  CHECK(same_bits(table("whole.h5"), table("killed.h5")));
  CHECK(!std::filesystem::exists(scratch() / "killed.h5.journal"));
  // a finished sweep is never overwritten by accident, and resuming it does nothing
  const test::RouthRun again = run_routh("sweep killed.yaml -o killed.h5");
  CHECK(again.exit_code == 1);
  CHECK(again.err.find("--force") != std::string::npos);
  CHECK(run_routh("sweep killed.yaml -o killed.h5 --resume").out.find("complete already") !=
        std::string::npos);
}

TEST_CASE("routh sweep: a run whose scenario is refused is recorded, and the others complete") {
  write_sweep("failing.yaml",
              "base: block.yaml\n"
              "grid: {contact.restitution: [0.5, 1.5, 0.2]}\n"
              "output: {file: failing.h5, csv: true}\n",
              1.0);
  const test::RouthRun run = run_routh("sweep failing.yaml --jobs 2");
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  const SweepTable t = table("failing.h5");
  REQUIRE(t.rows.size() == 3);
  CHECK(text(t, 0, "status") == "completed");
  CHECK(text(t, 1, "status") == "input_error");
  CHECK(integer(t, 1, "status_code") == 1);
  CHECK(text(t, 1, "message").find("restitution") != std::string::npos);
  CHECK(integer(t, 1, "impacts") == -1);
  CHECK(std::isnan(real(t, 1, "final_time")));
  CHECK(text(t, 2, "status") == "completed");
  CHECK(real(t, 2, "final_time") == 1.0);
  std::ifstream csv(scratch() / "failing.csv");
  std::string header, row0;
  std::getline(csv, header);
  std::getline(csv, row0);
  CHECK(header.starts_with("run,contact.restitution,status,status_code,message,impacts"));
  CHECK(row0.starts_with("0,0.5,completed,0,,"));
}

TEST_CASE("routh sweep: output.trajectories writes each run's trajectory, named by run index") {
  write_sweep("traced.yaml",
              "base: block.yaml\n"
              "grid: {excitation.harmonic.amplitude: [1.0, 3.0]}\n"
              "output: {file: traced.h5, trajectories: true}\n",
              1.0);
  const test::RouthRun run = run_routh("sweep traced.yaml --jobs 2");
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  const SweepTable t = table("traced.h5");
  REQUIRE(t.rows.size() == 2);
  for (std::size_t r = 0; r < 2; ++r) {
    const TrajectorySummary summary =
        summarize_trajectory(scratch() / "traced_runs" / cat("run_00000", r, ".h5"));
    CHECK(summary.status == text(t, r, "status"));
    CHECK(summary.t_last == real(t, r, "final_time"));
  }
}

TEST_CASE(
    "routh sweep: a journal that cannot be written ends the sweep, and --resume completes it") {
  // Each row is a journal line of about 300 bytes: a 12 kB cap stops the journal near run 40 of
  // the 100, and the table (hundreds of kB) cannot be written at all. The sweep used to hang for
  // ever: the workers waited for a window that no longer moved.
  write_sweep("capped.yaml", kHundredRuns, 1.0);
  REQUIRE(run_routh("sweep capped.yaml -o whole.h5 --jobs 2 --force").exit_code == 0);
  std::filesystem::remove(scratch() / "capped.h5");
  std::filesystem::remove(scratch() / "capped.h5.journal");
  const pid_t pid = start_routh_capped({"sweep", "capped.yaml", "-o", "capped.h5", "--jobs", "2"},
                                       12'000, "capped_err.txt");
  CHECK(wait_exit_within(pid, std::chrono::seconds(60)) == 20);
  const std::string err = scratch_text("capped_err.txt");
  CHECK(err.find("File too large") != std::string::npos);  // EFBIG, named
  CHECK(err.find("--resume") != std::string::npos);
  // what was computed before the fault is kept: the journal's good rows
  const std::uintmax_t journal_bytes = std::filesystem::file_size(scratch() / "capped.h5.journal");
  CHECK(journal_bytes > 1000);
  CHECK(journal_bytes <= 12'000);
  CHECK(temporary_files(scratch(), "capped.h5").empty());
  // with room again, the resumed sweep's table is the uninterrupted one, bit for bit
  const test::RouthRun resumed = run_routh("sweep capped.yaml -o capped.h5 --jobs 2 --resume");
  REQUIRE_MESSAGE(resumed.exit_code == 0, resumed.err);
  CHECK(same_bits(table("whole.h5"), table("capped.h5")));
}

TEST_CASE("routh sweep: a trajectory that cannot be written stops the sweep and is not a row") {
  // Run 3 of 6 lasts 400 s, 2·10⁴ samples of 81 bytes, and its trajectory (2 MB) outgrows the
  // 800 kB cap after its first block of 4096 samples; the others last 1 s (120 kB). The ground
  // motion stays below uplift, so no run ends early. Run 3 used to be recorded as an `error` row
  // and the sweep ended "complete": --resume never ran it again.
  write_sweep("traj_capped.yaml",
              "base: block.yaml\n"
              "grid: {excitation.harmonic.amplitude: [0.5], duration: [1, 1, 1, 400, 1, 1]}\n"
              "output: {trajectories: true}\n",
              1.0);
  std::filesystem::remove_all(scratch() / "traj_whole_runs");
  std::filesystem::remove_all(scratch() / "traj_capped_runs");
  REQUIRE(run_routh("sweep traj_capped.yaml -o traj_whole.h5 --jobs 2 --force").exit_code == 0);
  for (const char* stale : {"traj_capped.h5", "traj_capped.h5.journal"}) {
    std::filesystem::remove(scratch() / stale);
  }
  const pid_t pid =
      start_routh_capped({"sweep", "traj_capped.yaml", "-o", "traj_capped.h5", "--jobs", "2"},
                         800'000, "traj_capped_err.txt");
  CHECK(wait_exit_within(pid, std::chrono::seconds(60)) == 20);
  const std::string err = scratch_text("traj_capped_err.txt");
  INFO(err);
  CHECK(err.find("run_000003.h5") != std::string::npos);
  CHECK(err.find("File too large") != std::string::npos);
  // the journal keeps the runs before it (its header and 3 rows: a table of 4096-row chunks does
  // not fit under the cap); run 3's trajectory is readable up to the fault
  const std::string journal = scratch_text("traj_capped.h5.journal");
  CHECK(std::count(journal.begin(), journal.end(), '\n') == 4);
  const TrajectorySummary partial =
      summarize_trajectory(scratch() / "traj_capped_runs" / "run_000003.h5");
  CHECK(partial.status == kUnfinishedRunStatus);
  CHECK(partial.sample_count > 0);
  const test::RouthRun resumed = run_routh("sweep traj_capped.yaml -o traj_capped.h5 --resume");
  REQUIRE_MESSAGE(resumed.exit_code == 0, resumed.err);
  CHECK(same_bits(table("traj_whole.h5"), table("traj_capped.h5")));
  CHECK(summarize_trajectory(scratch() / "traj_capped_runs" / "run_000003.h5").status ==
        "completed");
}

TEST_CASE("routh sweep: a full disk leaves the journal, no crash, and --resume completes it") {
  // A 200 kB tmpfs (root only): trajectories of about 120 kB fill it, then the table does not
  // fit. The table's close on the full disk used to end in SIGSEGV inside HDF5, at exit.
  if (::geteuid() != 0) {
    MESSAGE("skipped: mounting a tmpfs needs root");
    return;
  }
  const std::filesystem::path disk = scratch() / "small_disk";
  std::filesystem::create_directories(disk);
  if (std::system(cat("mount -t tmpfs -o size=200k tmpfs '", disk.string(), "'").c_str()) != 0) {
    MESSAGE("skipped: cannot mount a tmpfs here");
    return;
  }
  struct Unmount {
    std::filesystem::path disk;
    ~Unmount() {
      [[maybe_unused]] const int status = std::system(cat("umount '", disk.string(), "'").c_str());
    }
  } unmount{disk};
  write_sweep("disk.yaml",
              "base: block.yaml\n"
              "grid: {excitation.harmonic.amplitude: [0.5],\n"
              "       contact.restitution: {from: 0.5, to: 0.9, count: 5}}\n"
              "output: {csv: true, trajectories: true}\n",
              2.0);
  std::filesystem::remove_all(scratch() / "disk_whole_runs");
  REQUIRE(run_routh("sweep disk.yaml -o disk_whole.h5 --jobs 2 --force").exit_code == 0);
  const test::RouthRun full = run_routh("sweep disk.yaml -o small_disk/t.h5 --jobs 2");
  CHECK(full.exit_code == 20);
  CHECK(full.err.find("No space left on device") != std::string::npos);
  CHECK(full.err.find("HDF5") == std::string::npos);  // nor its complaints at exit
  CHECK(std::filesystem::exists(disk / "t.h5.journal"));
  CHECK(temporary_files(disk, "t.h5").empty());
  CHECK(temporary_files(disk, "t.csv").empty());
  // room again: the same disk, grown
  REQUIRE(std::system(cat("mount -o remount,size=20m '", disk.string(), "'").c_str()) == 0);
  const test::RouthRun resumed = run_routh("sweep disk.yaml -o small_disk/t.h5 --jobs 2 --resume");
  REQUIRE_MESSAGE(resumed.exit_code == 0, resumed.err);
  CHECK(same_bits(table("disk_whole.h5"), read_sweep_table(disk / "t.h5")));
}

TEST_CASE("mpirun routh sweep: a journal that cannot be written ends every rank, exit 20") {
  if (kSanitized || !ROUTH_MPI_BUILD || std::system("command -v mpirun >/dev/null 2>&1") != 0) {
    MESSAGE("skipped: needs mpirun and an MPI build, without sanitizers");
    return;
  }
  write_sweep("mpi_capped.yaml", kHundredRuns, 1.0);
  for (const char* stale : {"mpi_capped.h5", "mpi_capped.h5.journal"}) {
    std::filesystem::remove(scratch() / stale);
  }
  // each rank capped (mpirun itself needs its files): ulimit -f counts 512-byte blocks in sh, 24
  // blocks hold about 40 rows; SIGXFSZ ignored
  const test::RouthRun run = test::run_command(
      cat("timeout -s KILL 60 mpirun --allow-run-as-root --oversubscribe -n 2 sh -c "
          "\"trap '' XFSZ; ulimit -f 24; exec '",
          ROUTH_BINARY, "' sweep mpi_capped.yaml -o mpi_capped.h5\""));
  CHECK_MESSAGE(run.exit_code == 20, run.err);
  CHECK(run.err.find("File too large") != std::string::npos);
  const test::RouthRun resumed = run_routh("sweep mpi_capped.yaml -o mpi_capped.h5 --resume");
  REQUIRE_MESSAGE(resumed.exit_code == 0, resumed.err);
  CHECK(table("mpi_capped.h5").rows.size() == kRuns);
}

}  // namespace routh

namespace routh {
namespace {

// Starts `mpirun ARGUMENTS...` in the scratch folder, its output discarded; returns its pid.
pid_t start_mpirun(const std::vector<std::string>& arguments) {
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    if (::chdir(scratch().c_str()) != 0) ::_exit(127);
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
    std::vector<char*> argv{const_cast<char*>("mpirun")};
    for (const std::string& argument : arguments)
      argv.push_back(const_cast<char*>(argument.c_str()));
    argv.push_back(nullptr);
    ::execvp("mpirun", argv.data());
    ::_exit(127);
  }
  return pid;
}

}  // namespace

TEST_CASE("mpirun routh sweep: SIGUSR1 to mpirun stops every rank cleanly, exit 130") {
  // SIGINT or SIGTERM to mpirun: OpenMPI terminates the ranks and exits 1 itself, whatever they
  // return; SIGUSR1 it forwards to every rank, which routh takes as a stop request, and mpirun
  // then exits with the ranks' 130. Before, SIGUSR1 killed the ranks.
  if (kSanitized || !ROUTH_MPI_BUILD || std::system("command -v mpirun >/dev/null 2>&1") != 0) {
    MESSAGE("skipped: needs mpirun and an MPI build, without sanitizers");
    return;
  }
  write_sweep("mpi_stop.yaml", kHundredRuns, 6.0);
  for (const char* stale : {"mpi_stop.h5", "mpi_stop.h5.journal", "mpi_whole.h5"}) {
    std::filesystem::remove(scratch() / stale);
  }
  REQUIRE(run_routh("sweep mpi_stop.yaml -o mpi_whole.h5 --jobs 2").exit_code == 0);
  const pid_t mpirun = start_mpirun({"--allow-run-as-root", "--oversubscribe", "-n", "2",
                                     ROUTH_BINARY, "sweep", "mpi_stop.yaml", "-o", "mpi_stop.h5"});
  // a journal with rows: both ranks passed their start (handlers installed before it)
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  const std::filesystem::path journal = scratch() / "mpi_stop.h5.journal";
  while (std::chrono::steady_clock::now() < deadline &&
         (!std::filesystem::exists(journal) || std::filesystem::file_size(journal) < 1000)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ::kill(mpirun, SIGUSR1);
  const int code = wait_exit_within(mpirun, std::chrono::seconds(60));
  MESSAGE("mpirun exited ", code);
  CHECK((code == 130 || code == 0));  // 0: the sweep ended before the signal
  if (code == 130) CHECK(table("mpi_stop.h5").rows.size() < kRuns);
  const test::RouthRun resumed = run_routh("sweep mpi_stop.yaml -o mpi_stop.h5 --resume");
  REQUIRE_MESSAGE(resumed.exit_code == 0, resumed.err);
  CHECK(same_bits(table("mpi_whole.h5"), table("mpi_stop.h5")));
}

}  // namespace routh
