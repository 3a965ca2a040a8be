#include "tools/routh/fragility_command.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "sim/recorder/sweep_table_reader.hpp"
#include "sim/text.hpp"
#include "tools/routh/aligned_columns.hpp"
#include "tools/routh/fragility_report.hpp"
#include "tools/routh/guarded_reading.hpp"
#include "tools/routh/study_output.hpp"
#include "tools/routh/svg_plot.hpp"

namespace routh::cli {

namespace {

struct FragilityOptions {
  std::string table;
  FragilityRequest request;
  bool json = false;
  std::string csv, markdown, plot;
  bool force = false;
};

std::optional<FragilityOptions> usage_error(std::string_view message) {
  std::cerr << "routh fragility: " << message << '\n' << kFragilityUsage;
  return std::nullopt;
}

template <typename Number>
std::optional<Number> parsed_number(std::string_view text) {
  Number value{};
  const auto parsed = std::from_chars(text.data(), text.data() + text.size(), value);
  if (parsed.ec != std::errc() || parsed.ptr != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<FragilityOptions> parse_options(CommandArguments arguments) {
  FragilityOptions options;
  options.request.bootstrap.replicates = kDefaultBootstrapReplicates;
  options.request.bootstrap.seed = kDefaultBootstrapSeed;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string_view argument = arguments[i];
    const bool takes_value = argument == "--outcome" || argument == "--im" ||
                             argument == "--confidence" || argument == "--bootstrap" ||
                             argument == "--seed" || argument == "--csv" ||
                             argument == "--markdown" || argument == "-o";
    if (takes_value && i + 1 == arguments.size()) {
      return usage_error(cat(argument, " needs a value"));
    }
    if (argument == "--outcome") {
      options.request.outcome = arguments[++i];
    } else if (argument == "--im") {
      options.request.im = std::string(arguments[++i]);
    } else if (argument == "--confidence") {
      const auto value = parsed_number<double>(arguments[++i]);
      if (!value || !(*value > 0.0 && *value < 1.0)) {
        return usage_error(cat("--confidence '", arguments[i], "' is not a number in (0, 1)"));
      }
      options.request.bootstrap.confidence = *value;
    } else if (argument == "--bootstrap") {
      const auto value = parsed_number<std::int64_t>(arguments[++i]);
      if (!value || *value < 0 || *value > 1'000'000) {
        return usage_error(cat("--bootstrap '", arguments[i], "' is not a count 0 to 1000000"));
      }
      options.request.bootstrap.replicates = *value;
    } else if (argument == "--seed") {
      const auto value = parsed_number<std::uint64_t>(arguments[++i]);
      if (!value || *value > kLargestSeed) {
        return usage_error(cat("--seed '", arguments[i], "' is not an integer 0 to 2^53"));
      }
      options.request.bootstrap.seed = *value;
    } else if (argument == "--csv") {
      options.csv = arguments[++i];
    } else if (argument == "--markdown") {
      options.markdown = arguments[++i];
    } else if (argument == "-o") {
      options.plot = arguments[++i];
    } else if (argument == "--json") {
      options.json = true;
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
  return options;
}

bool fitted(const FragilityStudy& study) { return study.fit.status == FragilityFitStatus::fitted; }

std::string with_unit(const std::string& name, const std::string& unit) {
  return unit.empty() ? name : cat(name, " [", unit, "]");
}

// The levels' table: IM, runs, exceeding, fraction and the fitted probability (when fitted).
std::vector<std::string> level_header(const FragilityStudy& study) {
  return {with_unit(study.im, study.im_unit), "runs", "exceeding", "fraction", "fitted"};
}

// Its rows, the reals written by `number` (every digit for CSV, four for people).
std::vector<std::vector<std::string>> level_rows(const FragilityStudy& study,
                                                 std::string (*number)(double)) {
  std::vector<std::vector<std::string>> rows;
  for (const FragilityLevel& level : study.levels) {
    const double fraction = static_cast<double>(level.exceeding) / static_cast<double>(level.runs);
    rows.push_back({number(level.im), cat(level.runs), cat(level.exceeding), number(fraction),
                    fitted(study)
                        ? number(fragility_probability(level.im, study.fit.median, study.fit.beta))
                        : std::string()});
  }
  return rows;
}

std::string excluded_text(const FragilityStudy& study) {
  std::string reasons;
  for (const auto& [reason, count] : study.excluded) {
    reasons += cat(reasons.empty() ? "" : ", ", reason, ": ", count);
  }
  return cat(study.excluded_count, " excluded", reasons.empty() ? "" : cat(" (", reasons, ")"));
}

// "median 0.84 m/s², beta 0.41" and the intervals, or why there is no fit.
std::vector<std::string> fit_lines(const FragilityStudy& study) {
  if (!fitted(study)) {
    return {cat("no fit: ", explanation(study.fit.status), " [", to_string(study.fit.status), "]")};
  }
  const std::string unit = study.im_unit.empty() ? "" : cat(" ", study.im_unit);
  std::vector<std::string> lines = {
      cat("median ", readable(study.fit.median), unit, ", beta ", readable(study.fit.beta),
          " (maximum likelihood, ln L = ", readable(study.fit.log_likelihood), ")")};
  if (study.bootstrap) {
    const FragilityBootstrap& bootstrap = *study.bootstrap;
    std::string line = cat(study.bootstrap_settings.confidence * 100.0, " % interval: ");
    if (bootstrap.median && bootstrap.beta) {
      line += cat("median ", readable(bootstrap.median->low), " to ",
                  readable(bootstrap.median->high), unit, ", beta ", readable(bootstrap.beta->low),
                  " to ", readable(bootstrap.beta->high));
    } else {
      line += "none (no replicate has a finite fit)";
    }
    lines.push_back(line);
    lines.push_back(cat("(bootstrap: ", bootstrap.replicates, " replicates, ",
                        to_string(bootstrap.scheme), ", seed ", study.bootstrap_settings.seed,
                        ")"));
    if (bootstrap.degenerate > 0) {
      lines.push_back(
          cat(bootstrap.degenerate, " replicates without a finite fit left out of the interval"));
    }
  }
  return lines;
}

void print_text(const std::string& table, const FragilityStudy& study) {
  std::ostream& out = std::cout;
  out << "table      " << table << '\n'
      << "outcome    " << study.outcome << '\n'
      << "IM         " << with_unit(study.im, study.im_unit) << '\n'
      << "runs       " << study.runs_used << " used, " << excluded_text(study) << '\n';
  const std::vector<std::string> lines = fit_lines(study);
  for (std::size_t i = 0; i < lines.size(); ++i)
    out << (i == 0 ? "fit        " : "           ") << lines[i] << '\n';
  out << '\n';
  AlignedColumns columns;
  const std::vector<std::string> header = level_header(study);
  const std::vector<std::vector<std::string>> rows = level_rows(study, &readable);
  columns.measure(header);
  for (const auto& row : rows) columns.measure(row);
  columns.print(out, header);
  for (const auto& row : rows) columns.print(out, row);
}

std::string markdown_text(const std::string& table, const FragilityStudy& study) {
  std::string text =
      cat("Fragility of `", study.outcome, "` against `", with_unit(study.im, study.im_unit),
          "` from `", table, "`: ", study.runs_used, " runs, ", excluded_text(study), ".\n\n");
  for (const std::string& line : fit_lines(study)) text += cat("- ", line, '\n');
  return cat(text, '\n', markdown_table(level_header(study), level_rows(study, &readable)));
}

// Points from 0 to past the last level, log-spaced where the curve bends.
std::vector<double> curve_abscissae(const FragilityStudy& study) {
  double top = study.levels.empty() ? 1.0 : study.levels.back().im;
  if (fitted(study)) top = std::max(top, study.fit.median * std::exp(2.5 * study.fit.beta));
  constexpr int kPoints = 240;
  std::vector<double> x;
  for (int i = 1; i <= kPoints; ++i) x.push_back(top * i / kPoints);
  return x;
}

std::string plot_text(const FragilityStudy& study) {
  SvgPlot plot;
  plot.title = cat("Fragility: ", study.outcome);
  plot.x_label = with_unit(study.im, study.im_unit);
  plot.y_label = "P(exceed)";
  plot.y_range = std::pair(0.0, 1.0);
  const std::vector<double> x = curve_abscissae(study);
  if (fitted(study)) {
    const auto curve = [&](double median, double beta) {
      std::vector<double> y;
      for (const double xi : x) y.push_back(fragility_probability(xi, median, beta));
      return y;
    };
    if (study.bootstrap && study.bootstrap->median) {
      // the band of the curves at the interval's ends: at each x the lowest and highest of the
      // four (θ, β) corners
      PlotBand band;
      band.label = cat(study.bootstrap_settings.confidence * 100.0, " % interval (θ, β)");
      band.color = series_color(0);
      band.x = x;
      const ConfidenceInterval& m = *study.bootstrap->median;
      const ConfidenceInterval& b = *study.bootstrap->beta;
      std::vector<std::vector<double>> corners = {curve(m.low, b.low), curve(m.low, b.high),
                                                  curve(m.high, b.low), curve(m.high, b.high)};
      for (std::size_t i = 0; i < x.size(); ++i) {
        double low = 1.0, high = 0.0;
        for (const auto& corner : corners)
          low = std::min(low, corner[i]), high = std::max(high, corner[i]);
        band.low.push_back(low), band.high.push_back(high);
      }
      plot.bands.push_back(std::move(band));
    }
    PlotSeries fit;
    fit.label = cat("θ = ", readable(study.fit.median), ", β = ", readable(study.fit.beta));
    fit.color = series_color(0);
    fit.x = x;
    fit.y = curve(study.fit.median, study.fit.beta);
    plot.series.push_back(std::move(fit));
  }
  PlotSeries data;
  data.label = "fraction (n runs)";
  data.color = series_color(1);
  data.line = false;
  for (const FragilityLevel& level : study.levels) {
    data.x.push_back(level.im);
    data.y.push_back(static_cast<double>(level.exceeding) / static_cast<double>(level.runs));
    // marker area grows with the runs
    data.marker_radii.push_back(
        std::clamp(2.0 * std::sqrt(static_cast<double>(level.runs)), 3.0, 12.0));
    data.marker_labels.push_back(study.levels.size() <= 40 ? cat(level.runs) : std::string());
  }
  plot.series.push_back(std::move(data));
  return render_svg(plot);
}

int fragility(const FragilityOptions& options) {
  const FragilityStudy study = study_fragility(read_sweep_columns(options.table), options.request);
  std::vector<std::pair<std::filesystem::path, std::string>> files;
  if (!options.csv.empty()) {
    files.emplace_back(options.csv, csv_table(level_header(study), level_rows(study, &round_trip)));
  }
  if (!options.markdown.empty()) {
    files.emplace_back(options.markdown, markdown_text(options.table, study));
  }
  if (!options.plot.empty()) files.emplace_back(options.plot, plot_text(study));
  write_study_outputs(options.table, files, options.force);
  if (options.json) {
    write_fragility_json(std::cout, study);
  } else {
    print_text(options.table, study);
  }
  return fitted(study) ? kExitSuccess : kExitNoFragilityFit;
}

}  // namespace

int run_fragility_command(CommandArguments arguments) {
  if (asks_for_help(arguments)) {
    std::cout << kFragilityUsage;
    return kExitSuccess;
  }
  const std::optional<FragilityOptions> options = parse_options(arguments);
  if (!options) return kExitUsage;
  return run_on_sweep_table("fragility", options->table, [&] { return fragility(*options); });
}

}  // namespace routh::cli
