#include "tools/routh/laws_command.hpp"

#include <algorithm>
#include <iostream>
#include <string>

#include "sim/impact/law_catalogue.hpp"
#include "sim/json_writer.hpp"

namespace routh::cli {

namespace {

std::string padded(std::string_view text, std::size_t width) {
  return std::string(text) + std::string(width - text.size() + 2, ' ');
}

// --json: what routh.laws() returns, for a Python without the compiled module.
void write_json(std::ostream& out) {
  JsonWriter json(out);
  json.begin_array();
  for (const LawEntry& law : impact_laws()) {
    json.begin_object(JsonLayout::one_line);
    json.key("name");
    json.value(law.name);
    json.key("scope");
    json.value(to_string(law.scope));
    json.key("summary");
    json.value(law.summary);
    json.end_object();
  }
  json.end_array();
}

}  // namespace

int run_laws_command(CommandArguments arguments) {
  if (asks_for_help(arguments)) {
    std::cout << kLawsUsage;
    return kExitSuccess;
  }
  if (arguments.size() == 1 && arguments.front() == "--json") {
    write_json(std::cout);
    return kExitSuccess;
  }
  if (!arguments.empty()) {
    std::cerr << "routh laws: unexpected argument '" << arguments.front() << "'\n" << kLawsUsage;
    return kExitUsage;
  }
  std::size_t name_width = 0;
  std::size_t scope_width = 0;
  for (const LawEntry& law : impact_laws()) {
    name_width = std::max(name_width, law.name.size());
    scope_width = std::max(scope_width, to_string(law.scope).size());
  }
  for (const LawEntry& law : impact_laws()) {
    std::cout << padded(law.name, name_width) << padded(to_string(law.scope), scope_width)
              << law.summary << '\n';
  }
  return kExitSuccess;
}

}  // namespace routh::cli
