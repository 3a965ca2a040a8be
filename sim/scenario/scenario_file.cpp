#include "sim/scenario/scenario_file.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>

#include "models/planar/initial_state.hpp"
#include "models/planar/model_description.hpp"
#include "models/planar/shape.hpp"
#include "sim/impact/law_catalogue.hpp"
#include "sim/scenario/contact_parameters_input.hpp"
#include "sim/scenario/excitation_input.hpp"
#include "sim/scenario/input_file.hpp"
#include "sim/scenario/model_factory.hpp"
#include "sim/scenario/model_input.hpp"
#include "sim/scenario/multibody_input.hpp"
#include "sim/scenario/spatial_input.hpp"
#include "sim/scenario/yaml_input.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

constexpr std::array<std::string_view, 10> kScenarioKeys = {
    "name",    "description", "duration", "model",  "initial",
    "contact", "integrator",  "events",   "output", "excitation"};
constexpr std::array<std::string_view, 2> kInitialKeys = {"q", "v"};
constexpr std::array<std::string_view, 6> kContactKeys = {
    "law", "multi_contact_law", "restitution", "friction", "contacts", "description"};
constexpr std::array<std::string_view, 2> kPerContactKeys = {"restitution", "friction"};
constexpr std::array<std::string_view, 4> kIntegratorKeys = {"stepper", "relative_tolerance",
                                                             "absolute_tolerance", "max_step"};
constexpr std::array<std::string_view, 4> kEventKeys = {"time_tolerance", "rest_speed",
                                                        "contact_distance", "stop_on"};
// The outcome events a run can be asked to end at.
constexpr std::array<std::string_view, 2> kStopEvents = {"overturn", "uplift"};
constexpr std::array<std::string_view, 4> kOutputKeys = {"file", "rate", "max_file_size",
                                                         "flush_interval"};

constexpr std::array<ScenarioKeyTable, 7> kScenarioKeyTables = {{
    {"", "the scenario: a name, its duration [s], and the maps below", kScenarioKeys},
    {"initial", "the initial state, by coordinate name or as a list in coordinate order",
     kInitialKeys},
    {"contact", "the impact laws and every contact's restitution and friction", kContactKeys},
    {"contact.contacts.NAME", "one contact's own restitution and friction", kPerContactKeys},
    {"integrator",
     "the smooth phase's integrator (dopri5, or dop853 for long steps at tight tolerances) and its "
     "tolerances",
     kIntegratorKeys},
    {"events", "how events are isolated, when contacts rest, and what ends the run early",
     kEventKeys},
    {"output", "the trajectory file, its sample rate, size bound and flush cadence", kOutputKeys},
}};

constexpr std::string_view kDefaultMultiContactLaw = "multipoint_energetic";
// Spatial contacts have two tangential directions: Routh's sliding ODE follows a single impact's
// slip as it turns, and the LCP takes any number of contacts at once (`routh laws`).
constexpr std::string_view kDefaultSpatialLaw = "sliding_ode";
constexpr std::string_view kDefaultSpatialMultiContactLaw = "lcp";

// --- ranges (documented in scenario_file.hpp) ------------------------------------------------
// Settings outside these cannot give a trustworthy run, and some froze the program before they
// were checked.

// Up to about four months of simulated time: far beyond any impact study, and time keeps a
// resolution below a nanosecond (1e7 s has an ulp of 2e-9 s).
constexpr NumberRange kDurationRange{0.0, 1e7, "s", true};
// An event is placed at the end of its isolating bracket, up to time_tolerance past the true
// crossing, where an approaching contact has already moved |u_n| · time_tolerance into its
// obstacle; the simulator counts gaps down to −contact_distance as touching, so that product
// must stay well below contact_distance (the defaults: 1e-12 s × 1000 m/s = 1e-9 m). At 1e-3 s
// the overshoot is millimetres, each restart found the same crossing again and the run wrote
// duplicate samples forever. 1e-6 s (and a millionth of the duration) is the loosest bound that
// still resolves impacts of slow bodies; below 1e-15 s the bracket is finer than double
// precision resolves times of a few seconds (the solver then stops at its iteration cap).
constexpr NumberRange kTimeToleranceRange{1e-15, 1e-6, "s"};
constexpr double kMaxTimeTolerancePerDuration = 1e-6;
// The distance at which a contact counts as touching must exceed the round-off of the gap
// (about 1e-16 of the model's size), or a contact at rest flickers between touching and not and
// the loop livelocks (0 did); above a millimetre it would close contacts that visibly are not.
constexpr NumberRange kContactDistanceRange{1e-12, 1e-3, "m"};
// Impacts slower than rest_speed close the contact: above 1 m/s visible bounces would be
// suppressed; below 1e-12 m/s round-off decides whether a resting contact is approaching.
constexpr NumberRange kRestSpeedRange{1e-12, 1.0, "m/s"};
// dopri5's error control: below 1e-14 the tolerance is under the round-off of one step and the
// step size collapses; above 1e-3 the event isolation works on a trajectory too coarse to trust.
constexpr NumberRange kRelativeToleranceRange{1e-14, 1e-3, ""};
constexpr NumberRange kAbsoluteToleranceRange{1e-16, 1e-3, ""};
// The step bound forces at least duration / max_step steps; more than 1e7 of them is a setting
// that would run for hours, not a choice of accuracy.
constexpr NumberRange kMaxStepRange{0.0, 1e3, "s", true};
constexpr double kMaxForcedSteps = 1e7;
constexpr NumberRange kOutputRateRange{0.0, 1e9, "Hz", true};
// [s] of wall-clock time between flushes of the trajectory file: 0 flushes at every sample and
// event (slow: each flush rewrites HDF5's metadata); a day bounds what a SIGKILL can lose.
constexpr NumberRange kFlushIntervalRange{0.0, 86400.0, "s", false};
// The default bound on the trajectory file: a run whose regular samples alone would exceed it
// is refused before it starts (output.rate = 1e12 was accepted and filled the disk).
constexpr double kDefaultMaxFileBytes = 1024.0 * 1024.0 * 1024.0;
// Numbers per regular sample besides q and v: the time and three energies.
constexpr int kSampleNumbersBesideState = 4;

// --- overrides -----------------------------------------------------------------------------
// Nodes an override creates are parsed from text padded with newlines, so that their marks sit
// on lines past the end of the file, one line per override: an error located there is the
// override's, whatever the reading code that raised it.

struct Override {
  std::string text;   // "key.path=value", as given
  std::string path;   // "key.path"
  std::string value;  // "value"
};

InputError override_error(const std::string& text, std::string_view message) {
  return {{cat("--set ", text), 0, 0}, std::string(message)};
}

Override split_override(const std::string& text) {
  if (first_invalid_utf8(text)) {
    throw override_error(text, "is not UTF-8 text: scenario values and names must be UTF-8");
  }
  const std::size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0) {
    throw override_error(text, "expected key.path=value, e.g. contact.restitution=0.5");
  }
  return {text, text.substr(0, equals), text.substr(equals + 1)};
}

// The value (or key) of an override, parsed as if it stood on line `line0` + 1 of the scenario
// file, so that a reader's error there names the override. A key given twice in a map of the
// value would be as silently ignored as in a file.
YAML::Node parse_at_line(const std::string& text, int line0, const std::string& override_text) {
  YAML::Node node;
  try {
    node = YAML::Load(std::string(static_cast<std::size_t>(line0), '\n') + text);
  } catch (const YAML::ParserException& parse_error) {
    throw override_error(override_text, cat("YAML syntax in the value: ", parse_error.msg));
  }
  try {
    check_unique_keys(InputNode("", YAML::Load(text), ""));  // lines counted within the value
  } catch (const InputError& duplicate) {
    throw override_error(override_text, cat("in the value: ", duplicate.message()));
  }
  return node;
}

std::optional<std::size_t> list_index(const std::string& segment) {
  std::size_t index = 0;
  const auto parsed = std::from_chars(segment.data(), segment.data() + segment.size(), index);
  if (parsed.ec != std::errc() || parsed.ptr != segment.data() + segment.size()) {
    return std::nullopt;
  }
  return index;
}

// A map's keys may hold dots themselves: the coordinates of a multibody or a 3D model
// (`initial.q.c0.x`, `initial.v.b2.theta`). From segments[i] on, the longest run of segments that
// names a key of `map` joined with dots is one segment; so is the whole rest of the path, when no
// key matches and `map` is a map of dotted names (the key is then created). The run is joined
// into segments[i].
void join_dotted_key(const YAML::Node& map, std::vector<std::string>& segments, std::size_t i) {
  const auto is_key = [&](const std::string& name) { return map[name].IsDefined(); };
  std::string joined = segments[i];
  std::size_t matched = i;
  for (std::size_t j = i + 1; j < segments.size(); ++j) {
    joined += "." + segments[j];
    if (is_key(joined)) matched = j;
  }
  if (matched == i && !is_key(segments[i])) {
    const bool dotted_names = std::any_of(map.begin(), map.end(), [](const auto& member) {
      return member.first.IsScalar() && member.first.Scalar().find('.') != std::string::npos;
    });
    if (dotted_names) matched = segments.size() - 1;
  }
  for (std::size_t j = i + 1; j <= matched; ++j) segments[i] += "." + segments[j];
  segments.erase(segments.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                 segments.begin() + static_cast<std::ptrdiff_t>(matched) + 1);
}

void apply_override(YAML::Node root, const Override& item, int line0) {
  std::vector<std::string> segments;
  for (std::size_t start = 0;;) {
    const std::size_t dot = item.path.find('.', start);
    segments.push_back(item.path.substr(start, dot - start));
    if (segments.back().empty()) throw override_error(item.text, "empty key in the path");
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  const YAML::Node value = parse_at_line(item.value, line0, item.text);
  YAML::Node node = root;
  std::string walked;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    if (node.IsMap()) join_dotted_key(node, segments, i);
    const std::string& segment = segments[i];
    const bool last = i + 1 == segments.size();
    if (node.IsSequence()) {
      const std::optional<std::size_t> index = list_index(segment);
      if (!index || *index >= node.size()) {
        throw override_error(item.text, cat("'", walked, "' is a list of ", node.size(),
                                            " entries: '", segment, "' is not an index of it"));
      }
      if (last) {
        node[*index] = value;
        return;
      }
      node.reset(node[*index]);  // rebinds; `=` would overwrite the parent
    } else if (node.IsMap()) {
      const YAML::Node& existing = node;
      const bool present = existing[segment].IsDefined();
      if (last || !present) {
        if (present) node.remove(segment);
        const YAML::Node key = parse_at_line(segment, line0, item.text);
        if (!key.IsScalar()) throw override_error(item.text, cat("bad key '", segment, "'"));
        node.force_insert(key, last ? value : parse_at_line("{}", line0, item.text));
        if (last) return;
      }
      node.reset(node[segment]);
    } else {
      throw override_error(item.text, cat("'", walked.empty() ? "the scenario" : walked,
                                          "' is not a map: it cannot hold '", segment, "'"));
    }
    walked += cat(walked.empty() ? "" : ".", segment);
  }
}

// A warning located on an override's line ("FILE:LINE:COLUMN: warning: ...", the line past the
// file's end where the override's nodes were parsed) is the override's: it is rewritten to
// "--set key.path=value: warning: ...", as an error there is.
void name_override(std::string& warning, const std::string& file, int first_override_line,
                   std::span<const Override> items) {
  const std::string prefix = cat(file, ":");
  if (!warning.starts_with(prefix)) return;
  int line = 0;
  const char* start = warning.data() + prefix.size();
  const auto parsed = std::from_chars(start, warning.data() + warning.size(), line);
  const std::size_t message = warning.find(": warning: ");
  const int index = line - first_override_line;
  if (parsed.ec != std::errc() || message == std::string::npos || index < 0 ||
      index >= static_cast<int>(items.size())) {
    return;
  }
  warning = cat("--set ", items[static_cast<std::size_t>(index)].text, warning.substr(message));
}

int line_count(std::string_view text) {
  return 1 + static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

// --- values --------------------------------------------------------------------------------

// "1073741824", "4 GiB", "500 MB": a size in bytes, with an optional decimal or binary unit.
double read_byte_size(const InputNode& node) {
  struct Unit {
    std::string_view name;
    double bytes;
  };
  constexpr std::array<Unit, 9> kUnits = {
      Unit{"B", 1.0},     {"kB", 1e3},           {"MB", 1e6},
      {"GB", 1e9},        {"TB", 1e12},          {"KiB", 1024.0},
      {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"TiB", 1099511627776.0}};
  constexpr std::string_view kExpected =
      "must be a size > 0 in bytes, or a number with a unit (B, kB, MB, GB, TB, KiB, MiB, GiB, "
      "TiB), e.g. '4 GiB'";
  double value = 0.0;
  if (node.yaml().IsScalar() && YAML::convert<double>::decode(node.yaml(), value)) {
    if (!(value > 0.0) || !std::isfinite(value)) throw node.error(kExpected);
    return value;
  }
  const std::string text = node.yaml().IsScalar() ? node.yaml().Scalar() : std::string();
  for (const Unit& unit : kUnits) {
    if (!std::string_view(text).ends_with(unit.name)) continue;
    std::string_view number(text.data(), text.size() - unit.name.size());
    while (!number.empty() && number.back() == ' ') number.remove_suffix(1);
    const auto parsed = std::from_chars(number.data(), number.data() + number.size(), value);
    if (parsed.ec == std::errc() && parsed.ptr == number.data() + number.size() && value > 0.0 &&
        std::isfinite(value * unit.bytes)) {
      return value * unit.bytes;
    }
  }
  throw node.error(kExpected);
}

// "56.8 TiB": a size for a message, in the largest binary unit that keeps a number >= 1.
std::string describe_bytes(double bytes) {
  constexpr std::array<std::string_view, 6> kBinaryUnits = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  std::size_t unit = 0;
  while (unit + 1 < kBinaryUnits.size() && bytes >= 1024.0) {
    bytes /= 1024.0;
    ++unit;
  }
  char number[32];
  std::snprintf(number, sizeof number, "%.3g", bytes);
  return cat(number, " ", kBinaryUnits[unit]);
}

// A law outside the scope of the model's contacts answers unsupported to every impact, and the
// simulator then solves each one with its fallback law (impact_step.cpp): the run completed
// with a law other than the one named. `several_contacts`: the law for simultaneous impacts.
void check_law_scope(const InputNode& node, const LawEntry& law, ContactDimension dimension,
                     bool several_contacts) {
  const int impact_contacts = several_contacts ? 2 : 1;
  if (covers(law.scope, dimension, impact_contacts)) return;
  std::string fitting;
  for (const LawEntry& other : impact_laws()) {
    if (!covers(other.scope, dimension, impact_contacts)) continue;
    fitting += cat(fitting.empty() ? "" : ", ", other.name);
  }
  const std::string_view contacts = dimension == ContactDimension::planar ? "planar" : "spatial";
  throw node.error(cat("this law takes ", to_string(law.scope), "; ",
                       several_contacts ? "simultaneous impacts at several " : "the model's ",
                       contacts, " contacts need one of: ", fitting,
                       several_contacts ? " (or none)" : ""));
}

// A rocking calibration takes in the resting contacts of every impact it answers (impact_step.hpp),
// so a rocking block's landing, which starts at one corner, reaches the multi-contact law with
// both: the two laws must be the same calibration. `multi` is the multi_contact_law node, if any.
void check_rocking_calibration(const LawEntry& law, const std::optional<InputNode>& multi,
                               const std::string& multi_contact_law) {
  const LawEntry* multi_law = find_law(multi_contact_law);
  const bool multi_calibrates = multi_law != nullptr && multi_law->scope.rocking_calibration;
  if (!law.scope.rocking_calibration && !multi_calibrates) return;
  if (multi_law == &law) return;
  throw multi->error(
      cat("the rocking calibrations answer every impact of a run: name the same one "
          "as law and multi_contact_law (law is '",
          law.name, "'; leave multi_contact_law out to use it for both)"));
}

YAML::Node friction_node(const ContactParameters& contact) {
  YAML::Node node;
  node["static"] = number_node(contact.static_friction);
  node["kinetic"] = number_node(contact.kinetic_friction);
  return node;
}

// Every key path of a scenario's maps, section by section ("contact.restitution", "model.width",
// "excitation.harmonic.amplitude"), for the suggestion that finds a key in the wrong map.
std::vector<std::string> scenario_key_paths() {
  std::vector<std::string> paths;
  const auto add = [&](std::string path) {
    if (std::find(paths.begin(), paths.end(), path) == paths.end())
      paths.push_back(std::move(path));
  };
  for (const ScenarioKeyTable& table : kScenarioKeyTables) {
    for (const std::string_view key : table.keys) {
      add(table.map.empty() ? std::string(key) : cat(table.map, ".", key));
    }
  }
  add("model.type");
  for (const ModelPreset& preset : model_presets()) {
    for (const ModelParameter& parameter : preset.parameters) add(cat("model.", parameter.name));
  }
  for (const std::string_view key : multibody_model_keys()) add(cat("model.", key));
  for (std::string& path : excitation_key_paths()) add(std::move(path));
  return paths;
}

// --- sections ------------------------------------------------------------------------------

struct Reader {
  Scenario& scenario;
  YAML::Node effective;

  void read(const InputNode& root, const std::string& default_name,
            const std::filesystem::path& directory);
  void read_excitation(const std::optional<InputNode>& node,
                       const std::filesystem::path& scenario_directory);
  void read_model(const InputNode& node);
  void read_spatial(const InputNode& model, const InputNode& initial);
  void read_initial(const InputNode& node);
  PartialState read_partial(const InputNode& node, bool velocity);
  void check_block_tilt(const InputNode& node, std::size_t coordinate, double angle_rad);
  InputNode contact_section(const InputNode& root) const;
  void read_contact(const InputNode& node);
  void read_integrator(const std::optional<InputNode>& node);
  void read_events(const std::optional<InputNode>& node);
  void read_stop_on(const InputNode& node);
  void read_output(const std::optional<InputNode>& node);
  void check_file_size(const std::optional<InputNode>& rate, double max_file_bytes) const;
  void check_initial_overlap(const InputNode& initial) const;
  InputNode body_start(const InputNode& initial, int body) const;

  std::optional<InputNode> duration;   ///< where the duration was given, for errors that involve it
  std::vector<std::string> key_paths;  ///< scenario_key_paths(), for check_keys' suggestions
};

// The record files an effective `excitation` reads (their paths are absolute there): one signal
// is a map, several a list.
std::vector<std::filesystem::path> record_files(const YAML::Node& excitation) {
  std::vector<std::filesystem::path> files;
  const auto add = [&](const YAML::Node& signal) {
    if (signal.IsMap() && signal["record"]) {
      files.emplace_back(signal["record"]["file"].as<std::string>());
    }
  };
  if (excitation.IsSequence()) {
    for (const YAML::Node& signal : excitation) add(signal);
  } else {
    add(excitation);
  }
  return files;
}

void Reader::read_excitation(const std::optional<InputNode>& node,
                             const std::filesystem::path& scenario_directory) {
  if (!node || (node->yaml().IsScalar() && node->yaml().Scalar() == "none")) {
    effective["excitation"] = "none";
    return;
  }
  YAML::Node described;
  auto excitation = std::make_shared<const Excitation>(
      routh::read_excitation(*node, scenario_directory, scenario.dimension, described));
  effective["excitation"] = described;
  scenario.record_files = record_files(described);
  scenario.excitation = excitation;
  scenario.settings.next_breakpoint = [excitation](double t) {
    return next_breakpoint(*excitation, t);
  };
}

// A planar model: a named one or a multibody, which takes the excitation's x and y.
void Reader::read_model(const InputNode& node) {
  GroundAcceleration ground;
  if (scenario.excitation) {
    ground = [excitation = scenario.excitation](double t) {
      return Eigen::Vector2d(ground_acceleration(*excitation, t).head<2>());
    };
  }
  BuiltModel built = build_model(node, std::move(ground), key_paths);
  scenario.planar = built.tree.get();
  scenario.model_json = model_description_json(*built.tree);
  scenario.model = std::move(built.tree);
  scenario.model_type = built.type;
  effective["model"] = built.effective;
  scenario.warnings.insert(scenario.warnings.end(), built.warnings.begin(), built.warnings.end());
}

// Free rigid bodies in space and their initial state. The one place that builds the model.
void Reader::read_spatial(const InputNode& model, const InputNode& initial) {
  SpatialModelInput input = read_spatial_model(model);
  if (scenario.excitation) {
    input.description.ground_acceleration = [excitation = scenario.excitation](double t) {
      return ground_acceleration(*excitation, t);
    };
  }
  std::unique_ptr<SpatialBodies> bodies;
  try {
    bodies = std::make_unique<SpatialBodies>(std::move(input.description));
  } catch (const std::invalid_argument& rejected) {
    throw model.error(rejected.what());
  }
  effective["model"] = input.effective;
  SpatialInitialInput state = read_spatial_initial(initial, bodies->description());
  scenario.initial.t = 0.0;
  scenario.initial.q = std::move(state.q);
  scenario.initial.v = std::move(state.v);
  effective["initial"] = state.effective;
  scenario.warnings.insert(scenario.warnings.end(), state.warnings.begin(), state.warnings.end());
  scenario.model_json = spatial_model_description_json(*bodies);
  scenario.settings.overturn_watch = overturn_watch(*bodies, scenario.initial.q);
  scenario.model = std::move(bodies);
  scenario.model_type = "spatial";
}

// A block's initial tilt beyond a quarter turn, written as a bare number: read in radians, where
// degrees were probably meant. The blocks are the free bodies on the ground shaped as polygons
// with an inside (rectangles, polygons): a disk rolls and a rod turns freely, at any angle.
void Reader::check_block_tilt(const InputNode& node, std::size_t coordinate, double angle_rad) {
  if (!(std::abs(angle_rad) > kBlockTiltLimit_rad)) return;
  const PlanarTree& tree = *scenario.planar;
  for (int b = 0; b < tree.body_count(); ++b) {
    const PlanarJoint& joint = tree.description().joints[static_cast<std::size_t>(b)];
    const std::vector<std::optional<Shape>>& shapes = tree.description().shapes;
    const auto* polygon = shapes.empty() || !shapes[static_cast<std::size_t>(b)]
                              ? nullptr
                              : std::get_if<PolygonShape>(&*shapes[static_cast<std::size_t>(b)]);
    const int angle = tree.first_coordinate(b) + 2;  // a free joint's x, y, θ
    if (joint.type != JointType::free || joint.parent != kGround || polygon == nullptr ||
        polygon->vertices_m.size() < 3 || angle != static_cast<int>(coordinate)) {
      continue;
    }
    const std::string& body = tree.description().body_names[static_cast<std::size_t>(b)];
    if (auto warning = tilt_in_degrees_warning(node, angle_rad, body)) {
      scenario.warnings.push_back(*std::move(warning));
    }
  }
}

PartialState Reader::read_partial(const InputNode& node, bool velocity) {
  const std::vector<std::string>& names = scenario.model->coordinate_names();
  const std::vector<std::string>& units = scenario.model->coordinate_units();
  PartialState given;
  if (node.yaml().IsNull()) return given;
  if (node.yaml().IsSequence()) {
    const std::vector<InputNode> items = node.items();
    if (items.size() != names.size()) {
      throw node.error(cat("has ", items.size(), " entries for ", names.size(), " coordinates (",
                           comma_list(names),
                           "): give them all in order, or a map of some by name"));
    }
    for (std::size_t i = 0; i < names.size(); ++i) {
      given[names[i]] = read_initial_value(items[i], units[i] == "rad", velocity);
      if (!velocity) check_block_tilt(items[i], i, given[names[i]]);
    }
    return given;
  }
  if (!node.yaml().IsMap())
    throw node.error("must be a map of coordinate name -> value, or a list");
  for (const auto& entry : node.yaml()) {
    const std::string name = entry.first.Scalar();
    std::size_t i = 0;
    while (i < names.size() && names[i] != name) ++i;
    if (i == names.size()) {
      const InputNode key(node.location().file, entry.first, node.path());
      throw InputError(key.location(),
                       cat(node.path(), ": unknown coordinate '", name, "'; did you mean '",
                           closest_name(name, names), "'? (", scenario.model_type,
                           " coordinates: ", comma_list(names), ")"));
    }
    const InputNode value = *node.find(name);
    given[name] = read_initial_value(value, units[i] == "rad", velocity);
    if (!velocity) check_block_tilt(value, i, given[name]);
  }
  return given;
}

void Reader::read_initial(const InputNode& node) {
  check_keys(node, kInitialKeys, key_paths);
  PartialState q_given, v_given;
  if (auto q = node.find("q")) q_given = read_partial(*q, false);
  if (auto v = node.find("v")) v_given = read_partial(*v, true);
  PlanarState state;
  try {
    state = complete_initial_state(*scenario.planar, q_given, v_given);
  } catch (const std::invalid_argument& rejected) {
    throw node.error(rejected.what());
  }
  scenario.initial.t = 0.0;
  scenario.initial.q = state.q;
  scenario.initial.v = state.v;
  const std::vector<std::string>& names = scenario.model->coordinate_names();
  YAML::Node q, v;
  for (std::size_t i = 0; i < names.size(); ++i) {
    q[names[i]] = number_node(state.q[static_cast<Eigen::Index>(i)]);
    v[names[i]] = number_node(state.v[static_cast<Eigen::Index>(i)]);
  }
  effective["initial"]["q"] = q;
  effective["initial"]["v"] = v;
}

// The `contact` section. Free bodies in space that touch nothing (no obstacle, no body that can
// touch another) may leave it out: it then reads as plastic and frictionless, which no impact uses.
InputNode Reader::contact_section(const InputNode& root) const {
  if (root.find("contact") || scenario.dimension != 3 || !scenario.model->contact_names().empty()) {
    return root.required("contact");
  }
  YAML::Node untouched;
  untouched["restitution"] = 0.0;
  untouched["friction"] = 0.0;
  return InputNode(root.location().file, untouched, "contact");
}

void Reader::read_contact(const InputNode& node) {
  check_keys(node, kContactKeys, key_paths);
  const ContactDimension dimension = scenario.model->contact_dimension();
  const bool spatial = dimension == ContactDimension::spatial;
  const std::optional<InputNode> law_node =
      spatial ? node.find("law") : std::optional(node.required("law"));
  scenario.law = law_node ? read_string(*law_node) : std::string(kDefaultSpatialLaw);
  const LawEntry* law = find_law(scenario.law);
  if (law == nullptr) throw InputError(law_node->location(), unknown_law_message(scenario.law));
  if (law_node) check_law_scope(*law_node, *law, dimension, false);
  scenario.settings.law = law->solve;

  // a rocking calibration answers every impact (rocking.hpp): it is its own multi-contact law
  const std::string_view default_multi = law->scope.rocking_calibration ? law->name
                                         : spatial ? kDefaultSpatialMultiContactLaw
                                                   : kDefaultMultiContactLaw;
  scenario.multi_contact_law =
      find_law(default_multi) != nullptr ? std::string(default_multi) : "none";
  const std::optional<InputNode> multi = node.find("multi_contact_law");
  if (multi) scenario.multi_contact_law = read_string(*multi);
  scenario.settings.multi_contact_law = nullptr;
  if (scenario.multi_contact_law != "none") {
    const LawEntry* entry = find_law(scenario.multi_contact_law);
    if (entry == nullptr) {
      throw InputError(multi->location(),
                       cat(unknown_law_message(scenario.multi_contact_law), " (or none)"));
    }
    if (multi) check_law_scope(*multi, *entry, dimension, true);
    scenario.settings.multi_contact_law = entry->solve;
  }
  check_rocking_calibration(*law, multi, scenario.multi_contact_law);

  ContactParameters defaults;
  defaults.restitution = read_restitution(node.required("restitution"));
  read_friction(node.required("friction"), defaults, scenario.warnings);

  const std::vector<std::string>& names = scenario.model->contact_names();
  ContactParameterTable contacts(names.size(), defaults);
  if (auto per_contact = node.find("contacts")) {
    std::vector<std::pair<std::size_t, InputNode>> entries;
    if (per_contact->yaml().IsSequence()) {
      const std::vector<InputNode> items = per_contact->items();
      if (items.size() != names.size()) {
        throw per_contact->error(cat("has ", items.size(), " entries for ", names.size(),
                                     " contacts: give one per contact, or a map by name"));
      }
      for (std::size_t k = 0; k < items.size(); ++k) entries.emplace_back(k, items[k]);
    } else {
      // one pass over the map through an index of the names, not a search of the map per name: a
      // stack's contacts grow with the square of its blocks, and an effective scenario lists all
      std::unordered_map<std::string_view, std::size_t> index;
      for (std::size_t k = 0; k < names.size(); ++k) index.emplace(names[k], k);
      check_keys(*per_contact, std::vector<std::string_view>(names.begin(), names.end()));
      for (auto& [name, entry] : per_contact->entries()) {
        entries.emplace_back(index.at(name), std::move(entry));
      }
    }
    for (const auto& [k, entry] : entries) {
      check_keys(entry, kPerContactKeys, key_paths);
      if (auto e = entry.find("restitution")) contacts[k].restitution = read_restitution(*e);
      if (auto mu = entry.find("friction")) read_friction(*mu, contacts[k], scenario.warnings);
    }
  }
  scenario.settings.contacts = contacts;

  YAML::Node described;
  described["law"] = scenario.law;
  described["multi_contact_law"] = scenario.multi_contact_law;
  described["restitution"] = number_node(defaults.restitution);
  described["friction"] = friction_node(defaults);
  // appended, not looked up: operator[] on a yaml-cpp map searches it linearly, quadratic in a
  // stack's thousands of contacts
  YAML::Node described_contacts(YAML::NodeType::Map);
  for (std::size_t k = 0; k < names.size(); ++k) {
    YAML::Node parameters;
    parameters["restitution"] = number_node(contacts[k].restitution);
    parameters["friction"] = friction_node(contacts[k]);
    described_contacts.force_insert(names[k], parameters);
  }
  if (!names.empty()) described["contacts"] = described_contacts;
  effective["contact"] = described;
}

void Reader::read_integrator(const std::optional<InputNode>& node) {
  SimulationSettings& settings = scenario.settings;
  if (node) {
    check_keys(*node, kIntegratorKeys, key_paths);
    if (auto stepper = node->find("stepper")) {
      const std::string name = read_string(*stepper);
      if (name != "dopri5" && name != "dop853") {
        throw stepper->error(
            "must be dopri5 (Odeint's controlled dense-output Runge-Kutta-Dormand-Prince 5(4)) "
            "or dop853 (Dormand-Prince 8(5,3))");
      }
      settings.stepper = name == "dop853" ? IntegratorStepper::dop853 : IntegratorStepper::dopri5;
    }
    if (auto rtol = node->find("relative_tolerance")) {
      settings.relative_tolerance = read_number_in(*rtol, kRelativeToleranceRange);
    }
    if (auto atol = node->find("absolute_tolerance")) {
      settings.absolute_tolerance = read_number_in(*atol, kAbsoluteToleranceRange);
    }
    if (auto step = node->find("max_step")) {
      settings.max_step = read_number_in(*step, kMaxStepRange);
      if (settings.duration / settings.max_step > kMaxForcedSteps) {
        throw step->error(cat("forces ", settings.duration / settings.max_step,
                              " steps over the duration ", settings.duration,
                              " s: must be at least duration / ", kMaxForcedSteps, " = ",
                              settings.duration / kMaxForcedSteps, " s"));
      }
    }
  }
  YAML::Node described;
  described["stepper"] = settings.stepper == IntegratorStepper::dop853 ? "dop853" : "dopri5";
  described["relative_tolerance"] = number_node(settings.relative_tolerance);
  described["absolute_tolerance"] = number_node(settings.absolute_tolerance);
  described["max_step"] = number_node(settings.max_step);
  effective["integrator"] = described;
}

void Reader::read_events(const std::optional<InputNode>& node) {
  SimulationSettings& settings = scenario.settings;
  if (node) {
    check_keys(*node, kEventKeys, key_paths);
    if (auto tolerance = node->find("time_tolerance")) {
      settings.time_tolerance = read_number_in(*tolerance, kTimeToleranceRange);
      const double bound = kMaxTimeTolerancePerDuration * settings.duration;
      if (settings.time_tolerance > bound) {
        throw tolerance->error(cat("must be at most ", kMaxTimeTolerancePerDuration,
                                   " of the duration, ", bound, " s"));
      }
    }
    if (auto speed = node->find("rest_speed")) {
      settings.rest_speed = read_number_in(*speed, kRestSpeedRange);
    }
    if (auto distance = node->find("contact_distance")) {
      settings.contact_distance = read_number_in(*distance, kContactDistanceRange);
    }
    if (auto stop_on = node->find("stop_on")) read_stop_on(*stop_on);
  }
  YAML::Node described;
  described["time_tolerance"] = number_node(settings.time_tolerance);
  described["rest_speed"] = number_node(settings.rest_speed);
  described["contact_distance"] = number_node(settings.contact_distance);
  YAML::Node stop_on(YAML::NodeType::Sequence);
  for (const EventKind kind : settings.stop_on) stop_on.push_back(std::string(to_string(kind)));
  described["stop_on"] = stop_on;
  described["stop_on"].SetStyle(YAML::EmitterStyle::Flow);
  effective["events"] = described;
}

// `stop_on: [overturn, uplift]`: the outcome events that end the run.
void Reader::read_stop_on(const InputNode& node) {
  if (!node.yaml().IsSequence()) throw node.error("must be a list of events, e.g. [overturn]");
  for (const InputNode& item : node.items()) {
    const std::string name = read_string(item);
    if (std::find(kStopEvents.begin(), kStopEvents.end(), name) == kStopEvents.end()) {
      throw item.error(cat("a run can stop on overturn or uplift; did you mean '",
                           closest_name(name, kStopEvents), "'?"));
    }
    const EventKind kind = *event_kind_from_string(name);
    if (std::find(scenario.settings.stop_on.begin(), scenario.settings.stop_on.end(), kind) ==
        scenario.settings.stop_on.end()) {
      scenario.settings.stop_on.push_back(kind);
    }
  }
}

void Reader::read_output(const std::optional<InputNode>& node) {
  scenario.output_file = file_name_safe(scenario.name) + ".h5";
  double max_file_bytes = kDefaultMaxFileBytes;
  if (node) {
    check_keys(*node, kOutputKeys, key_paths);
    if (auto file = node->find("file")) {
      const std::string text = read_string(*file);
      if (text.empty()) throw file->error("must not be empty");
      scenario.output_file = text;
    }
    if (auto rate = node->find("rate")) {
      scenario.settings.output_rate = read_number_in(*rate, kOutputRateRange);
    }
    if (auto size = node->find("max_file_size")) max_file_bytes = read_byte_size(*size);
    if (auto interval = node->find("flush_interval")) {
      scenario.output_flush_interval = read_number_in(*interval, kFlushIntervalRange);
    }
  }
  check_file_size(node ? node->find("rate") : std::nullopt, max_file_bytes);
  YAML::Node described;
  described["file"] = scenario.output_file.string();
  described["rate"] = number_node(scenario.settings.output_rate);
  described["max_file_size"] = number_node(max_file_bytes);
  described["flush_interval"] = number_node(scenario.output_flush_interval);
  effective["output"] = described;
}

// The regular samples alone must fit in max_file_bytes (events and HDF5's own overhead, usually
// far smaller, come on top). The error points at output.rate, or at the duration without one.
void Reader::check_file_size(const std::optional<InputNode>& rate, double max_file_bytes) const {
  const SimulationSettings& settings = scenario.settings;
  const double samples = std::floor(settings.duration * settings.output_rate) + 1.0;
  const double numbers_per_sample =
      static_cast<double>(scenario.model->coordinate_count() + scenario.model->velocity_count()) +
      kSampleNumbersBesideState;
  const double bytes = samples * numbers_per_sample * sizeof(double);
  if (bytes <= max_file_bytes) return;
  const InputNode& where = rate ? *rate : *duration;
  throw where.error(cat("the trajectory would hold ", samples, " samples (duration * rate + 1) of ",
                        numbers_per_sample, " numbers, about ", describe_bytes(bytes),
                        ", above output.max_file_size = ", describe_bytes(max_file_bytes),
                        ": lower output.rate or the duration, or raise output.max_file_size "
                        "(e.g. 'max_file_size: 4 GiB')"));
}

// Where planar body `body`'s start is written: the first of its coordinates given in initial.q,
// else initial.q, else `initial`.
InputNode Reader::body_start(const InputNode& initial, int body) const {
  const std::optional<InputNode> q = initial.find("q");
  if (!q || body < 0) return q ? *q : initial;
  const PlanarTree& tree = *scenario.planar;
  const int first = tree.first_coordinate(body);
  const int count = tree.description().joints[static_cast<std::size_t>(body)].dof_count();
  if (q->yaml().IsSequence()) return count > 0 ? q->items()[static_cast<std::size_t>(first)] : *q;
  for (int i = first; i < first + count; ++i) {
    const std::string& name = tree.coordinate_names()[static_cast<std::size_t>(i)];
    if (std::optional<InputNode> given = q->find(name)) return *given;
  }
  return *q;
}

// A start inside an obstacle or another body is an input error, not a simulation: the contacts
// and the overlap guard (run_guards.hpp) take the bodies to start apart. Measured on the shapes
// (body_overlap.hpp), which see a body wholly inside another where no contact does, then on the
// contacts that exist there (a point or circle contact without a shape; a corner far behind another
// body's edge touches nothing), both beyond the contact distance.
void Reader::check_initial_overlap(const InputNode& initial) const {
  const double tolerance_m = scenario.settings.contact_distance;
  const MechanicalSystem& model = *scenario.model;
  const std::unique_ptr<SystemWorkspace> workspace = model.make_workspace();
  const std::string beyond = cat(" at t = 0, beyond events.contact_distance = ", tolerance_m, " m");
  if (scenario.planar != nullptr) {
    const BodyOverlap overlap =
        scenario.planar->deepest_body_overlap(scenario.initial.q, *workspace);
    if (overlap.depth_m > tolerance_m) {
      const PlanarTreeDescription& description = scenario.planar->description();
      const std::string& body = description.body_names[static_cast<std::size_t>(overlap.body)];
      const std::string what =
          overlap.other >= 0
              ? cat("bodies '", body, "' and '",
                    description.body_names[static_cast<std::size_t>(overlap.other)], "' start ",
                    overlap.depth_m, " m into each other")
              : cat("body '", body, "' starts ", overlap.depth_m, " m inside obstacle '",
                    description.obstacles[static_cast<std::size_t>(overlap.obstacle)].name, "'");
      throw body_start(initial, overlap.body).error(cat(what, beyond));
    }
  } else {
    std::string where;
    const double depth_m = model.deepest_overlap_m(scenario.initial.q, *workspace, &where);
    if (depth_m > tolerance_m) {
      const std::optional<InputNode> q = initial.find("q");
      throw(q ? *q : initial)
          .error(cat(where, ": the shapes start ", depth_m, " m into each other", beyond));
    }
  }
  std::vector<int> nearby;
  model.nearby_contacts(scenario.initial.q, *workspace, nearby);
  StateQuantities state;
  model.evaluate(0.0, scenario.initial.q, scenario.initial.v,
                 {.contacts = true, .contact_subset = &nearby}, *workspace, state);
  const std::vector<std::string>& contacts = model.contact_names();
  for (std::size_t i = 0; i < nearby.size(); ++i) {
    const double gap = state.contacts.gap[static_cast<Eigen::Index>(i)];
    if (gap < -tolerance_m) {
      const InputNode where =
          scenario.planar != nullptr
              ? body_start(initial, scenario.planar->contact_bodies(nearby[i]).first)
              : initial;
      throw where.error(cat("contact '", contacts[static_cast<std::size_t>(nearby[i])], "' starts ",
                            -gap, " m inside its obstacle (gap ", gap, " m)"));
    }
  }
}

void Reader::read(const InputNode& root, const std::string& default_name,
                  const std::filesystem::path& directory) {
  check_keys(root, kScenarioKeys, key_paths);
  scenario.name = default_name;
  if (auto name = root.find("name")) scenario.name = read_string(*name);
  effective["name"] = scenario.name;
  if (auto description = root.find("description")) {
    effective["description"] = read_string(*description);
  }
  duration = root.required("duration");
  scenario.settings.duration = read_number_in(*duration, kDurationRange);
  effective["duration"] = number_node(scenario.settings.duration);

  // the excitation is part of the model's forces; its text goes last in the effective file
  const InputNode model = root.required("model");
  if (!model.yaml().IsMap()) {
    throw model.error(
        "must be a map: a `type` and its parameters, `bodies` (a multibody), or `dimension: 3` "
        "and `bodies` (free bodies in space)");
  }
  scenario.dimension = read_model_dimension(model);
  read_excitation(root.find("excitation"), directory);
  const YAML::Node excitation = effective["excitation"];
  effective.remove("excitation");

  if (scenario.dimension == 3) {
    read_spatial(model, root.required("initial"));
  } else {
    read_model(model);
    read_initial(root.required("initial"));
  }
  read_contact(contact_section(root));
  read_integrator(root.find("integrator"));
  read_events(root.find("events"));
  read_output(root.find("output"));
  effective["excitation"] = excitation;

  check_initial_overlap(root.required("initial"));
  if (scenario.planar != nullptr) {
    scenario.settings.overturn_watch = overturn_watch(*scenario.planar);
  }

  YAML::Emitter out;
  out << effective;
  scenario.effective_yaml = cat(out.c_str(), "\n");
}

}  // namespace

namespace {

// The vertices of a polygon lowest when its body is upright (within 1e-9 of its size), in its
// frame: a block's bottom corners. None without a polygon.
std::vector<Eigen::Vector2d> base_points(const std::optional<Shape>* shape) {
  const auto* polygon = shape && *shape ? std::get_if<PolygonShape>(&**shape) : nullptr;
  if (polygon == nullptr) return {};
  double lowest_m = std::numeric_limits<double>::infinity();
  for (const Eigen::Vector2d& vertex : polygon->vertices_m)
    lowest_m = std::min(lowest_m, vertex.y());
  const double tie_m = 1e-9 * bounding_radius(*polygon);
  std::vector<Eigen::Vector2d> base;
  for (const Eigen::Vector2d& vertex : polygon->vertices_m) {
    if (vertex.y() <= lowest_m + tie_m) base.push_back(vertex);
  }
  return base;
}

// The four corners of a box's face toward −up (a body axis, ±), from its centre [m].
std::vector<Eigen::Vector3d> box_base_corners(const BoxShape& box, const Eigen::Vector3d& up) {
  Eigen::Index axis = 0;
  up.cwiseAbs().maxCoeff(&axis);
  const Eigen::Index i = (axis + 1) % 3, j = (axis + 2) % 3;
  const Eigen::Vector3d half = 0.5 * box.size_m;
  std::vector<Eigen::Vector3d> corners;
  for (const double si : {-1.0, 1.0}) {
    for (const double sj : {-1.0, 1.0}) {
      Eigen::Vector3d corner = -half[axis] * up;
      corner[i] = si * half[i];
      corner[j] = sj * half[j];
      corners.push_back(corner);
    }
  }
  return corners;
}

}  // namespace

std::span<const ScenarioKeyTable> scenario_key_tables() { return kScenarioKeyTables; }

std::vector<OverturnWatch> overturn_watch(const PlanarTree& tree) {
  std::vector<OverturnWatch> watch;
  for (int b = 0; b < tree.body_count(); ++b) {
    const PlanarJoint& joint = tree.description().joints[static_cast<std::size_t>(b)];
    if (joint.type != JointType::free || joint.parent != kGround) continue;
    // A disk looks the same at every angle: turning is rolling or spinning, never overturning.
    const std::vector<std::optional<Shape>>& shapes = tree.description().shapes;
    const bool disk = !shapes.empty() && shapes[static_cast<std::size_t>(b)] &&
                      std::holds_alternative<DiskShape>(*shapes[static_cast<std::size_t>(b)]);
    if (disk) continue;
    const int angle = tree.first_coordinate(b) + 2;  // after x and y; θ̇ sits in v where θ in q
    std::vector<Eigen::Vector2d> base =
        base_points(shapes.empty() ? nullptr : &shapes[static_cast<std::size_t>(b)]);
    StandingBase standing;
    for (const Eigen::Vector2d& point : base)
      standing.corners_m.emplace_back(point.x(), point.y(), 0.0);
    watch.push_back({{.coordinate = angle, .rate = angle},
                     tree.description().body_names[static_cast<std::size_t>(b)],
                     std::move(base),
                     std::move(standing)});
  }
  return watch;
}

std::vector<OverturnWatch> overturn_watch(const SpatialBodies& bodies, const Eigen::VectorXd& q) {
  std::vector<OverturnWatch> watch;
  for (int b = 0; b < bodies.body_count(); ++b) {
    const SpatialBody& body = bodies.description().bodies[static_cast<std::size_t>(b)];
    if (std::holds_alternative<SphereShape>(body.shape)) continue;
    const Eigen::Matrix3d rotation = bodies.orientation(q, b).toRotationMatrix();
    UprightFrame upright{.coordinate = spatial_coordinate_start(b) + 3,
                         .rate = spatial_velocity_start(b) + 3};
    StandingBase base;
    if (const auto* cylinder = std::get_if<CylinderShape>(&body.shape)) {
      // standing on a base (its axis nearer the vertical than the horizontal), or not watched
      const double axis_up = rotation.col(2).z();
      if (std::abs(axis_up) <= std::sqrt(0.5)) continue;
      upright.up_axis = Eigen::Vector3d::UnitZ() * (axis_up > 0.0 ? 1.0 : -1.0);
      upright.overturn_rad = std::atan2(2.0 * cylinder->radius_m, cylinder->height_m);
      base = {{-0.5 * cylinder->height_m * upright.up_axis}, cylinder->radius_m};
    } else {
      Eigen::Index axis = 0;
      rotation.row(2).cwiseAbs().maxCoeff(&axis);
      upright.up_axis = Eigen::Vector3d::Unit(axis) * (rotation(2, axis) > 0.0 ? 1.0 : -1.0);
      base.corners_m = box_base_corners(std::get<BoxShape>(body.shape), upright.up_axis);
    }
    watch.push_back({upright, body.name, {}, std::move(base)});
  }
  return watch;
}

std::string file_name_safe(const std::string& name) {
  std::string safe = name;
  for (char& c : safe) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '.' || c == '-' || c == '_';
    if (!keep) c = '_';
  }
  return safe.empty() ? std::string("scenario") : safe;
}

namespace {

// The scenario `contents` (its errors located in `source`) after `overrides`; `default_name` when
// it has no `name`, its record files relative to `directory`.
Scenario load_scenario_contents(const std::string& contents, const std::string& source,
                                const std::string& default_name,
                                const std::filesystem::path& directory,
                                std::span<const std::string> overrides) {
  const InputNode root = parse_yaml_text(contents, source);
  // 1-based line of the first override's nodes: past the file's end, with a margin
  const int first_override_line = line_count(contents) + 10;
  std::vector<Override> items;
  for (const std::string& text : overrides) items.push_back(split_override(text));
  if (!items.empty() && !root.yaml().IsMap()) {
    throw root.error("must be a map of scenario keys (name, duration, model, ...)");
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    apply_override(root.yaml(), items[i], first_override_line - 1 + static_cast<int>(i));
  }
  Scenario scenario;
  try {
    Reader{scenario, YAML::Node(YAML::NodeType::Map), std::nullopt, scenario_key_paths()}.read(
        root, default_name, directory);
  } catch (const InputError& error) {
    const int index = error.location().line - first_override_line;
    if (index >= 0 && index < static_cast<int>(items.size())) {
      throw override_error(items[static_cast<std::size_t>(index)].text, error.message());
    }
    throw;
  }
  for (std::string& warning : scenario.warnings) {
    name_override(warning, source, first_override_line, items);
  }
  return scenario;
}

}  // namespace

Scenario load_scenario(const std::string& path, std::span<const std::string> overrides) {
  const std::filesystem::path file(path);
  return load_scenario_contents(read_input_file(path, kScenarioInput), path, file.stem().string(),
                                file.parent_path(), overrides);
}

Scenario load_scenario_text(const std::string& text, const std::string& source,
                            std::span<const std::string> overrides) {
  if (text.size() > kScenarioInput.max_bytes) {
    throw InputError({source, 0, 0}, cat("the scenario text is longer than the limit of ",
                                         kScenarioInput.max_bytes, " bytes"));
  }
  return load_scenario_contents(text, source, std::string(kTextScenarioName), {}, overrides);
}

}  // namespace routh
