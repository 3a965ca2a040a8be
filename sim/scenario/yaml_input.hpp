#pragma once
// Location-aware reading of YAML input files. Every value is read through an InputNode, which
// knows its file, its position and its key path from the document root, so that any complaint
// about it can say exactly where it points (docs/design.md §5: "every error names the file, line
// and column"), in the style `rod.yaml:7:16: restitution = 1.3: must be in [0, 1]`.

#include <yaml-cpp/yaml.h>

#include <Eigen/Core>
#include <cstddef>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace routh {

/// A place in an input file; line and column are 1-based: line 0 is the whole file, column 0 the
/// whole line.
struct InputLocation {
  std::string file;
  int line = 0;
  int column = 0;
};

/// "file:line:column", "file:line" when it has no column, or "file" when it has no line.
std::string to_string(const InputLocation& location);

/// Bad input: what() is "file:line:column: message", the form editors and terminals link to.
class InputError : public std::runtime_error {
 public:
  InputError(InputLocation location, const std::string& message);

  const InputLocation& location() const { return location_; }
  /// The message without its location.
  const std::string& message() const { return message_; }

 private:
  InputLocation location_;
  std::string message_;
};

/// One YAML value with its file and key path (e.g. "friction.static", "D[1][0]").
class InputNode {
 public:
  InputNode(std::string file, const YAML::Node& node, std::string path);

  const YAML::Node& yaml() const { return node_; }
  /// The key path from the document root; empty for the root itself.
  const std::string& path() const { return path_; }
  InputLocation location() const;

  /// The value of `key` in this map, if present.
  std::optional<InputNode> find(std::string_view key) const;
  /// The value of `key` in this map; throws "missing required key" at this map when absent.
  InputNode required(std::string_view key) const;
  /// The items of this sequence, each with its index in the path.
  std::vector<InputNode> items() const;
  /// The entries of this map in their written order: each key and its value, with the key in the
  /// value's path. One pass, where find() searches the map once per key.
  std::vector<std::pair<std::string, InputNode>> entries() const;

  /// An error at this value: "path = value: message" for a scalar, "path: message" otherwise.
  InputError error(std::string_view message) const;
  /// A warning at this value, in the same form: "file:line:column: warning: path = value: ...".
  std::string warning(std::string_view message) const;

 private:
  std::string described(std::string_view message) const;

  std::string file_;
  YAML::Node node_;
  std::string path_;
};

struct InputKind;

/// The longest YAML list routh reads: longer ones are refused at the first item past it.
inline constexpr std::size_t kMaxYamlListItems = 50'000;
/// The most values (scalars, lists, maps) routh reads from one YAML text.
inline constexpr std::size_t kMaxYamlNodes = 100'000;

/// Reads `path` as an input file of `kind` (input_file.hpp: a regular file within the kind's
/// size limit) and parses it with parse_yaml_text.
InputNode load_yaml_file(const std::string& path, const InputKind& kind);

/// Parses `text`, naming `file` in its errors (e.g. the Python function whose arguments the text
/// was written from). A byte that is not UTF-8, a YAML syntax error, a second document (at its
/// start), a list or a file beyond the limits above (at the first item past them) and a key
/// given twice in one map (at the second, naming the first's line) become an InputError.
InputNode parse_yaml_text(const std::string& text, const std::string& file);

/// Throws an InputError at the first byte of `text` that is not part of a UTF-8 character.
void check_utf8(std::string_view text, const std::string& file);

/// Throws an InputError at the second of two equal keys in one map of `root`'s tree, naming the
/// first's line (load_yaml_file checks every file it reads; text parsed otherwise calls this).
void check_unique_keys(const InputNode& root);

/// Checks that `map` is a map whose keys are all in `allowed`; an unknown key is an error at the
/// key. It names where the key belongs when one of `elsewhere`, the key paths of the file's other
/// maps ("contact.restitution"), ends in that very key (`restitution` at the top level: did you
/// mean 'contact.restitution'?), the first such path (a key of the top level says so); else the
/// closest allowed key.
void check_keys(const InputNode& map, std::span<const std::string_view> allowed,
                std::span<const std::string> elsewhere = {});

/// A finite number.
double read_number(const InputNode& node);

/// The values a number may take: [low, high], or (low, high] when low_is_excluded, in `unit`.
struct NumberRange {
  double low = 0.0;
  double high = 0.0;
  std::string_view unit;  ///< e.g. "m", "kg", "s"; "" for a pure number
  bool low_is_excluded = false;
};

/// "[1e-06, 1000000] m", "(0, 1e-06] s": the range as an error message shows it.
std::string to_string(const NumberRange& range);

/// The number of a scalar "<number> UNIT" (blanks allowed before the unit, e.g. "0.3 g",
/// "10 deg"), finite; nothing if the node is not one.
std::optional<double> number_with_unit(const InputNode& node, std::string_view unit);

/// A finite number in `range`; otherwise an error at the value naming the range.
double read_number_in(const InputNode& node, const NumberRange& range);
/// A number [rad], or an angle with a unit: "10 deg" or "0.2 rad"; with `rate`, "10 deg/s" or
/// "0.2 rad/s" [rad/s].
double read_angle(const InputNode& node, bool rate);
/// A scalar read as text.
std::string read_string(const InputNode& node);
/// A non-empty list of numbers.
Eigen::VectorXd read_vector(const InputNode& node);
/// A non-empty list of rows of equal length, e.g. [[2.5, -1.5], [-1.5, 2.5]].
Eigen::MatrixXd read_matrix(const InputNode& node);

}  // namespace routh
