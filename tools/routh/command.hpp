#pragma once
// What every routh subcommand shares: its signature and the exit codes scripts rely on.

#include <exception>
#include <iostream>
#include <span>
#include <string_view>

#include "sim/recorder/file_room.hpp"
#include "sim/scenario/input_file.hpp"
#include "sim/scenario/yaml_input.hpp"
#include "sim/simulation/run_status.hpp"

namespace routh::cli {

inline constexpr int kExitSuccess = 0;   ///< done, including "no impact"
inline constexpr int kExitBadInput = 1;  ///< the input was wrong or the law could not solve it
inline constexpr int kExitUsage = 2;     ///< the command line was wrong
/// The output file could not be written (disk full, file too large, I/O error) or put in place
/// (its target appeared meanwhile); the message names the temporary file that keeps the run.
/// Apart from the run statuses' codes (3 and up, 130).
inline constexpr int kExitOutputError = 20;
/// `routh info`: the trajectory file is readable but its run never recorded how it ended (its
/// writer was killed or crashed): it holds the run up to the last flush.
inline constexpr int kExitIncompleteTrajectory = 21;
/// `routh info`: the file is damaged: HDF5 cannot read it, or crashed or hung reading it.
inline constexpr int kExitDamagedFile = 22;
/// `routh sweep`: the table is being written by another sweep that is still running; nothing was
/// touched.
inline constexpr int kExitOutputInUse = 23;

/// A subcommand receives the arguments after its name and returns the exit code.
using CommandArguments = std::span<const std::string_view>;

/// True when the arguments ask for help (-h or --help).
inline bool asks_for_help(CommandArguments arguments) {
  for (std::string_view argument : arguments) {
    if (argument == "-h" || argument == "--help") return true;
  }
  return false;
}

/// "routh COMMAND: FILE: message", naming the file once even when the message starts with it.
inline void print_command_error(std::string_view command, std::string_view file,
                                std::string_view message) {
  std::cerr << "routh " << command << ": ";
  if (!message.starts_with(file)) std::cerr << file << ": ";
  std::cerr << message << '\n';
}

/// Runs `work` (a subcommand's reading and computing, returning its exit code) so that nothing
/// it throws escapes as an abort: a located InputError is printed as it is (it starts with
/// file:line:column, which editors link to); a SIGINT/SIGTERM while an input was read ends with
/// the `interrupted` run status's code (130); anything else is printed naming the command and
/// the file, and the exit code is 1, or kExitOutputError for an output that could not be written
/// (OutputWriteError: a full disk, a size limit, a vanished folder).
template <typename Work>
int run_reporting_errors(std::string_view command, std::string_view file, Work&& work) {
  try {
    return work();
  } catch (const InputInterrupted& interrupted) {
    print_command_error(command, file, interrupted.what());
    return exit_code(RunStatus::interrupted);
  } catch (const InputError& error) {
    std::cerr << error.what() << '\n';
  } catch (const OutputWriteError& error) {
    print_command_error(command, file, error.what());
    return kExitOutputError;
  } catch (const std::exception& error) {
    print_command_error(command, file, error.what());
  } catch (...) {
    print_command_error(command, file, "unexpected error of unknown type");
  }
  return kExitBadInput;
}

}  // namespace routh::cli
