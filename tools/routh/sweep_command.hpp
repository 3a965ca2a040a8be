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
    "(SIGINT), SIGTERM or SIGUSR1 (the one mpirun forwards) stops cleanly: runs in flight are\n"
    "abandoned, the table holds the rows before them, and --resume goes on from there. An\n"
    "output that cannot be written (no space left, a file-size limit, a vanished folder) stops\n"
    "the same way; the journal keeps the rows before it.\n"
    "Exit status: 0 every run is in the table (whatever each run's own status), 1 bad input,\n"
    "2 usage error, 20 the journal, a trajectory or the table could not be written, 21 another\n"
    "sweep is writing this table (nothing was touched), 130 stopped by a signal.\n";

int run_sweep_command(CommandArguments arguments);

}  // namespace routh::cli
