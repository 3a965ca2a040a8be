// The record formats beyond PEER and two columns (ground_record_file.hpp): ESM, K-NET and COSMOS
// files written here read to the numbers they hold, in the unit their header states; a `units:`
// that contradicts the header, a missing header key, a wrong count and a bad number are each
// refused at their file, line and column; the format is chosen as documented; and the shipped
// synthetic motion, written by make_synthetic_records.py in every format, reads to the same m/s²
// samples from each, within the format's printed precision.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "sim/scenario/ground_record_file.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/scenario/yaml_input.hpp"
#include "support/scenario_run.hpp"
#include "support/scratch_files.hpp"

namespace routh {

namespace {

// An ESM file: the DYNA 1.2 keys routh reads among others, then `values`, one per line.
std::string esm_text(const std::vector<std::string>& values, const std::string& units = "cm/s^2",
                     const std::string& ndata = "") {
  std::string text =
      "EVENT_NAME: TEST\n"
      "EVENT_ID: XX-TEST-0001\n"
      "STATION_CODE: TST\n"
      "SAMPLING_INTERVAL_S: 0.005000\n"
      "NDATA: " +
      (ndata.empty() ? std::to_string(values.size()) : ndata) +
      "\n"
      "UNITS: " +
      units +
      "\n"
      "DATA_TYPE: ACCELERATION\n"
      "USER5: \n";
  for (const std::string& value : values) text += value + "\n";
  return text;
}

// A K-NET file: the 17 header lines, then the counts, 8 per line.
std::string knet_text(const std::vector<long>& counts, const std::string& scale = "2000(gal)/8000",
                      const std::string& frequency = "4Hz", const std::string& duration = "3") {
  const std::vector<std::pair<std::string, std::string>> header = {
      {"Origin Time", "2020/01/01 00:00:00"},
      {"Lat.", "35.0"},
      {"Lon.", "139.0"},
      {"Depth. (km)", "10"},
      {"Mag.", "5.0"},
      {"Station Code", "TST001"},
      {"Station Lat.", "35.1"},
      {"Station Lon.", "139.1"},
      {"Station Height(m)", "10"},
      {"Record Time", "2020/01/01 00:00:15"},
      {"Sampling Freq(Hz)", frequency},
      {"Duration Time(s)", duration},
      {"Dir.", "N-S"},
      {"Scale Factor", scale},
      {"Max. Acc. (gal)", "1.000"},
      {"Last Correction", "2020/01/01 00:00:00"},
      {"Memo.", ""}};
  std::string text;
  for (const auto& [label, value] : header) {
    char line[120];
    std::snprintf(line, sizeof line, "%-18s%s\n", label.c_str(), value.c_str());
    text += line;
  }
  for (std::size_t i = 0; i < counts.size(); ++i) {
    char field[16];
    std::snprintf(field, sizeof field, "%9ld", counts[i]);
    text += field;
    if (i % 8 == 7 || i + 1 == counts.size()) text += "\n";
  }
  return text;
}

// A COSMOS V2 file of `data_lines` (already formatted in (4F10.5)), 20 ms apart.
std::string cosmos_text(const std::string& data_header, const std::string& data_lines,
                        const std::string& integer_count = "  12") {
  std::string text = "Corrected acceleration    (Format v01.20 with 3 text lines)\n";
  text += "Record of a TEST motion\n";
  text += "Values used when parameter or data value is unknown/unspecified:   -999, -999.0\n";
  text += integer_count + " Integer-header values follow on   2 lines, Format= (10I8)\n";
  text += "       2       1       4    -999    -999    -999    -999    -999    -999    -999\n";
  text += "    -999    -999\n";
  text += "  65 Real-header values follow on  13 lines, Format= (5F15.6)\n";
  for (int line = 0; line < 13; ++line) {
    for (int k = 0; k < 5; ++k) {
      const int index = 5 * line + k + 1;  // 1-based
      text += index == 62 ? "      20.000000" : "    -999.000000";
    }
    text += "\n";
  }
  text += "   1 Comment line(s) follow, each starting with a \"|\":\n";
  text += "| a test file\n";
  return text + data_header + "\n" + data_lines + "End-of-data for Chan  1 acceleration\n";
}

const std::string kCosmosData =
    "       6 acceleration pts, approx    0 secs, units=cm/sec2(04),Format=(4F10.5)";
// fields of 10 columns; the second and third touch
const std::string kCosmosValues =
    "   1.50000-123.45678-200.00000   0.00001\n"
    "   2.00000  -3.25000\n";

std::string error_of(const std::string& text, const std::string& name, RecordReading reading = {}) {
  try {
    read_ground_record(test::write_problem(text, name), reading);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("record formats: an ESM file reads in its UNITS, one value per line, at i dt") {
  const GroundRecord record = read_ground_record(
      test::write_problem(esm_text({"12.5", "-3.000000", "0.25"}), "motion.ASC"), RecordReading{});
  REQUIRE(record.time_s.size() == 3);
  CHECK(record.time_s[2] == 2 * 0.005);
  CHECK(record.acceleration_m_s2[0] == 12.5 * 0.01);
  CHECK(record.acceleration_m_s2[1] == -3.0 * 0.01);
  const GroundRecord in_g =
      read_ground_record(test::write_problem(esm_text({"0.5", "-1"}, "g"), "g.ASC"),
                         RecordReading{std::nullopt, RecordUnits::g});
  CHECK(in_g.acceleration_m_s2[0] == 0.5 * 9.80665);
}

TEST_CASE("record formats: a K-NET file reads as (count - mean) x scale factor, in gal") {
  // 12 counts at 4 Hz over 3 s, about an offset of 100 counts; 2000 gal per 8000 counts
  const std::vector<long> counts = {100, 104, 96, 100, 108, 92, 100, 100, 101, 99, 100, 100};
  const GroundRecord record =
      read_ground_record(test::write_problem(knet_text(counts), "motion.NS"), RecordUnits::m_s2);
  REQUIRE(record.time_s.size() == counts.size());
  CHECK(record.time_s[5] == 5 * 0.25);
  const double mean = std::accumulate(counts.begin(), counts.end(), 0.0) / 12.0;  // NIED: remove it
  for (std::size_t i = 0; i < counts.size(); ++i) {
    CHECK(record.acceleration_m_s2[i] ==
          doctest::Approx((static_cast<double>(counts[i]) - mean) * 2000.0 / 8000.0 * 0.01)
              .epsilon(1e-14));
  }
  // the counts end the record: NIED's files may stop short of the whole seconds of their
  // Duration Time (here 9 counts of 4 Hz in 10 s), the last line then holding fewer than 8
  const GroundRecord short_of_duration = read_ground_record(
      test::write_problem(knet_text({1, 2, 3, 4, 5, 6, 7, 8, 9}, "2000(gal)/8000", "4Hz", "10"),
                          "short.EW"),
      RecordReading{});
  CHECK(short_of_duration.time_s.size() == 9);
  // KiK-net spells two labels otherwise ("Long.", "Max Acc.")
  std::string kik_net = knet_text(counts);
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"Lon.  ", "Long. "},
                                 {"Station Lon.  ", "Station Long. "},
                                 {"Max. Acc. (gal) ", "Max Acc. (gal)  "}}) {
    kik_net.replace(kik_net.find(from), from.size(), to);
  }
  CHECK(read_ground_record(test::write_problem(kik_net, "motion.NS2"), RecordReading{})
            .acceleration_m_s2 == record.acceleration_m_s2);
}

TEST_CASE("record formats: a COSMOS V2 file reads its acceleration block field by field") {
  const GroundRecord record = read_ground_record(
      test::write_problem(cosmos_text(kCosmosData, kCosmosValues), "motion.V2"), RecordReading{});
  const std::vector<double> expected_cm_s2 = {1.5, -123.45678, -200.0, 0.00001, 2.0, -3.25};
  REQUIRE(record.time_s.size() == expected_cm_s2.size());
  CHECK(record.time_s[4] == 4 * 0.020);  // the real header's value 62: 20 ms
  for (std::size_t i = 0; i < expected_cm_s2.size(); ++i) {
    CHECK(record.acceleration_m_s2[i] == expected_cm_s2[i] * 0.01);
  }
}

TEST_CASE("record formats: a PEER file in cm/s2 reads in cm/s2") {
  const std::string text =
      "PEER NGA STRONG MOTION DATABASE RECORD\nTEST\n"
      "ACCELERATION TIME SERIES IN UNITS OF CM/SEC/SEC\nNPTS=    3, DT=   .0100 SEC\n"
      "  .1500000E+02 -.2000000E+01  .0\n";
  for (const GroundRecord& record :
       {read_ground_record(test::write_problem(text, "cm.AT2"), RecordUnits::g),
        read_ground_record(test::write_problem(text, "cm.AT2"),
                           RecordReading{std::nullopt, RecordUnits::cm_s2})}) {
    REQUIRE(record.acceleration_m_s2.size() == 3);
    CHECK(record.acceleration_m_s2[0] == 15.0 * 0.01);
    CHECK(record.acceleration_m_s2[1] == -2.0 * 0.01);
  }
}

TEST_CASE("record formats: the first line, the extension or format: chooses the format") {
  const std::string esm = test::write_problem(esm_text({"1", "2"}), "esm.txt");
  CHECK(record_format_of(esm) == RecordFormat::esm);
  CHECK(record_format_of(test::write_problem(knet_text({1, 2}), "k.EW")) == RecordFormat::knet);
  CHECK(record_format_of(test::write_problem(cosmos_text(kCosmosData, kCosmosValues), "c.txt")) ==
        RecordFormat::cosmos);
  CHECK(record_format_of(test::write_problem("0,1\n0.01,2\n", "two.dat")) ==
        RecordFormat::two_columns);
  CHECK(record_format_of("any/name.at2") == RecordFormat::peer);  // by its name, unopened
  // format: overrides the rule (an ESM file read as two columns is refused past its first line,
  // which reads as the columns' header)
  CHECK(error_of(esm_text({"1", "2"}), "esm.txt", RecordReading{RecordFormat::two_columns, {}})
            .find("esm.txt:2:1: expected a time [s], found 'EVENT_ID:'") != std::string::npos);
  for (const RecordFormat format : {RecordFormat::peer, RecordFormat::esm, RecordFormat::knet,
                                    RecordFormat::cosmos, RecordFormat::two_columns}) {
    CHECK(record_format_named(to_string(format)) == format);
  }
  CHECK(!record_format_named("sac"));
  CHECK(units_named("cm/s^2") == RecordUnits::cm_s2);
  CHECK(units_named("CM/SEC/SEC") == RecordUnits::cm_s2);
  CHECK(units_named("gal") == RecordUnits::cm_s2);
  CHECK(units_named("m/s2") == RecordUnits::m_s2);
  CHECK(units_named("G") == RecordUnits::g);
  CHECK(!units_named("cm/s"));
}

TEST_CASE("record formats: bad files are refused at their file, line and column") {
  struct Bad {
    std::string what, text, name, expected;
    RecordReading reading = {};
  };
  const std::string peer_g =
      "PEER NGA STRONG MOTION DATABASE RECORD\nTEST\nACCELERATION TIME SERIES IN UNITS OF G\n"
      "NPTS=    2, DT=   .0100 SEC\n 0.1 0.2\n";
  const std::vector<Bad> cases = {
      // missing header key
      {"ESM without NDATA",
       "EVENT_NAME: T\nSAMPLING_INTERVAL_S: 0.01\nUNITS: cm/s^2\nDATA_TYPE: ACCELERATION\n1\n2\n",
       "nondata.ASC",
       "nondata.ASC:5:1: the ESM header (lines 1-4) has no 'NDATA:' line; it needs NDATA, "
       "SAMPLING_INTERVAL_S, UNITS and DATA_TYPE"},
      {"K-NET without its scale factor line",
       [] {
         std::string text = knet_text({1, 2});
         const std::size_t at = text.find("Scale Factor");
         return text.replace(at, 12, "Scale");
       }(),
       "noscale.NS", "noscale.NS:14:1: expected the K-NET header's line 14, 'Scale Factor ...'"},
      {"COSMOS real header too short",
       [] {
         std::string text = cosmos_text(kCosmosData, kCosmosValues);
         text.replace(text.find("  65 Real"), 9, "  60 Real");
         return text.replace(text.find(" 13 lines, Format= (5F15.6)"), 3, " 12");
       }(),
       "short.V2",
       "short.V2:19: the real header holds 60 values: its value 62 is the sampling "
       "interval [ms]"},
      // wrong count
      {"ESM with more values than NDATA", esm_text({"1", "2", "3"}, "cm/s^2", "2"), "long.ASC",
       "long.ASC:11:1: more values than NDATA = 2 in the header"},
      {"ESM with two values on a line", esm_text({"1", "2 3"}), "two.ASC",
       "two.ASC:10:3: more values than NDATA = 2 in the header"},
      {"K-NET with 7 counts on a full line",
       [] {
         std::string text = knet_text({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
         const std::size_t at = text.find("        8\n");
         return text.replace(at, 10, "\n        8");
       }(),
       "seven.NS",
       "seven.NS:18:1: expected 8 values on this line (8 per line; only the last line holds "
       "fewer)"},
      {"COSMOS block cut short",
       cosmos_text(kCosmosData, "   1.50000-123.45678-200.00000   0.00001\n   2.00000\n"), "cut.V2",
       "cut.V2:25:11: expected an acceleration [cm/s2] in columns 11-20 (2 values of 10 columns "
       "on this line)"},
      {"COSMOS header count against its line count",
       cosmos_text(kCosmosData, kCosmosValues, "  25"), "count.V2",
       "count.V2:4:40: the line count: 25 values in (10I8) take 3 lines"},
      // bad number
      {"ESM value", esm_text({"1", "2.5.1"}), "bad.ASC",
       "bad.ASC:10:1: expected an acceleration [cm/s2], found '2.5.1'"},
      {"K-NET count that is not an integer",
       [] {
         std::string text = knet_text({1, 2}, "2000(gal)/8000", "4Hz", "0.5");
         return text.replace(text.rfind("        2"), 9, "      2.5");
       }(),
       "half.NS", "half.NS:18:16: expected a count (an integer), found '2.5'"},
      {"K-NET scale factor", knet_text({1, 2}, "2000/8000", "4Hz", "0.5"), "scale.NS",
       "scale.NS:14:19: expected a scale factor such as '7845(gal)/8223', found '2000/8000'"},
      {"COSMOS field", cosmos_text(kCosmosData, "   1.50000-123.4x678-200.00000   0.00001\n"),
       "field.V2", "field.V2:24:11: expected an acceleration [cm/s2], found '-123.4x678'"},
      {"ESM SAMPLING_INTERVAL_S",
       [] {
         std::string text = esm_text({"1", "2"});
         return text.replace(text.find("0.005000"), 8, "5 ms");
       }(),
       "dt.ASC", "dt.ASC:4:22: expected a number after SAMPLING_INTERVAL_S:, found '5 ms'"},
      {"K-NET sampling frequency too low", knet_text({1, 2}, "2000(gal)/8000", "0.01Hz"), "slow.NS",
       "slow.NS:11:19: 1 / Sampling Freq(Hz) = 100 s: must be at most 10 s (a record samples at "
       "0.1 Hz or more)"},
      // contradictory units
      {"ESM in cm/s2 read with units: g", esm_text({"1", "2"}), "units.ASC",
       "units.ASC:6:8: the header states the accelerations in cm/s2, but the scenario says "
       "units: g (leave units out, or say cm/s2)",
       RecordReading{std::nullopt, RecordUnits::g}},
      {"K-NET read with units: m/s2", knet_text({1, 2}, "2000(gal)/8000", "4Hz", "0.5"), "units.NS",
       "units.NS:14:19: the header states the accelerations in cm/s2, but the "
       "scenario says units: m/s2",
       RecordReading{std::nullopt, RecordUnits::m_s2}},
      {"COSMOS read with units: g", cosmos_text(kCosmosData, kCosmosValues), "units.V2",
       "units.V2:23:52: the header states the accelerations in cm/s2, but the scenario says "
       "units: g",
       RecordReading{std::nullopt, RecordUnits::g}},
      {"PEER in g read with units: cm/s2", peer_g, "units.AT2",
       "units.AT2:3:38: the header states the accelerations in g, but the scenario says units: "
       "cm/s2",
       RecordReading{std::nullopt, RecordUnits::cm_s2}},
      {"ESM unit that is not an acceleration", esm_text({"1", "2"}, "cm/s"), "vel.ASC",
       "vel.ASC:6:8: UNITS = cm/s: expected an acceleration unit, cm/s^2, m/s^2 or g"},
  };
  for (const Bad& bad : cases) {
    CAPTURE(bad.what);
    const std::string error = error_of(bad.text, bad.name, bad.reading);
    CAPTURE(error);
    CHECK(error.find(bad.expected) != std::string::npos);
  }
}

TEST_CASE(
    "record formats: the shipped synthetic motion reads to the same samples from every format, "
    "within each format's printed precision") {
  const std::filesystem::path folder = test::shipped_scenario("motions/synthetic_sines.AT2");
  const GroundRecord peer = read_ground_record(folder, RecordReading{});
  REQUIRE(peer.time_s.size() == 1000);
  // as make_synthetic_records.py meant it: 10 s at 100 Hz, a PGA of 0.35 g
  double peak = 0.0;
  for (double a : peer.acceleration_m_s2) peak = std::max(peak, std::abs(a));
  CHECK(peak == doctest::Approx(0.35 * 9.80665).epsilon(1e-7));
  double mean = 0.0;
  for (double a : peer.acceleration_m_s2) mean += a / 1000.0;

  struct Format {
    const char* file;
    double resolution_m_s2;  // half the last printed digit, in m/s²
    bool less_mean;          // K-NET reads the motion less its mean
  };
  for (const Format& format :
       {Format{"motions/synthetic_sines.esm.ASC", 0.5e-6 * 0.01, false},
        Format{"motions/synthetic_sines.cosmos.V2", 0.5e-5 * 0.01, false},
        Format{"motions/synthetic_sines.knet.NS", 0.5 * 3920.0 / 6182761.0 * 0.01 * 2, true}}) {
    CAPTURE(format.file);
    const GroundRecord record =
        read_ground_record(test::shipped_scenario(format.file), RecordReading{});
    REQUIRE(record.time_s.size() == peer.time_s.size());
    for (std::size_t i = 0; i < peer.time_s.size(); ++i) {
      CAPTURE(i);
      CHECK(std::abs(record.time_s[i] - peer.time_s[i]) <= 1e-15);
      const double expected = peer.acceleration_m_s2[i] - (format.less_mean ? mean : 0.0);
      // the PEER file's own rounding: 8 significant digits
      const double peer_rounding = 0.5e-7 * std::abs(peer.acceleration_m_s2[i]) * 10.0;
      CHECK(std::abs(record.acceleration_m_s2[i] - expected) <=
            format.resolution_m_s2 + peer_rounding + 1e-15);
    }
  }
  // and the noise motion still reads
  CHECK(read_ground_record(test::shipped_scenario("motions/synthetic_noise.AT2"), RecordReading{})
            .time_s.size() == 1200);
}

TEST_CASE("record formats: a scenario reads each shipped format, with format: and units:") {
  for (const std::string record :
       {"{file: motions/synthetic_sines.esm.ASC}", "{file: motions/synthetic_sines.knet.NS}",
        "{file: motions/synthetic_sines.cosmos.V2, format: cosmos, units: cm/s2}",
        "{file: motions/synthetic_sines.AT2, units: g}"}) {
    CAPTURE(record);
    const test::ScenarioRun run = test::run_shipped_scenario(
        "rocking_block_record.yaml", {"duration=1", "excitation={record: " + record + "}"});
    CHECK(run.outcome.status == RunStatus::completed);
  }
  const std::string scenario = test::shipped_scenario("rocking_block_record.yaml");
  // the effective scenario names the format it chose, and reads back to the same record
  const std::vector<std::string> knet = {
      "excitation={record: {file: motions/synthetic_sines.knet.NS}}"};
  const Scenario loaded = load_scenario(scenario, knet);
  CHECK(loaded.effective_yaml.find("format: knet") != std::string::npos);
  const Scenario again = load_scenario(test::write_problem(loaded.effective_yaml, "again.yaml"));
  CHECK(again.effective_yaml == loaded.effective_yaml);
  CHECK(again.planar->ground_acceleration(3.005) == loaded.planar->ground_acceleration(3.005));
  // format: and units: name what they may be, at the value
  for (const auto& [record, expected] : std::vector<std::pair<std::string, std::string>>{
           {"{file: motions/synthetic_sines.AT2, format: sac}",
            "excitation.record.format = sac: must be one of peer, esm, knet, cosmos, columns; did "
            "you mean 'esm'?"},
           {"{file: motions/synthetic_sines.AT2, units: mm/s2}",
            "excitation.record.units = mm/s2: must be one of g, m/s2, cm/s2, gal"},
           {"{file: motions/synthetic_sines.knet.NS, units: g}",
            "synthetic_sines.knet.NS:14:19: the header states the accelerations in cm/s2, but the "
            "scenario says units: g"}}) {
    CAPTURE(record);
    std::string error;
    try {
      const std::vector<std::string> overrides = {"excitation={record: " + record + "}"};
      load_scenario(scenario, overrides);
    } catch (const InputError& e) {
      error = e.what();
    }
    CHECK(error.find(expected) != std::string::npos);
  }
}

}  // namespace routh
