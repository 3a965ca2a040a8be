#pragma once
// Running the built `routh` program from a test, as a user would: through the shell, from the
// scratch folder, capturing what it prints and how it exits.

#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "scratch_files.hpp"
#include "sim/text.hpp"

namespace routh::test {

struct RouthRun {
  int exit_code = -1;
  std::string out;  ///< stdout
  std::string err;  ///< stderr
};

/// Runs `command` (a shell command line) in the scratch folder.
inline RouthRun run_command(const std::string& command_line) {
  const std::filesystem::path out_path = scratch() / "routh_stdout.txt";
  const std::filesystem::path err_path = scratch() / "routh_stderr.txt";
  const std::string command = cat("cd '", scratch().string(), "' && ", command_line, " >'",
                                  out_path.string(), "' 2>'", err_path.string(), "'");
  const int status = std::system(command.c_str());
  RouthRun run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ostringstream out, err;
  out << std::ifstream(out_path).rdbuf();
  err << std::ifstream(err_path).rdbuf();
  run.out = out.str();
  run.err = err.str();
  return run;
}

/// Starts `command` (a shell command line) in the scratch folder as a child of the test, its
/// output discarded; the shell execs the command, so the pid returned is the command's own (the
/// process a signal is meant for). The caller waits for it.
inline pid_t start_command(const std::string& command_line) {
  const std::string shell_line =
      cat("cd '", scratch().string(), "' && exec ", command_line, " >/dev/null 2>&1");
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execl("/bin/sh", "sh", "-c", shell_line.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return pid;
}

/// How start_routh() starts the program: where its output goes, and a cap on the files it writes.
struct RouthChild {
  std::filesystem::path out = "/dev/null";  ///< its stdout (a relative path: in the scratch folder)
  std::filesystem::path err = "/dev/null";  ///< its stderr
  /// > 0: every file it writes is capped at this many bytes (RLIMIT_FSIZE, no root needed), so
  /// that a write past it fails as on a full disk (EFBIG instead of ENOSPC)
  long file_size_limit = 0;
  /// with the cap: SIGXFSZ left at its default action (which kills a program that does not
  /// ignore it itself) instead of ignored, as Python and many batch shells leave it
  bool file_size_signal = false;
};

/// Starts `routh ARGUMENTS...` (no shell) as a child of the test, in the scratch folder; returns
/// its pid, which the caller waits for.
inline pid_t start_routh(const std::vector<std::string>& arguments, const RouthChild& child = {}) {
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  if (::chdir(scratch().c_str()) != 0) ::_exit(127);
  if (std::freopen(child.out.c_str(), "w", stdout) == nullptr) ::_exit(127);
  if (std::freopen(child.err.c_str(), "w", stderr) == nullptr) ::_exit(127);
  if (child.file_size_limit > 0) {
    std::signal(SIGXFSZ, child.file_size_signal ? SIG_DFL : SIG_IGN);
    const auto bytes = static_cast<rlim_t>(child.file_size_limit);
    const rlimit limit{bytes, bytes};
    if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) ::_exit(126);
  }
  std::vector<char*> argv{const_cast<char*>(ROUTH_BINARY)};
  for (const std::string& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);
  ::execv(ROUTH_BINARY, argv.data());
  ::_exit(127);
}

/// Waits for `pid`; its exit code, or 128 + the signal that ended it.
inline int wait_exit(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/// Runs `routh ARGUMENTS` (passed through the shell as written) in the scratch folder.
inline RouthRun run_routh(const std::string& arguments) {
  return run_command(cat("'", ROUTH_BINARY, "' ", arguments));
}

}  // namespace routh::test

namespace routh::test {

/// Waits (up to `timeout`) until process `pid` runs the routh program and has installed a
/// handler for `signal_number`, read from /proc/PID (Linux): its executable, and the SigCgt mask
/// of its status. A stop request sent before that ends it by the signal's default action (or, in
/// the child forked from the test, not yet replaced by routh, by the test's own handler), which
/// says nothing about routh's handling of it: a program started under the sanitizers on a busy
/// machine took more than the 100 ms a test used to wait. False if it never did.
inline bool wait_until_catching(pid_t pid, int signal_number,
                                std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  const std::filesystem::path process = cat("/proc/", pid);
  const std::filesystem::path program = std::filesystem::canonical(ROUTH_BINARY);
  const auto catching = [&] {
    std::error_code error;
    if (std::filesystem::read_symlink(process / "exe", error) != program || error) return false;
    std::ifstream status(process / "status");
    std::string line;
    while (std::getline(status, line)) {
      if (line.rfind("SigCgt:", 0) != 0) continue;
      const unsigned long long caught = std::stoull(line.substr(7), nullptr, 16);
      return ((caught >> (signal_number - 1)) & 1ULL) != 0;
    }
    return false;
  };
  while (std::chrono::steady_clock::now() < deadline) {
    if (catching()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

}  // namespace routh::test
