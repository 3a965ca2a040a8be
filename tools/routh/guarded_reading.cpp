#include "tools/routh/guarded_reading.hpp"

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <string>
#include <thread>

#include "sim/recorder/sweep_table_reader.hpp"
#include "sim/text.hpp"
#include "tools/routh/command.hpp"

namespace routh::cli {

namespace {

// "SIGSEGV" for 11: the name users search for.
std::string signal_name(int signal_number) {
  const char* abbreviation = ::sigabbrev_np(signal_number);
  return abbreviation != nullptr ? cat("SIG", abbreviation) : cat("signal ", signal_number);
}

// The child's end: the read's exit code, every stream flushed, no atexit handlers or static
// destructors (the parent's copies of HDF5's state are not the child's to close).
[[noreturn]] void end_child(const std::function<int()>& read) {
  int code = 1;
  try {
    code = read();
  } catch (const std::exception& error) {
    std::cerr << "routh: " << error.what() << '\n';
  }
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  ::_exit(code);
}

}  // namespace

GuardedReading read_in_child(const std::function<int()>& read,
                             std::chrono::milliseconds time_limit) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const pid_t child = ::fork();
  if (child < 0) throw std::runtime_error(cat("cannot start a process: ", std::strerror(errno)));
  if (child == 0) end_child(read);

  // poll: a few ms between looks, so a quick reading costs no more than that
  const auto deadline = std::chrono::steady_clock::now() + time_limit;
  auto pause = std::chrono::microseconds(200);
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(child, &status, WNOHANG);
    if (done == child) break;
    if (done < 0 && errno != EINTR) {
      throw std::runtime_error(cat("cannot wait for the reading process: ", std::strerror(errno)));
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      ::kill(child, SIGKILL);
      while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
      }
      const double seconds = std::chrono::duration<double>(time_limit).count();
      return {std::nullopt, cat("reading it did not end within ", seconds, " s")};
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(20'000));
  }
  if (WIFEXITED(status)) return {WEXITSTATUS(status), ""};
  return {std::nullopt,
          cat("reading it crashed the HDF5 library (", signal_name(WTERMSIG(status)), ")")};
}

int run_on_sweep_table(std::string_view command, const std::string& path,
                       const std::function<int()>& work) {
  const GuardedReading reading = read_in_child(
      [&] {
        return run_reporting_errors(command, path, [&] {
          try {
            return work();
          } catch (const DamagedSweepTableError& error) {
            print_command_error(command, path, error.what());
            return kExitDamagedFile;
          }
        });
      },
      kSweepStudyTimeLimit);
  if (reading.exit_code) return *reading.exit_code;
  print_command_error(command, path, cat("damaged file: ", reading.failure));
  return kExitDamagedFile;
}

}  // namespace routh::cli
