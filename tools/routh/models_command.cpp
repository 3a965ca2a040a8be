#include "tools/routh/models_command.hpp"

#include <iostream>
#include <string>
#include <vector>

#include "sim/scenario/model_factory.hpp"
#include "sim/scenario/multibody_input.hpp"
#include "sim/scenario/spatial_input.hpp"
#include "sim/text.hpp"
#include "tools/routh/aligned_columns.hpp"
#include "tools/routh/models_markdown.hpp"

namespace routh::cli {

namespace {

// "  label  a, b, c", wrapped under the first name before column 100.
void print_names(std::ostream& out, std::string_view label, const std::vector<std::string>& names) {
  constexpr std::size_t kColumns = 100;
  const std::string indent = cat("  ", label, std::string(13 - label.size(), ' '));
  out << indent;
  if (names.empty()) out << "none";
  std::size_t column = indent.size();
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string item = cat(names[i], i + 1 < names.size() ? "," : "");
    if (i > 0 && column + 1 + item.size() > kColumns) {
      out << '\n' << std::string(indent.size(), ' ');
      column = indent.size();
    } else if (i > 0) {
      out << ' ';
      ++column;
    }
    out << item;
    column += item.size();
  }
  out << '\n';
}

// One row per parameter: key, type, unit, default, range, meaning, in aligned columns.
void print_parameters(std::ostream& out, const ModelPreset& preset) {
  std::vector<std::vector<std::string>> rows = {
      {"key", "type", "unit", "default", "range", "meaning"}};
  for (const ModelParameter& parameter : preset.parameters) {
    const auto columns = parameter_columns(parameter);
    rows.emplace_back(columns.begin(), columns.end());
  }
  AlignedColumns table;
  for (const auto& row : rows) table.measure(row);
  for (const auto& row : rows) {
    out << "    ";
    table.print(out, row);
  }
}

// The coordinates and contacts of the preset built with its defaults.
void print_defaults_model(std::ostream& out, const ModelPreset& preset) {
  const BuiltModel built = build_default_model(preset);
  print_names(out, "coordinates", built.tree->coordinate_names());
  print_names(out, "contacts", built.tree->contact_names());
}

}  // namespace

int run_models_command(CommandArguments arguments) {
  if (asks_for_help(arguments)) {
    std::cout << kModelsUsage;
    return kExitSuccess;
  }
  if (arguments.size() == 1 && arguments.front() == "--markdown") {
    write_models_markdown(std::cout);
    return kExitSuccess;
  }
  if (!arguments.empty()) {
    std::cerr << "routh models: unexpected argument '" << arguments.front() << "'\n"
              << kModelsUsage;
    return kExitUsage;
  }
  std::ostream& out = std::cout;
  out << "Named models: model: {type: NAME, KEY: VALUE, ...}; every key is optional.\n";
  for (const ModelPreset& preset : model_presets()) {
    out << '\n' << preset.name << ": " << preset.summary << '\n';
    print_parameters(out, preset);
    print_defaults_model(out, preset);
  }
  out << "\nObstacles: {type: floor, position: Y}, {type: wall, position: X, free_side: "
         "positive|negative},\n{type: plane, point: [X, Y], normal: [NX, NY]}.\n"
      << "\nA generic multibody instead of a named model:\n"
      << kMultibodyForm
      << "\nFree rigid bodies in space (`dimension: 3`) and their initial state:\n"
      << kSpatialForm;
  return kExitSuccess;
}

}  // namespace routh::cli
