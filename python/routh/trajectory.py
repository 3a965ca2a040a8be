"""Reading a routh trajectory file (``routh run``'s HDF5 output) into numpy and pandas.

Pure Python (h5py, numpy, pandas): ``routh.load`` works without the compiled module. The file's
layout is documented in sim/recorder/trajectory_recorder.hpp and docs/output.md.

The event table
---------------
``Trajectory.events`` is a pandas DataFrame with one row per event and one column per field:

- ``t`` [s], ``kind``, ``contacts`` (the contact indices as the file has them, e.g. ``"0,1"``),
  ``phases``, ``delta_T``, ``normal_work``, ``tangential_work`` [J], ``flags``, ``status``;
- the impulse and the contact velocities before and after, split per contact and per direction:
  ``Gamma_n.NAME``, ``Gamma_t.NAME`` [N s], ``u_n_pre.NAME``, ``u_t_pre.NAME``,
  ``u_n_post.NAME``, ``u_t_post.NAME`` [m/s], where NAME is the contact's name (``/events``'
  ``contact_names``), e.g. ``Gamma_n.left_corner``. A spatial contact's two tangential directions
  are ``t1`` and ``t2`` (``Gamma_t1.NAME``, ...). A contact has these columns when some event
  involves it, in contact index order; a row whose event does not involve it, or an event without
  impulses (rest, zeno, lift-off, ...), holds NaN there.

``Trajectory.event_units`` gives each column's unit ("" for text).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

import h5py
import numpy as np
import pandas as pd

__all__ = ["Trajectory", "load"]

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
    """One run's trajectory, as recorded in a routh trajectory file.

    Arrays follow the file: ``time`` (N,) [s]; ``q`` and ``v`` (N, n) with column names
    ``names`` and units ``q_units``, ``v_units``; ``energy`` (N, 3) with columns ``energy_names``
    (kinetic, potential, total) [J]; ``ground_acceleration`` (N, 2) [m/s²] for an excited run,
    otherwise None.
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

    @property
    def units(self) -> dict[str, str]:
        """Units of every q and v column, keyed ``q.NAME`` and ``v.NAME``, plus ``time``."""
        units = {"time": "s"}
        units.update({f"q.{n}": u for n, u in zip(self.names, self.q_units)})
        units.update({f"v.{n}": u for n, u in zip(self.names, self.v_units)})
        return units

    def samples(self) -> pd.DataFrame:
        """The samples as one DataFrame indexed by time: columns ``q.NAME``, ``v.NAME``, the
        energies (``kinetic``, ``potential``, ``total``) and, when excited, ``a_g.x``, ``a_g.y``."""
        columns = {f"q.{n}": self.q[:, i] for i, n in enumerate(self.names)}
        columns.update({f"v.{n}": self.v[:, i] for i, n in enumerate(self.names)})
        columns.update({n: self.energy[:, i] for i, n in enumerate(self.energy_names)})
        if self.ground_acceleration is not None:
            columns["a_g.x"] = self.ground_acceleration[:, 0]
            columns["a_g.y"] = self.ground_acceleration[:, 1]
        return pd.DataFrame(columns, index=pd.Index(self.time, name="time"))

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


def _event_table(dataset: h5py.Dataset | None) -> tuple[pd.DataFrame, dict[str, str], list[str]]:
    """The /events table, split per contact (see the module's documentation)."""
    if dataset is None:
        return pd.DataFrame(), {}, []
    contact_names = hdf5_texts(dataset.attrs.get("contact_names", []))
    file_units = hdf5_texts(dataset.attrs.get("units", []))
    units = dict(zip(dataset.dtype.names, file_units))
    rows = dataset[()]
    contacts = [[int(c) for c in hdf5_text(text).split(",") if c] for text in rows["contacts"]]
    involved = sorted({c for event in contacts for c in event})

    columns: dict[str, Any] = {"t": rows["t"].astype(np.float64)}
    column_units = {"t": units.get("t", "s")}
    for name in ("kind", "contacts", "phases"):
        columns[name] = [hdf5_text(v) for v in rows[name]]
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
    for name in ("flags", "status"):
        columns[name] = [hdf5_text(v) for v in rows[name]]
        column_units[name] = ""
    return pd.DataFrame(columns), column_units, contact_names


def _optional_text(group: h5py.Group, name: str) -> str | None:
    """A scalar string dataset or attribute called `name`, or None."""
    if name in group and isinstance(group[name], h5py.Dataset):
        return hdf5_text(group[name][()])
    if name in group.attrs:
        return hdf5_text(group.attrs[name])
    return None


def load(path: str | os.PathLike) -> Trajectory:
    """Reads the trajectory file at `path` (written by ``routh run``, a sweep or ``routh.run``)."""
    with h5py.File(path, "r") as f:
        q = f["q"]
        v = f["v"]
        energy = f["energy"]
        ground = f["ground_acceleration"][()] if "ground_acceleration" in f else None
        events, event_units, contact_names = _event_table(f.get("events"))
        summary = (
            {k: hdf5_text(val) for k, val in f["summary"].attrs.items()} if "summary" in f else {}
        )
        model_text = _optional_text(f, "model")
        format_version = f.attrs.get("format_version")
        return Trajectory(
            path=os.fspath(path),
            time=f["time"][()],
            q=q[()],
            v=v[()],
            energy=energy[()],
            names=hdf5_texts(q.attrs.get("names", [])),
            q_units=hdf5_texts(q.attrs.get("units", [])),
            v_units=hdf5_texts(v.attrs.get("units", [])),
            energy_names=hdf5_texts(energy.attrs.get("names", ["kinetic", "potential", "total"])),
            ground_acceleration=ground,
            events=events,
            event_units=event_units,
            contact_names=contact_names,
            summary=summary,
            scenario=_optional_text(f, "scenario") or "",
            status=_optional_text(f, "status"),
            status_detail=_optional_text(f, "status_detail"),
            law=_optional_text(f, "law"),
            routh_version=_optional_text(f, "routh_version"),
            format_version=None if format_version is None else int(format_version),
            model=json.loads(model_text) if model_text else None,
            sample_kind=f["sample_kind"][()] if "sample_kind" in f else None,
            attributes={k: hdf5_text(val) for k, val in f.attrs.items()},
        )
