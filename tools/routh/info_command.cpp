#include "tools/routh/info_command.hpp"

#include <charconv>
#include <chrono>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/recorder/sweep_table_reader.hpp"
#include "sim/recorder/trajectory_recorder.hpp"
#include "sim/recorder/trajectory_summary.hpp"
#include "sim/simulation/outcome_figures.hpp"
#include "sim/text.hpp"
#include "tools/routh/aligned_columns.hpp"
#include "tools/routh/guarded_reading.hpp"
#include "tools/routh/sweep_info.hpp"
#include "tools/routh/trajectory_report.hpp"

namespace routh::cli {

namespace {

// The watched bodies' figures (BODY.figure), one row per body in the file's order, one column per
// figure with its unit beneath, so that a model of many bodies reads down its columns.
void print_body_outcomes(std::ostream& out,
                         const std::vector<std::pair<std::string, double>>& outcome) {
  const std::vector<OutcomeFigure> figures = body_figures(BodyOutcome{});  // names ".figure"
  std::vector<std::string> bodies;                                         // in the file's order
  std::unordered_map<std::string, double> values;
  for (const auto& [name, value] : outcome) {
    const std::size_t dot = name.rfind('.');
    if (dot == std::string::npos) continue;
    values.emplace(name, value);
    const std::string body = name.substr(0, dot);
    if (bodies.empty() || bodies.back() != body) bodies.push_back(body);
  }
  if (bodies.empty()) return;
  std::vector<std::vector<std::string>> rows{{"bodies", "body"}, {"", ""}};
  for (const OutcomeFigure& figure : figures) {
    rows[0].push_back(figure.name.substr(1));
    rows[1].push_back(figure.unit.empty() ? "" : cat("[", figure.unit, "]"));
  }
  for (const std::string& body : bodies) {
    std::vector<std::string> row{"", body};
    for (const OutcomeFigure& figure : figures) {
      const auto found = values.find(body + figure.name);
      row.push_back(found == values.end() ? "-" : cat(found->second));
    }
    rows.push_back(std::move(row));
  }
  AlignedColumns columns;
  columns.measure({"outcome    "});  // the labels' width, as the lines above
  for (const std::vector<std::string>& row : rows) columns.measure(row);
  for (const std::vector<std::string>& row : rows) columns.print(out, row);
}

void print_summary(const std::string& path, const TrajectorySummary& summary) {
  std::ostream& out = std::cout;
  out << "file         " << path << '\n'
      << "format       " << summary.format << " version " << summary.format_version
      << " (written by routh " << summary.routh_version << ")\n"
      << "law          " << summary.law << '\n'
      << "status       " << summary.status
      << (summary.status_detail.empty() ? "" : cat(" (", summary.status_detail, ")")) << '\n';
  out << "samples      " << summary.sample_count << '\n';
  if (summary.sample_count > 0) {
    out << "time         " << cat(summary.t_first) << " s to " << cat(summary.t_last)
        << " s (duration " << cat(summary.t_last - summary.t_first) << " s)\n";
  }
  out << "coordinates  " << summary.coordinate_names.size() << ':';
  for (std::size_t i = 0; i < summary.coordinate_names.size(); ++i) {
    out << (i == 0 ? " " : ", ") << summary.coordinate_names[i];
    if (i < summary.coordinate_units.size()) out << " [" << summary.coordinate_units[i] << ']';
  }
  out << '\n' << "contacts     " << summary.contact_names.size();
  for (std::size_t i = 0; i < summary.contact_names.size(); ++i) {
    out << (i == 0 ? ": " : ", ") << summary.contact_names[i];
  }
  out << '\n';
  print_physics_report(out, summary, 13);
  if (!summary.outcome.empty()) {
    out << "outcome      ";
    bool first = true;
    for (const auto& [name, value] : summary.outcome) {
      if (name.find('.') != std::string::npos) continue;  // a body's: in the table below
      out << (first ? "" : ", ") << name << " " << cat(value);
      first = false;
    }
    out << '\n';
    print_body_outcomes(out, summary.outcome);
  }
  out << "scenario     " << summary.scenario_bytes << " bytes of YAML in /scenario\n";
  if (summary.model_bytes > 0) {
    out << "model        " << summary.model_bytes
        << " bytes of JSON in /model (bodies, shapes, joints, obstacles)\n";
  }
  for (const std::string& warning : summary.warnings) out << "warning      " << warning << '\n';
  if (summary.incomplete) {
    out << "incomplete   the run's end was never recorded (its writer was killed or crashed): "
           "the file holds the run up to its last flush\n";
  }
}

struct InfoOptions {
  std::string path;
  bool events = false;  ///< --events: the event log instead of the summary
  bool csv = false;     ///< --csv: the event log as CSV
  std::optional<std::chrono::milliseconds> time_limit;  ///< --time-limit; default by file size
};

std::optional<InfoOptions> usage_error(std::string_view message) {
  std::cerr << "routh info: " << message << '\n' << kInfoUsage;
  return std::nullopt;
}

// No time limit, in effect: a year.
constexpr std::chrono::milliseconds kUntimed = std::chrono::hours(24 * 365);

// A number of seconds > 0 (at most a day), or nothing.
std::optional<double> positive_seconds(std::string_view text) {
  double seconds = 0.0;
  const auto parsed = std::from_chars(text.data(), text.data() + text.size(), seconds);
  if (parsed.ec != std::errc() || parsed.ptr != text.data() + text.size()) return std::nullopt;
  if (!(seconds > 0.0) || seconds > 86400.0) return std::nullopt;
  return seconds;
}

// Reading runs at hundreds of MB/s; a damaged file that loops never ends.
std::chrono::milliseconds default_time_limit(const std::string& path) {
  std::error_code error;
  const std::uintmax_t bytes = std::filesystem::file_size(path, error);
  const std::uintmax_t extra_s = error ? 0 : bytes / (8u << 20);
  return std::chrono::seconds(30 + static_cast<long long>(extra_s));
}

std::optional<InfoOptions> parse_options(CommandArguments arguments) {
  InfoOptions options;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string_view argument = arguments[i];
    if (argument == "--time-limit") {
      if (i + 1 == arguments.size()) return usage_error("--time-limit needs a number of seconds");
      const std::optional<double> seconds = positive_seconds(arguments[++i]);
      if (!seconds) return usage_error(cat("--time-limit '", arguments[i], "' is not seconds > 0"));
      options.time_limit = std::chrono::milliseconds(static_cast<long long>(*seconds * 1000.0));
    } else if (argument == "--events") {
      options.events = true;
    } else if (argument == "--csv") {
      options.csv = true;
    } else if (argument.starts_with("-")) {
      return usage_error(cat("unknown option '", argument, "'"));
    } else if (!options.path.empty()) {
      return usage_error(cat("unexpected argument '", argument, "': give one trajectory file"));
    } else {
      options.path = argument;
    }
  }
  if (options.path.empty()) return usage_error("expected one trajectory file");
  if (options.csv && !options.events) return usage_error("--csv goes with --events");
  return options;
}

// Each column's name with the file's unit: "t [s]", "kind", "impulse [N s]".
std::vector<std::string> event_header(const EventLogReader& log) {
  std::vector<std::string> header;
  for (const EventField& field : kEventFields) {
    const std::string unit = log.unit(field.name);
    header.push_back(unit.empty() ? std::string(field.name) : cat(field.name, " [", unit, "]"));
  }
  return header;
}

using NumberText = std::string (*)(double);

// "0.91 0.31; 0.2 0": a vector of the contacts' rows (normal first), one group per contact.
std::string per_contact(const std::vector<double>& values, std::size_t contacts,
                        NumberText number) {
  const std::size_t rows =
      contacts > 0 && values.size() % contacts == 0 ? values.size() / contacts : values.size();
  std::string text;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += i % rows == 0 ? "; " : " ";
    text += number(values[i]);
  }
  return text;
}

// One event's cells, in kEventFields' order; "" where it has nothing.
std::vector<std::string> event_cells(const EventRecord& event,
                                     const std::vector<std::string>& contact_names,
                                     NumberText number) {
  std::string contacts;
  for (const int index : event.contacts) {
    contacts += cat(contacts.empty() ? "" : ",", contact_names[static_cast<std::size_t>(index)]);
  }
  const std::size_t count = event.contacts.size();
  return {number(event.t),
          std::string(to_string(event.kind)),
          contacts,
          event.phases,
          per_contact(event.impulse, count, number),
          per_contact(event.u_pre, count, number),
          per_contact(event.u_post, count, number),
          number(event.delta_T),
          number(event.normal_work),
          number(event.tangential_work),
          event.flags,
          event.status};
}

std::string text_number(double value) { return cat(value); }

// Aligned, so measured in a first pass over the file: the log may be too long to hold.
std::string print_event_table(const EventLogReader& log) {
  const auto cells = [&](const EventRecord& event) {
    std::vector<std::string> row = event_cells(event, log.contact_names(), &text_number);
    for (std::string& cell : row) {
      if (cell.empty()) cell.push_back('-');  // not `= "-"`: GCC 12's false -Wrestrict
    }
    return row;
  };
  const std::vector<std::string> header = event_header(log);
  AlignedColumns columns;
  columns.measure(header);
  log.for_each_event([&](const EventRecord& event) { columns.measure(cells(event)); });
  columns.print(std::cout, header);
  return log.for_each_event(
      [&](const EventRecord& event) { columns.print(std::cout, cells(event)); });
}

void print_csv_row(const std::vector<std::string>& cells) {
  std::string line;
  for (std::size_t c = 0; c < cells.size(); ++c) line += cat(c > 0 ? "," : "", csv_field(cells[c]));
  std::cout << line << '\n';
}

std::string print_event_csv(const EventLogReader& log) {
  print_csv_row(event_header(log));
  return log.for_each_event([&](const EventRecord& event) {
    print_csv_row(event_cells(event, log.contact_names(), &round_trip));
  });
}

// Runs `work` (reading the file at `path`), reporting what it throws: exit code 22 for damage,
// 1 for the rest (run_reporting_errors).
template <typename Work>
int reporting_damage(const std::string& path, Work&& work) {
  return run_reporting_errors("info", path, [&] {
    try {
      return work();
    } catch (const DamagedTrajectoryError& error) {
      print_command_error("info", path, error.what());
      return kExitDamagedFile;
    } catch (const DamagedSweepTableError& error) {
      print_command_error("info", path, error.what());
      return kExitDamagedFile;
    }
  });
}

// The summary's exit code: 21 for a run whose end was never recorded.
int summary_exit_code(const TrajectorySummary& summary) {
  return summary.incomplete ? kExitIncompleteTrajectory : kExitSuccess;
}

// What `routh info` does with the file, in the child process: prints and returns the exit code.
int inspect(const InfoOptions& options) {
  const std::string& path = options.path;
  return reporting_damage(path, [&] {
    if (!options.events && is_sweep_table(path)) {
      print_sweep_summary(std::cout, path, read_sweep_columns(path));
      return kExitSuccess;
    }
    if (!options.events) {
      const TrajectorySummary summary = summarize_trajectory(path);
      print_summary(path, summary);
      return summary_exit_code(summary);
    }
    const EventLogReader log(path);
    const std::string warning = options.csv ? print_event_csv(log) : print_event_table(log);
    if (!warning.empty()) std::cerr << "routh info: warning: " << warning << '\n';
    return kExitSuccess;
  });
}

// The exit code of a reading that did not return one: the file is damaged.
int damaged(const std::string& path, const GuardedReading& reading) {
  print_command_error("info", path, cat("damaged file: ", reading.failure));
  return kExitDamagedFile;
}

}  // namespace

int run_info_command(CommandArguments arguments) {
  if (asks_for_help(arguments)) {
    std::cout << kInfoUsage;
    return kExitSuccess;
  }
  const std::optional<InfoOptions> options = parse_options(arguments);
  if (!options) return kExitUsage;
  const std::string& path = options->path;
  const std::chrono::milliseconds limit = options->time_limit.value_or(default_time_limit(path));
  if (!options->events) {
    const GuardedReading reading = read_in_child([&] { return inspect(*options); }, limit);
    return reading.exit_code ? *reading.exit_code : damaged(path, reading);
  }
  // The event log goes out at its reader's pace (a pager may wait for its user), so only a
  // silent check of the file, reading what the summary reads, is timed; the printing is still
  // guarded against a crash.
  const GuardedReading check = read_in_child(
      [&] {
        return reporting_damage(path, [&] {
          if (is_sweep_table(path)) {
            throw std::invalid_argument("a sweep table has no event log (--events)");
          }
          return summary_exit_code(summarize_trajectory(path));
        });
      },
      limit);
  if (!check.exit_code) return damaged(path, check);
  if (*check.exit_code != kExitSuccess && *check.exit_code != kExitIncompleteTrajectory) {
    return *check.exit_code;
  }
  const GuardedReading reading = read_in_child([&] { return inspect(*options); }, kUntimed);
  return reading.exit_code ? *reading.exit_code : damaged(path, reading);
}

}  // namespace routh::cli
