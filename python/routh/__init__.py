"""routh from Python: run scenarios, solve single impacts and read trajectory files.

``load`` (reading a trajectory file) and ``load_sweep`` (a sweep's table, as a pandas DataFrame)
are pure Python; ``run``, ``solve_impact``, ``impact``, ``compare``, ``laws`` and ``fragility``
(a sweep table's fragility curve; ``plot_fragility`` draws it) call the compiled
``routh._core``, imported on first use, so that ``routh.load`` also works from the source tree's
python/ directory; a Python that cannot import it runs the ``routh`` program instead
(routh._program). ``sweep`` runs ``routh sweep``. See docs/python.md.
"""

from routh import _environment

try:
    from routh.api import compare, impact, laws, load_sweep, run, solve_impact
    from routh.studies import FragilityResult, fragility, plot_fragility
    from routh.sweeps import sweep
    from routh.trajectory import DamagedFileError, Trajectory, load
except ModuleNotFoundError as error:
    # numpy, h5py or pandas missing: say which Python lacks them and how to get them
    if _environment.is_required(error):
        raise _environment.missing_dependency(error) from None
    raise

__all__ = [
    "DamagedFileError",
    "FragilityResult",
    "InputError",
    "Trajectory",
    "compare",
    "fragility",
    "impact",
    "laws",
    "load",
    "load_sweep",
    "plot_fragility",
    "run",
    "solve_impact",
    "sweep",
]


def __getattr__(name: str):
    # InputError(ValueError) and the version come from the backend, chosen on first use
    if name in ("InputError", "__version__"):
        from routh.api import _core

        return getattr(_core(), name)
    raise AttributeError(f"module 'routh' has no attribute {name!r}")
