// libFuzzer target: the sweep-file reader (sim/sweep/sweep_file.hpp) fed arbitrary YAML, next to
// a base scenario `routh_fuzz_base.yaml` (a bouncing ball) that the seeds name. A sweep file
// either reads or is refused with a located InputError; any other exception, a crash, a
// sanitizer report or a timeout (a sweep's size must be checked before it is written out) is a
// finding. A plan that reads must be within kMaxSweepRuns, and its first and last runs must have
// a value and an override for every swept key; its first run's scenario is loaded (a refusal
// there is an InputError too). Seeds: tests/fuzz/corpus/sweep_file_fuzzer/.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "input_file.hpp"
#include "sim/scenario/yaml_input.hpp"
#include "sim/sweep/sweep_file.hpp"

namespace {

constexpr const char* kBaseScenario =
    "name: bouncing_ball\n"
    "duration: 1\n"
    "model: {type: ball, radius: 0.1, mass: 1.0}\n"
    "initial:\n"
    "  q: {x: 0, y: 1.1}\n"
    "contact: {law: poisson, restitution: 0.9, friction: {static: 0.5, kinetic: 0.4}}\n"
    "output: {rate: 100}\n";

void write_base_scenario() {
  static const bool written = [] {
    std::ofstream(std::filesystem::temp_directory_path() / "routh_fuzz_base.yaml") << kBaseScenario;
    return true;
  }();
  (void)written;
}

void check_plan(const routh::SweepPlan& plan) {
  const std::size_t keys = routh::swept_keys(plan).size();
  const std::int64_t runs = plan.run_count();
  if (runs < 1 || runs > routh::kMaxSweepRuns) {
    std::fprintf(stderr, "a plan of %lld runs\n", static_cast<long long>(runs));
    std::abort();
  }
  for (const std::int64_t run : {std::int64_t{0}, runs - 1}) {
    const auto values = routh::run_values(plan, run);
    if (values.size() != keys || routh::run_overrides(plan, values).size() != keys) {
      std::fprintf(stderr, "run %lld does not set every swept key\n", static_cast<long long>(run));
      std::abort();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  write_base_scenario();
  const std::string path = routh::fuzz::write_input_file("routh_fuzz_sweep", data, size);
  try {
    const routh::SweepPlan plan = routh::read_sweep_file(path);
    check_plan(plan);
    routh::check_first_run(plan);
  } catch (const routh::InputError&) {
    // refused with a located message: the expected outcome for most inputs
  }
  return 0;
}
