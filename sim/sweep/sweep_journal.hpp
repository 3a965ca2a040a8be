#pragma once
// The sweep journal: the durable record of finished runs, from which the HDF5 table is written.
//
// Why a journal. HDF5 1.10 has no journal of its own: a process killed inside an HDF5 write can
// leave the last rows unreadable, and one killed while creating a file can leave it unreadable
// (trajectory_recorder.hpp records what was measured). A sweep of 10⁶ runs must survive kills,
// so rows go first to "FILE.h5.journal", a text file appended one whole line per write(2) in
// run-index order; the table is written from it when the sweep ends or stops, and again by
// `--resume`. A SIGKILL can tear at most the last line, which its checksum exposes; reading
// stops at the first line that is torn, fails its checksum, or is not the next run index, and
// the resumed sweep cuts the file there and goes on.
//
// Format (UTF-8 text):
//   routh-sweep-journal 1 <fingerprint>\n     16 hex digits: FNV-1a 64 of the sweep file's and
//                                             the base scenario's texts; a resume with either
//                                             changed is refused
//   <cell>\t<cell>\t...\t<checksum>\n         one row per line, the table's columns in order;
//                                             integers in decimal, reals as C99 hex floats (%a:
//                                             exact, so the table is bit-identical after a
//                                             resume), text with \\ \t \n \r escaped; checksum:
//                                             FNV-1a 64 of everything before its tab, 16 hex
//                                             digits

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "sim/recorder/sweep_table.hpp"

namespace routh {

/// The fingerprint of a sweep: FNV-1a 64 over both texts (with a separator), as 16 hex digits.
std::string sweep_fingerprint(const std::string& sweep_text, const std::string& base_text);

/// One journal line for `row`, ending in '\n'.
std::string encode_row(const TableRow& row);
/// The row of `line` (without its '\n'), or nothing when the checksum, the number of cells or a
/// cell's form is wrong.
std::optional<TableRow> decode_row(std::string_view line, std::span<const TableColumn> columns);
/// The run index a journal line starts with (its first cell), or −1.
std::int64_t line_run(std::string_view line);

/// How much of a journal is good: its first `rows` rows, in `valid_bytes` bytes (header
/// included).
struct JournalScan {
  std::int64_t rows = 0;
  std::uintmax_t valid_bytes = 0;
};

/// Reads the journal at `path`, calling `on_row` (if given) for each good row in order. Throws
/// std::runtime_error when the file cannot be read, its header is not a journal's, or its
/// fingerprint is not `fingerprint`.
JournalScan scan_journal(const std::filesystem::path& path, const std::string& fingerprint,
                         std::span<const TableColumn> columns,
                         const std::function<void(TableRow&&)>& on_row = {});

/// Appends lines to a journal, one write(2) per line (O_APPEND).
class SweepJournal {
 public:
  /// Creates the journal with its header, whole: it appears under its name with the header
  /// written (a kill never leaves it without). Throws if it exists.
  static SweepJournal create(const std::filesystem::path& path, const std::string& fingerprint);
  /// Opens an existing journal to append to it (cut a torn tail first: scan_journal's
  /// valid_bytes).
  static SweepJournal append_to(const std::filesystem::path& path);
  ~SweepJournal();
  SweepJournal(SweepJournal&& other) noexcept;
  SweepJournal& operator=(SweepJournal&&) = delete;
  SweepJournal(const SweepJournal&) = delete;
  SweepJournal& operator=(const SweepJournal&) = delete;

  /// Writes one whole line; throws OutputWriteError (a full disk, a size limit) naming the file.
  void append(std::string_view line);

 private:
  SweepJournal(std::filesystem::path path, int descriptor);
  std::filesystem::path path_;
  int descriptor_ = -1;
};

}  // namespace routh
