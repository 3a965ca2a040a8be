"""Packs the built package folder BUILD/python/routh into a wheel that pip installs offline.

    python3 make_wheel.py --package BUILD/python/routh --version 0.1.0 --output BUILD/python/dist

The wheel, routh-VERSION-py3-none-any.whl, holds every file under the package folder: the Python
modules, the compiled routh._core of the build's Python, routh/_build_paths.py (where the build's
routh program is) and package data such as routh/viewer/. Tagged py3-none-any, it installs into
any Python 3: where the compiled module does not load (another Python version), the package runs
the routh program instead (routh/_program.py). Its dependencies are named in METADATA, so
``pip install --no-index WHEEL`` succeeds only where they are already installed.

A wheel is a zip file with a .dist-info folder (the binary distribution format, PEP 427, and
the core metadata, PEP 566): METADATA, WHEEL, and RECORD listing every file with its SHA-256
and size. The wheel is rewritten only when the package's files changed (one newer than the
wheel, or one added or removed).
"""

import argparse
import base64
import hashlib
import os
import sys
import zipfile

NAME = "routh"
REQUIRES = ("numpy", "h5py", "pandas", "matplotlib")
SUMMARY = "Rigid multibody impacts with friction: run scenarios, solve impacts, read trajectories"


def package_files(package):
    """(path on disk, path in the wheel) of every file under the package folder, sorted."""
    files = []
    parent = os.path.dirname(os.path.abspath(package))
    for folder, subfolders, names in os.walk(package):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
        for name in sorted(names):
            if name.endswith(".pyc"):
                continue
            path = os.path.join(folder, name)
            files.append((path, os.path.relpath(os.path.abspath(path), parent)))
    return files


def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}\n"


def write_wheel(wheel, files, version):
    dist_info = f"{NAME}-{version}.dist-info"
    metadata = (
        f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {version}\nSummary: {SUMMARY}\n"
        "Requires-Python: >=3.9\n" + "".join(f"Requires-Dist: {r}\n" for r in REQUIRES)
    )
    wheel_info = (
        "Wheel-Version: 1.0\nGenerator: routh make_wheel.py\nRoot-Is-Purelib: true\n"
        "Tag: py3-none-any\n"
    )
    record = []
    temporary = wheel + ".part"
    with zipfile.ZipFile(temporary, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, name in files:
            with open(path, "rb") as file:
                data = file.read()
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            # keep the executable bit (the compiled module), as pip restores it
            info.external_attr = (os.stat(path).st_mode & 0o777 | 0o100000) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
            record.append(record_line(name, data))
        for name, text in (("METADATA", metadata), ("WHEEL", wheel_info)):
            archive.writestr(f"{dist_info}/{name}", text)
            record.append(record_line(f"{dist_info}/{name}", text.encode()))
        record.append(f"{dist_info}/RECORD,,\n")
        archive.writestr(f"{dist_info}/RECORD", "".join(record))
    os.replace(temporary, wheel)


def up_to_date(wheel, files):
    """The wheel holds these files (none added or removed) and is newer than each of them."""
    if not os.path.exists(wheel):
        return False
    newest = max([os.stat(path).st_mtime for path, _ in files] + [os.stat(__file__).st_mtime])
    with zipfile.ZipFile(wheel) as archive:
        held = {name for name in archive.namelist() if ".dist-info/" not in name}
    return held == {name for _, name in files} and os.stat(wheel).st_mtime >= newest


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package", required=True, help="the built package folder")
    parser.add_argument("--version", required=True)
    parser.add_argument("--output", required=True, help="the folder of the wheel")
    arguments = parser.parse_args()
    files = package_files(arguments.package)
    if not any(name == f"{NAME}/__init__.py" for _, name in files):
        sys.exit(f"make_wheel.py: {arguments.package} holds no {NAME}/__init__.py")
    os.makedirs(arguments.output, exist_ok=True)
    wheel = os.path.join(arguments.output, f"{NAME}-{arguments.version}-py3-none-any.whl")
    if not up_to_date(wheel, files):
        write_wheel(wheel, files, arguments.version)


if __name__ == "__main__":
    main()
