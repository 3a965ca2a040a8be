"""An animation of a run, drawn from its /model, as a GIF or an MP4 written frame by frame.

    routh animate FILE.h5 -o out.gif|out.mp4 [--fps N] [--slow K] [--start T0] [--end T1]
        [--fixed-ground] [--azimuth A --elevation E]

(``routh animate ARGS`` runs ``python3 -m routh.animate ARGS``.) From Python,
``animate(run, "out.gif")`` takes a Trajectory (``routh.run``'s result, saved or not) or a
file's path; ``make_scene(run)`` gives the Scene whose ``figure`` shows the run at any time
(``scene.draw(t)``), built without pyplot: the caller's backend is left as it is.

Bodies and obstacles come from /model, poses from /q (routh.kinematics). Each body has its own
colour and its name in the legend (the colours of routh.plot's curves): blocks filled with their
outline drawn, disks with a radius that shows them turn, rods and links as thick lines; joints
are black dots, the contacts' body points small dark dots, and an impact puts a red star on each
contact it involves (or turns the body's outline red, where /model does not say where the contact
is) in the frames at or within one frame after it. Under an excitation the world moves with the
ground: the ground's displacement, integrated from the recorded a_g(t)
(routh.kinematics.ground_displacement), shifts the obstacles, their hatching and the bodies
(whose coordinates are relative to the ground), and a strip under the scene draws a_g(t) with a
cursor at the frame's time (--fixed-ground draws the run in the ground's frame instead: the ground
still, as the simulation sees it). Every frame carries its time stamp; the axes are in metres.

Frames are at real time, 1 / (fps x slow) s of the run apart, each at the state the trajectory has
at that time (the last sample at or before it). Without --fps, 25 frames per second, fewer for a
long run so that the film has at most 300 frames. --start and --end [s] keep a part of the run.
Each frame redraws only what moves and goes to disk before the next (routh.frames): GIF through
Pillow, MP4 through ffmpeg when it is installed.

Bodies in space (a /model of dimension 3) are drawn in an orthographic projection seen from
--azimuth and --elevation (degrees; world z up): a box by its edges, a cylinder by its rims, its
axis (dashed) and four lines on its side fixed in the body, a sphere by its outline with two
great circles fixed in the body that show it turn, each plane as a square grid patch under the
bodies, with a scale bar in metres. Lines are not hidden: the drawing is a wireframe.
"""

from __future__ import annotations

import argparse
import math
import sys

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, Patch, Polygon
from matplotlib.transforms import Affine2D

from routh.frames import film_writer
from routh.kinematics import (
    body_poses,
    body_poses_3d,
    bounding_radius,
    contact_location,
    ground_displacement,
    shape_wireframe,
    sphere_outline,
    world_points,
)
from routh.plot import as_trajectory, run_name, shown_samples, time_window
from routh.style import (
    CONTACT_COLOUR,
    EDGE_WIDTH,
    IMPACT_COLOUR,
    JOINT_COLOUR,
    LINK_WIDTH,
    OBSTACLE_COLOUR,
    body_colours,
)

DEFAULT_FPS = 25.0
MAX_FRAMES = 300  # the most frames a film gets without --fps
FILL_ALPHA = 0.35  # a block's or disk's fill; its outline is opaque
_LEGEND_COLUMNS = 4


def default_fps(duration: float, slow: float = 1.0) -> float:
    """DEFAULT_FPS, lowered for a long film (duration x slow seconds) to keep MAX_FRAMES."""
    film = duration * slow
    return DEFAULT_FPS if film * DEFAULT_FPS <= MAX_FRAMES else MAX_FRAMES / film


def frame_times(duration: float, fps: float, slow: float = 1.0) -> np.ndarray:
    """Trajectory times shown by the frames, from 0: duration x fps x slow frames, 1 / (fps x
    slow) s apart."""
    count = int(round(duration * fps * slow))
    return np.arange(count) / (fps * slow)


def sample_at(time: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Index of the last sample at or before each of `t` (after an event's pair: its second)."""
    return np.clip(np.searchsorted(time, t, side="right") - 1, 0, len(time) - 1)


def body_outline(model: dict, body: dict) -> dict:
    """What to draw of a planar body, in its frame about its centre of mass: {"polygon": (k, 2)},
    {"disk": (centre, radius)}, or {"lines": (k, 2)} (a rod between its two ends; for a body
    without a shape, its joint point to each point it carries)."""
    shape = body["shape"]
    if shape is None:
        points = [body["joint"]["child_point"]]
        points += [other["joint"]["parent_point"] for other in model["bodies"]
                   if other["joint"]["parent"] == body["name"]]
        points += [c["point"] for c in model["contacts"]
                   if c["body"] == body["name"] and "point" in c]
        return {"lines": np.asarray(points, float)}
    if shape["type"] == "disk":
        return {"disk": (np.asarray(shape["centre"], float), shape["radius"])}
    vertices = np.asarray(shape["vertices"], float)
    return {"lines": vertices} if len(vertices) == 2 else {"polygon": vertices}


def _star(points: np.ndarray) -> tuple[list, list]:
    """Line data from the first point to each of the others, NaN between the strokes."""
    xs, ys = [], []
    for point in points[1:]:
        xs += [points[0, 0], point[0], np.nan]
        ys += [points[0, 1], point[1], np.nan]
    return xs, ys


def _square(x0, x1, y0, y1, margin: float = 0.1):
    """The square (x_min, x_max, y_min, y_max) about a box, with a margin on each side."""
    size = max(x1 - x0, y1 - y0) * (1 + 2 * margin) + 1e-9
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return cx - size / 2, cx + size / 2, cy - size / 2, cy + size / 2


class _Scene:
    """What the planar and spatial scenes share: the figure (the scene, its legend of body names,
    the a_g strip of an excited run), the moving ground, the impact markers, the time stamp, and
    the film's frames."""

    dimension = 2

    def __init__(self, trajectory, dpi: int, size_in: float, start, end, fixed_ground: bool):
        if trajectory.model is None:
            raise ValueError(f"{trajectory.path}: no /model (written before format version 2)")
        self.trajectory = trajectory
        self.model = trajectory.model
        self.colours = body_colours(self.model)
        time = trajectory.time
        self.start, self.end = time_window(trajectory, start, end)
        self.shown = shown_samples(trajectory, start, end)
        acceleration = trajectory.ground_acceleration
        # where the ground is [m, world]: drawn moving, or still in the ground's own frame
        self.moving_ground = acceleration is not None and not fixed_ground
        self.ground = (ground_displacement(time, acceleration)[:, :self.dimension]
                       if self.moving_ground else np.zeros((len(time), self.dimension)))
        self.flashed = {}  # {body name: its outline artists} for impacts without a point
        entries = len(self.model["bodies"]) + 3  # at most: joint, contact point, impact
        rows = -(-entries // _LEGEND_COLUMNS)
        strip = 0.9 if acceleration is not None else 0.0  # [in]
        legend = 0.22 * rows + 0.1  # [in]
        height = size_in + strip + legend
        self.figure = Figure(figsize=(size_in, height), dpi=dpi)
        self.canvas = FigureCanvasAgg(self.figure)
        bottom = (strip + 0.45 if strip else 0.45) / height
        self.axes = self.figure.add_axes((0.15, bottom, 0.8, (size_in - 0.65) / height))
        self.strip = self.cursor = None
        if acceleration is not None:
            self._draw_strip(acceleration, 0.35 / height, (strip - 0.3) / height)

    def _draw_strip(self, acceleration: np.ndarray, bottom: float, height: float) -> None:
        """a_g(t) over the shown times, each moving direction, with a cursor at the frame's
        time."""
        self.strip = self.figure.add_axes((0.15, bottom, 0.8, height))
        time = self.trajectory.time[self.shown]
        moving = [k for k in range(acceleration.shape[1]) if np.any(acceleration[:, k] != 0)]
        for n, k in enumerate(moving or [0]):
            self.strip.plot(time, acceleration[self.shown, k], color="black", lw=1.2,
                            ls=("-", "--", ":")[n], label=f"a_g,{'xyz'[k]}")
        self.strip.set_xlim(self.start, self.end)
        self.strip.set_xlabel("t [s]", labelpad=1)
        self.strip.set_ylabel("a_g [m/s²]")
        self.strip.tick_params(labelsize="small")
        self.strip.grid(True, alpha=0.3)
        if len(moving) > 1:
            self.strip.legend(loc="upper right", fontsize="x-small")
        self.cursor = self.strip.axvline(self.start, color="0.45", lw=3, alpha=0.7)

    def _finish(self, extent, ground_artists: list, dots: set = frozenset()) -> None:
        """Sets the scene's extent, its legend (body names, then the `dots` drawn, "joint" and
        "contact point", then impact), its time stamp, the impact markers and the moving
        ground."""
        self.extent = extent
        self.axes.set_xlim(extent[0], extent[1])
        self.axes.set_ylim(extent[2], extent[3])
        self.axes.set_aspect("equal", adjustable="datalim")
        handles = [Patch(facecolor=to_rgba(self.colours[b["name"]], FILL_ALPHA),
                         edgecolor=self.colours[b["name"]], lw=EDGE_WIDTH, label=b["name"])
                   for b in self.model["bodies"]]
        if "joint" in dots:
            handles.append(Line2D([], [], ls="", marker="o", color=JOINT_COLOUR, label="joint"))
        if "contact" in dots:
            handles.append(Line2D([], [], ls="", marker=".", color=CONTACT_COLOUR,
                                  label="contact point"))
        handles.append(Line2D([], [], ls="", marker="*", ms=10, color=IMPACT_COLOUR,
                              label="impact"))
        self.legend = self.figure.legend(handles=handles, loc="upper center",
                                         ncol=_LEGEND_COLUMNS, fontsize="small", frameon=False,
                                         handlelength=1.5, columnspacing=1.0)
        self.axes.set_title(run_name(self.trajectory), fontsize="small", pad=3)
        self.stamp = self.axes.text(0.02, 0.97, "", transform=self.axes.transAxes, va="top",
                                    family="monospace", zorder=6)
        (self.impact_marks,) = self.axes.plot([], [], ls="", marker="*", ms=13,
                                              color=IMPACT_COLOUR, mec="black", mew=0.5,
                                              zorder=7)
        # the ground moves only under an excitation: else it is drawn once, with the still parts
        self.ground_artists = ground_artists if self.moving_ground else []
        self._impacts = self._impact_points()

    def _impact_points(self) -> list:
        """(time, screen points (k, 2), bodies without a point) of every impact: its contacts'
        locations just after it."""
        events = self.trajectory.events
        if events is None or len(events) == 0:
            return []
        contacts = self.model["contacts"]
        impacts = []
        for t, kind, involved in zip(events["t"], events["kind"], events["contact_indices"]):
            if kind != "impact":
                continue
            i = int(sample_at(self.trajectory.time, np.array([t]))[0])
            points, bodies = [], set()
            for index in (int(c) for c in str(involved).split(",") if c):
                location = contact_location(self.model, self.poses, contacts[index], i)
                if location is None:
                    bodies.add(contacts[index]["body"])
                else:
                    points.append(self.screen(location + self.ground[i]))
            impacts.append((float(t), np.reshape(points, (-1, 2)), bodies))
        return impacts

    def screen(self, points: np.ndarray) -> np.ndarray:
        """World points (..., dimension) [m] on the scene's axes (..., 2)."""
        return np.asarray(points, float)[..., :2]

    def _draw_bodies(self, i: int, shift: np.ndarray) -> list:
        raise NotImplementedError

    def draw(self, t: float, flash_window: float = 0.0) -> list:
        """Puts everything where it is at time t [s] (impacts in [t - flash_window, t] marked);
        returns the artists that moved."""
        i = int(sample_at(self.trajectory.time, np.array([t]))[0])
        shift = self.ground[i]
        artists = self._draw_bodies(i, shift)
        if self.ground_artists:
            offset = Affine2D().translate(*self.screen(shift)) + self.axes.transData
            for artist in self.ground_artists:
                artist.set_transform(offset)
        hits = [(points, bodies) for time, points, bodies in self._impacts
                if t - flash_window <= time <= t]
        marks = np.concatenate([points for points, _ in hits]) if hits else np.zeros((0, 2))
        self.impact_marks.set_data(marks[:, 0], marks[:, 1])
        for body in set().union(*(bodies for _, bodies in hits)):
            for artist in self.flashed[body]:
                if isinstance(artist, Line2D):
                    artist.set_color(IMPACT_COLOUR)
                else:
                    artist.set_edgecolor(IMPACT_COLOUR)
        self.stamp.set_text(f"t = {t:7.3f} s" + ("  impact" if hits else ""))
        artists = self.ground_artists + artists + [self.impact_marks, self.stamp]
        if self.cursor is not None:
            self.cursor.set_xdata([t, t])
            artists.append(self.cursor)
        return artists

    def frames(self, times, flash_window: float = 0.0):
        """Each frame's RGBA array (height, width, 4), drawn in turn: the still parts once, then
        per frame only what moves (valid until the next frame is drawn)."""
        moving = self.draw(times[0], flash_window)
        for artist in moving:
            artist.set_animated(True)
        try:
            self.canvas.draw()
            still = self.canvas.copy_from_bbox(self.figure.bbox)
            for t in times:
                self.canvas.restore_region(still)
                for artist in self.draw(t, flash_window):
                    self.figure.draw_artist(artist)
                yield np.asarray(self.canvas.buffer_rgba())
        finally:
            for artist in moving:
                artist.set_animated(False)

    def to_pixels(self, point) -> np.ndarray:
        """A world point [m] in the rendered image's pixel coordinates (x right, y down)."""
        self.canvas.draw()  # the equal aspect settles the axes' limits at drawing
        x, y = self.axes.transData.transform(self.screen(point))
        height = self.figure.get_size_inches()[1] * self.figure.dpi
        return np.array([x, height - y])


def _hatched_half_plane(axes, point, normal, reach: float, spacing: float) -> list:
    """A half-plane obstacle: its boundary line, its solid side shaded, and hatch strokes along
    the boundary every `spacing` [m] (they show the ground move along itself)."""
    p, n = np.asarray(point, float), np.asarray(normal, float)
    tangent = np.array([n[1], -n[0]])
    corners = [p - reach * tangent, p + reach * tangent,
               p + reach * tangent - reach * n, p - reach * tangent - reach * n]
    shade = Polygon(corners, closed=True, color=OBSTACLE_COLOUR, alpha=0.2, lw=0)
    axes.add_patch(shade)
    (line,) = axes.plot(*zip(p - reach * tangent, p + reach * tangent), color=OBSTACLE_COLOUR,
                        lw=EDGE_WIDTH)
    xs, ys = [], []
    for s in np.arange(-reach, reach, spacing):
        a = p + s * tangent
        b = a - 0.6 * spacing * (n + tangent)
        xs += [a[0], b[0], np.nan]
        ys += [a[1], b[1], np.nan]
    (hatch,) = axes.plot(xs, ys, color=OBSTACLE_COLOUR, lw=1.0)
    return [shade, line, hatch]


class Scene(_Scene):
    """The figure of one planar trajectory, redrawn for any time."""

    def __init__(self, trajectory, dpi: int = 80, size_in: float = 5.0, extent=None,
                 start=None, end=None, fixed_ground: bool = False):
        super().__init__(trajectory, dpi, size_in, start, end, fixed_ground)
        self.poses = body_poses(self.model, trajectory.q, trajectory.names)
        self.axes.set_xlabel("x [m]", labelpad=1)
        self.axes.set_ylabel("y [m]", labelpad=1)
        self.axes.tick_params(labelsize="small")
        extent = extent or self._extent()
        size = max(extent[1] - extent[0], extent[3] - extent[2])
        ground = []
        for obstacle in self.model["obstacles"]:
            ground += _hatched_half_plane(self.axes, obstacle["point"], obstacle["normal"],
                                          4 * size + np.abs(self.ground).max(), size / 25)
        self.bodies = []
        for body in self.model["bodies"]:
            self.bodies.append((body, *self._body_artists(body)))
        self._points = self._contact_and_joint_points()
        (self.contact_dots,) = self.axes.plot([], [], ls="", marker=".", ms=5,
                                              color=CONTACT_COLOUR, zorder=4)
        (self.joint_dots,) = self.axes.plot([], [], ls="", marker="o", ms=6, color=JOINT_COLOUR,
                                            mec="white", mew=0.8, zorder=5)
        self._finish(extent, ground, {kind for _, _, kind in self._points})

    def _extent(self):
        """(x_min, x_max, y_min, y_max) [m] holding every body at every shown sample, square."""
        xs, ys = [], []
        for body in self.model["bodies"]:
            outline = body_outline(self.model, body)
            p, phi = self.poses[body["name"]]
            pose = (p[self.shown] + self.ground[self.shown], phi[self.shown])
            if "disk" in outline:
                centre, radius = outline["disk"]
                points = world_points(pose, centre[None, :])[:, 0, :]
                xs += [points[:, 0].min() - radius, points[:, 0].max() + radius]
                ys += [points[:, 1].min() - radius, points[:, 1].max() + radius]
            else:
                points = world_points(pose, next(iter(outline.values())))
                xs += [points[..., 0].min(), points[..., 0].max()]
                ys += [points[..., 1].min(), points[..., 1].max()]
        return _square(min(xs), max(xs), min(ys), max(ys))

    def _body_artists(self, body: dict):
        """A body's outline and its artists: a filled polygon, a filled disk with a radius along
        its x axis, or thick lines."""
        colour = self.colours[body["name"]]
        outline = body_outline(self.model, body)
        if "polygon" in outline:
            artists = [Polygon(outline["polygon"], closed=True, fc=to_rgba(colour, FILL_ALPHA),
                               ec=colour, lw=EDGE_WIDTH, zorder=3)]
            self.axes.add_patch(artists[0])
        elif "disk" in outline:
            artists = [Circle((0, 0), outline["disk"][1], fc=to_rgba(colour, FILL_ALPHA),
                              ec=colour, lw=EDGE_WIDTH, zorder=3)]
            self.axes.add_patch(artists[0])
            artists += self.axes.plot([], [], color=colour, lw=EDGE_WIDTH, zorder=3)
        else:
            artists = self.axes.plot([], [], color=colour, lw=LINK_WIDTH,
                                     solid_capstyle="round", zorder=3)
        self.flashed[body["name"]] = artists
        return outline, artists

    def _contact_and_joint_points(self):
        """(body name, body-frame points (k, 2), kind) of the contacts' body points and of the
        joints (revolute and prismatic; a free joint is no joint), each drawn on its body."""
        points = []
        for body in self.model["bodies"]:
            name = body["name"]
            own = [c["point"] for c in self.model["contacts"]
                   if c["body"] == name and "point" in c]
            if own:
                points.append((name, np.asarray(own, float), "contact"))
            if body["joint"]["type"] != "free":
                points.append((name, np.asarray([body["joint"]["child_point"]], float),
                               "joint"))
        return points

    def _draw_bodies(self, i: int, shift: np.ndarray) -> list:
        moved = []
        for body, outline, artists in self.bodies:
            p, phi = self.poses[body["name"]]
            pose = (p[i:i + 1] + shift, phi[i:i + 1])
            colour = self.colours[body["name"]]
            if "polygon" in outline:
                artists[0].set_xy(world_points(pose, outline["polygon"])[0])
                artists[0].set_edgecolor(colour)
            elif "disk" in outline:
                centre, radius = outline["disk"]
                ends = world_points(pose, [centre, centre + [radius, 0.0]])[0]
                artists[0].center = tuple(ends[0])
                artists[0].set_edgecolor(colour)
                artists[1].set_data(ends[:, 0], ends[:, 1])
            else:
                artists[0].set_data(*_star(world_points(pose, outline["lines"])[0]))
                artists[0].set_color(colour)
            moved += artists
        for kind, dots in (("contact", self.contact_dots), ("joint", self.joint_dots)):
            chosen = [world_points((self.poses[name][0][i:i + 1] + shift,
                                    self.poses[name][1][i:i + 1]), local)[0]
                      for name, local, k in self._points if k == kind]
            points = np.concatenate(chosen) if chosen else np.zeros((0, 2))
            dots.set_data(points[:, 0], points[:, 1])
        return moved + [self.contact_dots, self.joint_dots]


# ---- bodies in space ---------------------------------------------------------------------


class Projection:
    """An orthographic view from the direction of azimuth and elevation [degrees] (world z up,
    azimuth from x towards y): world points (..., 3) to screen points (..., 2), x to the right
    and y up on the screen."""

    def __init__(self, azimuth: float = -60.0, elevation: float = 25.0):
        a, e = np.radians(azimuth), np.radians(elevation)
        self.towards_viewer = np.array([np.cos(e) * np.cos(a), np.cos(e) * np.sin(a), np.sin(e)])
        right = np.array([-np.sin(a), np.cos(a), 0.0])
        self.basis = np.stack([right, np.cross(self.towards_viewer, right)])

    def __call__(self, points: np.ndarray) -> np.ndarray:
        return np.asarray(points, float) @ self.basis.T


def spatial_wireframes(body: dict) -> dict:
    """A spatial body's wireframe (kinematics.shape_wireframe), each line with its style."""
    styles = {"edges": {"lw": EDGE_WIDTH}, "rims": {"lw": EDGE_WIDTH},
              "axis": {"lw": 1.0, "ls": "--"}, "generators": {"lw": 1.0},
              "markers": {"lw": 1.2}}
    return {name: (points, styles[name]) for name, points in shape_wireframe(body["shape"]).items()}


def plane_grid(plane: dict, centre: np.ndarray, half_size: float, lines: int = 9):
    """A square patch of `plane` of half-side `half_size` [m] about the point of the plane
    nearest to `centre`: its 4 corners (4, 3) and its grid lines (one array (k, 3), NaN rows
    between lines)."""
    point, normal = np.asarray(plane["point"], float), np.asarray(plane["normal"], float)
    middle = centre - ((centre - point) @ normal) * normal
    u = np.cross(normal, np.eye(3)[np.argmin(np.abs(normal))])
    u /= np.linalg.norm(u)
    w = np.cross(normal, u)
    corners = np.array([middle + half_size * (su * u + sw * w)
                        for su, sw in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
    steps = np.linspace(-half_size, half_size, lines)
    segments = []
    for a, b in ((u, w), (w, u)):
        for s in steps:
            segments += [middle + s * a - half_size * b, middle + s * a + half_size * b,
                         np.full(3, np.nan)]
    return corners, np.array(segments[:-1])


def _scale_length(size: float) -> float:
    """A round length [m] (1, 2 or 5 times a power of ten) of about a fifth of `size`."""
    target = size / 5
    power = 10.0 ** math.floor(math.log10(target))
    return max(m * power for m in (1, 2, 5) if m * power <= target)


class SpatialScene(_Scene):
    """The figure of one trajectory of bodies in space, redrawn for any time (the interface of
    Scene)."""

    dimension = 3

    def __init__(self, trajectory, dpi: int = 80, size_in: float = 5.0,
                 projection: Projection | None = None, margin: float = 0.1, start=None,
                 end=None, fixed_ground: bool = False):
        super().__init__(trajectory, dpi, size_in, start, end, fixed_ground)
        self.projection = projection or Projection()
        self.poses = body_poses_3d(self.model, trajectory.q, trajectory.names)
        self.axes.set_axis_off()
        self.bodies = []  # (body, its wireframes, {line name: artist}, outline artist or None)
        # each body lies within its bounding radius of its centre of mass, at every sample
        centres, reaches = [], []
        for body in self.model["bodies"]:
            colour = self.colours[body["name"]]
            wireframes = spatial_wireframes(body)
            lines = {name: self.axes.plot([], [], color=colour, zorder=3, **style)[0]
                     for name, (_, style) in wireframes.items()}
            outline = None
            if body["shape"]["type"] == "sphere":
                outline = Polygon(np.zeros((1, 2)), closed=True, fc=to_rgba(colour, FILL_ALPHA),
                                  ec=colour, lw=EDGE_WIDTH, zorder=2)
                self.axes.add_patch(outline)
            self.flashed[body["name"]] = list(lines.values())
            self.bodies.append((body, wireframes, lines, outline))
            centres.append(self.poses[body["name"]][0][self.shown] + self.ground[self.shown])
            reaches.append(np.full(len(centres[-1]), bounding_radius(body["shape"])))
        centres, reaches = np.concatenate(centres), np.concatenate(reaches)[:, None]
        low, high = (centres - reaches).min(axis=0), (centres + reaches).max(axis=0)
        # an orthographic projection keeps lengths or shortens them: a ball stays a disk
        screen = [self.projection(centres) - reaches, self.projection(centres) + reaches]
        half_size = 0.7 * np.max(high - low)  # the patch reaches a little past the bodies
        ground = []
        for plane in self.model.get("obstacles", []):
            corners, grid = plane_grid(plane, (low + high) / 2, half_size)
            patch = Polygon(self.projection(corners), closed=True, color=OBSTACLE_COLOUR,
                            alpha=0.15, lw=0, zorder=0)
            self.axes.add_patch(patch)
            ground += [patch] + self.axes.plot(*self.projection(grid).T, color=OBSTACLE_COLOUR,
                                               lw=0.8, alpha=0.7, zorder=1)
            screen.append(self.projection(corners))
        screen = np.concatenate(screen)
        (x0, y0), (x1, y1) = screen.min(axis=0), screen.max(axis=0)
        extent = _square(x0, x1, y0, y1, margin)
        length = _scale_length(extent[1] - extent[0])
        bar_x = extent[1] - 0.05 * (extent[1] - extent[0]) - np.array([length, 0.0])
        bar_y = extent[2] + 0.05 * (extent[3] - extent[2])
        self.axes.plot(bar_x, [bar_y, bar_y], color="black", lw=3, solid_capstyle="butt")
        self.axes.text(bar_x.mean(), bar_y, f"{length:g} m", ha="center", va="bottom",
                       fontsize="small")
        self._finish(extent, ground)

    def screen(self, points: np.ndarray) -> np.ndarray:
        return self.projection(points)

    def _sphere_outline(self, body: dict, pose) -> np.ndarray:
        """The sphere's silhouette (k, 3) at the one sample of `pose`, seen from the viewer."""
        shape = body["shape"]
        centre = world_points(pose, [shape.get("centre", (0.0, 0.0, 0.0))])[:, 0, :]
        return sphere_outline(centre, shape["radius"], self.projection.towards_viewer)[0]

    def _draw_bodies(self, i: int, shift: np.ndarray) -> list:
        artists = []
        for body, wireframes, lines, outline in self.bodies:
            p, orientation = self.poses[body["name"]]
            pose = (p[i:i + 1] + shift, orientation[i:i + 1])
            colour = self.colours[body["name"]]
            for name, (points, _) in wireframes.items():
                lines[name].set_data(*self.projection(world_points(pose, points)[0]).T)
                lines[name].set_color(colour)
                artists.append(lines[name])
            if outline is not None:
                outline.set_xy(self.projection(self._sphere_outline(body, pose)))
                artists.append(outline)
        return artists


def make_scene(trajectory, dpi: int = 80, projection: Projection | None = None, start=None,
               end=None, size_in: float = 5.0, fixed_ground: bool = False):
    """The scene that draws `trajectory` (a Trajectory or a file's path) between `start` and
    `end` [s]: SpatialScene for bodies in space, else Scene. With `fixed_ground` an excited run
    is drawn in the ground's frame (the ground still, its a_g strip kept)."""
    trajectory = as_trajectory(trajectory)
    common = {"dpi": dpi, "size_in": size_in, "start": start, "end": end,
              "fixed_ground": fixed_ground}
    if trajectory.model is not None and trajectory.dimension == 3:
        return SpatialScene(trajectory, projection=projection, **common)
    return Scene(trajectory, **common)


def animate(source, output, fps: float | None = None, slow: float = 1.0, dpi: int = 80,
            projection: Projection | None = None, start: float | None = None,
            end: float | None = None, size_in: float = 5.0, fixed_ground: bool = False) -> int:
    """Writes the animation of `source` (a Trajectory or a trajectory file's path) to `output`
    (.gif or .mp4), frame by frame; returns the number of frames. Without `fps`, default_fps of
    the shown part's length. `projection` is the view of bodies in space (Projection());
    `fixed_ground` draws an excited run in the ground's frame."""
    scene = make_scene(source, dpi=dpi, projection=projection, start=start, end=end,
                       size_in=size_in, fixed_ground=fixed_ground)
    duration = scene.end - scene.start
    fps = fps or default_fps(duration, slow)
    times = scene.start + frame_times(duration, fps, slow)
    if len(times) == 0:
        times = np.array([scene.start])
    width, height = scene.canvas.get_width_height()
    writer = film_writer(output, fps, width, height)
    try:
        for frame in scene.frames(times, flash_window=1.0 / (fps * slow)):
            writer.add(frame)
    finally:
        writer.close()
    return len(times)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="routh animate", description=__doc__.splitlines()[0])
    parser.add_argument("file", help="a trajectory file (routh run)")
    parser.add_argument("-o", "--output", required=True, help="the .gif or .mp4 to write")
    parser.add_argument("--fps", type=float,
                        help=f"frames per second (default {DEFAULT_FPS:g}, fewer for a long run: "
                             f"at most {MAX_FRAMES} frames)")
    parser.add_argument("--slow", type=float, default=1.0,
                        help="slow motion: K seconds of film per second of the run")
    parser.add_argument("--start", type=float, help="from this time of the run on [s]")
    parser.add_argument("--end", type=float, help="up to this time of the run [s]")
    parser.add_argument("--fixed-ground", action="store_true",
                        help="an excited run in the ground's frame: the ground stands still (a "
                             "record whose velocity does not return to zero carries the world "
                             "along)")
    parser.add_argument("--dpi", type=int, default=80,
                        help="pixels per inch of the 5-inch wide frame (default 80: 400 pixels)")
    parser.add_argument("--azimuth", type=float, default=-60.0,
                        help="bodies in space: the view's azimuth from x towards y [degrees]")
    parser.add_argument("--elevation", type=float, default=25.0,
                        help="bodies in space: the view's elevation above the xy plane [degrees]")
    args = parser.parse_args(argv)
    try:
        frames = animate(args.file, args.output, args.fps, args.slow, args.dpi,
                         Projection(args.azimuth, args.elevation), args.start, args.end,
                         fixed_ground=args.fixed_ground)
    except (OSError, ValueError, RuntimeError) as error:
        # a missing or damaged file, an empty window, a film it cannot write
        sys.exit(f"{parser.prog}: {error}")
    print(f"{args.output}: {frames} frames")


if __name__ == "__main__":
    main(sys.argv[1:])
