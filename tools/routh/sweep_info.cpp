#include "tools/routh/sweep_info.hpp"

#include <cmath>
#include <cstdint>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "sim/text.hpp"
#include "tools/routh/study_columns.hpp"

namespace routh::cli {

namespace {

// Text values listed in full up to this many; beyond, their count only.
constexpr std::size_t kListedValues = 6;

void count(std::vector<std::pair<std::string, std::int64_t>>& counts, const std::string& name) {
  for (auto& [seen, n] : counts) {
    if (seen == name) {
      ++n;
      return;
    }
  }
  counts.emplace_back(name, 1);
}

// "11 values, 0.5 to 3 m/s²" or "2 values: a.AT2, b.AT2".
std::string key_range(const SweepColumn& column) {
  const std::size_t rows = column.size();
  if (column.numeric()) {
    std::set<double> values;
    for (std::size_t i = 0; i < rows; ++i) {
      if (!std::isnan(column.number(i))) values.insert(column.number(i));  // NaN has no order
    }
    if (values.empty()) return "no values";
    return cat(values.size(), values.size() == 1 ? " value, " : " values, ", *values.begin(),
               " to ", *values.rbegin(), column.unit.empty() ? "" : cat(" ", column.unit));
  }
  const std::set<std::string> values(column.texts.begin(), column.texts.end());
  std::string text = cat(values.size(), values.size() == 1 ? " value" : " values");
  if (values.size() <= kListedValues) text += cat(": ", comma_list(values));
  return text;
}

// "0.45 (9 of 20 runs)" over the runs whose status counts and whose cell is 0 or 1.
std::string overturned_fraction(const SweepColumns& table, const SweepColumn& column) {
  const SweepColumn* status = table.find("status");
  std::int64_t runs = 0, overturned = 0;
  for (std::size_t i = 0; i < table.rows(); ++i) {
    if (status != nullptr && status->type == CellType::text && !outcome_counts(status->texts[i])) {
      continue;
    }
    const double value = column.number(i);
    if (value != 0.0 && value != 1.0) continue;
    ++runs;
    if (value == 1.0) ++overturned;
  }
  if (runs == 0) return "no run with an outcome";
  std::ostringstream fraction;
  fraction.precision(3);
  fraction << static_cast<double>(overturned) / static_cast<double>(runs);
  return cat(fraction.str(), " (", overturned, " of ", runs, " runs)");
}

}  // namespace

void print_sweep_summary(std::ostream& out, const std::string& path, const SweepColumns& table) {
  out << "file         " << path << '\n'
      << "format       " << kSweepFormat << " version " << table.format_version
      << " (written by routh " << table.routh_version << ")\n"
      << "runs         " << table.planned_runs << " planned, " << table.rows() << " written\n";
  if (table.rows_written != static_cast<std::int64_t>(table.rows())) {
    out << "warning      the root's rows attribute says " << table.rows_written
        << " rows; the columns hold " << table.rows() << '\n';
  }
  if (static_cast<std::int64_t>(table.rows()) < table.planned_runs) {
    out << "incomplete   the sweep stopped before its end: `routh sweep --resume` runs the rest\n";
  }
  if (const SweepColumn* status = table.find("status"); status != nullptr) {
    std::vector<std::pair<std::string, std::int64_t>> statuses;
    for (std::size_t i = 0; i < table.rows(); ++i) count(statuses, status->text(i));
    out << "status       ";
    for (std::size_t i = 0; i < statuses.size(); ++i) {
      out << (i == 0 ? "" : ", ") << statuses[i].first << ' ' << statuses[i].second;
    }
    out << (statuses.empty() ? "no runs\n" : "\n");
  }
  const std::vector<std::string> keys = swept_keys(table);
  for (std::size_t k = 0; k < keys.size(); ++k) {
    out << (k == 0 ? "swept        " : "             ") << keys[k] << ": "
        << key_range(*table.find(keys[k])) << '\n';
  }
  bool first = true;
  for (const SweepColumn& column : table.columns) {
    const bool outcome = column.name == "overturned" || column.name.ends_with(".overturned");
    if (!outcome || !column.numeric()) continue;
    // the whole structure's column, then each body's, named
    out << (first ? "overturned   " : "             ")
        << (column.name == "overturned" ? "" : cat(column.name, ' '))
        << overturned_fraction(table, column) << '\n';
    first = false;
  }
  out << "columns      " << table.columns.size() << ": ";
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    const SweepColumn& column = table.columns[c];
    out << (c == 0 ? "" : ", ") << column.name
        << (column.unit.empty() ? "" : cat(" [", column.unit, "]"));
  }
  out << '\n';
}

}  // namespace routh::cli
