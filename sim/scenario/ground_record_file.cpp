#include "sim/scenario/ground_record_file.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/scenario/input_file.hpp"
#include "sim/scenario/yaml_input.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

// One line of a record file, with its 1-based number, for located errors.
struct Line {
  std::string text;
  int number = 0;
};

// The file's lines, read through InputFile: a regular file of bounded size and line length.
class LineReader {
 public:
  explicit LineReader(const std::filesystem::path& path)
      : file_(path.string(), kGroundRecordInput) {}
  std::optional<Line> next() {
    Line line;
    if (!file_.next_line(line.text)) return std::nullopt;
    line.number = file_.line_number();
    return line;
  }
  InputError error(const Line& line, std::size_t column, std::string_view message) const {
    return {{file_.path(), line.number, static_cast<int>(column) + 1}, std::string(message)};
  }
  InputError error_at_end(std::string_view message) const {
    return {{file_.path(), file_.line_number(), 0}, std::string(message)};
  }

 private:
  InputFile file_;
};

// A token of a line and the 0-based column where it starts.
struct Token {
  std::string_view text;
  std::size_t column = 0;
};

// Splits at blanks, and at commas when `commas`.
std::vector<Token> tokens_of(std::string_view line, bool commas) {
  std::vector<Token> tokens;
  const auto separator = [commas](char c) {
    return std::isspace(static_cast<unsigned char>(c)) != 0 || (commas && c == ',');
  };
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && separator(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !separator(line[i])) ++i;
    if (i > start) tokens.push_back({line.substr(start, i - start), start});
  }
  return tokens;
}

// A finite number spelled as a whole token ("-.1234E-02", "+3", "1e5"), or nothing.
std::optional<double> number_of(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  double value = 0.0;
  const auto parsed = std::from_chars(text.data(), text.data() + text.size(), value);
  if (parsed.ec != std::errc() || parsed.ptr != text.data() + text.size() ||
      !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

double number_or_error(const LineReader& reader, const Line& line, const Token& token,
                       std::string_view what) {
  if (const std::optional<double> value = number_of(token.text)) return *value;
  throw reader.error(line, token.column, cat("expected ", what, ", found '", token.text, "'"));
}

std::string upper(std::string_view text) {
  std::string result(text);
  for (char& c : result) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return result;
}

// --- PEER NGA -------------------------------------------------------------------------------

struct PeerHeader {
  std::size_t samples = 0;  // NPTS
  double step_s = 0.0;      // DT [s]
};

constexpr std::string_view kPeerHeaderForm =
    "expected the PEER NGA header's 4th line, 'NPTS=  2688, DT=   .0100 SEC' (or the older "
    "'2688   .0100   NPTS, DT')";

// The number that follows `key` ("NPTS=", "DT=") on the line, with blanks between.
std::optional<double> value_after(std::string_view line, std::string_view key) {
  const std::size_t at = line.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = line.substr(at + key.size());
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  const std::size_t end = rest.find_first_of(", \t");
  return number_of(rest.substr(0, end));
}

PeerHeader read_peer_header(LineReader& reader) {
  std::optional<Line> line;
  for (int header_line = 1; header_line <= 4; ++header_line) {
    line = reader.next();
    if (!line) {
      throw reader.error_at_end(
          cat("truncated PEER NGA header: it has ", header_line - 1, " of its 4 lines"));
    }
    if (header_line == 3 && upper(line->text).find("UNITS OF G") == std::string::npos) {
      throw reader.error(*line, 0,
                         "expected the PEER NGA header's 3rd line to say the accelerations are in "
                         "'UNITS OF G' (e.g. 'ACCELERATION TIME SERIES IN UNITS OF G')");
    }
  }
  const std::string text = upper(line->text);
  std::optional<double> samples, step;
  if (text.find("NPTS=") != std::string::npos) {
    samples = value_after(text, "NPTS=");
    step = value_after(text, "DT=");
  } else if (text.find("NPTS, DT") != std::string::npos ||
             text.find("NPTS,DT") != std::string::npos) {
    const std::vector<Token> tokens = tokens_of(text, true);
    if (tokens.size() >= 2) {
      samples = number_of(tokens[0].text);
      step = number_of(tokens[1].text);
    }
  }
  if (!samples || !step) throw reader.error(*line, 0, kPeerHeaderForm);
  if (*samples < 2.0 || *samples != std::floor(*samples)) {
    throw reader.error(*line, 0,
                       cat("NPTS = ", *samples, ": must be a whole number of at least 2"));
  }
  if (*samples > static_cast<double>(kMaxRecordSamples)) {
    throw reader.error(*line, 0,
                       cat("NPTS = ", *samples, ": records of more than ", kMaxRecordSamples,
                           " samples are refused (routh's cap, to bound the memory)"));
  }
  if (!(*step > 0.0)) throw reader.error(*line, 0, cat("DT = ", *step, " s: must be > 0"));
  return {static_cast<std::size_t>(*samples), *step};
}

GroundRecord read_peer_record(LineReader& reader) {
  const PeerHeader header = read_peer_header(reader);
  GroundRecord record;
  while (const std::optional<Line> line = reader.next()) {
    for (const Token& token : tokens_of(line->text, false)) {
      const double value = number_or_error(reader, *line, token, "an acceleration [g]");
      if (record.acceleration_m_s2.size() == header.samples) {
        throw reader.error(*line, token.column,
                           cat("more values than NPTS = ", header.samples, " in the header"));
      }
      record.acceleration_m_s2.push_back(value * kGravityUnit_m_s2);
    }
  }
  if (record.acceleration_m_s2.size() < header.samples) {
    throw reader.error_at_end(cat("truncated: the header says NPTS = ", header.samples,
                                  " but the file holds ", record.acceleration_m_s2.size(),
                                  " values"));
  }
  record.time_s.resize(header.samples);
  for (std::size_t i = 0; i < header.samples; ++i) {
    record.time_s[i] = static_cast<double>(i) * header.step_s;
  }
  return record;
}

// --- two columns ----------------------------------------------------------------------------

GroundRecord read_two_columns(LineReader& reader, double to_m_s2) {
  GroundRecord record;
  bool first = true;
  int previous_line = 0;
  while (const std::optional<Line> line = reader.next()) {
    const std::vector<Token> tokens = tokens_of(line->text, true);
    if (tokens.empty() || tokens.front().text.front() == '#') continue;
    const bool header = first && !number_of(tokens.front().text);
    first = false;
    if (header) continue;
    if (tokens.size() != 2) {
      throw reader.error(
          *line, tokens.size() > 2 ? tokens[2].column : tokens[0].column,
          cat("expected two columns, time [s] and acceleration; found ", tokens.size()));
    }
    const double t = number_or_error(reader, *line, tokens[0], "a time [s]");
    const double a = number_or_error(reader, *line, tokens[1], "an acceleration");
    if (!record.time_s.empty() && !(t > record.time_s.back())) {
      throw reader.error(
          *line, tokens[0].column,
          cat("time ", t, " s is not after the previous sample's ", record.time_s.back(),
              " s (line ", previous_line, "): times must increase"));
    }
    if (record.time_s.size() == kMaxRecordSamples) {
      throw reader.error(*line, 0,
                         cat("records of more than ", kMaxRecordSamples,
                             " samples are refused (routh's cap, to bound the memory)"));
    }
    record.time_s.push_back(t);
    record.acceleration_m_s2.push_back(a * to_m_s2);
    previous_line = line->number;
  }
  return record;
}

}  // namespace

bool is_peer_record(const std::filesystem::path& path) {
  return upper(path.extension().string()) == ".AT2";
}

GroundRecord read_ground_record(const std::filesystem::path& path, RecordUnits units) {
  LineReader reader(path);
  GroundRecord record =
      is_peer_record(path)
          ? read_peer_record(reader)
          : read_two_columns(reader, units == RecordUnits::g ? kGravityUnit_m_s2 : 1.0);
  if (record.time_s.size() < 2) {
    throw reader.error_at_end(
        cat("holds ", record.time_s.size(), " samples: a record needs at least two"));
  }
  return record;
}

}  // namespace routh
