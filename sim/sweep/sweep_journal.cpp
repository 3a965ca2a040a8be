#include "sim/sweep/sweep_journal.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "sim/recorder/file_room.hpp"
#include "sim/recorder/output_placement.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

constexpr std::string_view kJournalMagic = "routh-sweep-journal 1 ";

std::uint64_t fnv1a(std::string_view text, std::uint64_t hash = 0xcbf29ce484222325ULL) {
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::string hex16(std::uint64_t value) {
  std::array<char, 17> text{};
  std::snprintf(text.data(), text.size(), "%016llx", static_cast<unsigned long long>(value));
  return text.data();
}

void append_escaped(std::string& out, std::string_view text) {
  for (const char c : text) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      default: out += c;
    }
  }
}

std::optional<std::string> unescaped(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\') {
      out += text[i];
      continue;
    }
    if (++i == text.size()) return std::nullopt;
    switch (text[i]) {
      case '\\': out += '\\'; break;
      case 't': out += '\t'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      default: return std::nullopt;
    }
  }
  return out;
}

// Appends the cell `text` reads as to `row`; false when it is not a cell of that type.
bool decode_cell(std::string_view text, CellType type, TableRow& row) {
  switch (type) {
    case CellType::integer: {
      std::int64_t value = 0;
      const auto parsed = std::from_chars(text.data(), text.data() + text.size(), value);
      if (parsed.ec != std::errc() || parsed.ptr != text.data() + text.size()) return false;
      row.emplace_back(std::in_place_type<std::int64_t>, value);
      return true;
    }
    case CellType::real: {
      // strtod reads %a's hex floats and "nan", "inf" exactly
      const std::string copy(text);
      char* end = nullptr;
      const double value = std::strtod(copy.c_str(), &end);
      if (copy.empty() || end != copy.c_str() + copy.size()) return false;
      row.emplace_back(std::in_place_type<double>, value);
      return true;
    }
    case CellType::text: {
      std::optional<std::string> value = unescaped(text);
      if (!value) return false;
      row.emplace_back(std::in_place_type<std::string>, std::move(*value));
      return true;
    }
  }
  return false;
}

[[noreturn]] void fail(const std::filesystem::path& path, std::string_view what) {
  throw std::runtime_error(cat(path.string(), ": cannot ", what, ": ", std::strerror(errno)));
}

}  // namespace

std::string sweep_fingerprint(const std::string& sweep_text, const std::string& base_text) {
  return hex16(fnv1a(base_text, fnv1a(std::string_view("\0", 1), fnv1a(sweep_text))));
}

std::string encode_row(const TableRow& row) {
  std::string line;
  for (const Cell& cell : row) {
    if (!line.empty()) line += '\t';
    if (const auto* integer = std::get_if<std::int64_t>(&cell)) {
      line += std::to_string(*integer);
    } else if (const auto* real = std::get_if<double>(&cell)) {
      std::array<char, 40> text{};
      std::snprintf(text.data(), text.size(), "%a", *real);
      line += text.data();
    } else {
      append_escaped(line, std::get<std::string>(cell));
    }
  }
  const std::string checksum = hex16(fnv1a(line));
  return cat(line, '\t', checksum, '\n');
}

std::optional<TableRow> decode_row(std::string_view line, std::span<const TableColumn> columns) {
  const std::size_t last_tab = line.rfind('\t');
  if (last_tab == std::string_view::npos) return std::nullopt;
  const std::string_view content = line.substr(0, last_tab);
  if (line.substr(last_tab + 1) != hex16(fnv1a(content))) return std::nullopt;
  TableRow row;
  std::size_t start = 0;
  for (const TableColumn& column : columns) {
    if (start > content.size()) return std::nullopt;
    const std::size_t tab = std::min(content.find('\t', start), content.size());
    if (!decode_cell(content.substr(start, tab - start), column.type, row)) return std::nullopt;
    start = tab + 1;
  }
  if (start != content.size() + 1) return std::nullopt;
  return row;
}

std::int64_t line_run(std::string_view line) {
  std::int64_t run = -1;
  const auto parsed = std::from_chars(line.data(), line.data() + line.size(), run);
  return parsed.ec == std::errc() ? run : -1;
}

JournalScan scan_journal(const std::filesystem::path& path, const std::string& fingerprint,
                         std::span<const TableColumn> columns,
                         const std::function<void(TableRow&&)>& on_row) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "read the journal");
  std::string line;
  if (!std::getline(in, line) || in.eof() || !line.starts_with(kJournalMagic)) {
    throw std::runtime_error(cat(path.string(), ": not a routh sweep journal"));
  }
  if (line.substr(kJournalMagic.size()) != fingerprint) {
    throw std::runtime_error(cat(path.string(),
                                 ": the sweep file or its base scenario changed since this sweep "
                                 "started; start it again with --force"));
  }
  JournalScan scan{0, line.size() + 1};
  // a line without its '\n' (eof hit) is torn: the writer died inside its write
  while (std::getline(in, line) && !in.eof()) {
    std::optional<TableRow> row = decode_row(line, columns);
    if (!row || std::get<std::int64_t>(row->front()) != scan.rows) break;
    if (on_row) on_row(std::move(*row));
    ++scan.rows;
    scan.valid_bytes += line.size() + 1;
  }
  return scan;
}

SweepJournal::SweepJournal(std::filesystem::path path, int descriptor)
    : path_(std::move(path)), descriptor_(descriptor) {}

SweepJournal::SweepJournal(SweepJournal&& other) noexcept
    : path_(std::move(other.path_)), descriptor_(other.descriptor_) {
  other.descriptor_ = -1;
}

SweepJournal::~SweepJournal() {
  if (descriptor_ >= 0) ::close(descriptor_);
}

// The header is written under a temporary name of its own and the file then given the
// journal's name (without replacing one): a kill between creating the file and writing its
// header would otherwise leave a journal without one, which every --resume refuses.
SweepJournal SweepJournal::create(const std::filesystem::path& path,
                                  const std::string& fingerprint) {
  const OutputPlacement placement{path, temporary_path(path), false};
  const int descriptor =
      ::open(placement.temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
  if (descriptor < 0) {
    const int error = errno;
    throw OutputWriteError(
        cat(path.string(), ": cannot create the journal: ", std::strerror(error)), error);
  }
  SweepJournal journal(path, descriptor);
  try {
    journal.append(cat(kJournalMagic, fingerprint, '\n'));
    if (!place_output(placement)) throw std::runtime_error(cat(path.string(), " exists"));
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(placement.temporary, ignored);
    throw;
  }
  return journal;
}

SweepJournal SweepJournal::append_to(const std::filesystem::path& path) {
  const int descriptor = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (descriptor < 0) fail(path, "open the journal");
  return SweepJournal(path, descriptor);
}

void SweepJournal::append(std::string_view line) {
  while (!line.empty()) {
    const ssize_t written = ::write(descriptor_, line.data(), line.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      // a line cut short here is torn, and a resume cuts it off (scan_journal)
      const int error = errno;
      throw OutputWriteError(
          cat(path_.string(), ": cannot append to the journal: ", std::strerror(error)), error);
    }
    line.remove_prefix(static_cast<std::size_t>(written));
  }
}

}  // namespace routh
