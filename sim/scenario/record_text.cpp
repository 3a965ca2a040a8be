#include "sim/scenario/record_text.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include "sim/text.hpp"

namespace routh::record_text {

namespace {

bool is_blank(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; });
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) {
    text.remove_suffix(1);
  }
  return text;
}

// A whole number of at most three digits at text[i...], advancing i; nothing if none.
std::optional<int> small_count_at(std::string_view text, std::size_t& i) {
  const std::size_t start = i;
  while (i < text.size() && i - start < 3 && std::isdigit(static_cast<unsigned char>(text[i]))) {
    ++i;
  }
  if (i == start) return std::nullopt;
  int value = 0;
  std::from_chars(text.data() + start, text.data() + i, value);
  return value;
}

}  // namespace

LineReader::LineReader(const std::filesystem::path& path)
    : file_(path.string(), kGroundRecordInput) {}

std::optional<Line> LineReader::next() {
  Line line;
  if (!file_.next_line(line.text)) return std::nullopt;
  line.number = file_.line_number();
  return line;
}

std::optional<Line> LineReader::next_non_blank() {
  std::optional<Line> line = next();
  while (line && is_blank(line->text)) line = next();
  return line;
}

InputError LineReader::error(const Line& line, std::size_t column, std::string_view message) const {
  return {{file_.path(), line.number, static_cast<int>(column) + 1}, std::string(message)};
}

InputError LineReader::error_at_end(std::string_view message) const {
  return {{file_.path(), file_.line_number(), 0}, std::string(message)};
}

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

std::optional<FortranFormat> fortran_format_of(std::string_view text) {
  std::string spelled;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c)) == 0) {
      spelled += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
  }
  // ( [count] letter width [.digits] )
  if (spelled.size() < 4 || spelled.front() != '(' || spelled.back() != ')') return std::nullopt;
  const std::string_view body = std::string_view(spelled).substr(1, spelled.size() - 2);
  std::size_t i = 0;
  FortranFormat format;
  if (const std::optional<int> count = small_count_at(body, i)) format.per_line = *count;
  if (i >= body.size() || std::string_view("IFEGD").find(body[i]) == std::string_view::npos) {
    return std::nullopt;
  }
  format.integer = body[i++] == 'I';
  const std::optional<int> width = small_count_at(body, i);
  if (!width) return std::nullopt;
  format.width = *width;
  if (i < body.size() && body[i] == '.') {
    ++i;
    if (!small_count_at(body, i)) return std::nullopt;
  }
  if (i != body.size() || format.per_line < 1 || format.per_line > 100 || format.width < 1) {
    return std::nullopt;
  }
  return format;
}

std::vector<double> read_fortran_block(LineReader& reader, std::size_t count,
                                       const FortranFormat& format, std::string_view what) {
  std::vector<double> values;
  values.reserve(std::min<std::size_t>(count, 1 << 16));  // grows with what the file holds
  const auto width = static_cast<std::size_t>(format.width);
  while (values.size() < count) {
    const std::optional<Line> line = reader.next();
    if (!line) {
      throw reader.error_at_end(cat("truncated: expected ", count, " values (", what,
                                    "), the file holds ", values.size()));
    }
    const std::size_t on_line =
        std::min(count - values.size(), static_cast<std::size_t>(format.per_line));
    for (std::size_t k = 0; k < on_line; ++k) {
      const std::size_t column = k * width;
      const std::string_view field =
          column < line->text.size() ? std::string_view(line->text).substr(column, width) : "";
      const std::string_view text = trimmed(field);
      const std::optional<double> value = number_of(text);
      if (text.empty()) {
        throw reader.error(*line, column,
                           cat("expected ", what, " in columns ", column + 1, "-", column + width,
                               " (", on_line, " values of ", width, " columns on this line)"));
      }
      if (!value || (format.integer && *value != std::floor(*value))) {
        throw reader.error(*line, column, cat("expected ", what, ", found '", text, "'"));
      }
      values.push_back(*value);
    }
    const std::size_t end = on_line * width;
    if (end < line->text.size() && !is_blank(std::string_view(line->text).substr(end))) {
      throw reader.error(*line, end,
                         cat("more than ", on_line, " values on this line (", format.per_line,
                             " per line, ", count, " in all)"));
    }
  }
  return values;
}

}  // namespace routh::record_text
