#!/usr/bin/python3
"""Draws a rocking spectrum from a sweep's CSV table: the largest rotation of a rocking block
over its slenderness, theta_max / alpha, against the block's size, one curve per record.

Usage: tools/plot_rocking_spectrum.py TABLE.csv -o spectrum.png
       [--tan-alpha 0.2] [--x period|p|height] [--g 9.81] [--body block]

The table is a sweep over a rectangular block's `model.height` and `model.width` and over
records (scenarios/sweeps/rocking_spectrum.yaml). The runs whose width / height is within 1 % of
--tan-alpha form the spectrum; for a uniform block of half-width b and half-height h, R =
sqrt(b^2 + h^2) and its frequency parameter is p = sqrt(3 g / (4 R)) (Housner 1963), so the
size goes on x as the period 2 pi / p [s], as p [rad/s] or as the height [m]. A block that
overturned is drawn as a cross on the line theta_max / alpha = 1 (it passed its static
overturning angle, theta = alpha, and fell); runs that did not complete are left out and
counted. Prints the runs used, overturned and left out. Needs python3-matplotlib; headless.
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

SLENDERNESS_TOLERANCE = 0.01  # relative: the spectrum's runs have width / height within 1 %
COMPLETED = ("completed", "stopped_on_event")


def size_axis(height: float, width: float, g: float, axis: str) -> float:
    """The block's size on x: its height [m], p [rad/s] or 2 pi / p [s]."""
    if axis == "height":
        return height
    p = math.sqrt(3.0 * g / (4.0 * math.hypot(width / 2.0, height / 2.0)))
    return p if axis == "p" else 2.0 * math.pi / p


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("table", help="the sweep's CSV table")
    parser.add_argument("-o", "--output", required=True, help="the picture (PNG, SVG, PDF)")
    parser.add_argument("--tan-alpha", type=float, default=0.2, help="width / height to draw")
    parser.add_argument("--x", choices=("period", "p", "height"), default="period")
    parser.add_argument("--g", type=float, default=9.81, help="the model's gravity [m/s^2]")
    parser.add_argument("--body", default="block", help="the body whose BODY.* columns to use")
    arguments = parser.parse_args(argv)

    ratio_column = f"{arguments.body}.max_theta_over_alpha"
    overturned_column = f"{arguments.body}.overturned"
    curves = defaultdict(list)  # record -> [(x, theta_max / alpha, overturned)]
    left_out = 0
    with open(arguments.table, newline="", encoding="utf-8") as file:
        for row in csv.DictReader(file):
            height, width = float(row["model.height"]), float(row["model.width"])
            if abs(width / height / arguments.tan_alpha - 1.0) > SLENDERNESS_TOLERANCE:
                continue
            if row["status"] not in COMPLETED:
                left_out += 1
                continue
            x = size_axis(height, width, arguments.g, arguments.x)
            curves[row["record"]].append(
                (x, float(row[ratio_column]), row[overturned_column] == "1"))
    if not curves:
        sys.exit(f"{arguments.table}: no completed run with width / height = {arguments.tan_alpha}")

    figure, axes = plt.subplots(figsize=(9, 5))
    for record, points in sorted(curves.items()):
        points.sort()
        line = axes.plot([x for x, _, fell in points if not fell],
                         [ratio for _, ratio, fell in points if not fell], "o-",
                         label=record.rsplit("/", 1)[-1])[0]
        fallen = [x for x, _, fell in points if fell]
        axes.plot(fallen, [1.0] * len(fallen), "x", color=line.get_color(), markersize=9)
    axes.axhline(1.0, color="grey", linewidth=0.8)
    axes.set_ylim(0.0, 1.1)
    axes.set_xlabel({"period": "2\u03c0 / p [s]", "p": "p [rad/s]", "height": "height 2h [m]"}
                    [arguments.x])
    axes.set_ylabel(f"{arguments.body} \u03b8_max / \u03b1 [\u2013] (\u00d7: overturned)")
    axes.set_title(f"Rocking spectrum, tan \u03b1 = {arguments.tan_alpha:g}")
    axes.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    figure.tight_layout()
    figure.savefig(arguments.output)

    used = sum(len(points) for points in curves.values())
    overturned = sum(fell for points in curves.values() for _, _, fell in points)
    print(f"runs {used}\noverturned {overturned}\nleft out {left_out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
