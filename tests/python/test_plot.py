"""routh.plot from the command line and on a sweep's table: the overturning map (every shipped
scenario's trajectory plots in test_pictures.py)."""

import os
import subprocess
import sys
import time

from matplotlib.figure import Figure
from PIL import Image

import routh
from conftest import SOURCE_DIR, routh_cli
from routh.plot import outcome_counts, overturning_map, plot_overturning_map


def test_routh_plot_and_routh_animate_write_their_files(cli_run, tmp_path):
    # the subcommands of the routh program run the package's modules, arguments passed on
    path = cli_run(SOURCE_DIR / "scenarios/rocking_block_pulse.yaml", "duration=0.4")
    png, gif = tmp_path / "pulse.png", tmp_path / "pulse.gif"
    assert routh_cli("plot", path, "-o", png, "--end", "0.3").stdout == f"{png}\n"
    with Image.open(png) as image:
        assert image.size[0] > 100 and image.size[1] > 100
    assert routh_cli("animate", path, "-o", gif, "--fps", "5", "--dpi", "20").stdout == \
        f"{gif}: 2 frames\n"
    # Python's exit codes and messages are the command's
    missing = routh_cli("plot", tmp_path / "missing.h5", "-o", png, check=False)
    assert missing.returncode == 1
    assert missing.stderr == (f"routh plot: [Errno 2] No such file or directory: "
                              f"'{tmp_path / 'missing.h5'}'\n")
    assert routh_cli("animate", path, check=False).returncode == 2  # argparse: no -o


def test_a_sweep_table_draws_the_overturning_map(tmp_path):
    table = tmp_path / "table.csv"
    table.write_text(
        "period,amplitude,status,overturned,max_abs_theta\n"
        "0.5,1.0,completed,1,3.0\n0.5,0.5,completed,0,0.1\n1.0,0.1,completed,0,0\n"
        "1.0,1.0,event_storm,0,0\n")
    counts = plot_overturning_map(table, tmp_path / "map.png", "period", "amplitude")
    assert counts == {"overturned": 1, "rocked": 1, "at rest": 1, "event_storm": 1}


def test_a_sweep_file_draws_the_same_map_as_its_csv(tmp_path):
    # a 3 × 2 pulse sweep of the slender block, from weak (at rest) to strong (overturns): the
    # HDF5 table routh sweep writes and the CSV beside it give the same classes, whose sum is
    # every run, and the HDF5 table is recognised as a sweep by the command line
    sweep = tmp_path / "pulses.yaml"
    sweep.write_text(
        f"base: {SOURCE_DIR / 'scenarios/rocking_block_pulse.yaml'}\n"
        "grid:\n"
        "  excitation.0.pulse.amplitude: [0.5, 4.0, 40.0]\n"
        "  excitation.0.pulse.period: [0.5, 1.0]\n"
        "  duration: [3]\n"
        "output: {file: pulses.h5, csv: true}\n")
    routh_cli("sweep", sweep, "-o", tmp_path / "pulses.h5", "--force")
    axes = ("excitation.0.pulse.amplitude", "excitation.0.pulse.period")
    from_h5 = plot_overturning_map(tmp_path / "pulses.h5", tmp_path / "h5.png", *axes)
    from_csv = plot_overturning_map(tmp_path / "pulses.csv", tmp_path / "csv.png", *axes)
    assert from_h5 == from_csv
    # the DataFrame routh.load_sweep reads draws the same map, a Figure
    table = routh.load_sweep(tmp_path / "pulses.h5")
    assert isinstance(overturning_map(table, *axes), Figure)
    # the table's units label the axes where it has them (a measure's, not a swept key's)
    figure = overturning_map(table, "pga", axes[1])
    assert (figure.axes[0].get_xlabel(), figure.axes[0].get_ylabel()) == (
        "pga [m/s^2]", "excitation.0.pulse.period")
    assert outcome_counts(table) == from_h5
    assert sum(from_h5.values()) == 6
    assert from_h5.get("at rest", 0) >= 2 and from_h5.get("overturned", 0) >= 1
    png = tmp_path / "map.png"
    subprocess.run([sys.executable, "-m", "routh.plot", tmp_path / "pulses.h5", "-o", png,
                    "--x", axes[0], "--y", axes[1]], check=True)
    assert png.stat().st_size > 1000


def test_a_sweep_table_that_is_not_a_regular_file_is_refused(tmp_path):
    # a FIFO named as the table blocked the reading for ever: in a child bounded in time, so that
    # the old behaviour fails the test instead of hanging it
    table = tmp_path / "table.csv"
    os.mkfifo(table)
    script = (
        "import sys\n"
        "from routh.plot import plot_overturning_map\n"
        "try:\n"
        "    plot_overturning_map(sys.argv[1], sys.argv[2], 'period', 'amplitude')\n"
        "except ValueError as error:\n"
        "    print(error)\n")
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-c", script, str(table), str(tmp_path / "map.png")],
                            capture_output=True, text=True, timeout=30)
    assert time.monotonic() - started < 10
    assert result.stdout == f"{table}: is a FIFO (named pipe), not a regular file\n", result.stderr
