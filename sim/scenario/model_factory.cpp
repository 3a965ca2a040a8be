#include "sim/scenario/model_factory.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/named_models.hpp"
#include "sim/scenario/multibody_input.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

// Whole numbers of parts: beyond these a chain or a stack is a stress test, not a scenario. A
// chain's contacts grow with its links, a stack's with the square of its blocks (16 candidate
// contacts per ordered pair, plus 4 on the floor): 50 blocks make 39 400, which load in under 2 s
// and 300 MB, most of it the effective scenario listing each contact; 100 blocks make 158 800 and
// took 8 s and 1.1 GB.
constexpr NumberRange kLinkCountRange{1.0, 1000.0, ""};
constexpr NumberRange kBlockCountRange{1.0, 50.0, ""};

// Reads a named model's parameters from its map, each one's fallback when it is absent, and
// writes what it read into the effective scenario.
class ParameterReader {
 public:
  ParameterReader(const InputNode& model, std::span<const ModelParameter> parameters,
                  YAML::Node& effective)
      : model_(model), parameters_(parameters), effective_(effective) {}

  /// The value given, or the fallback: the table's, else `computed` (YAML).
  InputNode node(std::string_view name, std::string_view computed = {}) const {
    if (auto given = model_.find(name)) return *given;
    const std::string_view fallback = parameter(name).fallback;
    return {"(default)", YAML::Load(std::string(fallback.empty() ? computed : fallback)),
            cat("model.", name)};
  }

  double number(std::string_view name) {
    const double value =
        read_number_in(node(name), *kind_checked(name, ParameterKind::number).range);
    effective_[std::string(name)] = number_node(value);
    return value;
  }

  /// One number for all `count` parts, or a list of one per part.
  std::vector<double> numbers(std::string_view name, std::size_t count) {
    const InputNode given = node(name);
    const NumberRange& range = *kind_checked(name, ParameterKind::part_numbers).range;
    if (!given.yaml().IsSequence()) {
      const double value = read_number_in(given, range);
      effective_[std::string(name)] = number_node(value);
      return std::vector<double>(count, value);
    }
    const std::vector<InputNode> items = given.items();
    if (items.size() != count) {
      throw given.error(cat("has ", items.size(), " entries for ", count,
                            " parts: give one number for all, or one per part"));
    }
    std::vector<double> values;
    YAML::Node described(YAML::NodeType::Sequence);
    for (const InputNode& item : items) {
      values.push_back(read_number_in(item, range));
      described.push_back(number_node(values.back()));
    }
    described.SetStyle(YAML::EmitterStyle::Flow);
    effective_[std::string(name)] = described;
    return values;
  }

  /// A whole number of parts.
  std::size_t count(std::string_view name) {
    const InputNode given = node(name);
    const NumberRange& range = *kind_checked(name, ParameterKind::part_count).range;
    const double value = read_number_in(given, range);
    if (value != std::floor(value)) {
      throw given.error(cat("must be a whole number in ", to_string(range)));
    }
    effective_[std::string(name)] = static_cast<int>(value);
    return static_cast<std::size_t>(value);
  }

  AngleReference angles(std::string_view name) {
    kind_checked(name, ParameterKind::angle_reference);
    const InputNode given = node(name);
    const std::optional<AngleReference> reference = angle_reference_named(read_string(given));
    if (!reference) throw given.error("must be absolute or relative");
    effective_[std::string(name)] = std::string(to_string(*reference));
    return *reference;
  }

  /// An obstacle map, or nullopt for `none`; `computed` is the fallback when the table has none.
  std::optional<ObstacleInput> obstacle(std::string_view name, std::string_view computed = {}) {
    kind_checked(name, ParameterKind::obstacle);
    const InputNode given = node(name, computed);
    if (given.yaml().IsScalar() && given.yaml().Scalar() == "none") {
      effective_[std::string(name)] = "none";
      return std::nullopt;
    }
    ObstacleInput obstacle = read_obstacle(given, {});
    effective_[std::string(name)] = obstacle.described;
    return obstacle;
  }

  /// One name per part, distinct, none of them in `taken` (the obstacles'); by default `prefix`1
  /// … `prefix`n.
  std::vector<std::string> names(std::string_view name, std::size_t count, std::string_view prefix,
                                 std::span<const std::string> taken) {
    kind_checked(name, ParameterKind::part_names);
    std::string defaults;
    for (std::size_t i = 1; i <= count; ++i) defaults += cat(i > 1 ? ", " : "", prefix, i);
    const InputNode given = node(name, cat("[", defaults, "]"));
    if (!given.yaml().IsSequence()) {
      throw given.error(cat("must be a list of ", count, " names, one per part"));
    }
    const std::vector<InputNode> items = given.items();
    if (items.size() != count) {
      throw given.error(
          cat("has ", items.size(), " names for ", count, " parts: give one per part"));
    }
    NamePool pool;
    std::vector<std::string> values;
    YAML::Node described(YAML::NodeType::Sequence);
    for (const InputNode& item : items) {
      values.push_back(read_name(item));
      if (std::find(taken.begin(), taken.end(), values.back()) != taken.end()) {
        throw item.error(cat("'", values.back(), "' names an obstacle: names must differ"));
      }
      pool.claim(values.back(), item);
      described.push_back(values.back());
    }
    described.SetStyle(YAML::EmitterStyle::Flow);
    effective_[std::string(name)] = described;
    return values;
  }

  const InputNode& model() const { return model_; }

 private:
  const ModelParameter& parameter(std::string_view name) const {
    for (const ModelParameter& candidate : parameters_) {
      if (candidate.name == name) return candidate;
    }
    throw std::logic_error(cat("model parameter '", name, "' is not in its table"));
  }

  // The table's kind is what `routh models` prints: reading the parameter as another is a bug.
  const ModelParameter& kind_checked(std::string_view name, ParameterKind kind) const {
    const ModelParameter& found = parameter(name);
    if (found.kind != kind) {
      throw std::logic_error(cat("model parameter '", name, "' is read as a ", to_string(kind),
                                 " but its table says ", to_string(found.kind)));
    }
    return found;
  }

  const InputNode& model_;
  std::span<const ModelParameter> parameters_;
  YAML::Node& effective_;
};

using Builder = std::unique_ptr<PlanarTree> (*)(ParameterReader& parameters,
                                                const ModelOptions& options);

struct NamedModel {
  ModelPreset preset;
  Builder build;
};

constexpr ModelParameter kGravity{"gravity", ParameterKind::number, "gravity, pointing -y", "9.81",
                                  &kGravityRange};

constexpr std::array<ModelParameter, 3> kBallParameters = {
    ModelParameter{"radius", ParameterKind::number, "radius", "0.1", &kLengthRange},
    {"mass", ParameterKind::number, "mass", "1", &kMassRange},
    kGravity,
};
constexpr std::array<ModelParameter, 3> kRodParameters = {
    ModelParameter{"length", ParameterKind::number, "length", "1", &kLengthRange},
    {"mass", ParameterKind::number, "mass", "1", &kMassRange},
    kGravity,
};
constexpr std::array<ModelParameter, 4> kBlockParameters = {
    ModelParameter{"width", ParameterKind::number, "width", "0.2", &kLengthRange},
    {"height", ParameterKind::number, "height", "1", &kLengthRange},
    {"mass", ParameterKind::number, "mass", "1", &kMassRange},
    kGravity,
};
constexpr std::array<ModelParameter, 4> kPendulumParameters = {
    ModelParameter{"length", ParameterKind::number, "length", "1", &kLengthRange},
    {"mass", ParameterKind::number, "mass", "1", &kMassRange},
    {"obstacle", ParameterKind::obstacle, "what the tip strikes",
     "{type: wall, position: 0, free_side: positive}"},
    kGravity,
};
constexpr std::array<ModelParameter, 4> kDoublePendulumParameters = {
    ModelParameter{"length", ParameterKind::part_numbers, "link lengths: one number, or two", "2",
                   &kLengthRange},
    {"mass", ParameterKind::part_numbers, "link masses: one number, or two", "3", &kMassRange},
    {"obstacle", ParameterKind::obstacle,
     "what the tip strikes; default: the floor it touches at theta = (20, 30) deg", ""},
    kGravity,
};
constexpr std::array<ModelParameter, 6> kChainParameters = {
    ModelParameter{"links", ParameterKind::part_count, "number of links", "3", &kLinkCountRange},
    {"length", ParameterKind::part_numbers, "link lengths: one number, or one per link", "1",
     &kLengthRange},
    {"mass", ParameterKind::part_numbers, "link masses: one number, or one per link", "1",
     &kMassRange},
    {"angles", ParameterKind::angle_reference,
     "absolute (from the downward vertical) or relative (to the previous link)", "absolute"},
    {"obstacle", ParameterKind::obstacle, "what every link end strikes, or none", "none"},
    kGravity,
};
constexpr std::array<ModelParameter, 7> kStackParameters = {
    ModelParameter{"blocks", ParameterKind::part_count, "number of blocks, the first at the bottom",
                   "2", &kBlockCountRange},
    {"width", ParameterKind::part_numbers, "block widths: one number, or one per block", "0.2",
     &kLengthRange},
    {"height", ParameterKind::part_numbers, "block heights: one number, or one per block", "0.4",
     &kLengthRange},
    {"mass", ParameterKind::part_numbers, "block masses: one number, or one per block", "1",
     &kMassRange},
    {"obstacle", ParameterKind::obstacle, "what the blocks stand on, or none",
     "{type: floor, position: 0}"},
    {"names", ParameterKind::part_names,
     "block names, bottom first: one per block (default block1 ... blockn); they name the "
     "coordinates (NAME.x) and contacts",
     ""},
    kGravity,
};
// Paper 000's example 2 in SI units: its spheres of radius 4 cm and unit mass.
constexpr std::array<ModelParameter, 3> kTwoDiskParameters = {
    ModelParameter{"radius", ParameterKind::part_numbers, "disk radii: one number, or two", "0.04",
                   &kLengthRange},
    {"mass", ParameterKind::part_numbers, "disk masses: one number, or two", "1", &kMassRange},
    {"gravity", ParameterKind::number, "gravity, pointing -y", "0", &kGravityRange},
};

std::unique_ptr<PlanarTree> build_ball(ParameterReader& parameters, const ModelOptions& options) {
  const double radius = parameters.number("radius");
  return make_ball(radius, parameters.number("mass"), options);
}

std::unique_ptr<PlanarTree> build_rod(ParameterReader& parameters, const ModelOptions& options) {
  const double length = parameters.number("length");
  return make_rod(length, parameters.number("mass"), options);
}

std::unique_ptr<PlanarTree> build_rocking_block(ParameterReader& parameters,
                                                const ModelOptions& options) {
  const double width = parameters.number("width");
  const double height = parameters.number("height");
  return make_rocking_block(width, height, parameters.number("mass"), options);
}

std::unique_ptr<PlanarTree> build_pendulum(ParameterReader& parameters,
                                           const ModelOptions& options) {
  const double length = parameters.number("length");
  const double mass = parameters.number("mass");
  const std::optional<ObstacleInput> obstacle = parameters.obstacle("obstacle");
  if (!obstacle) throw parameters.node("obstacle").error("a pendulum needs an obstacle");
  return make_pendulum(length, mass, obstacle->surface, options);
}

std::unique_ptr<PlanarTree> build_double_pendulum(ParameterReader& parameters,
                                                  const ModelOptions& options) {
  const std::vector<double> lengths = parameters.numbers("length", 2);
  const std::vector<double> masses = parameters.numbers("mass", 2);
  const HalfPlane floor = paper000_floor({lengths[0], lengths[1]});
  const std::optional<ObstacleInput> obstacle = parameters.obstacle(
      "obstacle", cat("{type: floor, position: ", number_node(floor.point_m.y()).Scalar(), "}"));
  if (!obstacle) throw parameters.node("obstacle").error("a double pendulum needs an obstacle");
  return make_double_pendulum({ChainLink{lengths[0], masses[0]}, ChainLink{lengths[1], masses[1]}},
                              obstacle->surface, options);
}

std::unique_ptr<PlanarTree> build_chain(ParameterReader& parameters, const ModelOptions& options) {
  const std::size_t count = parameters.count("links");
  const std::vector<double> lengths = parameters.numbers("length", count);
  const std::vector<double> masses = parameters.numbers("mass", count);
  const AngleReference angles = parameters.angles("angles");
  const std::optional<ObstacleInput> obstacle = parameters.obstacle("obstacle");
  std::vector<ChainLink> links;
  for (std::size_t i = 0; i < count; ++i) links.push_back({lengths[i], masses[i]});
  return make_chain(links, obstacle ? std::optional(obstacle->surface) : std::nullopt, angles,
                    options);
}

std::unique_ptr<PlanarTree> build_stacked_blocks(ParameterReader& parameters,
                                                 const ModelOptions& options) {
  const std::size_t count = parameters.count("blocks");
  const std::vector<double> widths = parameters.numbers("width", count);
  const std::vector<double> heights = parameters.numbers("height", count);
  const std::vector<double> masses = parameters.numbers("mass", count);
  const std::optional<ObstacleInput> obstacle = parameters.obstacle("obstacle");
  std::vector<std::string> taken;
  if (obstacle) taken.push_back(obstacle->type);  // the obstacle's name (make_stacked_blocks)
  const std::vector<std::string> names = parameters.names("names", count, "block", taken);
  std::vector<StackedBlock> blocks;
  for (std::size_t i = 0; i < count; ++i) {
    blocks.push_back({widths[i], heights[i], masses[i], names[i]});
  }
  return make_stacked_blocks(
      blocks, obstacle ? std::optional(Obstacle{obstacle->type, obstacle->surface}) : std::nullopt,
      options);
}

std::unique_ptr<PlanarTree> build_two_disks(ParameterReader& parameters,
                                            const ModelOptions& options) {
  const std::vector<double> radii = parameters.numbers("radius", 2);
  const std::vector<double> masses = parameters.numbers("mass", 2);
  return make_two_disks({SphereDisk{radii[0], masses[0]}, SphereDisk{radii[1], masses[1]}},
                        options);
}

constexpr std::array<NamedModel, 8> kNamedModels = {
    NamedModel{{"ball", "a uniform disk above the floor y >= 0", kBallParameters}, &build_ball},
    {{"rod", "a uniform thin rod above the floor y >= 0", kRodParameters}, &build_rod},
    {{"rocking_block", "a uniform rectangular block above the floor y >= 0", kBlockParameters},
     &build_rocking_block},
    {{"pendulum", "a uniform rod pivoting about the origin", kPendulumParameters}, &build_pendulum},
    {{"double_pendulum", "two uniform rods hanging from the origin (paper 000, example 1)",
      kDoublePendulumParameters},
     &build_double_pendulum},
    {{"chain", "uniform links hanging in series from the origin", kChainParameters}, &build_chain},
    {{"stacked_blocks", "uniform blocks resting on each other", kStackParameters},
     &build_stacked_blocks},
    {{"two_disks", "two free disks with a sphere's inertia (paper 000, example 2)",
      kTwoDiskParameters},
     &build_two_disks},
};

constexpr std::array<ModelPreset, kNamedModels.size()> kPresets = [] {
  std::array<ModelPreset, kNamedModels.size()> presets{};
  for (std::size_t i = 0; i < presets.size(); ++i) presets[i] = kNamedModels[i].preset;
  return presets;
}();

constexpr std::array<std::string_view, kNamedModels.size()> kPresetNames = [] {
  std::array<std::string_view, kNamedModels.size()> names{};
  for (std::size_t i = 0; i < names.size(); ++i) names[i] = kNamedModels[i].preset.name;
  return names;
}();

const NamedModel& chosen_model(const InputNode& type_node) {
  const std::string type = read_string(type_node);
  for (const NamedModel& candidate : kNamedModels) {
    if (candidate.preset.name == type) return candidate;
  }
  throw type_node.error(cat("unknown model type; did you mean '", closest_name(type, kPresetNames),
                            "'? (known: ", comma_list(kPresetNames),
                            "; or `bodies` for a multibody)"));
}

// A parameter of other named models given to `preset`: an error at the key naming the models that
// take it, rather than the nearest spelling among this model's keys (`obstacle` → `type`).
void check_other_models_keys(const InputNode& model, const ModelPreset& preset,
                             std::span<const std::string_view> keys) {
  for (const auto& entry : model.yaml()) {
    const std::string key = entry.first.Scalar();
    if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
    std::vector<std::string_view> takers;
    for (const ModelPreset& other : kPresets) {
      const auto takes = [&](const ModelParameter& parameter) { return parameter.name == key; };
      if (std::any_of(other.parameters.begin(), other.parameters.end(), takes)) {
        takers.push_back(other.name);
      }
    }
    if (takers.empty()) continue;
    const InputNode key_node(model.location().file, entry.first, model.path());
    throw InputError(key_node.location(),
                     cat(model.path(), ": type ", preset.name, " takes no '", key, "' (",
                         comma_list(takers), " do; `routh models` lists each type's keys)"));
  }
}

BuiltModel build_named_model(const InputNode& model, GroundAcceleration ground_acceleration,
                             std::span<const std::string> elsewhere) {
  const NamedModel& chosen = chosen_model(model.required("type"));
  std::vector<std::string_view> keys = {"type", "dimension"};  // dimension 2: the scenario's
  for (const ModelParameter& parameter : chosen.preset.parameters) keys.push_back(parameter.name);
  if (model.yaml().IsMap()) check_other_models_keys(model, chosen.preset, keys);
  check_keys(model, keys, elsewhere);
  BuiltModel built{nullptr, std::string(chosen.preset.name), YAML::Node(YAML::NodeType::Map), {}};
  built.effective["type"] = built.type;
  ParameterReader parameters(model, chosen.preset.parameters, built.effective);
  ModelOptions options;
  options.gravity_m_s2 = parameters.number("gravity");  // it points -y
  options.ground_acceleration = std::move(ground_acceleration);
  built.tree = chosen.build(parameters, options);
  return built;
}

}  // namespace

std::string_view to_string(ParameterKind kind) {
  switch (kind) {
    case ParameterKind::number: return "number";
    case ParameterKind::part_numbers: return "number or list";
    case ParameterKind::part_count: return "whole number";
    case ParameterKind::angle_reference: return "absolute | relative";
    case ParameterKind::obstacle: return "obstacle or none";
    case ParameterKind::part_names: return "list of names";
  }
  return "?";
}

std::array<std::string, 6> parameter_columns(const ModelParameter& parameter) {
  const NumberRange* range = parameter.range;
  return {std::string(parameter.name),
          std::string(to_string(parameter.kind)),
          range != nullptr && !range->unit.empty() ? std::string(range->unit) : "-",
          parameter.fallback.empty() ? "(computed)" : std::string(parameter.fallback),
          range != nullptr ? to_string(*range) : "-",
          std::string(parameter.meaning)};
}

std::span<const ModelPreset> model_presets() { return kPresets; }

BuiltModel build_model(const InputNode& model, GroundAcceleration ground_acceleration,
                       std::span<const std::string> elsewhere) {
  if (!model.yaml().IsMap()) {
    throw model.error("must be a map: a `type` and its parameters, or `bodies` (a multibody)");
  }
  const std::optional<InputNode> type = model.find("type");
  const std::optional<InputNode> bodies = model.find("bodies");
  if (type && bodies) {
    throw type->error("a model is a named `type` or `bodies`, not both: remove one");
  }
  try {
    if (bodies) {
      BuiltModel built{nullptr, "multibody", YAML::Node(YAML::NodeType::Map), {}};
      built.tree = build_multibody(model, std::move(ground_acceleration), built.effective,
                                   built.warnings, elsewhere);
      return built;
    }
    if (!type) {
      throw model.error(
          "missing required key 'type' (a named model; `routh models` lists them), "
          "or `bodies` (a multibody)");
    }
    return build_named_model(model, std::move(ground_acceleration), elsewhere);
  } catch (const std::invalid_argument& rejected) {
    throw model.error(rejected.what());
  }
}

BuiltModel build_default_model(const ModelPreset& preset) {
  const InputNode defaults("(defaults)", YAML::Load(cat("{type: ", preset.name, "}")), "model");
  return build_model(defaults, {});
}

}  // namespace routh
