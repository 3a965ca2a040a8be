#pragma once
// The lexing that every ground-motion record format shares (ground_record_file.hpp): lines with
// their numbers, blank-separated tokens with their columns, numbers spelled as whole tokens, and
// the fixed-width fields of a Fortran edit
// descriptor such as (8F10.5), which COSMOS files declare for each of their blocks. Every
// complaint is an InputError at the file, the line and, inside a line, the column.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/scenario/input_file.hpp"
#include "sim/scenario/yaml_input.hpp"

// Its names are generic (Line, Token, upper): they live in routh::record_text, for the record
// readers alone.
namespace routh::record_text {

/// One line of a record file, with its 1-based number.
struct Line {
  std::string text;
  int number = 0;
};

/// The file's lines, read through InputFile: a regular file of bounded size and line length.
class LineReader {
 public:
  explicit LineReader(const std::filesystem::path& path);
  /// The next line; nothing at the end of the file.
  std::optional<Line> next();
  /// The next line that is not blank; nothing at the end of the file.
  std::optional<Line> next_non_blank();
  /// An error at `line`, 0-based `column`.
  InputError error(const Line& line, std::size_t column, std::string_view message) const;
  /// An error at the last line read (the whole file before any).
  InputError error_at_end(std::string_view message) const;
  const std::string& path() const { return file_.path(); }

 private:
  InputFile file_;
};

/// A token of a line and the 0-based column where it starts.
struct Token {
  std::string_view text;
  std::size_t column = 0;
};

/// Splits at blanks, and at commas when `commas`.
std::vector<Token> tokens_of(std::string_view line, bool commas);

/// A finite number spelled as a whole token ("-.1234E-02", "+3", "1e5"), or nothing.
std::optional<double> number_of(std::string_view text);

/// The token's number, or an error at it: "expected <what>, found '<token>'".
double number_or_error(const LineReader& reader, const Line& line, const Token& token,
                       std::string_view what);

/// `text` in upper case (ASCII).
std::string upper(std::string_view text);

/// A Fortran edit descriptor for one line of values, "(8F10.5)": `per_line` fields of `width`
/// columns each; `integer` for an I descriptor.
struct FortranFormat {
  int per_line = 1;
  int width = 0;
  bool integer = false;
};

/// The descriptor `text` spells, "(10I8)", "(5F15.6)", "(1E15.6)" (I, F, E, G or D, a count of
/// at most 100 and a width of at most 100; blanks allowed inside); nothing otherwise.
std::optional<FortranFormat> fortran_format_of(std::string_view text);

/// Reads `count` values written with `format` from the reader's next lines: `per_line` fields of
/// `width` columns on each line, fewer on the last, nothing after them but blanks. `what` names
/// the values in errors ("an acceleration [cm/s2]"). The caller has bounded `count`.
std::vector<double> read_fortran_block(LineReader& reader, std::size_t count,
                                       const FortranFormat& format, std::string_view what);

}  // namespace routh::record_text
