#pragma once
// Running the built `routh` program from a test, as a user would: through the shell, from the
// scratch folder, capturing what it prints and how it exits.

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

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

/// Runs `routh ARGUMENTS` (passed through the shell as written) in the scratch folder.
inline RouthRun run_routh(const std::string& arguments) {
  return run_command(cat("'", ROUTH_BINARY, "' ", arguments));
}

}  // namespace routh::test
