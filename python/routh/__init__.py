"""routh from Python: run scenarios, solve single impacts and read trajectory files.

``load`` (reading a trajectory file) is pure Python; everything else calls the compiled
``routh._core``, which is imported on first use so that ``routh.load`` also works from the
source tree's python/ directory. See docs/python.md.
"""

from routh.trajectory import Trajectory, load

__all__ = ["Trajectory", "load"]
