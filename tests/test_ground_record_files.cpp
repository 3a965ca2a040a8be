// Record files (ground_record_file.hpp): the two formats read to the numbers they hold, and every
// kind of bad file refused with its file, line and (inside a line) column.

#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "sim/scenario/ground_record_file.hpp"
#include "sim/scenario/yaml_input.hpp"
#include "support/scratch_files.hpp"

namespace routh {

namespace {

const std::string kPeerHeader =
    "PEER NGA STRONG MOTION DATABASE RECORD\n"
    "TEST 1/1/00, SYNTHETIC, 000\n"
    "ACCELERATION TIME SERIES IN UNITS OF G\n";

// The error's "file:line:column: message", or "" when the file reads.
std::string error_of(const std::string& text, const std::string& name,
                     RecordUnits units = RecordUnits::m_s2) {
  try {
    read_ground_record(test::write_problem(text, name), units);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("record file: a PEER NGA .AT2 file reads in g, at i·DT, in both header forms") {
  for (const std::string& npts_line :
       {std::string("NPTS=     7, DT=   .0200 SEC\n"), std::string("    7   .0200   NPTS, DT\n")}) {
    CAPTURE(npts_line);
    const GroundRecord record = read_ground_record(
        test::write_problem(kPeerHeader + npts_line +
                                "  .1000000E+00 -.2000000E+00  .0000000E+00  .5000000E-01\n"
                                "  1.0E-02  -3.0E-02  0.0\n",
                            "motion.AT2"),
        RecordUnits::m_s2);  // ignored: PEER files are in g
    REQUIRE(record.time_s.size() == 7);
    CHECK(record.time_s[3] == 3 * 0.02);
    CHECK(record.acceleration_m_s2[0] == 0.1 * 9.80665);
    CHECK(record.acceleration_m_s2[1] == -0.2 * 9.80665);
    CHECK(record.acceleration_m_s2[5] == -3.0e-2 * 9.80665);
  }
  // the extension in any case
  CHECK(is_peer_record("a/b/RSN6_IMPVALL.I_I-ELC180.at2"));
  CHECK(!is_peer_record("motion.csv"));
}

TEST_CASE("record file: two columns, comma or blank separated, with a header line, in m/s² or g") {
  const GroundRecord commas = read_ground_record(
      test::write_problem("time [s], acceleration [m/s2]\n0, 0.5\n0.01, -1.5\n\n# a comment\n"
                          "0.025,2\n",
                          "motion.csv"),
      RecordUnits::m_s2);
  REQUIRE(commas.time_s.size() == 3);
  CHECK(commas.time_s[2] == 0.025);
  CHECK(commas.acceleration_m_s2[1] == -1.5);
  const GroundRecord blanks = read_ground_record(
      test::write_problem("0\t0.5\n0.01   -1.5\r\n", "motion.txt"), RecordUnits::g);
  REQUIRE(blanks.time_s.size() == 2);
  CHECK(blanks.acceleration_m_s2[1] == -1.5 * 9.80665);
}

TEST_CASE("record file: every kind of bad file is refused with the file and line") {
  struct Bad {
    std::string what, text, name, expected;
  };
  const std::vector<Bad> cases = {
      {"header cut short", "PEER NGA STRONG MOTION DATABASE RECORD\nX\n", "cut.AT2",
       "cut.AT2:2: truncated PEER NGA header: it has 2 of its 4 lines"},
      {"not in g", "PEER\nX\nVELOCITY TIME SERIES IN UNITS OF CM/S\nNPTS= 2, DT= .01 SEC\n1 2\n",
       "velocity.AT2", "velocity.AT2:3:1: expected the PEER NGA header's 3rd line"},
      {"no NPTS line", kPeerHeader + "  .1000000E+00 -.2000000E+00\n", "headless.AT2",
       "headless.AT2:4:1: expected the PEER NGA header's 4th line, 'NPTS=  2688, DT=   .0100 SEC'"},
      {"DT missing", kPeerHeader + "NPTS=   3\n1 2 3\n", "nodt.AT2", "nodt.AT2:4:1: expected"},
      {"DT zero", kPeerHeader + "NPTS=   3, DT= 0.0 SEC\n1 2 3\n", "dt0.AT2",
       "dt0.AT2:4:1: DT = 0 s: must be > 0"},
      {"truncated data", kPeerHeader + "NPTS=   5, DT= .01 SEC\n1 2 3\n", "short.AT2",
       "short.AT2:5: truncated: the header says NPTS = 5 but the file holds 3 values"},
      {"more data than NPTS", kPeerHeader + "NPTS=   3, DT= .01 SEC\n1 2\n3 4\n", "long.AT2",
       "long.AT2:6:3: more values than NPTS = 3 in the header"},
      {"text among the values", kPeerHeader + "NPTS=   3, DT= .01 SEC\n1 2\n3 x4\n", "text.AT2",
       "text.AT2:6:3: expected an acceleration [g], found 'x4'"},
      {"a huge record", kPeerHeader + "NPTS= 20000000, DT= .01 SEC\n1 2\n", "huge.AT2",
       "huge.AT2:4:1: NPTS = 20000000: records of more than 10000000 samples are refused"},
      {"time going back", "t,a\n0,1\n0.02,2\n0.01,3\n", "back.csv",
       "back.csv:4:1: time 0.01 s is not after the previous sample's 0.02 s (line 3)"},
      {"time repeated", "0 1\n0.5 2\n0.5 3\n", "same.txt",
       "same.txt:3:1: time 0.5 s is not after the previous sample's 0.5 s"},
      {"text in a column", "t,a\n0,1\n0.01,one\n", "word.csv",
       "word.csv:3:6: expected an acceleration, found 'one'"},
      {"a third column", "0,1\n0.01,2,3\n", "three.csv",
       "three.csv:2:8: expected two columns, time [s] and acceleration; found 3"},
      {"one sample", "t,a\n0,1\n", "one.csv",
       "one.csv:2: holds 1 samples: a record needs at "
       "least two"},
      {"empty", "", "empty.csv", "empty.csv: holds 0 samples"},
  };
  for (const Bad& bad : cases) {
    CAPTURE(bad.what);
    const std::string error = error_of(bad.text, bad.name);
    CAPTURE(error);
    CHECK(contains(error, bad.expected));
  }
  const std::filesystem::path missing = test::scratch() / "no_such_record.AT2";
  CHECK_THROWS_WITH_AS(read_ground_record(missing, RecordUnits::g),
                       (missing.string() + ": cannot open the file: No such file or "
                                           "directory")
                           .c_str(),
                       InputError);
}

}  // namespace routh
