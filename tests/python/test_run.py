"""routh.run against `routh run`: the same arrays bit for bit, the same event table and summary,
for every shipped scenario; overrides act like --set; input errors carry their location."""

import math
import os
import resource
import signal
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest
import routh
from conftest import SCENARIOS, SOURCE_DIR


def assert_bit_identical(a, b):
    assert (a is None) == (b is None)
    if a is None:
        return
    assert a.dtype == b.dtype and a.shape == b.shape
    assert a.tobytes() == b.tobytes()


def assert_same_summary(a, b):
    assert a.keys() == b.keys()
    for key, value in a.items():
        if isinstance(value, float) and math.isnan(value):
            assert math.isnan(b[key]), key
        else:
            assert value == b[key], key


def assert_same_run(trajectory, expected):
    for name in ("time", "q", "v", "energy", "ground_acceleration"):
        assert_bit_identical(getattr(trajectory, name), getattr(expected, name))
    pd.testing.assert_frame_equal(trajectory.events, expected.events, check_exact=True)
    assert_same_summary(trajectory.summary, expected.summary)
    for name in ("names", "q_units", "v_units", "contact_names", "status", "status_detail", "law"):
        assert getattr(trajectory, name) == getattr(expected, name), name


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda path: path.stem)
def test_run_writes_what_the_program_writes(scenario, cli_run):
    expected = routh.load(cli_run(scenario))
    trajectory = routh.run(scenario)
    assert len(trajectory.time) > 1
    assert_same_run(trajectory, expected)


def test_overrides_act_like_set(cli_run):
    scenario = SOURCE_DIR / "scenarios" / "rocking_block.yaml"
    sets = {"contact.law": "newton", "contact.restitution": 0.5, "duration": 2}
    expected = routh.load(cli_run(scenario, *(f"{k}={v}" for k, v in sets.items())))
    trajectory = routh.run(scenario, sets)
    assert_same_run(trajectory, expected)
    assert trajectory.law == "newton"
    assert trajectory.time[-1] == 2.0
    # and they change the run: the file without them differs
    assert not np.array_equal(routh.run(scenario).q[: len(trajectory.q)], trajectory.q)


def test_output_keeps_the_file(tmp_path):
    output = tmp_path / "kept.h5"
    trajectory = routh.run(SOURCE_DIR / "scenarios" / "bouncing_ball.yaml", output=output)
    assert trajectory.path == str(output)
    assert_bit_identical(routh.load(output).q, trajectory.q)


def test_a_bad_override_is_an_input_error():
    with pytest.raises(routh.InputError) as raised:
        routh.run(SOURCE_DIR / "scenarios" / "rocking_block.yaml", {"contact.restitution": 1.5})
    assert isinstance(raised.value, ValueError)
    assert "restitution" in str(raised.value)


def test_an_error_in_the_file_carries_file_line_column(tmp_path):
    scenario = tmp_path / "broken.yaml"
    text = (SOURCE_DIR / "scenarios" / "bouncing_ball.yaml").read_text()
    scenario.write_text(text + "\nunknown_key: 1\n")
    line = len((text + "\n").splitlines()) + 1
    with pytest.raises(routh.InputError) as raised:
        routh.run(scenario)
    error = raised.value
    assert error.file == str(scenario)
    assert error.line == line
    assert error.column == 1
    assert str(error).startswith(f"{scenario}:{line}:1: ")
    assert "unknown_key" in error.message


def test_ctrl_c_stops_a_run_keeping_its_file(tmp_path):
    # an elastic ball bouncing for 10⁶ s, minutes of wall time, stopped by SIGINT once its file
    # exists (under its temporary name, renamed onto `output` when the run ends): routh.run
    # raises KeyboardInterrupt and the file ends with the interrupted event
    output = tmp_path / "stopped.h5"
    script = (
        "import sys, routh\n"
        "try:\n"
        f"    routh.run({str(SOURCE_DIR / 'scenarios/bouncing_ball.yaml')!r},\n"
        "              {'contact.restitution': 1, 'duration': 1e6, 'output.rate': 1},\n"
        f"              output={str(output)!r})\n"
        "except KeyboardInterrupt:\n"
        "    # the stop request is over: the next call reads its scenario and runs\n"
        f"    routh.run({str(SOURCE_DIR / 'scenarios/bouncing_ball.yaml')!r}, {{'duration': 0.1}})\n"
        "    sys.exit(3)\n")
    process = subprocess.Popen([sys.executable, "-c", script])
    deadline = time.monotonic() + 30
    while (not list(tmp_path.glob(".stopped.h5.tmp-*")) and time.monotonic() < deadline
           and process.poll() is None):
        time.sleep(0.05)
    assert list(tmp_path.glob(".stopped.h5.tmp-*")), "the run never created its file"
    time.sleep(0.3)
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=60) == 3
    stopped = routh.load(output)
    assert stopped.status == "interrupted"
    assert stopped.events["kind"].iloc[-1] == "interrupted"
    assert 0 < stopped.time[-1] < 1e6


def test_a_file_size_limit_is_an_error_not_a_kill(tmp_path):
    # SIGXFSZ at its default action, as a program embedding Python may leave it (CPython itself
    # ignores it), and a 1 MB file-size limit: the run used to die of SIGXFSZ; now its write
    # fails with EFBIG, raised like a full disk, and the file is readable up to it
    output = tmp_path / "capped.h5"
    script = (
        "import resource, signal, sys, routh\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_DFL)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (1_000_000, 1_000_000))\n"
        "try:\n"
        f"    routh.run({str(SOURCE_DIR / 'scenarios/rocking_block.yaml')!r},\n"
        "              {'duration': 200, 'output.rate': 10000}, output=" f"{str(output)!r})\n"
        "except RuntimeError as error:\n"
        "    print(error)\n"
        "    sys.exit(3)\n"
        "sys.exit(4)\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 3, result.stderr
    assert "File too large" in result.stdout
    # the run wrote to a temporary file of its own beside `output`, which the error names and keeps
    (temporary,) = tmp_path.glob(".capped.h5.tmp-*")
    assert str(temporary) in result.stdout
    kept = routh.load(temporary)
    assert kept.status == "unfinished"
    assert len(kept.time) > 0


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_an_input_that_is_not_a_regular_file_is_refused_at_once(tmp_path, kind):
    # a FIFO blocked the reading for ever, /dev/zero filled the memory; in a child bounded in
    # time and address space, so that the old behaviour fails the test instead of hanging it
    path = "/dev/zero"
    if kind == "fifo":
        path = str(tmp_path / "scenario.yaml")
        os.mkfifo(path)
    script = (
        "import sys, routh\n"
        "for call in (lambda: routh.run(sys.argv[1]), lambda: routh.impact(sys.argv[1])):\n"
        "    try:\n"
        "        call()\n"
        "    except routh.InputError as error:\n"
        "        print(error)\n")

    def bounded():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    started = time.monotonic()
    result = subprocess.run([sys.executable, "-c", script, path], capture_output=True, text=True,
                            timeout=30, preexec_fn=bounded)
    assert time.monotonic() - started < 10
    expected = "a FIFO (named pipe)" if kind == "fifo" else "a character device"
    lines = result.stdout.splitlines()
    assert len(lines) == 2, result.stderr
    for line in lines:
        assert line.startswith(f"{path}: is {expected}, not a regular file")
