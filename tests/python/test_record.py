"""routh.record: a record's intensity measures from Python are those of `routh record --json`,
a triangle of acceleration gives its closed forms, the figure has its four panels with units and
leaves matplotlib's backend alone, and the command line writes the picture."""

import math
import subprocess
import sys

import matplotlib
import numpy as np
import pytest

from conftest import SOURCE_DIR, routh_cli_json
from routh import record

G = 9.80665
SINES = SOURCE_DIR / "scenarios" / "motions" / "synthetic_sines.AT2"


def test_a_triangle_gives_its_closed_forms(tmp_path):
    # a: 0 at 0 s, 2 m/s^2 at 1 s, 0 at 2 s: v ends at 2 m/s; d(2) = ∫v = 2 (1/6 + 5/6) = 2 m;
    # ∫a² = 2 · 4 / 3; ∫|a| = 2
    path = tmp_path / "triangle.csv"
    path.write_text("t,a\n0,0\n1,2\n2,0\n")
    time, acceleration = record.read(path)
    assert list(time) == [0.0, 1.0, 2.0] and list(acceleration) == [0.0, 2.0, 0.0]
    m = record.measures(time, acceleration)
    assert m["pga"] == pytest.approx(2.0, rel=1e-15)
    assert m["pgv"] == pytest.approx(2.0, rel=1e-15)
    assert m["pgd"] == pytest.approx(2.0, rel=1e-14)
    assert m["arias"] == pytest.approx(math.pi / (2 * G) * 8 / 3, rel=1e-14)
    assert m["cav"] == pytest.approx(2.0, rel=1e-15)
    velocity, displacement = record.velocity_displacement(time, acceleration)
    assert list(velocity) == pytest.approx([0.0, 1.0, 2.0], rel=1e-15)
    assert displacement[1] == pytest.approx(2.0 / 6.0, rel=1e-14)  # ∫₀¹ t² dt
    in_g = record.read(path, "g")[1]
    assert in_g[1] == pytest.approx(2.0 * G, rel=1e-15)


def test_python_and_the_program_agree_on_a_shipped_record():
    time, acceleration = record.read(SINES)
    program = routh_cli_json("record", SINES, "--json", "--period", "0.2", "1.0")
    m = record.measures(time, acceleration)
    for key in ("pga", "pgv", "pgd", "arias", "cav", "d5_95"):
        assert m[key] == program[key], key
    sa = record.spectrum(time, acceleration, [0.2, 1.0], 0.05)
    assert list(sa) == [value["sa"] for value in program["spectrum"]]


def test_bad_input_is_an_error():
    from routh import InputError

    with pytest.raises(InputError):
        record.read(SOURCE_DIR / "scenarios" / "no_such_record.csv")
    with pytest.raises(ValueError):
        record.measures([0.0, 1.0], [0.0])
    with pytest.raises(ValueError):
        record.spectrum([0.0, 1.0], [0.0, 1.0], [0.0])


def test_the_figure_has_units_and_leaves_the_backend_alone():
    backend = matplotlib.get_backend()
    time, acceleration = record.read(SINES)
    figure = record.plot_record(time, acceleration, "synthetic sines")
    assert matplotlib.get_backend() == backend
    labels = [axes.get_ylabel() for axes in figure.axes]
    assert labels[:3] == ["acceleration [m/s²]", "velocity [m/s]", "displacement [m]"]
    assert labels[3].startswith("Sa(T") and labels[3].endswith("[m/s²]")
    assert [axes.get_xlabel() for axes in figure.axes] == ["time [s]"] * 3 + ["period T [s]"]
    periods, sa = figure.axes[3].lines[0].get_data()
    assert periods[0] == pytest.approx(0.05) and periods[-1] == pytest.approx(4.0)
    assert np.all(np.asarray(sa) > 0)


def test_the_command_line_writes_the_picture(tmp_path):
    png = tmp_path / "sines.png"
    subprocess.run([sys.executable, "-m", "routh.record", SINES, "-o", png], check=True)
    assert png.stat().st_size > 1000
    missing = subprocess.run(
        [sys.executable, "-m", "routh.record", tmp_path / "none.csv", "-o", png],
        capture_output=True,
        text=True,
    )
    assert missing.returncode == 1 and "none.csv" in missing.stderr
