// The shipped sweeps, run as a user would (`routh sweep`), and the overturning map drawn from
// one (tools/plot_overturning_map.py):
//  - scenarios/sweeps/record_suite.yaml: two PEER records at eleven scales under a slender block. A
//    block at rest on both corners starts to rock when |a_g| first reaches g tan α (Housner
//    1963); the test reads the record files itself and finds that instant on their linear
//    interpolation, for every row; and every row is `routh run --summary`'s for its keys.
//  - scenarios/sweeps/overturning_spectrum.yaml: a one-sine pulse's period × amplitude; nothing
//  lifts
//    below g tan α, and the map script draws the table.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "sim/text.hpp"
#include "support/peer_record.hpp"
#include "support/routh_process.hpp"
#include "support/sanitizers.hpp"
#include "support/scratch_files.hpp"
#include "support/sweep_csv.hpp"

namespace {

using routh::cat;

using routh::test::first_reach_s;
using routh::test::json_number;
using routh::test::kSanitized;
using routh::test::PeerRecord;
using routh::test::read_at2;
using routh::test::read_sweep_csv;

std::string shipped(const std::string& name) { return cat(ROUTH_SOURCE_DIR, "/scenarios/", name); }

bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

}  // namespace

TEST_CASE("shipped sweeps: the record suite's uplift times are where |a_g| reaches g tan alpha") {
  const routh::test::RouthRun run = routh::test::run_routh(
      cat("sweep '", shipped("sweeps/record_suite.yaml"), "' -o record_suite.h5 --force --jobs 2"));
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  const auto rows = read_sweep_csv(routh::test::scratch() / "record_suite.csv");
  REQUIRE(rows.size() == 22);  // 2 records × 11 scales
  // rocking_block_record.yaml: 0.2 m × 1.0 m, tan α = 0.2, gravity 9.81 m/s²; records in g of
  // 9.80665 m/s² (PEER's unit)
  const double threshold_g = 9.81 * 0.2 / 9.80665;
  int lifted = 0, stayed = 0;
  for (const auto& row : rows) {
    CAPTURE(row.at("run"));
    CHECK(row.at("status") == "completed");
    const PeerRecord record = read_at2(shipped(row.at("excitation.0.record.file")));
    const double expected_s =
        first_reach_s(record, std::stod(row.at("excitation.0.record.scale")), threshold_g);
    const double uplift_s = std::stod(row.at("uplift_time"));
    if (std::isnan(expected_s)) {
      CHECK(std::isnan(uplift_s));
      CHECK(row.at("impacts") == "0");
      ++stayed;
    } else {
      CHECK(uplift_s == doctest::Approx(expected_s).epsilon(1e-9));
      ++lifted;
    }
  }
  // the scales straddle uplift for both records: rows on both sides were compared
  CHECK(lifted >= 4);
  CHECK(stayed >= 2);

  // each row is what `routh run --summary` gives for the same scenario keys
  for (std::size_t r = 0; r < rows.size(); r += kSanitized ? 5 : 1) {
    const auto& row = rows[r];
    CAPTURE(row.at("run"));
    const routh::test::RouthRun single = routh::test::run_routh(
        cat("run '", shipped("rocking_block_record.yaml"), "' -o single.h5 --force --summary",
            " --set excitation.0.record.file=", row.at("excitation.0.record.file"),
            " --set excitation.0.record.scale=", row.at("excitation.0.record.scale")));
    REQUIRE_MESSAGE(single.exit_code == 0, single.err);
    for (const char* key :
         {"impacts", "events", "uplift_time", "overturn_time", "overturned", "max_abs_theta",
          "max_abs_theta_time", "max_slide", "dissipated_energy", "final_time"}) {
      CAPTURE(key);
      CHECK(same(json_number(single.out, key), std::stod(row.at(key))));
    }
  }
}

TEST_CASE("shipped sweeps: the overturning spectrum, and its map drawn from the table") {
  if (kSanitized) {
    MESSAGE("skipped under the sanitizers: 1363 runs");
    return;
  }
  const routh::test::RouthRun run =
      routh::test::run_routh(cat("sweep '", shipped("sweeps/overturning_spectrum.yaml"),
                                 "' -o overturning_spectrum.h5 --force"));
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  const auto rows = read_sweep_csv(routh::test::scratch() / "overturning_spectrum.csv");
  REQUIRE(rows.size() == 29 * 47);
  const double g_tan_alpha = 9.81 * 0.2;  // [m/s²]: rocking starts there (Housner 1963)
  int overturned = 0;
  for (const auto& row : rows) {
    CAPTURE(row.at("run"));
    REQUIRE(row.at("status") == "completed");
    if (row.at("overturned") == "1") ++overturned;
    if (std::stod(row.at("excitation.0.pulse.amplitude")) < g_tan_alpha) {
      CHECK(std::isnan(std::stod(row.at("uplift_time"))));
      CHECK(row.at("overturned") == "0");
    }
  }
  CHECK(overturned > 0);
  CHECK(overturned < static_cast<int>(rows.size()));

  const std::filesystem::path png = routh::test::scratch() / "overturning_map.png";
  const routh::test::RouthRun plot = routh::test::run_command(
      cat("MPLBACKEND=Agg /usr/bin/python3 '", ROUTH_SOURCE_DIR,
          "/tools/plot_overturning_map.py' overturning_spectrum.csv -o '", png.string(),
          "' --x excitation.0.pulse.period --y excitation.0.pulse.amplitude --tan-alpha 0.2 "
          "--p 3.7986"));
  REQUIRE_MESSAGE(plot.exit_code == 0, plot.err);
  std::ifstream file(png, std::ios::binary);
  char signature[8] = {};
  file.read(signature, 8);
  CHECK(std::string(signature + 1, 3) == "PNG");
  CHECK(std::filesystem::file_size(png) > 10000);
  // the script's counts are the table's
  CHECK(plot.out.find(cat("overturned ", overturned, "\n")) != std::string::npos);
}
