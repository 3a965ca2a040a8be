// libFuzzer target: the sweep journal's reader (sim/sweep/sweep_journal.hpp), the one file routh
// reads back after a kill, a full disk or a crash, so a damaged one is its ordinary input. The
// input is split in two at its first byte 0x00 (or taken whole):
//   - the first part is one journal line's content: the harness appends its checksum, computed
//     here independently (FNV-1a 64, as the format says), so that the fuzzer reaches the cell
//     parsers instead of stopping at the checksum. A line that decodes must have the columns'
//     types, and its row encoded again must decode to the same row, bit for bit (reals are hex
//     floats, exact);
//   - the second part follows a valid header as the rest of a journal file: scanning it either
//     refuses it with std::runtime_error or counts rows that decode, numbered 0, 1, 2, ... in
//     order, within the bytes of the file.
// Anything else (another exception, a crash, a sanitizer report, a timeout) is a finding.
// Seeds: tests/fuzz/corpus/sweep_journal_fuzzer/.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "input_file.hpp"
#include "sim/recorder/sweep_table.hpp"
#include "sim/sweep/sweep_journal.hpp"

namespace {

// The columns of a small sweep's table: the run index first (as every journal has), then one of
// each type.
const std::vector<routh::TableColumn> kColumns = {{"run", routh::CellType::integer, ""},
                                                  {"restitution", routh::CellType::real, ""},
                                                  {"status", routh::CellType::text, ""}};
const std::string kFingerprint = routh::sweep_fingerprint("grid: {}\n", "name: ball\n");

// FNV-1a 64 as 16 lower-case hex digits: the format's line checksum, written from its definition.
std::string checksum(std::string_view text) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  char digits[17];
  std::snprintf(digits, sizeof digits, "%016llx", static_cast<unsigned long long>(hash));
  return digits;
}

[[noreturn]] void finding(const char* what) {
  std::fprintf(stderr, "%s\n", what);
  std::abort();
}

bool same_bits(const routh::TableRow& a, const routh::TableRow& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t c = 0; c < a.size(); ++c) {
    if (a[c].index() != b[c].index()) return false;
    if (const auto* real = std::get_if<double>(&a[c])) {
      // a NaN's payload is not kept (routh writes "nan"), any other real is, to the bit
      const double other = std::get<double>(b[c]);
      if (std::isnan(*real) && std::isnan(other)) continue;
      if (std::memcmp(real, &other, sizeof(double)) != 0) return false;
    } else if (a[c] != b[c]) {
      return false;
    }
  }
  return true;
}

void check_line(std::string_view content) {
  const std::string line = std::string(content) + '\t' + checksum(content);
  const std::optional<routh::TableRow> row = routh::decode_row(line, kColumns);
  if (!row) return;
  if (row->size() != kColumns.size() || !std::holds_alternative<std::int64_t>((*row)[0]) ||
      !std::holds_alternative<double>((*row)[1]) ||
      !std::holds_alternative<std::string>((*row)[2])) {
    finding("a decoded row does not have its columns' types");
  }
  std::string again = routh::encode_row(*row);
  again.pop_back();  // its '\n'
  const std::optional<routh::TableRow> reread = routh::decode_row(again, kColumns);
  if (!reread || !same_bits(*row, *reread))
    finding("a row encoded again does not decode to itself");
}

void check_journal(std::string_view rest) {
  const std::string text = "routh-sweep-journal 1 " + kFingerprint + "\n" + std::string(rest);
  const std::string path = routh::fuzz::write_input_file(
      "routh_fuzz_journal", reinterpret_cast<const std::uint8_t*>(text.data()), text.size(),
      ".journal");
  std::int64_t next_run = 0;
  try {
    const routh::JournalScan scan =
        routh::scan_journal(path, kFingerprint, kColumns, [&](routh::TableRow&& row) {
          if (std::get<std::int64_t>(row[0]) != next_run) finding("rows out of run order");
          ++next_run;
        });
    if (scan.rows != next_run) finding("the scan counts rows it did not give");
    if (scan.valid_bytes > text.size()) finding("the good bytes exceed the file");
  } catch (const std::runtime_error&) {
    // refused, naming the file: what a damaged journal may get
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t split = input.find('\0');
  check_line(input.substr(0, split));
  if (split != std::string_view::npos) check_journal(input.substr(split + 1));
  return 0;
}
