"""Synthetic trajectory files of free rigid bodies in space, written with h5py in the layout of
docs/output.md, from closed-form motions (not from routh's simulation), for the tests of loading,
kinematics, plotting and animating spatial files:

- a box tumbling in free flight: torque-free rotation about a principal axis is steady
  (Euler's equations with ω along a principal axis: I ω̇ = −ω × I ω = 0), so the body turns at the
  constant rate ω₀ about its body x axis, R(t) = R₀ Rx(ω₀ t), while its centre of mass follows
  the parabola p₀ + v₀ t + g t²/2; the ground shakes under it (a free flyer does not feel it);
- a ball rolling without slipping along x on the floor z = 0, x = u t, turning about the world y
  axis at u / r, beside a coin (a cylinder) standing on its base, spinning about its axis.

The quaternions are built here from half-angles and Hamilton products; the tests check poses
against rotation matrices composed by hand.
"""

import json

import h5py
import numpy as np

GRAVITY = 9.81
COORDINATES = ("x", "y", "z", "qw", "qx", "qy", "qz")
COORDINATE_UNITS = ("m", "m", "m", "1", "1", "1", "1")
VELOCITIES = ("vx", "vy", "vz", "wx", "wy", "wz")
VELOCITY_UNITS = ("m/s", "m/s", "m/s", "rad/s", "rad/s", "rad/s")

# the tumbling box: edges along body x, y, z; initial heading about world z; spin about body x
BOX_SIZE = np.array([0.4, 0.2, 0.1])
BOX_MASS = 2.0
BOX_HEADING = 0.6  # rad, R₀ = Rz(0.6)
BOX_SPIN = 7.0  # rad/s about body x
BOX_START = np.array([0.1, -0.2, 1.0])
BOX_VELOCITY = np.array([0.5, 0.3, 2.0])

BALL_RADIUS = 0.03
BALL_MASS = 0.17
BALL_SPEED = 0.4  # m/s along x
COIN_RADIUS, COIN_HEIGHT = 0.05, 0.01
COIN_SPIN = 3.0  # rad/s about its axis


def hamilton(a, b):
    """The Hamilton product a ⊗ b of quaternions (..., 4), w first."""
    aw, ax, ay, az = np.moveaxis(np.asarray(a, float), -1, 0)
    bw, bx, by, bz = np.moveaxis(np.asarray(b, float), -1, 0)
    return np.stack([aw * bw - ax * bx - ay * by - az * bz,
                     aw * bx + ax * bw + ay * bz - az * by,
                     aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw], -1)


def turn(axis, angle):
    """The unit quaternions (N, 4) of turns by `angle` (N,) [rad] about the unit `axis`."""
    angle = np.asarray(angle, float)
    return np.concatenate([np.cos(angle / 2)[:, None],
                           np.sin(angle / 2)[:, None] * np.asarray(axis, float)], -1)


def uniform_box_inertia(mass, size):
    a, b, c = size
    return mass / 12 * np.array([b * b + c * c, a * a + c * c, a * a + b * b])


def body_entry(index, name, mass, inertia, shape):
    return {"name": name, "mass": mass, "inertia": list(map(float, inertia)), "shape": shape,
            "coordinates": [f"{name}.{c}" for c in COORDINATES],
            "columns": list(range(7 * index, 7 * index + 7)),
            "velocity_columns": list(range(6 * index, 6 * index + 6))}


def model_of(bodies, contacts):
    names = [b["name"] for b in bodies]
    return {
        "format": "routh-model", "format_version": 1, "dimension": 3,
        "conventions": "world z up; per body x, y, z, then the unit quaternion qw, qx, qy, qz "
                       "(body to world); v: centre-of-mass velocity (world), ω (body frame)",
        "gravity": [0.0, 0.0, -GRAVITY],
        "coordinates": [f"{n}.{c}" for n in names for c in COORDINATES],
        "coordinate_units": [u for _ in names for u in COORDINATE_UNITS],
        "velocities": [f"{n}.{c}" for n in names for c in VELOCITIES],
        "velocity_units": [u for _ in names for u in VELOCITY_UNITS],
        "bodies": bodies,
        "obstacles": [{"name": "floor", "kind": "plane", "point": [0.0, 0.0, 0.0],
                       "normal": [0.0, 0.0, 1.0]}],
        "collide_bodies": True,
        "contacts": contacts,
    }


def write(path, model, time, q, v, energy, events=(), ground=None):
    """A trajectory file of the format routh writes (format_version 2), with `events` a list of
    (t, kind, contact indices, impulse, u_pre, u_post)."""
    text = h5py.string_dtype()
    numbers = h5py.vlen_dtype(np.float64)
    with h5py.File(path, "w") as f:
        f.attrs.update({"format": "routh-trajectory", "format_version": 2, "law": "poisson",
                        "status": "completed", "status_detail": "",
                        "routh_version": "synthetic"})
        f.create_dataset("scenario", data="synthetic: closed-form motion", dtype=text)
        f.create_dataset("model", data=json.dumps(model), dtype=text)
        f.create_dataset("time", data=time)
        f.create_dataset("sample_kind", data=np.zeros(len(time), np.uint8))
        for name, values, names, units in (
                ("q", q, model["coordinates"], model["coordinate_units"]),
                ("v", v, model["velocities"], model["velocity_units"])):
            dataset = f.create_dataset(name, data=values)
            dataset.attrs["names"] = np.array(names, dtype=object)
            dataset.attrs["units"] = np.array(units, dtype=object)
        f.create_dataset("energy", data=energy).attrs["names"] = np.array(
            ["kinetic", "potential", "total"], dtype=object)
        if ground is not None:
            f.create_dataset("ground_acceleration", data=ground)
        fields = [("t", "f8"), ("kind", text), ("contacts", text), ("phases", text),
                  ("impulse", numbers), ("u_pre", numbers), ("u_post", numbers),
                  ("delta_T", "f8"), ("normal_work", "f8"), ("tangential_work", "f8"),
                  ("flags", text), ("status", text)]
        rows = np.empty(len(events), dtype=np.dtype(fields))
        for row, (t, kind, contacts, impulse, u_pre, u_post) in enumerate(events):
            rows[row] = (t, kind, ",".join(map(str, contacts)), "", np.asarray(impulse, float),
                         np.asarray(u_pre, float), np.asarray(u_post, float), 0.0, 0.0, 0.0, "",
                         "ok")
        dataset = f.create_dataset("events", data=rows, maxshape=(None,))
        dataset.attrs["contact_names"] = np.array([c["name"] for c in model["contacts"]],
                                                  dtype=object)
        summary = f.create_group("summary")
        summary.attrs["impacts"] = sum(1 for e in events if e[1] == "impact")


def tumbling_box(path, samples=201, duration=0.4, norm_drift=1e-3):
    """Writes the tumbling box (module documentation); its quaternion's norm drifts by
    `norm_drift` per second, as an integrator's may, so that readers must normalise it."""
    t = np.linspace(0.0, duration, samples)
    inertia = uniform_box_inertia(BOX_MASS, BOX_SIZE)
    shape = {"type": "box", "size": BOX_SIZE.tolist()}
    model = model_of([body_entry(0, "box", BOX_MASS, inertia, shape)],
                     [{"name": f"box.{c}/floor", "body": "box", "obstacle": "floor"}
                      for c in ("x-y-z-", "x+y+z+")])
    g = np.array([0.0, 0.0, -GRAVITY])
    p = BOX_START + np.outer(t, BOX_VELOCITY) + 0.5 * np.outer(t * t, g)
    velocity = BOX_VELOCITY + np.outer(t, g)
    quaternion = hamilton(turn([0, 0, 1], np.full_like(t, BOX_HEADING)),
                          turn([1, 0, 0], BOX_SPIN * t)) * (1 + norm_drift * t)[:, None]
    q = np.concatenate([p, quaternion], 1)
    v = np.concatenate([velocity, np.tile([BOX_SPIN, 0.0, 0.0], (samples, 1))], 1)
    kinetic = 0.5 * BOX_MASS * (velocity ** 2).sum(1) + 0.5 * inertia[0] * BOX_SPIN ** 2
    potential = BOX_MASS * GRAVITY * p[:, 2]
    ground = np.stack([0.3 * np.sin(20 * t), 0.2 * np.cos(20 * t), np.zeros_like(t)], 1)
    write(path, model, t, q, v, np.stack([kinetic, potential, kinetic + potential], 1),
          ground=ground)
    return path


def rolling_ball(path, samples=161, duration=0.8):
    """Writes the rolling ball and the spinning coin (module documentation), with an impact of
    the ball on the floor at 0.2 s (its impulse per direction n, t1, t2)."""
    t = np.linspace(0.0, duration, samples)
    ball_inertia = np.full(3, 0.4 * BALL_MASS * BALL_RADIUS ** 2)
    coin_mass = 0.01
    coin_inertia = coin_mass * np.array([(3 * COIN_RADIUS ** 2 + COIN_HEIGHT ** 2) / 12,
                                         (3 * COIN_RADIUS ** 2 + COIN_HEIGHT ** 2) / 12,
                                         COIN_RADIUS ** 2 / 2])
    model = model_of(
        [body_entry(0, "ball", BALL_MASS, ball_inertia,
                    {"type": "sphere", "radius": BALL_RADIUS, "centre": [0.0, 0.0, 0.0]}),
         body_entry(1, "coin", coin_mass, coin_inertia,
                    {"type": "cylinder", "radius": COIN_RADIUS, "height": COIN_HEIGHT})],
        [{"name": "ball/floor", "body": "ball", "obstacle": "floor"},
         {"name": "coin.bottom_rim/floor", "body": "coin", "obstacle": "floor"},
         {"name": "ball/coin", "body": "ball", "other": "coin"}])
    rate = BALL_SPEED / BALL_RADIUS  # rolling: the contact point is at rest
    ball_q = np.concatenate([np.stack([BALL_SPEED * t, np.zeros_like(t),
                                       np.full_like(t, BALL_RADIUS)], 1),
                             turn([0, 1, 0], rate * t)], 1)
    # ω about world y = about body y, since the ball turns about y
    ball_v = np.tile([BALL_SPEED, 0.0, 0.0, 0.0, rate, 0.0], (samples, 1))
    coin_q = np.concatenate([np.tile([0.0, 0.2, COIN_HEIGHT / 2], (samples, 1)),
                             turn([0, 0, 1], COIN_SPIN * t)], 1)
    coin_v = np.tile([0.0, 0.0, 0.0, 0.0, 0.0, COIN_SPIN], (samples, 1))
    kinetic = np.full(samples, 0.5 * BALL_MASS * BALL_SPEED ** 2 + 0.5 * ball_inertia[1] * rate ** 2
                      + 0.5 * coin_inertia[2] * COIN_SPIN ** 2)
    potential = np.full(samples, GRAVITY * (BALL_MASS * BALL_RADIUS + coin_mass * COIN_HEIGHT / 2))
    events = [(0.2, "impact", [0], [0.01, 0.002, -0.001], [-0.05, 0.0, 0.0], [0.0, 0.0, 0.0]),
              (0.5, "liftoff", [1], [], [], [])]
    write(path, model, t, np.concatenate([ball_q, coin_q], 1),
          np.concatenate([ball_v, coin_v], 1),
          np.stack([kinetic, potential, kinetic + potential], 1), events)
    return path
