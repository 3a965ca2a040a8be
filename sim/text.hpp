#pragma once
// Message building for diagnostics (GCC 12 has no <format>): cat("a = ", 1.5, " m") == "a = 1.5 m".

#include <cstddef>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

namespace routh {

template <class... Parts>
std::string cat(const Parts&... parts) {
  std::ostringstream out;
  out.precision(10);
  (out << ... << parts);
  return out.str();
}

}  // namespace routh

namespace routh {

/// Levenshtein distance: the number of single-character edits turning `a` into `b`. Used to
/// suggest the closest valid name in error messages.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// `text` as one CSV field (RFC 4180): quoted, its quotes doubled, when it holds a comma, a quote
/// or a line break; as it is otherwise.
std::string csv_field(std::string_view text);

/// The shortest text that reads back as exactly `value` (std::to_chars: "0.1", not
/// "0.10000000000000001"); "nan", "inf" and "-inf" for the others (pandas reads them so).
std::string round_trip(double value);

/// The offset of the first byte of `text` that does not belong to a well-formed UTF-8 character
/// (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF); nothing if it is all UTF-8.
std::optional<std::size_t> first_invalid_utf8(std::string_view text);

/// The items written one after another with ", " between them ("a, b, c"; "" for none), each
/// between `quote`s when one is given ("`a`, `b`"): the lists of names error messages give.
template <class Range>
std::string comma_list(const Range& items, std::string_view quote = "") {
  std::string list;
  for (const auto& item : items) list += cat(list.empty() ? "" : ", ", quote, item, quote);
  return list;
}

/// The candidate closest to `name` by edit distance (empty when there are none).
template <class Range>
std::string_view closest_name(std::string_view name, const Range& candidates) {
  std::string_view best_name;
  auto best = static_cast<std::size_t>(-1);
  for (std::string_view candidate : candidates) {
    const std::size_t distance = edit_distance(name, candidate);
    if (distance < best) best = distance, best_name = candidate;
  }
  return best_name;
}

}  // namespace routh
