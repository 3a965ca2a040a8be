"""A ground-motion record and its response spectrum, as routh reads and measures them.

    python3 -m routh.record FILE -o out.png [--units g|m/s2|cm/s2|gal] [--damping 0.05]

FILE is a record file as a scenario's ``record`` reads it: PEER .AT2, ESM, K-NET, COSMOS V2 or
two columns of time [s] and acceleration (docs/excitation.md, "Record files"). The picture has four panels: the ground acceleration, velocity and displacement
(integrated from rest, no baseline correction) against time, and the pseudo-spectral acceleration
Sa(T) of a damped linear oscillator for periods from 0.05 s to 4 s. Its title gives the intensity
measures that ``routh record FILE`` prints. The numbers come from routh's own C++ code
(routh._core, or the routh program), the same that scales records in scenarios (``scale_to``).
"""

from __future__ import annotations

import argparse
import math
import sys

import numpy as np

G = 9.80665  # the standard gravity of PEER's "units of g" [m/s^2]
PERIODS = np.geomspace(0.05, 4.0, 120)  # the spectrum's periods [s]


def read(path, units: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The record at ``path``: times [s] and accelerations [m/s^2]. ``units`` ("g", "m/s2",
    "cm/s2" or "gal") is a two-column file's unit (default m/s^2); a file whose header states its
    unit is read in it, and a ``units`` that contradicts it is an error."""
    from routh.api import _core

    time, acceleration = _core().read_record(str(path), units)
    return np.asarray(time), np.asarray(acceleration)


def measures(time, acceleration) -> dict:
    """PGA [m/s^2], PGV [m/s], PGD [m], Arias intensity [m/s], CAV [m/s] and D5-95 [s], keyed
    pga, pgv, pgd, arias, cav, d5_95 (docs/excitation.md, "Intensity measures and scaling")."""
    from routh.api import _core

    return _core().intensity_measures(list(map(float, time)), list(map(float, acceleration)))


def velocity_displacement(time, acceleration) -> tuple[np.ndarray, np.ndarray]:
    """The ground velocity [m/s] and displacement [m] at each sample, from rest."""
    from routh.api import _core

    velocity, displacement = _core().ground_velocity_displacement(
        list(map(float, time)), list(map(float, acceleration))
    )
    return np.asarray(velocity), np.asarray(displacement)


def spectrum(time, acceleration, periods=PERIODS, damping: float = 0.05) -> np.ndarray:
    """Sa [m/s^2] at each period [s] for the damping ratio ``damping``."""
    from routh.api import _core

    return np.asarray(
        _core().response_spectrum(
            list(map(float, time)),
            list(map(float, acceleration)),
            list(map(float, periods)),
            float(damping),
        )
    )


def plot_record(time, acceleration, title: str = "", damping: float = 0.05):
    """A matplotlib Figure of the record's acceleration, velocity, displacement and Sa spectrum.
    It is built without pyplot: the caller's backend is left as it is."""
    from matplotlib.figure import Figure

    velocity, displacement = velocity_displacement(time, acceleration)
    sa = spectrum(time, acceleration, PERIODS, damping)
    m = measures(time, acceleration)
    figure = Figure(figsize=(9, 10), layout="constrained")
    axes = figure.subplots(4, 1)
    for panel, values, label in (
        (axes[0], acceleration, "acceleration [m/s²]"),
        (axes[1], velocity, "velocity [m/s]"),
        (axes[2], displacement, "displacement [m]"),
    ):
        panel.plot(time, values, lw=0.7)
        panel.set_xlabel("time [s]")
        panel.set_ylabel(label)
        panel.grid(alpha=0.3)
    axes[3].plot(PERIODS, sa, lw=1.2)
    axes[3].set_xscale("log")
    axes[3].set_xlabel("period T [s]")
    axes[3].set_ylabel(f"Sa(T, ζ = {damping:g}) [m/s²]")
    axes[3].grid(alpha=0.3, which="both")
    figure.suptitle(
        f"{title}\nPGA {m['pga']:.3g} m/s² ({m['pga'] / G:.3g} g), PGV {m['pgv']:.3g} m/s, "
        f"PGD {m['pgd']:.3g} m, Arias {m['arias']:.3g} m/s, CAV {m['cav']:.3g} m/s, "
        f"D5–95 {m['d5_95']:.3g} s",
        fontsize=9,
    )
    return figure


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", help="a record file (PEER, ESM, K-NET, COSMOS V2, two columns)")
    parser.add_argument("-o", "--output", required=True, help="the picture to write (.png, .pdf)")
    parser.add_argument("--units", choices=("g", "m/s2", "cm/s2", "gal"),
                        help="a two-column file's unit (default m/s2)")
    parser.add_argument("--damping", type=float, default=0.05, help="Sa's damping ratio")
    arguments = parser.parse_args(argv)
    if not (0.0 <= arguments.damping < 1.0) or math.isnan(arguments.damping):
        parser.error("--damping must be in [0, 1)")
    from routh.api import _core

    try:
        time, acceleration = read(arguments.file, arguments.units)
    except _core().InputError as error:
        sys.exit(f"routh.record: {error}")
    figure = plot_record(time, acceleration, arguments.file, arguments.damping)
    figure.savefig(arguments.output, dpi=120)
    print(f"wrote {arguments.output}")


if __name__ == "__main__":
    main()
