"""routh.plot: every shipped scenario's trajectory plots headless, with and without --phase; a
sweep's table draws the overturning map."""

import subprocess
import sys

import pytest
from PIL import Image

from conftest import SCENARIOS, SOURCE_DIR
from routh.plot import plot_overturning_map, plot_trajectory


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.stem)
def test_every_scenario_plots(scenario, cli_run, tmp_path):
    path = cli_run(scenario, "duration=0.4")
    for phase in (False, True):
        png = tmp_path / f"plot{phase}.png"
        plot_trajectory(path, png, phase=phase)
        with Image.open(png) as image:
            assert image.size[0] > 100 and image.size[1] > 100


def test_the_command_line_writes_the_image(cli_run, tmp_path):
    path = cli_run(SOURCE_DIR / "scenarios/rocking_block_pulse.yaml", "duration=0.4")
    png = tmp_path / "pulse.png"
    subprocess.run([sys.executable, "-m", "routh.plot", path, "-o", png], check=True)
    assert png.stat().st_size > 1000


def test_a_sweep_table_draws_the_overturning_map(tmp_path):
    table = tmp_path / "table.csv"
    table.write_text(
        "period,amplitude,status,overturned,max_abs_theta\n"
        "0.5,1.0,completed,1,3.0\n0.5,0.5,completed,0,0.1\n1.0,0.1,completed,0,0\n"
        "1.0,1.0,event_storm,0,0\n")
    counts = plot_overturning_map(table, tmp_path / "map.png", "period", "amplitude")
    assert counts == {"overturned": 1, "rocked": 1, "at rest": 1, "event_storm": 1}
