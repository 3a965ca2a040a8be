#pragma once
// `routh info FILE.h5 [--events [--csv]]`: a human summary of a trajectory file written by the
// recorder, or its event log as a table; or a summary of a sweep table (sweep_info.hpp).

#include "tools/routh/command.hpp"

namespace routh::cli {

inline constexpr std::string_view kInfoUsage =
    "usage: routh info FILE.h5 [--events [--csv]] [--time-limit SECONDS]\n"
    "Summarizes a trajectory file: format and version, law, how the run ended (status:\n"
    "completed, interrupted, time_limit, ...; `unfinished` if its writer never said, e.g. it\n"
    "crashed or was killed), time span, samples, coordinates,\n"
    "contacts, events by kind, energy at start and end and its largest rise, flags raised.\n"
    "  --events  print the event log instead, one row per event: t, kind, contacts (by name),\n"
    "            phases, impulse, u_pre and u_post (per contact, normal then tangential; contacts\n"
    "            apart by ';'), delta_T, normal_work, tangential_work, flags, status; columns\n"
    "            aligned, '-' for an empty cell\n"
    "  --csv     with --events: CSV instead, a header row naming each column with its unit\n"
    "            (e.g. 't [s]'), numbers in their shortest form that reads back exactly, empty\n"
    "            cells empty\n"
    "  --time-limit SECONDS  give up reading after this long (default: 30 s + 1 s per 8 MiB\n"
    "            of file): a damaged file can make the HDF5 library loop. With --events, it\n"
    "            times a check of the file before the log, not the printing\n"
    "The file is read in a child process, so that a damaged file that crashes the HDF5 library\n"
    "gets a message. Exit status 0 for a complete trajectory (and for --events); 21 for an\n"
    "incomplete one (its writer was killed or crashed: the file holds the run up to its last\n"
    "flush); 22 for a damaged file (HDF5 cannot read it, or crashed or hung reading it); 1 if\n"
    "the file is missing or not a routh trajectory; 2 for a usage error.\n"
    "On a sweep table (routh sweep): runs planned and written, runs by status, the swept keys\n"
    "and their ranges, the fraction overturned (overall and per body column BODY.overturned),\n"
    "the columns with their units; exit status 0, 22 for a damaged table.\n";

int run_info_command(CommandArguments arguments);

}  // namespace routh::cli
