"""An animation of a run, drawn from its trajectory file's /model, headless.

    python3 -m routh.animate FILE.h5 -o out.gif|out.mp4 [--fps N] [--slow K]

Bodies and obstacles come from /model, poses from /q through routh.kinematics.body_poses. Frames
are at real time (frame count = duration x fps / speed, speed = 1 / slow), each at the state the
trajectory has at that time (the last sample at or before it). A body drawn at or within one frame
after an impact is flashed red; every frame carries its time stamp. GIF through matplotlib's
PillowWriter; mp4 through ffmpeg, only when it is installed.

Bodies in space (a /model of dimension 3) are drawn in an orthographic projection seen from
--azimuth and --elevation (degrees; world z up): a box by its edges, a cylinder by its rims, its
axis (dashed) and four lines on its side fixed in the body, a sphere by its outline with two
great circles fixed in the body that show it turn, each plane as a square grid patch under the
bodies. Lines are not hidden: the drawing is a wireframe.
"""

from __future__ import annotations

import argparse
import shutil
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib import animation  # noqa: E402
from matplotlib.patches import Circle, Polygon  # noqa: E402

from routh.kinematics import (  # noqa: E402
    body_poses,
    body_poses_3d,
    bounding_radius,
    shape_wireframe,
    sphere_outline,
    world_points,
)
from routh.trajectory import load  # noqa: E402

BODY_COLOUR = "tab:blue"
IMPACT_COLOUR = "tab:red"
OBSTACLE_COLOUR = "0.35"


def frame_times(duration: float, fps: float, slow: float = 1.0) -> np.ndarray:
    """Trajectory times shown by the frames: duration x fps x slow frames, 1 / (fps x slow) s
    apart."""
    count = int(round(duration * fps * slow))
    return np.arange(count) / (fps * slow)


def sample_at(time: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Index of the last sample at or before each of `t` (after an event's pair: its second)."""
    return np.clip(np.searchsorted(time, t, side="right") - 1, 0, len(time) - 1)


def body_outline(model: dict, body: dict) -> dict:
    """What to draw of a body, in its frame about its centre of mass: {"polygon": (k, 2)},
    {"disk": (centre, radius)}, or {"lines": (k, 2)} (joint point to each point it carries, for a
    body without a shape)."""
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
    return {"polygon": np.asarray(shape["vertices"], float)}


def scene_extent(model: dict, poses: dict, margin: float = 0.1):
    """(x_min, x_max, y_min, y_max) [m] holding every body at every sample, square-ish."""
    xs, ys = [], []
    for body in model["bodies"]:
        outline = body_outline(model, body)
        pose = poses[body["name"]]
        if "disk" in outline:
            centre, radius = outline["disk"]
            points = world_points(pose, centre[None, :])[:, 0, :]
            xs += [points[:, 0].min() - radius, points[:, 0].max() + radius]
            ys += [points[:, 1].min() - radius, points[:, 1].max() + radius]
        else:
            points = world_points(pose, next(iter(outline.values())))
            xs += [points[..., 0].min(), points[..., 0].max()]
            ys += [points[..., 1].min(), points[..., 1].max()]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    size = max(x1 - x0, y1 - y0) * (1 + 2 * margin) + 1e-9
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return cx - size / 2, cx + size / 2, cy - size / 2, cy + size / 2


def draw_obstacles(axes, model: dict, extent) -> None:
    """Each half-plane as its boundary line with its solid side shaded."""
    x0, x1, y0, y1 = extent
    reach = 4 * max(x1 - x0, y1 - y0)
    for obstacle in model["obstacles"]:
        p = np.asarray(obstacle["point"], float)
        n = np.asarray(obstacle["normal"], float)
        t = np.array([n[1], -n[0]])
        corners = [p - reach * t, p + reach * t,
                   p + reach * t - reach * n, p - reach * t - reach * n]
        axes.add_patch(Polygon(corners, closed=True, color=OBSTACLE_COLOUR, alpha=0.25, lw=0))
        axes.plot(*zip(p - reach * t, p + reach * t), color=OBSTACLE_COLOUR, lw=1.5)


class Scene:
    """The figure of one trajectory, redrawn for any time."""

    def __init__(self, trajectory, dpi: int = 80, size_in: float = 5.0, extent=None):
        if trajectory.model is None:
            raise SystemExit(f"{trajectory.path}: no /model (written before format version 2)")
        self.trajectory = trajectory
        self.model = trajectory.model
        self.poses = body_poses(self.model, trajectory.q, trajectory.names)
        self.extent = extent or scene_extent(self.model, self.poses)
        events = trajectory.events
        self.impact_times = (np.asarray(events["t"][events["kind"] == "impact"], float)
                             if events is not None and len(events) else np.array([]))
        self.figure, self.axes = plt.subplots(figsize=(size_in, size_in), dpi=dpi)
        self.figure.subplots_adjust(0, 0, 1, 1)
        self.axes.set_xlim(self.extent[0], self.extent[1])
        self.axes.set_ylim(self.extent[2], self.extent[3])
        self.axes.set_aspect("equal")
        self.axes.set_axis_off()
        draw_obstacles(self.axes, self.model, self.extent)
        self.artists = []
        for body in self.model["bodies"]:
            outline = body_outline(self.model, body)
            if "polygon" in outline:
                artist = Polygon(outline["polygon"], closed=True, color=BODY_COLOUR)
                self.axes.add_patch(artist)
            elif "disk" in outline:
                artist = Circle((0, 0), outline["disk"][1], color=BODY_COLOUR)
                self.axes.add_patch(artist)
            else:
                (artist,) = self.axes.plot([], [], color=BODY_COLOUR, lw=3)
            self.artists.append((body["name"], outline, artist))
        self.stamp = self.axes.text(0.02, 0.97, "", transform=self.axes.transAxes, va="top",
                                    family="monospace")

    def draw(self, t: float, flash_window: float = 0.0):
        """Puts every body where it is at time t [s]; red if an impact lies in
        [t - flash_window, t]."""
        i = int(sample_at(self.trajectory.time, np.array([t]))[0])
        hit = bool(np.any((self.impact_times <= t) & (self.impact_times >= t - flash_window)))
        colour = IMPACT_COLOUR if hit else BODY_COLOUR
        for name, outline, artist in self.artists:
            p, phi = self.poses[name]
            pose = (p[i:i + 1], phi[i:i + 1])
            if "polygon" in outline:
                artist.set_xy(world_points(pose, outline["polygon"])[0])
            elif "disk" in outline:
                artist.center = tuple(world_points(pose, outline["disk"][0][None, :])[0, 0])
            else:
                points = world_points(pose, outline["lines"])[0]
                xs, ys = [], []
                for point in points[1:]:
                    xs += [points[0, 0], point[0], np.nan]
                    ys += [points[0, 1], point[1], np.nan]
                artist.set_data(xs, ys)
            artist.set_color(colour)
        self.stamp.set_text(f"t = {t:7.3f} s" + ("  impact" if hit else ""))
        return [a for _, _, a in self.artists] + [self.stamp]

    def to_pixels(self, point) -> np.ndarray:
        """A world point [m] in the rendered image's pixel coordinates (x right, y down)."""
        x, y = self.axes.transData.transform(point)
        height = self.figure.get_size_inches()[1] * self.figure.dpi
        return np.array([x, height - y])


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
    styles = {"edges": {"lw": 1.5}, "rims": {"lw": 1.5}, "axis": {"lw": 1.0, "ls": "--"},
              "generators": {"lw": 0.6}, "markers": {"lw": 0.8}}
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


class SpatialScene:
    """The figure of one trajectory of bodies in space, redrawn for any time (the interface of
    Scene)."""

    def __init__(self, trajectory, dpi: int = 80, size_in: float = 5.0,
                 projection: Projection | None = None, margin: float = 0.1):
        self.trajectory = trajectory
        self.model = trajectory.model
        self.projection = projection or Projection()
        self.poses = body_poses_3d(self.model, trajectory.q, trajectory.names)
        events = trajectory.events
        self.impact_times = (np.asarray(events["t"][events["kind"] == "impact"], float)
                             if events is not None and len(events) else np.array([]))
        self.figure, self.axes = plt.subplots(figsize=(size_in, size_in), dpi=dpi)
        self.figure.subplots_adjust(0, 0, 1, 1)
        self.axes.set_aspect("equal")
        self.axes.set_axis_off()
        self.bodies = []  # (body, its wireframes, {line name: artist}, outline artist or None)
        # each body lies within its bounding radius of its centre of mass, at every sample
        centres, reaches = [], []
        for body in self.model["bodies"]:
            wireframes = spatial_wireframes(body)
            lines = {name: self.axes.plot([], [], color=BODY_COLOUR, zorder=3, **style)[0]
                     for name, (_, style) in wireframes.items()}
            outline = None
            if body["shape"]["type"] == "sphere":
                outline = Polygon(np.zeros((1, 2)), closed=True, color=BODY_COLOUR, alpha=0.3,
                                  zorder=2)
                self.axes.add_patch(outline)
            self.bodies.append((body, wireframes, lines, outline))
            centres.append(self.poses[body["name"]][0])
            reaches.append(np.full(len(centres[-1]), bounding_radius(body["shape"])))
        centres, reaches = np.concatenate(centres), np.concatenate(reaches)[:, None]
        low, high = (centres - reaches).min(axis=0), (centres + reaches).max(axis=0)
        # an orthographic projection keeps lengths or shortens them: a ball stays a disk
        screen = [self.projection(centres) - reaches, self.projection(centres) + reaches]
        half_size = 0.7 * np.max(high - low)  # the patch reaches a little past the bodies
        for plane in self.model.get("obstacles", []):
            corners, grid = plane_grid(plane, (low + high) / 2, half_size)
            self.axes.add_patch(Polygon(self.projection(corners), closed=True,
                                        color=OBSTACLE_COLOUR, alpha=0.15, lw=0, zorder=0))
            self.axes.plot(*self.projection(grid).T, color=OBSTACLE_COLOUR, lw=0.5, alpha=0.6,
                           zorder=1)
            screen.append(self.projection(corners))
        screen = np.concatenate(screen)
        (x0, y0), (x1, y1) = screen.min(axis=0), screen.max(axis=0)
        size = max(x1 - x0, y1 - y0) * (1 + 2 * margin) + 1e-9
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        self.extent = (cx - size / 2, cx + size / 2, cy - size / 2, cy + size / 2)
        self.axes.set_xlim(self.extent[0], self.extent[1])
        self.axes.set_ylim(self.extent[2], self.extent[3])
        self.stamp = self.axes.text(0.02, 0.97, "", transform=self.axes.transAxes, va="top",
                                    family="monospace")

    def _sphere_outline(self, body: dict, pose) -> np.ndarray:
        """The sphere's silhouette (k, 3) at the one sample of `pose`, seen from the viewer."""
        shape = body["shape"]
        centre = world_points(pose, [shape.get("centre", (0.0, 0.0, 0.0))])[:, 0, :]
        return sphere_outline(centre, shape["radius"], self.projection.towards_viewer)[0]

    def draw(self, t: float, flash_window: float = 0.0):
        """Puts every body where it is at time t [s]; red if an impact lies in
        [t - flash_window, t]."""
        i = int(sample_at(self.trajectory.time, np.array([t]))[0])
        hit = bool(np.any((self.impact_times <= t) & (self.impact_times >= t - flash_window)))
        colour = IMPACT_COLOUR if hit else BODY_COLOUR
        artists = []
        for body, wireframes, lines, outline in self.bodies:
            p, orientation = self.poses[body["name"]]
            pose = (p[i:i + 1], orientation[i:i + 1])
            for name, (points, _) in wireframes.items():
                lines[name].set_data(*self.projection(world_points(pose, points)[0]).T)
                lines[name].set_color(colour)
                artists.append(lines[name])
            if outline is not None:
                outline.set_xy(self.projection(self._sphere_outline(body, pose)))
                outline.set_color(colour)
                artists.append(outline)
        self.stamp.set_text(f"t = {t:7.3f} s" + ("  impact" if hit else ""))
        return artists + [self.stamp]

    def to_pixels(self, point) -> np.ndarray:
        """A world point [m] (3,) in the rendered image's pixel coordinates (x right, y down)."""
        x, y = self.axes.transData.transform(self.projection(point))
        height = self.figure.get_size_inches()[1] * self.figure.dpi
        return np.array([x, height - y])


def make_scene(trajectory, dpi: int = 80, projection: Projection | None = None):
    """The scene that draws `trajectory`: SpatialScene for bodies in space, else Scene."""
    if trajectory.model is not None and trajectory.dimension == 3:
        return SpatialScene(trajectory, dpi=dpi, projection=projection)
    return Scene(trajectory, dpi=dpi)


def animate(path, output, fps: float = 25.0, slow: float = 1.0, dpi: int = 80,
            projection: Projection | None = None) -> int:
    """Writes the animation of trajectory file `path` to `output` (.gif or .mp4); returns the
    number of frames. `projection` is the view of bodies in space (Projection())."""
    output = str(output)
    if output.endswith(".mp4"):
        if shutil.which("ffmpeg") is None:
            raise SystemExit("routh.animate: writing .mp4 needs ffmpeg, which is not installed "
                             "(apt-get install ffmpeg), or write a .gif")
        writer = animation.FFMpegWriter(fps=fps)
    elif output.endswith(".gif"):
        writer = animation.PillowWriter(fps=fps)
    else:
        raise SystemExit(f"routh.animate: {output}: write a .gif or an .mp4")
    trajectory = load(path)
    scene = make_scene(trajectory, dpi=dpi, projection=projection)
    duration = float(trajectory.time[-1] - trajectory.time[0])
    times = trajectory.time[0] + frame_times(duration, fps, slow)
    flash = 1.0 / (fps * slow)
    movie = animation.FuncAnimation(scene.figure, lambda k: scene.draw(times[k], flash),
                                    frames=len(times), blit=False)
    movie.save(output, writer=writer, dpi=dpi)
    plt.close(scene.figure)
    return len(times)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", help="a trajectory file (routh run)")
    parser.add_argument("-o", "--output", required=True, help="the .gif or .mp4 to write")
    parser.add_argument("--fps", type=float, default=25.0, help="frames per second")
    parser.add_argument("--slow", type=float, default=1.0,
                        help="slow motion: K seconds of film per second of the run")
    parser.add_argument("--dpi", type=int, default=80)
    parser.add_argument("--azimuth", type=float, default=-60.0,
                        help="bodies in space: the view's azimuth from x towards y [degrees]")
    parser.add_argument("--elevation", type=float, default=25.0,
                        help="bodies in space: the view's elevation above the xy plane [degrees]")
    args = parser.parse_args(argv)
    frames = animate(args.file, args.output, args.fps, args.slow, args.dpi,
                     Projection(args.azimuth, args.elevation))
    print(f"{args.output}: {frames} frames")


if __name__ == "__main__":
    main(sys.argv[1:])
