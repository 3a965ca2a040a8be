#include "tools/routh/check_command.hpp"

#include <filesystem>
#include <iostream>
#include <optional>
#include <string>

#include "sim/text.hpp"
#include "tools/routh/run_request.hpp"

namespace routh::cli {

namespace {

std::optional<RunRequest> usage_error(std::string_view message) {
  std::cerr << "routh check: " << message << '\n' << kCheckUsage;
  return std::nullopt;
}

std::optional<RunRequest> parse_request(CommandArguments arguments) {
  RunRequest request;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    if (const std::string error = read_run_argument(arguments, i, request); !error.empty()) {
      return usage_error(error);
    }
  }
  if (const std::string error = finish_run_request(request); !error.empty()) {
    return usage_error(error);
  }
  return request;
}

// "2 contacts", "1 coordinate"
std::string counted(std::size_t count, std::string_view noun) {
  return cat(count, " ", noun, count == 1 ? "" : "s");
}

}  // namespace

int run_check_command(CommandArguments arguments) {
  if (asks_for_help(arguments)) {
    std::cout << kCheckUsage;
    return kExitSuccess;
  }
  const std::optional<RunRequest> request = parse_request(arguments);
  if (!request) return kExitUsage;
  // check writes nothing, so an existing output file is not in its way: it is placed as with
  // --force (a folder, a device or an input is still refused, as run refuses it even then), and
  // the file is only a note for the run to come
  RunRequest placed_over = *request;
  placed_over.force = true;
  const std::string source = scenario_source(*request);
  return run_reporting_errors("check", source, [&] {
    const PreparedRun prepared = prepare_run(placed_over);
    const Scenario& scenario = prepared.scenario;
    std::cout << source << ": ok (model " << scenario.model_type << ", law " << scenario.law
              << ", multi-contact law " << scenario.multi_contact_law << ", "
              << counted(scenario.model->coordinate_names().size(), "coordinate") << ", "
              << counted(scenario.model->contact_names().size(), "contact") << ", output "
              << prepared.placement.target.string() << ")\n";
    std::error_code ignored;
    if (!request->force && std::filesystem::exists(std::filesystem::symlink_status(
                               prepared.placement.target, ignored))) {
      std::cerr << source << ": note: output file " << prepared.placement.target.string()
                << " already exists: `routh run` replaces it only with --force\n";
    }
    return kExitSuccess;
  });
}

}  // namespace routh::cli
