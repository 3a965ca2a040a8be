"""What the routh package needs from the Python running it, and what to do when it is missing.

The package reads files with numpy, h5py and pandas and draws with matplotlib; none of them can
be installed from the repository. A Python that lacks them (a pyenv interpreter, a fresh venv, a
conda environment made for something else) gets one message naming that Python and the two ways
out: install them into it, or use a Python that has them (docs/python.md, "Installing").
"""

from __future__ import annotations

import importlib.util
import sys

# The packages routh imports, as pip and Debian name them.
REQUIRED = ("numpy", "h5py", "pandas", "matplotlib")
DEBIAN_PACKAGES = "python3-numpy python3-h5py python3-pandas python3-matplotlib"


def interpreter() -> str:
    """This Python: its executable and version, as a message names it."""
    version = ".".join(map(str, sys.version_info[:3]))
    return f"{sys.executable or 'python'} (Python {version})"


def missing_dependency(error: ModuleNotFoundError) -> ModuleNotFoundError:
    """The error to raise when `error` says a package of REQUIRED cannot be imported: it names
    every package of REQUIRED this Python lacks, this Python, and the fixes."""
    missing = [name for name in REQUIRED if importlib.util.find_spec(name) is None]
    message = (
        f"routh needs {', '.join(REQUIRED)}; the Python running it, {interpreter()}, has no "
        f"{', '.join(missing or [error.name])}. Either install them into this Python:\n"
        f"    {sys.executable or 'python'} -m pip install {' '.join(REQUIRED)}\n"
        f"(from PyPI or a mirror), or use a Python that has them, such as Debian's with "
        f"{DEBIAN_PACKAGES}, in a venv that sees them:\n"
        f"    /usr/bin/python3 -m venv --system-site-packages .venv && . .venv/bin/activate\n"
        f"and install routh there (docs/python.md, \"Installing\")."
    )
    return ModuleNotFoundError(message, name=error.name)


def is_required(error: ModuleNotFoundError) -> bool:
    """True when `error` is the import of one of REQUIRED (or of a module inside one) failing."""
    return (error.name or "").split(".")[0] in REQUIRED
