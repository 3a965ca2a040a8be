// libFuzzer target: the ground-motion record readers (sim/scenario/ground_record_file.hpp) fed
// arbitrary bytes, each input read both as a PEER NGA file (.AT2) and under a .csv name, where its
// first line chooses the ESM, K-NET or COSMOS reader, or two columns (in g). A record either loads
// or is refused with a located InputError; any other exception, a crash or a sanitizer report is
// a finding. A record that loads must be one: 2 to kMaxRecordSamples
// samples, finite, at strictly increasing times, as many times as accelerations. Seeds:
// scenarios/motions/*.AT2 and tests/fuzz/corpus/ground_record_fuzzer/.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "input_file.hpp"
#include "sim/scenario/ground_record_file.hpp"
#include "sim/scenario/yaml_input.hpp"

namespace {

bool is_record(const routh::GroundRecord& record) {
  const std::size_t n = record.time_s.size();
  if (n < 2 || n > routh::kMaxRecordSamples || record.acceleration_m_s2.size() != n) return false;
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(record.time_s[i]) || !std::isfinite(record.acceleration_m_s2[i])) {
      return false;
    }
    if (i > 0 && !(record.time_s[i] > record.time_s[i - 1])) return false;
  }
  return true;
}

void read_as(const std::string& path) {
  try {
    if (!is_record(routh::read_ground_record(path, routh::RecordUnits::g))) {
      std::fprintf(stderr, "%s loaded as something that is not a record\n", path.c_str());
      std::abort();
    }
  } catch (const routh::InputError&) {
    // refused with a located message: the expected outcome for most inputs
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  read_as(routh::fuzz::write_input_file("routh_fuzz_record", data, size, ".AT2"));
  read_as(routh::fuzz::write_input_file("routh_fuzz_record", data, size, ".csv"));
  return 0;
}
