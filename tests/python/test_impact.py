"""routh.solve_impact, routh.impact, routh.compare and routh.laws against `routh impact`,
`routh compare --json` and `routh laws`, for every law on every shipped problem."""

import math
import re

import numpy
import pytest
import routh
import yaml
from conftest import PROBLEMS, routh_cli, routh_cli_json

LAW_NAMES = [law["name"] for law in routh.laws()]
PROBLEM_KEYS = ("D", "u", "M", "J", "v", "restitution", "friction", "dimension")


def test_laws_are_the_programs():
    lines = routh_cli("laws").stdout.splitlines()
    assert [line.split()[0] for line in lines] == LAW_NAMES
    for law, line in zip(routh.laws(), lines):
        assert line.split(None, 1)[1].startswith(law["scope"])
        assert line.endswith(law["summary"])


@pytest.mark.parametrize("problem", PROBLEMS, ids=lambda path: path.stem)
@pytest.mark.parametrize("law", LAW_NAMES)
def test_solve_impact_answers_as_the_program(problem, law):
    expected = routh_cli_json("impact", problem, "--law", law)
    keys = yaml.safe_load(problem.read_text())
    answer = routh.solve_impact(law, **{k: keys[k] for k in PROBLEM_KEYS if k in keys})
    assert answer == expected
    assert routh.impact(problem, law=law) == expected


def test_the_answer_is_the_known_one():
    # paper 004 §6, eqs. 58–59: Poisson's impulse (0.728, 0.1968)
    answer = routh.solve_impact(
        "poisson", D=[[2.5, -1.5], [-1.5, 2.5]], u=[-1, 0.6], restitution=0.82,
        friction={"static": 0.73, "kinetic": 0.7},
    )
    assert answer["status"] == "solved"
    assert answer["impulse"] == pytest.approx([0.728, 0.1968], abs=1e-4)


@pytest.mark.parametrize("problem", PROBLEMS, ids=lambda path: path.stem)
def test_compare_answers_as_the_program(problem):
    assert routh.compare(problem) == routh_cli_json("compare", problem, "--json")
    two = ["poisson", "newton"]
    assert routh.compare(problem, laws=two) == routh_cli_json(
        "compare", problem, "--json", "--laws", ",".join(two)
    )
    keys = yaml.safe_load(problem.read_text())
    from_keys = routh.compare({k: keys[k] for k in PROBLEM_KEYS if k in keys})
    assert from_keys["results"] == routh_cli_json("compare", problem, "--json")["results"]


def test_a_bad_argument_is_located_in_its_line():
    with pytest.raises(routh.InputError) as raised:
        routh.solve_impact("poisson", D=[[1.0, 0.0], [0.0, 1.0]], u=[-1.0, 0.0],
                           restitution=1.5, friction=0.5)
    error = raised.value
    assert error.file == "routh.solve_impact"
    # one key a line, in the order law, D, u, restitution: restitution's line
    assert error.line == 4
    assert error.column > 0
    assert str(error).startswith(f"routh.solve_impact:4:{error.column}: ")


def test_an_unknown_law_is_an_input_error():
    with pytest.raises(routh.InputError, match="posson"):
        routh.solve_impact("posson", D=[[1.0, 0.0], [0.0, 1.0]], u=[-1.0, 0.0],
                           restitution=0.5, friction=0.5)


@pytest.mark.parametrize(
    "bad, spelled", [(math.nan, ".nan"), (math.inf, ".inf"), (-math.inf, "-.inf")]
)
def test_a_non_finite_argument_is_refused_as_a_number(bad, spelled):
    # json.dumps would write NaN and Infinity, which YAML reads as strings: the error then named
    # a string where the caller passed a float
    with pytest.raises(routh.InputError, match=rf"u\[0\] = {re.escape(spelled)}: must be finite"):
        routh.solve_impact("poisson", D=numpy.eye(2), u=numpy.array([bad, 0.1]),
                           restitution=0.5, friction=0.3)
    with pytest.raises(routh.InputError, match=r"must be finite"):
        routh.compare({"D": [[1.0, 0.0], [0.0, 1.0]], "u": [-1.0, bad], "restitution": 0.5,
                       "friction": 0.3})
