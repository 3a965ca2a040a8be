#include "tools/routh/ida_command.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim/recorder/sweep_table_reader.hpp"
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

struct IdaPoint {
  double im = 0.0;
  double response = 0.0;
  std::string status;
};

// A record's name for the legend: a file's name without its folders, at most 24 characters.
std::string legend_name(const std::string& record) {
  constexpr std::size_t kLongest = 24;
  std::string name = std::filesystem::path(record).filename().string();
  if (name.empty()) name = record;
  return name.size() <= kLongest ? name : cat(name.substr(0, kLongest - 3), "...");
}

// A curve joins its points only when each IM level has one run of the record (IDA's design);
// several runs per level (random draws besides the record) are drawn as points.
bool one_run_per_level(const std::vector<IdaPoint>& points) {
  for (std::size_t i = 1; i < points.size(); ++i) {
    if (points[i].im == points[i - 1].im) return false;
  }
  return true;
}

std::string with_unit(const SweepColumn& column) {
  return column.unit.empty() ? column.name : cat(column.name, " [", column.unit, "]");
}

int ida(const IdaOptions& options) {
  const SweepColumns table = read_sweep_columns(options.table);
  const SweepColumn& im = im_column(table, options.im);
  const SweepColumn& response = numeric_column(table, options.response, "response");
  const SweepColumn* record = record_column(table, options.by);
  const SweepColumn* status = table.find("status");
  RunSelection selection = runs_with_outcomes(table, im);
  // the curves by record, in the order records first appear; each sorted by IM
  std::vector<std::pair<std::string, std::vector<IdaPoint>>> curves;
  for (const std::size_t row : selection.rows) {
    const std::string name = record != nullptr ? record->text(row) : "all runs";
    auto curve = std::find_if(curves.begin(), curves.end(),
                              [&](const auto& entry) { return entry.first == name; });
    if (curve == curves.end()) {
      curves.emplace_back(name, std::vector<IdaPoint>());
      curve = std::prev(curves.end());
    }
    curve->second.push_back(
        {im.number(row), response.number(row), status != nullptr ? status->text(row) : ""});
  }
  for (auto& curve : curves) {
    std::stable_sort(curve.second.begin(), curve.second.end(),
                     [](const IdaPoint& a, const IdaPoint& b) { return a.im < b.im; });
  }
  const std::vector<std::string> header = {record != nullptr ? record->name : "record",
                                           with_unit(im), with_unit(response), "status"};
  std::vector<std::vector<std::string>> rows;
  for (const auto& [name, points] : curves) {
    for (const IdaPoint& point : points) {
      rows.push_back({name, readable(point.im), readable(point.response), point.status});
    }
  }
  std::vector<std::pair<std::filesystem::path, std::string>> files;
  if (!options.csv.empty()) {
    std::vector<std::vector<std::string>> exact;
    for (const auto& [name, points] : curves) {
      for (const IdaPoint& point : points) {
        exact.push_back({name, round_trip(point.im), round_trip(point.response), point.status});
      }
    }
    files.emplace_back(options.csv, csv_table(header, exact));
  }
  if (!options.plot.empty()) {
    SvgPlot plot;
    plot.title = cat("IDA: ", response.name);
    plot.x_label = with_unit(response);
    plot.y_label = with_unit(im);
    for (std::size_t c = 0; c < curves.size(); ++c) {
      PlotSeries series;
      series.label = legend_name(curves[c].first);
      series.color = series_color(c);
      series.line = one_run_per_level(curves[c].second);
      for (const IdaPoint& point : curves[c].second) {
        series.x.push_back(point.response);
        series.y.push_back(point.im);
        series.marker_radii.push_back(3.0);
      }
      plot.series.push_back(std::move(series));
    }
    files.emplace_back(options.plot, render_svg(plot));
  }
  write_study_outputs(options.table, files, options.force);
  std::cout << "table      " << options.table << '\n'
            << "response   " << with_unit(response) << '\n'
            << "IM         " << with_unit(im) << '\n'
            << "curves     " << curves.size() << " (by "
            << (record != nullptr ? record->name : "none") << ")\n"
            << "runs       " << selection.rows.size() << " used, " << selection.excluded_count()
            << " excluded";
  for (std::size_t i = 0; i < selection.excluded.size(); ++i) {
    std::cout << (i == 0 ? " (" : ", ") << selection.excluded[i].first << ": "
              << selection.excluded[i].second << (i + 1 == selection.excluded.size() ? ")" : "");
  }
  std::cout << "\n\n";
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
