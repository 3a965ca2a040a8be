// libFuzzer target: every law in the catalogue on random and degenerate planar and spatial
// problems (law_fuzzing.hpp). A law may refuse a problem, but aborting here means one threw or
// answered `solved` with a non-finite number; the message names the law.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>

#include "law_fuzzing.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const routh::ImpactProblem problem = routh::fuzz::decode_law_problem(std::span(data, size));
  const std::string failures = routh::fuzz::catalogue_failures(problem);
  if (!failures.empty()) {
    std::fprintf(stderr, "law fuzz finding:\n%s%s\n", failures.c_str(),
                 routh::fuzz::describe(problem).c_str());
    std::abort();
  }
  return 0;
}
