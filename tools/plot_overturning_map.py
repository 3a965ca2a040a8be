#!/usr/bin/python3
"""Draws an overturning map from a sweep's table (`routh sweep`): routh.plot's overturning map.

Usage: tools/plot_overturning_map.py TABLE.csv -o map.png --x KEY --y KEY
       [--tan-alpha 0.2 --p 3.80 [--g 9.81]] [--rocked 1e-6] [--title TEXT]
Same as `python3 -m routh.plot TABLE -o map.png --x KEY --y KEY ...` (python/routh/plot.py
says what the map shows). Needs python3-matplotlib; runs headless (Agg backend).
"""

import sys
from pathlib import Path

# the package from the source tree, so the tool runs without installing it
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))

from routh.plot import main  # noqa: E402

if __name__ == "__main__":
    main(sys.argv[1:])
