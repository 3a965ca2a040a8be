#pragma once
// A tiny streaming JSON writer for routh's machine-readable output: the CLI's, and a trajectory
// file's /model. Numbers keep full precision (the shortest text that reads back to the same
// double); non-finite numbers become null, which is the closest JSON has.

#include <cstdint>
#include <ostream>
#include <string_view>
#include <vector>

namespace routh {

/// How a container is laid out: one member per line, or all on one line (short lists).
enum class JsonLayout { indented, one_line };

/// Writes one JSON value to a stream. Containers are opened and closed in pairs; inside an object
/// every value is preceded by key(). Containers inside a one-line container are one-line too.
class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}

  void begin_object(JsonLayout layout = JsonLayout::indented);
  void end_object();
  void begin_array(JsonLayout layout = JsonLayout::indented);
  void end_array();

  /// The key of the next member of the current object.
  void key(std::string_view name);

  void value(double number);
  void value(std::string_view text);
  void value(const char* text) { value(std::string_view(text)); }
  void value(int number) { value(static_cast<double>(number)); }
  void value(std::int64_t number) { value(static_cast<double>(number)); }
  void value(bool truth);
  void null();

 private:
  struct Container {
    JsonLayout layout;
    int members = 0;
  };

  void begin_value();
  void open(char bracket, JsonLayout layout);
  void close(char bracket);
  void new_line();

  std::ostream& out_;
  std::vector<Container> open_;
  bool after_key_ = false;
};

}  // namespace routh
