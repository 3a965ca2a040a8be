#include "tools/routh/ida_command.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim/recorder/sweep_table_reader.hpp"
#include "sim/study/ida_stripes.hpp"
#include "sim/text.hpp"
#include "tools/routh/aligned_columns.hpp"
#include "tools/routh/guarded_reading.hpp"
#include "tools/routh/study_columns.hpp"
#include "tools/routh/study_output.hpp"
#include "tools/routh/svg_plot.hpp"

namespace routh::cli {

namespace {

struct IdaOptions {
  std::string table;
  std::string response;
  std::optional<std::string> im;
  std::optional<std::string> by;
  std::string csv, plot;
  bool force = false;
  bool collapse = true;  // runs that overturned drawn as collapse, not at their response
};

std::optional<IdaOptions> usage_error(std::string_view message) {
  std::cerr << "routh ida: " << message << '\n' << kIdaUsage;
  return std::nullopt;
}

std::optional<IdaOptions> parse_options(CommandArguments arguments) {
  IdaOptions options;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string_view argument = arguments[i];
    const bool takes_value = argument == "--response" || argument == "--im" || argument == "--by" ||
                             argument == "--csv" || argument == "-o";
    if (takes_value && i + 1 == arguments.size()) {
      return usage_error(cat(argument, " needs a value"));
    }
    if (argument == "--response") {
      options.response = arguments[++i];
    } else if (argument == "--im") {
      options.im = std::string(arguments[++i]);
    } else if (argument == "--by") {
      options.by = std::string(arguments[++i]);
    } else if (argument == "--csv") {
      options.csv = arguments[++i];
    } else if (argument == "-o") {
      options.plot = arguments[++i];
    } else if (argument == "--force") {
      options.force = true;
    } else if (argument == "--no-collapse") {
      options.collapse = false;
    } else if (argument.starts_with("-")) {
      return usage_error(cat("unknown option '", argument, "'"));
    } else if (!options.table.empty()) {
      return usage_error(cat("unexpected argument '", argument, "': give one sweep table"));
    } else {
      options.table = argument;
    }
  }
  if (options.table.empty()) return usage_error("expected one sweep table");
  if (options.response.empty()) return usage_error("--response COLUMN is required");
  return options;
}

// The column naming each run's record, or nullptr: all runs form one curve.
const SweepColumn* record_column(const SweepColumns& table, const std::optional<std::string>& by) {
  if (by) {
    const SweepColumn* column = table.find(*by);
    if (column == nullptr) {
      std::vector<std::string> names;
      for (const SweepColumn& c : table.columns) names.push_back(c.name);
      throw std::invalid_argument(
          cat("no column '", *by, "' for --by; did you mean '", closest_name(*by, names), "'?"));
    }
    return column;
  }
  if (const SweepColumn* record = table.find("record")) return record;
  std::vector<std::string> keys;
  for (const std::string& key : swept_keys(table)) {
    const bool text = table.find(key)->type == CellType::text;  // a file name, not a scale
    if (text && key.find("record") != std::string::npos) keys.push_back(key);
  }
  if (keys.size() > 1) {
    throw std::invalid_argument(cat("several swept text keys name a record (", comma_list(keys),
                                    "): choose one with --by"));
  }
  return keys.empty() ? nullptr : table.find(keys.front());
}

// The column saying whether a run collapsed: BODY.overturned for a response BODY.*, else
// overturned; nullptr when the table has neither.
const SweepColumn* collapse_column(const SweepColumns& table, const std::string& response) {
  const std::size_t dot = response.find('.');
  if (dot != std::string::npos) {
    if (const SweepColumn* body = table.find(cat(response.substr(0, dot), ".overturned"))) {
      return body;
    }
  }
  return table.find("overturned");
}

// A record's name for the legend: a file's name without its folders, at most 24 characters.
std::string legend_name(const std::string& record) {
  constexpr std::size_t kLongest = 24;
  std::string name = std::filesystem::path(record).filename().string();
  if (name.empty()) name = record;
  return name.size() <= kLongest ? name : cat(name.substr(0, kLongest - 3), "...");
}

// A column's name with its unit; "[-]" for a dimensionless number.
std::string with_unit(const SweepColumn& column) {
  return cat(column.name, " [", column.unit.empty() ? "-" : column.unit, "]");
}

// θ_max / α reaches 1 where a block tips past its static overturning angle: the axis shows it.
bool over_alpha(const SweepColumn& response) { return response.name.ends_with("theta_over_alpha"); }

struct IdaCurve {
  std::string record;
  std::vector<IdaRun> runs;  // in the table's order
  std::vector<IdaStripe> stripes;
};

SvgPlot ida_plot(const std::vector<IdaCurve>& curves, const SweepColumn& response,
                 const SweepColumn& im, const SweepColumn* collapse) {
  SvgPlot plot;
  plot.title = cat("IDA: ", response.name);
  plot.x_label = with_unit(response);
  plot.y_label = with_unit(im);
  if (collapse != nullptr) plot.collapse_label = "overturned";
  if (over_alpha(response)) plot.x_include.push_back(1.0);
  for (std::size_t c = 0; c < curves.size(); ++c) {
    PlotSeries runs;  // each run, faint, without a legend entry
    runs.color = series_color(c);
    runs.line = false;
    runs.opacity = 0.25;
    runs.collapse_slot = (static_cast<double>(c) + 0.5) / static_cast<double>(curves.size());
    for (const IdaRun& run : curves[c].runs) {
      runs.x.push_back(run.collapsed ? HUGE_VAL : run.response);
      runs.y.push_back(run.im);
      runs.marker_radii.push_back(2.5);
    }
    PlotSeries medians;  // the curve through the stripes' medians
    medians.label = legend_name(curves[c].record);
    medians.color = runs.color;
    medians.opacity = 0.9;
    medians.collapse_slot = runs.collapse_slot;
    for (const IdaStripe& stripe : curves[c].stripes) {
      medians.x.push_back(stripe.median);
      medians.y.push_back(stripe.im);
      medians.marker_radii.push_back(3.5);
    }
    plot.series.push_back(std::move(runs));
    plot.series.push_back(std::move(medians));
  }
  return plot;
}

int ida(const IdaOptions& options) {
  const SweepColumns table = read_sweep_columns(options.table);
  const SweepColumn& im = im_column(table, options.im);
  const SweepColumn& response = numeric_column(table, options.response, "response");
  const SweepColumn* record = record_column(table, options.by);
  const SweepColumn* collapse =
      options.collapse ? collapse_column(table, options.response) : nullptr;
  RunSelection selection = runs_with_outcomes(table, im);
  // the curves by record, in the order records first appear
  std::vector<IdaCurve> curves;
  for (const std::size_t row : selection.rows) {
    const std::string name = record != nullptr ? record->text(row) : "all runs";
    auto curve = std::find_if(curves.begin(), curves.end(),
                              [&](const IdaCurve& entry) { return entry.record == name; });
    if (curve == curves.end()) {
      curves.push_back({name, {}, {}});
      curve = std::prev(curves.end());
    }
    curve->runs.push_back(
        {im.number(row), response.number(row), collapse != nullptr && collapse->number(row) != 0});
  }
  for (IdaCurve& curve : curves) curve.stripes = ida_stripes(curve.runs);
  std::vector<std::string> header = {record != nullptr ? record->name : "record", with_unit(im),
                                     "runs"};
  if (collapse != nullptr) header.push_back("collapsed");
  header.push_back(cat("median ", with_unit(response)));
  // the stripes as text; a median at collapse (+∞) as `infinite`
  const auto stripe_rows = [&](std::string (*format)(double), const std::string& infinite) {
    std::vector<std::vector<std::string>> rows;
    for (const IdaCurve& curve : curves) {
      for (const IdaStripe& stripe : curve.stripes) {
        std::vector<std::string> row = {curve.record, format(stripe.im), cat(stripe.runs)};
        if (collapse != nullptr) row.push_back(cat(stripe.collapsed));
        row.push_back(std::isinf(stripe.median) ? infinite : format(stripe.median));
        rows.push_back(std::move(row));
      }
    }
    return rows;
  };
  std::vector<std::pair<std::filesystem::path, std::string>> files;
  if (!options.csv.empty())
    files.emplace_back(options.csv, csv_table(header, stripe_rows(round_trip, "inf")));
  if (!options.plot.empty()) {
    files.emplace_back(options.plot, render_svg(ida_plot(curves, response, im, collapse)));
  }
  write_study_outputs(options.table, files, options.force);
  std::cout << "table      " << options.table << '\n'
            << "response   " << with_unit(response) << '\n'
            << "IM         " << with_unit(im) << '\n'
            << "collapse   "
            << (collapse != nullptr ? cat(collapse->name, " != 0 (the median counts it as +inf)")
                                    : std::string(options.collapse ? "none (no overturned column)"
                                                                   : "off (--no-collapse)"))
            << '\n'
            << "curves     " << curves.size() << " (by "
            << (record != nullptr ? record->name : "none") << ")\n"
            << "runs       " << selection.rows.size() << " used, " << selection.excluded_count()
            << " excluded";
  for (std::size_t i = 0; i < selection.excluded.size(); ++i) {
    std::cout << (i == 0 ? " (" : ", ") << selection.excluded[i].first << ": "
              << selection.excluded[i].second << (i + 1 == selection.excluded.size() ? ")" : "");
  }
  std::cout << "\n\n";
  const std::vector<std::vector<std::string>> rows = stripe_rows(readable, "collapse");
  AlignedColumns columns;
  columns.measure(header);
  for (const auto& row : rows) columns.measure(row);
  columns.print(std::cout, header);
  for (const auto& row : rows) columns.print(std::cout, row);
  return kExitSuccess;
}

}  // namespace

int run_ida_command(CommandArguments arguments) {
  if (asks_for_help(arguments)) {
    std::cout << kIdaUsage;
    return kExitSuccess;
  }
  const std::optional<IdaOptions> options = parse_options(arguments);
  if (!options) return kExitUsage;
  return run_on_sweep_table("ida", options->table, [&] { return ida(*options); });
}

}  // namespace routh::cli
