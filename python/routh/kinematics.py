"""Forward kinematics of a trajectory file's /model: where every body is at each sample.

``body_poses(model, q, names)`` applies the rule docs/output.md gives for /model, parents first:

    phi = theta (free or revolute, "absolute"), phi_parent + theta ("relative"),
          phi_parent (prismatic)
    p   = p_parent + R(phi_parent) (parent_point + d) - R(phi) child_point

with d = (x, y) for a free joint, s * axis for a prismatic one, 0 for a revolute one, and the
ground at (0, 0), angle 0. p is the body's centre of mass [m], phi its angle [rad],
counter-clockwise. Pure numpy, vectorised over samples.
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
    """Body-frame points (k, 2), relative to the centre of mass, in the world at each sample of
    `pose`: shape (N, k, 2)."""
    p, phi = pose
    return p[:, None, :] + np.einsum("nij,kj->nki", rotation(phi), np.asarray(points, float))
