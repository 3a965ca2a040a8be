"""Pictures of a run, headless (matplotlib's Agg backend).

    python3 -m routh.plot FILE.h5 -o out.png [--phase]
    python3 -m routh.plot SWEEP.h5|SWEEP.csv -o map.png --x KEY --y KEY
        [--tan-alpha 0.2 --p 3.80 [--g 9.81]] [--rocked 1e-6] [--title TEXT]

A trajectory file gives one panel each for the coordinates, the velocities and the energy, with
the events as vertical lines (impacts red, other events grey), and the ground acceleration when
the run was excited; --phase draws each coordinate's phase portrait (q, v) instead.

A sweep's table (``routh sweep``: its HDF5 file, root attribute format = "routh-sweep", or its
CSV) gives the overturning map: each run a point at its two swept values, marked by its outcome:
overturned (red), rocked without overturning (blue: its largest rotation from upright above
--rocked rad), stayed put (grey), or did not complete (black x, its status in the legend). For
scenarios/sweeps/overturning_spectrum.yaml the red region is the overturning spectrum of Housner
(1963) and Zhang & Makris (2001); --tan-alpha with --p gives their normalised axes: omega_p / p on
x (omega_p = 2 pi / T_p) and a_p / (g tan alpha) on y. Prints how many runs fell in each class.
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

from routh.trajectory import hdf5_text, hdf5_texts, load  # noqa: E402

# ---- trajectories -------------------------------------------------------------------------


def _mark_events(axes, trajectory) -> None:
    events = trajectory.events
    if events is None or len(events) == 0:
        return
    for t, kind in zip(events["t"], events["kind"]):
        axes.axvline(t, color="tab:red" if kind == "impact" else "0.6", lw=0.5, alpha=0.5)


def plot_trajectory(path, output, phase: bool = False) -> None:
    """Draws the trajectory file `path` into the image `output`."""
    trajectory = load(path)
    t = trajectory.time
    names = trajectory.names
    if phase:
        count = len(names)
        figure, axes = plt.subplots(1, count, figsize=(4 * count, 4), dpi=100, squeeze=False)
        for k, name in enumerate(names):
            ax = axes[0, k]
            ax.plot(trajectory.q[:, k], trajectory.v[:, k], lw=0.8)
            ax.set_xlabel(f"{name} [{trajectory.q_units[k]}]")
            ax.set_ylabel(f"d{name}/dt [{trajectory.v_units[k]}]")
            ax.grid(True, alpha=0.3)
        figure.suptitle(f"{Path(path).name}: phase portraits")
    else:
        panels = 3 + (trajectory.ground_acceleration is not None)
        figure, axes = plt.subplots(panels, 1, figsize=(8, 2.4 * panels), dpi=100, sharex=True)
        for k, name in enumerate(names):
            axes[0].plot(t, trajectory.q[:, k], lw=0.8, label=f"{name} [{trajectory.q_units[k]}]")
            axes[1].plot(t, trajectory.v[:, k], lw=0.8, label=f"{name} [{trajectory.v_units[k]}]")
        axes[0].set_ylabel("coordinates")
        axes[1].set_ylabel("velocities")
        for k, name in enumerate(trajectory.energy_names):
            axes[2].plot(t, trajectory.energy[:, k], lw=0.8, label=name)
        axes[2].set_ylabel("energy [J]")
        if trajectory.ground_acceleration is not None:
            for k, axis in enumerate("xy"):
                axes[3].plot(t, trajectory.ground_acceleration[:, k], lw=0.8, label=axis)
            axes[3].set_ylabel("ground acc. [m/s²]")
        for ax in axes:
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


def plot_overturning_map(path, output, x, y, tan_alpha=None, p=None, g=9.81, rocked=1e-6,
                         title="overturning map") -> dict:
    """Draws the overturning map of the sweep table `path`; returns {class: run count}."""
    rows = read_sweep_table(path)
    for key in (x, y):
        if key not in rows[0]:
            raise SystemExit(f"{path}: no column '{key}' (columns: {', '.join(rows[0])})")
    xs = [float(row[x]) for row in rows]
    ys = [float(row[y]) for row in rows]
    x_label, y_label = x, y
    if tan_alpha and p:
        xs = [2.0 * math.pi / (period * p) for period in xs]
        ys = [amplitude / (g * tan_alpha) for amplitude in ys]
        x_label, y_label = "ω_p / p", "a_p / (g tan α)"
    classes = [run_outcome(row, rocked) for row in rows]
    figure, axes = plt.subplots(figsize=(7, 5), dpi=120)
    styles = {name: (colour, marker) for name, colour, marker in CLASSES}
    order = [name for name, _, _ in CLASSES]
    counts = {}
    for name in sorted(set(classes), key=lambda c: order.index(c) if c in styles else len(order)):
        colour, marker = styles.get(name, ("k", "x"))
        points = [(xi, yi) for xi, yi, c in zip(xs, ys, classes) if c == name]
        axes.scatter([q[0] for q in points], [q[1] for q in points], c=colour, marker=marker,
                     s=18, label=f"{name} ({len(points)})")
        counts[name] = len(points)
        print(f"{name} {len(points)}")
    axes.set_xlabel(x_label)
    axes.set_ylabel(y_label)
    axes.set_title(title)
    axes.legend(loc="upper left", fontsize="small")
    axes.grid(True, alpha=0.3)
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
