#pragma once
// `routh compare PROBLEM.yaml [--laws A,B,...] [--json]`: one impact problem, several laws, side
// by side (impulses, u⁺, ΔT, type, flags), so a user can see where the laws disagree.

#include <string_view>

#include "tools/routh/command.hpp"

namespace routh::cli {

inline constexpr std::string_view kCompareUsage =
    "usage: routh compare PROBLEM.yaml [--laws NAME,NAME,...] [--json]\n"
    "Solves one impact with several laws and prints their results side by side: status, type,\n"
    "impulse (per contact normal first), u_post, delta_T and flags.\n"
    "  --laws LIST   comma-separated law names (see `routh laws`); default: every law whose\n"
    "                scope covers the problem\n"
    "  --json        print {problem, results: [one `routh impact` object per law], warnings}\n"
    "Exit status: 0 compared, 1 bad input, 2 usage error. A law that cannot solve the problem\n"
    "shows its status in its row.\n";

int run_compare_command(CommandArguments arguments);

}  // namespace routh::cli
