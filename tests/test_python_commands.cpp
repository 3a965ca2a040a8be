// `routh plot`, `routh animate`, `routh view` (tools/routh/python_command.hpp): they are listed,
// they hand their arguments to `PYTHON -m routh.MODULE` with the build's package first on
// PYTHONPATH and exit with Python's code, and they name the interpreter and the fix when Python,
// the package, the module or a library is missing. The interpreter is replaced through
// ROUTH_PYTHON by small scripts that stand in for it or run the real one with less.

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "sim/text.hpp"
#include "support/routh_process.hpp"
#include "support/scratch_files.hpp"

#ifdef ROUTH_PYTHON_EXECUTABLE

namespace routh {
namespace {

using test::run_routh;
using test::scratch;
using Run = test::RouthRun;

/// An executable shell script `name` in the scratch folder standing in for the interpreter.
std::string interpreter_script(const std::string& name, const std::string& body) {
  const std::filesystem::path path = scratch() / name;
  std::ofstream(path) << "#!/bin/sh\n" << body;
  ::chmod(path.c_str(), 0755);
  return path.string();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("python commands: routh --help lists plot, animate and view") {
  const Run run = run_routh("--help");
  CHECK(run.exit_code == 0);
  for (const char* name : {"\n  plot ", "\n  animate ", "\n  view "}) {
    CHECK_MESSAGE(contains(run.out, name), name);
  }
}

TEST_CASE("python commands: arguments pass to python -m and python's exit code is routh's") {
  // the stand-in runs the real interpreter for the probe (-c) and reports what -m received
  const std::string python = interpreter_script(
      "echoing_python", cat("if [ \"$1\" = -m ]; then echo \"$PYTHONPATH|$*\"; exit 7; fi\nexec '",
                            ROUTH_PYTHON_EXECUTABLE, "' \"$@\"\n"));
  const Run animate = test::run_command(cat("ROUTH_PYTHON='", python, "' PYTHONPATH=/elsewhere '",
                                            ROUTH_BINARY, "' animate run.h5 -o 'a b.gif' --fps 5"));
  CHECK(animate.exit_code == 7);
  CHECK(animate.out ==
        cat(ROUTH_PYTHON_PACKAGE_DIR, ":/elsewhere|-m routh.animate run.h5 -o a b.gif --fps 5\n"));
  CHECK(animate.err.empty());
}

TEST_CASE("python commands: a missing interpreter is named with the fix") {
  const Run run = test::run_command(
      cat("ROUTH_PYTHON=/no/such/python3 '", ROUTH_BINARY, "' plot run.h5 -o run.png"));
  CHECK(run.exit_code == 1);
  CHECK(run.err ==
        "routh plot: cannot run the Python interpreter '/no/such/python3' ($ROUTH_PYTHON): no "
        "such program, or not executable; set ROUTH_PYTHON to a Python 3 with numpy, h5py, "
        "pandas, matplotlib (on Debian: ROUTH_PYTHON=/usr/bin/python3)\n");
}

TEST_CASE("python commands: missing libraries are named with the commands that install them") {
  // -S: the interpreter without its site-packages, where numpy and the others live
  const std::string python =
      interpreter_script("bare_python", cat("exec '", ROUTH_PYTHON_EXECUTABLE, "' -S \"$@\"\n"));
  const Run run = test::run_command(
      cat("ROUTH_PYTHON='", python, "' '", ROUTH_BINARY, "' animate run.h5 -o run.gif"));
  CHECK(run.exit_code == 1);
  CHECK(run.err == cat("routh animate: the Python interpreter '", python,
                       "' ($ROUTH_PYTHON) lacks numpy, h5py, pandas, matplotlib, PIL, which "
                       "routh.animate needs: install them for it ('",
                       python,
                       "' -m pip install numpy h5py pandas matplotlib pillow; on Debian: apt-get "
                       "install python3-numpy python3-h5py python3-pandas python3-matplotlib "
                       "python3-pil), or set ROUTH_PYTHON to a Python 3 that has them (on Debian: "
                       "ROUTH_PYTHON=/usr/bin/python3)\n"));
}

TEST_CASE("python commands: a package without the module, or no package, is named") {
  const std::filesystem::path package = scratch() / "old_package" / "routh";
  std::filesystem::create_directories(package);
  std::ofstream(package / "__init__.py") << "";
  const std::string old_package =
      interpreter_script("old_python", cat("PYTHONPATH='", package.parent_path().string(),
                                           "' exec '", ROUTH_PYTHON_EXECUTABLE, "' \"$@\"\n"));
  const Run view =
      test::run_command(cat("ROUTH_PYTHON='", old_package, "' '", ROUTH_BINARY, "' view run.h5"));
  CHECK(view.exit_code == 1);
  CHECK(view.err == cat("routh view: the Python package routh that the Python interpreter '",
                        old_package, "' ($ROUTH_PYTHON) finds (", package.string(),
                        ") has no module routh.view: the package is older than this routh "
                        "program; rebuild it (cmake --build BUILD --target routh_python_core) "
                        "or reinstall it\n"));

  const std::string no_package = interpreter_script(
      "isolated_python", cat("exec '", ROUTH_PYTHON_EXECUTABLE, "' -I \"$@\"\n"));
  const Run plot = test::run_command(
      cat("ROUTH_PYTHON='", no_package, "' '", ROUTH_BINARY, "' plot run.h5 -o run.png"));
  CHECK(plot.exit_code == 1);
  CHECK(contains(plot.err, cat("routh plot: the Python interpreter '", no_package,
                               "' ($ROUTH_PYTHON) cannot find the Python package routh")));
  CHECK(contains(plot.err, "or set ROUTH_PYTHON to the interpreter it is installed for\n"));
}

}  // namespace routh

#endif  // ROUTH_PYTHON_EXECUTABLE
