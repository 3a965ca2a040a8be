#pragma once
// `routh impact PROBLEM.yaml [--law NAME]`: solves one impact and prints it as JSON.

#include "tools/routh/command.hpp"

namespace routh::cli {

inline constexpr std::string_view kImpactUsage =
    "usage: routh impact PROBLEM.yaml [--law NAME]\n"
    "Solves one impact and prints it as JSON: law, status, type, impulse (per contact normal\n"
    "first), u_post, v_post (generalized problems), delta_T, W_n, W_t, phases, flags, warnings.\n"
    "  --law NAME   use this law instead of the file's `law` (see `routh laws`)\n"
    "Exit status: 0 solved or no impact, 1 bad input or the law cannot solve it, 2 usage error.\n";

int run_impact_command(CommandArguments arguments);

}  // namespace routh::cli
