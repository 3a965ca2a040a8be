"""Pictures of a run, headless (matplotlib's Agg backend).

    python3 -m routh.plot FILE.h5 -o out.png [--phase]
    python3 -m routh.plot SWEEP.h5|SWEEP.csv -o map.png --x KEY --y KEY
        [--tan-alpha 0.2 --p 3.80 [--g 9.81]] [--rocked 1e-6] [--title TEXT]

A trajectory file gives one panel each for the coordinates, the velocities and the energy, with
the events as vertical lines (impacts red, other events grey), and the ground acceleration when
the run was excited; --phase draws each coordinate's phase portrait (q, v) instead. Bodies in
space (a /model of dimension 3) get panels for their centres of mass, the velocities of those,
their angular speeds |ω| and the tilt of each body's z axis from the vertical, and their phase
portraits pair each centre-of-mass coordinate with its velocity.

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

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
import numpy as np  # noqa: E402

from routh.kinematics import body_poses_3d, body_velocities_3d, tilt  # noqa: E402
from routh.trajectory import hdf5_text, hdf5_texts, load  # noqa: E402

# ---- trajectories -------------------------------------------------------------------------


def _mark_events(axes, trajectory) -> None:
    events = trajectory.events
    if events is None or len(events) == 0:
        return
    for t, kind in zip(events["t"], events["kind"]):
        axes.axvline(t, color="tab:red" if kind == "impact" else "0.6", lw=0.5, alpha=0.5)


def _upward(model: dict) -> np.ndarray:
    """The unit vector against gravity (world z when there is none)."""
    gravity = np.asarray(model.get("gravity", (0.0, 0.0, -1.0)), float)
    norm = np.linalg.norm(gravity)
    return -gravity / norm if norm > 0 else np.array([0.0, 0.0, 1.0])


def _motion_panels(trajectory) -> list:
    """The panels of a trajectory's motion, each (y label, [(values (N,), legend)]): a planar
    model's coordinates and velocities; for bodies in space, their centres of mass, the
    velocities of those, their angular speeds |ω| and their tilts (the angle of each body's z
    axis from the vertical: quaternion components are not angles)."""
    if trajectory.dimension != 3:
        return [
            ("coordinates", [(trajectory.q[:, k], f"{name} [{trajectory.q_units[k]}]")
                             for k, name in enumerate(trajectory.names)]),
            ("velocities", [(trajectory.v[:, k], f"{name} [{trajectory.v_units[k]}]")
                            for k, name in enumerate(trajectory.v_names)]),
        ]
    model = trajectory.model
    poses = body_poses_3d(model, trajectory.q, trajectory.names)
    velocities = body_velocities_3d(model, trajectory.v, trajectory.v_names)
    up = _upward(model)
    centres, speeds, spins, tilts = [], [], [], []
    for body in model["bodies"]:
        name = body["name"]
        (p, orientation), (velocity, omega) = poses[name], velocities[name]
        centres += [(p[:, k], f"{name}.{axis}") for k, axis in enumerate("xyz")]
        speeds += [(velocity[:, k], f"{name}.v{axis}") for k, axis in enumerate("xyz")]
        spins.append((np.linalg.norm(omega, axis=1), f"{name} |ω|"))
        tilts.append((np.degrees(tilt(orientation, up)), f"{name}"))
    return [("centre of mass [m]", centres), ("velocity [m/s]", speeds),
            ("angular speed [rad/s]", spins), ("tilt of body z [°]", tilts)]


def _phase_pairs(trajectory) -> list:
    """(q column, v column) of each phase portrait: every coordinate with its rate in a planar
    model; each centre-of-mass coordinate with its velocity for bodies in space."""
    if trajectory.dimension != 3:
        return [(k, k) for k in range(len(trajectory.names))]
    return [(trajectory.names.index(f"{body['name']}.{axis}"),
             trajectory.v_names.index(f"{body['name']}.v{axis}"))
            for body in trajectory.model["bodies"] for axis in "xyz"]


def plot_trajectory(path, output, phase: bool = False) -> None:
    """Draws the trajectory file `path` into the image `output`."""
    trajectory = load(path)
    t = trajectory.time
    if phase:
        pairs = _phase_pairs(trajectory)
        columns = min(len(pairs), 3 if trajectory.dimension == 3 else len(pairs))
        rows = -(-len(pairs) // columns)
        figure, axes = plt.subplots(rows, columns, figsize=(4 * columns, 4 * rows), dpi=100,
                                    squeeze=False)
        for ax, (i, j) in zip(axes.flat, pairs):
            ax.plot(trajectory.q[:, i], trajectory.v[:, j], lw=0.8)
            ax.set_xlabel(f"{trajectory.names[i]} [{trajectory.q_units[i]}]")
            ax.set_ylabel(f"{trajectory.v_names[j]} [{trajectory.v_units[j]}]")
            ax.grid(True, alpha=0.3)
        figure.suptitle(f"{Path(path).name}: phase portraits")
    else:
        panels = _motion_panels(trajectory)
        panels.append(("energy [J]", [(trajectory.energy[:, k], name)
                                      for k, name in enumerate(trajectory.energy_names)]))
        if trajectory.ground_acceleration is not None:
            panels.append(("ground acc. [m/s²]",
                           [(trajectory.ground_acceleration[:, k], "xyz"[k])
                            for k in range(trajectory.ground_acceleration.shape[1])]))
        figure, axes = plt.subplots(len(panels), 1, figsize=(8, 2.4 * len(panels)), dpi=100,
                                    sharex=True)
        for ax, (label, curves) in zip(axes, panels):
            for values, legend in curves:
                ax.plot(t, values, lw=0.8, label=legend)
            ax.set_ylabel(label)
            _mark_events(ax, trajectory)
            ax.legend(loc="upper right", fontsize="x-small")
            ax.grid(True, alpha=0.3)
        axes[-1].set_xlabel("t [s]")
        figure.suptitle(f"{Path(path).name}: {len(trajectory.events)} events (vertical lines)")
    figure.tight_layout()
    figure.savefig(output)
    plt.close(figure)


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
        return hdf5_text(f.attrs.get("format", "")) == "routh-sweep"


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


def plot_overturning_map(path, output, x, y, tan_alpha=None, p=None, g=9.81, rocked=1e-6,
                         title="overturning map") -> dict:
    """Draws the overturning map of the sweep table `path`; returns {class: run count}. A swept
    key of text values (records of a records × scales sweep) gives one panel per value."""
    rows = read_sweep_table(path)
    for key in (x, y):
        if key not in rows[0]:
            raise SystemExit(f"{path}: no column '{key}' (columns: {', '.join(rows[0])})")
        if not all(_is_number(row[key]) for row in rows):
            example = next(row[key] for row in rows if not _is_number(row[key]))
            raise SystemExit(
                f"{path}: column '{key}' holds text (e.g. '{example}'), not numbers: it cannot "
                f"be an axis; give a numeric column as --x and --y (the map draws one panel per "
                f"value of each text key)")
    panel_keys = [key for key in swept_text_columns(rows) if key not in (x, y)]
    panels = sorted({tuple(row[key] for key in panel_keys) for row in rows})
    columns = min(len(panels), 3)
    lines = (len(panels) + columns - 1) // columns
    figure, grid = plt.subplots(lines, columns, figsize=(7 * columns, 5 * lines), dpi=120,
                                squeeze=False)
    styles = {name: (colour, marker) for name, colour, marker in CLASSES}
    order = [name for name, _, _ in CLASSES]
    counts = {}
    for index, panel in enumerate(panels):
        axes = grid[index // columns][index % columns]
        chosen = [row for row in rows if tuple(row[key] for key in panel_keys) == panel]
        xs = [float(row[x]) for row in chosen]
        ys = [float(row[y]) for row in chosen]
        x_label, y_label = x, y
        if tan_alpha and p:
            xs = [2.0 * math.pi / (period * p) for period in xs]
            ys = [amplitude / (g * tan_alpha) for amplitude in ys]
            x_label, y_label = "ω_p / p", "a_p / (g tan α)"
        classes = [run_outcome(row, rocked) for row in chosen]
        for name in sorted(set(classes),
                           key=lambda c: order.index(c) if c in styles else len(order)):
            colour, marker = styles.get(name, ("k", "x"))
            points = [(xi, yi) for xi, yi, c in zip(xs, ys, classes) if c == name]
            axes.scatter([q[0] for q in points], [q[1] for q in points], c=colour, marker=marker,
                         s=18, label=f"{name} ({len(points)})")
            counts[name] = counts.get(name, 0) + len(points)
        axes.set_xlabel(x_label)
        axes.set_ylabel(y_label)
        subtitle = ", ".join(f"{key} = {value}" for key, value in zip(panel_keys, panel))
        axes.set_title(f"{title}\n{subtitle}" if subtitle else title, fontsize="medium")
        axes.legend(loc="upper left", fontsize="small")
        axes.grid(True, alpha=0.3)
    for index in range(len(panels), lines * columns):
        grid[index // columns][index % columns].axis("off")
    for name in sorted(counts, key=lambda c: order.index(c) if c in styles else len(order)):
        print(f"{name} {counts[name]}")
    figure.tight_layout()
    figure.savefig(output)
    plt.close(figure)
    return counts


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", help="a trajectory file, or a sweep's table (HDF5 or CSV)")
    parser.add_argument("-o", "--output", required=True, help="the image to write")
    parser.add_argument("--phase", action="store_true", help="phase portraits (trajectories)")
    parser.add_argument("--x", help="sweep: column on the horizontal axis")
    parser.add_argument("--y", help="sweep: column on the vertical axis")
    parser.add_argument("--tan-alpha", type=float, help="the block's slenderness tan(alpha)")
    parser.add_argument("--p", type=float, help="the block's frequency parameter p [rad/s]")
    parser.add_argument("--g", type=float, default=9.81, help="the model's gravity [m/s^2]")
    parser.add_argument("--rocked", type=float, default=1e-6, help="rotation that counts [rad]")
    parser.add_argument("--title", default="overturning map")
    args = parser.parse_args(argv)
    if is_sweep_table(args.file):
        if not (args.x and args.y):
            parser.error("a sweep table needs --x and --y (its swept columns)")
        plot_overturning_map(args.file, args.output, args.x, args.y, args.tan_alpha, args.p,
                             args.g, args.rocked, args.title)
    else:
        plot_trajectory(args.file, args.output, phase=args.phase)


if __name__ == "__main__":
    main(sys.argv[1:])
