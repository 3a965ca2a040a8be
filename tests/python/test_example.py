"""docs/python_example.py, the documentation's notebook-style example, runs to the end."""

import os
import subprocess
import sys

from conftest import SOURCE_DIR


def test_the_example_runs(tmp_path):
    environment = dict(os.environ, MPLBACKEND="Agg")
    result = subprocess.run(
        [sys.executable, str(SOURCE_DIR / "docs" / "python_example.py")],
        cwd=tmp_path, env=environment, capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "rocking_block" in result.stdout
    assert (tmp_path / "restitution_sweep.png").stat().st_size > 0
