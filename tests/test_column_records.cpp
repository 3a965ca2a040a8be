// The shipped study scenarios/sweeps/column_records.yaml: the 12-drum column of
// multi_drum_column.yaml under the eight synthetic records of scenarios/motions/, each scaled to
// a few PGAs. The study takes minutes; the test runs the shipped file shortened (its grid cut to
// two records at 0.1 g and 0.2 g, its duration to 2 s, everything else as shipped) and checks
// the rows against the column's statics, worked out here from its dimensions and the record files
// read by the test:
//  - the shaft (D = 0.8 m, H = 7.2 m) lifts off its base corner, as one block, when |a_g| first
//    reaches g D/H (Housner 1963, "The behavior of inverted pendulum structures during
//    earthquakes"); a joint higher up needs g D/h with h < H, and sliding μ g = 0.7 g. Below
//    g D/H = 0.11 g nothing moves: no impact, every drum at rest to round-off.
//  - at 0.2 g the first uplift is at that instant, on the record's linear interpolation; the
//    drums rock, and none overturns.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/recorder/sweep_table.hpp"
#include "sim/text.hpp"
#include "support/peer_record.hpp"
#include "support/routh_process.hpp"
#include "support/scenario_run.hpp"
#include "support/scratch_files.hpp"

namespace routh {

namespace {

constexpr int kDrums = 12;
constexpr double kDrumWidth = 0.8;    // [m], multi_drum_column.yaml
constexpr double kShaftHeight = 7.2;  // [m], 12 drums of 0.6 m
constexpr double kGravity = 9.81;     // [m/s²], the model's (its default)
constexpr double kG = 9.80665;        // [m/s²], the `g` of the sweep's PGAs and of PEER files

std::string shipped(const std::string& name) { return cat(ROUTH_SOURCE_DIR, "/scenarios/", name); }

std::string file_text(const std::string& path) {
  std::ifstream file(path);
  REQUIRE_MESSAGE(file, "no file " << path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// The shipped sweep with its base given by absolute path (the copy runs in the scratch folder),
// its duration `duration`, and its grid replaced by `grid` (the lines after `grid:`).
std::string shortened_sweep(const std::string& duration, const std::string& grid) {
  std::string text = file_text(shipped("sweeps/column_records.yaml"));
  const auto replace = [&](const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    REQUIRE_MESSAGE(at != std::string::npos, "the shipped sweep has no '" << from << "'");
    text.replace(at, from.size(), to);
  };
  replace("base: ../", cat("base: ", ROUTH_SOURCE_DIR, "/scenarios/"));
  replace("duration: 20 ", cat("duration: ", duration, " "));
  const std::size_t grid_at = text.find("\ngrid:\n");
  const std::size_t output_at = text.find("\noutput:");
  REQUIRE(grid_at != std::string::npos);
  REQUIRE(output_at > grid_at);
  text.replace(grid_at, output_at - grid_at, cat("\ngrid:\n", grid));
  return text;
}

struct Table {
  SweepTable table;
  std::size_t column(const std::string& name) const {
    const auto found = std::find_if(table.columns.begin(), table.columns.end(),
                                    [&](const TableColumn& c) { return c.name == name; });
    REQUIRE_MESSAGE(found != table.columns.end(), "no column " << name);
    return static_cast<std::size_t>(found - table.columns.begin());
  }
  double real(std::size_t row, const std::string& name) const {
    return std::get<double>(table.rows[row][column(name)]);
  }
  std::int64_t integer(std::size_t row, const std::string& name) const {
    return std::get<std::int64_t>(table.rows[row][column(name)]);
  }
  std::string text(std::size_t row, const std::string& name) const {
    return std::get<std::string>(table.rows[row][column(name)]);
  }
};

}  // namespace

TEST_CASE("column records: the shipped study names the eight records of the suite, all shipped") {
  const std::string text = file_text(shipped("sweeps/column_records.yaml"));
  const std::size_t grid_at = text.find("\ngrid:\n");
  REQUIRE(grid_at != std::string::npos);
  std::vector<std::string> records;
  for (std::size_t at = text.find("motions/", grid_at); at != std::string::npos;
       at = text.find("motions/", at + 1)) {
    const std::size_t end = text.find_first_of(",]\n", at);
    records.push_back(text.substr(at, end - at));
  }
  std::sort(records.begin(), records.end());
  CHECK(std::unique(records.begin(), records.end()) == records.end());
  CHECK(records.size() == 8);
  for (const std::string& record : records) {
    CAPTURE(record);
    CHECK(std::filesystem::is_regular_file(shipped(record)));
  }
  CHECK(text.find("excitation.0.record.scale_to.pga: [0.1 g, 0.2 g, 0.4 g, 0.6 g]") !=
        std::string::npos);
}

TEST_CASE(
    "column records: shortened, nothing moves below g D/H, the shaft lifts where |a_g| reaches "
    "it and stays up at 0.2 g") {
  const std::vector<std::string> records = {"motions/synthetic_sines.AT2",
                                            "motions/synthetic_noise.AT2"};
  const std::string sweep = test::write_problem(
      shortened_sweep("2", cat("  excitation.0.record.file: [", records[0], ", ", records[1],
                               "]\n  excitation.0.record.scale_to.pga: [0.1 g, 0.2 g]\n")),
      "column_records_short.yaml");
  const test::RouthRun run =
      test::run_routh(cat("sweep '", sweep, "' -o column_records_short.h5 --force --jobs 2"));
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  const Table table{read_sweep_table(test::scratch() / "column_records_short.h5")};
  REQUIRE(table.table.rows.size() == 4);  // 2 records × 2 levels, the level innermost

  const double lift_off_g = kGravity * kDrumWidth / kShaftHeight / kG;  // g D/H = 0.111 g
  REQUIRE(0.1 < lift_off_g);
  REQUIRE(lift_off_g < 0.2);
  // [rad], [m]: a column that never moved, to within the contact distance (1e-9 m), below which
  // routh does not tell touching from apart
  constexpr double kAtRest = 1e-9;
  for (std::size_t r = 0; r < table.table.rows.size(); ++r) {
    CAPTURE(r);
    CHECK(table.text(r, "status") == "completed");
    CHECK(table.real(r, "final_time") == 2.0);
    const std::string record = table.text(r, "excitation.0.record.file");
    CHECK(record == records[r / 2]);
    const double pga_g = table.real(r, "excitation.0.record.scale_to.pga") / kG;
    const bool below_lift_off = r % 2 == 0;
    CHECK(pga_g == doctest::Approx(below_lift_off ? 0.1 : 0.2).epsilon(1e-15));
    for (int k = 1; k <= kDrums; ++k) {
      const std::string drum = cat("drum", k);
      CAPTURE(drum);
      for (const char* figure :
           {".max_abs_theta", ".max_slide", ".residual_rotation", ".residual_slide"}) {
        CHECK(std::isfinite(table.real(r, cat(drum, figure))));
      }
      CHECK(table.integer(r, cat(drum, ".overturned")) == 0);  // the column stays up
      const double rocked = table.real(r, cat(drum, ".max_abs_theta"));
      if (below_lift_off) {
        CHECK(rocked < kAtRest);
        CHECK(std::abs(table.real(r, cat(drum, ".residual_slide"))) < kAtRest);
      } else {
        // rocks, and more than at 0.1 g, the row before
        CHECK(rocked > 1e-6);
        CHECK(rocked > table.real(r - 1, cat(drum, ".max_abs_theta")));
      }
    }
    const test::PeerRecord samples = test::read_at2(shipped(record));
    double peak_g = 0.0;
    for (const double a : samples.g) peak_g = std::max(peak_g, std::abs(a));
    const double expected_s = test::first_reach_s(samples, pga_g / peak_g, lift_off_g);
    if (below_lift_off) {
      CHECK(std::isnan(expected_s));
      CHECK(std::isnan(table.real(r, "uplift_time")));
      CHECK(table.integer(r, "impacts") == 0);
    } else {
      REQUIRE(expected_s < 2.0);
      CHECK(table.real(r, "uplift_time") == doctest::Approx(expected_s).epsilon(1e-9));
    }
  }
}

// The study's run that once ended in contact_modes_unresolved: the column under synthetic_kt1 at
// 0.6 g. At t = 3.926 s, in a cascade of impacts some 1e-5 s apart, settling the 22 touching
// corners of the lower shaft found no forces (two corners slipping at ±4.4e-4 m/s held at their
// kinetic friction, and stopping either took more friction work than the contact distance
// allows), and the sticking impulse on every touching corner was refused: corners touching a
// contact distance off one line make its rows dependent only to second order, and the part of
// J v (‖J v‖ = 6.2e-4 m/s) the rank-revealing solve saw outside their range, 1.3e-10 m/s, was
// above the integrator's 3e-11 m/s. take_reachable_velocities now bounds that part by
// √(cut · vᵀMv) (sticking_impulse.cpp), and the run goes on. 3 s of CPU.
TEST_CASE("column records: the column under kt1 at 0.6 g runs past 3.93 s") {
  const test::ScenarioRun run = test::run_shipped_scenario(
      "multi_drum_column.yaml",
      {"excitation.0={record: {file: motions/synthetic_kt1.AT2, direction: x, "
       "scale_to: {pga: 0.6 g}}}",
       "duration=4"});
  CHECK_MESSAGE(run.outcome.status == RunStatus::completed,
                to_string(run.outcome.status)
                    << " at t = " << run.outcome.final_state.t << " s: " << run.outcome.detail);
}

}  // namespace routh
