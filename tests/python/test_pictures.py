"""routh.plot and routh.animate on every shipped scenario, and what makes their pictures readable:
Figures returned without touching matplotlib's backend, one colour per body named in the legend,
units on every axis and one unit per axis, and the ground moving under an excitation as far as its
recorded acceleration takes it (compared with the closed-form displacement of a sine pulse)."""

import math
import os
import subprocess
import sys

import numpy as np
import pytest
from matplotlib.figure import Figure
from PIL import Image

import routh
from conftest import SCENARIOS, SOURCE_DIR, routh_cli
from routh.animate import Scene, animate, default_fps, make_scene
from routh.plot import plot_trajectory
from routh.style import body_colours

# a run this short still has every body, joint and obstacle of its model to draw
SHORT = "duration=0.2"


@pytest.fixture(scope="module")
def short_runs(tmp_path_factory):
    """Each shipped scenario run for 0.2 s, loaded once for every test of this file."""
    folder = tmp_path_factory.mktemp("runs")
    cache = {}

    def run(scenario):
        if scenario not in cache:
            output = folder / f"{scenario.stem}.h5"
            routh_cli("run", scenario, "-o", output, "--force", "--set", SHORT)
            cache[scenario] = routh.load(output)
        return cache[scenario]

    return run


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.stem)
def test_every_scenario_plots_and_animates(scenario, short_runs, tmp_path):
    trajectory = short_runs(scenario)
    # built (rendering is the same code for every run: test_plot.py renders images)
    for phase in (False, True):
        assert isinstance(plot_trajectory(trajectory, phase=phase), Figure)
    gif = tmp_path / "movie.gif"
    frames = animate(trajectory, gif, fps=10, dpi=20, size_in=2.0)
    assert frames == round(trajectory.time[-1] * 10)
    with Image.open(gif) as image:
        assert image.n_frames == frames


def test_importing_the_pictures_leaves_the_backend_alone():
    # a notebook's or a script's backend (here svg, chosen by the environment) stays chosen, and
    # pyplot, which manages figures for a backend, is never imported
    script = ("import matplotlib, sys\n"
              "before = matplotlib.get_backend()\n"
              "import routh.plot, routh.animate\n"
              "print(before, matplotlib.get_backend(), 'matplotlib.pyplot' in sys.modules)\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True, env={**os.environ, "MPLBACKEND": "svg"})
    assert result.stdout.split() == ["svg", "svg", "False"]


def test_a_run_without_a_file_plots_and_animates(tmp_path):
    # routh.run's result held in memory (no output=): path None
    trajectory = routh.load(routh_cli_output(tmp_path, "scenarios/bouncing_ball.yaml", SHORT))
    trajectory.path = None
    assert isinstance(plot_trajectory(trajectory), Figure)
    assert animate(trajectory, tmp_path / "ball.gif", fps=5, dpi=20, size_in=2.0) == 1


def routh_cli_output(tmp_path, scenario, *sets):
    output = tmp_path / "run.h5"
    arguments = ["run", SOURCE_DIR / scenario, "-o", output, "--force"]
    for item in sets:
        arguments += ["--set", item]
    routh_cli(*arguments)
    return output


def test_each_body_has_its_colour_and_its_name_in_the_legend(short_runs):
    trajectory = short_runs(SOURCE_DIR / "scenarios/statue_on_plinth.yaml")
    names = [body["name"] for body in trajectory.model["bodies"]]
    colours = body_colours(trajectory.model)
    assert len(set(colours.values())) == len(names)
    scene = make_scene(trajectory)
    texts = [text.get_text() for text in scene.legend.get_texts()]
    assert texts[:len(names)] == names
    assert texts[len(names):] == ["contact point", "impact"]  # free blocks: no joint
    chain = make_scene(short_runs(SOURCE_DIR / "scenarios/chain_on_floor.yaml"))
    texts = [text.get_text() for text in chain.legend.get_texts()]
    assert texts == ["link1", "link2", "link3", "link4", "joint", "contact point", "impact"]
    # every curve of the plot's coordinate panels is drawn in its body's colour
    figure = plot_trajectory(trajectory)
    curves = [line for axes in figure.axes[:4] for line in axes.get_lines() if line.get_label()
              [:1] != "_"]
    assert len(curves) == 12  # x, y, theta and their rates, per block
    for line in curves:
        body = line.get_label().split(".")[0]
        assert line.get_color() == colours[body]


def test_every_axis_has_one_unit(short_runs):
    # pendulum_strikes_block mixes angles (the pendulum) and lengths (the block): one panel each
    trajectory = short_runs(SOURCE_DIR / "scenarios/pendulum_strikes_block.yaml")
    figure = plot_trajectory(trajectory)
    units = {"[m]", "[rad]", "[m/s]", "[rad/s]", "[J]", "[s]"}
    for axes in figure.axes:
        assert sum(unit in axes.get_ylabel() for unit in units) == 1, axes.get_ylabel()
    assert figure.axes[-1].get_xlabel() == "t [s]"
    labels = [axes.get_ylabel() for axes in figure.axes]
    assert labels[:4] == ["position [m]", "angle [rad]", "velocity [m/s]",
                          "angular velocity [rad/s]"]
    position = [line.get_label() for line in figure.axes[0].get_lines()]
    assert position == ["block.x", "block.y"]
    scene = make_scene(trajectory)
    assert (scene.axes.get_xlabel(), scene.axes.get_ylabel()) == ("x [m]", "y [m]")


# rocking_block_pulse.yaml's ground: one cycle of a = A sin(w (t - t0)), w = 2 pi / T, from t0
PULSE_A, PULSE_T, PULSE_T0 = 0.45 * 9.80665, 0.5, 0.2


def pulse_displacement(t):
    """The closed-form displacement [m] of the pulse's ground, from rest: A/w tau - A/w^2 sin(w
    tau) during the cycle (tau = t - t0); after it the velocity is back to zero and the ground
    stays at A T / w."""
    w = 2 * math.pi / PULSE_T
    tau = min(max(t - PULSE_T0, 0.0), PULSE_T)
    return PULSE_A / w * tau - PULSE_A / w**2 * math.sin(w * tau)


def test_the_ground_moves_as_far_as_its_recorded_acceleration_takes_it(tmp_path):
    trajectory = routh.load(routh_cli_output(tmp_path, "scenarios/rocking_block_pulse.yaml",
                                             "duration=1"))
    scene = make_scene(trajectory, dpi=40)
    assert isinstance(scene, Scene) and scene.strip is not None
    block = trajectory.model["bodies"][0]
    for t in (0.1, 0.35, 0.5, 0.9):
        scene.draw(t)
        expected = pulse_displacement(trajectory.time[np.searchsorted(trajectory.time, t,
                                                                      side="right") - 1])
        for artist in scene.ground_artists:  # shade, boundary, hatching: shifted along x
            shift = (artist.get_transform() - scene.axes.transData).transform([0.0, 0.0])
            assert shift[0] == pytest.approx(expected, rel=1e-3, abs=1e-6)
            assert shift[1] == pytest.approx(0.0, abs=1e-12)
        # the block (coordinates relative to the ground) moves with it
        (polygon,) = [a for b, _, artists in scene.bodies for a in artists if b is block]
        i = np.searchsorted(trajectory.time, t, side="right") - 1
        x, y, theta = trajectory.q[i]
        c, s = math.cos(theta), math.sin(theta)
        corner = block["shape"]["vertices"][0]
        drawn = polygon.get_xy()[0]
        assert drawn[0] == pytest.approx(x + c * corner[0] - s * corner[1] + shift[0], abs=1e-9)
        assert drawn[1] == pytest.approx(y + s * corner[0] + c * corner[1], abs=1e-9)
        assert scene.cursor.get_xdata()[0] == t
    assert pulse_displacement(0.9) > 0.1  # far enough to be seen
    # the plot's panels: the events' lines span each panel without widening its limits
    figure = plot_trajectory(trajectory)
    (angle,) = [axes for axes in figure.axes if axes.get_ylabel() == "angle [rad]"]
    theta = trajectory.q[:, trajectory.names.index("theta")]
    assert len(trajectory.events) > 0
    assert angle.get_ylim()[1] <= theta.max() + 0.1 * np.ptp(theta)
    # in the ground's frame the ground stands still and the block is where its coordinates say
    still = make_scene(trajectory, dpi=40, fixed_ground=True)
    still.draw(0.9)
    assert still.ground_artists == [] and still.cursor.get_xdata()[0] == 0.9
    (polygon,) = [a for b, _, artists in still.bodies for a in artists if b is block]
    assert polygon.get_xy()[0][0] == pytest.approx(x + c * corner[0] - s * corner[1], abs=1e-12)


def test_a_long_run_gets_at_most_300_frames_and_a_window_its_own(tmp_path):
    assert default_fps(4.0) == 25.0
    assert default_fps(25.0) * 25.0 == pytest.approx(300.0)
    trajectory = routh.load(routh_cli_output(tmp_path, "scenarios/rocking_block_pulse.yaml"))
    with pytest.raises(ValueError, match="write a .gif or an .mp4"):
        animate(trajectory, tmp_path / "window.avi")
    gif = tmp_path / "window.gif"
    frames = animate(trajectory, gif, fps=10, dpi=20, size_in=2.0, start=0.5, end=1.0)
    assert frames == 5
    with Image.open(gif) as image:
        assert image.n_frames == 5
        assert image.info["duration"] == 100  # [ms] 1 / 10 fps


def test_the_streamed_gif_decodes_to_the_frames_drawn(tmp_path):
    # each frame written as the region that changed, with its own palette: Pillow's decoder,
    # which composes them, gives back every frame the scene drew (up to the 256 colours)
    trajectory = routh.load(routh_cli_output(tmp_path, "scenarios/rocking_block_pulse.yaml",
                                             "duration=1"))
    gif = tmp_path / "pulse.gif"
    count = animate(trajectory, gif, fps=8, dpi=30, size_in=3.0)
    scene = make_scene(trajectory, dpi=30, size_in=3.0)
    times = scene.start + np.arange(count) / 8
    drawn = [frame[..., :3].astype(int) for frame in scene.frames(times, 1 / 8)]
    with Image.open(gif) as image:
        assert image.n_frames == count == 8
        for k, frame in enumerate(drawn):
            image.seek(k)
            decoded = np.asarray(image.convert("RGB")).astype(int)
            assert decoded.shape == frame.shape
            assert np.abs(decoded - frame).mean() < 3
            assert np.abs(decoded - frame).max() < 40
