// Damaged trajectory files get a message, not a crash: `routh info` on a corpus of variants of
// one small trajectory, bytes flipped and cut off at seeded random offsets, always ends by
// itself with a message and one of its documented exit codes (tools/routh/info_command.hpp),
// never by a signal or a hang. The HDF5 library may crash on such files (it did, on 2 of 300
// variants of a bouncing ball's file): `routh info` reads in a child process.

#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "sim/recorder/trajectory_recorder.hpp"
#include "sim/simulation/event_record.hpp"
#include "sim/text.hpp"
#include "support/rod_recorder_header.hpp"
#include "support/routh_process.hpp"
#include "support/sanitizers.hpp"
#include "support/scratch_files.hpp"

namespace routh {
namespace {

using test::scratch;

// A trajectory as a killed writer leaves it (the run's end never recorded, so every readable
// variant is incomplete): `samples` samples of a rod with its ground acceleration, in appends of
// 64, and an impact every 25 samples, each with its text and sequences in HDF5's global heap.
// The flush interval is longer than the writing, so the file's bytes are the same on every run.
std::vector<char> unfinished_trajectory(int samples) {
  const std::filesystem::path path = scratch() / "corpus_base.h5";
  {
    const RecorderHeader header = test::rod_recorder_header(
        "name: rod\nduration: 0.3\n", R"({"format": "routh-model", "bodies": []})");
    TrajectoryRecorder recorder(path, header, 64, 1e6);
    recorder.record_ground_acceleration(
        [](double t) { return Eigen::Vector3d(std::sin(10.0 * t), 0.0, 0.0); }, 2);
    for (int i = 0; i < samples; ++i) {
      const double t = 1e-3 * i;
      recorder.record_sample(t, Eigen::Vector3d(t, 0.1 - t * t, 0.01 * i),
                             Eigen::Vector3d(1.0, -2.0 * t, 0.01), Energy{0.5, 1.0 - t});
      if (i % 25 == 10) {
        EventRecord impact;
        impact.t = t;
        impact.contacts = {i % 2};
        impact.phases = "slide/compression[0,0.1]";
        impact.impulse = {0.1, -0.02};
        impact.u_pre = {-1.0, 0.5};
        impact.u_post = {0.5, 0.4};
        impact.delta_T = -0.2;
        impact.status = "solved";
        recorder.record_event(impact);
      }
    }
  }
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::filesystem::path& path, const std::vector<char>& bytes,
                 std::size_t count) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(count));
}

}  // namespace

TEST_CASE("info: damaged trajectory files end with a message and a documented exit code") {
  const std::vector<char> base = unfinished_trajectory(300);
  REQUIRE(base.size() > 10'000);
  std::mt19937 random(5);
  std::uniform_int_distribution<std::size_t> offset(0, base.size() - 1);
  std::uniform_int_distribution<int> bit(0, 7);
  std::uniform_int_distribution<int> flips(1, 4);
  std::map<int, int> exit_codes;
  const std::filesystem::path variant = scratch() / "damaged.h5";
  constexpr int kFlipped = 200;
  constexpr int kCut = 100;
  for (int index = 0; index < kFlipped + kCut; ++index) {
    CAPTURE(index);
    std::vector<char> bytes = base;
    std::size_t size = bytes.size();
    if (index < kFlipped) {
      for (int flip = flips(random); flip > 0; --flip) {
        bytes[offset(random)] ^= static_cast<char>(1 << bit(random));
      }
    } else {
      size = offset(random);
    }
    write_bytes(variant, bytes, size);
    const test::RouthRun info = test::run_routh(cat("info '", variant.string(), "'"));
    INFO(info.out, info.err);
    ++exit_codes[info.exit_code];
    // 1: not a trajectory (no longer HDF5, or its format attribute gone); 21: readable and
    // incomplete (the base's run never ended); 22: damaged. A signal shows as 128 + its number.
    const bool documented = info.exit_code == 1 || info.exit_code == 21 || info.exit_code == 22;
    CHECK(documented);
    if (info.exit_code == 21) {
      CHECK(info.out.find("\nincomplete   ") != std::string::npos);
    } else {
      // its last line is the message; under AddressSanitizer the reading child's report of an
      // overflow inside HDF5 itself (memcpy past a damaged heap's end, in H5HG_read) may come
      // first: the child then dies of SIGABRT, which is what the parent reports
      const std::size_t line_start = info.err.rfind('\n', info.err.size() - 2);
      const std::string last_line =
          line_start == std::string::npos ? info.err : info.err.substr(line_start + 1);
      CHECK(last_line.starts_with(cat("routh info: ", variant.string(), ": ")));
      if (!test::kSanitized) CHECK(last_line == info.err);
    }
  }
  for (const auto& [code, count] : exit_codes) MESSAGE("exit code ", code, ": ", count, " files");
}

TEST_CASE("info: a reading that does not end within --time-limit is stopped and reported") {
  // A damaged file can make HDF5 loop. A millisecond is too short to read 10⁵ samples (3 MB).
  const std::filesystem::path path = scratch() / "slow_to_read.h5";
  const std::vector<char> bytes = unfinished_trajectory(100'000);
  write_bytes(path, bytes, bytes.size());
  const test::RouthRun info = test::run_routh(cat("info --time-limit 0.001 '", path.string(), "'"));
  CHECK(info.exit_code == 22);
  CHECK(info.err == cat("routh info: ", path.string(),
                        ": damaged file: reading it did not end within 0.001 s\n"));
  // with --events the check of the file is timed, not the printing (a pager waits for its user)
  const test::RouthRun events =
      test::run_routh(cat("info --events --time-limit 0.001 '", path.string(), "'"));
  CHECK(events.exit_code == 22);
  CHECK(events.out.empty());
  const test::RouthRun usage = test::run_routh(cat("info --time-limit 0 '", path.string(), "'"));
  CHECK(usage.exit_code == 2);
}

}  // namespace routh
