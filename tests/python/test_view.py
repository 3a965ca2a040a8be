"""routh.view's page without a browser: the data it writes (poses against /q, frames, the sweep
commands), the files it refuses and the error when the viewer's JavaScript is not built. The
browser's side is tests/browser."""

import json
import re
import shlex

import h5py
import numpy as np
import pytest
from conftest import SOURCE_DIR, routh_cli

import routh.view as view


@pytest.fixture
def bundle(tmp_path, monkeypatch):
    """A stand-in for the built viewer (these tests read the page's data, not its drawing)."""
    script = tmp_path / "viewer.js"
    script.write_text("/* the viewer */")
    monkeypatch.setattr(view, "BUNDLE", script)
    return script


def page_data(page):
    """The JSON routh.view wrote into the page."""
    text = page.read_text()
    found = re.search(r'<script type="application/json" id="routh-data">(.*?)</script>', text, re.S)
    return json.loads(found.group(1))


def test_the_page_holds_every_sample_of_the_block_at_its_q(cli_run, bundle, tmp_path):
    trajectory = cli_run(SOURCE_DIR / "scenarios" / "rocking_block.yaml", "duration=1")
    page = tmp_path / "block.html"
    assert view.main([str(trajectory), "-o", str(page)]) == 0
    data = page_data(page)
    with h5py.File(trajectory) as f:
        time, q = f["time"][:], f["q"][:]
    assert data["kind"] == "trajectory" and data["dimension"] == 2
    np.testing.assert_allclose(data["time"], time, atol=1e-9)
    (block,) = data["bodies"]
    # a free body whose joint points are its centre of mass sits at (x, y), turned by theta
    for key, column in (("x", 0), ("y", 1), ("phi", 2)):
        np.testing.assert_allclose(block[key], q[:, column], atol=1e-6)
    assert page.read_text().count("/* the viewer */") == 1


def test_a_long_run_is_shown_at_most_at_frames_times(cli_run, bundle, tmp_path):
    trajectory = cli_run(SOURCE_DIR / "scenarios" / "rocking_block.yaml", "duration=2")
    page = tmp_path / "block.html"
    assert view.main([str(trajectory), "-o", str(page), "--frames", "50"]) == 0
    data = page_data(page)
    with h5py.File(trajectory) as f:
        time, x = f["time"][:], f["q"][:, 0]
    assert len(data["time"]) <= 50 and data["samples"] == len(time)
    # each frame is the last sample at or before one of 50 times spread over the run
    for t, shown in zip(data["time"], data["bodies"][0]["x"]):
        row = np.searchsorted(time, t, side="right") - 1
        assert shown == pytest.approx(x[row], abs=1e-6)
    grid = np.linspace(time[0], time[-1], 50)
    assert set(np.searchsorted(time, grid, side="right") - 1) == {
        np.searchsorted(time, t, side="right") - 1 for t in data["time"]}


def test_an_existing_page_is_replaced_only_with_force(cli_run, bundle, tmp_path, capsys):
    trajectory = cli_run(SOURCE_DIR / "scenarios" / "bouncing_ball.yaml", "duration=0.2")
    page = tmp_path / "ball.html"
    page.write_text("mine")
    with pytest.raises(SystemExit):
        view.main([str(trajectory), "-o", str(page)])
    assert "exists: pass --force" in capsys.readouterr().err and page.read_text() == "mine"
    assert view.main([str(trajectory), "-o", str(page), "--force"]) == 0
    with pytest.raises(SystemExit):  # the input, never
        view.main([str(trajectory), "-o", str(trajectory), "--force"])
    assert h5py.is_hdf5(trajectory)


def test_without_the_built_viewer_the_error_says_how_to_build_it(cli_run, tmp_path,
                                                                 monkeypatch, capsys):
    trajectory = cli_run(SOURCE_DIR / "scenarios" / "bouncing_ball.yaml", "duration=0.2")
    monkeypatch.setattr(view, "BUNDLE", tmp_path / "viewer" / "viewer.js")
    assert view.main([str(trajectory), "-o", str(tmp_path / "ball.html")]) == 2
    error = capsys.readouterr().err
    assert "target routh_viewer" in error and "npm ci && npm run build" in error
    assert not (tmp_path / "ball.html").exists()


def test_a_sweep_page_holds_each_run_and_the_command_that_repeats_it(bundle, tmp_path):
    base = SOURCE_DIR / "scenarios" / "rocking_block_record.yaml"
    sweep = tmp_path / "records.yaml"
    sweep.write_text(f"base: {base}\n"
                     "set: {duration: 0.5, excitation.0.record.scale_to.pga: 0.3 g}\n"
                     "grid:\n"
                     "  model.height: [0.5, 1.0]\n"
                     "  contact.restitution: [0.1, 0.25]\n")
    table = tmp_path / "records.h5"
    routh_cli("sweep", sweep, "-o", table)
    page = tmp_path / "records.html"
    assert view.main([str(table), "-o", str(page)]) == 0
    data = page_data(page)
    assert data["kind"] == "sweep" and data["swept"] == ["model.height", "contact.restitution"]
    assert data["trajectories"] == {}  # the sweep kept none
    assert shlex.split(data["commands"][1]) == [
        "routh", "run", str(base), "--set", "duration=0.5",
        "--set", "excitation.0.record.scale_to.pga=0.3 g",
        "--set", "model.height=0.5", "--set", "contact.restitution=0.25"]
    # the command runs that row again: its summary is the table's
    words = shlex.split(data["commands"][1])
    again = routh_cli(*words[1:], "-o", tmp_path / "again.h5", "--summary")
    summary = json.loads(again.stdout.strip().splitlines()[-1])
    with h5py.File(table) as f:
        assert summary["max_abs_theta"] == pytest.approx(f["runs"]["max_abs_theta"][1], rel=1e-12)


def test_a_ratio_is_repeated_through_the_period_and_amplitude_it_set():
    row = {"excitation.0.pulse.frequency_ratio": 2.0, "excitation.0.pulse.period": 0.8257,
           "model.width": 0.1}
    keys = [k for k in row if not k.endswith(view.RATIO_KEYS)]
    assert view.reproduce_command("b.yaml", [], row, keys) == (
        "routh run b.yaml --set excitation.0.pulse.period=0.8257 --set model.width=0.1")


@pytest.mark.parametrize("value, text", [(2.0, "2"), (0.1, "0.1"), (1e-7, "1e-07"),
                                         (-3.25, "-3.25"), (1e300, "1e+300")])
def test_numbers_are_passed_in_their_shortest_exact_form(value, text):
    assert view.scenario_number(value) == text
    assert float(text) == value


def test_the_ground_moves_by_its_acceleration_integrated_twice_from_rest():
    # a_g = A sin(ω t) from rest: v = A/ω (1 − cos ω t), u = A/ω (t − sin(ω t)/ω)
    amplitude, omega = 2.0, 2 * np.pi * 1.5
    time = np.linspace(0.0, 2.0, 4001)
    time = np.sort(np.concatenate([time, [0.5, 0.5]]))  # an event's pair of samples
    acceleration = amplitude * np.sin(omega * time)[:, None]
    u = view.ground_displacement(time, acceleration)[:, 0]
    exact = amplitude / omega * (time - np.sin(omega * time) / omega)
    np.testing.assert_allclose(u, exact, atol=1e-6)


def test_a_file_that_is_not_routh_s_is_refused_with_its_name(bundle, tmp_path, capsys):
    text = tmp_path / "notes.h5"
    text.write_text("not HDF5")
    assert view.main([str(text)]) == 1
    assert f"routh view: {text}:" in capsys.readouterr().err
    assert not (tmp_path / "notes.html").exists()


def test_a_sweep_keeps_its_trajectories_in_the_page_up_to_runs(bundle, tmp_path):
    sweep = tmp_path / "drops.yaml"
    sweep.write_text(f"base: {SOURCE_DIR / 'scenarios' / 'bouncing_ball.yaml'}\n"
                     "set: {duration: 0.3}\n"
                     "grid: {contact.restitution: [0.5, 0.9]}\n"
                     "output: {trajectories: true}\n")
    table = tmp_path / "drops.h5"
    routh_cli("sweep", sweep, "-o", table)
    held, named = tmp_path / "held.html", tmp_path / "named.html"
    assert view.main([str(table), "-o", str(held)]) == 0
    assert view.main([str(table), "-o", str(named), "--runs", "1"]) == 0
    files = {str(run): str(tmp_path / "drops_runs" / f"run_{run:06d}.h5") for run in (0, 1)}
    assert page_data(held)["files"] == files and page_data(named)["files"] == files
    assert sorted(page_data(held)["trajectories"]) == ["0", "1"]
    assert page_data(named)["trajectories"] == {}  # more runs than --runs: the files only


@pytest.mark.parametrize("scenario", ["rocking_block.yaml", "rocking_block_3d.yaml"])
def test_the_tilt_strip_starts_at_half_the_slenderness(scenario, cli_run, bundle, tmp_path):
    # both blocks are released from rest at θ = α/2 = atan(0.2 / 1.0) / 2 (their scenarios)
    trajectory = cli_run(SOURCE_DIR / "scenarios" / scenario, "duration=0.5")
    page = tmp_path / "block.html"
    assert view.main([str(trajectory), "-o", str(page)]) == 0
    tilt = page_data(page)["strips"][0]
    assert (tilt["title"], tilt["unit"], tilt["levels"]) == ("tilt θ / α", "–", [-1, 1])
    assert abs(tilt["series"][0]["values"][0]) == pytest.approx(0.5, abs=1e-4)


def test_with_its_sweep_file_the_commands_run_from_here(bundle, tmp_path, monkeypatch):
    folder = tmp_path / "studies"
    folder.mkdir()
    (folder / "block.yaml").write_text(
        (SOURCE_DIR / "scenarios" / "rocking_block.yaml").read_text())
    sweep = folder / "heights.yaml"
    sweep.write_text("base: block.yaml\nset: {duration: 0.2}\ngrid: {model.height: [0.8, 1.0]}\n")
    table = tmp_path / "heights.h5"
    routh_cli("sweep", sweep, "-o", table)
    monkeypatch.chdir(tmp_path)
    assert view.main([str(table), "-o", "here.html", "--sweep", "studies/heights.yaml"]) == 0
    assert view.main([str(table), "-o", "there.html"]) == 0
    assert page_data(tmp_path / "here.html")["commands"][0] == (
        "routh run studies/block.yaml --set duration=0.2 --set model.height=0.8")
    assert page_data(tmp_path / "there.html")["commands"][0] == (
        "routh run block.yaml --set duration=0.2 --set model.height=0.8")
    words = shlex.split(page_data(tmp_path / "here.html")["commands"][0])
    routh_cli(*words[1:], "-o", tmp_path / "again.h5")  # runs from here
