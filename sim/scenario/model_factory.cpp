#include "sim/scenario/model_factory.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>

#include "models/named_models.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

using Builder = std::unique_ptr<PlanarTree> (*)(const InputNode& model, const ModelOptions& options,
                                                YAML::Node& effective);

struct ModelType {
  std::string_view name;
  std::span<const std::string_view> keys;  ///< every key the model map may hold
  Builder build;
};

constexpr std::array<std::string_view, 4> kBallKeys = {"type", "gravity", "radius", "mass"};
constexpr std::array<std::string_view, 4> kRodKeys = {"type", "gravity", "length", "mass"};
constexpr std::array<std::string_view, 5> kBlockKeys = {"type", "gravity", "width", "height",
                                                        "mass"};
constexpr std::array<std::string_view, 5> kPendulumKeys = {"type", "gravity", "length", "mass",
                                                           "obstacle"};
constexpr std::array<std::string_view, 2> kDoublePendulumKeys = {"type", "gravity"};
constexpr std::array<std::string_view, 7> kChainKeys = {"type", "gravity", "links",   "length",
                                                        "mass", "angles",  "obstacle"};
constexpr std::array<std::string_view, 3> kObstacleKeys = {"type", "position", "free_side"};

// Physical parameters span labs to buildings: a micrometre to a thousand kilometres, a microgram
// to a million tonnes, up to a hundred times Earth's gravity. Beyond these the products the
// dynamics forms (m g L, m L², their ratios) leave double precision's comfortable range, and a
// mass of 1e308 turned the whole run into NaN; a gravity of 1e300 livelocked the event loop.
constexpr NumberRange kLengthRange{1e-6, 1e6, "m"};
constexpr NumberRange kMassRange{1e-9, 1e9, "kg"};
constexpr NumberRange kGravityRange{0.0, 1e3, "m/s^2"};
constexpr NumberRange kPositionRange{-1e6, 1e6, "m"};

// A required parameter in `range`, copied into the effective scenario.
double parameter(const InputNode& model, std::string_view key, const NumberRange& range,
                 YAML::Node& effective) {
  const double value = read_number_in(model.required(key), range);
  effective[std::string(key)] = number_node(value);
  return value;
}

double length(const InputNode& model, std::string_view key, YAML::Node& effective) {
  return parameter(model, key, kLengthRange, effective);
}

double mass(const InputNode& model, YAML::Node& effective) {
  return parameter(model, "mass", kMassRange, effective);
}

// The obstacle map, or `fallback` when absent; copied into the effective scenario.
std::optional<HalfPlane> obstacle(const InputNode& model, std::optional<HalfPlane> fallback,
                                  YAML::Node& effective) {
  const std::optional<InputNode> node = model.find("obstacle");
  if (!node) {
    if (!fallback) {
      effective["obstacle"] = "none";
      return std::nullopt;
    }
    YAML::Node described;
    const bool wall = fallback->normal.x() != 0.0;
    described["type"] = wall ? "wall" : "floor";
    described["position"] = number_node(wall ? fallback->point_m.x() : fallback->point_m.y());
    if (wall) described["free_side"] = fallback->normal.x() > 0.0 ? "positive" : "negative";
    effective["obstacle"] = described;
    return fallback;
  }
  if (node->yaml().IsScalar() && node->yaml().Scalar() == "none") {
    effective["obstacle"] = "none";
    return std::nullopt;
  }
  check_keys(*node, kObstacleKeys);
  const InputNode type = node->required("type");
  const std::string kind = read_string(type);
  const double position = read_number_in(node->required("position"), kPositionRange);
  YAML::Node described;
  described["type"] = kind;
  described["position"] = number_node(position);
  if (kind == "floor") {
    if (auto side = node->find("free_side")) {
      throw side->error("a floor's free side is always above it (y >= position); remove it");
    }
    effective["obstacle"] = described;
    return floor_at(position);
  }
  if (kind != "wall") throw type.error("must be wall or floor");
  bool positive_side = true;
  if (auto side = node->find("free_side")) {
    const std::string text = read_string(*side);
    if (text != "positive" && text != "negative") throw side->error("must be positive or negative");
    positive_side = text == "positive";
  }
  described["free_side"] = positive_side ? "positive" : "negative";
  effective["obstacle"] = described;
  return wall_at(position, positive_side);
}

std::unique_ptr<PlanarTree> build_ball(const InputNode& model, const ModelOptions& options,
                                       YAML::Node& effective) {
  const double radius = length(model, "radius", effective);
  return make_ball(radius, mass(model, effective), options);
}

std::unique_ptr<PlanarTree> build_rod(const InputNode& model, const ModelOptions& options,
                                      YAML::Node& effective) {
  const double rod_length = length(model, "length", effective);
  return make_rod(rod_length, mass(model, effective), options);
}

std::unique_ptr<PlanarTree> build_rocking_block(const InputNode& model, const ModelOptions& options,
                                                YAML::Node& effective) {
  const double width = length(model, "width", effective);
  const double height = length(model, "height", effective);
  return make_rocking_block(width, height, mass(model, effective), options);
}

std::unique_ptr<PlanarTree> build_pendulum(const InputNode& model, const ModelOptions& options,
                                           YAML::Node& effective) {
  const double rod_length = length(model, "length", effective);
  const double rod_mass = mass(model, effective);
  const std::optional<HalfPlane> against = obstacle(model, wall_at(0.0, true), effective);
  if (!against) throw model.required("obstacle").error("a pendulum needs an obstacle");
  return make_pendulum(rod_length, rod_mass, *against, options);
}

std::unique_ptr<PlanarTree> build_double_pendulum(const InputNode&, const ModelOptions& options,
                                                  YAML::Node&) {
  return make_double_pendulum(options);
}

std::unique_ptr<PlanarTree> build_chain(const InputNode& model, const ModelOptions& options,
                                        YAML::Node& effective) {
  const InputNode links_node = model.required("links");
  const double links = read_number(links_node);
  if (links < 1.0 || links != std::floor(links) || links > 1000.0) {
    throw links_node.error("must be a whole number of links in [1, 1000]");
  }
  effective["links"] = static_cast<int>(links);
  const double link_length = length(model, "length", effective);
  const double link_mass = mass(model, effective);
  AngleReference angles = AngleReference::absolute;
  if (auto node = model.find("angles")) {
    const std::string text = read_string(*node);
    if (text != "absolute" && text != "relative") throw node->error("must be absolute or relative");
    angles = text == "absolute" ? AngleReference::absolute : AngleReference::relative;
  }
  effective["angles"] = angles == AngleReference::absolute ? "absolute" : "relative";
  const std::optional<HalfPlane> tip_obstacle = obstacle(model, std::nullopt, effective);
  return make_chain(static_cast<int>(links), link_length, link_mass, tip_obstacle, angles, options);
}

constexpr std::array<ModelType, 6> kModelTypes = {
    ModelType{"ball", kBallKeys, &build_ball},
    ModelType{"rod", kRodKeys, &build_rod},
    ModelType{"rocking_block", kBlockKeys, &build_rocking_block},
    ModelType{"pendulum", kPendulumKeys, &build_pendulum},
    ModelType{"double_pendulum", kDoublePendulumKeys, &build_double_pendulum},
    ModelType{"chain", kChainKeys, &build_chain},
};

constexpr std::array<std::string_view, kModelTypes.size()> kModelTypeNames = [] {
  std::array<std::string_view, kModelTypes.size()> names{};
  for (std::size_t i = 0; i < names.size(); ++i) names[i] = kModelTypes[i].name;
  return names;
}();

}  // namespace

YAML::Node number_node(double value) {
  std::array<char, 32> text{};
  const auto written = std::to_chars(text.data(), text.data() + text.size(), value);
  return YAML::Node(std::string(text.data(), written.ptr));
}

std::span<const std::string_view> model_types() { return kModelTypeNames; }

BuiltModel build_model(const InputNode& model, GroundAcceleration ground_acceleration) {
  if (!model.yaml().IsMap()) throw model.error("must be a map with a `type` and its parameters");
  const InputNode type_node = model.required("type");
  const std::string type = read_string(type_node);
  const ModelType* chosen = nullptr;
  for (const ModelType& candidate : kModelTypes) {
    if (candidate.name == type) chosen = &candidate;
  }
  if (chosen == nullptr) {
    std::string known;
    for (std::string_view name : kModelTypeNames) known += cat(known.empty() ? "" : ", ", name);
    throw type_node.error(cat("unknown model type; did you mean '",
                              closest_name(type, kModelTypeNames), "'? (known: ", known, ")"));
  }
  check_keys(model, chosen->keys);
  BuiltModel built;
  built.effective["type"] = type;
  ModelOptions options;
  if (auto gravity = model.find("gravity")) {
    options.gravity_m_s2 = read_number_in(*gravity, kGravityRange);  // it points -y
  }
  options.ground_acceleration = std::move(ground_acceleration);
  try {
    built.tree = chosen->build(model, options, built.effective);
  } catch (const std::invalid_argument& rejected) {
    throw model.error(rejected.what());
  }
  built.effective["gravity"] = number_node(options.gravity_m_s2);
  return built;
}

}  // namespace routh
