// Sweeps killed at seeded random moments, on threads and on MPI ranks, and resumed (docs/sweeps.md,
// "Stopping, kills and --resume"). What a kill may cost is the runs in flight; what it must never
// cost is a finished row or a readable file. So after every kill:
//   - the table FILE.h5, when there is one, reads whole (a kill never leaves a torn table under
//     the table's name: it is written under a temporary name of its own and renamed);
//   - the journal, when there is one, scans under the sweep's own fingerprint, and its good rows
//     never fall from one kill to the next (a kill tears at most the line being written);
// and the table the last `--resume` writes equals the uninterrupted sweep's bit for bit.

#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "sim/recorder/sweep_table.hpp"
#include "sim/sweep/sweep_journal.hpp"
#include "sim/text.hpp"
#include "support/routh_process.hpp"
#include "support/sanitizers.hpp"
#include "support/scratch_files.hpp"
#include "support/sweep_tables.hpp"

namespace routh {
namespace {

namespace fs = std::filesystem;
using test::kSanitized;
using test::same_bits;
using test::scratch;

// 24 runs of a slender block (b/h = 0.2) on harmonic ground motion, amplitudes around its uplift
// threshold g b/h ≈ 1.96 m/s²: rows differ in impacts and rotations, so a row written twice or
// lost would show in the comparison.
constexpr const char* kBlock =
    "duration: 3\n"
    "model: {type: rocking_block, width: 0.2, height: 1.0, mass: 1.0}\n"
    "initial: {q: {theta: 0}}\n"
    "contact: {law: poisson, restitution: 0.5, friction: 0.7}\n"
    "excitation:\n"
    "  harmonic: {amplitude: 2.0, frequency: 2, direction: x}\n"
    "output: {rate: 50}\n";
constexpr const char* kSweep =
    "base: kill_block.yaml\n"
    "grid:\n"
    "  contact.restitution: [0.0, 0.4, 0.8]\n"
    "  excitation.harmonic.amplitude: {from: 1.5, to: 4.0, count: 8}\n";

const fs::path kTable = "killed.h5";

/// Every process descended from `root` (itself included), from /proc: mpirun's ranks are not in
/// its process group (OpenMPI gives each its own), so a kill of the whole job names each.
std::vector<pid_t> process_tree(pid_t root) {
  std::set<pid_t> tree{root};
  bool grew = true;
  while (grew) {
    grew = false;
    for (const auto& entry : fs::directory_iterator("/proc")) {
      const std::string name = entry.path().filename().string();
      if (name.find_first_not_of("0123456789") != std::string::npos) continue;
      std::ifstream stat(entry.path() / "stat");
      std::string line;
      if (!std::getline(stat, line)) continue;
      // "PID (COMM) STATE PPID ...": COMM may hold spaces and parentheses, so read after the last
      // ')'
      const auto close = line.rfind(')');
      if (close == std::string::npos) continue;
      std::istringstream rest(line.substr(close + 1));
      char state = 0;
      pid_t parent = 0;
      rest >> state >> parent;
      const pid_t pid = static_cast<pid_t>(std::stol(name));
      if (tree.contains(parent) && tree.insert(pid).second) grew = true;
    }
  }
  return {tree.begin(), tree.end()};
}

/// SIGKILL to `root` and every process under it, as a power cut or the OOM killer of a whole job
/// would; waits for `root` (our child) and until the others are gone. The exit code of `root`.
int kill_job(pid_t root) {
  const std::vector<pid_t> job = process_tree(root);
  for (const pid_t pid : job) ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(root, &status, 0);
  for (const pid_t pid : job) {
    while (pid != root && ::kill(pid, 0) == 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/// Checks what a kill left in the scratch folder against the uninterrupted sweep `whole`;
/// `journal_rows` is the journal's count of good rows after the previous kill, updated.
void check_files_after_kill(const SweepTable& whole, std::int64_t& journal_rows) {
  const fs::path table = scratch() / kTable;
  if (fs::exists(table)) CHECK_NOTHROW(static_cast<void>(read_sweep_table(table)));
  const fs::path journal = scratch() / "killed.h5.journal";
  if (!fs::exists(journal)) return;
  JournalScan scan;
  REQUIRE_NOTHROW(scan = scan_journal(journal, sweep_fingerprint(whole.sweep_text, whole.base_text),
                                      whole.columns));
  CHECK(scan.rows >= journal_rows);
  CHECK(scan.rows <= static_cast<std::int64_t>(whole.rows.size()));
  journal_rows = scan.rows;
}

/// The seeded kill campaign: `trials` sweeps from scratch, each killed `kills_per_trial` times
/// (the first start without --resume, the others resuming) at moments drawn uniformly over the
/// part of the uninterrupted sweep's wall time its runs still left would take, then resumed to the
/// end by `finish` and compared with the whole sweep. Returns how many kills landed while the sweep
/// was still running.
int kill_campaign(const std::string& start, const std::string& finish, int trials,
                  int kills_per_trial, std::uint64_t seed) {
  test::write_problem(kBlock, "kill_block.yaml");
  test::write_problem(kSweep, "kill_sweep.yaml");
  fs::remove(scratch() / "whole.h5");  // an earlier campaign's, in this process's scratch folder
  const auto began = std::chrono::steady_clock::now();
  const test::RouthRun reference = test::run_command(cat(start, " kill_sweep.yaml -o whole.h5"));
  const auto sweep_time = std::chrono::steady_clock::now() - began;
  REQUIRE_MESSAGE(reference.exit_code == 0, reference.err);
  const SweepTable whole = read_sweep_table(scratch() / "whole.h5");
  REQUIRE(whole.rows.size() == 24);

  std::mt19937_64 moments(seed);
  const auto longest_us = std::chrono::duration_cast<std::chrono::microseconds>(sweep_time).count();
  int mid_sweep = 0;
  for (int trial = 0; trial < trials; ++trial) {
    for (const char* suffix : {"", ".journal"})
      fs::remove(scratch() / cat(kTable.string(), suffix));
    std::int64_t journal_rows = 0;
    for (int k = 0; k < kills_per_trial; ++k) {
      const std::string command =
          cat(start, " kill_sweep.yaml -o ", kTable.string(), k == 0 ? "" : " --resume");
      const pid_t job = test::start_command(command);
      // over the time the runs left would take, so that resumes are hit mid-sweep as often
      const double left = std::max(0.2, 1.0 - static_cast<double>(journal_rows) / 24.0);
      std::uniform_int_distribution<long> delay_us(
          0, static_cast<long>(left * static_cast<double>(longest_us)));
      std::this_thread::sleep_for(std::chrono::microseconds(delay_us(moments)));
      const int code = kill_job(job);
      INFO("trial ", trial, ", kill ", k, ": ", command, " ended with ", code);
      CHECK((code == 128 + SIGKILL || code == 0));
      if (code == 128 + SIGKILL) ++mid_sweep;
      check_files_after_kill(whole, journal_rows);
    }
    const test::RouthRun resumed =
        test::run_command(cat(finish, " kill_sweep.yaml -o ", kTable.string(), " --resume"));
    INFO("trial ", trial, ": ", resumed.out, resumed.err);
    REQUIRE(resumed.exit_code == 0);
    CHECK(same_bits(whole, read_sweep_table(scratch() / kTable)));
    CHECK(!fs::exists(scratch() / "killed.h5.journal"));
  }
  return mid_sweep;
}

std::string routh_command() { return cat("'", ROUTH_BINARY, "' sweep"); }

}  // namespace

TEST_CASE("routh sweep: 50 kills at seeded random moments on threads, every resume is whole") {
  // 10 sweeps × 5 kills; under the sanitizers (ten times slower) 2 × 3
  const int trials = kSanitized ? 2 : 10;
  const int kills = kSanitized ? 3 : 5;
  const std::string threads = routh_command() + " --jobs 2";
  const int mid_sweep = kill_campaign(threads, threads, trials, kills, 20261127);
  // a campaign whose kills all came after the sweep had finished would test nothing
  MESSAGE(mid_sweep, " of ", trials * kills, " kills landed mid-sweep");
  CHECK(mid_sweep >= trials * kills / 4);
}

TEST_CASE(
    "routh sweep: kills of a whole mpirun job at seeded random moments, every resume is whole") {
  if (kSanitized || !ROUTH_MPI_BUILD || std::system("command -v mpirun >/dev/null 2>&1") != 0) {
    MESSAGE("skipped (sanitizers, a build without MPI, or no mpirun)");
    return;
  }
  const std::string ranks =
      cat("mpirun --allow-run-as-root --oversubscribe -n 2 ", routh_command());
  // a job killed under MPI is resumed under MPI and on threads alike: the journal is the same
  const int mid_sweep = kill_campaign(ranks, ranks, 1, 5, 20261128) +
                        kill_campaign(ranks, routh_command() + " --jobs 2", 1, 5, 20261129);
  MESSAGE(mid_sweep, " of 10 kills landed mid-sweep");
  CHECK(mid_sweep >= 3);
}

}  // namespace routh
