"""The docs' pictures can be drawn again. tools/draw_impact_law_pictures.py runs into a scratch
folder and writes the pictures docs/impact_laws_explained.md shows; the impacts it draws are
checked against closed forms and Elkaranshawy & Bajaba's Table 1. tools/draw_body_frames.py
draws docs/body_frames.svg, which docs/models.md shows.
"""

import importlib.util
import xml.etree.ElementTree as ElementTree

import numpy as np
import pytest
from conftest import SOURCE_DIR

SCRIPT = SOURCE_DIR / "tools" / "draw_impact_law_pictures.py"
LAWS = ["newton", "newton_routh", "poisson", "energetic"]


@pytest.fixture(scope="module")
def pictures():
    specification = importlib.util.spec_from_file_location("draw_impact_law_pictures", SCRIPT)
    module = importlib.util.module_from_spec(specification)
    specification.loader.exec_module(module)
    return module


def test_the_script_writes_every_picture_the_page_shows(pictures, tmp_path):
    assert pictures.main(["-o", str(tmp_path)]) == 0
    written = sorted(path.name for path in tmp_path.glob("*.svg"))
    assert written == ["impact_laws_ball.svg", "impact_laws_rod.svg"]
    page = (SOURCE_DIR / "docs" / "impact_laws_explained.md").read_text(encoding="utf-8")
    for name in written:
        assert (SOURCE_DIR / "docs" / name).is_file(), f"docs/{name} is not committed"
        assert f"]({name})" in page
        root = ElementTree.parse(tmp_path / name).getroot()
        assert root.tag.endswith("svg")
        texts = " ".join(element.text or "" for element in root.iter() if element.tag.endswith(
            "text"))
        for law in LAWS:
            assert f"({law})" in texts  # every law's panel is labelled


def test_the_ball_bounces_alike_under_every_law(pictures):
    # Closed form: with D_tn = 0 the normal impulse is (1 + e) m |v_y⁻| whatever friction does;
    # the slip 1.5 + 0.1 × 20 m/s halts within the impact (μ (1 + e) m |v_y⁻| > m |u_t⁻| b⁻¹ m),
    # so the ball leaves rolling: Γ_t = −u_t⁻ / b with b = 7 / (2 m).
    results, D, u_pre = pictures.solve(pictures.BALL)
    mass, radius, e = pictures.BALL_MASS, pictures.BALL_RADIUS, pictures.BALL["restitution"]
    normal = (1 + e) * mass * 2.0
    tangential = -3.5 / (7 / (2 * mass))
    for law in LAWS:
        result = results[law]
        assert result["impulse"] == pytest.approx([normal, tangential], abs=1e-12)
        v_x, v_y, spin = result["v_post"]
        assert v_y == pytest.approx(e * 2.0, abs=1e-12)
        assert v_x + radius * spin == pytest.approx(0.0, abs=1e-12)  # rolling
        path = pictures.impulse_path(result, D, u_pre, 0.3)
        assert path[-1] == pytest.approx(result["impulse"], abs=1e-12)


def test_the_rod_parts_the_laws_as_the_paper_says(pictures):
    # Elkaranshawy & Bajaba, Table 1 (e = 0.82, μs = 0.73, μd = 0.7): Poisson (0.728, 0.1968),
    # Newton (0.9125, 0.3075). Stronge's end by hand: compression ends at Γ_c = 0.4 after
    # W_c = −0.16123 J; with the end stuck u_n = 1.6 (Γ_n − 0.4), so the restitution work is
    # 0.8 (Γ_n − 0.4)² = e² |W_c|.
    results, D, u_pre = pictures.solve(pictures.falling_rod())
    assert results["poisson"]["impulse"] == pytest.approx([0.728, 0.1968], abs=1e-9)
    assert results["newton_routh"]["impulse"] == pytest.approx([0.9125, 0.3075], abs=1e-9)
    assert results["newton"]["impulse"] == pytest.approx([0.9125, 0.3075], abs=1e-9)
    halt = 0.6 / 3.25  # the slip halts: u_t = 0.6 − (1.5 + 0.7 × 2.5) Γ_n
    u_n_at_halt = -1 + 3.55 * halt
    compression_work = halt * (-1 + u_n_at_halt) / 2 - 0.5 * 1.6 * (0.4 - halt) ** 2
    assert compression_work == pytest.approx(-0.16123, abs=1e-5)
    stronge_end = 0.4 + np.sqrt(0.82**2 * -compression_work / 0.8)
    assert results["energetic"]["impulse"][0] == pytest.approx(stronge_end, rel=1e-9)
    # The three restitution hypotheses share Routh's path: the same point where the slip halts.
    for law in ["newton_routh", "poisson", "energetic"]:
        path = pictures.impulse_path(results[law], D, u_pre, 0.7)
        assert path[1] == pytest.approx([halt, -0.7 * halt], abs=1e-12)


def test_the_body_frames_picture_can_be_drawn_again(tmp_path):
    # tools/draw_body_frames.py draws docs/body_frames.svg, which docs/models.md shows.
    specification = importlib.util.spec_from_file_location(
        "draw_body_frames", SOURCE_DIR / "tools" / "draw_body_frames.py")
    module = importlib.util.module_from_spec(specification)
    specification.loader.exec_module(module)
    output = tmp_path / "body_frames.svg"
    assert module.main(["-o", str(output)]) == 0
    root = ElementTree.parse(output).getroot()
    texts = " ".join(element.text or "" for element in root.iter() if element.tag.endswith("text"))
    for name in ["left_end", "bottom_left", "child_point", "x+y-z-", "top_rim"]:
        assert name in texts
    assert (SOURCE_DIR / "docs" / "body_frames.svg").is_file()
    page = (SOURCE_DIR / "docs" / "models.md").read_text(encoding="utf-8")
    assert "](body_frames.svg)" in page
