#pragma once
// `routh sweep SWEEP.yaml [-o FILE] [--jobs N] [--resume] [--force]`: runs a sweep file
// (sim/sweep/sweep_file.hpp) into one table (sim/recorder/sweep_table.hpp); docs/sweeps.md.

#include "tools/routh/command.hpp"

namespace routh::cli {

inline constexpr std::string_view kSweepUsage =
    "usage: routh sweep SWEEP.yaml [-o FILE] [--jobs N] [--resume] [--force]\n"
    "Runs the base scenario once per grid point and random draw, and writes one row per run to\n"
    "the table /runs of an HDF5 file (and a CSV beside it when output.csv is true).\n"
    "  -o FILE      write the table here instead of the sweep's output.file (default:\n"
    "               <sweep name>.h5 in the current folder)\n"
    "  --jobs N     worker threads (default: every core; under mpirun: 1 per rank)\n"
    "  --resume     continue a sweep that was stopped or killed, after its last journaled row\n"
    "  --force      start again, replacing an existing table, journal and CSV; even with it,\n"
    "               FILE may never be the sweep file, its base scenario or a record file,\n"
    "               nor a directory, device or FIFO (docs/output.md)\n"
    "Under `mpirun -n K` the K processes share the runs; the table is the same as with one.\n"
    "On a terminal a progress line shows runs done, runs per second and time left. Ctrl-C\n"
    "(SIGINT) or SIGTERM stops cleanly: runs in flight are abandoned, the table holds the rows\n"
    "before them, and --resume goes on from there.\n"
    "Exit status: 0 every run is in the table (whatever each run's own status), 1 bad input or\n"
    "output, 2 usage error, 130 stopped by SIGINT/SIGTERM.\n";

int run_sweep_command(CommandArguments arguments);

}  // namespace routh::cli
