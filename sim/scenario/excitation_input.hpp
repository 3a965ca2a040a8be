#pragma once
// The scenario's `excitation` (docs/design.md §5): one signal or a list of signals, summed into the
// ground acceleration. The syntax, units and errors are documented in docs/excitation.md:
//
//   excitation:
//     - harmonic: {amplitude: 0.3 g, frequency: 2, direction: x, phase: 0, start: 0, cycles: 3}
//     - pulse: {shape: sine, amplitude: 2.5, period: 0.5, direction: x, start: 0.1, cycles: 1}
//     - record: {file: motions/synthetic_a.AT2, direction: x, scale: 1.5, start: 0}
//
// `amplitude` is a number [m/s²] or `N g` (g = 9.80665 m/s²); `direction` x (default) or y, and
// z for a spatial model (a planar one refuses it);
// `start` [s] default 0; a harmonic without `cycles` lasts the whole run, a sine or cosine pulse
// lasts one cycle by default, the other pulse shapes (ricker, rectangular, cycloidal_a/b/c with
// `velocity` and `n`, mavroeidis_papageorgiou with `velocity`, `gamma` and `phase`) have one
// support each (pulse_signal.hpp). A record's `file` is relative to the scenario file; its
// `format: peer | esm | knet | cosmos | columns` overrides the rule that chooses it, and
// `units: g | m/s2 | cm/s2 | gal` is the unit of a two-column file (default m/s2) and must agree
// with the unit a record header states (ground_record_file.hpp).
// Instead of `scale`, `scale_to: {pga: 0.4 g}`, `{pgv: 0.3}` [m/s] or `{sa: {period: 0.5,
// damping: 0.05, value: 0.6 g}}` scales the record to that intensity measure
// (intensity_measures.hpp).

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <string>
#include <vector>

#include "sim/excitation/excitation.hpp"
#include "sim/scenario/yaml_input.hpp"

namespace routh {

/// Reads `excitation` into its signals for a model of `dimensions` 2 (planar) or 3 (spatial);
/// relative record paths are resolved against `scenario_directory`. Returns the signals and writes
/// to `effective` what it read with every default filled in, amplitudes in m/s² and record paths
/// absolute (a map for the one-signal form, a list for a list). Throws InputError at the offending
/// value, or in the record file.
Excitation read_excitation(const InputNode& node, const std::filesystem::path& scenario_directory,
                           int dimensions, YAML::Node& effective);

/// The key paths of the one-signal form ("excitation.harmonic", "excitation.harmonic.amplitude",
/// ...), for the suggestion that finds a key written in the wrong map.
std::vector<std::string> excitation_key_paths();

}  // namespace routh
