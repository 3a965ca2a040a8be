#pragma once
// Running the routh program on hostile input under bounds: a child limited in address space
// (RLIMIT_AS), killed after a deadline, measured in wall-clock time and peak memory (the child's
// own rusage, from wait4). A refusal of such input must come quickly and cheaply, whatever the
// input's size or kind, so the test checks the time and the memory as well as the message.

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "sanitizers.hpp"
#include "scratch_files.hpp"

namespace routh::test {

/// The address space a hostile input's refusal may use; unlimited under the sanitizers, whose
/// shadow memory alone reserves terabytes of it.
inline constexpr rlim_t kBoundedAddressSpace = 400 * 1024 * 1024;
/// The deadline after which the child is killed (it then has no exit code).
inline constexpr double kBoundedDeadline_s = 20.0;

struct BoundedRun {
  int exit_code = -1;  ///< -1 when it did not exit (killed by a signal or at the deadline)
  int signal = 0;      ///< the signal that ended it, if any
  double seconds = 0.0;
  double max_rss_mb = 0.0;
  std::string out;
  std::string err;
};

/// A routh program started by start_routh_bounded, and when.
struct BoundedChild {
  pid_t pid = -1;
  std::chrono::steady_clock::time_point start;
};

/// Starts the routh program with `arguments` in the scratch folder, bounded as above.
inline BoundedChild start_routh_bounded(const std::vector<std::string>& arguments) {
  const std::filesystem::path out_path = scratch() / "bounded_stdout.txt";
  const std::filesystem::path err_path = scratch() / "bounded_stderr.txt";
  std::vector<std::string> words = {ROUTH_BINARY};
  words.insert(words.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    // the child: only async-signal-safe calls until exec
    if (::chdir(scratch().c_str()) != 0) ::_exit(125);
    const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0 || err < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) ::_exit(125);
    if (!kSanitized) {
      const rlimit limit{kBoundedAddressSpace, kBoundedAddressSpace};
      ::setrlimit(RLIMIT_AS, &limit);
    }
    ::execv(argv[0], argv.data());
    ::_exit(126);
  }
  return {pid, start};
}

/// Waits for `child` (killing it at the deadline) and collects how it ended.
inline BoundedRun wait_bounded(const BoundedChild& child) {
  BoundedRun run;
  int status = 0;
  rusage usage{};
  const auto deadline = child.start + std::chrono::duration<double>(kBoundedDeadline_s);
  while (::wait4(child.pid, &status, WNOHANG, &usage) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(child.pid, SIGKILL);
      ::wait4(child.pid, &status, 0, &usage);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  run.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - child.start).count();
  run.max_rss_mb = static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux: kilobytes
  if (WIFEXITED(status)) run.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) run.signal = WTERMSIG(status);
  std::ostringstream out, err;
  out << std::ifstream(scratch() / "bounded_stdout.txt").rdbuf();
  err << std::ifstream(scratch() / "bounded_stderr.txt").rdbuf();
  run.out = out.str();
  run.err = err.str();
  return run;
}

/// Runs the routh program with `arguments` in the scratch folder, bounded as above.
inline BoundedRun run_routh_bounded(const std::vector<std::string>& arguments) {
  return wait_bounded(start_routh_bounded(arguments));
}

}  // namespace routh::test
