"""The viewer (python -m routh.view) in headless Chromium, checked against the files it shows.

Each test writes a page with routh.view, drives it through drive_page.cjs (playwright-core) and
its test hook window.routhViewer, and reads back the pixels the page drew. Where a body should
be is computed here from the trajectory file's /q with h5py, independently of the viewer's
code: for the rocking block (a free body whose joint points are its centre of mass) the centre
is (x, y) and the tilt θ, read at the last sample at or before the time the slider shows. The
page's camera enters only through worldToPixel of three fixed points (the planar drawing is
orthographic: an affine map). run_browser_tests.py runs this file, or says why it cannot.
"""

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import h5py
import numpy as np
import pytest
from PIL import Image
from routh.view import main as view_main

SOURCE_DIR = Path(os.environ["ROUTH_SOURCE_DIR"])
CLI = os.environ["ROUTH_CLI"]
CHROMIUM = os.environ.get("ROUTH_CHROMIUM") or shutil.which("chromium")
MODULES = os.environ["ROUTH_VIEWER_MODULES"]
DRIVER = Path(__file__).with_name("drive_page.cjs")
VIEWPORT = (1000, 900)
COLOUR_DISTANCE = 40  # a drawn pixel is the body's when its RGB lies this close to the colour
PIXELS = 2.0  # how far the drawn centre may lie from the file's [px]
IMPACT_RED = "#d62728"  # docs/viewer.md: a struck contact's ring
OVERTURNED_RED, STANDING_BLUE = "#d62728", "#1f77b4"  # the sweep map's squares


def routh(*arguments):
    return subprocess.run([CLI, *map(str, arguments)], capture_output=True, text=True, check=True)


def view(source: Path, page: Path) -> Path:
    """The page routh.view writes for `source`."""
    subprocess.run([sys.executable, "-m", "routh.view", str(source), "-o", str(page)],
                   check=True, capture_output=True, text=True)
    return page


def drive(page: Path, steps: list, folder: Path) -> list:
    """Runs `steps` on `page` in Chromium (drive_page.cjs); their values. Fails on any error
    the page raised."""
    plan, result = folder / "plan.json", folder / "result.json"
    plan.write_text(json.dumps({"chromium": CHROMIUM, "modules": MODULES, "page": str(page),
                                "viewport": VIEWPORT, "steps": steps}))
    subprocess.run(["node", str(DRIVER), str(plan), str(result)], check=True, timeout=120)
    answer = json.loads(result.read_text())
    assert answer["errors"] == []
    return answer["values"]


def colour_rgb(colour: str) -> np.ndarray:
    return np.array([int(colour[k:k + 2], 16) for k in (1, 3, 5)], float)


def body_pixels(png: str, colour: str) -> np.ndarray:
    """The (x, y) pixel centres of `png` drawn in `colour` (#rrggbb), y down."""
    image = np.asarray(Image.open(png).convert("RGB"), float)
    rows, columns = np.nonzero(np.linalg.norm(image - colour_rgb(colour), axis=2)
                               < COLOUR_DISTANCE)
    return np.stack([columns + 0.5, rows + 0.5], axis=1)


def affine(origin, x_unit, y_unit):
    """World [m] to pixels from the pixels of (0, 0), (1, 0) and (0, 1)."""
    o = np.array([origin["x"], origin["y"]])
    matrix = np.stack([np.array([x_unit["x"], x_unit["y"]]) - o,
                       np.array([y_unit["x"], y_unit["y"]]) - o], axis=1)
    return lambda point: o + matrix @ np.asarray(point, float)


def sample_at(time: np.ndarray, t: float) -> int:
    """The last sample at or before t: the state shown at t."""
    return int(np.searchsorted(time, t, side="right") - 1)


def read_q(trajectory: Path):
    """/time, /q and /q's column names."""
    with h5py.File(trajectory) as f:
        names = [n.decode() if isinstance(n, bytes) else n for n in f["q"].attrs["names"]]
        return f["time"][:], f["q"][:], names


@pytest.fixture(scope="module")
def rocking_block(tmp_path_factory):
    folder = tmp_path_factory.mktemp("rocking_block")
    trajectory = folder / "rocking_block.h5"
    routh("run", SOURCE_DIR / "scenarios" / "rocking_block.yaml", "--set", "duration=2",
          "-o", trajectory)
    return trajectory, view(trajectory, folder / "rocking_block.html")


SLIDE = ("(v) => { const s = document.querySelector('.routh-slider'); s.value = String(v); "
         "s.dispatchEvent(new Event('input')); return window.routhViewer.time; }")


def test_the_block_is_drawn_where_q_puts_it_at_three_slider_times(rocking_block, tmp_path):
    trajectory, page = rocking_block
    slider_values = (1000, 3000, 8000)  # of 10000: 0.2, 0.6 and 1.6 s of the 2 s run
    steps = [{"evaluate": "window.routhViewer.bodies"},
             {"evaluate": "[[0, 0], [1, 0], [0, 1]].map(([x, y]) => "
                          "window.routhViewer.worldToPixel(x, y))"}]
    for k, value in enumerate(slider_values):
        steps += [{"evaluate": f"({SLIDE})({value})"},
                  {"canvas": "window.routhViewer.canvas", "png": str(tmp_path / f"{k}.png")}]
    values = drive(page, steps, tmp_path)
    (block,), to_pixels = values[0], affine(*values[1])
    time, q, names = read_q(trajectory)
    x, y, theta = (names.index(n) for n in ("x", "y", "theta"))
    metres_per_pixel = 1.0 / np.linalg.norm(to_pixels((1, 0)) - to_pixels((0, 0)))
    centres = []
    for k, value in enumerate(slider_values):
        t, png = values[2 + 2 * k], values[3 + 2 * k]
        assert t == pytest.approx(2.0 * value / 10000, abs=1e-9)
        row = q[sample_at(time, t)]
        expected = to_pixels((row[x], row[y]))
        drawn = body_pixels(png, block["colour"])
        centre = drawn.mean(axis=0)
        assert np.linalg.norm(centre - expected) < PIXELS, (t, centre, expected)
        # its area is the block's 0.2 m x 1.0 m, its long axis tilted by theta from the vertical
        assert len(drawn) * metres_per_pixel**2 == pytest.approx(0.2 * 1.0, rel=0.05)
        spread = np.cov(((drawn - centre) * [1.0, -1.0]).T)  # y up
        long_axis = np.linalg.eigh(spread)[1][:, -1]
        tilt = (np.arctan2(-long_axis[0], long_axis[1]) + np.pi / 2) % np.pi - np.pi / 2
        assert tilt == pytest.approx(row[theta], abs=0.01)
        centres.append(expected)
    # the three times show three different poses
    assert min(np.linalg.norm(a - b) for a, b in [centres[:2], centres[1:], centres[::2]]) > 3


def test_play_advances_time(rocking_block, tmp_path):
    _, page = rocking_block
    play = ("(() => { const b = document.querySelector('.routh-play').getBoundingClientRect(); "
            "return {x: b.x + b.width / 2, y: b.y + b.height / 2}; })()")
    values = drive(page, [
        {"evaluate": "window.routhViewer.setTime(0.1)"},
        {"evaluate": "[window.routhViewer.time, window.routhViewer.frame]"},
        {"click": play},
        {"wait": 700},
        {"evaluate": "[window.routhViewer.time, window.routhViewer.frame, "
                     "window.routhViewer.playing]"},
    ], tmp_path)
    (t0, frame0), (t1, frame1, playing) = values[1], values[4]
    assert playing
    assert t1 > t0 + 0.1  # at 1x, 0.7 s of wall time plays about 0.7 s of the run
    assert frame1 > frame0


def test_a_click_on_the_sweep_map_opens_that_run(tmp_path):
    base = SOURCE_DIR / "scenarios" / "rocking_block_pulse.yaml"
    sweep = tmp_path / "pulses.yaml"
    sweep.write_text(f"base: {base}\n"
                     "set: {duration: 2, contact.friction: 3}\n"
                     "grid:\n"
                     "  excitation.0.pulse.period: [0.4, 0.8]\n"
                     "  excitation.0.pulse.amplitude: [2.0, 12.0]\n"
                     "output: {trajectories: true}\n")
    table = tmp_path / "pulses.h5"
    routh("sweep", sweep, "-o", table)
    page = view(table, tmp_path / "pulses.html")
    chosen = 3  # period 0.8 s, amplitude 12 m/s²: the last of the grid
    values = drive(page, [
        {"evaluate": "[0, 1, 2, 3].map((i) => window.routhViewer.runToPixel(i))"},
        {"evaluate": "(({left, top}) => ({left, top}))("
                     "window.routhViewer.canvas.getBoundingClientRect())"},
        {"canvas": "window.routhViewer.canvas", "png": str(tmp_path / "map.png")},
        {"click": f"window.routhViewer.runToPixel({chosen})"},
        {"evaluate": "[window.routhViewer.selectedRun, window.routhViewer.command]"},
        {"evaluate": "window.routhViewer.player && window.routhViewer.player.bodies"},
    ], tmp_path)
    at, box, (run, command), bodies = values[0], values[1], values[4], values[5]
    # each run's square in the colour of its outcome: red overturned, blue not
    with h5py.File(table) as f:
        overturned = f["runs"]["overturned"][:]
    image = np.asarray(Image.open(values[2]).convert("RGB"), float)
    assert set(overturned) == {0, 1}  # both colours are checked
    for i, point in enumerate(at):
        pixel = image[int(point["y"] - box["top"]), int(point["x"] - box["left"])]
        expected = OVERTURNED_RED if overturned[i] else STANDING_BLUE
        assert np.linalg.norm(pixel - colour_rgb(expected)) < COLOUR_DISTANCE, (i, pixel)
    assert run == chosen
    assert command == shlex.join([
        "routh", "run", str(base), "--set", "duration=2", "--set", "contact.friction=3",
        "--set", "excitation.0.pulse.period=0.8", "--set", "excitation.0.pulse.amplitude=12"])
    assert [b["name"] for b in bodies] == ["block"]  # its trajectory is open
    # the command runs that row again
    words = shlex.split(command)
    rerun = routh(*words[1:], "-o", tmp_path / "again.h5", "--summary")
    summary = json.loads(rerun.stdout.strip().splitlines()[-1])
    with h5py.File(table) as f:
        assert summary["overturned"] == f["runs"]["overturned"][chosen]
        assert summary["max_abs_theta"] == pytest.approx(f["runs"]["max_abs_theta"][chosen],
                                                         rel=1e-12)


def test_a_spatial_scene_draws_its_bodies(tmp_path):
    trajectory = tmp_path / "two_spheres.h5"
    routh("run", SOURCE_DIR / "scenarios" / "two_spheres_3d.yaml", "-o", trajectory)
    page = view(trajectory, tmp_path / "two_spheres.html")
    t = 0.3  # after the impact (0.1 s), the spheres apart
    time, q, names = read_q(trajectory)
    with h5py.File(trajectory) as f:
        bodies = [b["name"] for b in json.loads(f["model"][()])["bodies"]]
    row = q[sample_at(time, t)]
    centres = [[float(row[names.index(f"{body}.{c}")]) for c in "xyz"] for body in bodies]
    values = drive(page, [
        {"evaluate": f"window.routhViewer.setTime({t})"},
        {"evaluate": "window.routhViewer.bodies"},
        {"canvas": "window.routhViewer.canvas", "png": str(tmp_path / "spheres.png")},
    ] + [{"evaluate": f"window.routhViewer.worldToPixel({x}, {y}, {z})"} for x, y, z in centres],
        tmp_path)
    drawn, png, projected = values[1], values[2], values[3:]
    assert [b["name"] for b in drawn] == bodies
    image = np.asarray(Image.open(png).convert("RGB"), float)
    for body, at in zip(drawn, projected):
        # a lit sphere is shaded: its pixels are those whose colour points the body colour's way
        rgb = colour_rgb(body["colour"])
        cosine = (image @ rgb) / (np.linalg.norm(image, axis=2) * np.linalg.norm(rgb) + 1e-9)
        rows, columns = np.nonzero((cosine > 0.97) & (image.max(axis=2) - image.min(axis=2) > 40))
        assert len(rows) > 200, body["name"]  # drawn, and large enough to see
        centre = np.array([columns.mean() + 0.5, rows.mean() + 0.5])
        assert np.linalg.norm(centre - [at["x"], at["y"]]) < 6, (body["name"], centre, at)


SHIPPED = sorted((SOURCE_DIR / "scenarios").glob("*.yaml"))
# each run shortened to this [s]; wall.yaml's first 0.2 s take 20 s (tests/python/conftest.py,
# NOT_YET_RUNNING, says why), its first 0.01 s two
DURATION, SHORTER = 0.2, {"wall.yaml": 0.01}


def test_every_shipped_scenario_views(tmp_path):
    pages = []
    for scenario in SHIPPED:
        trajectory = tmp_path / f"{scenario.stem}.h5"
        duration = SHORTER.get(scenario.name, DURATION)
        routh("run", scenario, "--set", f"duration={duration}", "-o", trajectory)
        page = tmp_path / f"{scenario.stem}.html"
        assert view_main([str(trajectory), "-o", str(page)]) == 0  # in this process: quicker
        pages.append((page, duration))
    steps = []
    for k, (page, duration) in enumerate(pages):
        steps += [{"goto": str(page)},
                  {"evaluate": f"window.routhViewer.setTime({duration / 2})"},
                  {"canvas": "window.routhViewer.canvas", "png": str(tmp_path / f"{k}.png")}]
    values = drive(pages[0][0], steps, tmp_path)
    for (page, _), png in zip(pages, values[2::3]):
        image = np.asarray(Image.open(png).convert("RGB"), float)
        # the bodies are drawn in colours; the ground, the lines and the background are grey
        coloured = np.count_nonzero(image.max(axis=2) - image.min(axis=2) > 60)
        assert coloured > 30, page.name


def test_under_a_pulse_the_ground_moves_and_carries_the_block(tmp_path):
    trajectory = tmp_path / "pulse.h5"
    routh("run", SOURCE_DIR / "scenarios" / "rocking_block_pulse.yaml", "--set", "duration=1.5",
          "-o", trajectory)
    page = view(trajectory, tmp_path / "pulse.html")
    t = 1.0  # the block rocks, the ground has moved
    frame = "[[0, 0], [1, 0], [0, 1]].map(([x, y]) => window.routhViewer.worldToPixel(x, y))"
    values = drive(page, [
        {"evaluate": f"window.routhViewer.setTime({t})"},
        {"evaluate": "window.routhViewer.bodies"},
        # the ground's frame's origin where it is drawn, then the fixed observer's frame
        {"evaluate": frame},
        {"canvas": "window.routhViewer.canvas", "png": str(tmp_path / "moving.png")},
        {"evaluate": "window.routhViewer.setGroundMoves(false)"},
        {"evaluate": frame},
        {"canvas": "window.routhViewer.canvas", "png": str(tmp_path / "still.png")},
    ], tmp_path)
    (block,), moving, still = values[1], affine(*values[2]), affine(*values[5])
    time, q, names = read_q(trajectory)
    with h5py.File(trajectory) as f:
        a_g = f["ground_acceleration"][:, 0]
    row = sample_at(time, t)
    # u_g: a_g integrated twice from rest, trapezoids over the samples (an event's pair adds 0)
    velocity = np.concatenate([[0.0], np.cumsum(np.diff(time) * (a_g[1:] + a_g[:-1]) / 2)])
    u_g = np.concatenate([[0.0], np.cumsum(np.diff(time) * (velocity[1:] + velocity[:-1]) / 2)])
    assert abs(u_g[row]) > 0.02  # metres: tens of pixels
    centre = (q[row, names.index("x")], q[row, names.index("y")])
    # with the ground moving, the ground's frame is drawn shifted by u_g along x
    np.testing.assert_allclose(moving((0, 0)) - still((0, 0)),
                               still((u_g[row], 0)) - still((0, 0)), atol=0.5)
    for png, to_pixels in (("moving.png", moving), ("still.png", still)):
        drawn = body_pixels(str(tmp_path / png), block["colour"]).mean(axis=0)
        assert np.linalg.norm(drawn - to_pixels(centre)) < PIXELS, (png, drawn)


def test_an_impact_flashes_the_contact_it_strikes(rocking_block, tmp_path):
    trajectory, page = rocking_block
    with h5py.File(trajectory) as f:
        events = f["events"][:]
        contact_names = [n.decode() if isinstance(n, bytes) else n
                         for n in f["events"].attrs["contact_names"]]
        model = json.loads(f["model"][()])
    first = events[0]
    assert first["kind"].decode() == "impact"
    (contact,) = [int(c) for c in first["contacts"].decode().split(",")]
    point = next(c["point"] for c in model["contacts"] if c["name"] == contact_names[contact])
    t = float(first["t"]) + 0.01  # within the flash, after the impact
    values = drive(page, [
        {"evaluate": "[[0, 0], [1, 0], [0, 1]].map(([x, y]) => "
                     "window.routhViewer.worldToPixel(x, y))"},
        {"evaluate": f"window.routhViewer.setTime({t})"},
        {"canvas": "window.routhViewer.canvas", "png": str(tmp_path / "impact.png")},
        {"evaluate": "window.routhViewer.setTime(0.2)"},  # no impact within 0.05 s
        {"canvas": "window.routhViewer.canvas", "png": str(tmp_path / "calm.png")},
    ], tmp_path)
    to_pixels = affine(*values[0])
    time, q, names = read_q(trajectory)
    x, y, theta = q[sample_at(time, t)][[names.index(n) for n in ("x", "y", "theta")]]
    # the corner in the world: the centre of mass plus the body-frame point turned by theta
    c, s = np.cos(theta), np.sin(theta)
    corner = to_pixels((x + c * point[0] - s * point[1], y + s * point[0] + c * point[1]))
    red = body_pixels(values[2], IMPACT_RED)
    near = red[np.linalg.norm(red - corner, axis=1) < 8]
    assert len(near) > 60  # a ring of 6 px around the struck corner
    assert np.linalg.norm(near.mean(axis=0) - corner) < PIXELS
    assert len(body_pixels(values[4], IMPACT_RED)) == 0


def rotation_of(quaternion) -> np.ndarray:
    """The rotation matrix of a quaternion (w, x, y, z), normalised (Hamilton's convention)."""
    w, x, y, z = np.asarray(quaternion, float) / np.linalg.norm(quaternion)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def test_an_impact_in_space_flashes_the_struck_corners_of_the_box(tmp_path):
    trajectory = tmp_path / "block_3d.h5"
    routh("run", SOURCE_DIR / "scenarios" / "rocking_block_3d.yaml", "--set", "duration=0.5",
          "-o", trajectory)
    page = view(trajectory, tmp_path / "block_3d.html")
    time, q, names = read_q(trajectory)
    with h5py.File(trajectory) as f:
        first = f["events"][0]
        contact_names = [n.decode() if isinstance(n, bytes) else n
                         for n in f["events"].attrs["contact_names"]]
        (body,) = json.loads(f["model"][()])["bodies"]
    assert first["kind"].decode() == "impact"
    t = float(first["t"]) + 0.01
    row = q[sample_at(time, t)]
    p = np.array([row[names.index(f"block.{c}")] for c in "xyz"])
    rotation = rotation_of([row[names.index(f"block.q{c}")] for c in "wxyz"])
    half = np.asarray(body["shape"]["size"]) / 2
    corners = []
    for k in (int(c) for c in first["contacts"].decode().split(",")):
        # block.x+y-z-/floor: the corner at (+a/2, -b/2, -c/2) in the body frame
        signs = contact_names[k].split(".")[1].split("/")[0]
        corner = [1.0 if signs[2 * i + 1] == "+" else -1.0 for i in range(3)] * half
        corners.append(p + rotation @ corner)
    values = drive(page, [
        {"evaluate": f"window.routhViewer.setTime({t})"},
        {"canvas": "window.routhViewer.canvas", "png": str(tmp_path / "impact.png")},
    ] + [{"evaluate": f"window.routhViewer.worldToPixel({x}, {y}, {z})"} for x, y, z in corners]
        + [{"evaluate": "window.routhViewer.setTime(0.2)"},
           {"canvas": "window.routhViewer.canvas", "png": str(tmp_path / "calm.png")}], tmp_path)
    red = body_pixels(values[1], IMPACT_RED)
    for at in values[2:2 + len(corners)]:
        near = red[np.linalg.norm(red - [at["x"], at["y"]], axis=1) < 12]
        assert len(near) > 20, at  # a red ball on the corner (half in the floor)
    assert len(red) == sum(np.count_nonzero(np.linalg.norm(red - [a["x"], a["y"]], axis=1) < 12)
                           for a in values[2:2 + len(corners)])  # and nowhere else
    assert len(body_pixels(values[-1], IMPACT_RED)) == 0
