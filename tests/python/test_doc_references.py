"""tests/docs/doc_references.py, the check that every file cites only what the repository ships
(ctest: doc_references), finds each kind of broken reference at its file and line, and passes a
repository whose references all resolve."""

import subprocess
import sys

from conftest import SOURCE_DIR

SCRIPT = SOURCE_DIR / "tests" / "docs" / "doc_references.py"
PAPERS = "| number | paper |\n| --- | --- |\n| 000 | Someone, *A title* |\n| 004 | Other, *B* |\n"
DESIGN = "# Design\n\n## §1 Layout\n\ntext\n\n## §4 The simulation\n\n1. smooth\n2. events\n"
GUIDE = "# Guide\n\n## The sweep file\n\n**Draws** depend on the seed.\n"


def check(root):
    return subprocess.run([sys.executable, str(SCRIPT), "--root", str(root)],
                          capture_output=True, text=True, check=False)


def repository(tmp_path, citing):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "papers.md").write_text(PAPERS, encoding="utf-8")
    (tmp_path / "docs" / "design.md").write_text(DESIGN, encoding="utf-8")
    (tmp_path / "docs" / "guide.md").write_text(GUIDE, encoding="utf-8")
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "ball.yaml").write_text("name: ball\n", encoding="utf-8")
    (tmp_path / "sim").mkdir()
    (tmp_path / "sim" / "law.hpp").write_text(citing, encoding="utf-8")
    return tmp_path


def test_every_reference_that_resolves_passes(tmp_path):
    citing = ("// Paper 004 eq. 31 and papers 000 and 004 (docs/design.md §4 step 2, §1);\n"
              "// docs/guide.md, \"The sweep file\"; (docs/guide.md, \"Draws\");\n"
              "// scenarios/ball.yaml, scenarios/*.yaml and tests/fuzz/regressions/TARGET/\n")
    result = check(repository(tmp_path, citing))
    assert result.returncode == 0, result.stdout
    assert "every reference" in result.stdout


def test_each_broken_reference_is_reported_at_its_line(tmp_path):
    citing = ("// line 1: paper 007 says so\n"
              "// line 2: docs/design.md §4.4\n"
              "// line 3: docs/design.md §5\n"
              "// line 4: docs/design.md §4 step 3\n"
              "// line 5: docs/guide.md, \"Input limits\"\n"
              "// line 6: scenarios/missing.yaml\n"
              "// line 7: docs/absent.md\n")
    result = check(repository(tmp_path, citing))
    assert result.returncode == 1
    reported = result.stdout
    assert "sim/law.hpp:1: paper 007 is not in docs/papers.md's table" in reported
    assert "sim/law.hpp:2: docs/design.md has no section §4.4" in reported
    assert "sim/law.hpp:3: docs/design.md has no section §5" in reported
    assert "sim/law.hpp:4: docs/design.md §4 has no step 3" in reported
    assert "sim/law.hpp:5: docs/guide.md has no heading or bold title \"Input limits\"" in reported
    assert "sim/law.hpp:6: no file or folder scenarios/missing.yaml" in reported
    assert "sim/law.hpp:7: no file or folder docs/absent.md" in reported


def test_a_markdown_link_to_a_missing_page_is_reported(tmp_path):
    root = repository(tmp_path, "// nothing\n")
    (root / "docs" / "guide.md").write_text(GUIDE + "\nSee [the output](output.md).\n",
                                            encoding="utf-8")
    result = check(root)
    assert result.returncode == 1
    assert "docs/guide.md:7: link to output.md: no file docs/output.md" in result.stdout
