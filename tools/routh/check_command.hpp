#pragma once
// `routh check SCENARIO.yaml [-o FILE] [--set key.path=value ...] [--force]`: everything
// `routh run` checks before it simulates (run_request.hpp), and nothing more: no simulation, no
// file created or touched.

#include "tools/routh/command.hpp"

namespace routh::cli {

inline constexpr std::string_view kCheckUsage =
    "usage: routh check SCENARIO.yaml [-o FILE] [--set key.path=value ...] [--force]\n"
    "Reads and checks the scenario as `routh run` would with the same arguments: the model, the\n"
    "laws, contact parameters, the excitation with its record files, the output settings and\n"
    "the output file (not the scenario itself, in an existing folder; an existing file is only a\n"
    "note, as check writes nothing). Simulates nothing and writes no file.\n"
    "Prints 'SCENARIO.yaml: ok (model ..., law ..., N coordinates, K contacts, output FILE)', and\n"
    "the scenario's warnings on stderr; on an error, the message `routh run` would print.\n"
    "  -o FILE, --set key.path=value   as for `routh run`; --force silences the note\n"
    "Exit status: 0 the scenario would run, 1 bad input, 2 usage error.\n";

int run_check_command(CommandArguments arguments);

}  // namespace routh::cli
