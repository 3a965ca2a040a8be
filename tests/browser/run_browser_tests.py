"""The browser tests of routh's viewer (test_viewer.py), or the reason they cannot run.

    run_browser_tests.py [PYTEST ARGUMENTS]      e.g. -k every_shipped

ctest runs this file. It needs node, Chromium (Debian's `chromium`; ROUTH_CHROMIUM names another
executable) and the viewer's npm packages and bundle, which the build makes when it finds npm
(target routh_viewer). When one is missing it prints what and how to get it and exits with 77,
which ctest reports as a skipped test, not a passed one.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

SKIPPED = 77


def missing() -> list[str]:
    reasons = []
    if not shutil.which("node"):
        reasons.append("node is not installed (Debian: apt-get install nodejs npm)")
    chromium = os.environ.get("ROUTH_CHROMIUM") or shutil.which("chromium") or ""
    if not (chromium and os.access(chromium, os.X_OK)):
        reasons.append("Chromium is not installed (Debian: apt-get install chromium; or set "
                       "ROUTH_CHROMIUM to a Chromium or Chrome executable)")
    modules = os.environ.get("ROUTH_VIEWER_MODULES", "")
    if not (modules and (Path(modules) / "playwright-core").is_dir()):
        reasons.append("the viewer's npm packages are not installed: configure with npm found "
                       "(ROUTH_VIEWER=ON) and build the target routh_viewer")
    bundle = Path(os.environ.get("PYTHONPATH", ".").split(os.pathsep)[0]) / "routh" / "viewer"
    if not (bundle / "viewer.js").is_file():
        reasons.append(f"the viewer's bundle {bundle / 'viewer.js'} is not built (target "
                       "routh_viewer)")
    return reasons


def main() -> int:
    reasons = missing()
    if reasons:
        print("SKIPPED: the viewer's browser tests cannot run here:")
        for reason in reasons:
            print(f"  - {reason}")
        return SKIPPED
    test = Path(__file__).with_name("test_viewer.py")
    return subprocess.call([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                            str(test), *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
