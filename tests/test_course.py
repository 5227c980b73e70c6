"""The course's form, checked on the notebook files (nbval checks that they run and print what
they say): every lesson has its navigation, goals, predict-then-run cells, a plot, a widget, a
Summary and self-checked exercises whose worked solutions pass; every link leads somewhere; the
concept table in notebooks/README.md quotes headings that exist."""

import importlib.util
import json
import re
from pathlib import Path

import pytest

from minitape.course import checks

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
LESSONS = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
SOLUTIONS = sorted((NOTEBOOKS / "solutions").glob("*.ipynb"))


CHECKS = checks


def _cells(path):
    return json.loads(path.read_text())["cells"]


def _source(cell):
    return "".join(cell["source"])


def _text(output):
    if "text" in output:
        return "".join(output["text"])
    return "".join(output.get("data", {}).get("text/plain", ""))


def _exercises(cells):
    """The exercise names ("05.3") a notebook's cells check, in order of first use."""
    names = []
    for cell in cells:
        if cell["cell_type"] == "code":
            for name in re.findall(r'check\("(\d\d\.\d+)"', _source(cell)):
                if name not in names:
                    names.append(name)
    return names


def _headings(cells):
    return [
        line.lstrip("#").strip()
        for cell in cells
        if cell["cell_type"] == "markdown"
        for line in _source(cell).splitlines()
        if line.startswith("#")
    ]


def _id(path):
    return path.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("path", LESSONS, ids=_id)
def test_lesson_has_the_course_form(path):
    cells = _cells(path)
    number = path.name[:2]
    assert cells[0]["id"].endswith("nav-top") and cells[-1]["id"].endswith("nav-end"), (
        "navigation links first and last"
    )
    assert "00_index.ipynb" in _source(cells[0]) + _source(cells[-1]), "a link to the index"
    i = LESSONS.index(path)
    for neighbour in LESSONS[max(i - 1, 0) : i] + LESSONS[i + 1 : i + 2]:
        assert f"]({neighbour.name})" in _source(cells[0]), f"a link to {neighbour.name} on top"
    assert _source(cells[1]).startswith(f"# {number} · "), "a title cell after the navigation"
    code = [_source(c) for c in cells if c["cell_type"] == "code"]
    guesses = sum(bool(re.match(r"my_guess = \.\.\.", s)) for s in code)
    reveals = sum("reveal(my_guess" in s for s in code)
    assert guesses >= 2 and reveals >= guesses, "at least two predict-then-run moments"
    outputs = [o for c in cells if c["cell_type"] == "code" for o in c.get("outputs", [])]
    assert any("image/png" in o.get("data", {}) for o in outputs), "at least one plot"
    widget_cells = [
        c
        for c in cells
        if c["cell_type"] == "code"
        and "widgets." in _source(c)
        and "nbval-ignore-output" in c["metadata"].get("tags", [])
    ]
    assert widget_cells, "at least one widget (in a cell whose output nbval ignores)"
    headings = _headings(cells)
    assert "Summary" in headings and "Exercises" in headings, "a Summary and Exercises"
    exercises = _exercises(cells)
    assert len(exercises) >= (2 if number == "00" else 3), "enough exercises"
    assert all(name.startswith(f"{number}.") for name in exercises), exercises
    for cell in cells:
        if cell["cell_type"] == "code" and "nbval-ignore-output" not in cell["metadata"].get(
            "tags", []
        ):
            assert not any(o["output_type"] == "error" for o in cell.get("outputs", [])), (
                f"cell {cell['id']} ends in an uncaught exception"
            )


@pytest.mark.parametrize("path", LESSONS, ids=_id)
def test_every_reveal_is_tagged_to_stay_hidden_until_it_runs(path):
    # (tools/learner_edition.py removes its output, and all after it; the web edition folds it)
    untagged = [
        cell["id"]
        for cell in _cells(path)
        if cell["cell_type"] == "code"
        and re.search(r"^\s*reveal\(", _source(cell), re.M)
        and "hide-output" not in cell["metadata"].get("tags", [])
    ]
    assert not untagged, f"reveal cells without the hide-output tag: {untagged}"


def _learner_edition():
    spec = importlib.util.spec_from_file_location(
        "learner_edition", ROOT / "tools/learner_edition.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("path", LESSONS, ids=_id)
def test_the_learners_edition_shows_no_output_from_the_first_reveal_on(path):
    # A cell after a reveal often shows its answer again (a check by hand, the next section's
    # version of the same function): in the learner's edition nothing from the first reveal on
    # has an output until the learner runs it; what comes before keeps its saved output.
    cells = _cells(path)
    first = next(
        (i for i, c in enumerate(cells) if "hide-output" in c["metadata"].get("tags", [])), None
    )
    copy = _learner_edition().learner_copy(json.loads(path.read_text()))["cells"]
    for i, (cell, original) in enumerate(zip(copy, cells)):
        if cell["cell_type"] != "code":
            continue
        if first is not None and i >= first:
            assert not cell["outputs"] and cell["execution_count"] is None, cell["id"]
        else:
            assert cell["outputs"] == original["outputs"], cell["id"]


FOLD_START = "<details>\n<summary>What happened, and why</summary>\n\n"


@pytest.mark.parametrize("path", LESSONS, ids=_id)
def test_the_explanation_after_a_reveal_is_folded(path):
    # A learner who reads on past an unrun reveal must not find its answer in the next cell: the
    # explanation is folded (<details>, closed in JupyterLab, on Binder and in the web edition) and
    # holds nothing else (no heading, no introduction of the next cell: those follow it).
    cells = _cells(path)
    wrong = []
    for before, cell in zip(cells, cells[1:]):
        text = _source(cell)
        if "hide-output" in before["metadata"].get("tags", []):
            if not (text.startswith(FOLD_START) and text.endswith("\n\n</details>")):
                wrong.append(f"{cell['id']}: not folded")
            elif re.search(r"^#", text, re.M) or text.count("<details>") != 1:
                wrong.append(f"{cell['id']}: a heading or a second fold inside")
        elif text.startswith("<details>"):
            wrong.append(f"{cell['id']}: a fold that follows no reveal")
    assert not wrong, wrong


@pytest.mark.parametrize("path", LESSONS, ids=_id)
def test_exercises_have_fingerprints_hints_and_passing_solutions(path):
    exercises = _exercises(_cells(path))
    missing = [n for n in exercises if n not in CHECKS.ANSWERS or n not in CHECKS.HINTS]
    assert not missing, f"checks.py has no answer or hint for {missing}"
    solution = NOTEBOOKS / "solutions" / f"{path.name[:2]}_solutions.ipynb"
    assert solution.exists(), f"no worked solutions: {_id(solution)}"
    cells = _cells(solution)
    assert _exercises(cells) == exercises, "the solutions check the same exercises, in order"
    for cell in cells:
        source = _source(cell)
        if cell["cell_type"] == "code" and re.search(r'check\("\d\d\.\d+"', source):
            printed = "".join(_text(o) for o in cell.get("outputs", []))
            assert "correct" in printed and "not yet" not in printed, (
                f"{_id(solution)} cell {cell['id']}: the worked solution does not pass: {printed!r}"
            )


def test_every_answer_in_checks_is_used_by_a_notebook():
    used = {n for path in LESSONS for n in _exercises(_cells(path))}
    assert set(CHECKS.ANSWERS) == used
    assert set(CHECKS.HINTS) == used


@pytest.mark.parametrize("path", LESSONS + SOLUTIONS, ids=_id)
def test_links_lead_to_files_that_exist(path):
    for cell in _cells(path):
        if cell["cell_type"] != "markdown":
            continue
        for target in re.findall(r"\]\(([^)\s]+)\)", _source(cell)):
            if re.match(r"[a-z]+://", target) or target.startswith("#"):
                continue
            file, _, anchor = target.partition("#")
            linked = (path.parent / file).resolve()
            assert linked.exists(), f"cell {cell['id']}: {target} does not exist"
            if anchor and linked.suffix == ".ipynb":
                slugs = {h.replace(" ", "-") for h in _headings(_cells(linked))}
                assert anchor in slugs, f"cell {cell['id']}: no heading for #{anchor} in {file}"


def test_the_concept_table_quotes_headings_that_exist():
    readme = (NOTEBOOKS / "README.md").read_text()
    table = readme.split("## Where each concept is taught", 1)[1]
    rows = [line for line in table.splitlines() if re.match(r"\| S\d+ ", line)]
    assert [int(re.match(r"\| S(\d+)", r).group(1)) for r in rows] == list(range(1, 21))
    headings = {p.name[:2]: set(_headings(_cells(p))) for p in LESSONS}
    for row in rows:
        concept, number, sections = [c.strip() for c in row.strip().strip("|").split("|")]
        assert number in headings, f"{concept}: no notebook {number}"
        # each quoted section is a heading: of the row's notebook, or of one the text names
        for quoted in re.findall(r'"([^"]+)"', sections):
            assert any(quoted in h for h in set().union(*headings.values())), (
                f"{concept}: no heading {quoted!r}"
            )


def test_the_topics_beyond_the_concepts_quote_headings_of_their_notebook():
    readme = (NOTEBOOKS / "README.md").read_text()
    table = readme.split("## Beyond the concept list", 1)[1]
    rows = [line for line in table.splitlines() if re.match(r"\| [^-|]", line)][1:]
    assert rows, "the table of topics beyond S1-S20"
    headings = {p.name[:2]: set(_headings(_cells(p))) for p in LESSONS}
    for row in rows:
        topic, number, sections = [c.strip() for c in row.strip().strip("|").split("|")]
        quoted = re.findall(r'"([^"]+)"', sections)
        assert quoted and all(q in headings[number] for q in quoted), f"{topic}: {sections}"
