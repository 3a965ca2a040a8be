#pragma once
// `routh run SCENARIO.yaml [-o FILE] [--set key.path=value ...] [--time-limit SECONDS] [--force]
// [--summary]`: simulates a scenario file (sim/scenario/scenario_file.hpp) and records the
// trajectory to HDF5, under a temporary name renamed onto FILE at the end
// (sim/recorder/output_placement.hpp).

#include "tools/routh/command.hpp"

namespace routh::cli {

inline constexpr std::string_view kRunUsage =
    "usage: routh run SCENARIO.yaml [-o FILE] [--set key.path=value ...] [--time-limit SECONDS]\n"
    "                 [--force] [--summary]\n"
    "Simulates the scenario and writes its trajectory (HDF5; read it with `routh info FILE`).\n"
    "SCENARIO.yaml may be - to read the scenario's YAML from standard input (errors at\n"
    "<stdin>:LINE:COL, record files relative to the current folder, default name scenario).\n"
    "  -o FILE                 write here instead of the scenario's output.file (default:\n"
    "                          <scenario name>.h5 in the current folder)\n"
    "  --set key.path=value    override any scenario key before reading (repeatable); the value\n"
    "                          is YAML, e.g. --set contact.restitution=0.5 --set duration=2\n"
    "                          --set initial.q.theta='3 deg'\n"
    "  --time-limit SECONDS    stop after this much wall-clock time (status time_limit); the\n"
    "                          file holds the run up to there. Any number > 0; inf: no limit\n"
    "  --force                 replace FILE if it exists (without it an existing FILE is an\n"
    "                          error); even with it, FILE may never be a file the run reads\n"
    "                          (the scenario, a record file) nor a directory, device or FIFO;\n"
    "                          a symbolic link FILE is replaced itself, never followed\n"
    "  --summary               print status, final time and every /summary figure as one JSON\n"
    "                          line on stdout instead of the report\n"
    "The file is written as .FILE.tmp-PID-N beside FILE and renamed onto FILE when the run ends\n"
    "(completed, stopped by a trouble status or interrupted).\n"
    "On a terminal a progress line is shown. Ctrl-C (SIGINT) or SIGTERM stops the run cleanly:\n"
    "the file ends with an `interrupted` event.\n"
    "The file's root attributes `status` and `status_detail` say how the run ended.\n"
    "Exit status: 0 completed, 1 bad input, 2 usage error; a run that did not complete:\n"
    "3 time_limit, 4 non_finite_state, 5 step_size_failure, 6 event_storm,\n"
    "7 impact_law_failure, 8 painleve_unresolved, 9 contact_modes_unresolved,\n"
    "10 interpenetration, 130 interrupted; 20 the output file could not be written (e.g. no\n"
    "space left on device) or FILE appeared during the run: the message names the temporary\n"
    "file that keeps it.\n";

int run_run_command(CommandArguments arguments);

}  // namespace routh::cli
