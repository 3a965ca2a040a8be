"""routh.plot and routh.animate on trajectory files of free rigid bodies in space (written in the
test from closed-form motions, tests/python/spatial_files.py): the plots and the animation are
written, with duration x fps frames, a frame shows the box where its pose (and the moving ground)
puts it, and an impact puts a red star where the ball touches the floor."""

import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

import routh
import spatial_files as files
from routh.animate import Projection, SpatialScene, animate, make_scene
from routh.kinematics import body_poses_3d
from routh.plot import plot_trajectory


@pytest.fixture(params=["box", "ball"])
def spatial_file(request, tmp_path):
    write = files.tumbling_box if request.param == "box" else files.rolling_ball
    return write(tmp_path / f"{request.param}.h5")


def test_a_spatial_trajectory_plots_with_and_without_phase(spatial_file, tmp_path):
    for phase in (False, True):
        png = tmp_path / f"plot{phase}.png"
        plot_trajectory(spatial_file, png, phase=phase)
        with Image.open(png) as image:
            assert image.size[0] > 100 and image.size[1] > 100


def test_a_spatial_trajectory_animates_with_duration_times_fps_frames(spatial_file, tmp_path):
    gif = tmp_path / "movie.gif"
    frames = animate(spatial_file, gif, fps=10, dpi=40)
    duration = routh.load(spatial_file).time[-1]
    assert frames == round(duration * 10)
    with Image.open(gif) as image:
        assert image.n_frames == frames


def test_the_command_lines_write_their_files(tmp_path):
    spatial_file = files.rolling_ball(tmp_path / "ball.h5")
    png, gif = tmp_path / "plot.png", tmp_path / "movie.gif"
    subprocess.run([sys.executable, "-m", "routh.plot", spatial_file, "-o", png], check=True)
    assert png.stat().st_size > 1000
    subprocess.run([sys.executable, "-m", "routh.animate", spatial_file, "-o", gif, "--fps", "5",
                    "--slow", "2", "--dpi", "30", "--azimuth", "30", "--elevation", "60"],
                   check=True)
    with Image.open(gif) as image:
        assert image.n_frames == round(routh.load(spatial_file).time[-1] * 5 * 2)


def scene_pixels(scene, colour):
    """The pixels of the scene's axes (not its legend or strip) of a colour."""
    scene.figure.canvas.draw()
    pixels = np.asarray(scene.figure.canvas.buffer_rgba())[..., :3].astype(int)
    (x0, y0), (x1, y1) = scene.axes.get_window_extent().get_points()
    inside = np.zeros(pixels.shape[:2], bool)
    inside[int(pixels.shape[0] - y1):int(pixels.shape[0] - y0), int(x0):int(x1)] = True
    return colour(pixels) & inside


def blue_pixels(scene):  # the first body's colour (routh.style), not the grey floor
    return scene_pixels(scene, lambda p: (p[..., 2] > 150) & (p[..., 0] < 100))


def red_pixels(scene):  # the impact stars
    return scene_pixels(scene, lambda p: (p[..., 0] > 180) & (p[..., 1] < 100) & (p[..., 2] < 100))


@pytest.mark.parametrize("azimuth, elevation", [(-60, 25), (10, 70)])
def test_a_frame_shows_the_box_where_its_pose_puts_it(tmp_path, azimuth, elevation):
    # the box's edges are symmetric about its centre, and so is their projection: the blue
    # pixels' centroid is the projected centre of mass, moved with the shaking ground
    trajectory = routh.load(files.tumbling_box(tmp_path / "box.h5"))
    scene = make_scene(trajectory, dpi=80, projection=Projection(azimuth, elevation))
    assert isinstance(scene, SpatialScene)
    t = 0.25
    scene.draw(t)
    rows, columns = np.nonzero(blue_pixels(scene))
    assert len(rows) > 50
    p, _ = body_poses_3d(trajectory.model, trajectory.q, trajectory.names)["box"]
    i = np.searchsorted(trajectory.time, t, side="right") - 1
    expected = scene.to_pixels(p[i] + scene.ground[i])
    assert np.linalg.norm(scene.ground[i]) > 1e-3
    assert np.linalg.norm(np.array([columns.mean(), rows.mean()]) - expected) < 3.0


def test_an_impact_puts_a_star_where_the_ball_touches_the_floor(tmp_path):
    trajectory = routh.load(files.rolling_ball(tmp_path / "ball.h5"))
    scene = make_scene(trajectory, dpi=80)
    scene.draw(0.2, flash_window=0.05)  # the impact at 0.2 s
    rows, columns = np.nonzero(red_pixels(scene))
    assert len(rows) > 20
    p, _ = body_poses_3d(trajectory.model, trajectory.q, trajectory.names)["ball"]
    i = np.searchsorted(trajectory.time, 0.2, side="right") - 1
    x, y = scene.to_pixels(p[i] - [0.0, 0.0, files.BALL_RADIUS])  # its lowest point
    assert np.hypot(columns - x, rows - y).max() < 12
    scene.draw(0.4, flash_window=0.05)
    assert red_pixels(scene).sum() == 0 and blue_pixels(scene).sum() > 20
