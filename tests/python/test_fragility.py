"""routh.fragility and routh.plot_fragility: the same numbers as ``routh fragility --json`` on a
sweep table, the degenerate case named, and a Figure drawn without touching the backend."""

import json

import h5py
import matplotlib
import numpy as np
import pytest
from matplotlib.figure import Figure

import routh
from conftest import routh_cli


def write_table(path, scales, overturned, statuses):
    """A sweep table as ``routh sweep`` writes one (docs/sweeps.md, "The table")."""
    text = h5py.string_dtype("utf-8")
    columns = {
        "run": (np.arange(len(scales), dtype=np.int64), ""),
        "excitation.0.record.scale": (np.asarray(scales, float), ""),
        "status": (np.asarray(statuses, dtype=object), ""),
        "overturned": (np.asarray(overturned, dtype=np.int64), ""),
    }
    with h5py.File(path, "w") as f:
        f.attrs["format"] = "routh-sweep"
        f.attrs["format_version"] = np.int32(1)
        f.attrs["routh_version"] = "test"
        f.attrs["runs"] = np.int64(len(scales))
        f.attrs["rows"] = np.int64(len(scales))
        f.create_dataset("sweep", data="base: b.yaml\n", dtype=text)
        f.create_dataset("base", data="duration: 1\n", dtype=text)
        runs = f.create_group("runs")
        runs.attrs.create("columns", list(columns), dtype=text)
        for name, (values, unit) in columns.items():
            dataset = runs.create_dataset(name, data=values,
                                          dtype=text if values.dtype == object else values.dtype)
            dataset.attrs["units"] = unit


@pytest.fixture
def table(tmp_path):
    rng = np.random.default_rng(4)
    scales, overturned, statuses = [], [], []
    for scale in (0.5, 1.0, 1.5, 2.0, 2.5):
        for _ in range(12):
            scales.append(scale)
            overturned.append(int(rng.random() < min(1.0, scale / 3.0)))
            statuses.append("completed")
    scales.append(1.0), overturned.append(-1), statuses.append("time_limit")
    path = tmp_path / "table.h5"
    write_table(path, scales, overturned, statuses)
    return path


def test_the_result_is_the_commands(table):
    result = routh.fragility(table, bootstrap=200)
    printed = json.loads(routh_cli("fragility", table, "--json", "--bootstrap", "200").stdout)
    assert result.fitted
    assert result.median == printed["median"] and result.beta == printed["beta"]
    assert list(result.median_interval) == printed["median_interval"]
    assert result.levels == [0.5, 1.0, 1.5, 2.0, 2.5]
    assert result.runs == [12] * 5
    assert result.excluded == 1 and result.excluded_by_reason == {"status time_limit": 1}
    assert result.median_interval[0] < result.median < result.median_interval[1]
    assert result.probability(result.median) == pytest.approx(0.5)


def test_no_finite_fit_is_named(table):
    result = routh.fragility(table, outcome="excitation.0.record.scale>0.7", bootstrap=0)
    assert result.status == "separated" and result.median is None and not result.fitted
    with pytest.raises(ValueError):
        result.probability(1.0)
    with pytest.raises(ValueError, match="no column 'toppled'"):
        routh.fragility(table, outcome="toppled")


def test_the_plot_is_a_figure_and_the_backend_stays(table):
    backend = matplotlib.get_backend()
    figure = routh.plot_fragility(routh.fragility(table, bootstrap=100))
    assert isinstance(figure, Figure)
    assert matplotlib.get_backend() == backend
    axes = figure.axes[0]
    assert axes.get_ylabel() == "P(exceed)"
    assert len(axes.collections) == 2  # the band and the points
