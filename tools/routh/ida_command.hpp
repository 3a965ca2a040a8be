#pragma once
// `routh ida TABLE.h5 --response COLUMN`: incremental dynamic analysis curves from a sweep table
// (Vamvatsikos & Cornell, "Incremental dynamic analysis", Earthquake Engineering and Structural
// Dynamics 2002): each record's response against the IM it was scaled to, one curve per record,
// printed as a table and drawn as SVG (docs/sweeps.md, "Fragility and IDA").

#include "tools/routh/command.hpp"

namespace routh::cli {

inline constexpr std::string_view kIdaUsage =
    "usage: routh ida TABLE.h5 --response COLUMN [--im COLUMN] [--by COLUMN] [--csv FILE]\n"
    "                 [-o IDA.svg] [--force]\n"
    "The response of each run of a sweep table against its intensity measure, one curve per\n"
    "record (incremental dynamic analysis), as an aligned table (record, IM, response, status):\n"
    "  --response COLUMN  a numeric column, e.g. max_abs_theta or BODY.max_abs_theta\n"
    "  --im COLUMN        the IM (default as routh fragility: the swept .scale or scale_to key,\n"
    "                     else pga)\n"
    "  --by COLUMN        the column naming the record (default: record, else the one swept text\n"
    "                     key with 'record' in its name, as excitation.0.record.file; without\n"
    "                     either, all runs form one curve)\n"
    "  --csv FILE         the table as CSV\n"
    "  -o IDA.svg         the curves, the response on x and the IM on y (IDA's convention)\n"
    "  --force            replace existing output files\n"
    "Runs whose status is not completed or stopped_on_event are left out of the curves and\n"
    "counted. Exit status 0; 1 bad input; 22 a damaged table; 2 usage error.\n";

int run_ida_command(CommandArguments arguments);

}  // namespace routh::cli
