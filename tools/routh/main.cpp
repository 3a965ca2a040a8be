// routh: the command-line program (docs/design.md §6). Each subcommand lives in its own file and
// joins the table below with one line.

#include <algorithm>
#include <array>
#include <iostream>
#include <string_view>
#include <vector>

#include "sim/recorder/file_room.hpp"
#include "sim/text.hpp"
#include "tools/routh/check_command.hpp"
#include "tools/routh/compare_command.hpp"
#include "tools/routh/fragility_command.hpp"
#include "tools/routh/ida_command.hpp"
#include "tools/routh/impact_command.hpp"
#include "tools/routh/info_command.hpp"
#include "tools/routh/laws_command.hpp"
#include "tools/routh/models_command.hpp"
#include "tools/routh/python_command.hpp"
#include "tools/routh/record_command.hpp"
#include "tools/routh/run_command.hpp"
#include "tools/routh/sweep_command.hpp"

namespace {

using namespace routh::cli;

struct Subcommand {
  std::string_view name;
  std::string_view summary;
  int (*run)(CommandArguments arguments);
};

constexpr std::array kSubcommands = {
    Subcommand{"run", "simulate a scenario file and record the trajectory (HDF5)",
               &run_run_command},
    Subcommand{"check", "validate a scenario file as run would, without running or writing",
               &run_check_command},
    Subcommand{"sweep", "run a scenario over a grid and random draws into one table (HDF5)",
               &run_sweep_command},
    Subcommand{"impact", "solve one impact problem file and print the result as JSON",
               &run_impact_command},
    Subcommand{"compare", "solve one impact problem with several laws, side by side",
               &run_compare_command},
    Subcommand{"laws", "list the impact laws", &run_laws_command},
    Subcommand{"models", "list the named models, their parameters, coordinates and contacts",
               &run_models_command},
    Subcommand{"info", "summarize a trajectory file or a sweep table (HDF5)", &run_info_command},
    Subcommand{"fragility", "fit a lognormal fragility curve to a sweep table's runs",
               &run_fragility_command},
    Subcommand{"ida", "incremental dynamic analysis curves from a sweep table", &run_ida_command},
    Subcommand{"record", "intensity measures and response spectrum of a ground-motion record",
               &run_record_command},
    Subcommand{"plot", "draw a trajectory file's curves, or a sweep's overturning map (Python)",
               &run_plot_command},
    Subcommand{"animate", "animate a trajectory file into a GIF or an MP4 (Python)",
               &run_animate_command},
    Subcommand{"view", "write a trajectory file's interactive viewer, one HTML file (Python)",
               &run_view_command},
};

void print_usage(std::ostream& out) {
  out << "usage: routh COMMAND [ARGUMENTS]   (routh COMMAND --help for details)\n"
      << "Rigid multibody impacts with friction.\n\ncommands:\n";
  std::size_t name_width = 0;
  for (const Subcommand& subcommand : kSubcommands) {
    name_width = std::max(name_width, subcommand.name.size());
  }
  for (const Subcommand& subcommand : kSubcommands) {
    out << "  " << subcommand.name << std::string(name_width + 2 - subcommand.name.size(), ' ')
        << subcommand.summary << '\n';
  }
  out << "\nrouth --version (or routh version) prints the version.\n";
}

const Subcommand* find_subcommand(std::string_view name) {
  for (const Subcommand& subcommand : kSubcommands) {
    if (subcommand.name == name) return &subcommand;
  }
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  // a write past a file-size limit (ulimit -f) fails with EFBIG and is reported like a full
  // disk, instead of SIGXFSZ killing routh mid-write (docs/output.md)
  routh::ignore_file_size_signal();
  const std::vector<std::string_view> arguments(argv + 1, argv + argc);
  if (arguments.empty()) {
    print_usage(std::cerr);
    return kExitUsage;
  }
  const std::string_view command = arguments.front();
  if (command == "-h" || command == "--help" || command == "help") {
    print_usage(std::cout);
    return kExitSuccess;
  }
  if (command == "--version" || command == "version") {
    std::cout << "routh " << ROUTH_VERSION << '\n';
    return kExitSuccess;
  }
  const Subcommand* subcommand = find_subcommand(command);
  if (subcommand == nullptr) {
    std::array<std::string_view, kSubcommands.size()> names{};
    for (std::size_t i = 0; i < names.size(); ++i) names[i] = kSubcommands[i].name;
    std::cerr << "routh: unknown command '" << command << "'; did you mean '"
              << routh::closest_name(command, names) << "'?\n";
    print_usage(std::cerr);
    return kExitUsage;
  }
  // The subcommands report their own errors; this catches what escapes their argument parsing
  // (e.g. out of memory), so that the program never aborts.
  return run_reporting_errors(command, "(command line)", [&] {
    return subcommand->run(CommandArguments(arguments).subspan(1));
  });
}
