"""Build the web edition of the course into build/site/ (`make site`).

    .venv/bin/python tools/build_site.py

From the committed, executed notebooks (nothing is re-executed), it stages a source folder in
build/site-src/ and runs Sphinx with site/conf.py on it:

- every lesson and solution notebook as a page, in course order, with its saved outputs;
- the landing page: notebooks/README.md (the contents and the concept map S1-S20), with the
  table of contents;
- "minitape and TensorFlow", generated now from the project's records of real TensorFlow
  (tests/tf_golden and tests/fuzz): how many cases and calls match, every listed difference
  with its reason;
- a widget's output becomes a note that the widget runs in JupyterLab or on Binder (a static
  page has no kernel to move a slider);
- each notebook page's links: download the notebook (the learner's edition, written beside the
  pages in notebooks/), its source, and Binder and Colab, all made by tools/project.py from the
  repository's address in pyproject.toml (no launch link while it is a placeholder);
- a cell tagged `hide-output` (a reveal of a predict-then-run prompt) shows its output folded,
  until the reader opens it, and so does a later cell whose output repeats the reveal's answer.

Sphinx's warnings about the course's own files fail the build; the rest are printed.
"""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import learner_edition
import project
import spoilers

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
SRC = ROOT / "build" / "site-src"
OUT = ROOT / "build" / "site"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
TF_FOR_COURSE = "2.21"  # (requirements-tf.txt pins tensorflow-cpu 2.21.0)


def lessons():
    return sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


def solutions():
    return sorted((NOTEBOOKS / "solutions").glob("[0-9][0-9]_solutions.ipynb"))


# -- the notebooks ---------------------------------------------------------------------------------
def _widget_note(path):
    binder = project.binder(str(path.relative_to(ROOT)))
    where = f' or on <a href="{binder}">Binder</a>' if binder else ""
    html = (
        '<div class="widget-note">This cell shows an interactive widget. It runs in JupyterLab '
        f"(<code>make lab</code>, or the notebook downloaded from this page){where}: a web page "
        "has no Python to move it.</div>"
    )
    return {"output_type": "display_data", "metadata": {}, "data": {"text/html": html}}


def stage_notebook(path, target):
    """Copy one notebook for the site: widget outputs become a note on where they run, and an
    output that repeats a reveal's answer (tools/spoilers.py) is folded as the reveal is."""
    nb = json.loads(path.read_text())
    for _, later in spoilers.repeats(nb["cells"]):
        tags = nb["cells"][later].setdefault("metadata", {}).setdefault("tags", [])
        tags += [] if "hide-output" in tags else ["hide-output"]
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":  # (the solutions folder is a page here)
            source = "".join(cell["source"]).replace("](solutions/)", "](solutions/index.md)")
            cell["source"] = source
        outputs = cell.get("outputs", [])
        for i, out in enumerate(outputs):
            if WIDGET_VIEW in out.get("data", {}):
                outputs[i] = _widget_note(path)
    nb["metadata"].pop("widgets", None)  # (no widget state to load: nothing asks for the JS)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(nb, indent=1, ensure_ascii=False))


# -- each notebook page's links --------------------------------------------------------------------
def page_links():
    """{page name: [link, ...]} for the notebook pages: download (the learner's edition, which
    write_downloads puts in notebooks/), source, Binder, Colab (the last two only when the
    repository's address is set)."""
    links = {}
    for path in lessons() + solutions():
        page = str(path.relative_to(NOTEBOOKS).with_suffix(""))
        in_repo = str(path.relative_to(ROOT))
        download = {
            "label": "Download",
            "href": f"notebooks/{page}.ipynb",
            "title": "Download this notebook, to run it in Jupyter (its first cell installs "
            "what it needs)",
            "download": True,
        }
        source = {
            "label": "Source",
            "href": project.source(in_repo) or f"_sources/{page}.ipynb",
            "title": "The notebook as committed, with its outputs",
        }
        launch = [
            {"label": "Binder", "href": project.binder(in_repo), "title": "Run it in JupyterLab"},
            {"label": "Colab", "href": project.colab(in_repo), "title": "Run it in Google Colab"},
        ]
        links[page] = [download, source] + [link for link in launch if link["href"]]
    return links


def write_downloads():
    """The learner's edition of every notebook, where the pages' Download links point."""
    for path in lessons() + solutions():
        target = OUT / "notebooks" / path.relative_to(NOTEBOOKS)
        target.parent.mkdir(parents=True, exist_ok=True)
        notebook = learner_edition.learner_copy(json.loads(path.read_text()))
        target.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n")


# -- the landing page ------------------------------------------------------------------------------
def landing_page():
    """notebooks/README.md with its links to folders and Python files made web links, then the
    table of contents (lessons, solutions, the page on TensorFlow)."""
    text = (NOTEBOOKS / "README.md").read_text()
    text = text.replace("](solutions/)", "](solutions/index.md)")
    toc = "\n".join(p.stem for p in lessons())
    sols = "\n".join(f"solutions/{p.stem}" for p in solutions())
    return (
        f"{text}\n\n```{{toctree}}\n:caption: The course\n:hidden:\n\n{toc}\n```\n\n"
        f"```{{toctree}}\n:caption: Worked solutions\n:hidden:\n\nsolutions/index\n{sols}\n```\n\n"
        "```{toctree}\n:caption: minitape\n:hidden:\n\ntensorflow\n```\n"
    )


def solutions_index():
    rows = "\n".join(
        f"- [{p.stem[:2]}: the solutions of {lesson.stem[3:].replace('_', ' ')}]({p.name})"
        for p, lesson in zip(solutions(), lessons())
    )
    return (
        "# Worked solutions\n\nOne page per chapter. Try the exercises first: each chapter's "
        "self-checks say `correct` or give a hint.\n\n" + rows + "\n"
    )


# -- the page on TensorFlow ------------------------------------------------------------------------
def tensorflow_page():
    """What the records of real TensorFlow say, counted now by replaying them."""
    sys.path.insert(0, str(ROOT))
    import logging

    import minitape

    logging.getLogger("minitape").setLevel(logging.ERROR)  # (the replay's warnings say nothing)
    from tests.fuzz import known, test_fuzz
    from tests.tf_golden import cases, differences, serialize, test_golden

    golden = test_golden.RECORDED
    matching = 0
    for name, record in sorted(golden.items()):
        case = cases.CASES[name]
        got = serialize.run_case(case.fn, minitape)
        same = not serialize.compare(
            record, got, message=case.message, rtol=case.rtol, atol=case.atol
        )
        matching += same
    calls = test_fuzz.CALLS
    calls_matching = sum(not test_fuzz.mismatch(c, test_fuzz.minitape_outcome(c)) for c in calls)
    tf_version = test_golden.GOLDEN.get("tensorflow_version", "2.21")

    def items(entries, reason=lambda e: e):
        return "\n".join(f"- `{name}`: {_code(reason(e))}" for name, e in sorted(entries.items()))

    return f"""# minitape and TensorFlow

minitape promises that `import minitape as tf` runs TensorFlow's tape code unchanged and gives
TensorFlow's numbers, dtypes, `None`s and errors. The promise is checked against records of real
TensorFlow {tf_version}, made in a side environment and replayed against minitape by `make
test`. This page is generated from those records when the site is built.

## The golden cases

{len(golden):,} small pieces of TensorFlow code (values, dtypes, shapes, `None`s, nest
structures, error classes, and the messages the course prints): **{matching:,} give exactly
TensorFlow's result**. The other {len(golden) - matching} are listed below, each with what
differs; the rest of each listed case is still compared with TensorFlow.

### Kept on purpose

Where TensorFlow's behaviour is a silent wrong answer, a crash inside TensorFlow, or a detail of
its CPU kernels:

{items(differences.DIFFERENT, lambda e: e.reason)}

### Not yet as TensorFlow

{items(differences.TODO, lambda e: e.reason) or "None."}

## Bad input

{len(calls):,} malformed and edge-case calls (None, strings, huge integers, NaN, float shapes,
odd dtypes, misused tapes, optimizers, layers and losses), recorded under TensorFlow:
**{calls_matching:,} do what TensorFlow does** (its value, or its exception class). The
{len(calls) - calls_matching} others, each with its reason:

{items(known.KNOWN, lambda e: e[0])}

{course_on_tf_section()}
"""


_DUNDER = re.compile(r"(?<![`\w])(__\w+?__)(?![`\w])")


def _code(text):
    """A reason's Python names set as code: `__rmul__`, which Markdown would read as bold."""
    return _DUNDER.sub(r"`\1`", text)


def course_on_tf_section():
    """The course itself on TensorFlow (`make test-tf`): what its committed list of differences
    says. `make test` runs it last and fails on any cell that differs and is not listed, so the
    list is the run's summary."""
    sys.path.insert(0, str(ROOT / "tests" / "course_on_tf"))
    from differences import DIFFERS, SKIP

    code = [
        c
        for p in lessons() + solutions()
        for c in json.loads(p.read_text())["cells"]
        if c["cell_type"] == "code"
    ]
    widgets = sum("nbval-ignore-output" in c["metadata"].get("tags", []) for c in code)
    skipped = sum(len(listed) for listed in SKIP.values())
    same = len(code) - widgets - skipped - len(DIFFERS)
    differs = "\n".join(
        f"- {Path(nb).stem}, cell `{cell}`: {_code(reason)}"
        for (nb, cell), reason in DIFFERS.items()
    )
    return f"""## The course on TensorFlow

`make test-tf` (the last step of `make test`) runs every lesson and solution notebook of the
course on TensorFlow {TF_FOR_COURSE}, with `import minitape as tf` replaced by `import tensorflow
as tf`, and compares each code cell's printed output with the committed one (a float may differ
in its last printed digit). It runs all {len(code):,} code cells; {widgets} display a widget and
are not compared. Of the other {len(code) - widgets:,}, **{same:,} print the same text, numbers
included** (a definition prints nothing on both), and the run fails on any other cell that
differs. {skipped} cells read minitape's own
recording (`tape._entries`, `minitape.viz`, `minitape.explain`), which TensorFlow does not show.
In {len(DIFFERS)} cells TensorFlow prints something else, each listed with what differs in
`tests/course_on_tf/differences.py`:

{differs}
"""


# Theme files that no page asks for: the source maps of its minified scripts and styles (for
# whoever debugs the theme), fontawesome.js (site/_templates/layout.html leaves it out), the
# translations of its labels (the course is in English).
UNUSED = ["_static/**/*.map", "_static/scripts/fontawesome.js*", "_static/locales"]


def prune():
    for pattern in UNUSED:
        for path in OUT.glob(pattern):
            shutil.rmtree(path) if path.is_dir() else path.unlink()


# -- building --------------------------------------------------------------------------------------
def stage():
    if SRC.exists():
        shutil.rmtree(SRC)
    shutil.copytree(ROOT / "site", SRC, ignore=shutil.ignore_patterns("__pycache__"))
    for path in lessons():
        stage_notebook(path, SRC / path.name)
    for path in solutions():
        stage_notebook(path, SRC / "solutions" / path.name)
    (SRC / "index.md").write_text(landing_page())
    (SRC / "solutions" / "index.md").write_text(solutions_index())
    (SRC / "tensorflow.md").write_text(tensorflow_page())
    (SRC / "course_links.json").write_text(json.dumps(page_links(), indent=1))
    copy_mathjax(SRC / "_static" / "mathjax")


# The parts of MathJax that site/conf.py loads (the loader finds each by its path).
MATHJAX_PARTS = [
    "startup.js",
    "core.js",
    "input/tex-base.js",
    "input/tex/extensions/ams.js",
    "input/tex/extensions/noundefined.js",
    "output/chtml.js",
    "output/chtml/fonts",
]


def copy_mathjax(target):
    import importlib.util

    package = importlib.util.find_spec("sphinx-mathjax-offline")  # (its name has hyphens)
    mathjax = Path(package.origin).parent / "static" / "mathjax"
    for part in MATHJAX_PARTS:
        (target / part).parent.mkdir(parents=True, exist_ok=True)
        if (mathjax / part).is_dir():
            shutil.copytree(mathjax / part, target / part)
        else:
            shutil.copy(mathjax / part, target / part)


def build():
    stage()
    if OUT.exists():
        shutil.rmtree(OUT)
    cmd = [
        sys.executable,
        "-m",
        "sphinx",
        "-b",
        "html",
        "-q",
        "-j",
        "auto",
        str(SRC),
        str(OUT),
    ]
    run = subprocess.run(cmd, capture_output=True, text=True)
    warnings = [line for line in run.stderr.splitlines() if line.strip()]
    ours = [w for w in warnings if str(SRC) in w or "WARNING" in w and ".ipynb" in w]
    for w in warnings:
        print(w, file=sys.stderr)
    if run.returncode or ours:
        sys.exit(f"the site did not build cleanly ({len(ours)} warnings about the course's files)")
    write_downloads()
    prune()
    if not project.repository():
        print(project.placeholder_notice())
    print(f"built {OUT.relative_to(ROOT)}/index.html")


if __name__ == "__main__":
    build()
