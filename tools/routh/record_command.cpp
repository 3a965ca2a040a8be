#include "tools/routh/record_command.hpp"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "sim/excitation/intensity_measures.hpp"
#include "sim/excitation/oscillator_response.hpp"
#include "sim/json_writer.hpp"
#include "sim/scenario/ground_record_file.hpp"
#include "sim/text.hpp"
#include "tools/routh/aligned_columns.hpp"

namespace routh::cli {

namespace {

struct RecordOptions {
  std::string path;
  RecordReading reading;  ///< --format and --units, as a scenario's `format:` and `units:`
  std::vector<double> periods_s;
  double damping = kSpectrumDamping;
  bool json = false;
  bool samples = false;  ///< --samples: the JSON carries the samples as well
};

std::optional<RecordOptions> usage_error(std::string_view message) {
  std::cerr << "routh record: " << message << '\n' << kRecordUsage;
  return std::nullopt;
}

// The whole argument as a finite number.
std::optional<double> number(std::string_view text) {
  double value = 0.0;
  const auto parsed = std::from_chars(text.data(), text.data() + text.size(), value);
  if (parsed.ec != std::errc() || parsed.ptr != text.data() + text.size() ||
      !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::optional<RecordOptions> parse_options(CommandArguments arguments) {
  RecordOptions options;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string_view argument = arguments[i];
    if (argument == "--json") {
      options.json = true;
    } else if (argument == "--samples") {
      options.samples = true;
    } else if (argument == "--units" && i + 1 < arguments.size()) {
      options.reading.units = units_named(arguments[++i]);
      if (!options.reading.units) return usage_error("--units must be g, m/s2, cm/s2 or gal");
    } else if (argument == "--format" && i + 1 < arguments.size()) {
      options.reading.format = record_format_named(arguments[++i]);
      if (!options.reading.format) {
        return usage_error("--format must be peer, esm, knet, cosmos or columns");
      }
    } else if (argument == "--damping" && i + 1 < arguments.size()) {
      const std::optional<double> damping = number(arguments[++i]);
      if (!damping || *damping < 0.0 || *damping > kMaxSpectralDamping) {
        return usage_error(cat("--damping ", arguments[i], ": must be a number in [0, ",
                               kMaxSpectralDamping, "]"));
      }
      options.damping = *damping;
    } else if (argument == "--period" && i + 1 < arguments.size()) {
      // one period or several: every number that follows
      do {
        const std::optional<double> period = number(arguments[++i]);
        if (!period || *period < kMinSpectralPeriod_s || *period > kMaxSpectralPeriod_s) {
          return usage_error(cat("--period ", arguments[i], ": must be a period in [",
                                 kMinSpectralPeriod_s, ", ", kMaxSpectralPeriod_s, "] s"));
        }
        options.periods_s.push_back(*period);
      } while (i + 1 < arguments.size() && number(arguments[i + 1]));
    } else if (argument.starts_with("-")) {
      return usage_error(cat("unknown option or missing value: '", argument, "'"));
    } else if (!options.path.empty()) {
      return usage_error(cat("unexpected argument '", argument, "': give one record file"));
    } else {
      options.path = argument;
    }
  }
  if (options.path.empty()) return usage_error("missing the record file");
  if (options.samples && !options.json) return usage_error("--samples goes with --json");
  if (options.periods_s.empty()) options.periods_s = {0.1, 0.2, 0.5, 1.0, 2.0};
  return options;
}

struct SpectralValue {
  double period_s = 0.0;
  double sa_m_s2 = 0.0;
};

void write_numbers(JsonWriter& json, std::string_view name, const std::vector<double>& values) {
  json.key(name);
  json.begin_array(JsonLayout::one_line);
  for (double value : values) json.value(value);
  json.end_array();
}

// --samples: the record as read (the Python package's routh.record.read without its compiled
// module) and the ground's motion integrated from rest.
void write_samples(JsonWriter& json, const GroundRecord& record) {
  const GroundVelocityDisplacement motion =
      integrate_ground_motion(record.time_s, record.acceleration_m_s2);
  write_numbers(json, "time", record.time_s);
  write_numbers(json, "acceleration", record.acceleration_m_s2);
  write_numbers(json, "velocity", motion.velocity_m_s);
  write_numbers(json, "displacement", motion.displacement_m);
}

void write_json(std::ostream& out, const RecordOptions& options, const GroundRecord& record,
                const IntensityMeasures& measures, const std::vector<SpectralValue>& spectrum) {
  JsonWriter json(out);
  json.begin_object(JsonLayout::one_line);
  json.key("file");
  json.value(options.path);
  json.key("samples");
  json.value(static_cast<std::int64_t>(record.time_s.size()));
  json.key("start");
  json.value(record.time_s.front());
  json.key("end");
  json.value(record.time_s.back());
  for (const MeasureField& field : kMeasureFields) {
    json.key(field.name);
    json.value(measures.*field.value);
  }
  json.key("damping");
  json.value(options.damping);
  json.key("spectrum");
  json.begin_array(JsonLayout::one_line);
  for (const SpectralValue& value : spectrum) {
    json.begin_object(JsonLayout::one_line);
    json.key("period");
    json.value(value.period_s);
    json.key("sa");
    json.value(value.sa_m_s2);
    json.end_object();
  }
  json.end_array();
  if (options.samples) write_samples(json, record);
  json.key("units");
  json.begin_object(JsonLayout::one_line);
  std::vector<std::pair<std::string_view, std::string_view>> units = {{"start", "s"}, {"end", "s"}};
  for (const MeasureField& field : kMeasureFields) units.emplace_back(field.name, field.unit);
  units.insert(units.end(), {{"period", "s"}, {"sa", "m/s^2"}});
  if (options.samples) {
    units.insert(
        units.end(),
        {{"time", "s"}, {"acceleration", "m/s^2"}, {"velocity", "m/s"}, {"displacement", "m"}});
  }
  for (const auto& [name, unit] : units) {
    json.key(name);
    json.value(unit);
  }
  json.end_object();
  json.end_object();  // the writer ends the line
}

void write_text(std::ostream& out, const RecordOptions& options, const GroundRecord& record,
                const IntensityMeasures& measures, const std::vector<SpectralValue>& spectrum) {
  // six significant digits: more than a record's own accuracy, few enough to read
  const auto shown = [](double value) {
    std::ostringstream text;
    text << std::setprecision(6) << value;
    return text.str();
  };
  const auto in_g = [&](double a) {
    return cat(shown(a), " m/s^2  (", shown(a / kGravityUnit_m_s2), " g)");
  };
  std::vector<std::vector<std::string>> rows = {
      {"record", cat(options.path, "  (", record.time_s.size(), " samples, ", record.time_s.front(),
                     " to ", record.time_s.back(), " s)")},
      {"PGA", in_g(measures.pga_m_s2)},
      {"PGV", cat(shown(measures.pgv_m_s), " m/s")},
      {"PGD", cat(shown(measures.pgd_m), " m")},
      {"Arias intensity", cat(shown(measures.arias_m_s), " m/s")},
      {"CAV", cat(shown(measures.cav_m_s), " m/s")},
      {"D5-95", cat(shown(measures.significant_duration_s), " s")}};
  for (const SpectralValue& value : spectrum) {
    rows.push_back(
        {cat("Sa(", value.period_s, " s, ", 100.0 * options.damping, " %)"), in_g(value.sa_m_s2)});
  }
  AlignedColumns columns;
  for (const auto& row : rows) columns.measure(row);
  for (const auto& row : rows) columns.print(out, row);
}

}  // namespace

int run_record_command(CommandArguments arguments) {
  if (asks_for_help(arguments)) {
    std::cout << kRecordUsage;
    return kExitSuccess;
  }
  const std::optional<RecordOptions> options = parse_options(arguments);
  if (!options) return kExitUsage;
  return run_reporting_errors("record", options->path, [&] {
    if (!std::filesystem::exists(options->path)) {
      throw InputError({options->path, 0, 0}, "no record file there");
    }
    const GroundRecord record = read_ground_record(options->path, options->reading);
    const IntensityMeasures measures = intensity_measures(record.time_s, record.acceleration_m_s2);
    std::vector<SpectralValue> spectrum;
    for (double period : options->periods_s) {
      spectrum.push_back(
          {period, pseudo_spectral_acceleration(record.time_s, record.acceleration_m_s2, period,
                                                options->damping)});
    }
    if (options->json) {
      write_json(std::cout, *options, record, measures, spectrum);
    } else {
      write_text(std::cout, *options, record, measures, spectrum);
    }
    return kExitSuccess;
  });
}

}  // namespace routh::cli
