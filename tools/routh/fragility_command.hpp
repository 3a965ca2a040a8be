#pragma once
// `routh fragility TABLE.h5`: a lognormal fragility curve fitted to a sweep table's runs
// (docs/sweeps.md, "Fragility and IDA"), printed as a table and the fit, and written as JSON,
// CSV, Markdown and an SVG plot.

#include "tools/routh/command.hpp"

namespace routh::cli {

/// The table was read but no finite fragility curve fits its runs (every run exceeds, none
/// does, the IM separates them, ...): the output says which, with no numbers for θ and β.
inline constexpr int kExitNoFragilityFit = 24;

inline constexpr std::string_view kFragilityUsage =
    "usage: routh fragility TABLE.h5 [--outcome OUTCOME] [--im COLUMN] [--confidence C]\n"
    "                       [--bootstrap N] [--seed S] [--json] [--csv FILE] [--markdown FILE]\n"
    "                       [-o PLOT.svg] [--force]\n"
    "Fits P(exceed | IM = x) = Phi(ln(x/theta)/beta) by maximum likelihood to the runs of a sweep\n"
    "table (routh sweep), grouped by the distinct values of the IM column (multiple-stripe\n"
    "analysis), with percentile bootstrap intervals of theta and beta.\n"
    "  --outcome OUTCOME  a 0/1 column (default overturned; BODY.overturned) or COLUMN>VALUE on a\n"
    "                     numeric column (max_abs_theta>0.1: a damage state)\n"
    "  --im COLUMN        the intensity measure; default: the swept key ending in .scale or\n"
    "                     scale_to.pga/pgv/sa..., else the pga column\n"
    "  --confidence C     of the intervals, in (0, 1) (default 0.95)\n"
    "  --bootstrap N      replicates (default 1000; 0: no intervals)\n"
    "  --seed S           of the resampling (default 20151: the same output every time)\n"
    "  --json             print one line of JSON instead of the text\n"
    "  --csv FILE, --markdown FILE   the levels' table (IM, runs, exceeding, fraction, fitted)\n"
    "  -o PLOT.svg        the fitted curve, its bootstrap band and the fractions (marker area\n"
    "                     by runs)\n"
    "  --force            replace existing output files\n"
    "Runs whose status is not completed or stopped_on_event, or whose IM or outcome is missing,\n"
    "are left out and counted. Exit status 0 fitted; 24 no finite fit (every run exceeds, none\n"
    "does, or the IM separates them: the output says which); 1 bad input or a table that is not\n"
    "a sweep table; 22 a damaged table; 2 usage error.\n";

int run_fragility_command(CommandArguments arguments);

}  // namespace routh::cli
