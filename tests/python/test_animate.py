"""routh.animate and routh.kinematics: a frame shows the block where the trajectory puts it, and
an impact where its contact is; body_poses agrees with physical facts it does not compute (corners
on the floor at impacts, links joined). Every shipped scenario animates in test_pictures.py."""

import numpy as np
import pytest

from conftest import SOURCE_DIR
from routh import load
from routh.animate import Scene, frame_times
from routh.kinematics import body_poses, body_poses_3d, contact_location, world_points



def BLUE(pixels):  # the first body's colour (routh.style), not the grey floor or a light fill
    return (pixels[..., 2] > 150) & (pixels[..., 0] < 100)


def RED(pixels):  # the impact stars
    return (pixels[..., 0] > 180) & (pixels[..., 1] < 100) & (pixels[..., 2] < 100)


def scene_pixels(scene, colour):
    """The pixels of the scene's axes (not its legend or strip) of a colour, in the figure's
    image (rows down)."""
    scene.figure.canvas.draw()
    pixels = np.asarray(scene.figure.canvas.buffer_rgba())[..., :3].astype(int)
    (x0, y0), (x1, y1) = scene.axes.get_window_extent().get_points()
    height = pixels.shape[0]
    inside = np.zeros(pixels.shape[:2], bool)
    inside[int(height - y1):int(height - y0), int(x0):int(x1)] = True
    return colour(pixels) & inside


def test_a_frame_shows_the_block_where_the_trajectory_puts_it(cli_run):
    trajectory = load(cli_run(SOURCE_DIR / "scenarios/rocking_block.yaml", "duration=0.5"))
    scene = Scene(trajectory, dpi=80)
    t = 0.25
    scene.draw(t)
    rows, columns = np.nonzero(scene_pixels(scene, BLUE))  # the block's outline
    centroid = np.array([columns.mean(), rows.mean()])
    p, _ = body_poses(trajectory.model, trajectory.q, trajectory.names)["block"]
    i = np.searchsorted(trajectory.time, t, side="right") - 1
    expected = scene.to_pixels(p[i])
    assert np.linalg.norm(centroid - expected) < 3.0


def test_an_impact_puts_a_star_on_its_contact(cli_run):
    # the rocking block's impacts: a red star where the contact the event names is, just after
    trajectory = load(cli_run(SOURCE_DIR / "scenarios/rocking_block.yaml", "duration=2"))
    scene = Scene(trajectory, dpi=80)
    events = trajectory.events
    impact = events[events["kind"] == "impact"].iloc[0]
    contacts = [trajectory.model["contacts"][int(c)] for c in impact["contact_indices"].split(",")]
    scene.draw(impact["t"] + 1e-4, flash_window=1e-3)
    rows, columns = np.nonzero(scene_pixels(scene, RED))
    assert len(rows) > 20
    i = np.searchsorted(trajectory.time, impact["t"], side="right") - 1
    poses = body_poses(trajectory.model, trajectory.q, trajectory.names)
    stars = [scene.to_pixels(world_points(poses[c["body"]], [c["point"]])[i, 0]) for c in contacts]
    nearest = np.min([np.hypot(columns - x, rows - y) for x, y in stars], axis=0)
    assert nearest.max() < 12  # every red pixel belongs to a star on one of its contacts
    scene.draw(impact["t"] + 0.1, flash_window=1e-3)
    assert not scene_pixels(scene, RED).any()


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


def test_impacts_are_located_where_the_bodies_touch(cli_run):
    # contact_location finds a contact from /model alone (a box corner by its name, the point
    # between two disks): at an impact that point is on the surfaces the contact joins
    die = load(cli_run(SOURCE_DIR / "scenarios/tumbling_die.yaml"))
    poses = body_poses_3d(die.model, die.q, die.names)
    located = 0
    for t, involved in impact_contacts(die):
        i = np.searchsorted(die.time, t, side="right") - 1
        for contact in involved:
            (plane,) = [o for o in die.model["obstacles"] if o["name"] == contact["obstacle"]]
            point = contact_location(die.model, poses, contact, i)
            gap = (point - np.asarray(plane["point"])) @ np.asarray(plane["normal"])
            assert abs(gap) < 1e-6
            located += 1
    assert located >= 3
    disks = load(cli_run(SOURCE_DIR / "scenarios/two_disks.yaml"))
    poses = body_poses(disks.model, disks.q, disks.names)
    radius = {b["name"]: b["shape"]["radius"] for b in disks.model["bodies"]}
    ((t, (contact,)),) = impact_contacts(disks)
    i = np.searchsorted(disks.time, t, side="right") - 1
    point = contact_location(disks.model, poses, contact, i)
    for name in (contact["body"], contact["other"]):
        assert np.linalg.norm(point - poses[name][0][i]) == pytest.approx(radius[name], rel=1e-6)


def impact_contacts(trajectory):
    """(time, the contacts of /model it involves) of every impact."""
    events = trajectory.events[trajectory.events["kind"] == "impact"]
    return [(t, [trajectory.model["contacts"][int(c)] for c in text.split(",")])
            for t, text in zip(events["t"], events["contact_indices"])]
