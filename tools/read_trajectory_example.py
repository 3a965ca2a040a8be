#!/usr/bin/env python3
"""Load a routh trajectory (HDF5, format "routh-trajectory" v1) with h5py, and pandas if present.

    python3 tools/read_trajectory_example.py out.h5

Layout: /time (N), /q and /v (N, n) with attrs names/units, /energy (N, 3), /events (compound
table), /scenario (YAML text); root attrs format, format_version, routh_version, law. See
sim/recorder/trajectory_recorder.hpp. Text inside datasets comes back as bytes: decode it.
"""
import sys

import h5py
import numpy as np


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def load(path):
    with h5py.File(path, "r") as f:
        if f.attrs.get("format") != "routh-trajectory":
            raise SystemExit(f"{path}: not a routh trajectory")
        t = f["time"][:]
        # rows of an append interrupted by a crash read as NaN: keep the written ones
        written = int(np.flatnonzero(~np.isnan(t))[-1] + 1) if np.any(~np.isnan(t)) else 0
        run = {
            "law": f.attrs["law"],
            "scenario": text(f["scenario"][()]),
            "t": t[:written],
            "q": f["q"][:written],
            "v": f["v"][:written],
            "energy": f["energy"][:written],
            "names": [text(n) for n in f["q"].attrs["names"]],
            "units": [text(u) for u in f["q"].attrs["units"]],
            "contact_names": [text(n) for n in f["events"].attrs["contact_names"]],
            "events": f["events"][:],  # numpy structured array
        }
    return run


def events_frame(events):
    """/events as a pandas DataFrame: text columns decoded, vector columns as numpy arrays."""
    import pandas as pd

    columns = {}
    for name in events.dtype.names:
        column = events[name]
        if column.dtype.kind == "O" and len(column) and isinstance(column[0], bytes):
            column = [text(value) for value in column]
        columns[name] = list(column) if np.asarray(column).dtype.kind == "O" else column
    return pd.DataFrame(columns)


def main():
    run = load(sys.argv[1])
    t = run["t"]
    print(f"law {run['law']}, {len(t)} samples" + (f" from {t[0]} to {t[-1]} s" if len(t) else ""))
    for j, (name, unit) in enumerate(zip(run["names"], run["units"])):
        print(f"  q[{j}] = {name} [{unit}]" + (f": {run['q'][0, j]} at the start" if len(t) else ""))
    try:
        frame = events_frame(run["events"])
    except ImportError:
        print(run["events"])
        return
    print(frame[["t", "kind", "contacts", "delta_T", "flags", "status"]])
    print(frame["kind"].value_counts())
    impacts = frame[frame.kind == "impact"]
    if len(impacts):
        print("first impact: Gamma =", impacts.iloc[0]["impulse"], "u+ =", impacts.iloc[0]["u_post"])


if __name__ == "__main__":
    main()
