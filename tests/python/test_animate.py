"""routh.animate and routh.kinematics: every shipped scenario animates headless, with
duration x fps frames; a frame shows the block where the trajectory puts it; body_poses agrees
with physical facts it does not compute (corners on the floor at impacts, links joined)."""

import numpy as np
import pytest
from PIL import Image

from conftest import SCENARIOS, SOURCE_DIR
from routh import load
from routh.animate import Scene, animate, frame_times
from routh.kinematics import body_poses, world_points


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.stem)
def test_every_scenario_animates_with_duration_times_fps_frames(scenario, cli_run, tmp_path):
    path = cli_run(scenario, "duration=0.4")
    gif = tmp_path / "movie.gif"
    frames = animate(path, gif, fps=10, dpi=40)
    duration = load(path).time[-1]
    assert frames == round(duration * 10)
    with Image.open(gif) as image:
        assert image.n_frames == frames


def test_a_frame_shows_the_block_where_the_trajectory_puts_it(cli_run):
    trajectory = load(cli_run(SOURCE_DIR / "scenarios/rocking_block.yaml", "duration=0.5"))
    scene = Scene(trajectory, dpi=80)
    t = 0.25
    scene.draw(t)
    scene.figure.canvas.draw()
    pixels = np.asarray(scene.figure.canvas.buffer_rgba())[..., :3].astype(int)
    blue = (pixels[..., 2] > 150) & (pixels[..., 0] < 100)  # tab:blue, not the grey floor
    rows, columns = np.nonzero(blue)
    centroid = np.array([columns.mean(), rows.mean()])
    p, _ = body_poses(trajectory.model, trajectory.q, trajectory.names)["block"]
    i = np.searchsorted(trajectory.time, t, side="right") - 1
    expected = scene.to_pixels(p[i])
    assert np.linalg.norm(centroid - expected) < 3.0


def test_frame_times_run_at_real_time_or_slowed():
    assert len(frame_times(2.0, 25)) == 50
    assert len(frame_times(2.0, 25, slow=4)) == 200


def event_samples(trajectory, kind="impact"):
    """Indices of the samples just after each impact (sample_kind 2 at an impact's time)."""
    impacts = set(trajectory.events["t"][trajectory.events["kind"] == kind])
    return [i for i, t in enumerate(trajectory.time)
            if trajectory.sample_kind[i] == 2 and t in impacts]


def test_the_rocking_blocks_lowest_corner_is_on_the_floor_at_its_impacts(cli_run):
    trajectory = load(cli_run(SOURCE_DIR / "scenarios/rocking_block.yaml", "duration=2"))
    model = trajectory.model
    poses = body_poses(model, trajectory.q, trajectory.names)
    corners = world_points(poses["block"], model["bodies"][0]["shape"]["vertices"])
    at_impacts = event_samples(trajectory)
    assert len(at_impacts) >= 3
    lowest = corners[at_impacts, :, 1].min(axis=1)
    assert np.abs(lowest).max() < 1e-6


def test_the_pendulum_tip_is_on_the_wall_at_its_impacts(cli_run):
    trajectory = load(cli_run(SOURCE_DIR / "scenarios/bouncing_pendulum.yaml", "duration=2"))
    model = trajectory.model
    (tip,) = [c for c in model["contacts"] if c["name"] == "tip"]
    (wall,) = [o for o in model["obstacles"] if o["name"] == tip["obstacle"]]
    poses = body_poses(model, trajectory.q, trajectory.names)
    points = world_points(poses[tip["body"]], [tip["point"]])[:, 0, :]
    gaps = (points - np.asarray(wall["point"])) @ np.asarray(wall["normal"])
    at_impacts = event_samples(trajectory)
    assert len(at_impacts) > 0
    assert np.abs(gaps[at_impacts]).max() < 1e-6
    assert gaps.min() > -1e-6


def test_a_chains_links_meet_at_their_joints(cli_run):
    trajectory = load(cli_run(SOURCE_DIR / "scenarios/chain_on_floor.yaml", "duration=1"))
    model = trajectory.model
    poses = body_poses(model, trajectory.q, trajectory.names)
    joined = 0
    for body in model["bodies"]:
        joint = body["joint"]
        if joint["parent"] is None:
            continue
        on_child = world_points(poses[body["name"]], [joint["child_point"]])
        on_parent = world_points(poses[joint["parent"]], [joint["parent_point"]])
        assert np.abs(on_child - on_parent).max() < 1e-12
        joined += 1
    assert joined >= 2
