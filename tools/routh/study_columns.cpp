#include "tools/routh/study_columns.hpp"

#include <cmath>
#include <stdexcept>

#include "sim/text.hpp"

namespace routh::cli {

namespace {

// A swept key that sets the record's intensity: its scale factor, or the target of scale_to.
bool names_intensity(std::string_view key) {
  if (key.ends_with(".scale")) return true;
  const std::size_t at = key.rfind("scale_to.");
  if (at == std::string_view::npos) return false;
  const std::string_view measure = key.substr(at + std::string_view("scale_to.").size());
  return measure == "pga" || measure == "pgv" || measure.starts_with("sa");
}

std::vector<std::string> numeric_names(const SweepColumns& table) {
  std::vector<std::string> names;
  for (const SweepColumn& column : table.columns) {
    if (column.numeric() && column.name != "run") names.push_back(column.name);
  }
  return names;
}

}  // namespace

std::vector<std::string> swept_keys(const SweepColumns& table) {
  std::vector<std::string> keys;
  bool after_run = false;
  for (const SweepColumn& column : table.columns) {
    if (column.name == "status") break;
    if (after_run) keys.push_back(column.name);
    after_run = after_run || column.name == "run";
  }
  return keys;
}

bool outcome_counts(std::string_view status) {
  return status == "completed" || status == "stopped_on_event";
}

const SweepColumn& numeric_column(const SweepColumns& table, std::string_view name,
                                  std::string_view role) {
  const SweepColumn* column = table.find(name);
  const std::vector<std::string> candidates = numeric_names(table);
  if (column == nullptr) {
    throw std::invalid_argument(cat("no column '", name, "' for the ", role, "; did you mean '",
                                    closest_name(name, candidates),
                                    "'? numeric columns: ", comma_list(candidates)));
  }
  if (!column->numeric()) {
    throw std::invalid_argument(
        cat("column '", name, "' (the ", role,
            ") is text, not a number; numeric columns: ", comma_list(candidates)));
  }
  return *column;
}

const SweepColumn& im_column(const SweepColumns& table,
                             const std::optional<std::string>& requested) {
  if (requested) return numeric_column(table, *requested, "IM");
  std::vector<std::string> intensities;
  for (const std::string& key : swept_keys(table)) {
    // a text one (a `choice` of "0.3 g" values) is no number to fit against: pga then serves
    if (names_intensity(key) && table.find(key)->numeric()) intensities.push_back(key);
  }
  if (intensities.size() == 1) return numeric_column(table, intensities.front(), "IM");
  if (intensities.size() > 1) {
    throw std::invalid_argument(cat("several swept keys set the intensity (",
                                    comma_list(intensities), "): choose one with --im"));
  }
  if (table.find("pga") != nullptr) return numeric_column(table, "pga", "IM");
  throw std::invalid_argument(
      cat("no IM column: no swept key ends in .scale or scale_to.pga/pgv/sa and there is no "
          "pga column; choose one with --im among: ",
          comma_list(numeric_names(table))));
}

void RunSelection::exclude(const std::string& reason) {
  for (auto& [seen, count] : excluded) {
    if (seen == reason) {
      ++count;
      return;
    }
  }
  excluded.emplace_back(reason, 1);
}

std::int64_t RunSelection::excluded_count() const {
  std::int64_t total = 0;
  for (const auto& entry : excluded) total += entry.second;
  return total;
}

RunSelection runs_with_outcomes(const SweepColumns& table, const SweepColumn& im) {
  const SweepColumn* status = table.find("status");
  if (status != nullptr && status->type != CellType::text) status = nullptr;
  RunSelection selection;
  for (std::size_t i = 0; i < table.rows(); ++i) {
    if (status != nullptr && !outcome_counts(status->texts[i])) {
      selection.exclude(cat("status ", status->texts[i]));
    } else if (const double x = im.number(i); !std::isfinite(x) || !(x > 0.0)) {
      selection.exclude(cat(im.name, " not finite and > 0"));
    } else {
      selection.rows.push_back(i);
    }
  }
  return selection;
}

}  // namespace routh::cli
