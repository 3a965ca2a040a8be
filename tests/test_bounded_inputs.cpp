// Bounded work on any input: every file routh reads as input must be a regular file within its
// kind's size limit, its YAML lists and values within their counts, its text UTF-8, a sweep's
// runs counted before anything is allocated, and a stop request seen while reading. Hostile
// inputs (an endless device, a FIFO, a list of a million numbers, a sweep of 10¹⁴ runs in 210
// bytes) are refused quickly and cheaply: the program runs in a child limited to 400 MB of
// address space and must answer within kHostileSeconds using at most kHostileMemory_mb.

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/scenario/ground_record_file.hpp"
#include "sim/scenario/input_file.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/scenario/yaml_input.hpp"
#include "sim/simulation/run_status.hpp"
#include "sim/simulation/stop_request.hpp"
#include "sim/sweep/sweep_file.hpp"
#include "sim/text.hpp"
#include "support/bounded_process.hpp"
#include "support/routh_process.hpp"
#include "support/sanitizers.hpp"
#include "support/scratch_files.hpp"

namespace routh {
namespace {

// The bounds the issue sets for refusing a hostile input (the sanitizers slow a run tenfold).
constexpr double kHostileSeconds = test::kSanitized ? 20.0 : 2.0;
constexpr double kHostileMemory_mb = 200.0;

std::string shipped_text(const std::string& name) {
  std::ostringstream text;
  text << std::ifstream(std::filesystem::path(ROUTH_SOURCE_DIR) / "scenarios" / name).rdbuf();
  return text.str();
}

std::string shipped_path(const std::string& name) {
  return (std::filesystem::path(ROUTH_SOURCE_DIR) / "scenarios" / name).string();
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Refused (exit 1) within the bounds, with `message` in what it printed.
void check_refused_quickly(const test::BoundedRun& run, const std::string& message) {
  INFO("stderr: " << run.err.substr(0, 400));
  INFO("seconds: " << run.seconds << ", max RSS [MB]: " << run.max_rss_mb);
  CHECK(run.exit_code == 1);
  CHECK(has(run.err, message));
  CHECK(run.seconds < kHostileSeconds);
  if (!test::kSanitized) CHECK(run.max_rss_mb < kHostileMemory_mb);
}

std::string make_fifo(const std::string& name) {
  const std::filesystem::path path = test::scratch() / name;
  std::filesystem::remove(path);
  REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
  return path.string();
}

// A file of `bytes` bytes (sparse: nothing is written), for the size limits.
std::string sized_file(const std::string& name, std::uintmax_t bytes) {
  const std::filesystem::path path = test::scratch() / name;
  std::ofstream(path).put('#');
  std::filesystem::resize_file(path, bytes);
  return path.string();
}

// The message of the InputError `read` throws; "" if it throws none.
template <typename Read>
std::string input_error_of(Read&& read) {
  try {
    read();
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("bounded inputs: an endless device as the scenario is refused by its type") {
  // `routh run /dev/zero` read until the OOM killer came (24 GB), deaf to SIGINT and SIGTERM
  check_refused_quickly(test::run_routh_bounded({"run", "/dev/zero", "-o", "zero.h5", "--force"}),
                        "/dev/zero: is a character device, not a regular file");
}

TEST_CASE("bounded inputs: a FIFO as the scenario is refused, not waited on") {
  // opening a named pipe for reading waited for a writer for ever
  const std::string fifo = make_fifo("scenario_fifo.yaml");
  check_refused_quickly(test::run_routh_bounded({"check", fifo}),
                        cat(fifo, ": is a FIFO (named pipe), not a regular file"));
}

TEST_CASE(
    "bounded inputs: a list of a million numbers is refused at its first item past the limit") {
  // a 5 MB scenario holding one list of 10⁶ numbers took 15 s and 700 MB to be refused
  std::string text = shipped_text("falling_rod.yaml");
  if (!text.ends_with('\n')) text += '\n';
  const int line = 1 + static_cast<int>(std::count(text.begin(), text.end(), '\n'));
  const std::string prefix = "restitution: [";
  text += prefix;
  for (int i = 0; i < 1'000'000; ++i) text += i == 0 ? "0.5" : ", 0.5";
  text += "]\n";
  const std::string path = test::write_problem(text, "million_numbers.yaml");
  // item k starts at column |prefix| + 1 + 5 k; the first refused is item kMaxYamlListItems
  const auto column = prefix.size() + 1 + 5 * kMaxYamlListItems;
  check_refused_quickly(
      test::run_routh_bounded({"check", path}),
      cat(path, ":", line, ":", column, ": a list of more than ", kMaxYamlListItems, " items"));
}

TEST_CASE(
    "bounded inputs: a sweep's run count is refused at its count before anything is allocated") {
  // 210 bytes asking for 10⁷ × 10⁷ runs took 1 GB and 20 s: each range was written out in full
  const std::string text =
      cat("base: ", shipped_path("bouncing_ball.yaml"),
          "\ngrid:\n  contact.restitution: {from: 0.5, to: 0.9, count: 10000000}\n"
          "  duration: {from: 1, to: 2, count: 10000000}\n");
  const std::string path = test::write_problem(text, "sweep_bomb.yaml");
  const std::string last_line = "  duration: {from: 1, to: 2, count: 10000000}";
  const auto column = last_line.find("10000000") + 1;
  check_refused_quickly(test::run_routh_bounded({"sweep", path, "-o", "bomb.h5"}),
                        cat(path, ":4:", column, ": grid.duration.count = 10000000: the grid has ",
                            "100000000000000 points, more than the ", kMaxSweepRuns));
}

TEST_CASE("bounded inputs: a name that is not UTF-8 is refused where its byte is") {
  // a name with a Latin-1 byte was accepted, then printed and written to HDF5 as it was
  std::string text = shipped_text("falling_rod.yaml");
  const std::size_t at = text.find("name: falling_rod");
  REQUIRE(at != std::string::npos);
  text.replace(at, 17, "name: st\xF6rz");  // "störz" in Latin-1
  const int line = 1 + static_cast<int>(std::count(
                           text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
  const std::string path = test::write_problem(text, "latin1_name.yaml");
  check_refused_quickly(test::run_routh_bounded({"check", path}),
                        cat(path, ":", line, ":9: byte 0xF6 is not UTF-8"));
  // the same name in UTF-8 loads, as it is
  text.replace(at, 11, "name: st\xC3\xB6rz");
  CHECK(load_scenario(test::write_problem(text, "utf8_name.yaml")).name == "st\xC3\xB6rz");
}

TEST_CASE("bounded inputs: a name that is not UTF-8 in a --set override is refused") {
  const test::BoundedRun run = test::run_routh_bounded(
      {"check", shipped_path("falling_rod.yaml"), "--set", "name=st\xF6rz"});
  check_refused_quickly(run, "is not UTF-8 text");
}

TEST_CASE("bounded inputs: an endless device as a ground-motion record is refused by its type") {
  // a two-column reader took /dev/zero as one endless line
  const test::BoundedRun run =
      test::run_routh_bounded({"check", shipped_path("rocking_block_record.yaml"), "--set",
                               "excitation.0.record.file=/dev/zero"});
  check_refused_quickly(run, "/dev/zero: is a character device, not a regular file");
}

TEST_CASE("bounded inputs: a FIFO as a ground-motion record is refused, not waited on") {
  // the record reader opened it with std::ifstream, which waits for a writer for ever
  for (const char* name : {"record_fifo.AT2", "record_fifo.csv"}) {
    const std::string fifo = make_fifo(name);
    CHECK(has(input_error_of([&] { read_ground_record(fifo, RecordUnits::g); }),
              cat(fifo, ": is a FIFO (named pipe), not a regular file")));
  }
}

TEST_CASE("bounded inputs: an endless device as an impact problem is refused by its type") {
  for (const char* command : {"compare", "impact"}) {
    INFO(command);
    check_refused_quickly(test::run_routh_bounded({command, "/dev/zero"}),
                          "/dev/zero: is a character device, not a regular file");
  }
}

TEST_CASE("bounded inputs: a FIFO as the sweep file or its base is refused, not waited on") {
  const std::string fifo = make_fifo("sweep_fifo.yaml");
  check_refused_quickly(test::run_routh_bounded({"sweep", fifo, "-o", "fifo.h5"}),
                        cat(fifo, ": is a FIFO (named pipe), not a regular file"));
  const std::string base = make_fifo("base_fifo.yaml");
  const std::string sweep = test::write_problem(
      cat("base: ", base, "\ngrid:\n  duration: [1, 2]\n"), "fifo_base_sweep.yaml");
  check_refused_quickly(test::run_routh_bounded({"sweep", sweep, "-o", "fifo_base.h5"}),
                        cat(base, ": is a FIFO (named pipe), not a regular file"));
}

TEST_CASE("bounded inputs: each kind's size limit is checked before reading, naming the file") {
  const struct {
    const InputKind& kind;
    const char* name;
  } kinds[] = {{kScenarioInput, "big_scenario.yaml"},
               {kSweepInput, "big_sweep.yaml"},
               {kImpactProblemInput, "big_problem.yaml"},
               {kGroundRecordInput, "big_record.csv"}};
  for (const auto& [kind, name] : kinds) {
    INFO(kind.name);
    const std::string path = sized_file(name, kind.max_bytes + 1);
    CHECK(has(input_error_of([&] { read_input_file(path, kind); }), cat(path, ": is ")));
    CHECK(has(input_error_of([&] { read_input_file(path, kind); }), cat("of a ", kind.name)));
    std::filesystem::resize_file(path, kind.max_bytes);
    if (kind.max_bytes <= 16 * kMebibyte)
      CHECK(read_input_file(path, kind).size() == kind.max_bytes);
    std::filesystem::remove(path);
  }
  // the program says it too, for the sweep file
  const std::string sweep = sized_file("big_sweep.yaml", kSweepInput.max_bytes + 1);
  check_refused_quickly(
      test::run_routh_bounded({"sweep", sweep, "-o", "big.h5"}),
      cat(sweep, ": is 1048577 bytes: routh reads at most 1 MiB of a sweep file"));
}

TEST_CASE("bounded inputs: a record line longer than the limit is refused at that line") {
  // getline took a line of any length: one without a line break filled the memory
  const std::string path = test::write_problem(
      cat("time, acceleration\n0, 0\n", std::string(kMaxInputLineBytes + 10, '1'), "\n"),
      "long_line.csv");
  CHECK(has(input_error_of([&] { read_ground_record(path, RecordUnits::m_s2); }),
            cat(path, ":3: a line longer than 1 MiB")));
}

TEST_CASE("bounded inputs: lines are read whole across chunks, with or without a final break") {
  std::string text;
  for (int i = 0; i < 20'000; ++i) text += cat(i, ", ", 2 * i, i % 2 == 0 ? "\r\n" : "\n");
  text += "last";
  const std::string path = test::write_problem(text, "many_lines.csv");
  InputFile file(path, kGroundRecordInput);
  std::string line;
  int count = 0;
  bool same = true;
  while (file.next_line(line)) {
    same = same && line == (count < 20'000 ? cat(count, ", ", 2 * count) : std::string("last"));
    ++count;
  }
  CHECK(same);
  CHECK(count == 20'001);
  CHECK(file.line_number() == 20'001);
}

TEST_CASE("bounded inputs: a stop request while an input is read ends the read") {
  // a file of several chunks (a comment of 1 MiB below the scenario): the read sees the request
  // at its second chunk; a file of one chunk is read whole, and what comes next sees it
  const std::string small = test::write_problem(shipped_text("falling_rod.yaml"), "small.yaml");
  const std::string path = test::write_problem(
      cat(shipped_text("falling_rod.yaml"), "# ", std::string(kMebibyte, '-'), "\n"),
      "stopped.yaml");
  const StopRequestHandlers handlers;
  std::raise(SIGTERM);  // the handler only sets the flag
  CHECK(read_input_file(small, kScenarioInput) == shipped_text("falling_rod.yaml"));
  bool caught = false;
  try {
    read_input_file(path, kScenarioInput);
  } catch (InputInterrupted& interrupted) {
    caught = true;
    CHECK(interrupted.signal_number() == SIGTERM);
    CHECK(std::string(interrupted.what()) ==
          cat(path, ": interrupted by SIGTERM while reading it"));
  }
  clear_stop_request();
  CHECK(caught);
}

TEST_CASE(
    "bounded inputs: SIGINT while a long record is read ends routh run with the interrupted code") {
  // routh run read its inputs deaf to SIGINT and SIGTERM: the handlers it had installed only
  // set a flag that nothing polled until the run started. A record of 4·10⁶ samples (60 MB)
  // takes a good part of a second to read; the signal is sent as soon as the handler is there.
  const std::filesystem::path record = test::scratch() / "long_record.csv";
  {
    std::ofstream out(record);
    for (int i = 0; i < 4'000'000; ++i) out << i << "e-3, 0.000001\n";
  }
  const test::BoundedChild child = test::start_routh_bounded(
      {"run", shipped_path("rocking_block_record.yaml"), "--set",
       cat("excitation.0.record.file=", record.string()), "-o", "long_record.h5", "--force"});
  REQUIRE(test::wait_until_catching(child.pid, SIGINT));
  ::kill(child.pid, SIGINT);
  const test::BoundedRun run = test::wait_bounded(child);
  std::filesystem::remove(record);
  INFO("stderr: " << run.err);
  CHECK(run.exit_code == exit_code(RunStatus::interrupted));
  CHECK(has(run.err, cat(record.string(), ": interrupted by SIGINT while reading it")));
  CHECK_FALSE(std::filesystem::exists(test::scratch() / "long_record.h5"));
}

TEST_CASE(
    "bounded inputs: a YAML text of more values than the limit is refused at the first past it") {
  // three lists, each within the list limit, together past the values' limit
  const std::size_t per_list = kMaxYamlNodes / 3 + 1;
  std::string text;
  for (int list = 0; list < 3; ++list) {
    text += cat("l", list, ": [");
    for (std::size_t i = 0; i < per_list; ++i) text += i == 0 ? "1" : ",1";
    text += "]\n";
  }
  CHECK(has(input_error_of([&] { parse_yaml_text(text, "many.yaml"); }), cat("many.yaml:3:")));
  CHECK(has(input_error_of([&] { parse_yaml_text(text, "many.yaml"); }),
            cat("more than ", kMaxYamlNodes, " values")));
}

TEST_CASE("bounded inputs: a sweep range is not written out, and its values are the same") {
  // a range of 10⁷ values used to be a vector of 10⁷ values (400 MB) before the runs were counted
  const std::string path = test::write_problem(
      cat("base: ", shipped_path("bouncing_ball.yaml"),
          "\ngrid:\n  contact.restitution: {from: 0.5, to: 0.9, count: 10000000}\n"),
      "long_range.yaml");
  const SweepPlan plan = read_sweep_file(path);
  CHECK(plan.run_count() == 10'000'000);
  CHECK(std::get<double>(run_values(plan, 0)[0]) == 0.5);
  CHECK(std::get<double>(run_values(plan, 9'999'999)[0]) == 0.9);
  // value i is from + (to − from) i / (count − 1), computed as the list was
  CHECK(std::get<double>(run_values(plan, 1234)[0]) == 0.5 + (0.9 - 0.5) * 1234.0 / 9'999'999.0);
  // and the random part multiplies it past the limit at random.runs
  const std::string random = test::write_problem(
      cat("base: ", shipped_path("bouncing_ball.yaml"),
          "\ngrid:\n  contact.restitution: {from: 0.5, to: 0.9, count: 10000000}\n"
          "random:\n  runs: 1000\n  seed: 1\n  keys:\n    duration: {uniform: [1, 2]}\n"),
      "long_random.yaml");
  CHECK(has(input_error_of([&] { read_sweep_file(random); }), cat(random, ":5:9: ")));
}

TEST_CASE("text: first_invalid_utf8 follows RFC 3629") {
  CHECK_FALSE(first_invalid_utf8("plain ASCII"));
  CHECK_FALSE(first_invalid_utf8("St\xC3\xB6rz, \xE5\xA1\x94, \xF0\x9F\xA7\xB1"));  // ö, 塔, 🧱
  CHECK(first_invalid_utf8("ab\xFF") == 2u);             // never a lead byte
  CHECK(first_invalid_utf8("a\xC0\xAF") == 1u);          // overlong '/'
  CHECK(first_invalid_utf8("a\xE0\x80\xAF") == 1u);      // overlong '/' in 3 bytes
  CHECK(first_invalid_utf8("a\xED\xA0\x80") == 1u);      // a surrogate, U+D800
  CHECK(first_invalid_utf8("a\xF4\x90\x80\x80") == 1u);  // past U+10FFFF
  CHECK(first_invalid_utf8("ok\xE5\xA1") == 2u);         // cut short
  CHECK(first_invalid_utf8("\xC3\xB6\x80") == 2u);       // a lone continuation byte
}

}  // namespace routh
