"""Forward kinematics of a trajectory file's /model: where every body is at each sample.

``body_poses(model, q, names)`` applies the rule docs/output.md gives for /model, parents first:

    phi = theta (free or revolute, "absolute"), phi_parent + theta ("relative"),
          phi_parent (prismatic)
    p   = p_parent + R(phi_parent) (parent_point + d) - R(phi) child_point

with d = (x, y) for a free joint, s * axis for a prismatic one, 0 for a revolute one, and the
ground at (0, 0), angle 0. p is the body's centre of mass [m], phi its angle [rad],
counter-clockwise. Pure numpy, vectorised over samples.

Free rigid bodies in space (a /model with ``"dimension": 3``): ``body_poses_3d(model, q, names)``
reads each body's 7 coordinates (x, y, z, qw, qx, qy, qz): p = (x, y, z) is its centre of mass
[m] and R the rotation matrix of the quaternion q / |q| (w first, Hamilton's convention, turning
body-frame vectors into world-frame ones), so a body point b is in the world at p + R b.
``shape_wireframe`` gives the body-frame lines that draw a sphere, box or cylinder, and
``sphere_outline`` a sphere's silhouette seen along a direction.

Under an excitation the bodies' coordinates are relative to the moving ground (docs/excitation.md):
``ground_displacement`` integrates the recorded a_g(t) twice, from rest, to put the ground and the
bodies where they are in the world. ``contact_location`` says where a contact of /model is.
"""

from __future__ import annotations

import numpy as np


def rotation(phi: np.ndarray) -> np.ndarray:
    """R(phi), shape (..., 2, 2): rotation by phi [rad] counter-clockwise."""
    c, s = np.cos(phi), np.sin(phi)
    return np.stack([np.stack([c, -s], -1), np.stack([s, c], -1)], -2)


def body_poses(model: dict, q: np.ndarray, names: list[str] | None = None) -> dict:
    """Every body's pose at every sample: {body name: (p, phi)}, p of shape (N, 2) [m] (centre of
    mass, world frame), phi of shape (N,) [rad]. `q` is (N, n) or (n,); `names` are q's column
    names (the joints' `columns` are used when omitted; given, they are checked against them)."""
    q = np.atleast_2d(np.asarray(q, dtype=float))
    samples = q.shape[0]
    poses: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for body in model["bodies"]:
        joint = body["joint"]
        columns = list(joint["columns"])
        if names is not None:
            columns = [list(names).index(name) for name in joint["coordinates"]]
        values = q[:, columns]
        if joint["parent"] is None:
            p_parent, phi_parent = np.zeros((samples, 2)), np.zeros(samples)
        else:
            p_parent, phi_parent = poses[joint["parent"]]
        kind = joint["type"]
        offset = np.broadcast_to(np.asarray(joint["parent_point"], float), (samples, 2)).copy()
        if kind == "free":
            offset += values[:, :2]
        elif kind == "prismatic":
            offset += values[:, :1] * np.asarray(joint["axis"], float)
        if kind == "prismatic":
            phi = phi_parent.copy()
        else:
            theta = values[:, -1]
            phi = theta if joint.get("angle") == "absolute" else phi_parent + theta
        child_point = np.asarray(joint["child_point"], float)
        p = (p_parent + np.einsum("nij,nj->ni", rotation(phi_parent), offset)
             - rotation(phi) @ child_point)
        poses[body["name"]] = (p, phi)
    return poses


def world_points(pose: tuple[np.ndarray, np.ndarray], points: np.ndarray) -> np.ndarray:
    """Body-frame points (k, d), relative to the centre of mass, in the world at each sample of
    `pose`: shape (N, k, d). `pose` is planar (p (N, 2), phi (N,)) or spatial (p (N, 3),
    R (N, 3, 3)); NaN rows (the breaks of a wireframe) stay NaN."""
    p, orientation = pose
    matrices = orientation if np.ndim(orientation) == 3 else rotation(orientation)
    return p[:, None, :] + np.einsum("nij,kj->nki", matrices, np.asarray(points, float))


# ---- free rigid bodies in space -----------------------------------------------------------

# A spatial body's coordinates, in the order of /q: centre of mass, then its unit quaternion.
SPATIAL_COORDINATES = ("x", "y", "z", "qw", "qx", "qy", "qz")
# and its velocities, in the order of /v: centre of mass (world frame), then ω (body frame)
SPATIAL_VELOCITIES = ("vx", "vy", "vz", "wx", "wy", "wz")


def quaternion_rotation(quaternion: np.ndarray) -> np.ndarray:
    """The rotation matrices (..., 3, 3) of quaternions (..., 4) = (w, x, y, z), each divided by
    its norm first (the simulation lets |q| drift and reads rotations from q / |q|)."""
    quaternion = np.asarray(quaternion, float)
    w, x, y, z = np.moveaxis(quaternion / np.linalg.norm(quaternion, axis=-1, keepdims=True), -1, 0)
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
        np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
        np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1),
    ], -2)


def body_poses_3d(model: dict, q: np.ndarray, names: list[str] | None = None) -> dict:
    """Every spatial body's pose at every sample: {body name: (p, R)}, p of shape (N, 3) [m]
    (centre of mass, world frame), R of shape (N, 3, 3) (body to world). `q` is (N, nq) or (nq,);
    `names` are q's column names (the bodies' `columns` are used when omitted; given, the columns
    are found by the bodies' `coordinates`)."""
    q = np.atleast_2d(np.asarray(q, dtype=float))
    poses: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for body in model["bodies"]:
        columns = list(body["columns"])
        if names is not None:
            columns = [list(names).index(name) for name in body["coordinates"]]
        if len(columns) != len(SPATIAL_COORDINATES):
            raise ValueError(f"body {body['name']}: {len(columns)} coordinates, expected "
                             f"{len(SPATIAL_COORDINATES)} ({', '.join(SPATIAL_COORDINATES)})")
        values = q[:, columns]
        poses[body["name"]] = (values[:, :3], quaternion_rotation(values[:, 3:]))
    return poses


def body_velocities_3d(model: dict, v: np.ndarray, names: list[str] | None = None) -> dict:
    """Every spatial body's velocities at every sample: {body name: (velocity, omega)}, the
    centre of mass's velocity (N, 3) [m/s] in the world frame and the angular velocity (N, 3)
    [rad/s] in the body frame (the world's is R omega). `names` are v's column names (the bodies'
    `velocity_columns` are used when omitted; given, the columns BODY.vx, ..., BODY.wz)."""
    v = np.atleast_2d(np.asarray(v, dtype=float))
    velocities = {}
    for body in model["bodies"]:
        columns = list(body["velocity_columns"])
        if names is not None:
            columns = [list(names).index(f"{body['name']}.{c}") for c in SPATIAL_VELOCITIES]
        values = v[:, columns]
        velocities[body["name"]] = (values[:, :3], values[:, 3:])
    return velocities


def tilt(orientation: np.ndarray, up=(0.0, 0.0, 1.0)) -> np.ndarray:
    """The angle [rad] between each body z axis (the third column of R, shape (N, 3, 3)) and the
    direction `up` (a unit vector): 0 upright, pi upside down."""
    cosine = orientation[..., :, 2] @ np.asarray(up, float)
    return np.arccos(np.clip(cosine, -1.0, 1.0))


def unknown_shape(kind: str) -> ValueError:
    """The error for a shape type that is not one of the spatial shapes."""
    return ValueError(f"unknown spatial shape type {kind!r} (sphere, box, cylinder)")


def box_corners(size) -> np.ndarray:
    """The 8 corners (8, 3) of a box of edge lengths (a, b, c) centred on the body origin, in the
    order of BOX_CORNER_NAMES: z varies fastest, then y, then x, minus before plus."""
    signs = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)], float)
    return 0.5 * signs * np.asarray(size, float)


# The corners' names as routh names their contacts: the signs of their body coordinates.
BOX_CORNER_NAMES = tuple(f"x{sx}y{sy}z{sz}" for sx in "-+" for sy in "-+" for sz in "-+")


def _polylines(*lines: np.ndarray) -> np.ndarray:
    """Polylines (k_i, 3) joined into one array, NaN rows between them (one plotted line)."""
    gap = np.full((1, 3), np.nan)
    return np.concatenate([part for line in lines for part in (line, gap)][:-1])


def _circle(radius: float, segments: int, axes=(0, 1), centre=(0.0, 0.0, 0.0),
            offset: float = 0.0, along: int = 2) -> np.ndarray:
    """A closed circle (segments + 1, 3) of `radius` about `centre`, in the plane of the body axes
    `axes`, shifted by `offset` along the body axis `along`."""
    angles = np.linspace(0.0, 2.0 * np.pi, segments + 1)
    points = np.tile(np.asarray(centre, float), (segments + 1, 1))
    points[:, axes[0]] += radius * np.cos(angles)
    points[:, axes[1]] += radius * np.sin(angles)
    points[:, along] += offset
    return points


def shape_wireframe(shape: dict, segments: int = 32) -> dict:
    """The body-frame lines [m] that draw a spatial shape, each an array (k, 3) whose NaN rows
    break it into polylines: a box {"edges"} (its 12 edges); a cylinder {"rims"} (top and
    bottom circles), {"axis"} (its axis, body z, from base to base) and {"generators"} (four
    lines on its side, fixed in the body, that show it spin); a sphere {"markers"} (two great
    circles fixed in the body, in its xy and xz planes, that show it turn; its outline depends on
    the view: sphere_outline)."""
    kind = shape["type"]
    if kind == "box":
        corners = box_corners(shape["size"])
        edges = [corners[[i, j]] for i in range(8) for j in range(i + 1, 8)
                 if np.count_nonzero(corners[i] != corners[j]) == 1]
        return {"edges": _polylines(*edges)}
    if kind == "cylinder":
        r, h = float(shape["radius"]), float(shape["height"])
        rims = [_circle(r, segments, offset=z) for z in (-h / 2, h / 2)]
        generators = [np.array([[r * np.cos(a), r * np.sin(a), -h / 2],
                                [r * np.cos(a), r * np.sin(a), h / 2]])
                      for a in np.arange(4) * np.pi / 2]
        return {"rims": _polylines(*rims),
                "axis": np.array([[0.0, 0.0, -h / 2], [0.0, 0.0, h / 2]]),
                "generators": _polylines(*generators)}
    if kind == "sphere":
        r, centre = float(shape["radius"]), np.asarray(shape.get("centre", (0, 0, 0)), float)
        return {"markers": _polylines(_circle(r, segments, (0, 1), centre),
                                      _circle(r, segments, (0, 2), centre))}
    raise unknown_shape(kind)


def bounding_radius(shape: dict) -> float:
    """The largest distance [m] of a spatial shape's points from the body origin: a sphere's
    |centre| + r, half a box's diagonal, a cylinder's rim from its middle sqrt(r² + (h/2)²)."""
    kind = shape["type"]
    if kind == "sphere":
        return float(np.linalg.norm(shape.get("centre", (0, 0, 0))) + shape["radius"])
    if kind == "box":
        return float(np.linalg.norm(shape["size"]) / 2)
    if kind == "cylinder":
        return float(np.hypot(shape["radius"], shape["height"] / 2))
    raise unknown_shape(kind)


def sphere_outline(centres: np.ndarray, radius: float, view, segments: int = 32) -> np.ndarray:
    """The silhouette of spheres of `radius` centred at `centres` (N, 3) [m, world] seen along
    the unit direction `view`: the circle about each centre perpendicular to it, shape
    (N, segments + 1, 3)."""
    view = np.asarray(view, float)
    helper = np.eye(3)[np.argmin(np.abs(view))]  # the world axis furthest from the view
    e1 = np.cross(view, helper)
    e1 /= np.linalg.norm(e1)
    e2 = np.cross(view, e1)
    angles = np.linspace(0.0, 2.0 * np.pi, segments + 1)
    ring = radius * (np.cos(angles)[:, None] * e1 + np.sin(angles)[:, None] * e2)
    return np.asarray(centres, float)[:, None, :] + ring


# ---- the moving ground and the contacts -----------------------------------------------------


def ground_displacement(time: np.ndarray, acceleration: np.ndarray) -> np.ndarray:
    """The ground's displacement (N, d) [m] at each sample from its acceleration a_g (N, d)
    [m/s²], starting from rest at the first sample, a_g taken linear between samples (the exact
    integrals of docs/excitation.md's intensity measures): v_{i+1} = v_i + h (a_i + a_{i+1}) / 2,
    d_{i+1} = d_i + h v_i + h² (2 a_i + a_{i+1}) / 6. An event's repeated time adds nothing."""
    time = np.asarray(time, float)
    acceleration = np.asarray(acceleration, float)
    h = np.diff(time)[:, None]
    before, after = acceleration[:-1], acceleration[1:]
    start = np.zeros((1, acceleration.shape[1]))
    velocity = np.concatenate([start, np.cumsum(h * (before + after) / 2, axis=0)])
    steps = h * velocity[:-1] + h * h * (2 * before + after) / 6
    return np.concatenate([start, np.cumsum(steps, axis=0)])


def _support_point(shape: dict, direction: np.ndarray) -> np.ndarray:
    """The point of a spatial shape (body frame) furthest along `direction` (body frame)."""
    kind = shape["type"]
    if kind == "sphere":
        unit = direction / np.linalg.norm(direction)
        return np.asarray(shape.get("centre", (0, 0, 0)), float) + shape["radius"] * unit
    if kind == "box":
        corners = box_corners(shape["size"])
        return corners[np.argmax(corners @ direction)]
    if kind == "cylinder":
        radial = np.array([direction[0], direction[1], 0.0])
        norm = np.linalg.norm(radial)
        rim = shape["radius"] * radial / norm if norm > 0 else np.zeros(3)
        return rim + np.array([0.0, 0.0, np.copysign(shape["height"] / 2, direction[2])])
    raise unknown_shape(kind)


def _round_centre(shape: dict | None):
    """A disk's or sphere's (centre, radius) in the body frame, or None for other shapes."""
    if shape is None or shape["type"] not in ("disk", "sphere"):
        return None
    dimension = 3 if shape["type"] == "sphere" else 2
    return np.asarray(shape.get("centre", (0.0,) * dimension), float), float(shape["radius"])


def contact_location(model: dict, poses: dict, contact: dict, sample: int):
    """Where `contact` (an entry of /model's contacts) is at `sample` [m, world frame], or None
    where /model does not say: its body point; the vertex or box corner its name gives
    (``BODY.VERTEX/...``); a round body's or spatial shape's point nearest the plane it touches;
    the point between two round bodies along their centres."""
    bodies = {body["name"]: body for body in model["bodies"]}
    body = bodies[contact["body"]]
    p, orientation = poses[body["name"]]
    pose = (p[sample:sample + 1], orientation[sample:sample + 1])
    shape = body["shape"]
    other = bodies.get(contact.get("other"))
    feature = contact["name"].split("/")[0].removeprefix(body["name"] + ".")
    local = None
    if "point" in contact:
        local = contact["point"]
    elif shape is not None and feature in shape.get("vertex_names", ()):
        local = shape["vertices"][shape["vertex_names"].index(feature)]
    elif shape is not None and shape["type"] == "box" and feature in BOX_CORNER_NAMES:
        local = box_corners(shape["size"])[BOX_CORNER_NAMES.index(feature)]
    elif "obstacle" in contact and shape is not None and len(p[0]) == 3:
        (plane,) = [o for o in model["obstacles"] if o["name"] == contact["obstacle"]]
        down = -pose[1][0].T @ np.asarray(plane["normal"], float)
        local = _support_point(shape, down)
    elif other is not None and _round_centre(shape) and _round_centre(other["shape"]):
        (centre, radius), (other_centre, _) = _round_centre(shape), _round_centre(other["shape"])
        here = world_points(pose, [centre])[0, 0]
        q, r = poses[other["name"]]
        there = world_points((q[sample:sample + 1], r[sample:sample + 1]), [other_centre])[0, 0]
        gap = there - here
        return here + radius * gap / max(np.linalg.norm(gap), 1e-300)
    if local is None:
        return None
    return world_points(pose, [local])[0, 0]
