#include "tools/routh/python_command.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "sim/text.hpp"

namespace routh::cli {

namespace {

// The probe's exit codes besides 0 (everything found).
constexpr int kNoPackage = 10;
constexpr int kNoModule = 11;      // printing the package's directories
constexpr int kNoLibraries = 12;   // printing the missing libraries
constexpr int kCannotStart = 127;  // the shell's code for a command it cannot run

/// The interpreter to run and where that choice came from.
struct Interpreter {
  std::string path;
  std::string origin;
};

Interpreter chosen_interpreter() {
  const char* from_environment = std::getenv("ROUTH_PYTHON");
  if (from_environment != nullptr && *from_environment != '\0') {
    return {from_environment, "$ROUTH_PYTHON"};
  }
  return {ROUTH_PYTHON_EXECUTABLE, "the interpreter routh was built with"};
}

/// PYTHONPATH with the build's package directory first (the build's package wins over an
/// installed one of another version).
void put_package_first() {
  const std::string package_dir = ROUTH_PYTHON_PACKAGE_DIR;
  if (package_dir.empty()) return;
  const char* current = std::getenv("PYTHONPATH");
  const std::string path =
      current != nullptr && *current != '\0' ? cat(package_dir, ":", current) : package_dir;
  ::setenv("PYTHONPATH", path.c_str(), 1);
}

/// The words of a space-separated list.
std::vector<std::string> words_of(std::string_view text) {
  std::istringstream stream{std::string(text)};
  std::vector<std::string> words;
  for (std::string word; stream >> word;) words.push_back(word);
  return words;
}

std::vector<char*> argv_of(std::vector<std::string>& words) {
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  return argv;
}

/// The look before the exec, run as `PYTHON -c SCRIPT MODULE LIBRARY...`: it finds the package,
/// its module and the libraries, and imports none of them (a second of matplotlib is paid once,
/// by the command itself).
std::string probe_script() {
  return cat(
      "import importlib.util, os, sys\n"
      "spec = importlib.util.find_spec('routh')\n"
      "if spec is None:\n"
      "    sys.exit(",
      kNoPackage,
      ")\n"
      "places = list(spec.submodule_search_locations or [])\n"
      "if not any(os.path.exists(os.path.join(place, sys.argv[1] + '.py')) for place in places):\n"
      "    print(os.pathsep.join(places))\n"
      "    sys.exit(",
      kNoModule,
      ")\n"
      "missing = [name for name in sys.argv[2:] if importlib.util.find_spec(name) is None]\n"
      "print(' '.join(missing))\n"
      "sys.exit(",
      kNoLibraries, " if missing else 0)\n");
}

/// What the probe printed and how it ended.
struct ProbeResult {
  int exit_code = kCannotStart;
  std::string output;
};

ProbeResult probe(const Interpreter& python, const PythonCommand& command) {
  std::vector<std::string> words = {python.path, "-c", probe_script(), std::string(command.module)};
  for (std::string& library : words_of(command.libraries)) words.push_back(std::move(library));
  int pipe_ends[2];
  if (::pipe(pipe_ends) != 0) return {};
  std::cout.flush();
  std::cerr.flush();
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(pipe_ends[0]);
    ::close(pipe_ends[1]);
    return {};
  }
  if (child == 0) {
    ::dup2(pipe_ends[1], STDOUT_FILENO);
    ::close(pipe_ends[0]);
    ::close(pipe_ends[1]);
    std::vector<char*> argv = argv_of(words);
    ::execvp(argv[0], argv.data());
    ::_exit(kCannotStart);
  }
  ::close(pipe_ends[1]);
  ProbeResult result;
  char buffer[4096];
  for (;;) {
    const ssize_t count = ::read(pipe_ends[0], buffer, sizeof buffer);
    if (count > 0) {
      result.output.append(buffer, static_cast<std::size_t>(count));
    } else if (count == 0 || errno != EINTR) {
      break;
    }
  }
  ::close(pipe_ends[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : kCannotStart;
  while (!result.output.empty() && result.output.back() == '\n') result.output.pop_back();
  return result;
}

/// The pip and Debian package names of import names: PIL is pillow (python3-pil).
std::string install_hint(const Interpreter& python, const std::string& missing) {
  std::string pip, debian;
  for (const std::string& name : words_of(missing)) {
    pip += cat(" ", name == "PIL" ? "pillow" : name);
    std::string lower = name;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    debian += cat(" python3-", lower);
  }
  return cat("install them for it ('", python.path, "' -m pip install", pip,
             "; on Debian: apt-get install", debian, "), or set ROUTH_PYTHON to a Python 3 that ",
             "has them (on Debian: ROUTH_PYTHON=/usr/bin/python3)");
}

/// The error of a probe that failed, naming the interpreter and the fix.
std::string probe_error(const Interpreter& python, const PythonCommand& command,
                        const ProbeResult& result) {
  const std::string module = cat("routh.", command.module);
  const std::string who = cat("the Python interpreter '", python.path, "' (", python.origin, ")");
  const std::string libraries = comma_list(words_of(command.libraries));
  switch (result.exit_code) {
    case kCannotStart:
      return cat("cannot run ", who, ": no such program, or not executable; set ROUTH_PYTHON to ",
                 "a Python 3 with ", libraries, " (on Debian: ROUTH_PYTHON=/usr/bin/python3)");
    case kNoPackage:
      return cat(who, " cannot find the Python package routh (PYTHONPATH=",
                 std::getenv("PYTHONPATH") == nullptr ? "" : std::getenv("PYTHONPATH"),
                 "): build it (cmake --build BUILD --target routh_python_core) or install it ",
                 "(docs/python.md), or set ROUTH_PYTHON to the interpreter it is installed for");
    case kNoModule:
      return cat("the Python package routh that ", who, " finds (", result.output,
                 ") has no module ", module, ": the package is older than this routh program; ",
                 "rebuild it (cmake --build BUILD --target routh_python_core) or reinstall it");
    case kNoLibraries:
      return cat(who, " lacks ", comma_list(words_of(result.output)), ", which ", module,
                 " needs: ", install_hint(python, result.output));
    default:
      return cat(who, " failed to start (exit code ", result.exit_code,
                 "); set ROUTH_PYTHON to a Python 3 with ", libraries);
  }
}

}  // namespace

int run_python_command(const PythonCommand& command, CommandArguments arguments) {
  const Interpreter python = chosen_interpreter();
  put_package_first();
  const ProbeResult result = probe(python, command);
  if (result.exit_code != 0) {
    std::cerr << "routh " << command.name << ": " << probe_error(python, command, result) << '\n';
    return kExitBadInput;
  }
  std::vector<std::string> words = {python.path, "-m", cat("routh.", command.module)};
  for (std::string_view argument : arguments) words.emplace_back(argument);
  std::cout.flush();
  std::cerr.flush();
  std::vector<char*> argv = argv_of(words);
  ::execvp(argv[0], argv.data());
  std::cerr << "routh " << command.name << ": cannot run '" << python.path
            << "': " << std::strerror(errno) << '\n';
  return kExitBadInput;
}

int run_plot_command(CommandArguments arguments) {
  return run_python_command(kPlotCommand, arguments);
}

int run_animate_command(CommandArguments arguments) {
  return run_python_command(kAnimateCommand, arguments);
}

int run_view_command(CommandArguments arguments) {
  return run_python_command(kViewCommand, arguments);
}

}  // namespace routh::cli
