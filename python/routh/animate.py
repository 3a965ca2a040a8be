"""An animation of a run, drawn from its trajectory file's /model, headless.

    python3 -m routh.animate FILE.h5 -o out.gif|out.mp4 [--fps N] [--slow K]

Bodies and obstacles come from /model, poses from /q through routh.kinematics.body_poses. Frames
are at real time (frame count = duration x fps / speed, speed = 1 / slow), each at the state the
trajectory has at that time (the last sample at or before it). A body drawn at or within one frame
after an impact is flashed red; every frame carries its time stamp. GIF through matplotlib's
PillowWriter; mp4 through ffmpeg, only when it is installed.
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

from routh.kinematics import body_poses, world_points  # noqa: E402
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


def animate(path, output, fps: float = 25.0, slow: float = 1.0, dpi: int = 80) -> int:
    """Writes the animation of trajectory file `path` to `output` (.gif or .mp4); returns the
    number of frames."""
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
    scene = Scene(trajectory, dpi=dpi)
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
    args = parser.parse_args(argv)
    frames = animate(args.file, args.output, args.fps, args.slow, args.dpi)
    print(f"{args.output}: {frames} frames")


if __name__ == "__main__":
    main(sys.argv[1:])
