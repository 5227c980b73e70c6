"""A notebook opened alone runs from its setup cell, as a new user meets it.

One learner's notebook (01, as the web edition's Download link gives it) is copied alone into an
empty folder, with a fresh virtualenv that has no minitape. Its setup cell installs minitape
(and with it `minitape.course`, the self-checks the notebook imports) from a wheel of this
repository built here, with pip kept off the network (PIP_NO_INDEX): the notebook then runs top
to bottom. The virtualenv sees the course's other packages (numpy, matplotlib, ipykernel, ...)
through a .pth line naming a folder of links to this environment's site-packages, minitape's
own entries left out.

Every notebook's first code cell is that setup cell, as tools/project.py makes it.
"""

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import learner_edition  # noqa: E402
import project  # noqa: E402


def test_every_notebook_starts_with_the_setup_cell():
    wrong = []
    for path in project.notebooks():
        cells = json.loads(path.read_text())["cells"]
        first = next(c for c in cells if c["cell_type"] == "code")
        if first.get("id") != project.SETUP_ID or "".join(first["source"]) != (
            project.setup_cell_source()
        ):
            wrong.append(path.name)
    assert not wrong, f"not the setup cell of tools/project.py first: {wrong}"


def test_the_setup_cell_installs_from_the_address_once_it_is_set(monkeypatch):
    monkeypatch.setattr(project, "address", lambda: "https://github.com/someone/minitape")
    assert '%pip install --quiet "minitape @ git+https://github.com/someone/minitape"' in (
        project.setup_cell_source()
    )


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """A wheel of this repository, built from a copy of what the package needs."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(
        ROOT / "minitape", src / "minitape", ignore=shutil.ignore_patterns("__pycache__")
    )
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--quiet",
            "-w",
            str(tmp / "dist"),
            str(src),
        ],
        capture_output=True,
        text=True,
    )
    if build.returncode:
        pytest.skip(
            f"cannot build a wheel here (pip needs setuptools>=77):\n{build.stderr[-2000:]}"
        )
    return tmp / "dist"


@pytest.mark.slow
def test_a_notebook_opened_alone_runs_top_to_bottom(tmp_path, wheel):
    folder = tmp_path / "alone"
    folder.mkdir()
    notebook = learner_edition.learner_copy(
        json.loads((ROOT / "notebooks" / "01_first_tape.ipynb").read_text())
    )
    (folder / "01_first_tape.ipynb").write_text(json.dumps(notebook))

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # The course's other packages, from this environment: every entry of its site-packages but
    # minitape's (its editable install's finder and metadata; pip would think it installed).
    packages = tmp_path / "packages"
    packages.mkdir()
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        if "minitape" not in entry.name.lower() and entry.suffix != ".pth":
            (packages / entry.name).symlink_to(entry)
    (Path(site) / "course_packages.pth").write_text(f"{packages}\n")
    env = {
        "PATH": f"{venv / 'bin'}:{os.environ['PATH']}",
        "HOME": str(tmp_path),
        "PIP_NO_INDEX": "1",
        "PIP_FIND_LINKS": str(wheel),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "MPLBACKEND": "agg",
    }
    missing = subprocess.run(
        [python, "-c", "import minitape"], env=env, cwd=folder, capture_output=True
    )
    assert missing.returncode, "the fresh environment already has minitape"

    run = subprocess.run(
        [python, "-m", "nbconvert", "--to", "notebook", "--execute", "--output", "ran.ipynb"]
        + ["--ExecutePreprocessor.timeout=600", "01_first_tape.ipynb"],
        env=env,
        cwd=folder,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr[-4000:]
    ran = json.loads((folder / "ran.ipynb").read_text())["cells"]
    printed = "".join(
        "".join(o.get("text", "")) for c in ran if c["cell_type"] == "code" for o in c["outputs"]
    )
    assert "Successfully installed minitape" in printed or "Note: you may need" in printed
    assert "your guess: (none yet" in printed  # a reveal ran, with minitape.course's checks
    assert sorted(p.name for p in folder.iterdir()) == ["01_first_tape.ipynb", "ran.ipynb"]
