"""`cmake --install BUILD --component python --prefix PREFIX` (docs/python.md) gives a package
that imports from PREFIX's site-packages and works, the compiled module included."""

import os
import subprocess
import sys


def test_install_into_a_prefix(tmp_path):
    prefix = tmp_path / "prefix"
    subprocess.run(
        [os.environ["ROUTH_CMAKE"], "--install", os.environ["ROUTH_BUILD_DIR"],
         "--component", "python", "--prefix", str(prefix)],
        check=True, capture_output=True, text=True,
    )
    site = prefix / os.environ["ROUTH_PYTHON_INSTALL_DIR"]
    installed = sorted(p.name for p in (site / "routh").iterdir())
    assert "__init__.py" in installed and "trajectory.py" in installed
    assert any(name.startswith("_core") and name.endswith(".so") for name in installed)
    script = (
        "import routh; print(routh.__file__); "
        "print(routh.solve_impact('poisson', D=[[1.0, 0.0], [0.0, 1.0]], u=[-1.0, 0.0], "
        "restitution=0.5, friction=0.3)['impulse'][0])"
    )
    environment = dict(os.environ, PYTHONPATH=str(site))
    result = subprocess.run([sys.executable, "-c", script], env=environment, cwd=tmp_path,
                            capture_output=True, text=True, check=True)
    location, impulse = result.stdout.split()
    assert location == str(site / "routh" / "__init__.py")
    assert float(impulse) == 1.5  # Γ_n = (1 + e) |u_n| / D_nn


def test_the_install_dir_is_the_user_site_relative_to_the_user_base():
    import site

    expected = os.path.relpath(site.getusersitepackages(), site.getuserbase())
    assert os.environ["ROUTH_PYTHON_INSTALL_DIR"] == expected
