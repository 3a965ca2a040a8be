"""Checks that every tracked file cites only what the repository ships.

A comment that says "see docs/design.md §4 step 5" or "paper 004 eq. 31" is useful only if the
reader can follow it from a clone. This script scans every file git tracks (or, outside a git
checkout, every file under the root but build folders) and reports each reference it cannot
follow, at its file and line:

- a path into the repository's own folders (docs/, tests/, scenarios/, sim/, models/, tools/,
  python/, .ci/) that names no file or folder; wildcards and placeholders (`tests/test_*.cpp`,
  `tests/fuzz/regressions/TARGET/`) are patterns, not paths, and are left alone;
- a section of a page: `docs/design.md §N` (a heading "## §N ..." must exist; `§N step K`
  needs a K-th numbered step in §N; `§N.M` is not a heading of ours), and a quoted name right
  after a page, `docs/output.md, "What a kill loses"` or `docs/design.md ("Input limits")`,
  which must begin a heading of that page;
- a relative link of a Markdown page, `[text](output.md)`, to a file that is not there;
- a paper cited by number, `paper 004` or `papers 000 and 004`, that is not a row of
  docs/papers.md's table.

ctest runs it as the test doc_references. By hand, from the repository root:

    python3 tests/docs/doc_references.py --root .
"""

import argparse
import os
import re
import subprocess
import sys

# The repository's own top-level folders; a path into one of them must exist.
OWN_FOLDERS = ("docs", "tests", "scenarios", "sim", "models", "tools", "python", ".ci")
PATH_PATTERN = re.compile(r"(?<![\w/.\-$])((?:%s)/[\w.\-/]*[\w/])" % "|".join(
    re.escape(folder) for folder in OWN_FOLDERS))
# A placeholder in a path: an upper-case word (TARGET, NAME) or a wildcard/template character.
PLACEHOLDER = re.compile(r"(?:^|/)[A-Z][A-Z0-9_]*(?:[./]|$)|[*<>{}]|\.\.\.")
SECTION_PATTERN = re.compile(r"\s*§\s?(\d+)(?:\.(\d+))?(?:\s*[–-]\s*(\d+))?(?:\s+steps?\s+(\d+))?")
QUOTED_NAME = re.compile(r"^[`*]?\s*,?\s*\(?\s*\"([^\"]{2,80})\"")
PAPER_PATTERN = re.compile(r"\b[Pp]apers?\s+(\d{1,4}(?:(?:\s*§\s?[\d.–-]+)?(?:\s*,\s*|\s+and\s+|"
                           r"\s+or\s+)\d{1,4}\b)*)")
MARKDOWN_LINK = re.compile(r"\]\(([^)\s#:]+)(?:#[^)]*)?\)")
COMMENT_LEADER = re.compile(r"\n\s*(?://+|#+|\*|--)?\s*")
SKIPPED_FOLDERS = {".git", "build", "__pycache__", "node_modules"}
# This script's docstring and its test show broken references on purpose.
SELF_AND_TEST = {"tests/docs/doc_references.py", "tests/python/test_doc_references.py"}


def tracked_files(root):
    """The files git tracks under root, or every file but build folders outside a checkout."""
    try:
        listing = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True,
                                 check=True)
        return sorted(name for name in listing.stdout.decode().split("\0") if name)
    except (OSError, subprocess.CalledProcessError):
        names = []
        for folder, subfolders, files in os.walk(root):
            subfolders[:] = [name for name in subfolders if name not in SKIPPED_FOLDERS
                             and not name.startswith("build")]
            names += [os.path.relpath(os.path.join(folder, name), root) for name in files]
        return sorted(names)


def titles(text):
    """What a quoted name may cite on a page: its headings, and the bold words that open a
    paragraph or a list item (`**Draws** depend on ...`)."""
    found = []
    in_code = False
    for line in text.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and line.startswith("#"):
            found.append(line.lstrip("#").strip())
        elif not in_code:
            bold = re.match(r"\s*(?:[-*]\s+)?\*\*(.+?)\*\*", line)
            if bold:
                found.append(bold.group(1))
    return found


def plain(title):
    """A title or a quoted name compared without case, backticks or a leading §N or N."""
    title = re.sub(r"^(?:§\d+|\d+\.)\s*", "", title.replace("`", "").replace("*", ""))
    return " ".join(title.lower().split())


def numbered_sections(text):
    """The numbered sections of a page, headed "## §N ..." or "## N. ...": {N: their text}."""
    sections = {}
    current = None
    for line in text.splitlines():
        match = re.match(r"#+\s*(?:§(\d+)\b|(\d+)\.\s)", line)
        if match:
            current = int(match.group(1) or match.group(2))
            sections[current] = ""
        elif current is not None:
            sections[current] += line + "\n"
    return sections


def paper_numbers(root):
    """The numbers in the first column of docs/papers.md's table."""
    with open(os.path.join(root, "docs", "papers.md"), encoding="utf-8") as file:
        return {int(match.group(1)) for match in re.finditer(r"^\|\s*(\d+)\s*\|", file.read(),
                                                             re.MULTILINE)}


class Checker:
    def __init__(self, root):
        self.root = root
        self.papers = paper_numbers(root)
        self.pages = {}
        self.problems = []

    def page(self, path):
        if path not in self.pages:
            try:
                with open(os.path.join(self.root, path), encoding="utf-8") as file:
                    self.pages[path] = file.read()
            except (OSError, UnicodeDecodeError):
                self.pages[path] = None
        return self.pages[path]

    def exists(self, path):
        """A file or folder, or one the build writes: a program built from a source
        (tools/bench/scenario_benchmark from scenario_benchmark.cpp, tools/routh/routh by
        tools/routh/CMakeLists.txt) or a file git ignores (tools/viewer/dist/viewer.js)."""
        full = os.path.join(self.root, path)
        if os.path.exists(full) or any(os.path.exists(full + ext) for ext in (".cpp", ".py")):
            return True
        try:
            if subprocess.run(["git", "-C", self.root, "check-ignore", "-q", path],
                              capture_output=True, check=False).returncode == 0:
                return True
        except OSError:  # no git: no ignore list to consult
            pass
        folder, program = os.path.split(full)
        cmake = os.path.join(folder, "CMakeLists.txt")
        if os.path.exists(cmake):
            with open(cmake, encoding="utf-8") as file:
                return re.search(r"add_executable\(\s*%s\b" % re.escape(program), file.read())
        return False

    def report(self, name, text, offset, message):
        line = text.count("\n", 0, offset) + 1
        self.problems.append(f"{name}:{line}: {message}")

    def check_section(self, name, text, offset, page, after):
        """The §N (step K, or a quoted heading) that follows a page's path, if any."""
        target = self.page(page)
        if target is None:
            return
        # the text after the path, a comment's line breaks and leaders taken out
        following = COMMENT_LEADER.sub(" ", after)
        section = SECTION_PATTERN.match(following.lstrip("`"))
        if section:
            number, subsection, last, step = section.groups()
            sections = numbered_sections(target)
            for cited in {int(number), int(last or number)}:
                if cited not in sections:
                    self.report(name, text, offset, f"{page} has no section §{cited}")
                    return
            if subsection:
                self.report(name, text, offset, f"{page} has no section §{number}.{subsection}"
                            f" (its sections are §1 to §{max(sections)}; cite a step or a page)")
            if step:
                steps = re.findall(r"^\d+\.", sections[int(number)], re.MULTILINE)
                if int(step) > len(steps):
                    self.report(name, text, offset, f"{page} §{number} has no step {step}")
            following = following.lstrip("`")[section.end():]
        quoted = QUOTED_NAME.match(following)
        if quoted:
            wanted = plain(quoted.group(1))
            if not any(plain(title).startswith(wanted) for title in titles(target)):
                self.report(name, text, offset,
                            f"{page} has no heading or bold title \"{quoted.group(1)}\"")

    def check_file(self, name):
        text = self.page(name)
        if text is None:
            return
        for match in PATH_PATTERN.finditer(text):
            path = match.group(1).rstrip(".")
            after = text[match.end():match.end() + 1]
            if after and after in "*<{" or PLACEHOLDER.search(path):
                continue
            if after == "\n" and path[-1] in "_-":  # a path broken across a comment's lines
                rest = re.match(r"[\w.\-/]*[\w/]", COMMENT_LEADER.sub("", text[match.end():
                                                                          match.end() + 120], 1))
                path += rest.group(0) if rest else ""
            if not self.exists(path):
                self.report(name, text, match.start(), f"no file or folder {path}")
            elif path.endswith(".md"):
                self.check_section(name, text, match.start(), path, text[match.end():
                                                                         match.end() + 240])
        for match in PAPER_PATTERN.finditer(text):
            listed = re.sub(r"§\s?[\d.–-]+", "", match.group(1))
            for number in re.findall(r"\d+", listed):
                if len(number) != 3 or int(number) not in self.papers:
                    self.report(name, text, match.start(),
                                f"paper {number} is not in docs/papers.md's table")
        if name.endswith(".md"):
            folder = os.path.dirname(name)
            for match in MARKDOWN_LINK.finditer(text):
                target = os.path.normpath(os.path.join(folder, match.group(1)))
                if not os.path.exists(os.path.join(self.root, target)):
                    self.report(name, text, match.start(), f"link to {match.group(1)}: no file "
                                f"{target}")
                elif target.endswith(".md"):
                    self.check_section(name, text, match.start(), target,
                                       text[match.end():match.end() + 240])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", required=True, help="the repository's root")
    arguments = parser.parse_args()
    checker = Checker(os.path.abspath(arguments.root))
    names = tracked_files(checker.root)
    for name in names:
        if name not in SELF_AND_TEST:
            checker.check_file(name)
    for problem in checker.problems:
        print(problem)
    if checker.problems:
        print(f"\n{len(checker.problems)} references in {len(names)} files cite what the "
              "repository does not ship", file=sys.stderr)
        return 1
    print(f"every reference in {len(names)} files names a shipped file, section or paper")
    return 0


if __name__ == "__main__":
    sys.exit(main())
