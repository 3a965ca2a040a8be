#pragma once
// Scenario files (docs/design.md §5): a YAML description of one simulation run, turned into the
// model, the simulator's settings, the completed initial state and the output request. This is the
// one place that knows both YAML and the models. Every bad input is an InputError naming the file,
// line and column (yaml_input.hpp); an error in a command-line override names the override.
//
//   name: rocking_block              # optional; default: the file's stem
//   duration: 5                      # [s] required
//   model:                           # `type` and its parameters (model_factory.hpp), or
//                                    # `bodies`, `joints`, `obstacles` (multibody_input.hpp), or
//                                    # `dimension: 3` and free bodies in space (spatial_input.hpp)
//     type: rocking_block
//     width: 0.2                     # [m]
//     height: 1.0                    # [m]
//     mass: 1.0                      # [kg]
//     gravity: 9.81                  # [m/s²] optional, pointing −y
//   initial:                         # partial states, completed by complete_initial_state
//     q: {theta: 5.65 deg}           # by coordinate name, or a full list in coordinate order
//     v: {theta: 0}                  # angles accept "deg" (q) and "deg/s" (v) suffixes
//   contact:
//     law: poisson                   # single-contact impacts (see `routh laws`); a spatial
//                                    # model's default: sliding_ode
//     multi_contact_law: multipoint_energetic   # simultaneous impacts; `none` to refuse them;
//                                    # a spatial model's default: lcp
//                                    # each law must take the model's (planar) contacts, the
//                                    # multi-contact law several at once (its scope); law
//                                    # `rocking` or `rocking_over_housner` is both (rocking.hpp)
//     restitution: 0.0               # every contact's default
//     friction: {static: 0.6, kinetic: 0.5}     # or one number for both
//     contacts:                      # optional, per contact by name (or a list in order)
//       left_corner: {restitution: 0.1}
//   integrator: {stepper: dopri5, relative_tolerance: 3e-11, absolute_tolerance: 3e-11,
//                max_step: 0.05}     # [s]
//   events: {time_tolerance: 1e-12, rest_speed: 1e-6, contact_distance: 1e-9}  # [s, m/s, m]
//     # stop_on: [overturn]          end the run at an outcome event: overturn (a free body
//     #                               turned ±π/2 from upright) or uplift
//   output: {file: rocking_block.h5, rate: 100}  # rate [Hz]; file default: <name>.h5
//     # max_file_size: 1 GiB        bytes, or with a unit: B, kB, MB, GB, TB, KiB, MiB, GiB, TiB
//     # flush_interval: 1           [s] of wall-clock time between flushes of the file (what a
//     #                               SIGKILL can lose); 0: after every sample and event
//   excitation:                      # optional ground acceleration a_g(t) [m/s²]: one signal,
//     harmonic: {amplitude: 0.5, frequency: 2, direction: x, phase: 0}   # or a list, summed;
//     #   direction x or y, and z for a spatial model:
//     # - harmonic: {amplitude: 0.3 g, frequency: 2, direction: x, phase: 0, start: 0, cycles: 3}
//     # - pulse: {shape: sine, amplitude: 2.5, period: 0.5, direction: x, start: 0.1, cycles: 1}
//     # - record: {file: motions/synthetic_a.AT2, direction: x, scale: 1.5, start: 0}
//     #   amplitude [m/s²] or "N g" (g = 9.80665 m/s²); a harmonic without cycles lasts the run;
//     #   pulse shape sine | cosine | ricker; record: PEER .AT2 (g) or two-column .csv/.txt
//     #   (units: g | m/s2, default m/s2), relative to this file, linear between samples;
//     #   scale_to: {pga: 0.4 g} | {pgv: 0.3} | {sa: {period, damping, value}} instead of scale.
//     #   Syntax, sign convention, record formats and errors: docs/excitation.md
//
// Ranges. Values outside them are input errors that name the range (scenario_file.cpp says why
// each bound is where it is; model parameters: model_factory.hpp):
//   duration                      (0, 1e7] s
//   integrator.relative_tolerance [1e-14, 1e-3]     integrator.absolute_tolerance [1e-16, 1e-3]
//   integrator.max_step           (0, 1000] s, and when given at least duration / 1e7
//   events.time_tolerance         [1e-15, 1e-6] s, and at most 1e-6 × duration
//   events.rest_speed             [1e-12, 1] m/s
//   events.contact_distance       [1e-12, 1e-3] m
//   output.rate                   (0, 1e9] Hz; the regular samples, (duration × rate + 1) ×
//                                 (n_q + n_v + 4) × 8 bytes for n_q coordinates and n_v
//                                 velocities, must fit in
//                                 output.max_file_size (default 1 GiB; raise it to record more)
//   output.flush_interval         [0, 86400] s
//   excitation amplitude          [-1000, 1000] m/s²; frequency (0, 1e4] Hz; period
//                                 [1e-4, 1e4] s; start [0, 1e7] s; cycles (0, 1e6]; scale
//                                 [-1000, 1000]; a record at most 1e7 samples
//   initial q and v               each within ±1e7 (m or rad; m/s or rad/s)
//
// Overrides ("--set key.path=value") replace or create any key before the file is read; the
// value is parsed as YAML (a scalar, or a flow list/map), so `--set contact.restitution=0.5`
// and `--set initial.q.theta="3 deg"` work. Path segments are map keys, or list indices for an
// existing list (`contact.contacts.1.restitution=0`). A warning an override caused names it the
// same way ("--set key.path=value: warning: ...").
//
// Likely mistakes that still describe a model are warnings, located like errors: μd > μs, a
// joint point off its body's shape (multibody_input.hpp), a block's initial tilt beyond a quarter
// turn written as a bare number (radians, where degrees were probably meant; a box's roll or
// pitch in space too). A body that starts
// inside another body or an obstacle, beyond events.contact_distance, is an error at its initial
// state. An unknown key that is a key of another map names that map's key path
// (`restitution` at the top level: 'contact.restitution').

#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "models/planar/planar_tree.hpp"
#include "models/spatial/spatial_bodies.hpp"
#include "sim/excitation/excitation.hpp"
#include "sim/simulation/simulator.hpp"

namespace routh {

/// Everything one run needs, read from a scenario file.
struct Scenario {
  std::string name;        ///< `name`, or the file's stem
  std::string model_type;  ///< e.g. "rocking_block", "multibody" for `bodies`, "spatial" in 3D
  int dimension = 2;       ///< `model.dimension`: 2 planar, 3 spatial
  std::unique_ptr<MechanicalSystem> model;  ///< the built model
  /// The model when it is planar (owned by `model`), for what only planar models have (the
  /// overturn watch, their kinematics); null for a spatial model.
  const PlanarTree* planar = nullptr;
  /// The JSON a trajectory keeps in /model: model_description_json for a planar model,
  /// spatial_model_description_json for a spatial one.
  std::string model_json;
  SimulationSettings settings;         ///< duration, tolerances, laws, per-contact parameters
  SimulationState initial;             ///< completed initial state at t = 0
  std::string law;                     ///< the single-contact law's name, for the recorder
  std::string multi_contact_law;       ///< its name, or "none"
  std::filesystem::path output_file;   ///< `output.file`, or "<name>.h5" (relative: to the cwd)
  double output_flush_interval = 1.0;  ///< `output.flush_interval` [s] of wall-clock time
  std::string effective_yaml;         ///< the scenario with every default filled in (angles in rad)
  std::vector<std::string> warnings;  ///< located, e.g. μd > μs
  /// `excitation`'s signals (their sum is the model's ground acceleration, of which a planar
  /// model takes x and y); null: none.
  std::shared_ptr<const Excitation> excitation;
  /// The record files `excitation` reads: inputs that no output may replace.
  std::vector<std::filesystem::path> record_files;
};

/// One map of a scenario file and the keys the loader accepts in it (the very lists it checks
/// with), for the reference `routh models --markdown` writes.
struct ScenarioKeyTable {
  std::string_view map;      ///< e.g. "events", "contact.contacts.NAME"; "" for the top level
  std::string_view meaning;  ///< what the map holds
  std::span<const std::string_view> keys;
};

/// The scenario's maps other than `model` and `excitation`, top level first.
std::span<const ScenarioKeyTable> scenario_key_tables();

/// Reads the scenario at `path` after applying `overrides` ("key.path=value" each, in order).
/// Throws InputError: located in the file, or, for a value or key an override put there, with
/// the location "--set key.path=value".
Scenario load_scenario(const std::string& path, std::span<const std::string> overrides = {});

/// The name of a scenario given as text that has no `name` (its default output: scenario.h5).
inline constexpr std::string_view kTextScenarioName = "scenario";

/// Reads a scenario given as YAML `text` rather than a file (`routh run -` from standard input,
/// routh.run from Python), as load_scenario reads a file: errors are located in `source` (e.g.
/// "<stdin>:3:5"), its name defaults to kTextScenarioName and its record files are relative to
/// the current directory. Text above the scenario file's size limit is refused.
Scenario load_scenario_text(const std::string& text, const std::string& source,
                            std::span<const std::string> overrides = {});

/// The free bodies of `tree` (jointed freely to the ground) whose rotation a run watches for
/// overturning, disks excepted: the index of each one's θ in q, and its name.
std::vector<OverturnWatch> overturn_watch(const PlanarTree& tree);

/// The free bodies in space a run watches for overturning, spheres excepted: a box by the body
/// axis nearest the world's up at q (it lies on its side when that axis is horizontal); a
/// cylinder standing on a base by its axis (it falls once its centre of mass passes over the rim
/// point it rocks on, at the tilt atan(2r/h)); a cylinder on its side (a rolling coin) is not
/// watched: its turn about its axis is rolling.
std::vector<OverturnWatch> overturn_watch(const SpatialBodies& bodies, const Eigen::VectorXd& q);

/// "rocking block 2" → "rocking_block_2": a name made safe as a file name (letters, digits, '.',
/// '-', '_' kept; anything else becomes '_').
std::string file_name_safe(const std::string& name);

}  // namespace routh
