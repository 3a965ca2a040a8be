"""A sweep's table from Python: routh.load_sweep's DataFrame (text columns as str, the run index
as a column, the units in attrs), routh.load's pointer to it, and the overturning map of a
records x scales sweep, one panel per record."""

import subprocess
import sys

import pandas
import pytest

import routh
from conftest import SOURCE_DIR, routh_cli
from routh.plot import plot_overturning_map

RECORD = "excitation.0.record.file"
SCALE = "excitation.0.record.scale"


@pytest.fixture(scope="module")
def suite(tmp_path_factory):
    """The shipped record suite's two records at three scales, shortened to 2 s: 6 runs."""
    folder = tmp_path_factory.mktemp("suite")
    sweep = folder / "suite.yaml"
    sweep.write_text(
        f"base: {SOURCE_DIR / 'scenarios/rocking_block_record.yaml'}\n"
        "set: {duration: 2}\n"
        "grid:\n"
        "  excitation.0.record.file: [motions/synthetic_sines.AT2, motions/synthetic_noise.AT2]\n"
        "  excitation.0.record.scale: [0.5, 2, 4]\n"
        "output: {file: suite.h5, csv: true}\n")
    routh_cli("sweep", sweep, "-o", folder / "suite.h5", "--force")
    return folder


def test_load_sweep_gives_a_dataframe_with_units(suite):
    frame = routh.load_sweep(suite / "suite.h5")
    assert list(frame.columns[:4]) == ["run", RECORD, SCALE, "status"]
    assert frame["run"].tolist() == list(range(6))
    assert frame[RECORD].tolist() == ["motions/synthetic_sines.AT2"] * 3 + [
        "motions/synthetic_noise.AT2"] * 3
    assert all(isinstance(status, str) for status in frame["status"])
    assert frame[SCALE].tolist() == [0.5, 2.0, 4.0] * 2
    units = frame.attrs["units"]
    assert set(units) == set(frame.columns)
    assert units["final_time"] == "s" and units["max_abs_theta"] == "rad"
    assert units[SCALE] == "" and units["run"] == ""
    assert "set: {duration: 2}" in frame.attrs["sweep"]
    # the CSV beside it holds the same values (its reals are exact), without units
    from_csv = routh.load_sweep(suite / "suite.csv")
    assert list(from_csv.columns) == list(frame.columns)
    assert from_csv.attrs["units"] == {}
    pandas.testing.assert_frame_equal(from_csv, frame)


def test_load_on_a_sweep_table_says_to_use_load_sweep(suite):
    with pytest.raises(ValueError, match="load_sweep"):
        routh.load(suite / "suite.h5")
    with pytest.raises(ValueError, match="not a sweep's table"):
        routh.load_sweep(SOURCE_DIR / "scenarios/motions/synthetic_sines.AT2")


def test_a_records_by_scales_table_maps_one_panel_per_record(suite, tmp_path):
    counts = plot_overturning_map(suite / "suite.h5", tmp_path / "map.png", SCALE,
                                  "max_abs_theta")
    assert sum(counts.values()) == 6
    assert (tmp_path / "map.png").stat().st_size > 1000
    # the tool as a user runs it: a text column as an axis is a clear message, not a traceback
    tool = SOURCE_DIR / "tools/plot_overturning_map.py"
    drawn = subprocess.run([sys.executable, tool, suite / "suite.csv", "-o", tmp_path / "t.png",
                            "--x", SCALE, "--y", "max_abs_theta"], capture_output=True, text=True)
    assert drawn.returncode == 0, drawn.stderr
    refused = subprocess.run([sys.executable, tool, suite / "suite.csv", "-o",
                              tmp_path / "r.png", "--x", SCALE, "--y", RECORD],
                             capture_output=True, text=True)
    assert refused.returncode != 0
    assert "Traceback" not in refused.stderr
    assert f"column '{RECORD}' holds text" in refused.stderr
