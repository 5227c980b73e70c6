"""tools/project.py: the repository's address, named once (pyproject.toml's [project.urls]), and
the links made from it."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import project  # noqa: E402


def test_the_readme_badge_is_the_one_made_from_the_address():
    readme = (ROOT / "README.md").read_text()
    assert project.badge() in readme
    assert project.readme_with_badge(readme) == readme


def test_a_placeholder_address_makes_no_launch_link(monkeypatch):
    monkeypatch.setattr(project, "address", lambda: "https://github.com/OWNER/minitape")
    assert project.repository() is None
    path = "notebooks/01_first_tape.ipynb"
    assert project.binder(path) is project.colab(path) is project.source(path) is None
    assert "mybinder" not in project.badge()


def test_a_real_address_makes_every_link(monkeypatch):
    monkeypatch.setattr(project, "address", lambda: "https://github.com/someone/minitape")
    path = "notebooks/01_first_tape.ipynb"
    assert project.source(path) == "https://github.com/someone/minitape/blob/HEAD/" + path
    assert project.binder(path) == (
        "https://mybinder.org/v2/gh/someone/minitape/HEAD?labpath=learner%2F01_first_tape.ipynb"
    )
    assert project.colab(path) == (
        "https://colab.research.google.com/github/someone/minitape/blob/HEAD/" + path
    )
    readme = "# minitape\n\n" + project.badge()
    assert "[![Launch on Binder]" in readme
    assert project.readme_with_badge("# minitape\n\n<!-- launch badge: x -->\n") == readme
