"""The routh program's commands as Python functions, calling the compiled ``routh._core``.

Each function goes through the same C++ code as its command, so its answer is the command's:
``run`` writes its trajectory with ``routh run``'s recorder, ``solve_impact``, ``impact`` and
``compare`` parse the JSON that ``routh impact`` and ``routh compare --json`` print.
"""

from __future__ import annotations

import importlib
import json
import math
import os
import stat
import tempfile
import threading
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

from routh.trajectory import Trajectory, hdf5_text, hdf5_texts, load

__all__ = ["compare", "impact", "laws", "load_sweep", "run", "solve_impact"]


def _core():
    """The backend the functions call: the compiled ``routh._core``, imported on first use
    (routh.load needs only the pure Python), or ``routh._program``, which has the same functions
    and runs the ``routh`` program for them. The program is used when ``ROUTH_BACKEND=program``
    or when this Python cannot import the compiled module (another Python version or ABI than
    the one it was built for, or a package without it); ``ROUTH_BACKEND=core`` insists on the
    compiled module."""
    choice = os.environ.get("ROUTH_BACKEND", "")
    if choice not in ("", "core", "program"):
        raise ValueError(f"ROUTH_BACKEND={choice}: expected core or program")
    if choice == "program":
        return importlib.import_module("routh._program")
    try:
        return importlib.import_module("routh._core")
    except ImportError as error:
        from routh._environment import interpreter

        unloadable = f"{interpreter()} cannot import the compiled routh._core ({error})"
        if choice == "core":
            raise ImportError(f"ROUTH_BACKEND=core, but {unloadable}") from error
        program = importlib.import_module("routh._program")
        try:
            program.program_path()
        except FileNotFoundError as missing:
            raise ImportError(f"{unloadable}, and there is no routh program to run instead: "
                              f"{missing}") from error
        return program


def _yaml_value(value: Any) -> str:
    """A Python value as the YAML text ``--set key=value`` would give: strings as they are (so
    ``"[1, 2]"`` or ``"poisson"`` read as YAML); numbers, lists and maps as flow YAML."""
    if isinstance(value, str):
        return value
    return _flow_yaml(value)


def _flow_yaml(value: Any) -> str:
    """A value as flow YAML: numbers with every digit, non-finite floats as YAML's ``.nan``,
    ``.inf`` and ``-.inf`` (JSON has no spelling for them: json.dumps writes ``NaN``, which YAML
    reads as a string), strings quoted, lists and maps nested."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        return ".nan" if math.isnan(value) else (".inf" if value > 0 else "-.inf")
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, Mapping):
        members = (f"{json.dumps(str(k))}: {_flow_yaml(v)}" for k, v in value.items())
        return "{" + ", ".join(members) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_flow_yaml(item) for item in value) + "]"
    return json.dumps(value)


def _overrides(overrides: Mapping[str, Any] | Sequence[str] | None) -> list[str]:
    if overrides is None:
        return []
    if isinstance(overrides, Mapping):
        return [f"{key}={_yaml_value(value)}" for key, value in overrides.items()]
    return list(overrides)


def _block_yaml(value: Any, indent: str = "") -> str:
    """A scenario's maps as block YAML, one key a line, so that an error's line and column
    point at the key the dict gave; lists and scalars as flow YAML (_flow_yaml)."""
    if not isinstance(value, Mapping):
        return f" {_flow_yaml(value)}\n"
    if not value:
        return " {}\n"
    lines = ["\n"] if indent else []
    for key, item in value.items():
        text = str(key)
        name = text if text.replace("_", "a").replace(".", "a").isalnum() else json.dumps(text)
        lines.append(f"{indent}{name}:{_block_yaml(item, indent + '  ')}")
    return "".join(lines)


# What run() names a scenario given as text or as a dict in its errors ("<scenario text>:3:5").
_TEXT_SOURCE = "<scenario text>"
_DICT_SOURCE = "<scenario dict>"


def _is_yaml_text(value: str) -> bool:
    """Whether a str given for a scenario or sweep is its YAML text rather than a file's path:
    text holds a newline, or a ':' and names no existing file."""
    return "\n" in value or (":" in value and not os.path.isfile(value))


def _scenario_source(scenario: Any) -> tuple[str, str | None]:
    """(the name errors are located in, the YAML text or None for a file) of run()'s
    `scenario`: a path-like object is a file; a dict becomes YAML text; a str is YAML text when
    it holds a newline, or a ':' and names no existing file, else a file's path."""
    if isinstance(scenario, Mapping):
        return _DICT_SOURCE, _block_yaml(_listed(scenario))
    if isinstance(scenario, str):
        if _is_yaml_text(scenario):
            return _TEXT_SOURCE, scenario
        return scenario, None
    if isinstance(scenario, os.PathLike):
        return os.fspath(scenario), None
    raise TypeError(
        f"scenario: expected a path, YAML text or a dict, not {type(scenario).__name__}"
    )


def run(
    scenario: str | os.PathLike | Mapping[str, Any],
    overrides: Mapping[str, Any] | Sequence[str] | None = None,
    *,
    output: str | os.PathLike | None = None,
    time_limit: float | None = None,
    force: bool = False,
) -> Trajectory:
    r"""Runs a scenario in this process, as ``routh run SCENARIO --set KEY=VALUE ...``, and
    returns its Trajectory, held in memory.

    `scenario` is a scenario file's path, the YAML text of a scenario, or a dict of its keys:

    - a path-like object (``pathlib.Path``) is always a file;
    - a str is YAML text when it holds a newline, or a ':' and names no existing file
      (``"{duration: 1, model: {type: ball}, initial: {}}"``); otherwise it is a file's path;
    - a dict (nested dicts and lists, as ``yaml.safe_load`` gives them; numpy numbers and
      arrays are taken as numbers and lists) is written as YAML.

    Text and dicts are read as ``routh run -`` reads standard input: errors are located in
    ``<scenario text>:LINE:COLUMN`` (``<scenario dict>`` for a dict, one key a line in the order
    the dict gives them), a scenario without ``name`` is called ``scenario``, and record files
    are relative to the current directory (a file's are relative to the file).

    `overrides` apply on top of the scenario, whatever its form: a dict mapping ``key.path`` to
    a value (``{"contact.law": "newton", "initial.q.theta": 0.1}``), or a list of
    ``"key.path=value"`` texts, applied in order like ``--set``. The trajectory is written with
    ``routh run``'s recorder to `output` (kept) or to a temporary file (deleted), then read back
    with ``load``: so its arrays are those of ``routh run``'s file, bit for bit, rather than a
    second copy of the recorder's conventions kept in memory.

    `output` is protected as ``routh run -o`` protects it (docs/output.md): the run writes a
    temporary file beside it and renames it onto `output` at the end, so an existing file is
    never written into. An existing `output` raises FileExistsError unless ``force=True``
    (``--force``). Even with ``force=True``, ValueError is raised when `output` is the scenario
    file or one of its record files (whatever the spelling or link), or a directory, device,
    FIFO or socket. A symbolic link is never followed: with ``force=True`` the link itself is
    replaced and the file it pointed to is left as it was. If `output` appears while the run is
    writing (another run naming it) and ``force`` is not given, FileExistsError names the
    temporary file that keeps this run.

    `time_limit` [s] of wall-clock time is ``--time-limit``: any number > 0; ``math.inf`` (like
    None) means no limit. Ctrl-C (SIGINT) in the main thread stops the run as it
    stops ``routh run``: `output`, if given, keeps the run up to the stop, ending with an
    ``interrupted`` event, and KeyboardInterrupt is raised. The scenario's warnings become
    Python warnings; a run that did not complete is a Trajectory whose ``status`` says why.
    Raises InputError for a bad scenario or override.

    >>> import routh
    >>> block = routh.run("scenarios/rocking_block.yaml",
    ...                   {"contact.law": "newton", "initial.q.theta": "2 deg", "duration": 0.5})
    >>> block.law, block.status, block.names
    ('newton', 'completed', ['x', 'y', 'theta'])
    >>> ball = routh.run({"duration": 0.5,
    ...                   "model": {"type": "ball", "radius": 0.1, "mass": 1},
    ...                   "initial": {"q": {"y": 1}},
    ...                   "contact": {"law": "poisson", "restitution": 0.5, "friction": 0.3}})
    >>> ball.summary["impacts"], round(ball.events["t"][0], 4)
    (1, 0.4284)
    >>> routh.run("duration: 1\nmodel: {type: ball, radius: 0.1, mass: 1}\n"
    ...           "initial: {q: {yy: 1}}\ncontact: {law: poisson, restitution: 0, friction: 0}")
    Traceback (most recent call last):
    ...
    routh._core.InputError: <scenario text>:3:15: initial.q: unknown coordinate 'yy'; ...
    """
    source, text = _scenario_source(scenario)
    arguments = (source, _overrides(overrides))
    limit = 0.0 if time_limit is None else float(time_limit)
    if time_limit is not None and not limit > 0.0:
        raise ValueError(f"time_limit {time_limit!r}: expected a number of seconds > 0")
    # signals reach only the main thread: there the run stops on Ctrl-C (KeyboardInterrupt)
    main_thread = threading.current_thread() is threading.main_thread()
    if output is not None:
        report = _core().run_to_file(
            *arguments, os.fspath(output), limit, main_thread, force, text=text
        )
        trajectory = load(output)
    else:
        with tempfile.TemporaryDirectory(prefix="routh-run-") as directory:
            path = os.path.join(directory, "trajectory.h5")
            report = _core().run_to_file(*arguments, path, limit, main_thread, False, text=text)
            trajectory = load(path)
        trajectory.path = None
    for warning in report["warnings"]:
        warnings.warn(warning, stacklevel=2)
    return trajectory


def problem_yaml(problem: Mapping[str, Any]) -> str:
    """A problem (the keys of solve_impact, or Trajectory.impact_problem's dict) as the YAML
    text of a problem file, one key a line (so that an error's line names the argument), every
    number with all its digits."""
    return "".join(f"{key}: {_flow_yaml(value)}\n" for key, value in problem.items())


def _listed(value: Any) -> Any:
    """numpy arrays and tuples as lists, for JSON."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [_listed(item) for item in value]
    if isinstance(value, Mapping):
        return {key: _listed(item) for key, item in value.items()}
    return value


def solve_impact(
    law: str,
    D: Any = None,
    u: Any = None,
    restitution: Any = None,
    friction: Any = None,
    *,
    M: Any = None,
    J: Any = None,
    v: Any = None,
    dimension: int | None = None,
) -> dict[str, Any]:
    """One impact solved by `law`, as ``routh impact PROBLEM.yaml --law LAW`` answers it.

    The problem in contact space: `D` = J M⁻¹ Jᵀ [1/kg] and the contact velocities `u` [m/s]
    (per contact: normal, then tangential); or in generalized form, `M`, `J` and `v` instead of
    `D` and `u`. `restitution` is one number or one per contact; `friction` one number (μs = μd),
    ``{"static": μs, "kinetic": μd}``, or a list of them per contact. `dimension` (2 planar, 3
    spatial) only when the rows allow both. Returns ``routh impact``'s JSON as a dict: law,
    status, type, impulse, u_post (v_post in generalized form), delta_T, W_n, W_t, phases, flags,
    warnings. A law that cannot solve the problem answers with its status (e.g.
    ``"unsupported"``), not an exception. Raises InputError for a malformed problem, located
    in the line of the key: ``routh.solve_impact:LINE:COLUMN: ...``.

    The falling rod of paper 004 (Stronge's example), in contact space:

    >>> import routh
    >>> answer = routh.solve_impact("poisson", D=[[2.5, -1.5], [-1.5, 2.5]], u=[-1, 0.6],
    ...                             restitution=0.82, friction={"static": 0.73, "kinetic": 0.7})
    >>> answer["status"], [round(x, 4) for x in answer["impulse"]], answer["flags"]
    ('solved', [0.728, 0.1968], ['nonphysical_normal_dissipation'])
    """
    problem = {
        "law": law,
        "D": D,
        "u": u,
        "M": M,
        "J": J,
        "v": v,
        "restitution": restitution,
        "friction": friction,
        "dimension": dimension,
    }
    given = {key: _listed(value) for key, value in problem.items() if value is not None}
    text = _core().impact_json("routh.solve_impact", problem_yaml(given), None)
    return json.loads(text)


def impact(problem: str | os.PathLike, law: str | None = None) -> dict[str, Any]:
    """``routh impact PROBLEM.yaml [--law LAW]``: the problem file solved by `law` (default: the
    file's ``law``), as the command's JSON in a dict (see solve_impact).

    >>> import routh
    >>> answer = routh.impact("scenarios/impacts/falling_rod_paper004_contact_space.yaml")
    >>> answer["law"], [round(x, 4) for x in answer["impulse"]]
    ('poisson', [0.728, 0.1968])
    """
    return json.loads(_core().impact_json(os.fspath(problem), None, law))


def compare(
    problem: str | os.PathLike | Mapping[str, Any], laws: Sequence[str] | None = None
) -> dict[str, Any]:
    """``routh compare PROBLEM.yaml --json [--laws A,B]``: the problem solved by every law in
    `laws`, or by every law whose scope covers it. `problem` is a problem file, or the problem's
    keys as a dict (those of solve_impact: D, u, restitution, friction, ...). Returns the JSON as
    a dict: ``problem`` (its name or file), ``results`` (one solve_impact answer per law, without
    warnings) and ``warnings``. ``Trajectory.impact_problem(k)`` gives one simulated impact as
    such a dict.

    >>> import routh
    >>> problem = {"D": [[2.5, -1.5], [-1.5, 2.5]], "u": [-1, 0.6],
    ...            "restitution": 0.82, "friction": 0.7}
    >>> result = routh.compare(problem, ["newton", "poisson"])
    >>> [(r["law"], round(r["impulse"][0], 4)) for r in result["results"]]
    [('newton', 0.9125), ('poisson', 0.728)]
    """
    names = list(laws or [])
    if isinstance(problem, Mapping):
        given = {key: _listed(value) for key, value in problem.items() if value is not None}
        text = _core().compare_json("routh.compare", problem_yaml(given), names)
    else:
        text = _core().compare_json(os.fspath(problem), None, names)
    return json.loads(text)


def laws() -> list[dict[str, str]]:
    """The impact laws, as ``routh laws`` lists them: dicts with name, scope and summary.

    >>> import routh
    >>> "poisson" in [law["name"] for law in routh.laws()]
    True
    """
    return _core().laws()


def load_sweep(path: str | os.PathLike) -> Any:
    """A sweep's table (``routh sweep``'s FILE.h5, or its FILE.csv) as a pandas DataFrame.

    One row per run in run order; the columns in the table's order (docs/sweeps.md), the first
    being ``run``, the run index, as a column. Text columns (status, message, swept keys given as
    text such as record files) hold str. ``df.attrs["units"]`` maps each column to its unit
    (``"s"``, ``"m/s^2"``, ...; ``""`` for counts, flags, text and dimensionless keys), and
    ``df.attrs["sweep"]`` and ``df.attrs["base"]`` hold the sweep file's and the base scenario's
    texts. A CSV has neither: its ``attrs["units"]`` is empty. Needs pandas. Raises
    FileNotFoundError for a missing file and ValueError for one that is not a sweep's table.
    """
    import pandas

    path = os.fspath(path)
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise ValueError(f"{path}: not a regular file")
    if path.endswith(".csv"):
        # "nan" is a real's NaN; an empty field is an empty text (a completed run's message)
        frame = pandas.read_csv(path, keep_default_na=False, na_values=["nan"])
        if "run" not in frame.columns or "status" not in frame.columns:
            raise ValueError(f"{path}: not a sweep's table (no run and status columns)")
        frame.attrs["units"] = {}
        return frame
    import h5py

    try:
        table = h5py.File(path, "r")
    except OSError as error:
        raise ValueError(f"{path}: not a sweep's table (neither HDF5 nor .csv): {error}") from None
    with table as f:
        if hdf5_text(f.attrs.get("format", "")) != "routh-sweep":
            raise ValueError(f"{path}: not a sweep's table (root attribute format is not "
                             f"routh-sweep); a trajectory reads with routh.load")
        runs = f["runs"]
        columns = hdf5_texts(runs.attrs["columns"])
        data = {}
        units = {}
        for column in columns:
            values = runs[column][()]
            data[column] = hdf5_texts(values) if values.dtype.kind in "OS" else values
            units[column] = hdf5_text(runs[column].attrs.get("units", ""))
        texts = {name: hdf5_text(f[name][()]) for name in ("sweep", "base") if name in f}
    frame = pandas.DataFrame(data, columns=columns)
    frame.attrs["units"] = units
    frame.attrs.update(texts)
    return frame
