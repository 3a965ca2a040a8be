#include "tools/routh/models_markdown.hpp"

#include <cctype>
#include <string>
#include <vector>

#include "sim/scenario/input_file.hpp"
#include "sim/scenario/model_factory.hpp"
#include "sim/scenario/multibody_input.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/scenario/spatial_input.hpp"
#include "sim/text.hpp"

namespace routh::cli {

namespace {

// "`a`, `b`, `c`", or "none".
std::string code_list(const std::vector<std::string>& names) {
  return names.empty() ? "none" : comma_list(names, "`");
}

void write_preset(std::ostream& out, const ModelPreset& preset) {
  std::string summary(preset.summary);
  if (!summary.empty()) summary[0] = static_cast<char>(std::toupper(summary[0]));
  out << "\n## `" << preset.name << "`\n\n" << summary << ".\n\n";
  out << "| key | type | unit | default | range | meaning |\n"
         "| --- | --- | --- | --- | --- | --- |\n";
  for (const ModelParameter& parameter : preset.parameters) {
    const auto [key, type, unit, fallback, range, meaning] = parameter_columns(parameter);
    out << "| `" << key << "` | " << type << " | " << unit << " | "
        << (parameter.fallback.empty() ? fallback : cat("`", fallback, "`")) << " | " << range
        << " | " << meaning << " |\n";
  }
  const BuiltModel built = build_default_model(preset);
  out << "\nWith its defaults: coordinates " << code_list(built.tree->coordinate_names())
      << "; contacts " << code_list(built.tree->contact_names()) << ".\n";
}

// Where every shape's body frame is, and what the coordinates and joint points are measured in
// (multibody_input.hpp, models/planar/shape.hpp, models/spatial/spatial_bodies.hpp); the
// picture is drawn by tools/draw_body_frames.py.
void write_body_frames(std::ostream& out) {
  out << R"(
## Body frames

![The body frame of every shape](body_frames.svg)

Every body has a frame of its own, in which its shape, its joint points and (for a polygon)
its vertices are written; the picture shows each shape in its frame: the origin (black dot),
the x axis (red), y (green) and z (blue), and the centre of mass (⊕). A planar model's world
has y up (gravity along -y) and measures angles counter-clockwise; a spatial model's world has
z up.

| planar shape | the body's origin | its axes | its named points |
| --- | --- | --- | --- |
| `{segment: {length: L}}` (a rod, a link) | the middle, the centre of mass | x along the segment | `left_end` (-L/2, 0), `right_end` (L/2, 0); edges `bottom` (its -y side) and `top` |
| `{rectangle: {width: w, height: h}}` (a block) | the centre | x along the width, y along the height | `bottom_left` (-w/2, -h/2), `bottom_right`, `top_right`, `top_left`; edges `bottom`, `right`, `top`, `left` |
| `{disk: {radius: r}}` (a ball) | the centre | any: they mark the turn θ | the disk itself |
| `{polygon: {vertices: [[x, y], ...]}}` | the point [0, 0] of the vertices' coordinates | as the vertices are written | `v0`, `v1`, ... counter-clockwise; edge `e0` from `v0` to `v1`, ... |

- **A segment lies along its body's x axis.** A point on it is `[s, 0]` with -L/2 ≤ s ≤ L/2; a
  point `[0, s]` is off the segment, s beside its middle.
- **A free body's coordinates** are `NAME.x`, `NAME.y`, its centre of mass in the world [m],
  and `NAME.theta`, the angle from the world's x axis to its own, counter-clockwise [rad; or
  `30 deg`]; at θ = 0 it stands as written. A polygon's centre of mass is its centroid, wherever
  its frame's origin is, so `NAME.x` places the centroid.
- **A joint's points** are written in the frames of the bodies they belong to: `parent_point`
  in the parent's (the world's for `ground`), `child_point` in the child's. A link
  `{segment: {length: 1}}` pinned at its left end has `child_point: [-0.5, 0]`.
- **A revolute joint's angle** `CHILD.theta` is, with `angle: relative` (the default), the angle
  from the parent's x axis to the child's, counter-clockwise, 0 when both stand as written; with
  `angle: absolute`, from the world's x axis. The link above hangs straight down from the ground
  at θ = -90 deg (-π/2), and swings to the right as θ grows.
- **The named models** are built from these shapes: `ball` is a disk (θ its turn), `rod` a
  segment (θ = 0 horizontal; at 45 deg its left end is the lower), `rocking_block` and
  `stacked_blocks` rectangles (θ > 0 tilts a block onto its left corner), `two_disks` disks.
  `pendulum`, `double_pendulum` and `chain` measure each link's angle from the downward vertical,
  counter-clockwise (θ > 0 swings the tip toward +x).

| spatial shape | the body's origin | its axes |
| --- | --- | --- |
| `{sphere: {radius: r, centre: [x, y, z]}}` | the centre of mass; the sphere's centre sits at `centre` (default the origin; elsewhere for an eccentric sphere, whose `inertia` must be given) | the principal axes |
| `{box: {size: [a, b, c]}}` | the centre | edges a, b, c along x, y, z; corners named by their signs, `x+y-z-` |
| `{cylinder: {radius: r, height: h}}` | the centre | the axis along z; `top_rim` at z = +h/2, `bottom_rim` at -h/2 |

A spatial body's orientation turns its frame into the world's: at the identity quaternion
`[1, 0, 0, 0]` its axes are the world's, so a box of size `[a, b, c]` stands on its a × b face
and a cylinder on its base. Its angular velocity `NAME.wx`, `.wy`, `.wz` is in the body frame.
)";
}

// The scenario's other maps with the keys the loader accepts in each.
void write_scenario_maps(std::ostream& out) {
  out << "\n## The other maps of a scenario\n\n"
      << "Besides `model`, a scenario file holds the maps below; a key not listed is an\n"
      << "error that names the closest valid one. `friction` is one number (both coefficients) or\n"
      << "`{static: MU_S, kinetic: MU_D}`; `events.stop_on` lists outcome events (`overturn`,\n"
      << "`uplift`) that end the run. The ranges of the numbers, with the reason for each bound,\n"
      << "are in `sim/scenario/scenario_file.hpp`; `excitation` has its own page,\n"
      << "`docs/excitation.md`.\n\n"
      << "| map | what it holds | keys |\n| --- | --- | --- |\n";
  for (const ScenarioKeyTable& table : scenario_key_tables()) {
    out << "| " << (table.map.empty() ? std::string("(top level)") : cat("`", table.map, "`"))
        << " | " << table.meaning << " | " << comma_list(table.keys, "`") << " |\n";
  }
}

// What routh reads of a scenario file at most, from the limits the readers check (input_file.hpp,
// yaml_input.hpp), so that the page cannot drift from them.
void write_input_limits(std::ostream& out) {
  const auto mib = [](const InputKind& kind) { return cat(kind.max_bytes / kMebibyte, " MiB"); };
  out << "\n## The file itself\n\n"
      << "routh reads a scenario, a sweep file, an impact problem and a ground-motion record only\n"
      << "from a regular file: a directory, a FIFO or a device (`/dev/zero`) is refused by its "
         "type\n"
      << "before anything is read. It reads at most " << mib(kScenarioInput) << " of a scenario, "
      << mib(kSweepInput) << " of a sweep file,\n"
      << mib(kImpactProblemInput) << " of an impact problem and " << mib(kGroundRecordInput)
      << " of a ground-motion record (in lines of at most\n"
      << kMaxInputLineBytes / kMebibyte << " MiB); a YAML list of at most " << kMaxYamlListItems
      << " items and at most " << kMaxYamlNodes << " values (scalars,\n"
      << "lists and maps) in one file. A larger file is refused at the file, a longer list or\n"
      << "line at the first item or line past the limit, before anything is built from it. The\n"
      << "text must be UTF-8: a byte that is not is an error at its line and column, so that\n"
      << "names reach the terminal and the output files as they were written. A SIGINT or\n"
      << "SIGTERM while an input is read ends `routh run` with the `interrupted` exit code "
         "(130).\n";
}

}  // namespace

void write_models_markdown(std::ostream& out) {
  out << "# Models, and the keys of a scenario\n\n"
      << "<!-- Generated from the scenario checker's tables; do not edit. Regenerate with\n     "
      << kModelsMarkdownCommand << "\n-->\n\n"
      << "A scenario's `model` is either a named model, `model: {type: NAME, KEY: VALUE, ...}`,\n"
      << "or a generic multibody listing its own `bodies`, or free rigid bodies in space\n"
      << "(`dimension: 3`); the last section lists the keys of\n"
      << "the scenario's other maps. This page is written by `routh models --markdown` from the\n"
      << "tables `routh run` and `routh check` check a scenario against, and a test keeps it\n"
      << "identical to them.\n\n"
      << "Every key of a named model is optional: an absent key takes its default, and the\n"
      << "effective scenario in the trajectory file (`/scenario`) lists the value used. A number\n"
      << "outside its range, a key not in the model's table or a wrong `type` is an error at its\n"
      << "file, line and column that names the range or the closest valid key (for a key that\n"
      << "belongs in another map, that map's key: `restitution` at the top level is\n"
      << "`contact.restitution`). Where a key says\n"
      << "\"one number, or one per link\", a list gives each part its own value. The coordinates\n"
      << "are the names `initial.q` and `initial.v` take; the contacts are the names\n"
      << "`contact.contacts` takes and the event log (`/events`) reports.\n\n"
      << "| type | what it is |\n| --- | --- |\n";
  for (const ModelPreset& preset : model_presets()) {
    out << "| [`" << preset.name << "`](#" << preset.name << ") | " << preset.summary << " |\n";
  }
  for (const ModelPreset& preset : model_presets()) write_preset(out, preset);
  out << "\n## Obstacles\n\n"
      << "An obstacle is a ground-fixed half-plane, the side a body may occupy:\n\n"
      << "| obstacle | the free side |\n| --- | --- |\n"
      << "| `{type: floor, position: Y}` | y ≥ Y [m] |\n"
      << "| `{type: wall, position: X, free_side: positive}` | x ≥ X [m] (`negative`: x ≤ X) |\n"
      << "| `{type: plane, point: [X, Y], normal: [NX, NY]}` | the side of the line through the "
         "point that the normal (any length, not zero) points into |\n"
      << "\nPositions are in [-1e6, 1e6] m. A named model's `obstacle` replaces its default one;"
      << " `none`\nremoves it where the table allows.\n"
      << "\n## A generic multibody: `bodies`\n\n"
      << "Instead of a `type`, a model may list its own bodies, each a mass and optionally a\n"
      << "shape (rectangle, disk, segment or convex polygon), joined to the ground or to each\n"
      << "other by revolute or prismatic joints, with obstacles and collisions between bodies.\n"
      << "The shapes generate the contacts. Coordinates: a free body NAME (no joint's child) has\n"
      << "`NAME.x`, `NAME.y` (its centre of mass) [m] and `NAME.theta` (its frame's angle,\n"
      << "counter-clockwise, 0 as drawn) [rad]; a revolute joint's child has `CHILD.theta` [rad],\n"
      << "relative to its parent unless `angle: absolute`; a prismatic joint's child has\n"
      << "`CHILD.s` [m], the distance slid along the axis. Every key of the form:\n\n"
      << "```yaml\n"
      << kMultibodyForm << "```\n\n"
      << "Each body's shape and joint points are written in the body's own frame: a rectangle,\n"
      << "a disk and a segment are centred on its origin, and a segment lies along its x axis,\n"
      << "from (-length/2, 0) to (length/2, 0) (a rod drawn upright is a polygon of two\n"
      << "vertices, `{polygon: {vertices: [[0, -0.5], [0, 0.5]]}}`, or a segment turned by its\n"
      << "angle). A joint point farther from its body's shape than 1% of the\n"
      << "shape's size (on the segment; on or inside a rectangle, disk or polygon) is a warning\n"
      << "at the point that names the body, its shape and the distance.\n\n"
      << "The frames, the order of the bodies and the names of the generated contacts are\n"
      << "described in full in `sim/scenario/multibody_input.hpp`;\n"
      << "`scenarios/pendulum_strikes_block.yaml` is an example.\n"
      << "\n## Free rigid bodies in space: `dimension: 3`\n\n"
      << "With `dimension: 3` a model is a set of free rigid bodies in three dimensions:\n"
      << "spheres (centred, or eccentric like a tippe top), boxes and cylinders, each with six\n"
      << "degrees of freedom, touching ground-fixed planes and, if asked, each other (sphere on\n"
      << "sphere). The world's z points up and gravity pulls along -z. A body NAME has the\n"
      << "coordinates `NAME.x`, `NAME.y`, `NAME.z` (its centre of mass, world frame) [m] and\n"
      << "`NAME.qw`, `NAME.qx`, `NAME.qy`, `NAME.qz`, the unit quaternion that turns body-frame\n"
      << "vectors into world-frame ones; its velocities are `NAME.vx`, `NAME.vy`, `NAME.vz`\n"
      << "(centre of mass, world frame) [m/s] and `NAME.wx`, `NAME.wy`, `NAME.wz`, the angular\n"
      << "velocity in the body frame [rad/s]. The body axes are the principal axes, so the\n"
      << "inertia is three numbers; without them the mass is spread uniformly over the shape.\n"
      << "An orientation is written as a quaternion `[w, x, y, z]` (normalised on reading) or as\n"
      << "`{rpy: [roll, pitch, yaw]}`, rotations about the world's x, then y, then z. The "
         "contacts\n"
      << "have two tangential directions, so their laws must take spatial contacts: the\n"
      << "defaults are `sliding_ode` for one impact and `lcp` for several. An excitation may act\n"
      << "along `z` as well. Every key of the form, with its initial state:\n\n"
      << "```yaml\n"
      << kSpatialForm << "```\n\n"
      << "Contacts come from the shapes, one name each (`routh check` counts them; an event\n"
      << "lists them): a sphere against a plane is `BODY/PLANE`, two spheres `BODY/OTHER`; each\n"
      << "of a box's eight corners is `BODY.x+y-z-/PLANE` (the signs of the corner's body\n"
      << "coordinates); each rim of a cylinder (`top_rim` at z = +h/2, `bottom_rim` at -h/2) "
         "touches\n"
      << "a plane at four points: `RIM.x+` and `RIM.x-`, the two ends of the rim's diameter along\n"
      << "its tilt (the lowest and the highest point of a tilted rim, which move over the rim as\n"
      << "the body turns, and hand a rolling contact from one name to the other by an event), and\n"
      << "`RIM.y+`, `RIM.y-`, fixed points across it, so that a cylinder standing on its base\n"
      << "stands on four points, a square inscribed in the rim; these two belong to the flat\n"
      << "base alone, and leave the rim (an event) when it tilts. The square starts with `x+`\n"
      << "along the body x and is turned during the run toward the load it carries: where one of\n"
      << "its points would lift off while the centre of pressure is still inside the rim, `x+` is\n"
      << "turned to point at it, so that a drum tips only when its load reaches the rim (at a\n"
      << "ground acceleration g·2r/h, whatever its yaw), about `x+`; the names x± and y± follow\n"
      << "the turn. A box or a standing cylinder is watched for overturning: a box\n"
      << "when the body axis that was nearest the vertical at the start reaches the horizontal, a\n"
      << "cylinder when its tilt passes atan(2r/h), its centre of mass over the rim point it "
         "rocks\n"
      << "on.\n\n"
      << "The naming and normalising rules are described in full in\n"
      << "`sim/scenario/spatial_input.hpp`, the state and contacts in\n"
      << "`models/spatial/spatial_bodies.hpp` and `models/spatial/spatial_contact_geometry.hpp`.\n";
  write_body_frames(out);
  write_scenario_maps(out);
  write_input_limits(out);
}

}  // namespace routh::cli
