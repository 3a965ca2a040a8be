"""Pictures of a run, as matplotlib Figures (no backend is chosen: notebooks and scripts keep
theirs).

    routh plot FILE.h5 -o out.png [--phase] [--start T0] [--end T1]
    routh plot SWEEP.h5|SWEEP.csv -o map.png --x KEY --y KEY
        [--tan-alpha 0.2 --p 3.80 [--g 9.81]] [--rocked 1e-6] [--title TEXT]

(``routh plot ARGS`` runs ``python3 -m routh.plot ARGS``.) From Python, ``plot_trajectory(run)``
takes a Trajectory (``routh.run``'s result, saved or not, or ``routh.load``'s) or a file's path
and returns the Figure; ``overturning_map(table, x, y)`` likewise for a sweep's table.

A trajectory gives one panel per quantity and unit, never two units on one axis: positions [m],
angles [rad], velocities [m/s], angular velocities [rad/s], the energy [J] and, when the run was
excited, the ground's acceleration [m/s²] and displacement [m] (integrated from rest:
routh.kinematics.ground_displacement). Each body has its own colour in every panel (the colours of
routh.animate), its coordinates named in the legends; impacts are red vertical lines, other events
grey. --phase draws each coordinate's phase portrait (q, v) instead. Bodies in space (a /model of
dimension 3) get panels for their centres of mass, the velocities of those, their angular speeds
|ω| and the tilt of each body's z axis from the vertical, and their phase portraits pair each
centre-of-mass coordinate with its velocity. --start and --end [s] keep a part of the run.

A sweep's table (``routh sweep``: its HDF5 file, root attribute format = "routh-sweep", or its
CSV) gives the overturning map: each run a point at its two swept values, marked by its outcome:
overturned (red), rocked without overturning (blue: its largest rotation from upright above
--rocked rad), stayed put (grey), or did not complete (black x, its status in the legend). For
scenarios/sweeps/overturning_spectrum.yaml the red region is the overturning spectrum of Housner
(1963) and Zhang & Makris (2001); --tan-alpha with --p gives their normalised axes: omega_p / p on
x (omega_p = 2 pi / T_p) and a_p / (g tan alpha) on y. A swept key of text values (the records
of a records x scales sweep) cannot be an axis: the map has one panel per value of it. Prints how
many runs fell in each class.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import stat
import sys
from pathlib import Path

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure

from routh.kinematics import body_poses_3d, body_velocities_3d, ground_displacement, tilt
from routh.style import CURVE_WIDTH, IMPACT_COLOUR, body_colours, coordinate_bodies
from routh.trajectory import Trajectory, _is_sweep_table, hdf5_text, hdf5_texts, load

# ---- trajectories -------------------------------------------------------------------------

# the panels of a planar model's coordinates and velocities, by unit
_QUANTITIES = {"m": "position", "rad": "angle", "m/s": "velocity", "rad/s": "angular velocity"}
_STYLES = ("-", "--", ":", "-.")  # a body's successive curves in one panel
_DIRECTIONS = "xyz"
_LEGEND_ROWS = 12  # a panel's legend wraps into columns beyond this many curves


def as_trajectory(source) -> Trajectory:
    """`source` itself when it is a Trajectory, else the trajectory file it names."""
    return source if isinstance(source, Trajectory) else load(source)


def run_name(trajectory: Trajectory) -> str:
    """What the pictures call a run: its file's name, else its scenario's name."""
    if trajectory.path:
        return Path(trajectory.path).name
    for line in (trajectory.scenario or "").splitlines():
        if line.startswith("name:"):
            return line.split(":", 1)[1].strip()
    return "run"


def time_window(trajectory: Trajectory, start=None, end=None) -> tuple[float, float]:
    """The part [start, end] [s] of the run that is shown (the whole run by default), clipped to
    the run; ValueError when none of the run lies in it."""
    time = trajectory.time
    first = float(time[0] if start is None else max(start, time[0]))
    last = float(time[-1] if end is None else min(end, time[-1]))
    if last < first:
        asked = " and ".join(f"--{name} {value:g} s" for name, value in
                             (("start", start), ("end", end)) if value is not None)
        raise ValueError(f"{run_name(trajectory)}: no part of the run lies within {asked} (it "
                         f"goes from {time[0]:g} s to {time[-1]:g} s)")
    return first, last


def shown_samples(trajectory: Trajectory, start=None, end=None) -> np.ndarray:
    """The samples within time_window, as a boolean mask (at least one sample)."""
    first, last = time_window(trajectory, start, end)
    time = trajectory.time
    keep = (time >= first) & (time <= last)
    keep[np.searchsorted(time, first, side="right") - 1] = True
    return keep


def _mark_events(axes, trajectory, start, end) -> None:
    """The events within [start, end] as vertical lines: impacts red, the others grey (one
    collection each: a long run has thousands)."""
    events = trajectory.events
    if events is None or len(events) == 0:
        return
    t = np.asarray(events["t"], float)
    within = (t >= start) & (t <= end)
    impact = np.asarray(events["kind"] == "impact")
    for chosen, colour, width in ((~impact, "0.6", 0.6), (impact, IMPACT_COLOUR, 1.0)):
        # from bottom to top of the panel whatever its values: no part of its limits
        lines = LineCollection([[(x, 0.0), (x, 1.0)] for x in t[within & chosen]],
                               transform=axes.get_xaxis_transform(), colors=colour, lw=width,
                               alpha=0.6, zorder=0)
        axes.add_collection(lines, autolim=False)


def _upward(model: dict) -> np.ndarray:
    """The unit vector against gravity (world z when there is none)."""
    gravity = np.asarray(model.get("gravity", (0.0, 0.0, -1.0)), float)
    norm = np.linalg.norm(gravity)
    return -gravity / norm if norm > 0 else np.array([0.0, 0.0, 1.0])


def _curve_styles(trajectory, names) -> list:
    """(colour, line style) of each named column: its body's colour, and the body's next style."""
    model = trajectory.model if isinstance(trajectory.model, dict) else None
    colours = body_colours(model) if model else {}
    owners = coordinate_bodies(model) if model else {}
    used: dict[str, int] = {}
    styles = []
    for name in names:
        body = owners.get(name, name.split(".")[0])
        used[body] = used.get(body, -1) + 1
        styles.append((colours.get(body), _STYLES[used[body] % len(_STYLES)]))
    return styles


def _labelled(trajectory, name: str) -> str:
    """A column's legend: its name, with its body's in front when the name lacks it."""
    model = trajectory.model if isinstance(trajectory.model, dict) else None
    body = coordinate_bodies(model).get(name) if model else None
    return name if body is None or name.startswith(body + ".") else f"{body}: {name}"


def _by_unit(trajectory, values, names, units) -> list:
    """One panel per unit of the columns: (y label, [(values, legend, colour, style)])."""
    panels = []
    order = list(_QUANTITIES)
    for unit in sorted(dict.fromkeys(units),
                       key=lambda u: order.index(u) if u in order else len(order)):
        columns = [k for k, u in enumerate(units) if u == unit]
        styles = _curve_styles(trajectory, [names[k] for k in columns])
        label = f"{_QUANTITIES.get(unit, 'coordinate')} [{unit}]"
        panels.append((label, [(values[:, k], _labelled(trajectory, names[k]), *style)
                               for k, style in zip(columns, styles)]))
    return panels


def _motion_panels(trajectory) -> list:
    """The panels of a trajectory's motion, each (y label, [(values (N,), legend, colour, line
    style)]): a planar model's coordinates and velocities, one panel per unit; for bodies in
    space, their centres of mass, the velocities of those, their angular speeds |ω| and their
    tilts (the angle of each body's z axis from the vertical: quaternion components are not
    angles)."""
    if trajectory.dimension != 3:
        return (_by_unit(trajectory, trajectory.q, trajectory.names, trajectory.q_units)
                + _by_unit(trajectory, trajectory.v, trajectory.v_names, trajectory.v_units))
    model = trajectory.model
    colours = body_colours(model)
    poses = body_poses_3d(model, trajectory.q, trajectory.names)
    velocities = body_velocities_3d(model, trajectory.v, trajectory.v_names)
    up = _upward(model)
    centres, speeds, spins, tilts = [], [], [], []
    for body in model["bodies"]:
        name, colour = body["name"], colours[body["name"]]
        (p, orientation), (velocity, omega) = poses[name], velocities[name]
        centres += [(p[:, k], f"{name}.{axis}", colour, _STYLES[k])
                    for k, axis in enumerate(_DIRECTIONS)]
        speeds += [(velocity[:, k], f"{name}.v{axis}", colour, _STYLES[k])
                   for k, axis in enumerate(_DIRECTIONS)]
        spins.append((np.linalg.norm(omega, axis=1), f"{name} |ω|", colour, "-"))
        tilts.append((np.degrees(tilt(orientation, up)), name, colour, "-"))
    return [("centre of mass [m]", centres), ("velocity [m/s]", speeds),
            ("angular speed [rad/s]", spins), ("tilt of body z [°]", tilts)]


def _ground_panels(trajectory) -> list:
    """The ground's acceleration [m/s²] and displacement [m] panels of an excited run, its
    directions that move (all of them when none does)."""
    acceleration = trajectory.ground_acceleration
    if acceleration is None:
        return []
    displacement = ground_displacement(trajectory.time, acceleration)
    moving = [k for k in range(acceleration.shape[1]) if np.any(acceleration[:, k] != 0)]
    moving = moving or list(range(acceleration.shape[1]))
    return [("ground acc. [m/s²]", [(acceleration[:, k], f"a_g,{_DIRECTIONS[k]}", "black",
                                     _STYLES[n]) for n, k in enumerate(moving)]),
            ("ground displ. [m]", [(displacement[:, k], f"d_g,{_DIRECTIONS[k]}", "black",
                                    _STYLES[n]) for n, k in enumerate(moving)])]


def _phase_pairs(trajectory) -> list:
    """(q column, v column) of each phase portrait: every coordinate with its rate in a planar
    model; each centre-of-mass coordinate with its velocity for bodies in space."""
    if trajectory.dimension != 3:
        return [(k, k) for k in range(len(trajectory.names))]
    return [(trajectory.names.index(f"{body['name']}.{axis}"),
             trajectory.v_names.index(f"{body['name']}.v{axis}"))
            for body in trajectory.model["bodies"] for axis in _DIRECTIONS]


def plot_trajectory(source, output=None, phase: bool = False, start: float | None = None,
                    end: float | None = None) -> Figure:
    """The Figure of a run: `source` is a Trajectory or a trajectory file's path. Saved to the
    image `output` when given (its suffix chooses the format). `start` and `end` [s] keep a part
    of the run. Built without pyplot: the caller's backend is left as it is."""
    trajectory = as_trajectory(source)
    keep = shown_samples(trajectory, start, end)
    t = trajectory.time[keep]
    if phase:
        pairs = _phase_pairs(trajectory)
        styles = _curve_styles(trajectory, [trajectory.names[i] for i, _ in pairs])
        columns = min(len(pairs), 3 if trajectory.dimension == 3 else len(pairs))
        rows = -(-len(pairs) // columns)
        figure = Figure(figsize=(4 * columns, 4 * rows), dpi=100, layout="constrained")
        axes = figure.subplots(rows, columns, squeeze=False)
        for ax, (i, j), (colour, _) in zip(axes.flat, pairs, styles):
            ax.plot(trajectory.q[keep, i], trajectory.v[keep, j], lw=CURVE_WIDTH, color=colour)
            ax.set_xlabel(f"{_labelled(trajectory, trajectory.names[i])} "
                          f"[{trajectory.q_units[i]}]")
            ax.set_ylabel(f"{trajectory.v_names[j]} [{trajectory.v_units[j]}]")
            ax.grid(True, alpha=0.3)
        for ax in axes.flat[len(pairs):]:
            ax.axis("off")
        figure.suptitle(f"{run_name(trajectory)}: phase portraits")
    else:
        panels = _motion_panels(trajectory)
        panels.append(("energy [J]", [(trajectory.energy[:, k], name, "black", _STYLES[k])
                                      for k, name in enumerate(trajectory.energy_names)]))
        panels += _ground_panels(trajectory)
        figure = Figure(figsize=(9, 2.2 * len(panels) + 0.6), dpi=100, layout="constrained")
        axes = figure.subplots(len(panels), 1, sharex=True, squeeze=False)[:, 0]
        for ax, (label, curves) in zip(axes, panels):
            for values, legend, colour, style in curves:
                ax.plot(t, values[keep], lw=CURVE_WIDTH, color=colour, ls=style, label=legend)
            ax.set_ylabel(label)
            _mark_events(ax, trajectory, t[0], t[-1])
            ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False,
                      ncol=-(-len(curves) // _LEGEND_ROWS),
                      fontsize="small" if len(curves) <= _LEGEND_ROWS else "x-small")
            ax.grid(True, alpha=0.3)
        axes[-1].set_xlabel("t [s]")
        axes[-1].set_xlim(t[0], t[-1])
        events = trajectory.events
        kinds = list(events["kind"]) if events is not None and len(events) else []
        impacts = sum(kind == "impact" for kind in kinds)
        figure.suptitle(f"{run_name(trajectory)}: {impacts} impacts (red lines), "
                        f"{len(kinds) - impacts} other events (grey)")
    if output is not None:
        figure.savefig(output)
    return figure


# ---- sweep tables: the overturning map ----------------------------------------------------

CLASSES = [  # (name, colour, marker)
    ("overturned", "tab:red", "s"),
    ("rocked", "tab:blue", "o"),
    ("at rest", "0.75", "."),
]


def regular_file(path):
    """`path`, checked to be a regular file, as routh's own readers check their inputs: a FIFO
    would block the reading for ever and a device such as /dev/zero never end."""
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        kind = ("a directory" if stat.S_ISDIR(mode) else
                "a FIFO (named pipe)" if stat.S_ISFIFO(mode) else
                "a character device" if stat.S_ISCHR(mode) else "a special file")
        raise ValueError(f"{path}: is {kind}, not a regular file")
    return path


def is_sweep_table(path) -> bool:
    """A sweep's CSV, or an HDF5 file whose root `format` is routh-sweep."""
    if str(path).endswith(".csv"):
        return True
    import h5py

    with h5py.File(regular_file(path), "r") as f:
        return _is_sweep_table(f)


def read_sweep_table(path) -> list[dict]:
    """The runs of a sweep's table, one dict of column -> text per run (CSV or HDF5)."""
    if str(path).endswith(".csv"):
        with open(regular_file(path), newline="") as table:
            rows = list(csv.DictReader(table))
    else:
        import h5py

        with h5py.File(regular_file(path), "r") as f:
            runs = f["runs"]
            columns = hdf5_texts(runs.attrs["columns"])
            values = {c: runs[c][()] for c in columns}
        count = len(next(iter(values.values()))) if values else 0
        rows = [{c: str(hdf5_text(v[i])) for c, v in values.items()} for i in range(count)]
    if not rows:
        raise SystemExit(f"{path}: the table has no runs")
    return rows


def run_outcome(row: dict, rocked_rad: float) -> str:
    """overturned, rocked, at rest, or the status of a run that did not complete."""
    if row["status"] not in ("completed", "stopped_on_event"):
        return row["status"]
    if row["overturned"] in ("1", "True"):
        return "overturned"
    return "rocked" if float(row["max_abs_theta"]) > rocked_rad else "at rest"


def swept_text_columns(rows: list[dict]) -> list[str]:
    """The swept keys (the columns between run and status) whose values are text, such as a
    record file: they cannot be an axis, so the map draws one panel per value."""
    columns = list(rows[0])
    first = columns.index("run") + 1 if "run" in columns else 0
    keys = columns[first:columns.index("status") if "status" in columns else len(columns)]
    return [key for key in keys if not all(_is_number(row[key]) for row in rows)]


def _is_number(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


def _table_rows(table) -> list[dict]:
    """A sweep's runs as dicts of column -> text: `table` is its path (HDF5 or CSV), the
    DataFrame routh.load_sweep gives, or such dicts already."""
    if isinstance(table, list):
        return table
    if hasattr(table, "to_dict"):
        rows = [{c: str(v) for c, v in row.items()} for row in table.to_dict("records")]
        if not rows:
            raise SystemExit("the sweep table has no runs")
        return rows
    return read_sweep_table(table)


def column_units(table) -> dict:
    """{column: unit} of a sweep table where it says them: routh.load_sweep's DataFrame and an
    HDF5 table do (each column's `units`), a CSV does not."""
    if hasattr(table, "attrs"):
        return dict(table.attrs.get("units", {}))
    if isinstance(table, (str, os.PathLike)) and not str(table).endswith(".csv"):
        import h5py

        with h5py.File(regular_file(table), "r") as f:
            runs = f["runs"]
            return {c: hdf5_text(runs[c].attrs.get("units", ""))
                    for c in hdf5_texts(runs.attrs["columns"])}
    return {}


def _labelled_column(name: str, units: dict) -> str:
    """A column's axis label: its name and its unit when the table gives one."""
    return f"{name} [{units[name]}]" if units.get(name) else name


def _map_panels(rows: list[dict], x: str, y: str, source) -> tuple[list[str], list[tuple]]:
    """The text keys that split the map into panels and each panel's values of them; checks that
    x and y are numeric columns."""
    for key in (x, y):
        if key not in rows[0]:
            raise SystemExit(f"{source}: no column '{key}' (columns: {', '.join(rows[0])})")
        if not all(_is_number(row[key]) for row in rows):
            example = next(row[key] for row in rows if not _is_number(row[key]))
            raise SystemExit(
                f"{source}: column '{key}' holds text (e.g. '{example}'), not numbers: it cannot "
                f"be an axis; give a numeric column as --x and --y (the map draws one panel per "
                f"value of each text key)")
    panel_keys = [key for key in swept_text_columns(rows) if key not in (x, y)]
    return panel_keys, sorted({tuple(row[key] for key in panel_keys) for row in rows})


def _class_order(name: str) -> int:
    order = [c for c, _, _ in CLASSES]
    return order.index(name) if name in order else len(order)


def outcome_counts(table, rocked: float = 1e-6) -> dict:
    """{class: run count} of a sweep table's runs (overturned, rocked, at rest, or a status)."""
    counts: dict[str, int] = {}
    for row in _table_rows(table):
        outcome = run_outcome(row, rocked)
        counts[outcome] = counts.get(outcome, 0) + 1
    return dict(sorted(counts.items(), key=lambda item: _class_order(item[0])))


def overturning_map(table, x, y, tan_alpha=None, p=None, g=9.81, rocked=1e-6,
                    title="overturning map", units: dict | None = None) -> Figure:
    """The overturning map of a sweep table (its path, HDF5 or CSV, or routh.load_sweep's
    DataFrame) over the numeric columns x and y, as a Figure built without pyplot; `units`
    ({column: unit}) label the axes, read from the table by default. A swept key of text values
    (records of a records × scales sweep) gives one panel per value."""
    units = column_units(table) if units is None else units
    rows = _table_rows(table)
    source = table if isinstance(table, (str, os.PathLike)) else "the sweep table"
    panel_keys, panels = _map_panels(rows, x, y, source)
    columns = min(len(panels), 3)
    lines = (len(panels) + columns - 1) // columns
    figure = Figure(figsize=(7 * columns, 5 * lines), dpi=120, layout="constrained")
    grid = figure.subplots(lines, columns, squeeze=False)
    styles = {name: (colour, marker) for name, colour, marker in CLASSES}
    for index, panel in enumerate(panels):
        axes = grid[index // columns][index % columns]
        chosen = [row for row in rows if tuple(row[key] for key in panel_keys) == panel]
        xs = [float(row[x]) for row in chosen]
        ys = [float(row[y]) for row in chosen]
        x_label, y_label = _labelled_column(x, units), _labelled_column(y, units)
        if tan_alpha and p:
            xs = [2.0 * math.pi / (period * p) for period in xs]
            ys = [amplitude / (g * tan_alpha) for amplitude in ys]
            x_label, y_label = "ω_p / p", "a_p / (g tan α)"
        classes = [run_outcome(row, rocked) for row in chosen]
        for name in sorted(set(classes), key=_class_order):
            colour, marker = styles.get(name, ("k", "x"))
            points = [(xi, yi) for xi, yi, c in zip(xs, ys, classes) if c == name]
            axes.scatter([q[0] for q in points], [q[1] for q in points], c=colour, marker=marker,
                         s=18, label=f"{name} ({len(points)})")
        axes.set_xlabel(x_label)
        axes.set_ylabel(y_label)
        subtitle = ", ".join(f"{key} = {value}" for key, value in zip(panel_keys, panel))
        axes.set_title(f"{title}\n{subtitle}" if subtitle else title, fontsize="medium")
        axes.legend(loc="upper left", fontsize="small")
        axes.grid(True, alpha=0.3)
    for index in range(len(panels), lines * columns):
        grid[index // columns][index % columns].axis("off")
    return figure


def plot_overturning_map(path, output, x, y, tan_alpha=None, p=None, g=9.81, rocked=1e-6,
                         title="overturning map") -> dict:
    """Saves the overturning map of the sweep table `path` to `output` and prints how many runs
    fell in each class; returns {class: run count}."""
    rows = read_sweep_table(path)
    _map_panels(rows, x, y, path)  # its errors name the file
    figure = overturning_map(rows, x, y, tan_alpha, p, g, rocked, title, column_units(path))
    counts = outcome_counts(rows, rocked)
    for name, count in counts.items():
        print(f"{name} {count}")
    figure.savefig(output)
    return counts


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="routh plot", description=__doc__.splitlines()[0])
    parser.add_argument("file", help="a trajectory file, or a sweep's table (HDF5 or CSV)")
    parser.add_argument("-o", "--output", required=True, help="the image to write")
    parser.add_argument("--phase", action="store_true", help="phase portraits (trajectories)")
    parser.add_argument("--start", type=float, help="trajectory: from this time on [s]")
    parser.add_argument("--end", type=float, help="trajectory: up to this time [s]")
    parser.add_argument("--x", help="sweep: column on the horizontal axis")
    parser.add_argument("--y", help="sweep: column on the vertical axis")
    parser.add_argument("--tan-alpha", type=float, help="the block's slenderness tan(alpha)")
    parser.add_argument("--p", type=float, help="the block's frequency parameter p [rad/s]")
    parser.add_argument("--g", type=float, default=9.81, help="the model's gravity [m/s^2]")
    parser.add_argument("--rocked", type=float, default=1e-6, help="rotation that counts [rad]")
    parser.add_argument("--title", default="overturning map")
    args = parser.parse_args(argv)
    try:
        if is_sweep_table(args.file):
            if not (args.x and args.y):
                parser.error("a sweep table needs --x and --y (its swept columns)")
            plot_overturning_map(args.file, args.output, args.x, args.y, args.tan_alpha, args.p,
                                 args.g, args.rocked, args.title)
        else:
            plot_trajectory(args.file, args.output, args.phase, args.start, args.end)
            print(args.output)
    except (OSError, ValueError) as error:  # a missing or damaged file, an empty window
        sys.exit(f"{parser.prog}: {error}")


if __name__ == "__main__":
    main(sys.argv[1:])
