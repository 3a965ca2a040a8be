#pragma once
// `routh record FILE`: the intensity measures of a ground-motion record file and its
// pseudo-spectral accelerations (docs/excitation.md, "Intensity measures and scaling"), as text
// or as one line of JSON.

#include "tools/routh/command.hpp"

namespace routh::cli {

inline constexpr std::string_view kRecordUsage =
    "usage: routh record FILE [--format F] [--units U] [--period T ...] [--damping Z] [--json]\n"
    "                    [--samples]\n"
    "Prints the intensity measures of a ground-motion record file (PEER .AT2, ESM, K-NET,\n"
    "COSMOS V2 or two columns of time [s] and acceleration; docs/excitation.md): PGA, PGV, PGD,\n"
    "Arias intensity, CAV, the significant duration D5-95 and the pseudo-spectral acceleration\n"
    "Sa at each period.\n"
    "  --format F    peer, esm, knet, cosmos or columns (default: by the file, as a scenario)\n"
    "  --units U     g, m/s2, cm/s2 or gal: a two-column file's unit (default m/s2); for a file\n"
    "                whose header states its unit, a check\n"
    "  --period T    one or more periods [s] for Sa (default 0.1 0.2 0.5 1 2)\n"
    "  --damping Z   the oscillator's damping ratio, in [0, 0.99] (default 0.05)\n"
    "  --json        print one line of JSON, values in m, s and m/s^2\n"
    "  --samples     with --json, also the samples: time, acceleration, and the ground's\n"
    "                velocity and displacement from rest\n";

int run_record_command(CommandArguments arguments);

}  // namespace routh::cli
