"""The wheel BUILD/python/dist/routh-VERSION-py3-none-any.whl (docs/python.md, "Installing"):
a valid wheel of every file of the built package, that pip installs offline into a fresh venv
where the package works from any folder, with either backend; and a Python without numpy and
h5py that imports routh is told which Python it is and how to fix it."""

import base64
import hashlib
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import SOURCE_DIR

BUILD = Path(os.environ["ROUTH_BUILD_DIR"])
(WHEEL,) = (BUILD / "python" / "dist").glob("routh-*-py3-none-any.whl")


def environment(**changes):
    """This process's environment without PYTHONPATH (the venv's own package is tested)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ROUTH_BACKEND")}
    env.update(changes)
    return env


def make_venv(folder, python, *options):
    """A venv of `python` with the wheel installed by its pip, as the README does."""
    subprocess.run([python, "-m", "venv", *options, str(folder)], check=True,
                   capture_output=True)
    python = str(folder / "bin" / "python")
    # --no-index: nothing downloaded; --no-deps: Debian's h5py is registered under another name
    subprocess.run([python, "-m", "pip", "install", "--no-index", "--no-deps", str(WHEEL)],
                   check=True, capture_output=True, env=environment())
    return python


def make_bare_venv(folder, python, *options, compiled=True):
    """A venv of `python` without pip, the wheel unpacked into its site-packages (as pip
    installs a pure wheel): quicker, for a test of the import rather than of pip. Without
    `compiled`, the compiled module is left out, as for a Python it was not built for."""
    subprocess.run([python, "-m", "venv", "--without-pip", *options, str(folder)], check=True,
                   capture_output=True)
    python = str(folder / "bin" / "python")
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          check=True, capture_output=True, text=True).stdout.strip()
    with zipfile.ZipFile(WHEEL) as wheel:
        wheel.extractall(site, [name for name in wheel.namelist()
                                if compiled or not name.startswith("routh/_core")])
    return python


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    """A venv of the Python the package is built for, seeing its numpy, h5py, pandas and
    matplotlib, with the wheel installed."""
    return make_venv(tmp_path_factory.mktemp("venv") / ".venv", sys.executable,
                     "--system-site-packages")


def test_the_wheel_records_every_file_of_the_package():
    built = {str(p.relative_to(BUILD / "python")) for p in (BUILD / "python" / "routh").rglob("*")
             if p.is_file() and "__pycache__" not in p.parts}
    assert "routh/_build_paths.py" in built and any("_core" in name for name in built)
    with zipfile.ZipFile(WHEEL) as wheel:
        names = set(wheel.namelist())
        (dist_info,) = {name.split("/")[0] for name in names if ".dist-info/" in name}
        metadata = wheel.read(f"{dist_info}/METADATA").decode()
        record = wheel.read(f"{dist_info}/RECORD").decode().splitlines()
        assert names - {f"{dist_info}/{n}" for n in ("METADATA", "WHEEL", "RECORD")} == built
        # RECORD: every other file with its urlsafe-base64 SHA-256 and size (PEP 376, 427)
        for line in record:
            name, digest, size = line.rsplit(",", 2)
            if name == f"{dist_info}/RECORD":
                assert digest == size == ""
                continue
            data = wheel.read(name)
            expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            assert digest == "sha256=" + expected.decode() and int(size) == len(data)
        assert {line.rsplit(",", 2)[0] for line in record} == names
    for requirement in ("numpy", "h5py", "pandas", "matplotlib"):
        assert f"Requires-Dist: {requirement}\n" in metadata
    assert "Tag: py3-none-any" in zipfile.ZipFile(WHEEL).read(f"{dist_info}/WHEEL").decode()


SCRIPT = """
import os, sys, routh
from routh.api import _core
print(routh.__file__)
print(_core().__name__)
trajectory = routh.run(sys.argv[1], {"duration": 0.5}, output="ball.h5")
loaded = routh.load("ball.h5")
assert (loaded.q == trajectory.q).all() and trajectory.status == "completed"
print(len(routh.laws()), routh.__version__)
"""


@pytest.mark.parametrize("backend", ["", "program"])
def test_the_installed_package_runs_loads_and_plots(venv, tmp_path, backend):
    env = environment(ROUTH_BACKEND=backend, MPLBACKEND="Agg")
    scenario = str(SOURCE_DIR / "scenarios" / "bouncing_ball.yaml")
    done = subprocess.run([venv, "-c", SCRIPT, scenario], cwd=tmp_path, env=env,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    location, module, laws = done.stdout.splitlines()
    assert location.startswith(str(Path(venv).parent.parent)) and "site-packages" in location
    assert module == ("routh._program" if backend else "routh._core")
    assert int(laws.split()[0]) > 5
    plotted = subprocess.run([venv, "-m", "routh.plot", "ball.h5", "-o", "ball.png"], cwd=tmp_path,
                             env=env, capture_output=True, text=True, check=False)
    assert plotted.returncode == 0, plotted.stderr
    assert (tmp_path / "ball.png").stat().st_size > 1000


def pythons_without_numpy(folder):
    """Pythons that cannot import numpy: a venv of this Python that does not see its packages,
    and python3 on PATH (pyenv's on the CI machine) when it has no numpy."""
    yield make_bare_venv(folder / "isolated", sys.executable)
    on_path = shutil.which("python3", path=environment()["PATH"])
    if on_path and subprocess.run([on_path, "-c", "import numpy"], capture_output=True,
                                  check=False).returncode != 0:
        yield make_bare_venv(folder / "path", on_path)


def test_a_python_without_numpy_is_named_with_the_fix(tmp_path):
    for python in pythons_without_numpy(tmp_path):
        version = subprocess.run([python, "-c", "import sys; print(sys.version.split()[0])"],
                                 capture_output=True, text=True, check=True).stdout.strip()
        for command in ([python, "-c", "import routh; routh.load('x.h5')"],
                        [python, "-m", "routh.plot", "x.h5", "-o", "x.png"]):
            done = subprocess.run(command, cwd=tmp_path, env=environment(), capture_output=True,
                                  text=True, check=False)
            assert done.returncode == 1
            message = done.stderr.strip().splitlines()
            assert message[-5].startswith("ModuleNotFoundError: routh needs numpy, h5py, pandas, "
                                          f"matplotlib; the Python running it, {python} (Python "
                                          f"{version}), has no numpy, h5py, pandas")
            assert message[-4] == f"    {python} -m pip install numpy h5py pandas matplotlib"
            assert message[-2] == ("    /usr/bin/python3 -m venv --system-site-packages .venv "
                                   "&& . .venv/bin/activate")


WITHOUT_CORE = """
import sys, routh
from routh.api import _core
assert _core().__name__ == "routh._program"
try:
    routh.solve_impact("poisson", D=[[1, 0], [0, 1]], u=[-1, 0], restitution=1.5, friction=0.3)
except routh.InputError as error:
    print(error.file, error.line, error.message)
print(routh.run(sys.argv[1], {"duration": 0.5}).status)
"""


def test_without_the_compiled_module_the_program_answers(tmp_path):
    python = make_bare_venv(tmp_path / "venv", sys.executable, "--system-site-packages",
                            compiled=False)
    done = subprocess.run([python, "-c", WITHOUT_CORE,
                           str(SOURCE_DIR / "scenarios" / "bouncing_ball.yaml")],
                          cwd=tmp_path, env=environment(), capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    error, status = done.stdout.splitlines()
    # the restitution is the argument on the problem's fourth line (docs/python.md, "Errors")
    assert error.startswith("routh.solve_impact 4 restitution") and status == "completed"
    # neither the compiled module nor a program: the error names this Python and the way out
    where = "import routh._build_paths as paths; print(paths.__file__)"
    build_paths = subprocess.run([python, "-c", where], cwd=tmp_path, env=environment(),
                                 capture_output=True, text=True, check=True).stdout.strip()
    assert build_paths.startswith(str(tmp_path / "venv"))
    os.remove(build_paths)
    done = subprocess.run([python, "-c", "import routh; routh.laws()"], cwd=tmp_path,
                          env=environment(PATH=str(tmp_path)), capture_output=True, text=True,
                          check=False)
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"ImportError: {python} (Python ") and "routh._core" in last
    assert "no routh program: ROUTH_PROGRAM is not set, there is no routh on PATH" in last
