#pragma once
// `routh record FILE`: the intensity measures of a ground-motion record file and its
// pseudo-spectral accelerations (docs/excitation.md, "Intensity measures and scaling"), as text
// or as one line of JSON.

#include "tools/routh/command.hpp"

namespace routh::cli {

inline constexpr std::string_view kRecordUsage =
    "usage: routh record FILE [--units g|m/s2] [--period T ...] [--damping Z] [--json]\n"
    "Prints the intensity measures of a ground-motion record (a PEER NGA .AT2 file or a\n"
    "two-column file of time [s] and acceleration): PGA, PGV, PGD, Arias intensity, CAV,\n"
    "the significant duration D5-95 and the pseudo-spectral acceleration Sa at each period.\n"
    "  --units U     the two-column file's accelerations: m/s2 (default) or g (.AT2 files are in "
    "g)\n"
    "  --period T    one or more periods [s] for Sa (default 0.1 0.2 0.5 1 2)\n"
    "  --damping Z   the oscillator's damping ratio, in [0, 0.99] (default 0.05)\n"
    "  --json        print one line of JSON, values in m, s and m/s^2\n";

int run_record_command(CommandArguments arguments);

}  // namespace routh::cli
