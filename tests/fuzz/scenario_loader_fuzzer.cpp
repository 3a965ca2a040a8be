// libFuzzer target: the scenario loader (sim/scenario/scenario_file.hpp) fed arbitrary YAML.
// A scenario either loads or is refused with a located InputError; any other exception, a crash
// or a sanitizer report is a finding. A scenario that loads must also reload from its effective
// YAML (every default written out, as the trajectory file keeps it) to the same effective YAML,
// or the file would not describe its run. Seeds: scenarios/*.yaml.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "input_file.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/scenario/yaml_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = routh::fuzz::write_input_file("routh_fuzz_scenario", data, size);
  std::string effective;
  try {
    effective = routh::load_scenario(path).effective_yaml;
  } catch (const routh::InputError&) {
    return 0;  // refused with a located message: the expected outcome for most inputs
  }
  const auto* text = reinterpret_cast<const std::uint8_t*>(effective.data());
  const std::string again =
      routh::fuzz::write_input_file("routh_fuzz_effective", text, effective.size());
  std::string reloaded;
  try {
    reloaded = routh::load_scenario(again).effective_yaml;
  } catch (const routh::InputError& error) {
    std::fprintf(stderr, "the effective scenario does not load: %s\n%s", error.what(),
                 effective.c_str());
    std::abort();
  }
  if (reloaded != effective) {
    std::fprintf(stderr, "the effective scenario reloads differently:\n%s---\n%s",
                 effective.c_str(), reloaded.c_str());
    std::abort();
  }
  return 0;
}
