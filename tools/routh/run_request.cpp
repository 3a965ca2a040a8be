#include "tools/routh/run_request.hpp"

#include <yaml-cpp/yaml.h>

#include <iostream>
#include <iterator>

#include "sim/scenario/input_file.hpp"

#include "sim/text.hpp"
#include "tools/routh/recorded_run.hpp"

namespace routh::cli {

namespace {

// A YAML scalar that reads back as exactly `text` (a file name may hold ':' or '#').
std::string yaml_quoted(std::string_view text) {
  YAML::Emitter out;
  out << YAML::DoubleQuoted << std::string(text);
  return out.c_str();
}

bool reads_standard_input(const RunRequest& request) {
  return request.scenario_path == kStandardInputArgument;
}

// Standard input up to one byte past the scenario's size limit (load_scenario_text refuses
// that), so that an endless input is not read for ever.
std::string read_standard_input() {
  std::string text;
  std::istreambuf_iterator<char> next(std::cin);
  for (const std::istreambuf_iterator<char> end; next != end; ++next) {
    text.push_back(*next);
    if (text.size() > kScenarioInput.max_bytes) break;
  }
  return text;
}

}  // namespace

std::string read_run_argument(CommandArguments arguments, std::size_t& i, RunRequest& request) {
  const std::string_view argument = arguments[i];
  const bool has_value = i + 1 < arguments.size();
  if ((argument == "-o" || argument == "--output") && has_value) {
    request.output = std::string(arguments[++i]);
  } else if (argument == "--set" && has_value) {
    const std::string_view item = arguments[++i];
    if (item.find('=') == std::string_view::npos || item.front() == '=') {
      return cat("--set ", item, ": expected key.path=value");
    }
    request.overrides.emplace_back(item);
  } else if (argument == "--force") {
    request.force = true;
  } else if (argument.starts_with("-") && argument != kStandardInputArgument) {
    return cat("unknown option or missing value: '", argument, "'");
  } else if (!request.scenario_path.empty()) {
    return cat("unexpected argument '", argument, "': give one scenario file");
  } else {
    request.scenario_path = argument;
  }
  return "";
}

std::string finish_run_request(const RunRequest& request) {
  return request.scenario_path.empty() ? "missing the scenario file (or - for standard input)" : "";
}

std::string scenario_source(const RunRequest& request) {
  return reads_standard_input(request) ? std::string(kStandardInputSource) : request.scenario_path;
}

PreparedRun prepare_run(const RunRequest& request) {
  std::vector<std::string> overrides = request.overrides;
  if (request.output) overrides.push_back(cat("output.file=", yaml_quoted(*request.output)));
  const bool text = reads_standard_input(request);
  Scenario scenario =
      text ? load_scenario_text(read_standard_input(), std::string(kStandardInputSource), overrides)
           : load_scenario(request.scenario_path, overrides);
  for (const std::string& warning : scenario.warnings) std::cerr << warning << '\n';
  const std::optional<std::filesystem::path> file =
      text ? std::nullopt : std::optional<std::filesystem::path>(request.scenario_path);
  OutputPlacement placement =
      plan_output(scenario.output_file, run_inputs(file, scenario), request.force);
  return {std::move(scenario), std::move(placement)};
}

}  // namespace routh::cli
