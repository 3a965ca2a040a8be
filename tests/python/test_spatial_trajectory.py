"""routh.load and routh.kinematics on trajectory files of free rigid bodies in space: the files are
written in the test from closed-form motions (tests/python/spatial_files.py), so that poses are
checked against rotation matrices composed by hand and against the physics of the motion (a
rolling ball's contact point at rest, steady spin about a principal axis), not against routh's
own output."""

import numpy as np
import pytest

import routh
import spatial_files as files
from conftest import SOURCE_DIR
from routh.kinematics import (
    BOX_CORNER_NAMES,
    body_poses,
    body_poses_3d,
    body_velocities_3d,
    bounding_radius,
    box_corners,
    quaternion_rotation,
    shape_wireframe,
    sphere_outline,
    tilt,
    world_points,
)


def rx(angle):
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def rz(angle):
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def skew_vector(matrix):
    """ω of a skew-symmetric matrix [ω]×."""
    return np.array([matrix[2, 1], matrix[0, 2], matrix[1, 0]])


@pytest.fixture
def box(tmp_path):
    return routh.load(files.tumbling_box(tmp_path / "box.h5"))


@pytest.fixture
def ball(tmp_path):
    return routh.load(files.rolling_ball(tmp_path / "ball.h5"))


def test_a_spatial_file_loads_with_its_own_velocity_names(box):
    n = len(box.time)
    assert box.dimension == 3
    assert box.q.shape == (n, 7) and box.v.shape == (n, 6)
    assert box.names == [f"box.{c}" for c in ("x", "y", "z", "qw", "qx", "qy", "qz")]
    assert box.v_names == [f"box.{c}" for c in ("vx", "vy", "vz", "wx", "wy", "wz")]
    assert box.q_units[3] == "1" and box.v_units[3] == "rad/s"
    assert box.units["v.box.wx"] == "rad/s" and box.units["q.box.qw"] == "1"
    assert box.ground_acceleration.shape == (n, 3)
    samples = box.samples()
    assert "v.box.wz" in samples.columns and "v.box.qz" not in samples.columns
    assert np.array_equal(samples["a_g.z"].to_numpy(), box.ground_acceleration[:, 2])
    assert np.array_equal(samples["v.box.wx"].to_numpy(), box.v[:, 3])
    assert box.warnings == []


def test_spatial_contacts_split_their_impulses_along_n_t1_t2(ball):
    events = ball.events
    assert list(events["kind"]) == ["impact", "liftoff"]
    impact = events.iloc[0]
    assert (impact["Gamma_n.ball/floor"], impact["Gamma_t1.ball/floor"],
            impact["Gamma_t2.ball/floor"]) == (0.01, 0.002, -0.001)
    assert np.isnan(events["Gamma_t2.ball/floor"].iloc[1])
    assert "Gamma_t.ball/floor" not in events.columns


def test_a_box_corner_is_where_the_rotation_composed_by_hand_puts_it(box):
    # R(t) = Rz(heading) Rx(spin t): the file's quaternion, whose norm drifts, must be normalised
    t = box.time
    (p, orientation) = body_poses_3d(box.model, box.q, box.names)["box"]
    corner = 0.5 * files.BOX_SIZE  # x+y+z+
    expected_p = (files.BOX_START + np.outer(t, files.BOX_VELOCITY)
                  + 0.5 * np.outer(t * t, [0.0, 0.0, -files.GRAVITY]))
    by_hand = np.array([p_k + rz(files.BOX_HEADING) @ rx(files.BOX_SPIN * t_k) @ corner
                        for t_k, p_k in zip(t, expected_p)])
    corners = world_points((p, orientation), box_corners(files.BOX_SIZE))
    computed = corners[:, BOX_CORNER_NAMES.index("x+y+z+"), :]
    assert np.abs(computed - by_hand).max() < 1e-12
    assert np.abs(p - expected_p).max() < 1e-12
    # the rotations are rotations although |q| is not 1
    assert abs(np.linalg.norm(box.q[-1, 3:]) - 1) > 1e-4
    identity = np.einsum("nji,njk->nik", orientation, orientation)
    assert np.abs(identity - np.eye(3)).max() < 1e-12
    assert np.abs(np.linalg.det(orientation) - 1).max() < 1e-12


def test_the_poses_turn_at_the_files_body_frame_angular_velocity(box):
    # steady spin about a principal axis: Rᵀ Ṙ = [ω]× with ω the file's (body-frame) ω, which
    # differs from the world-frame ω = R ω since the box is turned about z
    _, orientation = body_poses_3d(box.model, box.q)["box"]
    _, omega = body_velocities_3d(box.model, box.v, box.v_names)["box"]
    dt = box.time[1] - box.time[0]
    for i in (20, 100, 180):
        rate = orientation[i].T @ (orientation[i + 1] - orientation[i - 1]) / (2 * dt)
        assert np.allclose(skew_vector(rate), omega[i], atol=2e-3 * files.BOX_SPIN)
    # the tilt of body z from the vertical: Rz(heading) Rx(θ) e_z makes the angle θ with e_z
    spin = files.BOX_SPIN * box.time
    assert np.allclose(tilt(orientation), np.arccos(np.cos(spin)), atol=1e-9)


def test_the_rolling_balls_contact_point_is_at_rest(ball):
    # rolling without slipping: the material point at the bottom has zero velocity, both by the
    # file's velocities (v + R (ω × b)) and by how the poses move it from sample to sample
    p, orientation = body_poses_3d(ball.model, ball.q, ball.names)["ball"]
    velocity, omega = body_velocities_3d(ball.model, ball.v)["ball"]
    bottom_world = np.array([0.0, 0.0, -files.BALL_RADIUS])
    dt = ball.time[1] - ball.time[0]
    speed = files.BALL_SPEED
    for i in (10, 57, 140):
        b = orientation[i].T @ bottom_world  # the body point at the bottom at sample i
        assert np.abs(velocity[i] + orientation[i] @ np.cross(omega[i], b)).max() < 1e-12
        track = world_points((p[i - 1:i + 2], orientation[i - 1:i + 2]), [b])[:, 0, :]
        assert np.abs(track[1] - (p[i] + bottom_world)).max() < 1e-12
        assert np.linalg.norm(track[2] - track[0]) / (2 * dt) < 1e-3 * speed
    # a quarter turn (θ = u t / r = π/2 about +y) brings the first bottom point to the back:
    # Ry(π/2) (0, 0, −r) = (−r, 0, 0)
    t = np.pi / 2 * files.BALL_RADIUS / speed
    row = np.concatenate([[speed * t, 0, files.BALL_RADIUS],
                          [np.cos(np.pi / 4), 0, np.sin(np.pi / 4), 0], ball.q[0, 7:]])
    pose = body_poses_3d(ball.model, row, ball.names)["ball"]
    point = world_points(pose, [bottom_world])[0, 0]
    assert np.allclose(point, [speed * t - files.BALL_RADIUS, 0, files.BALL_RADIUS], atol=1e-15)


def test_quaternion_rotation_is_normalised_and_vectorised():
    angles = np.array([0.0, 0.3, 2.0])
    turns = np.stack([np.cos(angles / 2), 0 * angles, 0 * angles, np.sin(angles / 2)], -1)
    matrices = quaternion_rotation(3.0 * turns)
    assert matrices.shape == (3, 3, 3)
    for angle, matrix in zip(angles, matrices):
        assert np.allclose(matrix, rz(angle), atol=1e-15)


def test_wireframes_measure_their_shapes():
    size = np.array([0.4, 0.2, 0.1])
    edges = shape_wireframe({"type": "box", "size": size.tolist()})["edges"]
    pairs = [edges[k:k + 2] for k in range(0, len(edges), 3)]
    lengths = sorted(np.linalg.norm(a - b) for a, b in pairs)
    assert np.allclose(lengths, np.repeat(np.sort(size), 4))
    cylinder = shape_wireframe({"type": "cylinder", "radius": 0.05, "height": 0.01})
    rims = cylinder["rims"][~np.isnan(cylinder["rims"][:, 0])]
    assert np.allclose(np.hypot(rims[:, 0], rims[:, 1]), 0.05)
    assert np.allclose(np.abs(rims[:, 2]), 0.005)
    assert np.allclose(cylinder["axis"], [[0, 0, -0.005], [0, 0, 0.005]])
    centre = np.array([0.0, 0.0, 0.01])
    markers = shape_wireframe({"type": "sphere", "radius": 0.03, "centre": centre.tolist()})
    points = markers["markers"][~np.isnan(markers["markers"][:, 0])]
    assert np.allclose(np.linalg.norm(points - centre, axis=1), 0.03)


@pytest.mark.parametrize("shape, reach", [
    ({"type": "box", "size": [0.4, 0.2, 0.1]}, np.sqrt(0.04 + 0.01 + 0.0025)),
    ({"type": "cylinder", "radius": 0.05, "height": 0.01}, np.sqrt(0.0025 + 0.000025)),
    ({"type": "sphere", "radius": 0.03, "centre": [0.0, 0.0, 0.01]}, 0.04),
])
def test_a_shape_reaches_its_bounding_radius_and_no_further(shape, reach):
    assert bounding_radius(shape) == pytest.approx(reach, rel=1e-15)
    lines = np.concatenate(list(shape_wireframe(shape, segments=64).values()))
    distances = np.linalg.norm(lines[~np.isnan(lines[:, 0])], axis=1)
    assert distances.max() <= reach * (1 + 1e-15)
    assert distances.max() > reach * (1 - 1e-12)  # a corner, a rim point, the sphere's top


def test_a_sphere_outline_is_the_circle_facing_the_viewer():
    view = np.array([1.0, 2.0, 2.0]) / 3.0
    centres = np.array([[0.0, 0.0, 0.0], [1.0, -1.0, 0.5]])
    outline = sphere_outline(centres, 0.2, view, segments=16)
    assert outline.shape == (2, 17, 3)
    offsets = outline - centres[:, None, :]
    assert np.allclose(np.linalg.norm(offsets, axis=-1), 0.2)
    assert np.allclose(offsets @ view, 0.0)


def test_planar_files_keep_their_coordinate_names_and_poses(cli_run):
    trajectory = routh.load(cli_run(SOURCE_DIR / "scenarios" / "rocking_block.yaml",
                                    "duration=0.2"))
    assert trajectory.dimension == 2
    assert trajectory.v_names == trajectory.names == ["x", "y", "theta"]
    assert list(trajectory.samples().columns[3:6]) == ["v.x", "v.y", "v.theta"]
    (p, phi) = body_poses(trajectory.model, trajectory.q, trajectory.names)["block"]
    assert np.array_equal(p, trajectory.q[:, :2]) and np.array_equal(phi, trajectory.q[:, 2])
