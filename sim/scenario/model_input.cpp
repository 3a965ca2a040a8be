#include "sim/scenario/model_input.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "sim/text.hpp"

namespace routh {

namespace {

struct ObstacleType {
  std::string_view name;
  std::array<std::string_view, 2> keys;  ///< besides `type`; empty: unused
  std::string_view takes;                ///< its keys, as an error message says them
};

constexpr std::array<ObstacleType, 3> kObstacleTypes = {
    ObstacleType{"floor", {"position", ""}, "only `position` (its free side is y >= position)"},
    ObstacleType{"wall", {"position", "free_side"}, "`position` and `free_side`"},
    ObstacleType{"plane", {"point", "normal"}, "`point` and `normal`"},
};
constexpr std::array<std::string_view, 3> kObstacleTypeNames = {"floor", "wall", "plane"};
constexpr std::array<std::string_view, 5> kObstacleKeys = {"type", "position", "free_side", "point",
                                                           "normal"};

// A plane's normal [n_x, n_y]: any finite vector but zero.
Eigen::Vector2d read_normal(const InputNode& node) {
  const Eigen::VectorXd given = read_vector(node);
  if (given.size() != 2) throw node.error("must be [n_x, n_y]");
  if (given.isZero(0.0)) throw node.error("must not be zero: it points into the free side");
  return given;
}

}  // namespace

double read_initial_value(const InputNode& node, bool is_angle, bool rate) {
  const double value = is_angle ? read_angle(node, rate) : read_number(node);
  const std::string_view unit = is_angle ? (rate ? "rad/s" : "rad") : (rate ? "m/s" : "m");
  const NumberRange range{-kMaxInitialMagnitude, kMaxInitialMagnitude, unit};
  if (std::abs(value) > kMaxInitialMagnitude)
    throw node.error(cat("must be in ", to_string(range)));
  return value;
}

std::optional<std::string> tilt_in_degrees_warning(const InputNode& node, double angle_rad,
                                                   std::string_view body) {
  double bare = 0.0;
  const bool in_units =
      !(node.yaml().IsScalar() && YAML::convert<double>::decode(node.yaml(), bare));
  if (in_units || !(std::abs(angle_rad) > kBlockTiltLimit_rad)) return std::nullopt;
  // as a reader reads them: degrees to a tenth, radians to four decimals
  const double as_degrees = std::round(angle_rad * 1800.0 / std::numbers::pi) / 10.0;
  const double meant_rad = std::round(angle_rad * 1e4 * std::numbers::pi / 180.0) / 1e4;
  return node.warning(cat("a tilt of body '", body,
                          "' beyond a quarter turn: a bare number is read in radians (", angle_rad,
                          " rad = ", as_degrees, " deg); for ", angle_rad, " degrees write '",
                          angle_rad, " deg' (", meant_rad, " rad)"));
}

bool read_bool(const InputNode& node) {
  bool value = false;
  if (!node.yaml().IsScalar() || !YAML::convert<bool>::decode(node.yaml(), value)) {
    throw node.error("must be true or false");
  }
  return value;
}

std::vector<InputNode> read_list(const InputNode& node, std::string_view example,
                                 bool may_be_empty) {
  if (!node.yaml().IsSequence() || (node.yaml().size() == 0 && !may_be_empty)) {
    throw node.error(
        cat("must be a ", may_be_empty ? "" : "non-empty ", "list, e.g. [", example, "]"));
  }
  return node.items();
}

YAML::Node number_node(double value) {
  std::array<char, 32> text{};
  const auto written = std::to_chars(text.data(), text.data() + text.size(), value);
  return YAML::Node(std::string(text.data(), written.ptr));
}

Eigen::Vector2d read_point(const InputNode& node) {
  if (!node.yaml().IsSequence() || node.yaml().size() != 2) throw node.error("must be [x, y]");
  const std::vector<InputNode> items = node.items();
  return {read_number_in(items[0], kPositionRange), read_number_in(items[1], kPositionRange)};
}

YAML::Node point_node(const Eigen::Vector2d& point) {
  YAML::Node node(YAML::NodeType::Sequence);
  node.push_back(number_node(point.x()));
  node.push_back(number_node(point.y()));
  node.SetStyle(YAML::EmitterStyle::Flow);
  return node;
}

ObstacleInput read_obstacle(const InputNode& node, std::span<const std::string_view> extra_keys) {
  std::vector<std::string_view> allowed(kObstacleKeys.begin(), kObstacleKeys.end());
  allowed.insert(allowed.end(), extra_keys.begin(), extra_keys.end());
  check_keys(node, allowed);
  const InputNode type_node = node.required("type");
  ObstacleInput obstacle{read_string(type_node), {}, YAML::Node(YAML::NodeType::Map)};
  const ObstacleType* type = nullptr;
  for (const ObstacleType& candidate : kObstacleTypes) {
    if (candidate.name == obstacle.type) type = &candidate;
  }
  if (type == nullptr) {
    throw type_node.error(cat("must be floor, wall or plane; did you mean '",
                              closest_name(obstacle.type, kObstacleTypeNames), "'?"));
  }
  for (std::string_view key : kObstacleKeys) {
    const bool belongs = key == "type" || key == type->keys[0] || key == type->keys[1];
    if (auto given = node.find(key); given && !belongs) {
      throw given->error(cat("a ", type->name, " takes ", type->takes, ": remove it"));
    }
  }
  YAML::Node& described = obstacle.described;
  described["type"] = obstacle.type;
  if (obstacle.type == "plane") {
    const Eigen::Vector2d point = read_point(node.required("point"));
    const Eigen::Vector2d normal = read_normal(node.required("normal"));
    obstacle.surface = {point, normal.stableNormalized()};  // written as given
    described["point"] = point_node(point);
    described["normal"] = point_node(normal);
    return obstacle;
  }
  const double position = read_number_in(node.required("position"), kPositionRange);
  described["position"] = number_node(position);
  if (obstacle.type == "floor") {
    obstacle.surface = floor_at(position);
    return obstacle;
  }
  bool positive_side = true;
  if (auto side = node.find("free_side")) {
    const std::string text = read_string(*side);
    if (text != "positive" && text != "negative") throw side->error("must be positive or negative");
    positive_side = text == "positive";
  }
  described["free_side"] = positive_side ? "positive" : "negative";
  obstacle.surface = wall_at(position, positive_side);
  return obstacle;
}

std::string read_name(const InputNode& node) {
  const std::string name = read_string(node);
  const bool valid = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
  });
  if (!valid) {
    throw node.error(
        "must be a name of letters, digits, '_' and '-' (it names coordinates and "
        "contacts, e.g. NAME.x and NAME.bottom_left/floor)");
  }
  return name;
}

void NamePool::claim(const std::string& name, const InputNode& node) {
  for (const auto& [used, where] : used_) {
    if (used == name) {
      throw node.error(cat("'", name, "' already names a body or obstacle (at ", to_string(where),
                           "): names must differ"));
    }
  }
  used_.emplace_back(name, node.location());
}

}  // namespace routh
