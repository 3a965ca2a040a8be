#pragma once
// `routh laws`: the catalogue of impact laws, one line each.

#include "tools/routh/command.hpp"

namespace routh::cli {

inline constexpr std::string_view kLawsUsage =
    "usage: routh laws [--json]\n"
    "Lists the impact laws a problem or scenario may name: name, scope, summary.\n"
    "  --json   print them as one JSON array of {name, scope, summary}\n";

int run_laws_command(CommandArguments arguments);

}  // namespace routh::cli
