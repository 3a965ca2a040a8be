#pragma once
// What every routh subcommand shares: its signature and the exit codes scripts rely on.

#include <span>
#include <string_view>

namespace routh::cli {

inline constexpr int kExitSuccess = 0;   ///< done, including "no impact"
inline constexpr int kExitBadInput = 1;  ///< the input was wrong or the law could not solve it
inline constexpr int kExitUsage = 2;     ///< the command line was wrong

/// A subcommand receives the arguments after its name and returns the exit code.
using CommandArguments = std::span<const std::string_view>;

/// True when the arguments ask for help (-h or --help).
inline bool asks_for_help(CommandArguments arguments) {
  for (std::string_view argument : arguments) {
    if (argument == "-h" || argument == "--help") return true;
  }
  return false;
}

}  // namespace routh::cli
