#include "sim/scenario/yaml_input.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <sstream>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <yaml-cpp/eventhandler.h>

#include "sim/scenario/input_file.hpp"
#include "sim/simulation/stop_request.hpp"
#include "sim/text.hpp"

namespace routh {

std::string to_string(const InputLocation& location) {
  if (location.line == 0) return location.file;
  if (location.column == 0) return cat(location.file, ":", location.line);
  return cat(location.file, ":", location.line, ":", location.column);
}

InputError::InputError(InputLocation location, const std::string& message)
    : std::runtime_error(cat(to_string(location), ": ", message)),
      location_(std::move(location)),
      message_(message) {}

namespace {

// yaml-cpp counts lines and columns from 0; editors and compilers count from 1.
InputLocation location_of(const std::string& file, const YAML::Mark& mark) {
  if (mark.is_null()) return {file, 0, 0};
  return {file, mark.line + 1, mark.column + 1};
}

}  // namespace

InputNode::InputNode(std::string file, const YAML::Node& node, std::string path)
    : file_(std::move(file)), node_(node), path_(std::move(path)) {}

InputLocation InputNode::location() const { return location_of(file_, node_.Mark()); }

std::optional<InputNode> InputNode::find(std::string_view key) const {
  const YAML::Node value = node_[std::string(key)];
  if (!value.IsDefined()) return std::nullopt;
  return InputNode(file_, value, path_.empty() ? std::string(key) : cat(path_, ".", key));
}

InputNode InputNode::required(std::string_view key) const {
  if (auto value = find(key)) return *std::move(value);
  throw error(cat("missing required key '", key, "'"));
}

std::vector<InputNode> InputNode::items() const {
  std::vector<InputNode> items;
  for (std::size_t i = 0; i < node_.size(); ++i) {
    items.emplace_back(file_, node_[i], cat(path_, "[", i, "]"));
  }
  return items;
}

std::vector<std::pair<std::string, InputNode>> InputNode::entries() const {
  std::vector<std::pair<std::string, InputNode>> entries;
  for (const auto& entry : node_) {
    std::string key = entry.first.Scalar();
    std::string path = path_.empty() ? key : cat(path_, ".", key);
    entries.emplace_back(std::move(key), InputNode(file_, entry.second, std::move(path)));
  }
  return entries;
}

std::string InputNode::described(std::string_view message) const {
  if (path_.empty()) return std::string(message);
  if (node_.IsScalar()) return cat(path_, " = ", node_.Scalar(), ": ", message);
  return cat(path_, ": ", message);
}

InputError InputNode::error(std::string_view message) const {
  return {location(), described(message)};
}

std::string InputNode::warning(std::string_view message) const {
  return cat(to_string(location()), ": warning: ", described(message));
}

namespace {

// yaml-cpp keeps both of two equal keys and a lookup finds the first, so a corrected value
// written below the old one was silently ignored. Keys are compared as text, as lookups compare
// them; the first duplicate in the file's order is reported. An alias is the node it names, met
// again: each collection is walked once, known by where it was parsed (no two parsed collections
// start at the same place), so that nested aliases cannot make the walk exponential.
void check_unique_keys_once(const InputNode& node, std::unordered_set<std::size_t>& walked) {
  const YAML::Node& yaml = node.yaml();
  if (!(yaml.IsMap() || yaml.IsSequence())) return;
  if (!walked.insert(static_cast<std::size_t>(yaml.Mark().pos)).second) return;
  if (yaml.IsSequence()) {
    for (const InputNode& item : node.items()) check_unique_keys_once(item, walked);
    return;
  }
  const std::vector<std::pair<std::string, InputNode>> entries = node.entries();
  std::unordered_map<std::string_view, int> first_lines;
  std::size_t i = 0;
  for (const auto& pair : yaml) {  // in the order of entries(), which has no key's place
    const auto& [key, value] = entries[i++];
    if (pair.first.IsScalar()) {
      const InputLocation place = location_of(node.location().file, pair.first.Mark());
      const auto [first, inserted] = first_lines.emplace(key, place.line);
      if (!inserted) {
        const std::string where = node.path().empty() ? "" : cat(node.path(), ": ");
        throw InputError(
            place, cat(where, "duplicate key '", key, "' (first at line ", first->second, ")"));
      }
    }
    check_unique_keys_once(value, walked);
  }
}

// Where a file's second document starts: at its '---', the last line after the first
// document's first node and up to the second's that opens with one (a document of comments only
// has its node past them, or past the end of the file); at the second's node when a '...' ended
// the first document and no '---' follows.
InputLocation second_document_start(const std::string& path, const std::string& text,
                                    const YAML::Mark& first, const YAML::Mark& second) {
  std::istringstream lines(text);
  InputLocation start = location_of(path, second);
  const int after = first.is_null() ? 0 : first.line + 1;  // 1-based line numbers
  std::string line;
  for (int number = 1; std::getline(lines, line) && (second.is_null() || number <= second.line + 1);
       ++number) {
    const bool marker = line.starts_with("---") &&
                        (line.size() == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r');
    if (marker && number > after) start = {path, number, 1};
  }
  return start;
}

// The first node of each document, in the order the parser reports them. Meeting a token that
// cannot start a node (a ',' outside a flow collection), yaml-cpp's parser reports an empty
// document there without consuming the token, and again at every call, so YAML::LoadAll never
// returns: a document whose first node is where the previous one's was is that token.
//
// It also bounds the work of building the document's tree (about 700 bytes and a microsecond per
// node in yaml-cpp): a list longer than kMaxYamlListItems is refused at its first item past the
// limit and a file of more than kMaxYamlNodes values at the first past it, before any tree is
// built; and a stop request (SIGINT/SIGTERM) ends the parse.
class DocumentNodes final : public YAML::EventHandler {
 public:
  explicit DocumentNodes(const std::string& file) : file_(file) {}

  const std::vector<YAML::Mark>& marks() const { return marks_; }
  bool stalled() const {
    return marks_.size() >= 2 && marks_.back().pos == marks_[marks_.size() - 2].pos;
  }

  void OnDocumentStart(const YAML::Mark& mark) override {
    marks_.push_back(mark);
    node_seen_ = false;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { node(mark); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { node(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                const std::string&) override {
    node(mark);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    node(mark);
    open_.push_back(0);
  }
  void OnSequenceEnd() override { open_.pop_back(); }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    node(mark);
    open_.push_back(kInMap);
  }
  void OnMapEnd() override { open_.pop_back(); }

 private:
  // The items counted of each open collection, innermost last; a map's are not counted.
  static constexpr std::size_t kInMap = static_cast<std::size_t>(-1);
  static constexpr std::size_t kStopPollNodes = 4096;

  void node(const YAML::Mark& mark) {
    if (!node_seen_) marks_.back() = mark;
    node_seen_ = true;
    if (++nodes_ > kMaxYamlNodes) {
      throw InputError(
          location_of(file_, mark),
          cat("more than ", kMaxYamlNodes, " values in one file: routh reads at most that"));
    }
    if (!open_.empty() && open_.back() != kInMap && ++open_.back() > kMaxYamlListItems) {
      throw InputError(location_of(file_, mark), cat("a list of more than ", kMaxYamlListItems,
                                                     " items: routh reads lists of at most that"));
    }
    if (nodes_ % kStopPollNodes == 0 && stop_requested()) {
      throw InputInterrupted(file_, stop_signal());
    }
  }
  const std::string& file_;
  std::vector<YAML::Mark> marks_;
  std::vector<std::size_t> open_;
  std::size_t nodes_ = 0;
  bool node_seen_ = false;
};

// A file holds exactly one document: a later one was ignored without a word, so what it says
// would never take effect. Parses at most three documents, enough to tell a second document from
// a token the parser stalls on (which repeats its empty document).
void check_single_document(const std::string& path, const std::string& text) {
  std::istringstream stream(text);
  YAML::Parser parser(stream);
  DocumentNodes documents(path);
  while (documents.marks().size() < 3 && parser.HandleNextDocument(documents)) {
    if (documents.stalled()) {
      const YAML::Mark& mark = documents.marks().back();
      throw InputError(location_of(path, mark),
                       cat("YAML syntax: unexpected '", text.substr(mark.pos, 1), "'"));
    }
  }
  if (documents.marks().size() > 1) {
    throw InputError(second_document_start(path, text, documents.marks()[0], documents.marks()[1]),
                     "a second YAML document starts here: the file must hold exactly one");
  }
}

}  // namespace

InputNode load_yaml_file(const std::string& path, const InputKind& kind) {
  return parse_yaml_text(read_input_file(path, kind), path);
}

InputNode parse_yaml_text(const std::string& text, const std::string& file) {
  check_utf8(text, file);
  YAML::Node document;
  try {
    check_single_document(file, text);
    // an empty file is a null document, which each reader refuses in its own words
    document = YAML::Load(text);
  } catch (const YAML::ParserException& parse_error) {
    throw InputError(location_of(file, parse_error.mark), cat("YAML syntax: ", parse_error.msg));
  }
  InputNode root(file, document, "");
  check_unique_keys(root);
  return root;
}

void check_utf8(std::string_view text, const std::string& file) {
  const std::optional<std::size_t> bad = first_invalid_utf8(text);
  if (!bad) return;
  const std::string_view before = text.substr(0, *bad);
  const auto line = 1 + std::count(before.begin(), before.end(), '\n');
  const std::size_t line_start =
      before.rfind('\n') == std::string_view::npos ? 0 : before.rfind('\n') + 1;
  std::array<char, 8> byte{};
  std::snprintf(byte.data(), byte.size(), "0x%02X", static_cast<unsigned char>(text[*bad]));
  throw InputError({file, static_cast<int>(line), static_cast<int>(*bad - line_start) + 1},
                   cat("byte ", byte.data(),
                       " is not UTF-8: YAML input must be UTF-8 text (names are printed and "
                       "written to the output files as UTF-8)"));
}

void check_unique_keys(const InputNode& root) {
  std::unordered_set<std::size_t> walked;
  check_unique_keys_once(root, walked);
}

namespace {

// The first of `elsewhere` that is `key` in a map other than `map_path` ("contact.restitution"
// for `restitution`), or nothing: a key written in the wrong map is found by its exact name
// before any near spelling, which would name an unrelated key of this map.
std::optional<std::string_view> placed_elsewhere(std::string_view key, std::string_view map_path,
                                                 std::span<const std::string> elsewhere) {
  for (const std::string& path : elsewhere) {
    const std::size_t dot = path.rfind('.');
    const std::string_view parent =
        dot == std::string::npos ? std::string_view() : std::string_view(path).substr(0, dot);
    const std::string_view name =
        dot == std::string::npos ? std::string_view(path) : std::string_view(path).substr(dot + 1);
    if (name == key && parent != map_path) return path;
  }
  return std::nullopt;
}

}  // namespace

void check_keys(const InputNode& map, std::span<const std::string_view> allowed,
                std::span<const std::string> elsewhere) {
  if (!map.yaml().IsMap()) {
    throw map.error(cat("must be a map with keys among: ", comma_list(allowed)));
  }
  // hashed: a stack's contact names, allowed keys of a per-contact map, grow with the square of
  // its blocks
  const std::unordered_set<std::string_view> known(allowed.begin(), allowed.end());
  for (const auto& entry : map.yaml()) {
    const std::string key = entry.first.Scalar();
    if (known.contains(key)) continue;
    const std::string where = map.path().empty() ? "" : cat(map.path(), ": ");
    const std::optional<std::string_view> placed = placed_elsewhere(key, map.path(), elsewhere);
    const std::string advice = !placed ? cat("; did you mean '", closest_name(key, allowed), "'?")
                               : *placed == key
                                   ? std::string(" here: it belongs at the top level of the file")
                                   : cat(" here; did you mean '", *placed, "'?");
    throw InputError(location_of(map.location().file, entry.first.Mark()),
                     cat(where, "unknown key '", key, "'", advice));
  }
}

double read_number(const InputNode& node) {
  double value = 0.0;
  if (!node.yaml().IsScalar() || !YAML::convert<double>::decode(node.yaml(), value)) {
    throw node.error("must be a number");
  }
  if (!std::isfinite(value)) throw node.error("must be finite");
  return value;
}

std::string to_string(const NumberRange& range) {
  return cat(range.low_is_excluded ? "(" : "[", range.low, ", ", range.high, "]",
             range.unit.empty() ? "" : " ", range.unit);
}

double read_number_in(const InputNode& node, const NumberRange& range) {
  const double value = read_number(node);
  const bool above_low = range.low_is_excluded ? value > range.low : value >= range.low;
  if (!above_low || value > range.high) throw node.error(cat("must be in ", to_string(range)));
  return value;
}

std::string read_string(const InputNode& node) {
  if (!node.yaml().IsScalar()) throw node.error("must be text");
  return node.yaml().Scalar();
}

Eigen::VectorXd read_vector(const InputNode& node) {
  if (!node.yaml().IsSequence() || node.yaml().size() == 0) {
    throw node.error("must be a non-empty list of numbers, e.g. [-1, 0.6]");
  }
  const std::vector<InputNode> items = node.items();
  Eigen::VectorXd vector(static_cast<Eigen::Index>(items.size()));
  for (Eigen::Index i = 0; i < vector.size(); ++i) vector[i] = read_number(items[i]);
  return vector;
}

Eigen::MatrixXd read_matrix(const InputNode& node) {
  if (!node.yaml().IsSequence() || node.yaml().size() == 0) {
    throw node.error("must be a non-empty list of rows, e.g. [[2.5, -1.5], [-1.5, 2.5]]");
  }
  const std::vector<InputNode> rows = node.items();
  Eigen::MatrixXd matrix;
  for (Eigen::Index i = 0; i < static_cast<Eigen::Index>(rows.size()); ++i) {
    const Eigen::VectorXd row = read_vector(rows[i]);
    if (i == 0) matrix.resize(static_cast<Eigen::Index>(rows.size()), row.size());
    if (row.size() != matrix.cols()) {
      throw rows[i].error(cat("has ", row.size(), " entries but the first row has ", matrix.cols(),
                              ": every row must have the same length"));
    }
    matrix.row(i) = row.transpose();
  }
  return matrix;
}

std::optional<double> number_with_unit(const InputNode& node, std::string_view unit) {
  if (!node.yaml().IsScalar()) return std::nullopt;
  const std::string& text = node.yaml().Scalar();
  if (!std::string_view(text).ends_with(unit)) return std::nullopt;
  std::string_view number(text.data(), text.size() - unit.size());
  while (!number.empty() && number.back() == ' ') number.remove_suffix(1);
  const char* first = number.data();
  if (!number.empty() && number.front() == '+') ++first;
  double value = 0.0;
  const auto parsed = std::from_chars(first, number.data() + number.size(), value);
  if (parsed.ec != std::errc() || parsed.ptr != number.data() + number.size() ||
      !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

// A number, or for an angle "<number> deg" ("<number> deg/s" for a rate) → rad (rad/s);
// "<number> rad" ("rad/s") is accepted too.
double read_angle(const InputNode& node, bool rate) {
  double value = 0.0;
  if (node.yaml().IsScalar() && YAML::convert<double>::decode(node.yaml(), value)) {
    return read_number(node);
  }
  const std::string_view degrees = rate ? "deg/s" : "deg";
  const std::string_view radians = rate ? "rad/s" : "rad";
  if (const std::optional<double> deg = number_with_unit(node, degrees)) {
    return *deg * (std::numbers::pi / 180.0);
  }
  if (const std::optional<double> rad = number_with_unit(node, radians)) return *rad;
  throw node.error(
      cat("must be a number [", radians, "] or a number with a unit, e.g. '10 ", degrees, "'"));
}

}  // namespace routh
