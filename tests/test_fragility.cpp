// Fragility curves from sweep tables (sim/study/, `routh fragility`, `routh ida`, `routh info` on
// a table; docs/sweeps.md "Fragility and IDA"): the lognormal maximum-likelihood fit against an
// independent maximization of the same multiple-stripe binomial likelihood (Baker 2015,
// "Efficient analytical fragility function fitting using dynamic structural analysis"), the
// coverage of the bootstrap interval on studies drawn from a known curve, the degenerate data
// sets, the table reader, and the commands end to end on tables written here and made by a real
// sweep.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numbers>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "sim/recorder/sweep_table.hpp"
#include "sim/recorder/sweep_table_reader.hpp"
#include "sim/study/fragility.hpp"
#include "sim/study/fragility_bootstrap.hpp"
#include "sim/study/ida_stripes.hpp"
#include "sim/study/normal_distribution.hpp"
#include "sim/text.hpp"
#include "support/routh_process.hpp"
#include "support/scratch_files.hpp"

namespace routh {
namespace {

using test::run_routh;
using test::scratch;

// Φ(u) from erfc, with no tail series: the reference the test's own maximization uses.
double phi(double u) { return 0.5 * std::erfc(-u / std::numbers::sqrt2); }

// The binomial log-likelihood of multiple stripes written out directly, −∞ where a probability
// underflows.
double reference_log_likelihood(const std::vector<FragilityLevel>& levels, double ln_theta,
                                double ln_beta) {
  double sum = 0.0;
  for (const FragilityLevel& level : levels) {
    const double u = (std::log(level.im) - ln_theta) / std::exp(ln_beta);
    const auto z = static_cast<double>(level.exceeding);
    const auto n = static_cast<double>(level.runs);
    if (z > 0) sum += z * std::log(phi(u));
    if (n - z > 0) sum += (n - z) * std::log(phi(-u));
  }
  return sum;
}

// The maximum of a unimodal f on [a, b] by golden-section search.
template <typename F>
double golden_maximum(F f, double a, double b) {
  const double r = (std::sqrt(5.0) - 1.0) / 2.0;
  double c = b - r * (b - a), d = a + r * (b - a);
  double fc = f(c), fd = f(d);
  for (int i = 0; i < 80; ++i) {
    if (fc > fd) {
      b = d, d = c, fd = fc, c = b - r * (b - a), fc = f(c);
    } else {
      a = c, c = d, fc = fd, d = a + r * (b - a), fd = f(d);
    }
  }
  return 0.5 * (a + b);
}

// The maximum likelihood (θ, β) found another way than routh's Newton iteration: the best
// point of a 300 × 300 grid over (ln θ, ln β), then golden-section searches along each
// coordinate in turn within a grid cell of it.
std::pair<double, double> reference_fit(const std::vector<FragilityLevel>& levels) {
  const double lo_t = std::log(levels.front().im) - 1.0, hi_t = std::log(levels.back().im) + 1.0;
  const double lo_b = std::log(0.02), hi_b = std::log(5.0);
  constexpr int kGrid = 300;
  double best = -HUGE_VAL, t = 0.0, b = 0.0;
  for (int i = 0; i <= kGrid; ++i) {
    for (int j = 0; j <= kGrid; ++j) {
      const double ti = lo_t + (hi_t - lo_t) * i / kGrid, bj = lo_b + (hi_b - lo_b) * j / kGrid;
      const double value = reference_log_likelihood(levels, ti, bj);
      if (value > best) best = value, t = ti, b = bj;
    }
  }
  const double dt = (hi_t - lo_t) / kGrid, db = (hi_b - lo_b) / kGrid;
  for (int round = 0; round < 40; ++round) {
    t = golden_maximum([&](double x) { return reference_log_likelihood(levels, x, b); }, t - dt,
                       t + dt);
    b = golden_maximum([&](double x) { return reference_log_likelihood(levels, t, x); }, b - db,
                       b + db);
  }
  return {std::exp(t), std::exp(b)};
}

// A uniform in [0, 1) from the top 53 bits: the test's own draws.
double uniform(std::mt19937_64& generator) {
  return static_cast<double>(generator() >> 11) * 0x1.0p-53;
}

// `runs` runs at each level, each exceeding with probability Φ(ln(x/θ)/β).
std::vector<FragilityLevel> drawn_study(const std::vector<double>& ims, std::int64_t runs,
                                        double theta, double beta, std::mt19937_64& generator) {
  std::vector<FragilityLevel> levels;
  for (const double im : ims) {
    FragilityLevel level{im, runs, 0};
    const double p = phi(std::log(im / theta) / beta);
    for (std::int64_t r = 0; r < runs; ++r) {
      if (uniform(generator) < p) ++level.exceeding;
    }
    levels.push_back(level);
  }
  return levels;
}

std::vector<double> geometric_levels(double first, double last, int count) {
  std::vector<double> ims;
  for (int i = 0; i < count; ++i) {
    ims.push_back(first * std::pow(last / first, static_cast<double>(i) / (count - 1)));
  }
  return ims;
}

void check_against_reference(const std::vector<FragilityLevel>& levels) {
  const FragilityFit fit = fit_lognormal_fragility(levels);
  REQUIRE(fit.status == FragilityFitStatus::fitted);
  const auto [theta, beta] = reference_fit(levels);
  CHECK(fit.median == doctest::Approx(theta).epsilon(1e-6));
  CHECK(fit.beta == doctest::Approx(beta).epsilon(1e-6));
  CHECK(fit.log_likelihood ==
        doctest::Approx(reference_log_likelihood(levels, std::log(theta), std::log(beta)))
            .epsilon(1e-9));
}

TEST_CASE("fragility fit: ln Phi and phi over Phi in the far left tail, against long double erfc") {
  // long double holds Φ(−100) ≈ 1e-2174, which double rounds to 0: the reference there
  for (const double u : {2.0, -1.0, -5.0, -29.0, -31.0, -40.0, -100.0}) {
    const long double x = static_cast<long double>(u);
    const long double cdf = 0.5L * std::erfc(-x / std::sqrt(2.0L));
    const long double pdf =
        std::exp(-0.5L * x * x) / std::sqrt(2.0L * std::numbers::pi_v<long double>);
    CHECK(log_normal_cdf(u) == doctest::Approx(static_cast<double>(std::log(cdf))).epsilon(1e-10));
    CHECK(normal_hazard_left(u) == doctest::Approx(static_cast<double>(pdf / cdf)).epsilon(1e-10));
  }
}

TEST_CASE(
    "fragility fit: the lognormal MLE equals an independent grid and golden-section "
    "maximization of the binomial likelihood") {
  SUBCASE("ten stripes of twenty runs") {
    std::mt19937_64 generator(3);
    check_against_reference(drawn_study(geometric_levels(0.2, 3.0, 10), 20, 0.8, 0.45, generator));
  }
  SUBCASE("unequal stripes, a wide dispersion") {
    std::vector<FragilityLevel> levels = {{0.1, 5, 0}, {0.3, 12, 2},  {0.6, 40, 9},
                                          {1.2, 7, 3}, {2.5, 25, 19}, {6.0, 3, 3}};
    check_against_reference(levels);
  }
  SUBCASE("a cloud: one run per IM value") {
    std::mt19937_64 generator(17);
    std::vector<double> ims;
    std::vector<bool> exceeded;
    for (int r = 0; r < 80; ++r) {
      ims.push_back(std::exp(-1.5 + 3.0 * uniform(generator)));
      exceeded.push_back(uniform(generator) < phi(std::log(ims.back() / 1.1) / 0.3));
    }
    const std::vector<FragilityLevel> levels = group_levels(ims, exceeded);
    CHECK(levels.size() == 80);
    check_against_reference(levels);
  }
}

TEST_CASE(
    "fragility bootstrap: the 90 % interval of the median covers the true median in a "
    "binomially consistent fraction of studies drawn from a known curve") {
  // 200 studies of 10 levels × 20 runs from θ = 1, β = 0.4; the coverage of each is a Bernoulli
  // trial of p ≈ 0.9, so the count lies within 180 ± 3.5 × √(200 · 0.9 · 0.1) = 180 ± 15
  constexpr int kStudies = 200;
  const std::vector<double> ims = geometric_levels(0.4, 2.5, 10);
  std::mt19937_64 generator(2024);
  int covered_median = 0, covered_beta = 0;
  for (int s = 0; s < kStudies; ++s) {
    const std::vector<FragilityLevel> levels = drawn_study(ims, 20, 1.0, 0.4, generator);
    const FragilityBootstrap bootstrap =
        bootstrap_fragility(levels, {0.9, 200, static_cast<std::uint64_t>(s + 1)});
    CHECK(bootstrap.scheme == BootstrapScheme::within_levels);
    if (bootstrap.median && bootstrap.median->low <= 1.0 && 1.0 <= bootstrap.median->high) {
      ++covered_median;
    }
    if (bootstrap.beta && bootstrap.beta->low <= 0.4 && 0.4 <= bootstrap.beta->high) {
      ++covered_beta;
    }
  }
  CHECK(covered_median >= 165);
  CHECK(covered_median <= 195);
  // β's percentile interval is biased low at 20 runs per stripe (the MLE of a dispersion is),
  // so only a loose lower bound is asked of it
  CHECK(covered_beta >= 150);
}

TEST_CASE("fragility bootstrap: seeded, reproducible, and resampling all runs for a cloud") {
  const std::vector<FragilityLevel> stripes = {{0.5, 10, 1}, {1.0, 10, 4}, {1.5, 10, 8}};
  const FragilityBootstrap a = bootstrap_fragility(stripes, {0.95, 300, 7});
  const FragilityBootstrap b = bootstrap_fragility(stripes, {0.95, 300, 7});
  const FragilityBootstrap c = bootstrap_fragility(stripes, {0.95, 300, 8});
  REQUIRE(a.median);
  CHECK(a.median->low == b.median->low);
  CHECK(a.beta->high == b.beta->high);
  CHECK(a.median->low != c.median->low);
  const FragilityFit fit = fit_lognormal_fragility(stripes);
  CHECK(a.median->low < fit.median);
  CHECK(fit.median < a.median->high);
  const std::vector<FragilityLevel> cloud = {{0.5, 1, 0}, {0.7, 1, 1}, {0.9, 1, 0},
                                             {1.1, 1, 1}, {1.3, 1, 0}, {1.5, 1, 1}};
  const FragilityBootstrap spread = bootstrap_fragility(cloud, {0.9, 200, 1});
  CHECK(spread.scheme == BootstrapScheme::all_runs);
  CHECK(spread.replicates == 200);
  CHECK(spread.degenerate > 0);  // some resamples separate: counted, not fitted
  CHECK_THROWS_AS(bootstrap_fragility(stripes, {1.0, 10, 1}), std::invalid_argument);
  CHECK_THROWS_AS(bootstrap_fragility(stripes, {0.9, 0, 1}), std::invalid_argument);
}

TEST_CASE("fragility fit: data with no finite maximum are named, not fitted") {
  using Status = FragilityFitStatus;
  const auto status = [](std::vector<FragilityLevel> levels) {
    return fit_lognormal_fragility(levels).status;
  };
  CHECK(status({}) == Status::no_runs);
  CHECK(status({{1.0, 0, 0}}) == Status::no_runs);
  CHECK(status({{1.0, 5, 0}, {2.0, 5, 0}}) == Status::none_exceed);
  CHECK(status({{1.0, 5, 5}, {2.0, 5, 5}}) == Status::all_exceed);
  CHECK(status({{1.0, 10, 4}}) == Status::single_level);
  CHECK(status({{1.0, 5, 0}, {2.0, 5, 5}}) == Status::separated);
  // quasi-complete: the one mixed level is where the step would be
  CHECK(status({{1.0, 5, 0}, {2.0, 5, 2}, {3.0, 5, 5}}) == Status::separated);
  CHECK(status({{1.0, 5, 5}, {2.0, 5, 0}}) == Status::not_increasing);
  CHECK(status({{1.0, 10, 8}, {2.0, 10, 5}, {3.0, 10, 2}}) == Status::not_increasing);
  CHECK(status({{1.0, 10, 1}, {2.0, 10, 5}, {3.0, 10, 9}}) == Status::fitted);
  // no trend over three decades of IM: the maximum is at a slope near 0 (β in the thousands,
  // θ = e^(thousands), beyond a double, or a falling curve), not a fragility curve
  CHECK(status({{2.76, 3, 1},
                {11.3, 2, 1},
                {16.2, 3, 0},
                {18.4, 2, 1},
                {68.5, 5, 0},
                {270.0, 5, 4},
                {710.0, 2, 0},
                {1207.0, 2, 0}}) == Status::not_increasing);
  const FragilityFit none = fit_lognormal_fragility(std::vector<FragilityLevel>{{1.0, 5, 5}});
  CHECK(none.median == 0.0);
  CHECK(!std::isnan(none.beta));
  CHECK_THROWS_AS(fit_lognormal_fragility(std::vector<FragilityLevel>{{0.0, 5, 1}}),
                  std::invalid_argument);
  CHECK_THROWS_AS(fit_lognormal_fragility(std::vector<FragilityLevel>{{1.0, 5, 6}}),
                  std::invalid_argument);
  const std::vector<double> ims = {1.0, NAN};
  const std::vector<bool> exceeded = {true, false};
  CHECK_THROWS_AS(group_levels(ims, exceeded), std::invalid_argument);
}

// A table as routh sweep writes one, with the columns issue 23's studies read: a swept scale and
// record, the status, overall and per-body outcomes and a response.
struct TableRun {
  double scale;
  std::string record;
  std::string status;
  std::int64_t overturned;
  double theta;
};

// `planned` runs (0: as many as `runs`; more: a sweep stopped before its end).
void write_table(const std::string& name, const std::vector<TableRun>& runs,
                 std::int64_t planned = 0) {
  const std::vector<TableColumn> columns = {{"run", CellType::integer, ""},
                                            {"excitation.0.record.scale", CellType::real, ""},
                                            {"excitation.0.record.file", CellType::text, ""},
                                            {"status", CellType::text, ""},
                                            {"status_code", CellType::integer, ""},
                                            {"overturned", CellType::integer, ""},
                                            {"block.overturned", CellType::integer, ""},
                                            {"max_abs_theta", CellType::real, "rad"}};
  SweepTableWriter writer(scratch() / name, columns,
                          {"base: b.yaml\n", "duration: 1\n",
                           planned > 0 ? planned : static_cast<std::int64_t>(runs.size())});
  std::vector<TableRow> rows;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const TableRun& run = runs[i];
    rows.push_back({Cell(static_cast<std::int64_t>(i)), Cell(run.scale), Cell(run.record),
                    Cell(run.status), Cell(std::int64_t{run.status == "completed" ? 0 : 6}),
                    Cell(run.overturned), Cell(run.overturned), Cell(run.theta)});
  }
  writer.append(rows);
  writer.close();
}

// Six scales × two records × five runs each from a known curve, two runs that hit the time limit.
std::vector<TableRun> study_runs() {
  std::mt19937_64 generator(5);
  std::vector<TableRun> runs;
  for (const double scale : {0.5, 1.0, 1.5, 2.0, 2.5, 3.0}) {
    for (const char* record : {"a.AT2", "b.AT2"}) {
      for (int r = 0; r < 5; ++r) {
        const bool over = uniform(generator) < phi(std::log(scale / 1.6) / 0.4);
        runs.push_back({scale, record, "completed", over ? 1 : 0, over ? 1.6 : 0.05 * scale});
      }
    }
  }
  runs.push_back({1.0, "a.AT2", "time_limit", -1, NAN});
  runs.push_back({2.0, "b.AT2", "time_limit", -1, NAN});
  return runs;
}

TEST_CASE(
    "sweep table reader: every column with its type, unit and order, damage and foreign "
    "files refused with a message") {
  write_table("read.h5", study_runs());
  const SweepColumns table = read_sweep_columns(scratch() / "read.h5");
  REQUIRE(table.columns.size() == 8);
  CHECK(table.rows() == 62);
  CHECK(table.planned_runs == 62);
  CHECK(table.columns[1].name == "excitation.0.record.scale");
  CHECK(table.columns[2].type == CellType::text);
  CHECK(table.columns[2].texts[5] == "b.AT2");
  CHECK(table.columns[7].unit == "rad");
  CHECK(table.find("overturned")->integers[60] == -1);
  CHECK(is_sweep_table(scratch() / "read.h5"));

  std::ofstream(scratch() / "text.h5") << "not hdf5\n";
  CHECK(!is_sweep_table(scratch() / "text.h5"));
  CHECK_THROWS_WITH_AS(read_sweep_columns(scratch() / "text.h5"), doctest::Contains("not an HDF5"),
                       std::runtime_error);
  CHECK_THROWS_WITH_AS(read_sweep_columns(scratch() / "absent.h5"),
                       doctest::Contains("no such file"), std::runtime_error);
  // the first half of the file: HDF5 finds its signature but not its objects
  const auto size = std::filesystem::file_size(scratch() / "read.h5");
  std::filesystem::copy_file(scratch() / "read.h5", scratch() / "cut.h5");
  std::filesystem::resize_file(scratch() / "cut.h5", size / 2);
  CHECK_THROWS_WITH_AS(read_sweep_columns(scratch() / "cut.h5"), doctest::Contains("damaged file"),
                       DamagedSweepTableError);
}

TEST_CASE(
    "routh fragility: the table's runs by level, trouble runs excluded and counted, the "
    "fit, JSON, CSV, Markdown and SVG") {
  const std::vector<TableRun> runs = study_runs();
  write_table("study.h5", runs);
  const test::RouthRun run = run_routh(
      "fragility study.h5 --json --csv levels.csv --markdown levels.md -o curve.svg --force");
  REQUIRE(run.exit_code == 0);
  // the levels counted here from the runs written
  std::vector<FragilityLevel> levels;
  for (const TableRun& r : runs) {
    if (r.status != "completed") continue;
    if (levels.empty() || levels.back().im != r.scale) levels.push_back({r.scale, 0, 0});
    ++levels.back().runs;
    levels.back().exceeding += r.overturned;
  }
  const auto [theta, beta] = reference_fit(levels);
  std::string exceeding = "\"exceeding\": [";
  for (std::size_t j = 0; j < levels.size(); ++j) {
    exceeding += cat(j > 0 ? ", " : "", levels[j].exceeding);
  }
  CHECK(run.out.find(exceeding + "]") != std::string::npos);
  CHECK(run.out.find("\"runs\": [10, 10, 10, 10, 10, 10]") != std::string::npos);
  CHECK(run.out.find("\"excluded\": 2") != std::string::npos);
  CHECK(run.out.find("\"status time_limit\": 2") != std::string::npos);
  CHECK(run.out.find("\"im\": \"excitation.0.record.scale\"") != std::string::npos);
  const auto number_after = [&](const std::string& key) {
    return std::stod(run.out.substr(run.out.find(cat("\"", key, "\": ")) + key.size() + 4));
  };
  CHECK(number_after("median") == doctest::Approx(theta).epsilon(1e-6));
  CHECK(number_after("beta") == doctest::Approx(beta).epsilon(1e-6));
  CHECK(std::count(run.out.begin(), run.out.end(), '\n') == 1);

  std::stringstream csv, markdown, svg;
  csv << std::ifstream(scratch() / "levels.csv").rdbuf();
  markdown << std::ifstream(scratch() / "levels.md").rdbuf();
  svg << std::ifstream(scratch() / "curve.svg").rdbuf();
  CHECK(csv.str().starts_with("excitation.0.record.scale,runs,exceeding,fraction,fitted\n0.5,10,"));
  CHECK(markdown.str().find("| --- |") != std::string::npos);
  CHECK(svg.str().starts_with("<?xml"));
  CHECK(svg.str().find("<polyline") != std::string::npos);
  CHECK(svg.str().find("<polygon") != std::string::npos);  // the bootstrap band
  const std::string picture = svg.str();
  CHECK(std::count(picture.begin(), picture.end(), '<') ==
        std::count(picture.begin(), picture.end(), '>'));

  // the text: aligned table and the fit; an existing output needs --force
  const test::RouthRun text = run_routh("fragility study.h5 --bootstrap 50");
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("62 ") == std::string::npos);
  CHECK(text.out.find("60 used, 2 excluded (status time_limit: 2)") != std::string::npos);
  CHECK(run_routh("fragility study.h5 -o curve.svg").exit_code == 1);
  // never the table it reads, nor two outputs of one name, even with --force
  CHECK(run_routh("fragility study.h5 -o study.h5 --force").exit_code == 1);
  CHECK(run_routh("fragility study.h5 -o same.txt --csv same.txt --force").exit_code == 1);
  CHECK(!std::filesystem::exists(scratch() / "same.txt"));
  CHECK(read_sweep_columns(scratch() / "study.h5").rows() == 62);

  // a body's outcome, the IM named, no bootstrap
  const test::RouthRun body = run_routh(
      "fragility study.h5 --outcome block.overturned --im excitation.0.record.scale --bootstrap 0 "
      "--json");
  CHECK(body.exit_code == 0);
  CHECK(body.out.find(exceeding + "]") != std::string::npos);
  CHECK(body.out.find("\"median_interval\": null") != std::string::npos);

  // a damage state on a real column, and a degenerate one: all runs exceed a tiny threshold
  const test::RouthRun state = run_routh("fragility study.h5 --outcome 'max_abs_theta>0.1' --json");
  CHECK(state.exit_code == 0);
  const test::RouthRun all = run_routh("fragility study.h5 --outcome 'max_abs_theta>0.001' --json");
  CHECK(all.exit_code == 24);
  CHECK(all.out.find("\"status\": \"all_exceed\"") != std::string::npos);
  CHECK(all.out.find("\"median\": null") != std::string::npos);
  CHECK(all.out.find("nan") == std::string::npos);

  // errors name the candidates; a file that is no table is refused
  const test::RouthRun missing = run_routh("fragility study.h5 --outcome toppled");
  CHECK(missing.exit_code == 1);
  CHECK(missing.err.find("block.overturned") != std::string::npos);
  std::ofstream(scratch() / "junk.h5") << "junk";
  CHECK(run_routh("fragility junk.h5").exit_code == 1);
  std::filesystem::copy_file(scratch() / "study.h5", scratch() / "half.h5",
                             std::filesystem::copy_options::overwrite_existing);
  std::filesystem::resize_file(scratch() / "half.h5",
                               std::filesystem::file_size(scratch() / "half.h5") / 2);
  CHECK(run_routh("fragility half.h5").exit_code == 22);
}

// A table of two runs whose swept keys are `keys` (reals), then status and overturned, and a
// pga column [m/s^2] when asked.
void write_keyed_table(const std::string& name, const std::vector<std::string>& keys, bool pga) {
  std::vector<TableColumn> columns = {{"run", CellType::integer, ""}};
  for (const std::string& key : keys) columns.push_back({key, CellType::real, ""});
  columns.push_back({"status", CellType::text, ""});
  columns.push_back({"overturned", CellType::integer, ""});
  if (pga) columns.push_back({"pga", CellType::real, "m/s^2"});
  SweepTableWriter writer(scratch() / name, columns, {"base: b.yaml\n", "duration: 1\n", 4});
  std::vector<TableRow> rows;
  for (std::int64_t i = 0; i < 4; ++i) {
    TableRow row = {Cell(i)};
    for (std::size_t k = 0; k < keys.size(); ++k) row.emplace_back(1.0 + static_cast<double>(i));
    row.emplace_back(std::string("completed"));
    row.emplace_back(std::int64_t{i == 1 || i == 2 ? 1 : 0} + std::int64_t{i == 3});
    if (pga) row.emplace_back(2.0 + static_cast<double>(i));
    rows.push_back(std::move(row));
  }
  writer.append(rows);
  writer.close();
}

TEST_CASE("routh fragility: the IM by default, the swept intensity or pga, or the candidates") {
  const auto im_of = [](const std::string& table) {
    const test::RouthRun run = run_routh(cat("fragility ", table, " --json --bootstrap 0"));
    const std::size_t at = run.out.find("\"im\": \"");
    return at == std::string::npos ? cat("error: ", run.err)
                                   : run.out.substr(at + 7, run.out.find('"', at + 7) - at - 7);
  };
  write_keyed_table("pga_target.h5", {"model.width", "excitation.0.record.scale_to.pga"}, true);
  CHECK(im_of("pga_target.h5") == "excitation.0.record.scale_to.pga");
  write_keyed_table("sa_target.h5", {"excitation.0.record.scale_to.sa.value"}, false);
  CHECK(im_of("sa_target.h5") == "excitation.0.record.scale_to.sa.value");
  write_keyed_table("measured.h5", {"model.width"}, true);
  CHECK(im_of("measured.h5") == "pga");
  write_keyed_table("two_scale_keys.h5", {"excitation.0.record.scale", "excitation.1.record.scale"},
                    false);
  CHECK(im_of("two_scale_keys.h5").find("several swept keys set the intensity") !=
        std::string::npos);
  write_keyed_table("none.h5", {"model.width"}, false);
  const std::string none = im_of("none.h5");
  CHECK(none.find("choose one with --im among: model.width, overturned") != std::string::npos);
  // the IM's unit goes with it
  const test::RouthRun measured = run_routh("fragility measured.h5 --json --bootstrap 0");
  CHECK(measured.out.find("\"im_unit\": \"m/s^2\"") != std::string::npos);
}

TEST_CASE("IDA stripes: the median per IM level, collapsed runs counting as infinite") {
  constexpr double kCollapse = std::numeric_limits<double>::infinity();
  constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
  // levels given out of order; a collapsed run's response (NaN, or a block turning on the floor)
  // is not used
  const std::vector<IdaRun> runs = {{2.0, 0.3, false}, {1.0, 0.4, false}, {3.0, 0.1, false},
                                    {2.0, 12.0, true}, {4.0, 0.5, false}, {2.0, 0.1, false},
                                    {1.0, 0.2, false}, {3.0, kNan, true}, {4.0, 19.0, true},
                                    {4.0, 15.0, true}};
  const std::vector<IdaStripe> stripes = ida_stripes(runs);
  REQUIRE(stripes.size() == 4);
  // 1: {0.2, 0.4} the mean of the two middle values; 2: {0.1, 0.3, ∞} the middle; 3: {0.1, ∞}
  // half collapsed; 4: {0.5, ∞, ∞} most collapsed
  const std::vector<double> ims = {1.0, 2.0, 3.0, 4.0};
  const std::vector<double> medians = {0.3, 0.3, kCollapse, kCollapse};
  const std::vector<std::int64_t> counts = {2, 3, 2, 3}, collapsed = {0, 1, 1, 2};
  for (std::size_t j = 0; j < stripes.size(); ++j) {
    CAPTURE(j);
    CHECK(stripes[j].im == ims[j]);
    CHECK(stripes[j].runs == counts[j]);
    CHECK(stripes[j].collapsed == collapsed[j]);
    if (std::isinf(medians[j])) {
      CHECK(stripes[j].median == medians[j]);
    } else {
      CHECK(stripes[j].median == doctest::Approx(medians[j]));
    }
  }
  CHECK(ida_stripes(std::vector<IdaRun>{}).empty());
  CHECK_THROWS_AS(ida_stripes(std::vector<IdaRun>{{1.0, kNan, false}}), std::invalid_argument);
  CHECK_THROWS_AS(ida_stripes(std::vector<IdaRun>{{kNan, 0.1, false}}), std::invalid_argument);
}

// The CSV rows routh ida should write for `runs`: each record's and scale's completed runs, how
// many overturned and the median response, overturned runs as +∞ when `collapse`.
std::vector<std::string> expected_ida_rows(const std::vector<TableRun>& runs, bool collapse) {
  std::vector<std::string> rows;
  for (const char* record : {"a.AT2", "b.AT2"}) {
    for (const double scale : {0.5, 1.0, 1.5, 2.0, 2.5, 3.0}) {
      std::vector<double> values;
      std::int64_t overturned = 0;
      for (const TableRun& run : runs) {
        if (run.record != record || run.scale != scale || run.status != "completed") continue;
        overturned += run.overturned;
        values.push_back(collapse && run.overturned == 1 ? HUGE_VAL : run.theta);
      }
      std::sort(values.begin(), values.end());
      REQUIRE(values.size() % 2 == 1);
      const double median = values[values.size() / 2];
      rows.push_back(cat(record, ',', round_trip(scale), ',', values.size(),
                         collapse ? cat(',', overturned) : std::string(), ',',
                         std::isinf(median) ? std::string("inf") : round_trip(median)));
    }
  }
  return rows;
}

std::vector<std::string> lines_of(const std::filesystem::path& path) {
  std::ifstream file(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(file, line);) lines.push_back(line);
  return lines;
}

TEST_CASE("routh ida and routh info on a sweep table") {
  write_table("ida.h5", study_runs());
  const test::RouthRun ida =
      run_routh("ida ida.h5 --response max_abs_theta -o ida.svg --csv ida.csv --force");
  INFO(ida.err);
  REQUIRE(ida.exit_code == 0);
  CHECK(ida.out.find("curves     2 (by excitation.0.record.file)") != std::string::npos);
  CHECK(ida.out.find("60 used, 2 excluded") != std::string::npos);
  CHECK(ida.out.find("collapse   overturned != 0") != std::string::npos);
  // one row per record and level: the runs, those that overturned and the median response
  std::vector<std::string> csv = lines_of(scratch() / "ida.csv");
  REQUIRE(!csv.empty());
  CHECK(csv.front() ==
        "excitation.0.record.file,excitation.0.record.scale [-],runs,collapsed,"
        "median max_abs_theta [rad]");
  CHECK(std::vector<std::string>(csv.begin() + 1, csv.end()) ==
        expected_ida_rows(study_runs(), true));
  CHECK(ida.out.find("collapse\n") != std::string::npos);  // a median at collapse, as text
  std::stringstream svg;
  svg << std::ifstream(scratch() / "ida.svg").rdbuf();
  CHECK(svg.str().find(">overturned</text>") != std::string::npos);  // the collapse band
  CHECK(svg.str().find("<path d=") != std::string::npos);            // a collapse's ×
  CHECK(svg.str().find("max_abs_theta [rad]") != std::string::npos);
  CHECK(svg.str().find("excitation.0.record.scale [-]") != std::string::npos);

  // --no-collapse: every run at its response, no collapse band
  const test::RouthRun raw = run_routh(
      "ida ida.h5 --response max_abs_theta -o raw.svg --csv raw.csv --no-collapse --force");
  REQUIRE(raw.exit_code == 0);
  CHECK(raw.out.find("collapse   off (--no-collapse)") != std::string::npos);
  csv = lines_of(scratch() / "raw.csv");
  REQUIRE(!csv.empty());
  CHECK(std::vector<std::string>(csv.begin() + 1, csv.end()) ==
        expected_ida_rows(study_runs(), false));
  svg.str("");
  svg << std::ifstream(scratch() / "raw.svg").rdbuf();
  CHECK(svg.str().find(">overturned</text>") == std::string::npos);

  const test::RouthRun info = run_routh("info ida.h5");
  REQUIRE(info.exit_code == 0);
  CHECK(info.out.find("62 planned, 62 written") != std::string::npos);
  CHECK(info.out.find("completed 60, time_limit 2") != std::string::npos);
  CHECK(info.out.find("excitation.0.record.scale: 6 values, 0.5 to 3") != std::string::npos);
  CHECK(info.out.find("excitation.0.record.file: 2 values: a.AT2, b.AT2") != std::string::npos);
  CHECK(info.out.find("block.overturned") != std::string::npos);
  const test::RouthRun events = run_routh("info ida.h5 --events");
  CHECK(events.exit_code == 1);
  CHECK(events.err.find("a sweep table has no event log") != std::string::npos);
  std::filesystem::copy_file(scratch() / "ida.h5", scratch() / "ida_cut.h5");
  std::filesystem::resize_file(scratch() / "ida_cut.h5",
                               std::filesystem::file_size(scratch() / "ida.h5") / 2);
  CHECK(run_routh("info ida_cut.h5").exit_code == 22);
  write_table("stopped.h5", study_runs(), 100);
  const test::RouthRun stopped = run_routh("info stopped.h5");
  CHECK(stopped.out.find("100 planned, 62 written") != std::string::npos);
  CHECK(stopped.out.find("routh sweep --resume") != std::string::npos);
}

TEST_CASE("routh fragility on a table made by a short sweep of the record suite") {
  const std::string source = ROUTH_SOURCE_DIR;
  test::write_problem(cat("base: ", source,
                          "/scenarios/rocking_block_record.yaml\n"
                          "grid:\n"
                          "  duration: [2.5]\n"
                          "  excitation.0.record.file: [",
                          source, "/scenarios/motions/synthetic_sines.AT2, ", source,
                          "/scenarios/motions/synthetic_noise.AT2]\n"
                          "  excitation.0.record.scale: [1, 2.5, 4, 6]\n"),
                      "suite.yaml");
  REQUIRE(run_routh("sweep suite.yaml -o suite.h5 --jobs 1 --force").exit_code == 0);
  const SweepTable table = read_sweep_table(scratch() / "suite.h5");
  std::vector<std::int64_t> exceeding(4, 0);
  std::size_t scale = 0, overturned = 0;
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    if (table.columns[c].name == "excitation.0.record.scale") scale = c;
    if (table.columns[c].name == "overturned") overturned = c;
  }
  const std::vector<double> scales = {1, 2.5, 4, 6};
  for (const TableRow& row : table.rows) {
    const auto level = std::find(scales.begin(), scales.end(), std::get<double>(row[scale]));
    exceeding[static_cast<std::size_t>(level - scales.begin())] +=
        std::get<std::int64_t>(row[overturned]);
  }
  const test::RouthRun run = run_routh("fragility suite.h5 --json --bootstrap 100");
  CHECK((run.exit_code == 0 || run.exit_code == 24));
  CHECK(run.out.find(cat("\"exceeding\": [", exceeding[0], ", ", exceeding[1], ", ", exceeding[2],
                         ", ", exceeding[3], "]")) != std::string::npos);
  CHECK(run.out.find("\"runs\": [2, 2, 2, 2]") != std::string::npos);
  CHECK(run_routh("info suite.h5").exit_code == 0);
}

}  // namespace
}  // namespace routh
