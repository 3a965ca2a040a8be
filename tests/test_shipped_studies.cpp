// The shipped earthquake studies, run as a user would (`routh sweep`) but shortened: the same
// sweep file with fewer records, levels, draws or sizes, written beside the test's tables.
//  - scenarios/sweeps/statue_fragility.yaml: the statue of statue_on_plinth.yaml under the record
//    suite scaled to PGA levels, with drawn μ and η. Below g tan α = 0.25 g the statue cannot
//    lift off the plinth, which rides the ground (Housner 1963): nothing overturns at 0.1 g;
//    `routh fragility` fits a curve whose median lies inside the swept PGAs.
//  - scenarios/sweeps/rocking_spectrum.yaml: a block of fixed slenderness per diagonal of its
//    height × width grid under the records; θ_max / α is the table's largest rotation over
//    α = atan(width / height), computed here from the swept geometry, and
//    tools/plot_rocking_spectrum.py draws the spectrum.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "sim/text.hpp"
#include "support/routh_process.hpp"
#include "support/sanitizers.hpp"
#include "support/scratch_files.hpp"
#include "support/sweep_csv.hpp"

namespace {

using routh::cat;
using routh::test::json_number;
using routh::test::kSanitized;
using routh::test::read_sweep_csv;

constexpr double kStandardGravity = 9.80665;  // [m/s²], the unit g of the sweep files
constexpr double kModelGravity = 9.81;        // [m/s²], the models' default gravity

std::string source(const std::string& path) { return cat(ROUTH_SOURCE_DIR, "/", path); }

std::string read_text(const std::string& path) {
  std::ifstream file(path);
  REQUIRE_MESSAGE(file, "no file " << path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// `text` with `from` replaced by `to`, which must occur exactly once.
std::string replaced(const std::string& text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, "no '" << from << "' in the shipped study");
  REQUIRE(text.find(from, at + 1) == std::string::npos);
  return text.substr(0, at) + to + text.substr(at + from.size());
}

// `text` with the flow list after `key: [` replaced by `items`.
std::string replaced_list(const std::string& text, const std::string& key,
                          const std::string& items) {
  const std::string opening = cat(key, ": [");
  const std::size_t at = text.find(opening);
  REQUIRE_MESSAGE(at != std::string::npos, "no list " << key << " in the shipped study");
  const std::size_t end = text.find(']', at);
  return text.substr(0, at + opening.size()) + items + text.substr(end);
}

// A shipped sweep made runnable from the scratch folder: its base by absolute path.
std::string shipped_study(const std::string& name, const std::string& base) {
  return replaced(read_text(source(cat("scenarios/sweeps/", name))), cat("base: ../", base),
                  cat("base: ", source(cat("scenarios/", base))));
}

}  // namespace

TEST_CASE("shipped studies: the statue's fragility rises from none at 0.1 g to most at 1 g") {
  if (kSanitized) {
    MESSAGE("skipped under the sanitizers: 24 runs of 22 s of a two-block stack");
    return;
  }
  // the eight records, three levels (0.1, 0.55, 1.0 g) and one draw of μ and η per record and
  // level
  std::string study = shipped_study("statue_fragility.yaml", "statue_on_plinth.yaml");
  study = replaced(study, "count: 10}", "count: 3}");
  study = replaced(study, "runs: 10\n", "runs: 1\n");
  routh::test::write_problem(study, "statue_short.yaml");
  const routh::test::RouthRun run =
      routh::test::run_routh("sweep statue_short.yaml -o statue_short.h5 --force --jobs 2");
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  const auto rows = read_sweep_csv(routh::test::scratch() / "statue_short.csv");
  REQUIRE(rows.size() == 8 * 3);

  // uplift of the statue on a plinth that rides the ground: |a_g| > g tan α (Housner 1963)
  const double statue_uplift = kModelGravity * 0.15 / 0.6;  // [m/s²]
  std::map<double, std::pair<int, int>> stripes;  // PGA [m/s²] -> (runs, statue overturned)
  for (const auto& row : rows) {
    CAPTURE(row.at("run"));
    CHECK(row.at("status") == "completed");
    const double pga = std::stod(row.at("excitation.0.record.scale_to.pga"));
    CHECK(std::stod(row.at("pga")) == doctest::Approx(pga).epsilon(1e-9));
    const double mu = std::stod(row.at("contact.friction"));
    const double eta = std::stod(row.at("contact.restitution"));
    CHECK((mu >= 0.5 && mu < 0.8));
    CHECK((eta >= 0.82 && eta < 0.89));
    if (pga < statue_uplift) {
      CHECK(std::isnan(std::stod(row.at("uplift_time"))));
      CHECK(row.at("statue.overturned") == "0");
    }
    ++stripes[pga].first;
    stripes[pga].second += row.at("statue.overturned") == "1";
  }
  REQUIRE(stripes.size() == 3);
  CHECK(stripes.begin()->first == doctest::Approx(0.1 * kStandardGravity));
  CHECK(stripes.rbegin()->first == doctest::Approx(1.0 * kStandardGravity));
  // the fraction overturned rises over the stripes: none at 0.1 g, more at every level after
  int previous = -1;
  for (const auto& [pga, stripe] : stripes) {
    CAPTURE(pga);
    CHECK(stripe.first == 8);
    CHECK(stripe.second > previous);
    previous = stripe.second;
  }
  CHECK(stripes.begin()->second.second == 0);

  const routh::test::RouthRun fit = routh::test::run_routh(
      "fragility statue_short.h5 --outcome statue.overturned --json --bootstrap 50");
  REQUIRE_MESSAGE(fit.exit_code == 0, fit.err);
  CHECK(fit.out.find("\"status\": \"fitted\"") != std::string::npos);
  CHECK(fit.out.find("\"runs_used\": 24") != std::string::npos);
  const double median = json_number(fit.out, "median");
  CHECK(median > 0.1 * kStandardGravity);
  CHECK(median < 1.0 * kStandardGravity);

  // IDA of θ_max / α: with one draw per record and level each median is its run's response, or
  // collapse (inf) where statue.overturned says the statue fell, whatever it turned after
  const routh::test::RouthRun ida = routh::test::run_routh(
      "ida statue_short.h5 --response statue.max_theta_over_alpha --csv statue_ida.csv --force");
  REQUIRE_MESSAGE(ida.exit_code == 0, ida.err);
  CHECK(ida.out.find("collapse   statue.overturned != 0") != std::string::npos);
  const auto medians = read_sweep_csv(routh::test::scratch() / "statue_ida.csv");
  REQUIRE(medians.size() == rows.size());
  for (const auto& stripe : medians) {
    const double pga = std::stod(stripe.at("excitation.0.record.scale_to.pga [m/s^2]"));
    const auto match = std::find_if(rows.begin(), rows.end(), [&](const auto& row) {
      return row.at("record") == stripe.at("record") &&
             std::stod(row.at("excitation.0.record.scale_to.pga")) == pga;
    });
    REQUIRE(match != rows.end());
    CAPTURE(match->at("run"));
    CHECK(stripe.at("runs") == "1");
    CHECK(stripe.at("collapsed") == match->at("statue.overturned"));
    const std::string& value = stripe.at("median statue.max_theta_over_alpha [-]");
    if (match->at("statue.overturned") == "1") {
      CHECK(value == "inf");
    } else {
      CHECK(std::stod(value) == std::stod(match->at("statue.max_theta_over_alpha")));
    }
  }
}

TEST_CASE("shipped studies: the rocking spectrum's theta_max over alpha and its plot") {
  if (kSanitized) {
    MESSAGE("skipped under the sanitizers: 32 runs of 22 s of records");
    return;
  }
  // two records, four sizes from 0.5 m to 4.66 m tall at width / height = 0.2 (and the other
  // slendernesses of the grid's off-diagonal pairs)
  std::string study = shipped_study("rocking_spectrum.yaml", "rocking_block_record.yaml");
  study = replaced_list(study, "excitation.0.record.file",
                        "motions/synthetic_sines.AT2, motions/synthetic_kt6.csv");
  study = replaced_list(study, "model.height", "0.5, 0.98, 1.91, 4.66");
  study = replaced_list(study, "model.width", "0.1, 0.196, 0.382, 0.932");
  routh::test::write_problem(study, "spectrum_short.yaml");
  const routh::test::RouthRun run =
      routh::test::run_routh("sweep spectrum_short.yaml -o spectrum_short.h5 --force --jobs 2");
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  const auto rows = read_sweep_csv(routh::test::scratch() / "spectrum_short.csv");
  REQUIRE(rows.size() == 2 * 4 * 4);

  int spectrum_runs = 0, spectrum_overturned = 0;
  for (const auto& row : rows) {
    CAPTURE(row.at("run"));
    CHECK(row.at("status") == "completed");
    CHECK(std::stod(row.at("pga")) == doctest::Approx(0.3 * kStandardGravity).epsilon(1e-9));
    const double height = std::stod(row.at("model.height"));
    const double width = std::stod(row.at("model.width"));
    const double alpha = std::atan(width / height);
    const double ratio = std::stod(row.at("block.max_theta_over_alpha"));
    REQUIRE(std::isfinite(ratio));
    CHECK(ratio >= 0.0);
    CHECK(ratio == doctest::Approx(std::stod(row.at("block.max_abs_theta")) / alpha));
    // an overturned block lies on its side: it turned through π/2, past θ = α
    if (row.at("block.overturned") == "1") CHECK(ratio >= std::numbers::pi / 2.0 / alpha - 1e-9);
    if (std::abs(width / height - 0.2) < 1e-9) {
      ++spectrum_runs;
      spectrum_overturned += row.at("block.overturned") == "1";
    }
  }
  REQUIRE(spectrum_runs == 8);
  // at 0.3 g the smallest blocks fall and the largest ride it out (Housner's size effect)
  CHECK(spectrum_overturned > 0);
  CHECK(spectrum_overturned < spectrum_runs);

  const std::filesystem::path png = routh::test::scratch() / "rocking_spectrum.png";
  const routh::test::RouthRun plot =
      routh::test::run_command(cat("/usr/bin/python3 '", source("tools/plot_rocking_spectrum.py"),
                                   "' spectrum_short.csv -o '", png.string(), "' --tan-alpha 0.2"));
  REQUIRE_MESSAGE(plot.exit_code == 0, plot.err);
  CHECK(std::filesystem::file_size(png) > 10000);
  // the script's counts are the table's
  CHECK(plot.out ==
        cat("runs ", spectrum_runs, "\noverturned ", spectrum_overturned, "\nleft out 0\n"));
}
