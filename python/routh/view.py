"""An interactive viewer of a run or a sweep, as one self-contained HTML page.

    python3 -m routh.view FILE.h5 [-o view.html] [--frames N] [--runs N] [--sweep SWEEP.yaml]
                          [--force]

A trajectory file (``routh run``'s) becomes an animation to play, pause, speed up and scrub,
its bodies in distinct colours with their names, joints as pins, contact points as dots that
turn red at an impact, the ground shaded and, under an excitation, moving by u_g(t) (its
acceleration integrated twice from rest; /q is in the ground's frame); strips below show the tilt of the rocking bodies (over
their slenderness α where /summary gives it), the energy, and under an excitation the ground
acceleration a_g(t), each with a cursor at the shown time. Planar models are drawn in an
orthographic camera, bodies in space (spheres, boxes, cylinders) in 3D with an orbit camera.

A sweep table (``routh sweep``'s) becomes a map of its runs over two swept columns (chosen on the
page), coloured by whether the run overturned or failed; clicking a run shows its row and the
``routh run`` command that reproduces it (its base scenario named from the current folder with
--sweep), and plays its trajectory when the sweep kept them
(``output.trajectories: true``) and the page holds them (--runs).

The page needs no server and no network: the JavaScript viewer (tools/viewer, three.js bundled by
esbuild into routh/viewer/viewer.js when routh is built) and the data (JSON) are written into it.
Positions come from routh.kinematics, which follows the rule of docs/output.md. A run of more
than --frames samples is shown at --frames times spread evenly over it, each at the last sample
at or before its time, as routh.animate does.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import sys
import tempfile
from pathlib import Path

import numpy as np

from routh.kinematics import (
    BOX_CORNER_NAMES,
    body_poses,
    body_poses_3d,
    box_corners,
    ground_displacement,
)
from routh.style import body_colours

BUNDLE = Path(__file__).with_name("viewer") / "viewer.js"
BUILD_HINT = (
    "the viewer's JavaScript is not built: build the CMake target routh_viewer (it needs node "
    "and npm: `cmake --build build/release --target routh_viewer`), or in tools/viewer run "
    "`npm ci && npm run build` and copy dist/viewer.js to {path}"
)
DEFAULT_FRAMES = 3000
DEFAULT_RUNS = 400  # a sweep's trajectories the page holds at most
RUN_FRAMES = 400  # frames of each of them
DIGITS = 6  # decimals kept of positions [m], angles [rad] and quaternions in the page


def _numbers(values, digits: int | None = DIGITS) -> list:
    """A numeric array as a JSON-ready list, rounded (unless `digits` is None), NaN and
    infinities as None."""
    array = np.asarray(values, float)
    if digits is not None:
        array = np.round(array, digits)
    return [None if not math.isfinite(x) else x for x in array.ravel().tolist()]


def frame_indices(time: np.ndarray, frames: int) -> np.ndarray:
    """The samples shown: all of them up to `frames`; beyond, the last sample at or before each
    of `frames` times spread evenly over the run (repeats removed)."""
    if len(time) <= frames:
        return np.arange(len(time))
    grid = np.linspace(time[0], time[-1], frames)
    return np.unique(np.clip(np.searchsorted(time, grid, side="right") - 1, 0, len(time) - 1))


def slenderness(summary: dict, body: str) -> float | None:
    """A body's slenderness α [rad] from /summary (its largest tilt over its largest tilt over
    α), or None when /summary does not give it."""
    tilt_max = summary.get(f"{body}.max_abs_theta")
    ratio = summary.get(f"{body}.max_theta_over_alpha")
    try:
        alpha = float(tilt_max) / float(ratio)
    except (TypeError, ValueError, ZeroDivisionError):
        return None
    return alpha if math.isfinite(alpha) and alpha > 0 else None


def _planar_scene(trajectory, rows: np.ndarray) -> dict:
    model = trajectory.model
    poses = body_poses(model, trajectory.q[rows], trajectory.names)
    colours = body_colours(model)
    bodies, tilts = [], []
    for body in model["bodies"]:
        p, phi = poses[body["name"]]
        joint = body["joint"]
        children = [other["joint"]["parent_point"] for other in model["bodies"]
                    if other["joint"]["parent"] == body["name"]]
        carried = [c["point"] for c in model["contacts"]
                   if c["body"] == body["name"] and "point" in c]
        bodies.append({
            "name": body["name"],
            "colour": colours[body["name"]],
            "shape": body["shape"],
            # a body without a shape is drawn from its joint point to what it carries
            "points": [joint["child_point"], *children, *carried],
            "x": _numbers(p[:, 0]), "y": _numbers(p[:, 1]), "phi": _numbers(phi),
        })
        # the bodies the run watches for overturning with a base to rock on: their tilt is
        # θ − θ₀, θ₀ = 0 the angle they stand upright at (docs/output.md, /summary)
        shape = body["shape"] or {}
        if joint["type"] == "free" and joint["parent"] is None and shape.get("type") == "polygon":
            tilts.append((body["name"], phi))
    # pins: every joint but a free one (a free body hangs on nothing)
    joints = [{"body": body["name"], "point": body["joint"]["child_point"]}
              for body in model["bodies"] if body["joint"]["type"] != "free"]
    # the contact points drawn, each with its index in /model's contacts (as /events has them)
    contacts = [{"index": k, "body": c["body"], "point": c["point"]}
                for k, c in enumerate(model["contacts"]) if "point" in c]
    return {"bodies": bodies, "joints": joints, "contacts": contacts, "tilts": tilts}


def up_axis(shape: dict, start: np.ndarray) -> np.ndarray | None:
    """The body axis (unit, body frame) that points up while a spatial body stands upright, as
    the run watches it (docs/output.md, /summary), from its orientation `start` (3, 3) at the
    first sample: a box's axis nearest the vertical; a cylinder's own axis, when it starts
    nearer the vertical than the horizontal. None for a sphere and a cylinder on its side."""
    if shape["type"] == "box":
        axis = int(np.argmax(np.abs(start[2])))
    elif shape["type"] == "cylinder" and abs(start[2, 2]) > math.sqrt(0.5):
        axis = 2
    else:
        return None
    return np.eye(3)[axis] * np.sign(start[2, axis])


def _spatial_scene(trajectory, rows: np.ndarray) -> dict:
    model = trajectory.model
    poses = body_poses_3d(model, trajectory.q[rows], trajectory.names)
    colours = body_colours(model)
    bodies, tilts = [], []
    for body in model["bodies"]:
        columns = [trajectory.names.index(name) for name in body["coordinates"]]
        quaternion = trajectory.q[rows][:, columns[3:]]
        quaternion = quaternion / np.linalg.norm(quaternion, axis=1, keepdims=True)
        p, rotation = poses[body["name"]]
        bodies.append({
            "name": body["name"],
            "colour": colours[body["name"]],
            "shape": body["shape"],
            "p": _numbers(p), "quaternion": _numbers(quaternion),
        })
        up = up_axis(body["shape"], rotation[0])
        if up is not None:
            # the angle between its up axis, turned into the world, and the world's z
            tilts.append((body["name"], np.arccos(np.clip((rotation @ up)[:, 2], -1.0, 1.0))))
    return {"bodies": bodies, "joints": [], "contacts": _box_corner_contacts(model),
            "tilts": tilts}


def _box_corner_contacts(model: dict) -> list:
    """The contacts of boxes' corners (named BODY.CORNER/OTHER, CORNER one of
    kinematics.BOX_CORNER_NAMES), each with its index in /model's contacts and its corner in
    the body frame [m]. The points of spheres and cylinder rims move on the body: not drawn."""
    shapes = {body["name"]: body["shape"] for body in model["bodies"]}
    contacts = []
    for k, contact in enumerate(model["contacts"]):
        shape = shapes.get(contact["body"], {})
        corner = contact["name"].split("/")[0].removeprefix(f"{contact['body']}.")
        if shape.get("type") == "box" and corner in BOX_CORNER_NAMES:
            point = box_corners(shape["size"])[BOX_CORNER_NAMES.index(corner)]
            contacts.append({"index": k, "body": contact["body"], "point": point.tolist()})
    return contacts


def _strips(trajectory, rows: np.ndarray, tilts: list, colours: dict) -> list:
    """The strips under the scene: tilt (over α when every tilting body has one; each body's
    line in its colour), energy, a_g."""
    strips = []
    if tilts:
        alphas = [slenderness(trajectory.summary, name) for name, _ in tilts]
        over_alpha = all(alpha is not None for alpha in alphas)
        series = [{"name": name, "colour": colours[name],
                   "values": _numbers(values / alpha if over_alpha else values, 4)}
                  for (name, values), alpha in zip(tilts, alphas)]
        strips.append({
            "title": "tilt θ / α" if over_alpha else "tilt θ",
            "unit": "–" if over_alpha else "rad",
            "series": series,
            "levels": [-1, 1] if over_alpha else [],
        })
    energy_names = trajectory.energy_names or ["kinetic", "potential", "total"]
    strips.append({
        "title": "energy", "unit": "J",
        "series": [{"name": name, "values": _numbers(trajectory.energy[rows, k], 5)}
                   for k, name in enumerate(energy_names)],
        "levels": [],
    })
    if trajectory.ground_acceleration is not None:
        axes = "xyz"
        strips.append({
            "title": "ground acceleration a_g", "unit": "m/s²",
            "series": [{"name": f"a_g,{axes[k]}",
                        "values": _numbers(trajectory.ground_acceleration[rows, k], 4)}
                       for k in range(trajectory.ground_acceleration.shape[1])
                       if np.any(trajectory.ground_acceleration[:, k] != 0)],
            "levels": [],
        })
    return strips


def _impacts(trajectory) -> list:
    """Every impact: its time [s] and the indices of its contacts in /model's contacts."""
    events = trajectory.events
    if events is None or not len(events):
        return []
    impacts = events[events["kind"] == "impact"]
    return [{"t": float(time), "contacts": [int(c) for c in indices.split(",") if c]}
            for time, indices in zip(impacts["t"], impacts["contact_indices"])]


def trajectory_data(trajectory, frames: int = DEFAULT_FRAMES, title: str | None = None) -> dict:
    """The page's data for one trajectory (a routh.Trajectory): frames, bodies, strips."""
    if trajectory.model is None:
        raise SystemExit(f"{trajectory.path}: no /model (written before format version 2): "
                         "run the scenario again with this routh to view it")
    if len(trajectory.time) == 0:
        raise SystemExit(f"{trajectory.path}: no samples to show")
    rows = frame_indices(np.asarray(trajectory.time, float), frames)
    dimension = trajectory.dimension
    scene = (_spatial_scene if dimension == 3 else _planar_scene)(trajectory, rows)
    model = trajectory.model
    ground = None
    if trajectory.ground_acceleration is not None:
        displacement = ground_displacement(np.asarray(trajectory.time, float),
                                           np.asarray(trajectory.ground_acceleration, float))
        ground = [_numbers(displacement[rows, k]) for k in range(displacement.shape[1])]
    return {
        "kind": "trajectory",
        "title": title or os.path.basename(trajectory.path or "run"),
        "status": trajectory.status, "law": trajectory.law,
        "dimension": dimension,
        # exact: a frame's time is its sample's, so that the page and the file agree on
        # which sample is shown at any time
        "time": _numbers(np.asarray(trajectory.time)[rows], None),
        "samples": int(len(trajectory.time)),
        "bodies": scene["bodies"], "joints": scene["joints"],
        "contacts": scene["contacts"],
        "contact_bodies": [c["body"] for c in model["contacts"]],
        "obstacles": model["obstacles"],
        "impacts": _impacts(trajectory),
        "strips": _strips(trajectory, rows, scene["tilts"],
                          {body["name"]: body["colour"] for body in scene["bodies"]}),
        "ground": ground,  # u_g per axis and frame [m], None without an excitation
    }


# ---- sweep tables ------------------------------------------------------------------------

RATIO_KEYS = (".frequency_ratio", ".amplitude_ratio")  # sweep keys that are not scenario keys


def scenario_number(value: float) -> str:
    """A number as routh sweep passes it to --set: the shortest text that reads back exactly,
    without a trailing .0 (C++'s std::to_chars)."""
    if value.is_integer() and abs(value) < 1e16:
        return str(int(value))
    return repr(value)


def _sweep_settings(sweep_text: str) -> tuple[str | None, list]:
    """The sweep file's base path and its `set:` overrides, as (key, text) pairs."""
    try:
        import yaml
    except ImportError:  # without PyYAML the command names BASE.yaml and no fixed overrides
        return None, []
    try:
        sweep = yaml.safe_load(sweep_text) or {}
    except yaml.YAMLError:  # routh read it: only a table written by hand gets here
        return None, []
    fixed = sweep.get("set") or {}
    return sweep.get("base"), [(str(k), v if isinstance(v, str) else json.dumps(v))
                               for k, v in fixed.items()]


def reproduce_command(base: str | None, settings: list, row: dict, keys: list) -> str:
    """The routh run command line that runs one row of a sweep again: the base scenario, the
    sweep's fixed `set:` overrides, then the row's swept values (a ratio through the period and
    amplitude it set)."""
    words = ["routh", "run", base or "BASE.yaml"]
    for key, text in settings:
        words += ["--set", f"{key}={text}"]
    for key in keys:
        value = row[key]
        text = scenario_number(float(value)) if isinstance(value, (int, float)) else str(value)
        words += ["--set", f"{key}={text}"]
    return shlex.join(words)


def sweep_data(path: str, runs_limit: int = DEFAULT_RUNS, sweep_file: str | None = None) -> dict:
    """The page's data for a sweep table: its columns, the run commands, kept trajectories.
    The commands name the base scenario as the sweep file does (relative to its folder), or,
    given the `sweep_file` the table came from, from the current folder (the shorter of its
    relative and absolute paths)."""
    from routh.api import load_sweep
    from routh.trajectory import load

    table = load_sweep(path)
    columns = list(table.columns)
    swept = columns[1:columns.index("status")] if "status" in columns else []
    keys = [c for c in swept if not c.endswith(RATIO_KEYS)]
    base, settings = _sweep_settings(table.attrs.get("sweep", ""))
    if base is not None and sweep_file is not None:
        path_from_here = Path(sweep_file).parent / base
        base = min(os.path.relpath(path_from_here), os.path.abspath(path_from_here), key=len)
    rows = table.to_dict("records")
    folder = Path(path).with_name(Path(path).stem + "_runs")
    trajectories, files = {}, {}
    for row in rows:
        run = int(row["run"])
        candidate = folder / f"run_{run:06d}.h5"
        if candidate.is_file():
            files[run] = str(candidate)
    if files and len(files) <= runs_limit:
        for run, file in files.items():
            try:
                trajectories[run] = trajectory_data(load(file), RUN_FRAMES,
                                                    title=f"run {run} ({os.path.basename(file)})")
            except (OSError, ValueError, SystemExit) as error:
                print(f"{file}: not shown ({error})", file=sys.stderr)

    def column(name):
        values = table[name].tolist()
        if all(isinstance(v, (int, float, np.integer, np.floating)) for v in values):
            return _numbers(values, 12)
        return [str(v) for v in values]

    units = table.attrs.get("units", {})
    return {
        "kind": "sweep",
        "title": os.path.basename(path),
        "columns": [{"name": c, "unit": units.get(c, ""), "values": column(c)} for c in columns],
        "swept": swept,
        "base": base,
        "base_from_here": sweep_file is not None,
        "commands": [reproduce_command(base, settings, row, keys) for row in rows],
        "files": {str(run): file for run, file in files.items()},
        "trajectories": {str(run): data for run, data in trajectories.items()},
    }


# ---- the page ----------------------------------------------------------------------------

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="routh.view">
<title>{title}</title></head>
<body><div id="routh-viewer"></div>
<script type="application/json" id="routh-data">{data}</script>
<script>{bundle}</script>
</body></html>
"""


def page(data: dict, bundle: str) -> str:
    """The HTML page: the data as JSON (no `</` inside, so it cannot end its script element)
    and the viewer's bundle."""
    text = json.dumps(data, separators=(",", ":"), allow_nan=False).replace("</", "<\\/")
    title = data["title"].replace("&", "&amp;").replace("<", "&lt;")
    return PAGE.format(title=f"{title}: routh viewer", data=text,
                       bundle=bundle.replace("</script", "<\\/script"))


def is_sweep_table(path: str) -> bool:
    """Whether the HDF5 file at `path` is a sweep's table (else it is read as a trajectory)."""
    import h5py

    from routh.trajectory import _is_sweep_table

    with h5py.File(path, "r") as f:
        return _is_sweep_table(f)


def write_atomically(target: Path, text: str) -> None:
    """Writes `text` to a temporary file beside `target`, then renames it onto `target`."""
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.tmp-", dir=target.parent or ".")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, target)
    except BaseException:
        os.unlink(temporary)
        raise


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="routh view", description="Write one self-contained HTML page that plays a "
        "trajectory file or maps a sweep table (open it in any browser; no server needed).")
    parser.add_argument("file", help="a trajectory file (routh run) or a sweep table (routh sweep)")
    parser.add_argument("-o", "--output", help="the page to write (default: FILE.html beside FILE)")
    parser.add_argument("--frames", type=int, default=DEFAULT_FRAMES,
                        help=f"most frames of a trajectory (default {DEFAULT_FRAMES})")
    parser.add_argument("--runs", type=int, default=DEFAULT_RUNS,
                        help="a sweep's kept trajectories the page holds at most (default "
                        f"{DEFAULT_RUNS}; beyond, a click shows the run's file)")
    parser.add_argument("--sweep", metavar="SWEEP.yaml",
                        help="the sweep file a table came from: the run commands then name the "
                        "base scenario relative to the current folder")
    parser.add_argument("--force", action="store_true", help="replace an existing page")
    options = parser.parse_args(argv)
    source = Path(options.file)
    target = Path(options.output) if options.output else source.with_suffix(".html")
    if options.frames < 2:
        parser.error("--frames must be at least 2")
    if not source.is_file():
        parser.error(f"{source}: no such file")
    if target.exists() and (target.resolve() == source.resolve() or not options.force):
        parser.error(f"{target} exists: pass --force to replace it"
                     if target.resolve() != source.resolve() else f"{target} is the input")
    if not BUNDLE.is_file():
        print(f"routh view: {BUILD_HINT.format(path=BUNDLE)}", file=sys.stderr)
        return 2
    from routh.trajectory import load

    try:
        if is_sweep_table(str(source)):
            data = sweep_data(str(source), options.runs, options.sweep)
        else:
            data = trajectory_data(load(source), options.frames)
    except (OSError, ValueError) as error:  # not HDF5, damaged, not routh's
        print(f"routh view: {source}: {error}", file=sys.stderr)
        return 1
    write_atomically(target, page(data, BUNDLE.read_text(encoding="utf-8")))
    print(f"{target}: {data['kind']} of {source} ({target.stat().st_size // 1024} kB); "
          "open it in a browser")
    return 0


if __name__ == "__main__":
    sys.exit(main())
