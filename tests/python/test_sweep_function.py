"""routh.sweep runs ``routh sweep`` and returns its table: the same table as the command's for a
sweep file; a dict or YAML text with its base relative to the working directory; overrides as
fixed values of every run; the output protected as the command protects it; errors located; and
its docstring's example runs as a doctest."""

import doctest

import pandas as pd
import pytest

import routh
import routh.sweeps
from conftest import SOURCE_DIR, routh_cli

BALL_SWEEP = SOURCE_DIR / "scenarios" / "sweeps" / "ball_restitution.yaml"
SWEPT = "contact.restitution"


def test_a_sweep_file_gives_the_commands_table(tmp_path):
    routh_cli("sweep", BALL_SWEEP, "-o", tmp_path / "cli.h5")
    table = routh.sweep(BALL_SWEEP, threads=1)
    pd.testing.assert_frame_equal(table, routh.load_sweep(tmp_path / "cli.h5"), check_exact=True)
    assert list(table[SWEPT]) == pytest.approx([0.5, 0.6, 0.7, 0.8, 0.9], abs=1e-15)


def test_a_dict_or_text_with_overrides(tmp_path, monkeypatch):
    monkeypatch.chdir(SOURCE_DIR)  # the base is relative to the working directory
    keys = {"base": "scenarios/bouncing_ball.yaml", "grid": {SWEPT: [0.6, 0.8]}}
    table = routh.sweep(keys, {"duration": 0.75})
    assert list(table[SWEPT]) == [0.6, 0.8] and list(table["run"]) == [0, 1]
    # the override is every run's duration: none simulates past it, the ball still bounces
    assert (table["final_time"] <= 0.75).all() and (table["final_time"] == 0.75).any()
    text = f"base: scenarios/bouncing_ball.yaml\ngrid:\n  {SWEPT}: [0.6, 0.8]\n"
    from_text = routh.sweep(text, ["duration=0.75"])
    pd.testing.assert_frame_equal(from_text, table, check_exact=True)
    # one line of flow YAML is text too, as routh.run tells text from a path
    one_line = f"{{base: scenarios/bouncing_ball.yaml, grid: {{{SWEPT}: [0.6, 0.8]}}}}"
    assert "\n" not in one_line
    pd.testing.assert_frame_equal(routh.sweep(one_line, ["duration=0.75"]), table,
                                  check_exact=True)
    # a file's base stays relative to the file's folder when overrides rewrite it
    monkeypatch.chdir(tmp_path)
    assert len(routh.sweep(BALL_SWEEP, {"duration": 0.75})) == 5


def test_override_texts_are_yaml_as_routh_run_reads_them(monkeypatch):
    monkeypatch.chdir(SOURCE_DIR)
    keys = {"base": "scenarios/bouncing_ball.yaml", "grid": {SWEPT: [0.6]}}
    # a str value is YAML text, as --set reads it: here a map, not a string
    friction = "{static: 0.5, kinetic: 0.4}"
    for overrides in ([f"contact.friction={friction}", "duration=0.3"],
                      {"contact.friction": friction, "duration": 0.3}):
        table = routh.sweep(keys, overrides)
        assert list(table["status"]) == ["completed"] and list(table["final_time"]) == [0.3]


def test_the_output_is_kept_and_protected(tmp_path):
    output = tmp_path / "table.h5"
    first = routh.sweep(BALL_SWEEP, output=output)
    assert output.exists() and routh.load_sweep(output).equals(first)
    with pytest.raises(FileExistsError, match="force=True"):
        routh.sweep(BALL_SWEEP, output=output)
    assert len(routh.sweep(BALL_SWEEP, output=output, force=True)) == 5


def test_a_bad_sweep_is_located(tmp_path, monkeypatch):
    monkeypatch.chdir(SOURCE_DIR)
    with pytest.raises(routh.InputError) as raised:
        routh.sweep({"base": "scenarios/bouncing_ball.yaml", "grid": {"contact.restitutio": [1]}})
    assert raised.value.file == "routh.sweep" and raised.value.line == 2
    assert "did you mean 'restitution'?" in raised.value.message


def test_the_docstring_example_runs(monkeypatch):
    monkeypatch.chdir(SOURCE_DIR)
    result = doctest.testmod(routh.sweeps)
    assert result.attempted >= 3 and result.failed == 0
