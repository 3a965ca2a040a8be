"""routh.load on files written by `routh run`: arrays, names and units, the event table split per
contact, the summary as `routh run --summary` reports it, and the optional parts."""

import json
import math
import os
import subprocess
import sys

import h5py
import numpy as np
import routh
from conftest import SOURCE_DIR, routh_cli


def test_arrays_names_and_units(cli_run):
    path = cli_run(SOURCE_DIR / "scenarios" / "rocking_block.yaml")
    trajectory = routh.load(path)
    with h5py.File(path) as f:
        assert np.array_equal(trajectory.time, f["time"][()])
        assert np.array_equal(trajectory.q, f["q"][()])
    n = len(trajectory.time)
    assert trajectory.q.shape == trajectory.v.shape == (n, 3)
    assert trajectory.energy.shape == (n, 3)
    assert trajectory.names == ["x", "y", "theta"]
    assert trajectory.q_units == ["m", "m", "rad"]
    assert trajectory.v_units == ["m/s", "m/s", "rad/s"]
    assert trajectory.units["v.theta"] == "rad/s"
    assert trajectory.ground_acceleration is None
    assert trajectory.law == "poisson" and trajectory.status == "completed"
    assert "rocking_block" in trajectory.scenario
    assert trajectory.contact_names[:2] == ["left_corner", "right_corner"]
    samples = trajectory.samples()
    assert list(samples.columns[:3]) == ["q.x", "q.y", "q.theta"]
    assert np.array_equal(samples["total"].to_numpy(), trajectory.energy[:, 2])


def test_the_summary_is_what_the_program_reports(cli_run, tmp_path):
    scenario = SOURCE_DIR / "scenarios" / "overturning_block.yaml"
    output = tmp_path / "summary.h5"
    reported = json.loads(routh_cli("run", scenario, "-o", output, "--summary").stdout)
    summary = routh.load(output).summary
    for key, value in summary.items():
        if isinstance(value, float) and math.isnan(value):
            assert reported[key] is None, key  # JSON writes NaN as null
        else:
            assert reported[key] == value, key
    assert summary["impacts"] == reported["impacts"] > 0


def test_events_are_split_per_contact(cli_run):
    path = cli_run(SOURCE_DIR / "scenarios" / "rocking_block.yaml")
    events = routh.load(path).events
    with h5py.File(path) as f:
        rows = f["events"][()]
        names = list(f["events"].attrs["contact_names"])
    assert len(events) == len(rows) > 0
    assert len(names) == 4  # the top corners never touch: no columns for them
    assert "Gamma_n.left_corner" in events.columns and "u_t_post.right_corner" in events.columns
    for i, row in enumerate(rows):
        contacts = [int(c) for c in row["contacts"].decode().split(",") if c]
        assert events["contact_indices"].iloc[i] == row["contacts"].decode()
        assert events["contacts"].iloc[i] == ",".join(names[c] for c in contacts)
        for name_index, name in enumerate(names):
            if f"Gamma_n.{name}" not in events.columns:
                # a contact has columns when some event involves it
                assert all(str(name_index) not in r["contacts"].decode().split(",") for r in rows)
                continue
            columns = [f"Gamma_n.{name}", f"Gamma_t.{name}", f"u_n_pre.{name}", f"u_t_post.{name}"]
            values = [events[c].iloc[i] for c in columns]
            if name_index in contacts and len(row["impulse"]):
                k = contacts.index(name_index)
                expected = [row["impulse"][2 * k], row["impulse"][2 * k + 1],
                            row["u_pre"][2 * k], row["u_post"][2 * k + 1]]
                assert values == expected
            else:
                assert all(math.isnan(v) for v in values)
    assert "Gamma_n.top_left_corner" not in events.columns
    assert events["t"].is_monotonic_increasing
    assert routh.load(path).event_units["Gamma_n.left_corner"] == "N s"


def test_an_excited_run_has_its_ground_acceleration(cli_run):
    trajectory = routh.load(cli_run(SOURCE_DIR / "scenarios" / "rocking_block_pulse.yaml"))
    assert trajectory.ground_acceleration.shape == (len(trajectory.time), 2)
    assert np.any(trajectory.ground_acceleration[:, 0] != 0.0)


def test_model_and_sample_kind_are_the_files(cli_run):
    path = cli_run(SOURCE_DIR / "scenarios" / "bouncing_ball.yaml")
    trajectory = routh.load(path)
    with h5py.File(path) as f:
        model_text = f["model"][()]
        sample_kind = f["sample_kind"][()]
    text = model_text.decode() if isinstance(model_text, bytes) else model_text
    assert trajectory.model == json.loads(text)
    assert trajectory.sample_kind.dtype == np.uint8
    assert trajectory.sample_kind.tobytes() == sample_kind.tobytes()
    assert len(trajectory.sample_kind) == len(trajectory.time)


def test_load_needs_no_compiled_module(cli_run):
    # from the source tree, where routh/_core*.so is not: load works and never imports it
    path = cli_run(SOURCE_DIR / "scenarios" / "bouncing_ball.yaml")
    script = (
        "import sys, routh; t = routh.load(sys.argv[1]); "
        "assert 'routh._core' not in sys.modules; print(len(t.time))"
    )
    environment = dict(os.environ, PYTHONPATH=str(SOURCE_DIR / "python"))
    result = subprocess.run([sys.executable, "-c", script, str(path)], env=environment,
                            capture_output=True, text=True, check=True)
    assert int(result.stdout) == len(routh.load(path).time)
