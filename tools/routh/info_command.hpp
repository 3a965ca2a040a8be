#pragma once
// `routh info FILE.h5`: a human summary of a trajectory file written by the recorder.

#include "tools/routh/command.hpp"

namespace routh::cli {

inline constexpr std::string_view kInfoUsage =
    "usage: routh info FILE.h5\n"
    "Summarizes a trajectory file: format and version, law, how the run ended (status:\n"
    "completed, interrupted, time_limit, ...; `unfinished` if its writer never said, e.g. it\n"
    "crashed or was killed), time span, samples, coordinates,\n"
    "contacts, events by kind, energy at start and end and its largest rise, flags raised.\n"
    "Exit status 1 if the file is missing or not a routh trajectory.\n";

int run_info_command(CommandArguments arguments);

}  // namespace routh::cli
