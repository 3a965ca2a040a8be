#include "sim/json_writer.hpp"

#include <charconv>
#include <cmath>
#include <string>

namespace routh {

void JsonWriter::begin_object(JsonLayout layout) { open('{', layout); }
void JsonWriter::end_object() { close('}'); }
void JsonWriter::begin_array(JsonLayout layout) { open('[', layout); }
void JsonWriter::end_array() { close(']'); }

void JsonWriter::key(std::string_view name) {
  value(name);
  out_ << ": ";
  after_key_ = true;
}

void JsonWriter::value(double number) {
  begin_value();
  if (!std::isfinite(number)) {
    out_ << "null";
    return;
  }
  // std::to_chars without a precision gives the shortest round-trip representation.
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, number).ptr;
  out_.write(text, end - text);
}

void JsonWriter::value(std::string_view text) {
  begin_value();
  out_ << '"';
  for (const char c : text) {
    switch (c) {
      case '"': out_ << "\\\""; break;
      case '\\': out_ << "\\\\"; break;
      case '\n': out_ << "\\n"; break;
      case '\r': out_ << "\\r"; break;
      case '\t': out_ << "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          constexpr char kHex[] = "0123456789abcdef";
          out_ << "\\u00" << kHex[(c >> 4) & 0xf] << kHex[c & 0xf];
        } else {
          out_ << c;  // UTF-8 passes through unchanged
        }
    }
  }
  out_ << '"';
}

void JsonWriter::value(bool truth) {
  begin_value();
  out_ << (truth ? "true" : "false");
}

void JsonWriter::null() {
  begin_value();
  out_ << "null";
}

// Separates this value from the previous member of its container, unless a key just introduced it.
void JsonWriter::begin_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (open_.empty()) return;
  Container& container = open_.back();
  if (container.members++ > 0) out_ << ',';
  if (container.layout == JsonLayout::indented) {
    new_line();
  } else if (container.members > 1) {
    out_ << ' ';
  }
}

void JsonWriter::open(char bracket, JsonLayout layout) {
  begin_value();
  const bool inside_one_line = !open_.empty() && open_.back().layout == JsonLayout::one_line;
  open_.push_back({inside_one_line ? JsonLayout::one_line : layout});
  out_ << bracket;
}

void JsonWriter::close(char bracket) {
  const Container container = open_.back();
  open_.pop_back();
  if (container.layout == JsonLayout::indented && container.members > 0) new_line();
  out_ << bracket;
  if (open_.empty()) out_ << '\n';
}

void JsonWriter::new_line() { out_ << '\n' << std::string(2 * open_.size(), ' '); }

}  // namespace routh
