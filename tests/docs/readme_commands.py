"""Runs every command of the README's shell code blocks, in order, as a reader would.

The convention (README.md, "How the README is tested"):

- Every line of a fenced block opened with ```sh is a command, run by bash in the order the
  README gives them. A line ending in a backslash continues on the next; blank lines and lines
  starting with # are skipped.
- A block right after the line <!-- docs-test: skip --> is not run: the set-up commands that
  install packages or build, the commands that need MPI or take minutes, and the exports of the
  tour, which this script sets itself, and the venv's activation, which PATH stands for.
- Commands run in a scratch folder holding a copy of the repository's scenarios/ and tools/
  folders and the build as build/release (a link), with the build's routh on PATH and no
  PYTHONPATH. The README's own commands make a venv, .venv, and install the build's wheel into
  it; .venv/bin comes first on PATH, as `. .venv/bin/activate` would put it, so `python` is the
  venv's once it exists, as for a reader who activated it.
- Then the first command of each module of the package (`python -m routh.plot`, ...) and the
  first `python -c` run once more, with `python` meaning --python (by default /usr/bin/python3,
  Debian's, with numpy and matplotlib) and PYTHONPATH at the build's python folder: the package
  straight from the build tree, without the venv. Their -o files are removed first.
- Each command must exit with 0, and after a command that names an output file with -o, that
  file must exist.

ctest runs it as the test readme_commands, and on the pages of docs/ that follow the same
convention (docs/first_hour.md, docs/impact_laws_explained.md) as docs_commands.PAGE: --readme
names the page, and the scratch folder copies the folders of the repository that holds it. By
hand, from the build folder:

    /usr/bin/python3 ../../tests/docs/readme_commands.py --readme ../../README.md \
        --routh tools/routh/routh --python-dir python
"""

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

SKIP_MARKER = "<!-- docs-test: skip -->"


def readme_commands(readme_text):
    """The commands of the README's ```sh blocks not marked to skip, with their line numbers."""
    commands = []
    lines = readme_text.splitlines()
    in_block = False
    skip_block = False
    previous = ""
    pending = None
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not in_block:
            if stripped.startswith("```"):
                in_block = True
                skip_block = stripped != "```sh" or previous == SKIP_MARKER
            if stripped:
                previous = stripped
            continue
        if stripped.startswith("```"):
            in_block = False
            previous = stripped
            continue
        if skip_block or (pending is None and (not stripped or stripped.startswith("#"))):
            continue
        start, text = (number, stripped) if pending is None else (pending[0],
                                                                  pending[1] + " " + stripped)
        if text.endswith("\\"):
            pending = (start, text[:-1].rstrip())
        else:
            commands.append((start, text))
            pending = None
    return commands


def output_files(command):
    """The files a command names with -o."""
    words = shlex.split(command, comments=True)
    return [words[i + 1] for i, word in enumerate(words[:-1]) if word == "-o"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--readme", required=True)
    parser.add_argument("--routh", required=True, help="the built routh program")
    parser.add_argument("--python-dir", required=True, help="the build's python folder")
    parser.add_argument("--python", default="/usr/bin/python3",
                        help="the python of the second run of the Python commands")
    arguments = parser.parse_args()

    readme = os.path.abspath(arguments.readme)
    repository = os.path.dirname(readme)
    while not os.path.isdir(os.path.join(repository, "scenarios")):  # a page in docs/
        if os.path.dirname(repository) == repository:
            print(f"{readme}: no repository (a folder with scenarios/) holds it", file=sys.stderr)
            return 1
        repository = os.path.dirname(repository)
    page = os.path.relpath(readme, repository)
    with open(readme, encoding="utf-8") as file:
        commands = readme_commands(file.read())
    if not commands:
        print(f"{readme}: no ```sh command to run", file=sys.stderr)
        return 1

    scratch = tempfile.mkdtemp(prefix="routh_readme_")
    try:
        for folder in ("scenarios", "tools"):
            shutil.copytree(os.path.join(repository, folder), os.path.join(scratch, folder),
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        os.mkdir(os.path.join(scratch, "build"))
        build = os.path.dirname(os.path.abspath(arguments.python_dir))
        os.symlink(build, os.path.join(scratch, "build", "release"))
        tools_bin = os.path.join(scratch, ".bin")
        os.mkdir(tools_bin)
        os.symlink(os.path.abspath(arguments.routh), os.path.join(tools_bin, "routh"))
        environment = dict(os.environ)
        environment.pop("PYTHONPATH", None)
        environment.pop("VIRTUAL_ENV", None)
        environment["PATH"] = os.pathsep.join(
            [os.path.join(scratch, ".venv", "bin"), tools_bin, environment.get("PATH", "")])
        environment["MPLBACKEND"] = "Agg"
        # the second run of the Python commands: --python as python, the build's package
        debian_bin = os.path.join(scratch, ".debian")
        os.mkdir(debian_bin)
        os.symlink(os.path.abspath(arguments.python), os.path.join(debian_bin, "python"))
        debian = dict(environment, PYTHONPATH=os.path.abspath(arguments.python_dir))
        debian["PATH"] = os.pathsep.join([debian_bin, tools_bin, os.environ.get("PATH", "")])
        python_commands = []
        for number, command in commands:
            module = " ".join(command.split()[:3])  # python -m routh.plot, python -c ...
            if command.startswith(("python -m routh", "python -c")) and not any(
                    c.startswith(module) for _, c, _, _ in python_commands):
                python_commands.append((number, command, debian, f"{arguments.python}: "))

        failures = []
        runs = [(number, command, environment, "") for number, command in commands]
        for number, command, env, label in runs + python_commands:
            if label:  # the second run writes its outputs again (some refuse to replace them)
                for name in output_files(command):
                    if os.path.exists(os.path.join(scratch, name)):
                        os.remove(os.path.join(scratch, name))
            started = time.monotonic()
            run = subprocess.run(["bash", "-c", command], cwd=scratch, env=env,
                                 stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                 check=False)
            seconds = time.monotonic() - started
            missing = [name for name in output_files(command)
                       if not os.path.exists(os.path.join(scratch, name))]
            ok = run.returncode == 0 and not missing
            print(f"{page}:{number}: {'ok  ' if ok else 'FAIL'} {seconds:6.2f} s  "
                  f"{label}{command}")
            if not ok:
                detail = f"exit code {run.returncode}"
                if missing:
                    detail += f", no {', '.join(missing)}"
                output = (run.stdout + run.stderr).strip()
                print(f"    {detail}\n" + "\n".join("    " + l for l in output.splitlines()[-15:]))
                failures.append(f"{page}:{number}: {label}{command} ({detail})")
        if failures:
            print(f"\n{len(failures)} of {len(runs + python_commands)} {page} commands failed:",
                  file=sys.stderr)
            for failure in failures:
                print("  " + failure, file=sys.stderr)
            return 1
        print(f"\nall {len(commands)} {page} commands ran, and the {len(python_commands)} "
              f"Python ones again with {arguments.python} (scratch folder {scratch})")
        return 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
