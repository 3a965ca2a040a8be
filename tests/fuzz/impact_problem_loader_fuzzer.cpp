// libFuzzer target: the impact-problem file loader (sim/scenario/impact_problem_file.hpp) fed
// arbitrary YAML. A problem either loads or is refused with a located InputError; any other
// exception, a crash or a sanitizer report is a finding. Seeds: scenarios/impacts/*.yaml.

#include <cstddef>
#include <cstdint>

#include "input_file.hpp"
#include "sim/scenario/impact_problem_file.hpp"
#include "sim/scenario/yaml_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = routh::fuzz::write_input_file("routh_fuzz_problem", data, size);
  try {
    routh::load_impact_problem_file(path);
  } catch (const routh::InputError&) {
    // refused with a located message: the expected outcome for most inputs
  }
  return 0;
}
