#pragma once
// `routh run SCENARIO.yaml [-o FILE] [--set key.path=value ...]`: simulates a scenario file
// (sim/scenario/scenario_file.hpp) and records the trajectory to HDF5.

#include "tools/routh/command.hpp"

namespace routh::cli {

inline constexpr std::string_view kRunUsage =
    "usage: routh run SCENARIO.yaml [-o FILE] [--set key.path=value ...]\n"
    "Simulates the scenario and writes its trajectory (HDF5; read it with `routh info FILE`).\n"
    "  -o FILE                 write here instead of the scenario's output.file (default:\n"
    "                          <scenario name>.h5 in the current folder)\n"
    "  --set key.path=value    override any scenario key before reading (repeatable); the value\n"
    "                          is YAML, e.g. --set contact.restitution=0.5 --set duration=2\n"
    "                          --set initial.q.theta='3 deg'\n"
    "On a terminal a progress line is shown. Ctrl-C (SIGINT) or SIGTERM stops the run cleanly:\n"
    "the file ends with an `interrupted` event.\n"
    "Exit status: 0 completed, 1 bad input or a run that did not complete, 2 usage error.\n";

int run_run_command(CommandArguments arguments);

}  // namespace routh::cli
