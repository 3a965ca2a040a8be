#pragma once
// `routh plot`, `routh animate`, `routh view`: pictures of a run, drawn by the Python package
// routh (python/routh: plot.py, animate.py, view.py). Each becomes `PYTHON -m routh.MODULE
// ARGS...` in routh's place (exec: Python's output, exit code and signals are the command's),
// where PYTHON is $ROUTH_PYTHON or the interpreter the build was configured with, and PYTHONPATH
// starts with the build's package directory. A quick look first (the interpreter starts, finds
// the package, the module and the libraries it needs, importing none of them) turns what would
// be a Python traceback into an error that names the interpreter and the fix.

#include <string_view>

#include "tools/routh/command.hpp"

namespace routh::cli {

/// One subcommand run by Python: its name, its module in the package routh, and the libraries
/// (import names, space-separated) the module needs.
struct PythonCommand {
  std::string_view name;
  std::string_view module;
  std::string_view libraries;
};

inline constexpr PythonCommand kPlotCommand{"plot", "plot", "numpy h5py pandas matplotlib"};
inline constexpr PythonCommand kAnimateCommand{"animate", "animate",
                                               "numpy h5py pandas matplotlib PIL"};
inline constexpr PythonCommand kViewCommand{"view", "view", "numpy h5py pandas"};

/// Runs `command` with `arguments` (those after its name): returns only when Python cannot be
/// started (an error printed, kExitBadInput); otherwise the process becomes Python's.
int run_python_command(const PythonCommand& command, CommandArguments arguments);

int run_plot_command(CommandArguments arguments);
int run_animate_command(CommandArguments arguments);
int run_view_command(CommandArguments arguments);

}  // namespace routh::cli
