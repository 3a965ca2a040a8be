// A trajectory survives a kill: `routh run` killed with SIGKILL (as the OOM killer or a power
// cut would stop it) at seeded random moments leaves a file that routh reads up to the last
// flush and reports as incomplete (docs/output.md, "What a kill loses").

#include <doctest/doctest.h>
#include <hdf5.h>
#include <sys/wait.h>
#include <unistd.h>

#include <Eigen/Core>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "sim/recorder/hdf5_support.hpp"
#include "sim/recorder/trajectory_recorder.hpp"
#include "sim/recorder/trajectory_summary.hpp"
#include "sim/text.hpp"
#include "support/rod_recorder_header.hpp"
#include "support/routh_process.hpp"
#include "support/sanitizers.hpp"
#include "support/scratch_files.hpp"

namespace routh {
namespace {

using test::scratch;

// Starts `routh run ARGUMENTS...` with its output streams discarded.
pid_t start_run(const std::vector<std::string>& arguments) {
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
    std::vector<char*> argv = {const_cast<char*>(ROUTH_BINARY), const_cast<char*>("run")};
    for (const std::string& argument : arguments) {
      argv.push_back(const_cast<char*>(argument.c_str()));
    }
    argv.push_back(nullptr);
    ::execv(ROUTH_BINARY, argv.data());
    ::_exit(127);
  }
  return child;
}

// The temporary file a run writes in `folder` (`routh run` renames it at the end): what a killed
// run leaves.
std::optional<std::filesystem::path> temporary_output(const std::filesystem::path& folder) {
  const std::vector<std::string> found = test::temporary_files(folder, "out.h5");
  if (found.empty()) return std::nullopt;
  return folder / found.front();
}

// The series `name` of an open file, every value, or nothing if HDF5 cannot read it.
std::optional<std::vector<double>> series(hid_t file, const char* name) {
  std::optional<std::vector<double>> time;
  const hid_t dataset = H5Dopen2(file, name, H5P_DEFAULT);
  if (dataset >= 0) {
    const hid_t space = H5Dget_space(dataset);
    std::vector<double> values(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
    if (values.empty() ||
        H5Dread(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0) {
      time = std::move(values);
    }
    H5Sclose(space);
    H5Dclose(dataset);
  }
  return time;
}

// The series `name` of the file, read with the plain HDF5 API as any reader would (h5py,
// MATLAB), or nothing if HDF5 cannot open the file or read the series.
std::optional<std::vector<double>> plain_series(const std::filesystem::path& path,
                                                const char* name) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return std::nullopt;
  std::optional<std::vector<double>> values = series(file, name);
  H5Fclose(file);
  return values;
}

}  // namespace

TEST_CASE(
    "run: a run killed with SIGKILL at any moment leaves a readable prefix marked "
    "incomplete") {
  // The ball bounces for 1000 s in 1e-4 s steps: far longer than any kill's delay. Half the runs
  // flush every 20 ms, half at every sample and event (flush_interval 0), so that many kills land
  // inside HDF5's flush itself. Before, a run killed before its first flush (1 s) left a file
  // that did not open, one killed inside a flush could leave every series unreadable, and
  // `routh info` exited 0 on an unfinished run.
  const std::string scenario = cat(ROUTH_SOURCE_DIR, "/scenarios/bouncing_ball.yaml");
  std::mt19937 random(20261127);
  std::uniform_int_distribution<int> delay_ms(0, 300);
  // 50 kills, the campaign; under the sanitizers, ten times slower, 20
  constexpr int kKills = test::kSanitized ? 20 : 50;
  int files = 0;
  int with_samples = 0;
  int plain_readable = 0;
  for (int kill = 0; kill < kKills; ++kill) {
    CAPTURE(kill);
    const std::filesystem::path folder = scratch() / cat("killed_", kill);
    std::filesystem::remove_all(folder);
    std::filesystem::create_directories(folder);
    const std::string flush_interval = kill % 2 == 0 ? "0.02" : "0";
    const pid_t child = start_run({scenario, "-o", (folder / "out.h5").string(), "--set",
                                   "duration=1000", "--set", "integrator.max_step=1e-4", "--set",
                                   cat("output.flush_interval=", flush_interval)});
    // the moment counts from the file's creation: before it, a kill leaves nothing to read
    std::optional<std::filesystem::path> left;
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!(left = temporary_output(folder)) && std::chrono::steady_clock::now() < give_up) {
      std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms(random)));
    REQUIRE(::kill(child, SIGKILL) == 0);
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    REQUIRE(WIFSIGNALED(status));
    REQUIRE(left);
    CAPTURE(left->string());
    if (std::filesystem::file_size(*left) == 0) {
      // killed between creating the file and writing its header in one write (microseconds)
      const test::RouthRun info = test::run_routh(cat("info '", left->string(), "'"));
      CHECK(info.exit_code == 1);
      CHECK(info.err.find("empty file") != std::string::npos);
      continue;
    }
    ++files;
    const test::RouthRun info = test::run_routh(cat("info '", left->string(), "'"));
    INFO(info.out, info.err);
    CHECK(info.exit_code == 21);
    CHECK(info.out.find("\nstatus       unfinished") != std::string::npos);
    CHECK(info.out.find("\nincomplete   ") != std::string::npos);

    const TrajectorySummary summary = summarize_trajectory(*left);
    CHECK(summary.incomplete);
    CHECK(summary.sample_count >= 0);
    if (summary.sample_count > 0) {
      ++with_samples;
      CHECK(std::isfinite(summary.t_last));
      CHECK(summary.t_first == 0.0);
      CHECK(summary.t_last <= 1000.0);
    }
    // every event readable, in time order, within the samples' span
    const EventLogReader log(*left);
    double previous_t = 0.0;
    const std::string warning = log.for_each_event([&](const EventRecord& event) {
      CHECK(event.t >= previous_t);
      previous_t = event.t;
    });
    if (!warning.empty()) MESSAGE("kill ", kill, ": ", warning);
    // a kill between flushes leaves the last flush's file exactly: any HDF5 reader reads it
    if (const auto time = plain_series(*left, "time")) {
      ++plain_readable;
      for (std::size_t i = 1; i < time->size(); ++i) CHECK((*time)[i] >= (*time)[i - 1]);
    }
  }
  MESSAGE(files, " of ", kKills, " kills left a file with its header; ", with_samples,
          " with samples; ", plain_readable, " readable by HDF5 without routh's reader");
  // not vacuous: most kills come after samples were flushed
  CHECK(files >= kKills - 2);
  CHECK(with_samples >= kKills / 2);
}

TEST_CASE(
    "recorder readers: a file whose superblock declares an end before its last objects "
    "reads whole") {
  // What a kill inside HDF5's flush leaves (the superblock, written last, still holds the end of
  // file of the flush before), as in a file killed at 2.42 s of a shaken ball's run: chunk
  // indexes, chunks and the events' heap past the declared end. HDF5 refuses to read those
  // ("addr overflow"); routh's readers read them, since their bytes are in the file.
  const std::filesystem::path path = scratch() / "stale_end.h5";
  {
    const RecorderHeader header = test::rod_recorder_header("name: rod\n");
    TrajectoryRecorder recorder(path, header, 256);
    for (int i = 0; i < 5000; ++i) {
      const double t = 1e-3 * i;
      recorder.record_sample(t, Eigen::Vector3d(t, 1.0, 0.0), Eigen::Vector3d(1.0, 0.0, 0.0),
                             Energy{0.5, 9.81});
    }
    recorder.set_run_status(RunStatus::completed, "");
  }
  // the superblock (version 2): its end-of-file address at bytes 28 to 35, little-endian
  std::vector<char> bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  REQUIRE(bytes.size() > 100'000);
  const std::uint64_t declared_end = bytes.size() / 2;
  for (std::size_t i = 0; i < 8; ++i) {
    bytes[28 + i] = static_cast<char>((declared_end >> (8 * i)) & 0xffu);
  }
  hdf5::seal_superblock(bytes, path.string());  // the checksum of the changed superblock
  std::ofstream(path, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));

  // HDF5 alone refuses some series (addr overflow); through routh's reader each reads whole.
  // (Plain reads first: HDF5 shares one open file's state between its openings.)
  int refused = 0;
  for (const char* name : {"time", "q", "v", "energy"}) refused += plain_series(path, name) ? 0 : 1;
  CHECK(refused > 0);
  {
    const hdf5::QuietErrors quiet;
    const hdf5::Handle file = hdf5::open_for_reading(path.c_str(), path.string());
    for (const char* name : {"time", "q", "v", "energy"}) {
      CAPTURE(name);
      const std::optional<std::vector<double>> values = series(file.get(), name);
      REQUIRE(values.has_value());
      CHECK(values->size() == (std::string_view(name) == "time" ? 5000u : 15000u));
    }
  }
  const TrajectorySummary summary = summarize_trajectory(path);
  CHECK(summary.sample_count == 5000);
  CHECK(summary.t_last == 4.999);
  CHECK(summary.warnings.empty());
  CHECK_FALSE(summary.incomplete);
}

}  // namespace routh
