#include "sim/sweep/sweep_output.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "sim/recorder/file_room.hpp"
#include "sim/recorder/output_placement.hpp"
#include "sim/recorder/sweep_table.hpp"
#include "sim/scenario/input_file.hpp"
#include "sim/sweep/sweep_journal.hpp"
#include "sim/sweep/sweep_run.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

// Rows handed to the HDF5 writer at once: bounded memory for any number of runs.
constexpr std::size_t kBlockRows = 4096;

std::filesystem::path with_suffix(const std::filesystem::path& path, const std::string& suffix) {
  return std::filesystem::path(path.string() + suffix);
}

// A real in the shortest text that reads back exactly, with ".0" when that text looks like an
// integer ("2.0", not "2"), so that a reader (pandas) keeps a real column real.
std::string csv_real(double value) {
  std::string text = round_trip(value);
  if (text.find_first_not_of("-0123456789") == std::string::npos) text += ".0";
  return text;
}

std::string csv_cell(const Cell& cell) {
  if (const auto* integer = std::get_if<std::int64_t>(&cell)) return std::to_string(*integer);
  if (const auto* real = std::get_if<double>(&cell)) return csv_real(*real);
  return csv_field(std::get<std::string>(cell));
}

class CsvWriter {
 public:
  CsvWriter(const std::filesystem::path& path, const std::vector<TableColumn>& columns)
      : path_(path), temporary_(temporary_path(path)), out_(temporary_) {
    if (!out_) {
      const int error = errno;
      throw OutputWriteError(
          cat(path.string(), ": cannot create the CSV file: ", std::strerror(error)), error);
    }
    for (std::size_t c = 0; c < columns.size(); ++c) {
      out_ << (c > 0 ? "," : "") << csv_field(columns[c].name);
    }
    out_ << '\n';
  }
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;
  // not closed (an exception on the way): the temporary file goes
  ~CsvWriter() {
    if (closed_) return;
    std::error_code ignored;
    std::filesystem::remove(temporary_, ignored);
  }
  void append(const TableRow& row) {
    for (std::size_t c = 0; c < row.size(); ++c) out_ << (c > 0 ? "," : "") << csv_cell(row[c]);
    out_ << '\n';
  }
  void close() {
    out_.close();
    if (!out_) {
      const int error = errno;  // what the failed write or close left
      throw OutputWriteError(
          cat(path_.string(), ": cannot write the CSV file: ", std::strerror(error)), error);
    }
    std::filesystem::rename(temporary_, path_);
    closed_ = true;
  }

 private:
  std::filesystem::path path_;
  std::filesystem::path temporary_;  ///< its own name, not the table's (output_placement.hpp)
  std::ofstream out_;
  bool closed_ = false;
};

}  // namespace

SweepPaths sweep_paths(const SweepPlan& plan) {
  const std::filesystem::path& table = plan.output.file;
  std::filesystem::path csv = table;
  csv.replace_extension(".csv");
  return {table, with_suffix(table, ".journal"), csv,
          table.parent_path() / (table.stem().string() + "_runs")};
}

std::string base_text(const SweepPlan& plan) {
  return read_input_file(plan.base_path, kScenarioInput);
}

std::int64_t write_sweep_table(const SweepPlan& plan, const SweepPaths& paths) {
  const std::vector<TableColumn> columns = sweep_columns(plan);
  const std::string base = base_text(plan);
  SweepTableWriter table(paths.table, columns, {plan.sweep_text, base, plan.run_count()});
  std::optional<CsvWriter> csv;
  if (plan.output.csv) csv.emplace(paths.csv, columns);
  std::vector<TableRow> block;
  const auto write_block = [&] {
    table.append(block);
    block.clear();
  };
  const JournalScan scan = scan_journal(paths.journal, sweep_fingerprint(plan.sweep_text, base),
                                        columns, [&](TableRow&& row) {
                                          if (csv) csv->append(row);
                                          block.push_back(std::move(row));
                                          if (block.size() == kBlockRows) write_block();
                                        });
  write_block();
  table.close();
  if (csv) csv->close();
  return scan.rows;
}

}  // namespace routh
