# The Python interpreter the package (python/) is built for, installed for and tested with, and
# pybind11.

# Debian's interpreter is the one with numpy, pandas and h5py (python3-numpy, ...); a python3 found
# first on PATH (pyenv, a virtualenv) usually lacks them. Preferred when present; choose another
# with -DPython_EXECUTABLE=/path/to/python3.
if(NOT DEFINED Python_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(Python_EXECUTABLE /usr/bin/python3 CACHE FILEPATH
      "Python interpreter of the routh package (built for, installed for, tested with)")
endif()
find_package(Python 3.9 REQUIRED COMPONENTS Interpreter Development.Module)
# pybind11 sees Python found and uses it (its "new" FindPython mode)
find_package(pybind11 2.6 CONFIG REQUIRED)

# Where `cmake --install BUILD --component python --prefix PREFIX` puts the package, relative to
# PREFIX: the interpreter's user site-packages relative to its user base, so that
# --prefix ~/.local lands where `python3 -m site --user-site` points.
execute_process(
  COMMAND "${Python_EXECUTABLE}" -c
          "import os, site; print(os.path.relpath(site.getusersitepackages(), site.getuserbase()))"
  OUTPUT_VARIABLE routh_python_site OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
set(ROUTH_PYTHON_INSTALL_DIR "${routh_python_site}" CACHE PATH
    "Install directory of the Python package, relative to the install prefix")
