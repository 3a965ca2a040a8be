"""Draws docs/body_frames.svg: where each shape's body frame is, for docs/models.md.

Planar shapes (models/planar/shape.hpp, sim/scenario/multibody_input.hpp): a segment lies along
its body's x axis, from (−L/2, 0) to (L/2, 0); a rectangle and a disk are centred on the body
origin; a polygon's vertices are written in the body frame, and its centre of mass is their
centroid, wherever the origin is. A free body's (x, y) is its centre of mass and θ its frame's
angle counter-clockwise from the world's x. A revolute joint pins `child_point` (child frame) to
`parent_point` (parent frame). Spatial shapes (models/spatial/spatial_bodies.hpp): a box's edges
run along the body x, y, z, a cylinder's axis is the body z, both centred on the origin; a
sphere's centre may sit off the origin (an eccentric sphere).

Usage: python3 tools/draw_body_frames.py [-o docs/body_frames.svg] (numpy and matplotlib).
"""

import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
X_COLOUR, Y_COLOUR, Z_COLOUR = "#d62728", "#2ca02c", "#1f77b4"
SHAPE_FACE, SHAPE_EDGE = "#e8e8e8", "#333333"


def rotation(theta):
    return np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])


def arrow(axes, start, vector, colour, label, offset=(0.0, 0.0)):
    start = np.asarray(start, dtype=float)
    end = start + np.asarray(vector, dtype=float)
    axes.annotate("", xy=end, xytext=start, arrowprops={"arrowstyle": "-|>", "color": colour,
                                                        "linewidth": 2, "shrinkA": 0,
                                                        "shrinkB": 0})
    axes.text(end[0] + offset[0], end[1] + offset[1], label, color=colour, fontsize=10,
              ha="center", va="center", fontweight="bold")


def frame(axes, origin, theta=0.0, length=0.35, names=("x", "y")):
    """A planar body frame: x and y axes from its origin, turned by θ."""
    turn = rotation(theta)
    arrow(axes, origin, turn @ [length, 0], X_COLOUR, names[0], turn @ [0.07, 0])
    arrow(axes, origin, turn @ [0, length], Y_COLOUR, names[1], turn @ [0, 0.07])
    axes.plot(*origin, marker="o", color="black", markersize=4)


def centre_of_mass(axes, point):
    axes.plot(*point, marker="o", markersize=10, markerfacecolor="white", markeredgecolor="black")
    axes.plot(*point, marker="+", markersize=10, color="black")


def label(axes, point, text, **options):
    axes.text(point[0], point[1], text, fontsize=8, family="monospace", **options)


def setup(axes, title, limits):
    axes.set_title(title, fontsize=10)
    axes.set_xlim(*limits[0])
    axes.set_ylim(*limits[1])
    axes.set_aspect("equal")
    axes.axis("off")


def draw_segment(axes):
    axes.plot([-0.6, 0.6], [0, 0], color=SHAPE_EDGE, linewidth=5, solid_capstyle="round")
    frame(axes, (0, 0))
    centre_of_mass(axes, (0, 0))
    label(axes, (-0.75, -0.2), "left_end\n(−L/2, 0)")
    label(axes, (0.4, -0.2), "right_end\n(L/2, 0)")
    label(axes, (-0.75, 0.5), "{segment: {length: L}}\nedges: bottom (−y side), top")
    setup(axes, "segment (rod, link): along its x axis", ((-0.85, 0.85), (-0.35, 0.75)))


def draw_rectangle(axes):
    w, h = 0.8, 0.5
    corners = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    axes.add_patch(plt.Polygon(corners, facecolor=SHAPE_FACE, edgecolor=SHAPE_EDGE, linewidth=2))
    frame(axes, (0, 0), length=0.3)
    centre_of_mass(axes, (0, 0))
    for (x, y), name, ha in zip(corners, ["bottom_left", "bottom_right", "top_right",
                                          "top_left"], ["right", "left", "left", "right"]):
        label(axes, (x + (0.03 if ha == "left" else -0.03), y), name, ha=ha,
              va="top" if y < 0 else "bottom")
    label(axes, (0, -h / 2 - 0.08), "bottom", ha="center", va="top", color="#555555")
    label(axes, (0.2, h / 2 + 0.06), "top", ha="center", va="bottom", color="#555555")
    label(axes, (-0.85, -0.62), "{rectangle: {width: w, height: h}}: centred,\n(∓w/2, ∓h/2)")
    setup(axes, "rectangle (block): centred on the origin", ((-0.9, 0.9), (-0.7, 0.6)))


def draw_disk(axes):
    axes.add_patch(plt.Circle((0, 0), 0.45, facecolor=SHAPE_FACE, edgecolor=SHAPE_EDGE,
                              linewidth=2))
    frame(axes, (0, 0), theta=0.5, length=0.3)
    axes.plot([0, 0.45 * np.cos(0.5)], [0, 0.45 * np.sin(0.5)], color=SHAPE_EDGE, linewidth=1,
              linestyle=":")
    centre_of_mass(axes, (0, 0))
    arc = np.linspace(0, 0.5, 20)
    axes.plot(0.22 * np.cos(arc), 0.22 * np.sin(arc), color="black", linewidth=1)
    label(axes, (0.24, 0.04), "θ")
    axes.plot([0, 0.5], [0, 0], color="#999999", linewidth=0.8, linestyle="--")
    label(axes, (-0.75, -0.62), "{disk: {radius: r}}: centred; θ turns\nthe frame, not the shape")
    setup(axes, "disk (ball): centred on the origin", ((-0.8, 0.8), (-0.7, 0.6)))


def draw_polygon(axes):
    vertices = np.array([[0.0, 0.0], [0.9, 0.0], [0.6, 0.6], [0.1, 0.45]])
    axes.add_patch(plt.Polygon(vertices, facecolor=SHAPE_FACE, edgecolor=SHAPE_EDGE,
                               linewidth=2))
    frame(axes, (0, 0), length=0.3)
    # the centroid of a polygon (shoelace formula)
    x, y = vertices[:, 0], vertices[:, 1]
    cross = x * np.roll(y, -1) - np.roll(x, -1) * y
    area = cross.sum() / 2
    centroid = np.array([((x + np.roll(x, -1)) * cross).sum(),
                         ((y + np.roll(y, -1)) * cross).sum()]) / (6 * area)
    centre_of_mass(axes, centroid)
    axes.plot([centroid[0], 0.75], [centroid[1], -0.2], color="#777777", linewidth=0.8)
    label(axes, (0.75, -0.2), "centre of mass:\nNAME.x, NAME.y", va="top")
    for k, (vx, vy) in enumerate(vertices):
        label(axes, (vx + 0.03, vy + 0.03), f"v{k}")
    label(axes, (0.45, -0.05), "e0", ha="center", va="top", color="#555555")
    label(axes, (-0.3, -0.55), "{polygon: {vertices: [[0, 0], [0.9, 0],\n"
          "  [0.6, 0.6], [0.1, 0.45]]}}: counter-\nclockwise, in the body frame")
    setup(axes, "polygon: vertices in the body frame", ((-0.35, 1.25), (-0.85, 0.75)))


def draw_revolute(axes):
    # a link (segment of length 1) pinned at its left end to the ground's origin, θ = −60°
    theta = -np.pi / 3
    turn = rotation(theta)
    pivot = np.zeros(2)
    centre = pivot + turn @ [0.5, 0]
    ends = np.array([pivot, pivot + turn @ [1.0, 0]])
    axes.plot([-0.35, 0.35], [0.0, 0.0], color="#777777", linewidth=1)
    for x in np.linspace(-0.3, 0.3, 7):
        axes.plot([x, x + 0.06], [0.0, 0.06], color="#777777", linewidth=1)
    axes.plot(ends[:, 0], ends[:, 1], color=SHAPE_EDGE, linewidth=5, solid_capstyle="round")
    frame(axes, centre, theta=theta, length=0.3)
    centre_of_mass(axes, centre)
    axes.plot(*pivot, marker="o", markersize=9, markerfacecolor="white", markeredgecolor="black",
              markeredgewidth=2)
    axes.plot([0, 0.6], [0, 0], color="#999999", linewidth=0.8, linestyle="--")
    arc = np.linspace(theta, 0, 20)
    axes.plot(0.3 * np.cos(arc), 0.3 * np.sin(arc), color="black", linewidth=1)
    label(axes, (0.33, -0.2), "θ < 0")
    label(axes, (-1.45, -0.35), "joints: [{type: revolute,\n  parent: ground,\n  child: link,\n"
          "  parent_point: [0, 0],\n  child_point: [-0.5, 0]}]\nlink: {segment: {length: 1}}\n"
          "link.theta = −60 deg")
    setup(axes, "revolute joint: child_point on the link", ((-1.5, 0.9), (-1.0, 0.3)))


def project(points):
    """An oblique view of 3D points: z up, x to the lower left, y to the right."""
    points = np.atleast_2d(points)
    return np.column_stack([points[:, 1] - 0.5 * points[:, 0],
                            points[:, 2] - 0.35 * points[:, 0]])


def frame_3d(axes, length=0.45):
    for axis, colour, name in [((1, 0, 0), X_COLOUR, "x"), ((0, 1, 0), Y_COLOUR, "y"),
                               ((0, 0, 1), Z_COLOUR, "z")]:
        end = project(np.array(axis, dtype=float) * length)[0]
        arrow(axes, (0, 0), end, colour, name, end * 0.22)
    axes.plot(0, 0, marker="o", color="black", markersize=4)


def draw_box(axes):
    a, b, c = 0.5, 0.9, 0.6
    corners = np.array([[sx * a / 2, sy * b / 2, sz * c / 2] for sx in (-1, 1) for sy in (-1, 1)
                        for sz in (-1, 1)])
    for i in range(8):
        for j in range(i + 1, 8):
            if np.sum(np.abs(corners[i] - corners[j]) > 1e-9) == 1:
                segment = project(corners[[i, j]])
                axes.plot(segment[:, 0], segment[:, 1], color=SHAPE_EDGE, linewidth=1.5)
    frame_3d(axes)
    corner = project(corners[np.argmax(corners @ [1, -1, -1])])[0]  # the corner x+y-z-
    axes.plot(*corner, marker="o", color="black", markersize=4)
    label(axes, corner + [-0.03, -0.04], "corner x+y-z-", ha="right", va="top")
    label(axes, (-0.9, -0.78), "{box: {size: [a, b, c]}}: edges a, b, c\nalong x, y, z; centred")
    setup(axes, "box: edges along the body axes", ((-0.95, 0.8), (-0.85, 0.65)))


def draw_cylinder(axes):
    r, h = 0.35, 0.7
    ring = np.linspace(0, 2 * np.pi, 60)
    for z, name in [(h / 2, "top_rim"), (-h / 2, "bottom_rim")]:
        rim = project(np.column_stack([r * np.cos(ring), r * np.sin(ring), np.full(60, z)]))
        axes.plot(rim[:, 0], rim[:, 1], color=SHAPE_EDGE, linewidth=1.5)
        label(axes, project([0, r, z])[0] + [0.05, 0], f"{name} (z = {'+' if z > 0 else '-'}h/2)",
              va="center")
    for y in (-r, r):
        side = project(np.array([[0, y, -h / 2], [0, y, h / 2]]))
        axes.plot(side[:, 0], side[:, 1], color=SHAPE_EDGE, linewidth=1.5)
    frame_3d(axes, length=0.3)
    label(axes, (-0.95, -0.78), "{cylinder: {radius: r, height: h}}:\naxis along z; centred")
    setup(axes, "cylinder (drum, coin): axis the body z", ((-1.0, 1.6), (-0.85, 0.65)))


def draw_sphere(axes):
    axes.add_patch(plt.Circle((0, 0), 0.45, facecolor=SHAPE_FACE, edgecolor=SHAPE_EDGE,
                              linewidth=2, alpha=0.8))
    frame_3d(axes, length=0.35)
    label(axes, (-0.9, -0.78), "{sphere: {radius: r, centre: [x, y, z]}}:\norigin = centre of "
          "mass; the\nsphere's centre may sit off it")
    setup(axes, "sphere: origin at the centre of mass", ((-0.95, 0.8), (-0.85, 0.65)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-o", "--output", default=os.path.join(REPOSITORY, "docs",
                                                               "body_frames.svg"))
    arguments = parser.parse_args(argv)
    plt.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "routh-body-frames",
                         "font.size": 9})
    figure, grid = plt.subplots(2, 4, figsize=(13, 6.6))
    for axes, draw in zip(grid.flat, [draw_segment, draw_rectangle, draw_disk, draw_polygon,
                                      draw_revolute, draw_sphere, draw_box, draw_cylinder]):
        draw(axes)
    figure.suptitle("Body frames: the origin (black dot), x (red), y (green), z (blue), the "
                    "centre of mass (⊕); planar: world y up, θ counter-clockwise; spatial: "
                    "world z up", fontsize=10)
    figure.subplots_adjust(left=0.01, right=0.99, top=0.9, bottom=0.02, wspace=0.08, hspace=0.2)
    figure.savefig(arguments.output, metadata={"Date": None})
    plt.close(figure)
    print(arguments.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
