#include "sim/scenario/excitation_input.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <limits>
#include <numbers>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/excitation/intensity_measures.hpp"
#include "sim/excitation/oscillator_response.hpp"
#include "sim/scenario/ground_record_file.hpp"
#include "sim/scenario/model_input.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

constexpr std::array<std::string_view, 3> kSignalKinds = {"harmonic", "pulse", "record"};
constexpr std::array<std::string_view, 6> kHarmonicKeys = {"amplitude", "frequency", "direction",
                                                           "phase",     "start",     "cycles"};
constexpr std::array<std::string_view, 11> kPulseKeys = {
    "shape", "amplitude", "velocity", "period", "frequency", "direction",
    "start", "cycles",    "n",        "gamma",  "phase"};
constexpr std::array<std::string_view, 7> kRecordKeys = {"file",  "direction", "scale",   "start",
                                                         "units", "format",    "scale_to"};
constexpr std::array<std::string_view, 5> kRecordFormats = {"peer", "esm", "knet", "cosmos",
                                                            "columns"};
constexpr std::array<std::string_view, 4> kRecordUnits = {"g", "m/s2", "cm/s2", "gal"};
constexpr std::array<std::string_view, 3> kScaleTargets = {"pga", "pgv", "sa"};
constexpr std::array<std::string_view, 3> kSpectralTargetKeys = {"period", "damping", "value"};

// --- ranges (documented in docs/excitation.md) ---------------------------------------------
// Ground accelerations up to a hundred g, shaken at up to 10 kHz (shaking tables and
// earthquakes stay below 100 Hz; the integrator must resolve every period).
constexpr NumberRange kAmplitudeRange{-1e3, 1e3, "m/s^2"};
constexpr NumberRange kFrequencyRange{0.0, 1e4, "Hz", true};
constexpr NumberRange kPeriodRange{1e-4, 1e4, "s"};
// A start within the longest run (scenario_file.cpp's duration bound).
constexpr NumberRange kStartRange{0.0, 1e7, "s"};
// Up to a million cycles: a harmonic meant to last longer is one without `cycles`.
constexpr NumberRange kCyclesRange{0.0, 1e6, "", true};
constexpr NumberRange kScaleRange{-1e3, 1e3, ""};
// Pulse velocities up to 100 m/s (recorded near-fault pulses stay below 3 m/s).
constexpr NumberRange kVelocityRange{-1e2, 1e2, "m/s"};
// γ > 1 (Mavroeidis & Papageorgiou 2003); their fits to records stay below 5.
constexpr NumberRange kGammaRange{1.0, 1e3, "", true};
constexpr NumberRange kCycloidCyclesRange{1.0, 1e3, ""};
// Targets of `scale_to`: a peak velocity up to 100 m/s (recorded ones stay below 3 m/s), a
// response spectrum's period and damping ratio (oscillator_response.hpp).
constexpr NumberRange kTargetVelocityRange{0.0, 100.0, "m/s", true};
constexpr NumberRange kSpectralPeriodRange{kMinSpectralPeriod_s, kMaxSpectralPeriod_s, "s"};
constexpr NumberRange kSpectralDampingRange{0.0, kMaxSpectralDamping, ""};

// A number [m/s²], or "<number> g".
double read_amplitude(const InputNode& node) {
  double value = 0.0;
  if (node.yaml().IsScalar() && YAML::convert<double>::decode(node.yaml(), value)) {
    return read_number_in(node, kAmplitudeRange);
  }
  if (const std::optional<double> in_g = number_with_unit(node, "g")) {
    const double amplitude = *in_g * kGravityUnit_m_s2;
    if (amplitude < kAmplitudeRange.low || amplitude > kAmplitudeRange.high) {
      throw node.error(cat("is ", amplitude, " m/s^2: must be in ", to_string(kAmplitudeRange)));
    }
    return amplitude;
  }
  throw node.error("must be a number [m/s^2] or a number of g (9.80665 m/s^2), e.g. '0.3 g'");
}

// A target acceleration of `scale_to` (a peak or a spectral value): an amplitude above 0.
double read_target_acceleration(const InputNode& node) {
  const double value = read_amplitude(node);
  if (!(value > 0.0)) throw node.error("must be above 0: a record is scaled to a peak");
  return value;
}

// What `scale_to` asks for: one intensity measure of the scaled record and its value.
struct ScaleTarget {
  std::string measure;    // pga, pgv or sa
  double value = 0.0;     // [m/s²] for pga and sa, [m/s] for pgv
  double period_s = 0.0;  // sa only
  double damping = 0.0;   // sa only
  YAML::Node described;   // the map the effective scenario writes
};

ScaleTarget read_scale_target(const InputNode& node) {
  if (!node.yaml().IsMap() || node.yaml().size() != 1) {
    throw node.error(
        "must be one intensity measure and its value: {pga: 0.4 g}, {pgv: 0.3} [m/s] or "
        "{sa: {period: 0.5, damping: 0.05, value: 0.6 g}}");
  }
  const auto [measure, value] = node.entries().front();
  if (std::find(kScaleTargets.begin(), kScaleTargets.end(), measure) == kScaleTargets.end()) {
    throw value.error(cat("unknown intensity measure '", measure,
                          "': scale_to takes pga [m/s^2 or N g], pgv [m/s] or sa {period [s], "
                          "damping, value [m/s^2 or N g]}"));
  }
  ScaleTarget target{measure, 0.0, 0.0, 0.0, YAML::Node(YAML::NodeType::Map)};
  if (measure == "pga") {
    target.value = read_target_acceleration(value);
    target.described["pga"] = number_node(target.value);
  } else if (measure == "pgv") {
    target.value = read_number_in(value, kTargetVelocityRange);
    target.described["pgv"] = number_node(target.value);
  } else {
    check_keys(value, kSpectralTargetKeys);
    target.period_s = read_number_in(value.required("period"), kSpectralPeriodRange);
    target.damping = kSpectrumDamping;
    if (auto damping = value.find("damping")) {
      target.damping = read_number_in(*damping, kSpectralDampingRange);
    }
    target.value = read_target_acceleration(value.required("value"));
    YAML::Node spectral(YAML::NodeType::Map);
    spectral["period"] = number_node(target.period_s);
    spectral["damping"] = number_node(target.damping);
    spectral["value"] = number_node(target.value);
    target.described["sa"] = spectral;
  }
  return target;
}

// The scale that gives the record the target's value: target / the unscaled record's measure.
double scale_for(const ScaleTarget& target, const GroundRecord& record, const InputNode& node) {
  const double measure = target.measure == "sa"
                             ? pseudo_spectral_acceleration(record.time_s, record.acceleration_m_s2,
                                                            target.period_s, target.damping)
                         : target.measure == "pga"
                             ? intensity_measures(record.time_s, record.acceleration_m_s2).pga_m_s2
                             : intensity_measures(record.time_s, record.acceleration_m_s2).pgv_m_s;
  if (!(measure > 0.0)) {
    throw node.error(
        cat("the record's ", target.measure, " is 0: no scale brings it to ", target.value));
  }
  const double scale = target.value / measure;
  if (scale > kScaleRange.high) {
    throw node.error(cat("needs scale ", scale, " (the record's ", target.measure, " is ", measure,
                         "): must be in ", to_string(kScaleRange)));
  }
  return scale;
}

// A record's `scale`, or the one its `scale_to` gives, whose map for the effective scenario goes
// to `scale_target`. The effective scenario lists both, so a scale given with scale_to must be
// the very one it gives.
double read_record_scale(const InputNode& node, const GroundRecord& record,
                         YAML::Node& scale_target) {
  const std::optional<InputNode> scale = node.find("scale");
  const double given = scale ? read_number_in(*scale, kScaleRange) : 1.0;
  const std::optional<InputNode> scale_to = node.find("scale_to");
  if (!scale_to) return given;
  const ScaleTarget target = read_scale_target(*scale_to);
  const double derived = scale_for(target, record, *scale_to);
  if (scale && given != derived) {
    throw scale->error(cat("and scale_to: give one of them (scale_to gives scale ", derived,
                           ", which the effective scenario lists beside it)"));
  }
  scale_target = target.described;
  return derived;
}

// x or y; z as well for a spatial model (`dimensions` 3). A planar model moves in the x-y plane.
Eigen::Vector3d read_direction(const InputNode& signal, int dimensions, YAML::Node& described) {
  std::string direction = "x";
  if (auto node = signal.find("direction")) {
    direction = read_string(*node);
    if (dimensions == 2 && direction == "z") {
      throw node->error(
          "must be x or y: a planar model moves in the x-y plane (z needs model.dimension: 3)");
    }
    if (direction != "x" && direction != "y" && direction != "z") {
      throw node->error(dimensions == 2 ? "must be x or y" : "must be x, y or z");
    }
  }
  described["direction"] = direction;
  return direction == "x"   ? Eigen::Vector3d::UnitX()
         : direction == "y" ? Eigen::Vector3d::UnitY()
                            : Eigen::Vector3d::UnitZ();
}

double read_start(const InputNode& signal, YAML::Node& described) {
  double start = 0.0;
  if (auto node = signal.find("start")) start = read_number_in(*node, kStartRange);
  described["start"] = number_node(start);
  return start;
}

GroundSignal read_harmonic(const InputNode& node, int dimensions, YAML::Node& described) {
  check_keys(node, kHarmonicKeys);
  HarmonicSignal harmonic;
  harmonic.amplitude_m_s2 = read_amplitude(node.required("amplitude"));
  harmonic.frequency_hz = read_number_in(node.required("frequency"), kFrequencyRange);
  if (auto phase = node.find("phase")) harmonic.phase_rad = read_angle(*phase, false);
  described["amplitude"] = number_node(harmonic.amplitude_m_s2);
  described["frequency"] = number_node(harmonic.frequency_hz);
  described["phase"] = number_node(harmonic.phase_rad);
  const Eigen::Vector3d direction = read_direction(node, dimensions, described);
  harmonic.start_s = read_start(node, described);
  if (auto cycles = node.find("cycles")) {
    harmonic.cycles = read_number_in(*cycles, kCyclesRange);
    described["cycles"] = number_node(harmonic.cycles);
  }
  return {harmonic, direction};
}

// The keys each pulse shape takes besides shape, direction and start.
struct PulseForm {
  std::string_view name;
  PulseShape shape;
  std::array<std::string_view, 4> keys;  // "" pads
};

constexpr std::array<PulseForm, 8> kPulseForms = {{
    {"sine", PulseShape::sine, {"amplitude", "period", "cycles", ""}},
    {"cosine", PulseShape::cosine, {"amplitude", "period", "cycles", ""}},
    {"ricker", PulseShape::ricker, {"amplitude", "period", "", ""}},
    {"rectangular", PulseShape::rectangular, {"amplitude", "period", "", ""}},
    {"cycloidal_a", PulseShape::cycloidal_a, {"velocity", "amplitude", "period", ""}},
    {"cycloidal_b", PulseShape::cycloidal_b, {"velocity", "amplitude", "period", ""}},
    {"cycloidal_c", PulseShape::cycloidal_c, {"velocity", "amplitude", "period", "n"}},
    {"mavroeidis_papageorgiou",
     PulseShape::mavroeidis_papageorgiou,
     {"velocity", "period", "gamma", "phase"}},
}};

const PulseForm& read_pulse_form(const InputNode& pulse) {
  std::string shape = "sine";
  auto shape_node = pulse.find("shape");
  if (shape_node) shape = read_string(*shape_node);
  for (const PulseForm& form : kPulseForms) {
    if (form.name == shape) return form;
  }
  std::array<std::string_view, kPulseForms.size()> names;
  std::transform(kPulseForms.begin(), kPulseForms.end(), names.begin(),
                 [](const PulseForm& form) { return form.name; });
  throw shape_node->error(cat("must be one of ", comma_list(names), "; did you mean '",
                              closest_name(shape, names), "'?"));
}

// Refuses a key the shape does not take (`frequency` stands for `period` where that is taken).
void check_pulse_keys(const InputNode& pulse, const PulseForm& form) {
  std::vector<std::string_view> taken;
  std::copy_if(form.keys.begin(), form.keys.end(), std::back_inserter(taken),
               [](std::string_view key) { return !key.empty(); });
  for (const auto& [key, value] : pulse.entries()) {
    if (key == "shape" || key == "direction" || key == "start") continue;
    const std::string_view named = key == "frequency" ? "period" : std::string_view(key);
    if (std::find(taken.begin(), taken.end(), named) == taken.end()) {
      throw value.error(cat("does not apply to a ", form.name, " pulse (it takes ",
                            comma_list(taken), ", shape, direction and start)"));
    }
  }
}

// T_p [s], from `period` or from `frequency` f_p = 1 / T_p (Mavroeidis & Papageorgiou's f_p).
double read_pulse_period(const InputNode& pulse) {
  const auto period = pulse.find("period");
  const auto frequency = pulse.find("frequency");
  if (period && frequency) throw frequency->error("give period or frequency, not both");
  if (frequency) {
    const double f = read_number_in(*frequency, kFrequencyRange);
    if (1.0 / f < kPeriodRange.low || 1.0 / f > kPeriodRange.high) {
      throw frequency->error(
          cat("is a period of ", 1.0 / f, " s: must be in ", to_string(kPeriodRange)));
    }
    return 1.0 / f;
  }
  return read_number_in(pulse.required("period"), kPeriodRange);
}

// V_p [m/s] of a cycloidal pulse, from `velocity` or from its acceleration amplitude `amplitude`
// (a_p = Ω V_p / 2 for type A, Ω V_p for types B and Cₙ: pulse_signal.hpp).
double read_cycloid_velocity(const InputNode& pulse, PulseShape shape, double period_s) {
  const auto velocity = pulse.find("velocity");
  const auto amplitude = pulse.find("amplitude");
  if (velocity && amplitude) throw amplitude->error("give velocity or amplitude, not both");
  if (velocity) return read_number_in(*velocity, kVelocityRange);
  if (!amplitude) throw pulse.error("a cycloidal pulse needs its velocity (or its amplitude)");
  const double peak_per_velocity =
      (shape == PulseShape::cycloidal_a ? 0.5 : 1.0) * 2.0 * std::numbers::pi / period_s;
  return read_amplitude(*amplitude) / peak_per_velocity;
}

GroundSignal read_pulse(const InputNode& node, int dimensions, YAML::Node& described) {
  check_keys(node, kPulseKeys);
  const PulseForm& form = read_pulse_form(node);
  check_pulse_keys(node, form);
  PulseSignal pulse;
  pulse.shape = form.shape;
  pulse.period_s = read_pulse_period(node);
  described["shape"] = std::string(form.name);
  switch (form.shape) {
    case PulseShape::sine:
    case PulseShape::cosine:
    case PulseShape::ricker:
    case PulseShape::rectangular:
      pulse.amplitude_m_s2 = read_amplitude(node.required("amplitude"));
      described["amplitude"] = number_node(pulse.amplitude_m_s2);
      break;
    case PulseShape::cycloidal_a:
    case PulseShape::cycloidal_b:
    case PulseShape::cycloidal_c:
      pulse.velocity_m_s = read_cycloid_velocity(node, form.shape, pulse.period_s);
      described["velocity"] = number_node(pulse.velocity_m_s);
      break;
    case PulseShape::mavroeidis_papageorgiou:
      pulse.velocity_m_s = read_number_in(node.required("velocity"), kVelocityRange);
      pulse.gamma = read_number_in(node.required("gamma"), kGammaRange);
      if (auto phase = node.find("phase")) pulse.phase_rad = read_angle(*phase, false);
      described["velocity"] = number_node(pulse.velocity_m_s);
      described["gamma"] = number_node(pulse.gamma);
      described["phase"] = number_node(pulse.phase_rad);
      break;
  }
  if (form.shape == PulseShape::cycloidal_c) {
    const InputNode n = node.required("n");
    const double value = read_number_in(n, kCycloidCyclesRange);
    if (value != std::floor(value)) throw n.error("must be a whole number of cycles");
    pulse.cycloid_cycles = static_cast<int>(value);
    described["n"] = pulse.cycloid_cycles;
  }
  described["period"] = number_node(pulse.period_s);
  const Eigen::Vector3d direction = read_direction(node, dimensions, described);
  pulse.start_s = read_start(node, described);
  if (form.shape == PulseShape::sine || form.shape == PulseShape::cosine) {
    if (auto cycles = node.find("cycles")) pulse.cycles = read_number_in(*cycles, kCyclesRange);
    described["cycles"] = number_node(pulse.cycles);
  }
  if (peak_acceleration_bound(pulse) > kAmplitudeRange.high) {
    throw node.error(cat("its acceleration reaches ", peak_acceleration_bound(pulse),
                         " m/s^2: must stay within ", to_string(kAmplitudeRange)));
  }
  return {pulse, direction};
}

GroundSignal read_record(const InputNode& node, const std::filesystem::path& scenario_directory,
                         int dimensions, YAML::Node& described) {
  check_keys(node, kRecordKeys);
  const InputNode file_node = node.required("file");
  const std::string file_text = read_string(file_node);
  if (file_text.empty()) throw file_node.error("must name a record file");
  const std::filesystem::path file =
      (scenario_directory / std::filesystem::path(file_text)).lexically_normal();
  RecordReading reading;
  if (auto format_node = node.find("format")) {
    const std::string text = read_string(*format_node);
    reading.format = record_format_named(text);
    if (!reading.format) {
      throw format_node->error(cat("must be one of ", comma_list(kRecordFormats),
                                   "; did you mean '", closest_name(text, kRecordFormats), "'?"));
    }
  }
  if (auto units_node = node.find("units")) {
    const std::string text = read_string(*units_node);
    if (std::find(kRecordUnits.begin(), kRecordUnits.end(), text) == kRecordUnits.end()) {
      throw units_node->error(cat("must be one of ", comma_list(kRecordUnits)));
    }
    reading.units = units_named(text);
  }
  // a file that is there but not a regular one (a FIFO, a device) is refused by the reader,
  // which names its type
  if (!std::filesystem::exists(file)) {
    throw file_node.error(cat("no record file at ", file.string(),
                              " (a relative path is relative to the scenario file)"));
  }
  if (!reading.format) reading.format = record_format_of(file);
  RecordSignal record;
  record.record = std::make_shared<const GroundRecord>(read_ground_record(file, reading));
  YAML::Node scale_target;  // the effective `scale_to`, if any
  record.scale = read_record_scale(node, *record.record, scale_target);
  const std::vector<double>& samples = record.record->acceleration_m_s2;
  const double peak =
      std::abs(record.scale) *
      std::abs(*std::max_element(samples.begin(), samples.end(),
                                 [](double a, double b) { return std::abs(a) < std::abs(b); }));
  if (peak > kAmplitudeRange.high) {
    const std::optional<InputNode> where = node.find("scale_to") ? node.find("scale_to")
                                           : node.find("scale")  ? node.find("scale")
                                                                 : file_node;
    throw where->error(cat("the scaled record peaks at ", peak, " m/s^2: must stay within ",
                           to_string(kAmplitudeRange)));
  }
  described["file"] = std::filesystem::absolute(file).lexically_normal().string();
  described["format"] = std::string(to_string(*reading.format));
  if (reading.format == RecordFormat::two_columns) {
    described["units"] = std::string(to_string(reading.units.value_or(RecordUnits::m_s2)));
  } else if (reading.units) {
    described["units"] = std::string(to_string(*reading.units));
  }
  described["scale"] = number_node(record.scale);
  if (scale_target.IsMap()) described["scale_to"] = scale_target;
  const Eigen::Vector3d direction = read_direction(node, dimensions, described);
  record.start_s = read_start(node, described);
  return {record, direction};
}

// One `{kind: {...}}` map.
GroundSignal read_signal(const InputNode& node, const std::filesystem::path& scenario_directory,
                         int dimensions, YAML::Node& described) {
  check_keys(node, kSignalKinds);
  if (node.yaml().size() != 1) {
    throw node.error("must hold one signal: harmonic, pulse or record (a list holds several)");
  }
  const std::vector<std::pair<std::string, InputNode>> entries = node.entries();
  const auto& [kind, body] = entries.front();
  YAML::Node fields(YAML::NodeType::Map);
  const GroundSignal signal = kind == "harmonic" ? read_harmonic(body, dimensions, fields)
                              : kind == "pulse"
                                  ? read_pulse(body, dimensions, fields)
                                  : read_record(body, scenario_directory, dimensions, fields);
  described[kind] = fields;
  return signal;
}

}  // namespace

Excitation read_excitation(const InputNode& node, const std::filesystem::path& scenario_directory,
                           int dimensions, YAML::Node& effective) {
  Excitation excitation;
  if (node.yaml().IsSequence()) {
    effective = YAML::Node(YAML::NodeType::Sequence);
    for (const InputNode& item : node.items()) {
      YAML::Node described(YAML::NodeType::Map);
      excitation.push_back(read_signal(item, scenario_directory, dimensions, described));
      effective.push_back(described);
    }
    if (excitation.empty()) throw node.error("an empty list: give signals, or 'none'");
    return excitation;
  }
  if (!node.yaml().IsMap()) {
    throw node.error(
        "must be a signal ({harmonic: ...}, {pulse: ...}, {record: ...}), a list of "
        "them, or none");
  }
  effective = YAML::Node(YAML::NodeType::Map);
  excitation.push_back(read_signal(node, scenario_directory, dimensions, effective));
  return excitation;
}

std::vector<std::string> excitation_key_paths() {
  std::vector<std::string> paths;
  const auto add = [&](std::string_view kind, std::span<const std::string_view> keys) {
    paths.push_back(cat("excitation.", kind));
    for (const std::string_view key : keys) paths.push_back(cat("excitation.", kind, ".", key));
  };
  add("harmonic", kHarmonicKeys);
  add("pulse", kPulseKeys);
  add("record", kRecordKeys);
  return paths;
}

}  // namespace routh
