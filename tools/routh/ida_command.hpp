#pragma once
// `routh ida TABLE.h5 --response COLUMN`: incremental dynamic analysis curves from a sweep table
// (Vamvatsikos & Cornell, "Incremental dynamic analysis", Earthquake Engineering and Structural
// Dynamics 2002): each record's response against the IM it was scaled to, one curve per record
// through the median of each IM level, runs that overturned counted as collapse; printed as a
// table and drawn as SVG (docs/sweeps.md, "Fragility and IDA").

#include "tools/routh/command.hpp"

namespace routh::cli {

inline constexpr std::string_view kIdaUsage =
    "usage: routh ida TABLE.h5 --response COLUMN [--im COLUMN] [--by COLUMN] [--csv FILE]\n"
    "                 [-o IDA.svg] [--no-collapse] [--force]\n"
    "Incremental dynamic analysis curves from a sweep table: for each record and IM level the\n"
    "runs, how many collapsed (overturned) and the median response, as an aligned table:\n"
    "  --response COLUMN  a numeric column, e.g. max_abs_theta or BODY.max_theta_over_alpha\n"
    "  --im COLUMN        the IM (default as routh fragility: the swept .scale or scale_to key,\n"
    "                     else pga)\n"
    "  --by COLUMN        the column naming the record (default: record, else the one swept text\n"
    "                     key with 'record' in its name, as excitation.0.record.file; without\n"
    "                     either, all runs form one curve)\n"
    "  --csv FILE         the table as CSV (a median at collapse: inf)\n"
    "  -o IDA.svg         the curves, the response on x and the IM on y (IDA's convention): a\n"
    "                     line per record through its medians, each run a faint dot, collapsed\n"
    "                     runs as x in the 'overturned' band beyond the axis\n"
    "  --no-collapse      draw and take the median of every run's response as it is\n"
    "  --force            replace existing output files\n"
    "A run collapsed when BODY.overturned (for a response BODY.*), else overturned, is not 0; it\n"
    "counts as +inf in the median, whatever its response after overturning. Runs whose status is\n"
    "not completed or stopped_on_event are left out and counted. Exit status 0; 1 bad input; 22\n"
    "a damaged table; 2 usage error.\n";

int run_ida_command(CommandArguments arguments);

}  // namespace routh::cli
