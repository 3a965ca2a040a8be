"""Reading a routh trajectory file (``routh run``'s HDF5 output) into numpy and pandas.

Pure Python (h5py, numpy, pandas): ``routh.load`` works without the compiled module. The file's
layout is documented in sim/recorder/trajectory_recorder.hpp and docs/output.md.

The event table
---------------
``Trajectory.events`` is a pandas DataFrame with one row per event and one column per field:

- ``t`` [s], ``kind``, ``contacts`` (the contacts' names, comma-separated, e.g.
  ``"left_corner,right_corner"``), ``contact_indices`` (their indices into ``contact_names``, as
  the file has them, ``"0,1"``), ``phases``, ``delta_T``, ``normal_work``, ``tangential_work``
  [J], ``flag_names`` (the impact's flags, comma-separated; not ``flags``, which pandas'
  ``DataFrame.flags`` would hide from attribute access), ``status``;
- the impulse and the contact velocities before and after, split per contact and per direction:
  ``Gamma_n.NAME``, ``Gamma_t.NAME`` [N s], ``u_n_pre.NAME``, ``u_t_pre.NAME``,
  ``u_n_post.NAME``, ``u_t_post.NAME`` [m/s], where NAME is the contact's name (``/events``'
  ``contact_names``), e.g. ``Gamma_n.left_corner``. A spatial contact's two tangential directions
  are ``t1`` and ``t2`` (``Gamma_t1.NAME``, ...). A contact has these columns when some event
  involves it, in contact index order; a row whose event does not involve it, or an event without
  impulses (rest, zeno, lift-off, ...), holds NaN there.

``Trajectory.event_units`` gives each column's unit ("" for text).

Killed runs and damaged files
-----------------------------
A run killed while it wrote (SIGKILL, the OOM killer, a crash) leaves its file holding the run
up to the recorder's last flush: ``load`` reads it, ``Trajectory.incomplete`` is True (status
``unfinished``) and ``Trajectory.warnings`` says what was left out (rows never written, events
that cannot be read). A file that is not a readable trajectory raises ``DamagedFileError``, with
a message. The HDF5 library crashes or loops on some damaged files (bytes changed or cut off),
so by default ``load`` reads the file in a child process, with a time limit, and receives the
arrays from it.
"""

from __future__ import annotations

import ctypes
import errno
import faulthandler
import functools
import json
import os
import pickle
import select
import signal
import time as _clock
from dataclasses import dataclass, field
from typing import Any

import h5py
import numpy as np
import pandas as pd

__all__ = ["DamagedFileError", "Trajectory", "load"]

# The root status of a file whose run never recorded how it ended (its writer was killed).
_UNFINISHED = "unfinished"


class DamagedFileError(OSError):
    """The file is not a readable routh trajectory: HDF5 cannot read it (bytes changed or cut
    off, not an HDF5 file, datasets missing), or crashed or hung reading it."""


# /events' variable-length fields, split per contact: (field, column prefix, column suffix, unit)
_SPLIT_FIELDS = (
    ("impulse", "Gamma", "", "N s"),
    ("u_pre", "u", "_pre", "m/s"),
    ("u_post", "u", "_post", "m/s"),
)
# a contact's rows in those fields, normal first: planar (n, t) or spatial (n, t1, t2)
_DIRECTIONS = {2: ("n", "t"), 3: ("n", "t1", "t2")}


@dataclass
class Trajectory:
    """One run's trajectory, as recorded in a routh trajectory file (``routh.load``, ``routh.run``).

    Attributes:
        path: the file read, or None for a run held in memory (``routh.run`` without output).
        time: (N,) the sample times [s]; an event's time appears twice, before and after it
            (``sample_kind``), so use ``samples(side=...)`` for a unique time index.
        q: (N, nq) the generalized coordinates, columns named ``names`` with units ``q_units``
            (m, rad; a spatial body's quaternion is dimensionless, "1").
        v: (N, nv) the generalized velocities, columns ``v_names``, units ``v_units``. A planar
            model's velocities are named as its coordinates; a spatial one has nq ≠ nv: 7
            coordinates and 6 velocities per body.
        energy: (N, 3) kinetic, potential and total energy [J], columns ``energy_names``.
        names: the coordinates' names, e.g. ["x", "y", "theta"].
        q_units: the coordinates' units.
        v_units: the velocities' units.
        v_names: the velocities' names.
        energy_names: ["kinetic", "potential", "total"].
        ground_acceleration: (N, dimension) a_g at each sample [m/s²] for an excited run, else
            None.
        sample_kind: (N,) uint8, why each sample was taken: 0 at the output rate, 1 just before
            an event, 2 just after (None for a file without /sample_kind).
        events: pandas DataFrame, one row per event (see the module's documentation): t, kind,
            contacts (names), contact_indices, phases, the impulses and contact velocities split
            per contact (``Gamma_n.NAME`` [N s], ``u_n_pre.NAME`` [m/s], ...), delta_T,
            normal_work, tangential_work [J], flag_names, status.
        event_units: each events column's unit ("" for text).
        contact_names: the model's contacts, in the file's order (events' indices refer to it).
        summary: the /summary figures as a dict (impacts, uplift_time [s], max_abs_theta
            [rad], ...; NaN when none).
        scenario: the effective scenario (YAML text, every default filled in): enough to run
            it again with ``routh.run(trajectory.scenario)``.
        status: how the run ended ("completed", "time_limit", ..., "unfinished" for a run
            killed while it wrote); status_detail says more.
        status_detail: the status's explanation ("" when completed).
        law: the single-contact impact law.
        routh_version: the version of routh that wrote the file.
        format_version: the file layout's version (docs/output.md).
        model: the /model description (bodies, shapes, joints, obstacles, contacts) parsed from
            JSON, or None.
        attributes: every root attribute of the file.
        warnings: what ``load`` left out of a damaged or unfinished file.
        dimension: (property) 3 for bodies in space, else 2.
        incomplete: (property) True when the run's end was never recorded.
        units: (property) the unit of every ``q.NAME``, ``v.NAME`` column and ``time``.

    Methods: ``samples(side=None, index="time")`` (one DataFrame of every series),
    ``impacts()`` (the impact events), ``impact_problem(k)`` and ``save_impact_problem(k, path)``
    (one simulated impact as a problem for ``routh.compare``).

    >>> import routh
    >>> trajectory = routh.run("scenarios/falling_rod.yaml", {"duration": 0.3})
    >>> trajectory.names, trajectory.q_units
    (['x', 'y', 'theta'], ['m', 'm', 'rad'])
    >>> trajectory.contact_names
    ['left_end', 'right_end']
    >>> trajectory.events[["t", "kind", "contacts", "Gamma_n.left_end", "flag_names"]]
              t    kind  contacts  Gamma_n.left_end                      flag_names
    0  0.100000  impact  left_end           0.72800  nonphysical_normal_dissipation
    1  0.228021  impact  left_end           0.26093  nonphysical_normal_dissipation
    """

    path: str | None
    time: np.ndarray
    q: np.ndarray
    v: np.ndarray
    energy: np.ndarray
    names: list[str]
    q_units: list[str]
    v_units: list[str]
    energy_names: list[str]
    ground_acceleration: np.ndarray | None
    events: pd.DataFrame
    event_units: dict[str, str]
    contact_names: list[str]
    summary: dict[str, Any]
    scenario: str
    status: str | None
    status_detail: str | None
    law: str | None
    routh_version: str | None
    format_version: int | None
    model: Any = None
    sample_kind: Any = None
    attributes: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    v_names: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.v_names:  # a planar model names its velocities as its coordinates
            self.v_names = list(self.names)

    @property
    def dimension(self) -> int:
        """3 for free rigid bodies in space, 2 for a planar model (whose /model has no
        ``dimension``) or a file without /model."""
        return int(self.model.get("dimension", 2)) if isinstance(self.model, dict) else 2

    @property
    def incomplete(self) -> bool:
        """True when the run's end was never recorded (status ``unfinished``): its writer was
        killed or crashed, and the file holds the run up to the recorder's last flush."""
        return self.status == _UNFINISHED

    @property
    def units(self) -> dict[str, str]:
        """Units of every q and v column, keyed ``q.NAME`` and ``v.NAME``, plus ``time``."""
        units = {"time": "s"}
        units.update({f"q.{n}": u for n, u in zip(self.names, self.q_units)})
        units.update({f"v.{n}": u for n, u in zip(self.v_names, self.v_units)})
        return units

    def samples(self, side: str | None = None, index: str = "time") -> pd.DataFrame:
        """Every series as one DataFrame: columns ``q.NAME``, ``v.NAME``, the energies
        (``kinetic``, ``potential``, ``total``), when excited ``a_g.x``, ``a_g.y`` (and ``a_g.z``
        in space), and ``sample_kind`` (0 at the output rate, 1 before an event, 2 after) when
        the file has it.

        The file holds two samples at an event's time, before and after it. `side` keeps one
        sample per time: ``"before"`` the first (the state before the instant's events),
        ``"after"`` the last; None keeps both. `index` is ``"time"`` (the default: unique with
        a `side`, so ``reindex`` and ``asof`` work) or ``"sample"``: the row number in the file
        (always unique), with ``time`` as a column.

        >>> import routh
        >>> trajectory = routh.run("scenarios/falling_rod.yaml", {"duration": 0.15})
        >>> both = trajectory.samples()
        >>> both.index.is_unique
        False
        >>> after = trajectory.samples(side="after")
        >>> after.index.is_unique, len(both) - len(after) == (both["sample_kind"] == 1).sum()
        (True, True)
        >>> trajectory.samples(index="sample")[["time", "v.y", "sample_kind"]].iloc[21:24]
                 time      v.y  sample_kind
        sample
        21      0.100 -1.00000            1
        22      0.100 -0.27200            2
        23      0.105 -0.32105            0
        """
        if side not in (None, "before", "after"):
            raise ValueError(f"side={side!r}: expected 'before', 'after' or None")
        if index not in ("time", "sample"):
            raise ValueError(f"index={index!r}: expected 'time' or 'sample'")
        columns = {f"q.{n}": self.q[:, i] for i, n in enumerate(self.names)}
        columns.update({f"v.{n}": self.v[:, i] for i, n in enumerate(self.v_names)})
        columns.update({n: self.energy[:, i] for i, n in enumerate(self.energy_names)})
        if self.ground_acceleration is not None:
            for k in range(self.ground_acceleration.shape[1]):
                columns[f"a_g.{'xyz'[k]}"] = self.ground_acceleration[:, k]
        if self.sample_kind is not None:
            columns["sample_kind"] = self.sample_kind
        if index == "time":
            frame = pd.DataFrame(columns, index=pd.Index(self.time, name="time"))
        else:
            frame = pd.DataFrame({"time": self.time, **columns})
            frame.index.name = "sample"
        if side is None:
            return frame
        # rows are in time order, before an event's instant then after it
        differs = self.time[1:] != self.time[:-1]
        keep = np.r_[True, differs] if side == "before" else np.r_[differs, True]
        return frame[keep[: len(frame)]]

    def impacts(self) -> pd.DataFrame:
        """The rows of ``events`` whose kind is ``impact``, numbered 0, 1, ... in time order
        (the numbering ``impact_problem`` takes); the events table's row in column ``event``."""
        impacts = self.events[self.events["kind"] == "impact"] if len(self.events) else self.events
        return impacts.rename_axis("event").reset_index()

    def impact_problem(self, k: int) -> dict[str, Any]:
        """The `k`-th impact of the run (0 the first; negative from the end) as the problem its
        law was given, a dict that ``routh.compare`` and ``routh.solve_impact`` take:

        - ``D`` = J M⁻¹ Jᵀ [1/kg] of the impact's contacts, from the model at the state just
          before the impact (q and v of the sample before it), rebuilt from ``scenario``;
        - ``u``: the contact velocities before the impact [m/s] as the file recorded them
          (normal then tangential per contact);
        - ``restitution`` and ``friction`` ({static, kinetic}) per contact, as the run used
          them (restitution 0 for an approach slower than the scenario's rest speed, which
          closes the contact; no friction for a contact whose slip no impulse can change);
        - ``law``: the run's law for that many contacts (single- or multi-contact);
          ``dimension``; ``name`` and ``description``: where the impact comes from (its time
          and contacts).

        Needs the compiled module (it rebuilds the model). Raises IndexError when the run has
        no impact `k`.

        >>> import routh
        >>> trajectory = routh.run("scenarios/falling_rod.yaml", {"duration": 0.15})
        >>> problem = trajectory.impact_problem(0)
        >>> problem["law"], problem["D"], problem["u"]
        ('poisson', [[2.5, -1.5], [-1.5, 2.5]], [-1.0000000000000002, 0.6])
        >>> problem["restitution"], problem["friction"]
        ([0.82], [{'static': 0.73, 'kinetic': 0.7}])
        >>> (answer,) = routh.compare(problem, [problem["law"]])["results"]
        >>> recorded = trajectory.impacts().loc[0, "Gamma_n.left_end"]
        >>> bool(abs(answer["impulse"][0] - recorded) <= 1e-9 * abs(recorded))
        True
        """
        from routh.api import _core  # the compiled module (or its stand-in), on first use

        impacts = self.impacts()
        count = len(impacts)
        if not -count <= k < count:
            raise IndexError(f"impact {k}: the run has {count} impacts")
        event = impacts.iloc[k]
        if not self.scenario:
            raise ValueError("the trajectory keeps no scenario to rebuild its model from")
        indices = [int(c) for c in event["contact_indices"].split(",") if c]
        # the state before the event: the first sample at its time
        (rows,) = np.nonzero(self.time == event["t"])
        if not len(rows):
            raise ValueError(f"no sample at the impact's time t = {event['t']!r} s")
        before = rows[0]
        core = _core()
        if not hasattr(core, "impact_problem"):
            raise RuntimeError(
                "impact_problem rebuilds the model with the compiled module routh._core, which "
                "this interpreter cannot import; use the interpreter the package was built for"
            )
        problem = core.impact_problem(
            self.scenario, float(event["t"]), self.q[before], self.v[before], indices
        )
        directions = _DIRECTIONS[problem["dimension"]]
        names = event["contacts"].split(",")
        recorded = [
            float(event[f"u_{d}_pre.{name}"]) for name in names for d in directions
        ]
        which = "" if k >= 0 else f" ({count + k} of {count})"
        return {
            "name": f"{self._scenario_name()} impact {k}{which}",
            "description": (
                f"impact {k} of {count} at t = {event['t']!r} s, contacts {', '.join(names)}, "
                f"exported from {self.path or 'a run held in memory'}"
            ),
            "law": problem["law"],
            "D": problem["D"],
            "u": recorded,
            "restitution": problem["restitution"],
            "friction": problem["friction"],
            "dimension": problem["dimension"],
        }

    def save_impact_problem(self, k: int, path: str | os.PathLike) -> None:
        """Writes ``impact_problem(k)`` as a problem file (YAML) for ``routh impact`` and
        ``routh compare``: every number with all its digits, so it reads back exactly. An
        existing file is replaced."""
        from routh.api import problem_yaml

        with open(path, "w", encoding="utf-8") as out:
            out.write(problem_yaml(self.impact_problem(k)))

    def _scenario_name(self) -> str:
        for line in self.scenario.splitlines():
            if line.startswith("name:"):
                return line[len("name:") :].strip()
        return "scenario"

    def __repr__(self) -> str:
        return (
            f"Trajectory({len(self.time)} samples of {self.names}, {len(self.events)} events, "
            f"law={self.law!r}, status={self.status!r})"
        )


def hdf5_text(value: Any) -> Any:
    """An HDF5 string (bytes inside datasets, str in attributes) as str; anything else as is."""
    if isinstance(value, bytes):
        return value.decode("utf-8")
    if isinstance(value, np.ndarray) and value.dtype.kind in "OS":
        return [hdf5_text(v) for v in value.tolist()]
    if isinstance(value, np.generic):
        return value.item()
    return value


def hdf5_texts(values: Any) -> list[str]:
    """An HDF5 array of strings (an attribute's list, a dataset's column) as a list of str."""
    return [hdf5_text(v) for v in np.asarray(values).tolist()]


def _readable_rows(dataset: h5py.Dataset, warnings: list[str]) -> np.ndarray:
    """The rows of a one-dimensional dataset up to the first that cannot be read (a writer
    killed while appending an event can leave its text unreadable), with a warning then."""
    try:
        return dataset[()]
    except (OSError, ValueError, RuntimeError):
        pass
    block = 256
    parts = []
    for first in range(0, dataset.shape[0], block):
        try:
            parts.append(dataset[first : first + block])
            continue
        except (OSError, ValueError, RuntimeError):
            pass
        for row in range(first, min(first + block, dataset.shape[0])):
            try:
                parts.append(dataset[row : row + 1])
            except (OSError, ValueError, RuntimeError) as error:
                warnings.append(
                    f"/{dataset.name.lstrip('/')} rows from {row} on cannot be read ({error}); "
                    f"keeping the {row} before"
                )
                return np.concatenate(parts) if parts else dataset[0:0]
    return np.concatenate(parts) if parts else dataset[0:0]


def _event_table(
    dataset: h5py.Dataset | None, warnings: list[str]
) -> tuple[pd.DataFrame, dict[str, str], list[str]]:
    """The /events table, split per contact (see the module's documentation)."""
    if dataset is None:
        return pd.DataFrame(), {}, []
    if not isinstance(dataset, h5py.Dataset) or dataset.ndim != 1 or dataset.dtype.names is None:
        raise DamagedFileError("/events is not a table of events")
    contact_names = hdf5_texts(dataset.attrs.get("contact_names", []))
    file_units = hdf5_texts(dataset.attrs.get("units", []))
    units = dict(zip(dataset.dtype.names, file_units))
    rows = _readable_rows(dataset, warnings)
    contacts = [[int(c) for c in hdf5_text(text).split(",") if c] for text in rows["contacts"]]
    involved = sorted({c for event in contacts for c in event})

    columns: dict[str, Any] = {"t": rows["t"].astype(np.float64)}
    column_units = {"t": units.get("t", "s")}
    columns["kind"] = [hdf5_text(v) for v in rows["kind"]]
    columns["contacts"] = [
        ",".join(contact_names[c] if c < len(contact_names) else str(c) for c in event)
        for event in contacts
    ]
    columns["contact_indices"] = [hdf5_text(v) for v in rows["contacts"]]
    columns["phases"] = [hdf5_text(v) for v in rows["phases"]]
    for name in ("kind", "contacts", "contact_indices", "phases"):
        column_units[name] = ""
    for source, prefix, suffix, unit in _SPLIT_FIELDS:
        per_event = [np.asarray(values, dtype=np.float64) for values in rows[source]]
        width = max((len(v) // len(c) for v, c in zip(per_event, contacts) if c), default=2)
        directions = _DIRECTIONS.get(width, tuple(f"r{i}" for i in range(width)))
        for index in involved:
            name = contact_names[index] if index < len(contact_names) else str(index)
            for d, direction in enumerate(directions):
                values = np.full(len(per_event), np.nan)
                for row, (event_values, event_contacts) in enumerate(zip(per_event, contacts)):
                    # events without an impact (rest, lift-off, ...) have no impulse
                    if index in event_contacts and len(event_values):
                        values[row] = event_values[event_contacts.index(index) * width + d]
                column = f"{prefix}_{direction}{suffix}.{name}"
                columns[column] = values
                column_units[column] = unit
    for name in ("delta_T", "normal_work", "tangential_work"):
        columns[name] = rows[name].astype(np.float64)
        column_units[name] = units.get(name, "J")
    # "flags" would be shadowed by DataFrame.flags in events.flags
    for name, field in (("flag_names", "flags"), ("status", "status")):
        columns[name] = [hdf5_text(v) for v in rows[field]]
        column_units[name] = ""
    return pd.DataFrame(columns), column_units, contact_names


def _optional_text(group: h5py.Group, name: str) -> str | None:
    """A scalar string dataset or attribute called `name`, or None."""
    if name in group and isinstance(group[name], h5py.Dataset):
        return hdf5_text(group[name][()])
    if name in group.attrs:
        return hdf5_text(group.attrs[name])
    return None


def load(
    path: str | os.PathLike, *, isolate: bool = True, time_limit: float | None = None
) -> Trajectory:
    """Reads the trajectory file at `path` (written by ``routh run``, a sweep or ``routh.run``).

    A file whose run was killed loads up to the recorder's last flush, with ``incomplete`` True.
    Raises FileNotFoundError for a missing file and DamagedFileError for one that is not a
    readable routh trajectory. With `isolate` (the default, where the system can fork) the file
    is read in a child process, so that a damaged file that crashes or hangs the HDF5 library
    raises DamagedFileError instead; `time_limit` [s] bounds that reading (default 30 s and 1 s
    per 8 MiB of file). ``isolate=False`` reads in this process, without that protection.

    >>> import os, tempfile, routh
    >>> path = os.path.join(tempfile.mkdtemp(), "rod.h5")
    >>> _ = routh.run("scenarios/falling_rod.yaml", {"duration": 0.15}, output=path)
    >>> trajectory = routh.load(path)
    >>> trajectory.status, trajectory.summary["impacts"], trajectory.path == path
    ('completed', 1, True)
    """
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(errno.ENOENT, "no such file", path)
    if not isolate or not hasattr(os, "fork"):
        return _read(path)
    if time_limit is None:
        time_limit = 30.0 + os.path.getsize(path) / (8 << 20)
    return _read_in_child(path, time_limit)


def _read_in_child(path: str, time_limit: float) -> Trajectory:
    """_read(path) in a forked child, which sends the result (or its exception) back pickled."""
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:  # the child: read, send, and end without running the parent's exit handlers
        code = 0
        try:
            # a crash here is the parent's to report, not a traceback on the user's terminal
            faulthandler.disable()
            os.close(reading)
            try:
                result: Any = _read(path)
            except Exception as error:  # sent to the parent, which raises it
                result = error if _picklable(error) else DamagedFileError(f"{path}: {error}")
            data = pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
            with os.fdopen(writing, "wb") as pipe:
                pipe.write(data)
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    os.close(writing)
    chunks = []
    deadline = _clock.monotonic() + time_limit
    try:
        while True:
            left = deadline - _clock.monotonic()
            if left <= 0 or not select.select([reading], [], [], left)[0]:
                os.kill(child, signal.SIGKILL)
                os.waitpid(child, 0)
                raise DamagedFileError(
                    f"{path}: damaged file: reading it did not end within {time_limit:g} s"
                )
            chunk = os.read(reading, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(reading)
    _, status = os.waitpid(child, 0)
    if os.WIFSIGNALED(status):
        name = signal.Signals(os.WTERMSIG(status)).name
        raise DamagedFileError(f"{path}: damaged file: reading it crashed the HDF5 library ({name})")
    if not chunks:
        raise DamagedFileError(f"{path}: damaged file: the reading process ended with nothing")
    result = pickle.loads(b"".join(chunks))
    if isinstance(result, BaseException):
        raise result
    return result


def _picklable(error: BaseException) -> bool:
    try:
        pickle.loads(pickle.dumps(error))
        return True
    except Exception:
        return False


@functools.lru_cache(maxsize=1)
def _hdf5_end_setter() -> Any:
    """H5Fincrement_filesize of the HDF5 library h5py runs on (found among the libraries this
    process has loaded), or None where it cannot be found."""
    if h5py.version.hdf5_version_tuple < (1, 10, 2):
        return None
    try:
        with open("/proc/self/maps", encoding="utf-8") as maps:
            paths = {line.split()[-1] for line in maps if "libhdf5" in line and ".so" in line}
    except OSError:
        return None
    for library in sorted(paths):
        if "_hl" in os.path.basename(library):
            continue
        try:
            function = ctypes.CDLL(library).H5Fincrement_filesize
        except (OSError, AttributeError):
            continue
        function.argtypes = [ctypes.c_int64, ctypes.c_uint64]
        function.restype = ctypes.c_int
        return function
    return None


def _trust_file_size(f: h5py.File) -> None:
    """Lets HDF5 read up to the file's real size. A writer killed inside HDF5's flush can leave
    metadata on disk that points past the end its superblock declares (written last): HDF5 then
    refuses those objects ("addr overflow") although their bytes are there. Nothing is written."""
    setter = _hdf5_end_setter()
    if setter is not None:
        setter(f.id.id, 0)


def _attribute(owner: Any, name: str, warnings: list[str], unreadable: Any = None) -> Any:
    """An attribute as text or number; `unreadable` (with a warning) when HDF5 cannot read it."""
    try:
        return hdf5_text(owner.attrs[name]) if name in owner.attrs else None
    except (OSError, ValueError, RuntimeError, TypeError, KeyError) as error:
        warnings.append(f"attribute {name} of {owner.name} cannot be read ({error})")
        return unreadable


def _attributes(owner: Any, warnings: list[str]) -> dict[str, Any]:
    """Every attribute of `owner` that can be read (a writer killed while closing the file can
    leave the attributes it was adding unreadable), with a warning for the others."""
    try:
        names = list(owner.attrs)
    except (OSError, ValueError, RuntimeError, KeyError) as error:
        warnings.append(f"the attributes of {owner.name} cannot be listed ({error})")
        return {}
    return {name: _attribute(owner, name, warnings) for name in names}


def _series(f: h5py.File, name: str, ndim: int) -> h5py.Dataset:
    """The dataset /name of `ndim` dimensions, or DamagedFileError."""
    dataset = f.get(name)
    if not isinstance(dataset, h5py.Dataset):
        raise DamagedFileError(f"dataset /{name} is missing")
    if dataset.ndim != ndim:
        raise DamagedFileError(f"dataset /{name} has {dataset.ndim} dimensions, expected {ndim}")
    return dataset


def _read(path: str) -> Trajectory:
    """Reads and checks the file, in this process; DamagedFileError for what it cannot read."""
    try:
        f = h5py.File(path, "r")
    except OSError as error:
        raise DamagedFileError(f"{path}: damaged file or not HDF5: {error}") from None
    if _is_sweep_table(f):
        f.close()
        raise ValueError(
            f"{path}: is a sweep's table (routh sweep), not a trajectory: read it with "
            f"routh.load_sweep({path!r})"
        )
    try:
        with f:
            _trust_file_size(f)
            return _read_trajectory(f, path)
    except DamagedFileError as error:
        message = str(error)
        raise DamagedFileError(
            message if message.startswith(path) else f"{path}: damaged file: {message}"
        ) from None
    except (OSError, ValueError, RuntimeError, TypeError, KeyError, IndexError) as error:
        raise DamagedFileError(f"{path}: damaged file: {error}") from None


def _is_sweep_table(f: h5py.File) -> bool:
    """Whether the root's `format` says routh-sweep (a damaged attribute says no: the trajectory
    reader then reports the damage)."""
    try:
        return hdf5_text(f.attrs.get("format", "")) == "routh-sweep"
    except (OSError, ValueError, RuntimeError, TypeError, KeyError):
        return False


def _read_trajectory(f: h5py.File, path: str) -> Trajectory:
    warnings: list[str] = []
    file_format = _attribute(f, "format", warnings)
    if file_format not in (None, "routh-trajectory"):
        raise DamagedFileError(f"format is {file_format!r}, not a routh trajectory")
    time, q, v, energy = (
        _series(f, "time", 1),
        _series(f, "q", 2),
        _series(f, "v", 2),
        _series(f, "energy", 2),
    )
    ground = _series(f, "ground_acceleration", 2) if "ground_acceleration" in f else None
    kind = _series(f, "sample_kind", 1) if "sample_kind" in f else None
    series = [time, q, v, energy] + [s for s in (ground, kind) if s is not None]
    rows = min(s.shape[0] for s in series)
    if any(s.shape[0] != rows for s in series):
        lengths = ", ".join(f"{s.name} {s.shape[0]}" for s in series)
        warnings.append(f"series differ in length ({lengths}); using the first {rows}")
    times = time[:rows]
    # a writer killed inside an append leaves rows that read as the fill value, NaN
    written = rows
    while written > 0 and np.isnan(times[written - 1]):
        written -= 1
    if written < rows:
        warnings.append(
            f"the last {rows - written} rows were never written (the writer died while "
            f"appending them); using the first {written}"
        )
    events, event_units, contact_names = _event_table(f.get("events"), warnings)
    summary = _attributes(f["summary"], warnings) if isinstance(f.get("summary"), h5py.Group) else {}
    model_text = _optional_text(f, "model")
    try:
        model = json.loads(model_text) if model_text else None
    except ValueError as error:
        warnings.append(f"/model is not JSON ({error})")
        model = None
    status = _attribute(f, "status", warnings, unreadable=_UNFINISHED)
    status_detail = _attribute(f, "status_detail", warnings)
    if status == _UNFINISHED and status_detail is None:
        status_detail = "its status cannot be read: the writer died while closing the file"
    format_version = _attribute(f, "format_version", warnings)
    attributes = _attributes(f, warnings)
    return Trajectory(
        path=path,
        time=times[:written],
        q=q[:written],
        v=v[:written],
        energy=energy[:written],
        names=hdf5_texts(q.attrs.get("names", [])),
        v_names=hdf5_texts(v.attrs.get("names", [])),
        q_units=hdf5_texts(q.attrs.get("units", [])),
        v_units=hdf5_texts(v.attrs.get("units", [])),
        energy_names=hdf5_texts(energy.attrs.get("names", ["kinetic", "potential", "total"])),
        ground_acceleration=None if ground is None else ground[:written],
        events=events,
        event_units=event_units,
        contact_names=contact_names,
        summary=summary,
        scenario=_optional_text(f, "scenario") or "",
        status=status,
        status_detail=status_detail,
        law=_attribute(f, "law", warnings),
        routh_version=_attribute(f, "routh_version", warnings),
        format_version=None if format_version is None else int(format_version),
        model=model,
        sample_kind=None if kind is None else kind[:written],
        attributes=attributes,
        warnings=list(dict.fromkeys(warnings)),  # each once: some attributes are read twice
    )
