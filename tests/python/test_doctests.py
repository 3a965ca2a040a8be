"""Every example in the routh package's docstrings runs and prints what it shows (doctest), from
the repository's root, where the examples' paths (scenarios/rocking_block.yaml) lead."""

import doctest
import importlib
import pkgutil

import pytest
import routh
from conftest import SOURCE_DIR

MODULES = sorted(
    info.name
    for info in pkgutil.iter_modules(routh.__path__, "routh.")
    if not info.name.startswith("routh._")
)


def test_the_package_has_examples():
    examples = 0
    finder = doctest.DocTestFinder()
    for name in MODULES:
        examples += sum(len(test.examples) for test in finder.find(importlib.import_module(name)))
    assert examples >= 20


@pytest.mark.parametrize("name", ["routh", *MODULES])
def test_docstring_examples_run(name, monkeypatch):
    monkeypatch.chdir(SOURCE_DIR)
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(module):
        runner.run(test)
    failed, attempted = runner.summarize(verbose=False)
    assert failed == 0, f"{failed} of {attempted} examples of {name} failed (printed above)"
