"""routh.load on killed runs and damaged files: a run killed with SIGKILL loads up to its last
flush, marked incomplete; every variant of a small trajectory with bytes flipped or cut off at
seeded random offsets either loads or raises DamagedFileError, never crashes the interpreter
nor hangs: reading these 120 variants in this process, h5py's HDF5 crashed (SIGSEGV) on variant
12 and looped without end on variant 33."""

import os
import random
import signal
import subprocess
import time

import numpy as np
import pytest

import routh
from conftest import SOURCE_DIR


def test_a_run_killed_with_sigkill_loads_up_to_its_last_flush_marked_incomplete(tmp_path):
    # the ball bounces for 1000 s in 1e-4 s steps, flushing every 20 ms; killed after 0.3 s
    output = tmp_path / "out.h5"
    run = subprocess.Popen(
        [os.environ["ROUTH_CLI"], "run", SOURCE_DIR / "scenarios" / "bouncing_ball.yaml", "-o",
         output, "--set", "duration=1000", "--set", "integrator.max_step=1e-4", "--set",
         "output.flush_interval=0.02"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(0.3)
    run.send_signal(signal.SIGKILL)
    assert run.wait() == -signal.SIGKILL
    left = list(tmp_path.glob(".out.h5.tmp-*"))
    assert len(left) == 1, "the killed run leaves its temporary file"
    trajectory = routh.load(left[0])
    assert trajectory.incomplete
    assert trajectory.status == "unfinished"
    assert len(trajectory.time) > 0
    assert np.all(np.diff(trajectory.time) >= 0)
    assert np.all(np.isfinite(trajectory.q))
    assert trajectory.q.shape == (len(trajectory.time), 3)


def test_damaged_files_load_or_raise_damaged_file_error(cli_run, tmp_path):
    base = cli_run(SOURCE_DIR / "scenarios" / "bouncing_ball.yaml", "duration=2").read_bytes()
    assert not routh.load(tmp_path / "bouncing_ball.h5").incomplete
    rng = random.Random(7)
    variant = tmp_path / "damaged.h5"
    outcomes = {"loaded": 0, "damaged": 0}
    for index in range(120):
        data = bytearray(base)
        if index < 80:
            for _ in range(rng.randint(1, 4)):
                data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        else:
            del data[rng.randrange(len(data)):]
        variant.write_bytes(data)
        try:
            # 3 s: 50 times what reading this file takes
            trajectory = routh.load(variant, time_limit=3)
        except routh.DamagedFileError as error:
            assert str(error).startswith(f"{variant}: ")
            outcomes["damaged"] += 1
            continue
        outcomes["loaded"] += 1
        # what loads is consistent: one row of q, v and energy per time
        assert trajectory.q.shape[0] == trajectory.v.shape[0] == len(trajectory.time)
        assert trajectory.energy.shape[0] == len(trajectory.time)
    print(outcomes)
    assert outcomes["damaged"] > 0 and outcomes["loaded"] > 0


def test_missing_file_is_not_damaged(tmp_path):
    with pytest.raises(FileNotFoundError):
        routh.load(tmp_path / "no_such.h5")
