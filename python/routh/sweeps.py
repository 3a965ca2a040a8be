"""``routh.sweep``: a sweep run by the ``routh sweep`` program, its table as a DataFrame.

A sweep is many runs, which ``routh sweep`` shares among threads (and resumes, and protects its
table as docs/sweeps.md says); so the function runs the program rather than the compiled module,
and reads the table it writes with ``routh.load_sweep``.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from typing import Any

from routh import _program
from routh.api import _flow_yaml, _is_yaml_text, _overrides, load_sweep

__all__ = ["sweep"]


def _sweep_keys(sweep: str | os.PathLike | Mapping[str, Any]) -> tuple[dict[str, Any], str]:
    """The sweep's keys and the folder its ``base`` is relative to: a dict's and a text's are
    relative to the working directory, a file's to its folder. Needs PyYAML for a file or text."""
    if isinstance(sweep, Mapping):
        return dict(sweep), os.getcwd()
    try:
        import yaml
    except ModuleNotFoundError as error:
        raise ModuleNotFoundError(
            "routh.sweep needs PyYAML (python -m pip install pyyaml; Debian: python3-yaml) to "
            "read a sweep given as text or with overrides", name=error.name) from None
    if isinstance(sweep, str) and _is_yaml_text(sweep):
        return yaml.safe_load(sweep), os.getcwd()
    path = os.fspath(sweep)
    with open(path, encoding="utf-8") as file:
        return yaml.safe_load(file), os.path.dirname(os.path.abspath(path))


def _set_yaml(fixed: Mapping[str, str]) -> str:
    """The sweep's ``set`` as a flow map, one line: each value is YAML text already."""
    return "{" + ", ".join(f"{json.dumps(key)}: {text}" for key, text in fixed.items()) + "}"


def sweep(
    sweep: str | os.PathLike | Mapping[str, Any],
    overrides: Mapping[str, Any] | Sequence[str] | None = None,
    *,
    output: str | os.PathLike | None = None,
    threads: int | None = None,
    force: bool = False,
    resume: bool = False,
) -> Any:
    """Runs a sweep as ``routh sweep SWEEP.yaml [-o OUTPUT] [--jobs THREADS] [--force]
    [--resume]`` and returns its table, as ``routh.load_sweep`` reads it: a pandas DataFrame,
    one row per run.

    `sweep` is a sweep file (docs/sweeps.md), its YAML text, or its keys as a dict; the ``base``
    scenario of a text or dict is relative to the working directory, a file's to its folder.
    `overrides` (a dict ``{"duration": 3}`` or ``"key=value"`` texts, as routh.run takes them)
    are fixed values of every run, added to the sweep's ``set:``. The table goes to `output`
    (kept; an existing one raises FileExistsError unless ``force=True`` starts again or
    ``resume=True`` continues a stopped sweep), or to a temporary file deleted once read, with the
    sweep's CSV and trajectories if it asks for them. `threads` is ``--jobs`` (default: every
    core). Raises InputError for a bad sweep, located in its file, or for a text, a dict or
    overrides in ``routh.sweep``, one line per top-level key. A sweep given as text, or as a file
    with overrides, is read with PyYAML.

    >>> import routh
    >>> table = routh.sweep({"base": "scenarios/bouncing_ball.yaml",
    ...                      "grid": {"contact.restitution": [0.5, 0.7, 0.9]}},
    ...                     {"duration": 3})
    >>> table[["run", "contact.restitution", "status"]]
       run  contact.restitution     status
    0    0                  0.5  completed
    1    1                  0.7  completed
    2    2                  0.9  completed
    >>> table.attrs["units"]["contact.restitution"]
    ''
    """
    with tempfile.TemporaryDirectory(prefix="routh-sweep-") as folder:
        path = os.fspath(sweep) if not isinstance(sweep, Mapping) else ""
        renamed = {}
        is_text = isinstance(sweep, str) and _is_yaml_text(sweep)
        if isinstance(sweep, Mapping) or overrides or is_text:
            keys, base_folder = _sweep_keys(sweep)
            if not isinstance(keys, Mapping) or "base" not in keys:
                raise ValueError("the sweep has no base: give base: SCENARIO.yaml")
            keys["base"] = os.path.join(base_folder, os.fspath(keys["base"]))
            # {key: its value's YAML text}: the overrides' texts as routh.run gives them to
            # --set (a str is YAML, "[1, 2]" a list), on top of the sweep's own set
            fixed = {str(key): _flow_yaml(value)
                     for key, value in (keys.get("set") or {}).items()}
            for item in _overrides(overrides):
                key, _, value = item.partition("=")
                fixed[key] = value
            if fixed:
                keys["set"] = fixed
            path = os.path.join(folder, "sweep.yaml")
            with open(path, "w", encoding="utf-8") as file:
                for key, value in keys.items():
                    text = _set_yaml(fixed) if key == "set" and fixed else _flow_yaml(value)
                    file.write(f"{json.dumps(str(key))}: {text}\n")
            renamed = {path: "routh.sweep"}
        table = os.fspath(output) if output is not None else os.path.join(folder, "sweep.h5")
        arguments = ["sweep", path, "-o", table]
        if threads is not None:
            arguments += ["--jobs", str(int(threads))]
        if force or output is None:
            arguments.append("--force")
        if resume:
            arguments.append("--resume")
        _program._command(arguments, renamed=renamed)
        return load_sweep(table)
