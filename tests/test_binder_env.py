"""Binder builds the course from binder/ alone; these tests check that what it builds works.

repo2docker runs `pip install -r binder/requirements.txt` from the repository root into a fresh
environment. The slow tests do the same without Docker (a new virtualenv in a temp folder, pip
run from the repository root) and execute every notebook under notebooks/ with that
environment's Python, so a package missing from binder/requirements.txt fails here first.
"""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
REQUIREMENTS = ROOT / "requirements.txt"
BINDER_REQUIREMENTS = ROOT / "binder" / "requirements.txt"
BINDER_RUNTIME = ROOT / "binder" / "runtime.txt"

# In requirements.txt for the test suite only; Binder has no use for them.
TEST_ONLY = {
    "pytest",
    "nbval",
    "playwright",
    "ruff",
    "hypothesis",
}  # (ruff: the linter of `make test`)

NOTEBOOKS = sorted(
    p for p in (ROOT / "notebooks").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts
)

_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?\s*==\s*([^\s;#]+)$")


def _lines(text):
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            yield line


def _name(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def parse_requirements(text):
    """Return ({normalised name: pinned version}, [lines that are not `name==version`])."""
    pins, other = {}, []
    for line in _lines(text):
        m = _PIN.match(line)
        if m:
            pins[_name(m.group(1))] = m.group(3)
        else:
            other.append(line)
    return pins, other


def pin_mismatches(requirements_text, binder_text):
    """What keeps binder/requirements.txt from matching requirements.txt (empty when in step)."""
    req, _ = parse_requirements(requirements_text)
    binder, binder_other = parse_requirements(binder_text)
    problems = []
    for name, version in sorted(binder.items()):
        if name not in req:
            problems.append(f"{name}=={version} is in binder/requirements.txt only")
        elif req[name] != version:
            problems.append(f"{name}: binder pins {version}, requirements.txt pins {req[name]}")
    for name, version in sorted(req.items()):
        if name not in binder and name not in TEST_ONLY:
            problems.append(f"{name}=={version} is missing from binder/requirements.txt")
    local = [line for line in binder_other if re.fullmatch(r"(-e|--editable)?\s*\.", line)]
    if not local:
        problems.append("binder/requirements.txt does not install minitape itself ('-e .')")
    for line in binder_other:
        if line not in local:
            problems.append(f"unpinned or unknown line in binder/requirements.txt: {line!r}")
    return problems


def test_binder_pins_match_requirements():
    problems = pin_mismatches(REQUIREMENTS.read_text(), BINDER_REQUIREMENTS.read_text())
    assert not problems, "\n".join(problems)


def test_pin_check_catches_drift():
    binder = BINDER_REQUIREMENTS.read_text()
    drifted = re.sub(r"^numpy==\S+", "numpy==1.0.0", binder, flags=re.M)
    assert drifted != binder
    assert any("numpy" in p for p in pin_mismatches(REQUIREMENTS.read_text(), drifted))
    without_self = "\n".join(line for line in binder.splitlines() if line.strip() != "-e .")
    assert any("minitape" in p for p in pin_mismatches(REQUIREMENTS.read_text(), without_self))
    extra = REQUIREMENTS.read_text() + "\nscipy==1.0.0\n"
    assert any("scipy" in p for p in pin_mismatches(extra, binder))


def test_binder_runtime():
    runtime = BINDER_RUNTIME.read_text().strip()
    assert re.fullmatch(r"python-3\.\d+", runtime), runtime
    minimum = re.search(
        r'requires-python\s*=\s*">=\s*3\.(\d+)', (ROOT / "pyproject.toml").read_text()
    )
    assert int(runtime.split(".")[1]) >= int(minimum.group(1))


def _isolated_env(tmp, bin_dir):
    """The environment for the Binder venv's processes: nothing from the caller's venv or home."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"VIRTUAL_ENV", "PYTHONPATH", "JUPYTER_PATH"}
    }
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    for var, sub in [
        ("JUPYTER_CONFIG_DIR", "jupyter-config"),
        ("JUPYTER_DATA_DIR", "jupyter-data"),
        ("JUPYTER_RUNTIME_DIR", "jupyter-runtime"),
        ("IPYTHONDIR", "ipython"),
        ("MPLCONFIGDIR", "matplotlib"),
    ]:
        env[var] = str(tmp / sub)
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


@pytest.fixture(scope="module")
def binder_env(tmp_path_factory):
    """A fresh venv with binder/requirements.txt installed the way repo2docker does it."""
    tmp = tmp_path_factory.mktemp("binder-env")
    venv_dir = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv_dir)], check=True)
    bin_dir = venv_dir / "bin"
    env = _isolated_env(tmp, bin_dir)
    # pip's cache stays on: a second run installs from it.
    result = subprocess.run(
        [
            str(bin_dir / "python"),
            "-m",
            "pip",
            "install",
            "--quiet",
            "-r",
            "binder/requirements.txt",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert result.returncode == 0, (
        f"pip install -r binder/requirements.txt failed:\n{result.stdout}\n{result.stderr}"
    )
    # repo2docker then runs binder/postBuild with the environment's python on PATH.
    subprocess.run(["binder/postBuild"], cwd=ROOT, env=env, check=True)
    yield bin_dir, env, tmp
    shutil.rmtree(tmp, ignore_errors=True)


@pytest.mark.slow
def test_binder_env_has_the_course(binder_env):
    bin_dir, env, tmp = binder_env
    pins, _ = parse_requirements(BINDER_REQUIREMENTS.read_text())
    code = (
        "import importlib.metadata as m, json, minitape, ipywidgets, matplotlib, jupyterlab;"
        f"print(json.dumps({{n: m.version(n) for n in {sorted(pins)!r}}}))"
    )
    out = subprocess.run(
        [str(bin_dir / "python"), "-c", code],
        cwd=tmp,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(out) == pins
    # postBuild installed the course's JupyterLab settings into the environment.
    installed = json.loads(
        (bin_dir.parent / "share/jupyter/lab/settings/overrides.json").read_text()
    )
    assert (
        installed["@jupyterlab/apputils-extension:kernels-settings"]["commsOverSubshells"]
        == "disabled"
    )
    # postBuild made the learner's edition that Binder opens: no reveal shows its answer.
    learner = json.loads((ROOT / "learner" / "01_first_tape.ipynb").read_text())
    reveals = [c for c in learner["cells"] if "hide-output" in c["metadata"].get("tags", [])]
    assert reveals and not any(c["outputs"] for c in reveals)
    # The widget front end comes in the jupyterlab_widgets wheel: postBuild need not build it.
    ext = subprocess.run(
        [str(bin_dir / "jupyter"), "labextension", "list"],
        cwd=tmp,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    listing = re.sub(r"\x1b\[[0-9;]*m", "", ext.stdout + ext.stderr)  # drop colour codes
    assert re.search(r"@jupyter-widgets/jupyterlab-manager v\S+ enabled", listing), listing


# Executes one notebook with nbclient, run by the Binder venv's Python, with the client
# `make notebooks` uses (tools/execute_notebooks.py: it reads the kernel in short polls, see
# there), imported from the repository.
_RUN_NOTEBOOK = """
import os, sys
import nbformat
src, dst, tools = sys.argv[1:4]
sys.path.insert(0, tools)
from execute_notebooks import Client
nb = nbformat.read(src, as_version=4)
Client(nb, timeout=600, resources={"metadata": {"path": os.path.dirname(src)}}).execute()
nbformat.write(nb, dst)
"""


@pytest.mark.slow
@pytest.mark.parametrize(
    "notebook",
    [pytest.param(nb, id=str(nb.relative_to(ROOT))) for nb in NOTEBOOKS]
    or [pytest.param(None, marks=pytest.mark.skip(reason="no notebook under notebooks/ yet"))],
)
def test_notebook_runs_in_binder_env(binder_env, notebook):
    bin_dir, env, tmp = binder_env
    rel = notebook.relative_to(ROOT)
    out = tmp / "executed" / rel
    out.parent.mkdir(parents=True, exist_ok=True)
    result = subprocess.run(
        [
            str(bin_dir / "python"),
            "-c",
            _RUN_NOTEBOOK,
            str(notebook),
            str(out),
            str(ROOT / "tools"),
        ],
        cwd=tmp,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, (
        f"{rel} failed in the Binder environment:\n{result.stderr[-6000:]}"
    )
