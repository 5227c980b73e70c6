"""Where the course lives: the repository's address, read from one place, and what is made from
it: the README's launch badge, the web edition's source, Binder and Colab links, and the
notebooks' setup cell (what it installs minitape from).

    .venv/bin/python tools/project.py   # says the address; writes the badge and the setup cells

The address is `[project.urls] Repository` in pyproject.toml. Until the repository is
published it holds the placeholder owner `OWNER`: then `repository()` is None and no launch link
is made (a link to a placeholder leads nowhere), and the tools that would make one say so.
"""

import json
import re
import sys
from pathlib import Path
from urllib.parse import quote

import tomllib

ROOT = Path(__file__).resolve().parents[1]
PLACEHOLDER = "OWNER"
BRANCH = "HEAD"
_BADGE = re.compile(r"<!-- launch badge[^\n]*-->\n(?:\[!\[[^\n]*\n)?")


def address():
    """The address as pyproject.toml writes it, placeholder or not."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return project["urls"]["Repository"].rstrip("/")


def repository():
    """The GitHub address of the repository, or None while it is the placeholder."""
    url = address()
    return None if f"/{PLACEHOLDER}/" in url + "/" else url


def _owner_name(url):
    return url.removeprefix("https://github.com/")


def source(path):
    """The file at `path` (from the repository's root) on GitHub."""
    return f"{repository()}/blob/{BRANCH}/{path}" if repository() else None


def binder(path="notebooks/00_index.ipynb"):
    """JupyterLab on Binder, opened on the learner's edition of a notebook (binder/postBuild
    makes learner/ from notebooks/)."""
    if not repository():
        return None
    labpath = quote("learner/" + path.removeprefix("notebooks/"), safe="")
    return f"https://mybinder.org/v2/gh/{_owner_name(repository())}/{BRANCH}?labpath={labpath}"


def colab(path):
    """Google Colab, opened on a notebook of the repository (its setup cell installs the rest)."""
    if not repository():
        return None
    return (
        f"https://colab.research.google.com/github/{_owner_name(repository())}/blob/{BRANCH}/{path}"
    )


def badge():
    """The README's launch badge (a comment while the address is a placeholder)."""
    url = binder()
    marker = "<!-- launch badge: made by tools/project.py from pyproject.toml's [project.urls] -->"
    if not url:
        return marker + "\n"
    return f"{marker}\n[![Launch on Binder](https://mybinder.org/badge_logo.svg)]({url})\n"


def readme_with_badge(text):
    return _BADGE.sub(lambda _: badge(), text, count=1)


SETUP_ID = "setup"


def setup_cell_source():
    """The first code cell of every notebook: a no-op where minitape is importable (here, on
    Binder, in the course on TensorFlow), and anywhere else (a notebook downloaded alone, Colab)
    it installs minitape, whose `minitape.course` holds the self-checks the notebook imports.
    From the repository once its address is set; until then by name (a wheel pip can find:
    PIP_FIND_LINKS, as tests/test_run_anywhere.py does, or a published package)."""
    url = repository()
    requirement = f'"minitape @ git+{url}"' if url else "minitape"
    return (
        "# Setup: in the course's repository (and on Binder) this does nothing. Opened anywhere\n"
        "# else (downloaded alone, or in Colab), it installs minitape and the course's\n"
        "# self-checks, which the next cell imports.\n"
        "import importlib.util\n"
        "\n"
        'if importlib.util.find_spec("minitape") is None:\n'
        f"    %pip install --quiet {requirement}"
    )


def with_setup_cell(notebook):
    """The notebook (its JSON) with the setup cell as its first code cell, made anew."""
    cells = [c for c in notebook["cells"] if c.get("id") != SETUP_ID]
    first_code = next(i for i, c in enumerate(cells) if c["cell_type"] == "code")
    lines = setup_cell_source().splitlines(keepends=True)
    setup = {
        "cell_type": "code",
        "execution_count": None,
        "id": SETUP_ID,
        "metadata": {},
        "outputs": [],
        "source": lines,
    }
    notebook["cells"] = cells[:first_code] + [setup] + cells[first_code:]
    return notebook


def notebooks():
    return sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted(
        (ROOT / "notebooks" / "solutions").glob("*.ipynb")
    )


def placeholder_notice():
    """What a tool prints when it leaves the launch links out."""
    return (
        f"note: the repository's address in pyproject.toml ({address()}) is a placeholder: "
        "no Binder or Colab link is made, and source links stay on this site"
    )


if __name__ == "__main__":
    readme = ROOT / "README.md"
    readme.write_text(readme_with_badge(readme.read_text()))
    for path in notebooks():
        notebook = with_setup_cell(json.loads(path.read_text()))
        path.write_text(json.dumps(notebook, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    print(repository() or placeholder_notice(), file=sys.stdout if repository() else sys.stderr)
