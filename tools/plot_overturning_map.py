#!/usr/bin/python3
"""Draws an overturning map from a sweep's table (`routh sweep` with `output: {csv: true}`).

Each run is a point at its two swept values (--x and --y, column names of the table), marked by
its outcome: overturned (red), rocked without overturning (blue: its largest rotation from
upright above --rocked rad), stayed put (grey), or did not complete (black x, its status named
in the legend). For scenarios/sweeps/overturning_spectrum.yaml (one-sine pulse period x amplitude on a
slender block) the red region is the overturning spectrum of Housner (1963) and Zhang & Makris
(2001), and --tan-alpha with --p gives the normalised axes of their figures: omega_p / p on x
(from the period T_p, omega_p = 2 pi / T_p) and a_p / (g tan alpha) on y.

Usage: tools/plot_overturning_map.py TABLE.csv -o map.png --x KEY --y KEY
       [--tan-alpha 0.2 --p 3.80 [--g 9.81]] [--rocked 1e-6] [--title TEXT]
Prints how many runs fell in each class. Needs python3-matplotlib; runs headless (Agg backend).
"""

import argparse
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

CLASSES = [  # (name, colour, marker)
    ("overturned", "tab:red", "s"),
    ("rocked", "tab:blue", "o"),
    ("at rest", "0.75", "."),
]


def read_table(path):
    with open(path, newline="") as table:
        rows = list(csv.DictReader(table))
    if not rows:
        sys.exit(f"{path}: the table has no runs")
    return rows


def outcome(row, rocked_rad):
    if row["status"] not in ("completed", "stopped_on_event"):
        return row["status"]
    if row["overturned"] == "1":
        return "overturned"
    return "rocked" if float(row["max_abs_theta"]) > rocked_rad else "at rest"


def axes_values(rows, args):
    for key in (args.x, args.y):
        if key not in rows[0]:
            sys.exit(f"{args.table}: no column '{key}' (columns: {', '.join(rows[0])})")
    x = [float(row[args.x]) for row in rows]
    y = [float(row[args.y]) for row in rows]
    x_label, y_label = args.x, args.y
    if args.tan_alpha and args.p:
        x = [2.0 * math.pi / (period * args.p) for period in x]
        y = [amplitude / (args.g * args.tan_alpha) for amplitude in y]
        x_label, y_label = "ω_p / p", "a_p / (g tan α)"
    return x, y, x_label, y_label


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("table", help="the sweep's CSV table")
    parser.add_argument("-o", "--output", required=True, help="the PNG to write")
    parser.add_argument("--x", required=True, help="column on the horizontal axis")
    parser.add_argument("--y", required=True, help="column on the vertical axis")
    parser.add_argument("--tan-alpha", type=float, help="the block's slenderness tan(alpha)")
    parser.add_argument("--p", type=float, help="the block's frequency parameter p [rad/s]")
    parser.add_argument("--g", type=float, default=9.81, help="the model's gravity [m/s^2]")
    parser.add_argument("--rocked", type=float, default=1e-6, help="rotation that counts [rad]")
    parser.add_argument("--title", default="overturning map")
    args = parser.parse_args()

    rows = read_table(args.table)
    x, y, x_label, y_label = axes_values(rows, args)
    classes = [outcome(row, args.rocked) for row in rows]
    figure, axes = plt.subplots(figsize=(7, 5), dpi=120)
    styles = {name: (colour, marker) for name, colour, marker in CLASSES}
    for name in sorted(set(classes), key=lambda c: [n for n, _, _ in CLASSES].index(c)
                       if c in styles else len(CLASSES)):
        colour, marker = styles.get(name, ("k", "x"))
        points = [(xi, yi) for xi, yi, c in zip(x, y, classes) if c == name]
        axes.scatter([p[0] for p in points], [p[1] for p in points], c=colour, marker=marker,
                     s=18, label=f"{name} ({len(points)})")
        print(f"{name} {len(points)}")
    axes.set_xlabel(x_label)
    axes.set_ylabel(y_label)
    axes.set_title(args.title)
    axes.legend(loc="upper left", fontsize="small")
    axes.grid(True, alpha=0.3)
    figure.tight_layout()
    figure.savefig(args.output)


if __name__ == "__main__":
    main()
