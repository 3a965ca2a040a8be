"""The notebook API: routh.run on YAML text and dicts (the same run as the file's, errors located
in the text), samples with a unique index, event columns by contact name, and one simulated
impact exported as a problem that routh.compare answers as the simulation did."""

import json
import math
import os
import pathlib
import re
import shutil

import numpy as np
import pandas as pd
import pytest
import routh
from conftest import SOURCE_DIR, routh_cli
from routh.api import _core
from test_run import assert_same_run

BALL = SOURCE_DIR / "scenarios" / "bouncing_ball.yaml"
ROD = SOURCE_DIR / "scenarios" / "falling_rod.yaml"


def test_text_runs_as_its_file():
    expected = routh.run(BALL, {"duration": 1})
    trajectory = routh.run(BALL.read_text(), {"duration": 1})
    assert_same_run(trajectory, expected)
    assert trajectory.path is None


def test_a_dict_runs_as_the_yaml_it_stands_for(tmp_path):
    scenario = {
        "name": "dropped ball",
        "duration": 1,
        "model": {"type": "ball", "radius": 0.1, "mass": 1},
        "initial": {"q": {"y": 1}, "v": {"x": 0.5}},
        "contact": {"law": "poisson", "restitution": 0.5,
                    "friction": {"static": 0.3, "kinetic": 0.2}},
    }
    text = (
        "name: dropped ball\nduration: 1\nmodel: {type: ball, radius: 0.1, mass: 1}\n"
        "initial: {q: {y: 1}, v: {x: 0.5}}\n"
        "contact: {law: poisson, restitution: 0.5, friction: {static: 0.3, kinetic: 0.2}}\n"
    )
    file = tmp_path / "dropped.yaml"
    file.write_text(text)
    expected = routh.run(file, {"contact.restitution": 0.4})
    trajectory = routh.run(scenario, {"contact.restitution": 0.4})
    assert_same_run(trajectory, expected)
    assert "restitution: 0.4" in trajectory.scenario


def test_path_or_text(tmp_path, monkeypatch):
    # a path-like object is a file; a str is text with a newline, or a ':' naming no file
    monkeypatch.chdir(tmp_path)
    colon = tmp_path / "a:b.yaml"
    shutil.copy(BALL, colon)
    assert routh.run("a:b.yaml", {"duration": 0.1}).time[-1] == 0.1
    assert routh.run(pathlib.Path("a:b.yaml"), {"duration": 0.1}).time[-1] == 0.1
    one_line = ("{duration: 0.1, model: {type: ball, radius: 0.1, mass: 1}, initial: {q: {y: 1}},"
                " contact: {law: poisson, restitution: 0.5, friction: 0}}")
    assert routh.run(one_line).names == ["x", "y", "theta"]
    with pytest.raises(routh.InputError, match="missing.yaml: cannot open the file"):
        routh.run("missing.yaml")
    with pytest.raises(TypeError, match="expected a path, YAML text or a dict"):
        routh.run(42)


def test_errors_are_located_in_the_text_or_the_dict():
    text = ("duration: 1\nmodel: {type: ball, radius: 0.1, mass: 1}\ninitial: {q: {y: 1}}\n"
            "bogus: 1\ncontact: {law: poisson, restitution: 0.5, friction: 0}\n")
    with pytest.raises(routh.InputError) as error:
        routh.run(text)
    assert (error.value.file, error.value.line, error.value.column) == ("<scenario text>", 4, 1)
    assert str(error.value).startswith("<scenario text>:4:1: unknown key 'bogus'")
    # a dict is written one key a line, in its order: the error points at the key it gave
    scenario = {"duration": 1, "model": {"type": "ball", "radius": -0.1, "mass": 1},
                "initial": {"q": {"y": 1}},
                "contact": {"law": "poisson", "restitution": 0.5, "friction": 0}}
    with pytest.raises(routh.InputError) as error:
        routh.run(scenario)
    assert (error.value.file, error.value.line) == ("<scenario dict>", 4)
    assert "radius" in str(error.value)
    with pytest.raises(routh.InputError, match=r"^--set contact.restitution=2: "):
        routh.run(BALL.read_text(), {"contact.restitution": 2})


def test_text_reads_record_files_from_the_current_directory(tmp_path, monkeypatch):
    text = (SOURCE_DIR / "scenarios" / "rocking_block_record.yaml").read_text()
    monkeypatch.chdir(SOURCE_DIR / "scenarios")
    trajectory = routh.run(text, {"duration": 0.2})
    assert trajectory.ground_acceleration is not None
    monkeypatch.chdir(tmp_path)
    with pytest.raises(routh.InputError, match="motions/synthetic_sines.AT2"):
        routh.run(text, {"duration": 0.2})


def test_a_recorded_scenario_runs_again(tmp_path, monkeypatch):
    # /scenario keeps the record files' absolute paths: it runs from anywhere, the same run
    first = routh.run(SOURCE_DIR / "scenarios" / "rocking_block_record.yaml", {"duration": 0.3})
    monkeypatch.chdir(tmp_path)
    again = routh.run(first.scenario)
    assert_same_run(again, first)


def test_a_nameless_text_is_called_scenario(tmp_path):
    text = ("duration: 0.1\nmodel: {type: ball, radius: 0.1, mass: 1}\ninitial: {q: {y: 1}}\n"
            "contact: {law: poisson, restitution: 0.5, friction: 0}\n")
    trajectory = routh.run(text, output=tmp_path / "nameless.h5")
    assert "name: scenario\n" in trajectory.scenario
    assert trajectory.path == str(tmp_path / "nameless.h5")


def test_samples_have_a_unique_index_on_either_side_of_the_events():
    trajectory = routh.run(BALL, {"duration": 1})
    kind = trajectory.sample_kind
    both = trajectory.samples()
    assert not both.index.is_unique  # an event's time appears twice
    assert np.array_equal(both["sample_kind"].to_numpy(), kind)
    before, after = trajectory.samples(side="before"), trajectory.samples(side="after")
    assert before.index.is_unique and after.index.is_unique
    assert list(before.columns) == list(both.columns)
    # at an event's time, before holds the row of kind 1 and after the row of kind 2
    for t in trajectory.events["t"]:
        rows = np.nonzero(trajectory.time == t)[0]
        assert kind[rows[0]] == 1 and kind[rows[-1]] == 2
        assert before.loc[t, "v.y"] == trajectory.v[rows[0], 1]
        assert after.loc[t, "v.y"] == trajectory.v[rows[-1], 1]
    assert set(before["sample_kind"]) == {0, 1} and set(after["sample_kind"]) == {0, 2}
    # so reindexing onto a regular grid works
    grid = np.linspace(0.0, 1.0, 11)
    assert after["q.y"].reindex(grid, method="ffill").notna().all()
    numbered = trajectory.samples(index="sample")
    assert numbered.index.name == "sample" and numbered.index.is_unique
    assert np.array_equal(numbered["time"].to_numpy(), trajectory.time)
    with pytest.raises(ValueError, match="side='left'"):
        trajectory.samples(side="left")


def test_events_name_their_contacts_and_flags():
    trajectory = routh.run(ROD)
    events = trajectory.events
    names = trajectory.contact_names
    for names_text, indices_text in zip(events["contacts"], events["contact_indices"]):
        indices = [int(i) for i in indices_text.split(",") if i]
        assert names_text == ",".join(names[i] for i in indices)
    assert set(events["contacts"]) >= {"left_end", "right_end"}
    assert "flags" not in events.columns
    assert isinstance(events.flags, pd.core.flags.Flags)  # pandas' own, no longer hiding ours
    assert "nonphysical_normal_dissipation" in set(events.flag_names)
    assert trajectory.event_units["flag_names"] == ""


def impact_velocities(trajectory, impact, suffix):
    """The recorded contact velocities (normal, tangential per contact) of an impacts() row."""
    return [impact[f"u_{d}_{suffix}.{name}"] for name in impact["contacts"].split(",")
            for d in ("n", "t")]


def test_an_impact_exported_is_solved_as_the_run_solved_it():
    # the falling rod (paper 004's example): its impacts (the first, then every third), solved again
    # by the run's law from the exported problem gives the impulse and the post-impact contact
    # velocities the simulation recorded
    trajectory = routh.run(ROD)
    impacts = trajectory.impacts()
    assert len(impacts) > 50
    for k, impact in impacts.iloc[::3].iterrows():
        problem = trajectory.impact_problem(k)
        if "," not in impact["contacts"]:
            assert problem["law"] == trajectory.law
        (answer,) = routh.compare(problem, [problem["law"]])["results"]
        names = impact["contacts"].split(",")
        recorded = [impact[f"Gamma_{d}.{name}"] for name in names for d in ("n", "t")]
        scale = max(abs(x) for x in recorded)
        assert np.allclose(answer["impulse"], recorded, rtol=0, atol=1e-9 * scale), k
        u_post = impact_velocities(trajectory, impact, "post")
        assert np.allclose(answer["u_post"], u_post, rtol=0,
                           atol=1e-9 * max(abs(x) for x in u_post)), k
    # u⁻ exported is the file's; J v⁻ at the sample before the impact gives the same
    first = impacts.iloc[0]
    row = np.nonzero(trajectory.time == first["t"])[0][0]
    computed = _core().impact_problem(trajectory.scenario, first["t"], trajectory.q[row],
                                      trajectory.v[row], [0])
    assert first["contacts"] == "left_end"
    assert np.allclose(computed["u"], impact_velocities(trajectory, first, "pre"), rtol=1e-12)
    # D of one contact is symmetric positive definite
    D = np.array(computed["D"])
    assert np.allclose(D, D.T) and np.all(np.linalg.eigvalsh(D) > 0)


def test_a_spatial_impact_of_two_contacts_is_solved_as_the_run_solved_it():
    # the block in space lands on an edge: two corners at once, answered by the multi-contact
    # law, each contact with a normal and two tangential directions
    trajectory = routh.run(SOURCE_DIR / "scenarios" / "rocking_block_3d.yaml", {"duration": 1})
    impacts = trajectory.impacts()
    assert len(impacts) >= 2
    for k, impact in impacts.iterrows():
        problem = trajectory.impact_problem(k)
        names = impact["contacts"].split(",")
        assert len(names) == 2 and problem["dimension"] == 3
        assert np.array(problem["D"]).shape == (6, 6)
        (answer,) = routh.compare(problem, [problem["law"]])["results"]
        recorded = [impact[f"Gamma_{d}.{name}"] for name in names for d in ("n", "t1", "t2")]
        scale = max(abs(x) for x in recorded)
        assert np.allclose(answer["impulse"], recorded, rtol=0, atol=1e-9 * scale), k


def test_the_rod_d_is_the_closed_form():
    # a uniform rod of mass m, length L at angle θ, touching with an end: D = J M⁻¹ Jᵀ with
    # M = diag(m, m, m L²/12) and J the end's velocity rows (normal y, tangent x) in
    # (ẋ, ẏ, θ̇);
    # at θ = π/4, m = L = 1 it is paper 004's [[2.5, −1.5], [−1.5, 2.5]]
    trajectory = routh.run(ROD, {"duration": 0.15})
    impact = trajectory.impacts().iloc[0]
    row = np.nonzero(trajectory.time == impact["t"])[0][0]
    problem = trajectory.impact_problem(0)
    m, L = 1.0, 1.0
    theta = trajectory.q[row, 2]
    # the left end strikes first: at −L/2 along the rod; contact normal +y, tangent +x
    rx, ry = -0.5 * L * math.cos(theta), -0.5 * L * math.sin(theta)
    inertia = m * L**2 / 12
    # velocity of the point: v + ω × r = (vx − ω ry, vy + ω rx); rows n = y, t = x
    jn = np.array([0.0, 1.0, rx])
    jt = np.array([1.0, 0.0, -ry])
    Minv = np.diag([1 / m, 1 / m, 1 / inertia])
    expected = np.array([[jn @ Minv @ jn, jn @ Minv @ jt], [jt @ Minv @ jn, jt @ Minv @ jt]])
    assert np.allclose(problem["D"], expected, rtol=1e-12, atol=0)


def test_a_saved_impact_problem_reads_back_for_routh_compare(tmp_path):
    trajectory = routh.run(ROD, {"duration": 0.15}, output=tmp_path / "rod.h5")
    path = tmp_path / "impact.yaml"
    trajectory.save_impact_problem(0, path)
    problem = trajectory.impact_problem(0)
    from_file = json.loads(routh_cli("compare", path, "--json", "--laws", "poisson").stdout)
    (expected,) = routh.compare(problem, ["poisson"])["results"]
    (answer,) = from_file["results"]
    assert answer["impulse"] == expected["impulse"] and answer["u_post"] == expected["u_post"]
    assert "rod.h5" in problem["description"]
    with pytest.raises(IndexError, match="the run has"):
        trajectory.impact_problem(len(trajectory.impacts()))


def test_help_documents_every_field():
    text = routh.Trajectory.__doc__
    for name in routh.Trajectory.__dataclass_fields__:
        assert f"        {name}:" in text, name
    for name in ("dimension", "incomplete", "units"):
        assert f"        {name}: (property)" in text, name
    for method in ("samples", "impacts", "impact_problem", "save_impact_problem"):
        assert getattr(routh.Trajectory, method).__doc__, method


def test_the_docs_notebook_examples_run(tmp_path, monkeypatch):
    # docs/python.md's "In a notebook" section, its code blocks in order, from the repository's
    # root (where its paths lead), the problem file it saves written to a scratch folder
    text = (SOURCE_DIR / "docs" / "python.md").read_text()
    section = text[text.index("## In a notebook"):text.index("## Bodies in space")]
    code = "\n".join(re.findall(r"```python\n(.*?)```", section, re.S))
    saved = tmp_path / "rod_impact.yaml"
    code = code.replace('"rod_impact.yaml"', repr(str(saved)))
    monkeypatch.chdir(SOURCE_DIR)
    names = {}
    exec(compile(code, "docs/python.md", "exec"), names)
    assert names["problem"]["D"] == [[2.5, -1.5], [-1.5, 2.5]]
    assert names["grid"].notna().all()
    assert "poisson" in [answer["law"] for answer in names["answers"]]
    assert saved.exists()
