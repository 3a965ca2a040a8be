"""routh.run(output=...) follows the output rule of `routh run -o` (docs/output.md, "What routh
will not overwrite"): no existing file replaced without force=True, never the scenario file,
never through a symbolic link, and never written into: a run writes its own temporary file and
renames it onto `output`, so a file another run holds is never damaged."""

import math
import shutil
import subprocess
import sys
import time

import pytest
import routh
from conftest import SOURCE_DIR

BALL = SOURCE_DIR / "scenarios" / "bouncing_ball.yaml"


def test_run_never_writes_over_its_scenario_even_with_force(tmp_path):
    # before: routh.run("ball.yaml", output="ball.yaml") replaced the scenario by its trajectory
    scenario = tmp_path / "ball.yaml"
    shutil.copy(BALL, scenario)
    text = scenario.read_bytes()
    for force in (False, True):
        with pytest.raises(ValueError, match="is the scenario file itself"):
            routh.run(scenario, output=tmp_path / "." / "ball.yaml", force=force)
        assert scenario.read_bytes() == text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ball.yaml"]


def test_run_keeps_an_existing_output_without_force(tmp_path):
    output = tmp_path / "kept.h5"
    output.write_text("a previous run's file")
    with pytest.raises(FileExistsError, match="already exists; use force=True"):
        routh.run(BALL, output=output)
    assert output.read_text() == "a previous run's file"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.h5"]  # no temporary file
    trajectory = routh.run(BALL, output=output, force=True)
    assert trajectory.status == "completed"
    assert routh.load(output).status == "completed"


def test_run_never_follows_a_symbolic_link_output(tmp_path):
    # before: routh.run(output="link.h5") wrote the trajectory into the file the link names
    precious = tmp_path / "precious.txt"
    precious.write_text("precious\n")
    link = tmp_path / "link.h5"
    link.symlink_to("precious.txt")
    with pytest.raises(FileExistsError, match="is a symbolic link"):
        routh.run(BALL, output=link)
    assert link.is_symlink()
    routh.run(BALL, output=link, force=True)
    assert not link.is_symlink()  # the link itself was replaced
    assert routh.load(link).status == "completed"
    assert precious.read_text() == "precious\n"


def test_run_never_writes_into_the_file_it_replaces(tmp_path):
    # with force the new file is renamed over the old one: whoever has the old one open (a
    # reader, another run) still reads it whole
    output = tmp_path / "replaced.h5"
    output.write_bytes(b"the old file, still open elsewhere")
    with open(output, "rb") as old:
        routh.run(BALL, output=output, force=True)
        assert old.read() == b"the old file, still open elsewhere"
    assert routh.load(output).status == "completed"


def test_two_runs_naming_one_output_leave_both_runs_whole(tmp_path):
    # before: the second run truncated the file the first was writing, failed to lock it, and
    # left the first's file unreadable. Now the first to finish gets the name and the other,
    # without force, keeps its run in its temporary file.
    output = tmp_path / "same.h5"
    script = (
        "import routh\n"
        "try:\n"
        f"    routh.run({str(BALL)!r}, {{'contact.restitution': 1, 'duration': 300,"
        " 'integrator.max_step': 1e-3},\n"
        f"              output={str(output)!r})\n"
        "except FileExistsError as error:\n"
        "    print(error)\n")
    first = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while (not list(tmp_path.glob(".same.h5.tmp-*")) and time.monotonic() < deadline
           and first.poll() is None):
        time.sleep(0.02)
    assert list(tmp_path.glob(".same.h5.tmp-*")), "the first run never started its file"
    second = routh.run(BALL, output=output)
    assert second.status == "completed"
    message = first.communicate(timeout=120)[0]
    assert "appeared while the run was writing and was left alone" in message
    assert routh.load(output).time[-1] == second.time[-1]  # the second run's file, whole
    kept = list(tmp_path.glob(".same.h5.tmp-*"))
    assert len(kept) == 1 and kept[0].name in message
    assert routh.load(kept[0]).status == "completed"  # and the first run's, whole too


def test_time_limit_takes_any_number_of_seconds_above_zero(tmp_path):
    # before: 1e10 s or more overflowed the deadline and stopped the run at once
    for limit in (1e10, 1e308, math.inf):
        assert routh.run(BALL, time_limit=limit).status == "completed"
    for limit in (0, -1.0, math.nan):
        with pytest.raises(ValueError, match="time_limit"):
            routh.run(BALL, time_limit=limit)
