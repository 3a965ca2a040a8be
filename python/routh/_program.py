"""The routh program as the package's backend, where the compiled ``routh._core`` cannot be used.

``routh._core`` is built for one Python (its version and ABI): a venv or conda environment with
another Python cannot import it. This module has the same functions, with the same arguments and
answers, and gets them by running the ``routh`` program: each function is one command whose
``--json`` output is what the compiled function returns (``routh impact``, ``routh compare
--json``, ``routh run --summary``, ``routh laws --json``, ``routh fragility --json``, ``routh
record --json --samples``). Both backends call the same C++ code, so their answers agree;
routh.api's ``_core()`` chooses between them (``ROUTH_BACKEND=program`` forces this one).

An error the program reports at a file, line and column is raised as InputError, a ValueError
with the attributes ``file``, ``line``, ``column`` and ``message``: the compiled module's class
where it loads, so that ``routh.InputError`` catches both backends' errors. An output the
program refuses raises the OSError the compiled module raises for it.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Sequence
from typing import Any

# The program's exit codes that say more than "bad input" (tools/routh/command.hpp).
_EXIT_OUTPUT_ERROR = 20
_EXIT_DAMAGED_FILE = 22

# An error at a place in a file: "FILE:LINE:COLUMN: message" (sim/scenario/yaml_input.hpp).
_LOCATED = re.compile(r"^(?P<file>.+?):(?P<line>\d+)(?::(?P<column>\d+))?: (?P<message>.*)$")


try:
    # one InputError for the package, whichever backend raises it
    from routh._core import InputError
except ImportError:

    class InputError(ValueError):
        """A bad input, located: ``str(error)`` is "file:line:column: message", and the
        attributes ``file``, ``line``, ``column`` (0 when unknown) and ``message`` hold its
        parts."""


def _input_error(text: str, file: str, line: int, column: int, message: str) -> InputError:
    error = InputError(text)
    error.file, error.line, error.column, error.message = file, line, column, message
    return error


def program_path() -> str:
    """The routh program this package runs: ``$ROUTH_PROGRAM``; else the program of the build
    the package comes from (recorded at build time in routh/_build_paths.py), if it is still
    there; else ``routh`` on PATH. Raises FileNotFoundError saying how to give one."""
    given = os.environ.get("ROUTH_PROGRAM")
    if given:
        if not (os.path.isfile(given) and os.access(given, os.X_OK)):
            raise FileNotFoundError(f"ROUTH_PROGRAM={given}: no executable routh program there")
        return given
    try:
        from routh._build_paths import ROUTH_PROGRAM as built
    except ImportError:  # the package run from the source tree
        built = None
    if built and os.path.isfile(built) and os.access(built, os.X_OK):
        return built
    found = shutil.which("routh")
    if found:
        return found
    where = f"the build this package came from had it at {built}, which is gone, and " if built \
        else ""
    raise FileNotFoundError(
        f"no routh program: ROUTH_PROGRAM is not set, {where}there is no routh on PATH. Set "
        f"ROUTH_PROGRAM to the built program (BUILD/tools/routh/routh) or put its folder on "
        f"PATH (docs/python.md, \"Installing\")."
    )


def _renamed(line: str, renamed: dict[str, str]) -> str:
    """`line` with each name the program saw (a temporary file, <stdin>) replaced by the one the
    caller gave."""
    for seen, given in renamed.items():
        line = line.replace(seen, given)
    return line


def _error(stderr: str, code: int, renamed: dict[str, str], subject: str) -> Exception:
    """The exception for a command on the file `subject` that failed with `stderr` and exit code
    `code`; `renamed` maps the names the program saw (a temporary file, <stdin>) to those the
    caller gave.

    The program prints an input error as it is, "FILE:LINE:COLUMN: message" (no line or column
    when unknown), and any other error as "routh COMMAND: SUBJECT: message"
    (tools/routh/command.hpp), where the compiled module's message is the message alone."""
    lines = []
    for line in stderr.splitlines():
        if line.startswith("usage: "):
            break  # a usage error: the line before says what was wrong
        lines.append(_renamed(line, renamed))
    text = lines[-1] if lines else f"the routh program failed with exit code {code}"
    if not text.startswith("routh "):
        located = _LOCATED.match(text)
        if located:
            return _input_error(text, located["file"], int(located["line"]),
                                int(located["column"] or 0), located["message"])
        file, _, message = text.partition(": ")
        return _input_error(text, file, 0, 0, message)
    text = re.sub(r"^routh [a-z]+: ", "", text)
    text = text.removeprefix(f"{renamed.get(subject, subject)}: ")
    if code == _EXIT_DAMAGED_FILE:
        return RuntimeError(text)
    if code == _EXIT_OUTPUT_ERROR:
        return OSError(text)
    if "use --force to overwrite" in text or " exists: continue the sweep" in text:
        return FileExistsError(text.replace("--force", "force=True").replace("--resume",
                                                                             "resume=True"))
    if ": the folder " in text and text.endswith(" does not exist"):
        return FileNotFoundError(text)
    if "cannot write in the folder" in text:
        return PermissionError(text)
    return ValueError(text)


def _command(arguments: Sequence[str], *, renamed: dict[str, str] | None = None,
             answers_on_failure: bool = False) -> subprocess.CompletedProcess:
    """Runs ``routh COMMAND SUBJECT ...`` (`arguments`) and returns it; a failure (exit code
    other than 0) raises its error, unless `answers_on_failure` and it printed an answer."""
    done = subprocess.run([program_path(), *arguments], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0 and not (answers_on_failure and done.stdout.strip()):
        raise _error(done.stderr, done.returncode, renamed or {},
                     arguments[1] if len(arguments) > 1 else "")
    return done


def _with_problem(source: str, text: str | None, arguments: Sequence[str]) -> str:
    """The standard output of ``routh COMMAND PROBLEM ARGUMENTS``, PROBLEM being the file
    `source` or, when `text` is given, that text in a temporary file (errors name `source`)."""
    if text is None:
        return _command([arguments[0], source, *arguments[1:]], answers_on_failure=True).stdout
    with tempfile.TemporaryDirectory(prefix="routh-problem-") as folder:
        path = os.path.join(folder, "problem.yaml")
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
        return _command([arguments[0], path, *arguments[1:]], renamed={path: source},
                        answers_on_failure=True).stdout


def impact_json(source: str, text: str | None, law: str | None) -> str:
    """``routh impact SOURCE [--law LAW]``'s standard output."""
    return _with_problem(source, text, ["impact", *(["--law", law] if law else [])])


def compare_json(source: str, text: str | None, laws: Sequence[str]) -> str:
    """``routh compare SOURCE --json [--laws A,B]``'s standard output."""
    return _with_problem(source, text,
                         ["compare", "--json", *(["--laws", ",".join(laws)] if laws else [])])


def run_to_file(scenario: str, overrides: Sequence[str], output: str, time_limit: float,
                main_thread: bool, force: bool, text: str | None = None) -> dict[str, Any]:
    """``routh run SCENARIO --set ... -o OUTPUT [--force] [--time-limit S] --summary``, or with
    `text`, ``routh run -`` reading that YAML (errors name `scenario`). Returns the scenario's
    warnings, the status and its detail. A KeyboardInterrupt while the program runs stops it as
    Ctrl-C stops ``routh run`` (the file keeps the run up to there), then is raised."""
    arguments = ["run", "-" if text is not None else scenario]
    for item in overrides:
        arguments += ["--set", item]
    arguments += ["-o", output, "--summary"]
    if force:
        arguments.append("--force")
    if 0.0 < time_limit < math.inf:
        arguments += ["--time-limit", repr(time_limit)]
    renamed = {"<stdin>": scenario} if text is not None else {}
    process = subprocess.Popen([program_path(), *arguments], text=True,
                               stdin=subprocess.PIPE if text is not None else subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        stdout, stderr = process.communicate(text)
    except KeyboardInterrupt:
        # Ctrl-C reached the program too (one process group); a SIGINT sent to Python alone is
        # passed on. Either way the program ends its file with an `interrupted` event.
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
        process.communicate()
        raise
    summary = stdout.strip()
    if not summary:
        raise _error(stderr, process.returncode, renamed, arguments[1])
    answer = json.loads(summary)
    warnings = []
    for line in stderr.splitlines():
        if line and not line.startswith("routh run: "):
            warnings.append(_renamed(line, renamed))
    if main_thread and answer["status"] == "interrupted" and process.returncode == 130:
        raise KeyboardInterrupt
    return {"warnings": warnings, "status": answer["status"],
            "status_detail": answer["status_detail"]}


def laws() -> list[dict[str, str]]:
    """``routh laws --json``: name, scope and summary of each law."""
    return json.loads(_command(["laws", "--json"]).stdout)


def fragility_json(path: str, outcome: str, im: str | None, confidence: float, bootstrap: int,
                   seed: int) -> str:
    """``routh fragility PATH --json ...``'s standard output."""
    arguments = ["fragility", path, "--json", "--outcome", outcome, "--confidence",
                 repr(float(confidence)), "--bootstrap", str(bootstrap), "--seed", str(seed)]
    if im is not None:
        arguments += ["--im", im]
    return _command(arguments, answers_on_failure=True).stdout  # a degenerate fit exits 24


def _record(path: str, arguments: Sequence[str]) -> dict[str, Any]:
    """``routh record PATH --json --samples ARGUMENTS``, parsed."""
    return json.loads(_command(["record", path, "--json", "--samples", *arguments]).stdout)


def _samples(time: Sequence[float], acceleration: Sequence[float],
             arguments: Sequence[str]) -> dict[str, Any]:
    """``routh record``'s answer for samples (t_i, a_i) [s, m/s²], written as a two-column
    file with every digit of each number."""
    if len(time) != len(acceleration):
        raise ValueError("times and accelerations differ in length")
    if any(later < earlier for earlier, later in zip(time, time[1:])):
        raise ValueError("the times must not decrease")
    with tempfile.TemporaryDirectory(prefix="routh-record-") as folder:
        path = os.path.join(folder, "record.txt")
        with open(path, "w", encoding="utf-8") as file:
            file.writelines(f"{t!r} {a!r}\n" for t, a in zip(time, acceleration))
        return _record(path, ["--format", "columns", "--units", "m/s2", *arguments])


def read_record(path: str, units: str | None) -> tuple[list[float], list[float]]:
    """The record file as ``routh record`` reads it: times [s], accelerations [m/s²]."""
    answer = _record(path, ["--units", units] if units else [])
    return answer["time"], answer["acceleration"]


def intensity_measures(time: Sequence[float], acceleration: Sequence[float]) -> dict[str, float]:
    """The intensity measures by name (pga, pgv, ...), as ``routh record --json`` gives them."""
    answer = _samples(time, acceleration, [])
    # the measures are the members with a unit that are neither times nor the spectrum's
    others = {"start", "end", "period", "sa", "time", "acceleration", "velocity", "displacement"}
    return {name: answer[name] for name in answer["units"] if name not in others}


def ground_velocity_displacement(time: Sequence[float], acceleration: Sequence[float]
                                 ) -> tuple[list[float], list[float]]:
    """v_i [m/s] and d_i [m] of the samples, from rest."""
    answer = _samples(time, acceleration, [])
    return answer["velocity"], answer["displacement"]


def response_spectrum(time: Sequence[float], acceleration: Sequence[float],
                      periods: Sequence[float], damping: float) -> list[float]:
    """Sa [m/s²] at each period [s]."""
    if not periods:
        return []
    answer = _samples(time, acceleration,
                      ["--period", *map(repr, periods), "--damping", repr(damping)])
    return [value["sa"] for value in answer["spectrum"]]


def __getattr__(name: str) -> Any:
    # routh.__version__: the program's
    if name == "__version__":
        return _command(["--version"]).stdout.split()[-1]
    raise AttributeError(f"module 'routh._program' has no attribute {name!r}")
