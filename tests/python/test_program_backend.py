"""routh._program, the backend that runs the routh program where the compiled module does not
load, answers as routh._core does: the same JSON texts for impacts, comparisons and fragility,
the same laws, record samples and measures, the same trajectory file from a run, and the same
errors; ROUTH_BACKEND chooses it, and program_path() says where the program is or why none is."""

import os
import subprocess
import warnings

import numpy as np
import pandas as pd
import pytest

import routh
from routh import _core, _program
from routh.api import _core as chosen_backend
from conftest import PROBLEMS, SOURCE_DIR
from test_fragility import write_table

SINES = str(SOURCE_DIR / "scenarios" / "motions" / "synthetic_sines.AT2")
BACKENDS = {"core": _core, "program": _program}


@pytest.fixture(autouse=True)
def the_built_program(monkeypatch):
    monkeypatch.setenv("ROUTH_PROGRAM", os.environ["ROUTH_CLI"])


def both(function, *arguments):
    """`function`'s answers from the compiled module and from the program."""
    return [getattr(backend, function)(*arguments) for backend in BACKENDS.values()]


def error_of(function, *arguments):
    """The exception each backend raises: its built-in type, text and location."""
    caught = []
    for backend in BACKENDS.values():
        with pytest.raises(Exception) as raised:
            getattr(backend, function)(*arguments)
        error = raised.value
        kind = next(c for c in type(error).__mro__
                    if c is _core.InputError or c.__module__ == "builtins")
        caught.append((kind, str(error), getattr(error, "file", None),
                       getattr(error, "line", None), getattr(error, "column", None)))
    return caught


@pytest.mark.parametrize("problem", PROBLEMS, ids=lambda path: path.stem)
def test_impacts_and_comparisons_are_the_same_json(problem):
    core, program = both("impact_json", str(problem), None, None)
    assert core == program
    for law in ("poisson", "energetic", "newton"):
        core, program = both("impact_json", str(problem), None, law)
        assert core == program
    core, program = both("compare_json", str(problem), None, [])
    assert core == program
    text = problem.read_text()
    core, program = both("compare_json", "given.yaml", text, ["poisson", "newton"])
    assert core == program


def test_a_problem_given_as_text_is_located_in_its_name():
    text = "law: poisson\nD: [[1, 0], [0, 1]]\nu: [-1, 0]\nrestitution: 1.5\nfriction: 0.3\n"
    core, program = error_of("impact_json", "routh.solve_impact", text, None)
    assert core == program
    assert core[0] is _core.InputError and core[2] == "routh.solve_impact" and core[3] == 4


def test_laws_are_the_same():
    core, program = both("laws")
    assert core == program and len(core) > 5


def test_a_record_reads_and_measures_the_same():
    core, program = both("read_record", SINES, None)
    assert core == program
    time, acceleration = core
    for function in ("intensity_measures", "ground_velocity_displacement"):
        core_answer, program_answer = both(function, time, acceleration)
        assert core_answer == program_answer
    core, program = both("response_spectrum", time, acceleration, [0.2, 0.5, 1.5], 0.03)
    assert core == program and len(core) == 3
    assert error_of("intensity_measures", [0.0, 1.0], [1.0]) == [
        (ValueError, "times and accelerations differ in length", None, None, None)] * 2


def test_fragility_is_the_same_json(tmp_path):
    # a table as test_fragility writes one, with a fitted curve and a separated one
    rng = np.random.default_rng(11)
    scales = np.repeat([0.5, 1.0, 1.5, 2.0], 10)
    for name, overturned in (("noisy", rng.random(scales.size) < scales / 2.5),
                             ("separated", scales > 1.2)):
        path = tmp_path / f"{name}.h5"
        write_table(path, scales, overturned.astype(int), ["completed"] * scales.size)
        core, program = both("fragility_json", str(path), "overturned", None, 0.9, 50, 7)
        assert core == program
    core, program = error_of("fragility_json", str(path), "nonsense", None, 0.9, 50, 7)
    assert core == program and core[0] is ValueError


def same_file(a, b):
    first, second = routh.load(a), routh.load(b)
    for name in ("time", "q", "v", "energy"):
        assert getattr(first, name).tobytes() == getattr(second, name).tobytes(), name
    pd.testing.assert_frame_equal(first.events, second.events, check_exact=True)
    assert first.status == second.status and first.summary.keys() == second.summary.keys()


def test_a_run_writes_the_same_file(tmp_path):
    scenario = str(SOURCE_DIR / "scenarios" / "falling_rod.yaml")
    overrides = ["contact.law=energetic", "duration=0.5"]
    reports = []
    for name, backend in BACKENDS.items():
        output = str(tmp_path / f"{name}.h5")
        reports.append(backend.run_to_file(scenario, overrides, output, 0.0, True, False))
    assert reports[0] == reports[1]
    assert reports[0]["status"] == "completed"
    same_file(tmp_path / "core.h5", tmp_path / "program.h5")
    # an existing output is refused alike, a bad override located alike
    core, program = error_of("run_to_file", scenario, [], str(tmp_path / "core.h5"), 0.0, True,
                             False)
    assert core == program and core[0] is FileExistsError and "force=True" in core[1]
    core, program = error_of("run_to_file", scenario, ["duration=-1"], str(tmp_path / "x.h5"),
                             0.0, True, False)
    assert core == program and core[0] is _core.InputError and core[2] == "--set duration=-1"


def test_the_run_stops_at_its_time_limit_alike(tmp_path):
    scenario = str(SOURCE_DIR / "scenarios" / "wall.yaml")  # takes hours
    statuses = [backend.run_to_file(scenario, [], str(tmp_path / f"{name}.h5"), 0.2, True,
                                    False)["status"]
                for name, backend in BACKENDS.items()]
    assert statuses == ["time_limit", "time_limit"]


def supports_standard_input():
    """Whether this routh reads a scenario from standard input (`routh run -`): its error for
    a bad one names <stdin>."""
    done = subprocess.run([os.environ["ROUTH_CLI"], "run", "-", "-o", os.devnull],
                          input="duration: -1\n", capture_output=True, text=True, check=False)
    return "<stdin>" in done.stderr


@pytest.mark.skipif(not supports_standard_input(), reason="routh run - is not built in yet")
def test_a_scenario_given_as_text_runs_through_standard_input(tmp_path, monkeypatch):
    scenario = SOURCE_DIR / "scenarios" / "bouncing_ball.yaml"
    monkeypatch.chdir(SOURCE_DIR / "scenarios")  # relative paths of a text resolve against it
    reports = [backend.run_to_file("ball.yaml", [], str(tmp_path / f"{name}.h5"), 0.0, True,
                                   False, text=scenario.read_text())
               for name, backend in BACKENDS.items()]
    assert reports[0] == reports[1]
    same_file(tmp_path / "core.h5", tmp_path / "program.h5")
    core, program = error_of("run_to_file", "ball.yaml", [], str(tmp_path / "x.h5"), 0.0, True,
                             False, "duration: -1\n")
    assert core == program and core[0] is _core.InputError and core[2] == "ball.yaml"


def test_routh_backend_chooses(monkeypatch, tmp_path):
    monkeypatch.setenv("ROUTH_BACKEND", "program")
    assert chosen_backend() is _program
    assert routh.InputError is _program.InputError is _core.InputError
    assert routh.__version__ == _core.__version__
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        trajectory = routh.run(SOURCE_DIR / "scenarios" / "bouncing_ball.yaml", {"duration": 0.5},
                               output=tmp_path / "ball.h5")
    assert trajectory.status == "completed" and np.all(np.diff(trajectory.time) >= 0)
    monkeypatch.setenv("ROUTH_BACKEND", "core")
    assert chosen_backend() is _core
    monkeypatch.setenv("ROUTH_BACKEND", "anything")
    with pytest.raises(ValueError, match="ROUTH_BACKEND=anything: expected core or program"):
        chosen_backend()


def test_program_path_says_where_the_program_is_or_how_to_give_one(monkeypatch, tmp_path):
    assert _program.program_path() == os.environ["ROUTH_CLI"]
    monkeypatch.setenv("ROUTH_PROGRAM", str(tmp_path / "nothing"))
    with pytest.raises(FileNotFoundError, match="ROUTH_PROGRAM=.*nothing: no executable"):
        _program.program_path()
    monkeypatch.delenv("ROUTH_PROGRAM")
    # the build's program, recorded by CMake
    assert os.path.samefile(_program.program_path(), os.environ["ROUTH_CLI"])
    monkeypatch.setattr("routh._build_paths.ROUTH_PROGRAM", str(tmp_path / "moved" / "routh"))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(FileNotFoundError) as raised:
        _program.program_path()
    message = str(raised.value)
    assert message.startswith("no routh program: ROUTH_PROGRAM is not set")
    assert str(tmp_path / "moved" / "routh") in message and "no routh on PATH" in message
