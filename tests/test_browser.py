"""End to end: the linear-regression notebook in JupyterLab, in a real (headless) browser.

Starts `jupyter lab` from this environment on 127.0.0.1 with a token, drives Chromium through
Playwright, runs all cells and checks what a learner sees: the plot, the learning-rate slider,
and new training output after the slider is moved with the keyboard. Screenshots of each step
go to tests/artifacts/browser/. Needs Chromium at /usr/bin/chromium (`apt-get install chromium
fonts-liberation`); without it the test skips, except under CI (CI=true) where it fails.
"""

import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "02_linear_regression.ipynb"
SLIDER_LABEL = "learning rate"  # the slider's description starts with this
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "tests" / "artifacts" / "browser"
CHROMIUM_ARGS = [
    "--no-sandbox",  # needed as root
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
# JupyterLab settings for the test: no news pop-up or update check (no network here), no
# autosave (the executed notebook must not be written back into the repository), and every
# cell kept in the DOM so the checks below see the whole notebook.
# The course's own JupyterLab settings (binder/overrides.json), plus what a test run needs.
LAB_OVERRIDES = {
    **json.loads((ROOT / "binder" / "overrides.json").read_text()),
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/docmanager-extension:plugin": {"autosave": False},
    "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"},
}

pytestmark = pytest.mark.slow


def _in_ci():
    return os.environ.get("CI", "").lower() in {"true", "1"}


def _require_browser():
    problem = None
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        problem = f"Chromium not found at {CHROMIUM}"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            problem = "the playwright package is not installed (it is in requirements.txt)"
    if problem:
        how = "install it with `apt-get install chromium fonts-liberation` to run the browser test"
        if _in_ci():
            pytest.fail(f"{problem}; CI must have it: {how}")
        pytest.skip(f"{problem}: {how}")


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _api(base, token, path, method="GET"):
    req = urllib.request.Request(
        f"{base}{path}", method=method, headers={"Authorization": f"token {token}"},
        data=b"" if method == "POST" else None,
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        body = resp.read()
    return json.loads(body) if body else None


@pytest.fixture
def lab(tmp_path):
    """A JupyterLab server on 127.0.0.1 whose Jupyter/IPython/matplotlib files stay in tmp_path."""
    _require_browser()
    if not NOTEBOOK.exists():
        pytest.skip(f"{NOTEBOOK.relative_to(ROOT)} does not exist yet")
    home = tmp_path / "home"
    dirs = {
        "JUPYTER_CONFIG_DIR": home / "jupyter-config",
        "JUPYTER_DATA_DIR": home / "jupyter-data",
        "JUPYTER_RUNTIME_DIR": home / "jupyter-runtime",
        "JUPYTERLAB_SETTINGS_DIR": home / "lab-user-settings",
        "JUPYTERLAB_WORKSPACES_DIR": home / "lab-workspaces",
        "IPYTHONDIR": home / "ipython",
        "MPLCONFIGDIR": home / "matplotlib",
    }
    app_settings = home / "lab-app-settings"
    for d in [*dirs.values(), app_settings]:
        d.mkdir(parents=True)
    (app_settings / "overrides.json").write_text(json.dumps(LAB_OVERRIDES, indent=2))
    env = {**os.environ, **{k: str(v) for k, v in dirs.items()}}
    env.pop("JUPYTER_PATH", None)

    port, token = _free_port(), secrets.token_hex(24)
    base = f"http://127.0.0.1:{port}"
    cmd = [
        sys.executable, "-m", "jupyterlab", "--no-browser",
        "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}", "--ServerApp.allow_root=True",
        f"--ServerApp.root_dir={ROOT}", f"--LabApp.app_settings_dir={app_settings}",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        # JupyterLab makes a checkpoint when it opens a notebook: keep it out of the repository.
        f"--FileCheckpoints.checkpoint_dir={home / 'checkpoints'}",
    ]
    log_path = tmp_path / "jupyter-lab.log"
    with open(log_path, "w") as log:
        proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 90
        while True:
            if proc.poll() is not None:
                pytest.fail(f"jupyter lab exited with {proc.returncode}:\n{log_path.read_text()[-4000:]}")
            try:
                _api(base, token, "/api/status")
                break
            except (urllib.error.URLError, ConnectionError, OSError):
                if time.monotonic() > deadline:
                    pytest.fail(f"jupyter lab did not answer in 90 s:\n{log_path.read_text()[-4000:]}")
                time.sleep(0.5)
        yield {"base": base, "token": token, "log": log_path, "home": home}
    finally:
        try:
            _api(base, token, "/api/shutdown", method="POST")  # stops the kernels too
            proc.wait(timeout=30)
        except Exception:
            pass
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        shutil.copy(log_path, ARTIFACTS / "jupyter-lab.log")


def _wait(predicate, timeout, what, interval=0.25):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)


def _kernels_idle(lab):
    kernels = _api(lab["base"], lab["token"], "/api/kernels")
    return bool(kernels) and all(k["execution_state"] == "idle" for k in kernels)


# Runs in the page: the state of every code cell and what the outputs show.
_NOTEBOOK_STATE_JS = """
() => {
  const nb = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook');
  if (!nb) return null;
  const cells = [...nb.querySelectorAll('.jp-CodeCell')];
  return {
    prompts: cells.map(c => (c.querySelector('.jp-InputArea-prompt') || {}).textContent || ''),
    images: [...nb.querySelectorAll('.jp-OutputArea-output img')].map(i => i.src),
    imagesLoaded: [...nb.querySelectorAll('.jp-OutputArea-output img')]
      .every(i => i.complete && i.naturalWidth > 0),
    widgetText: [...nb.querySelectorAll('.jupyter-widgets-output-area .jp-OutputArea-output')]
      .map(o => o.innerText),
    errors: [...nb.querySelectorAll('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')]
      .map(o => o.innerText).filter(t => t.includes('Traceback')),
  };
}
"""


def _shot(page, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def test_linear_regression_notebook_in_jupyterlab(lab):
    from playwright.sync_api import sync_playwright

    rel = NOTEBOOK.relative_to(ROOT).as_posix()
    on_disk = NOTEBOOK.read_bytes()
    # Chromium too keeps its files (crash reports, dconf) out of the home directory.
    browser_home = lab["home"] / "browser"
    browser_env = {**os.environ, "HOME": str(browser_home), "XDG_CONFIG_HOME": str(browser_home / ".config"),
                   "XDG_CACHE_HOME": str(browser_home / ".cache")}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS,
                                     env=browser_env)
        page = None
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(60_000)
            _run_notebook_checks(page, lab, rel)
        except BaseException:
            if page is not None:
                try:
                    _shot(page, "failure")
                except Exception:
                    pass
            raise
        finally:
            browser.close()
    assert NOTEBOOK.read_bytes() == on_disk, f"{rel} was modified by the test"


def _run_notebook_checks(page, lab, rel):
    page.goto(f"{lab['base']}/lab/tree/{rel}?token={lab['token']}")

    # 1. The notebook opens and its kernel starts.
    page.locator(".jp-NotebookPanel .jp-Notebook .jp-Cell").first.wait_for()
    page.locator('.jp-Notebook-ExecutionIndicator[data-status="idle"]').wait_for(timeout=90_000)
    _wait(lambda: _kernels_idle(lab), 90, "the kernel to start")
    _shot(page, "1-opened")

    # 2. Run → Run All Cells, as a learner would.
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()

    def finished():
        state = page.evaluate(_NOTEBOOK_STATE_JS)
        if not state or not state["prompts"] or not _kernels_idle(lab):
            return None
        done = all(re.fullmatch(r"\[\d+\]:", p.strip()) for p in state["prompts"])
        # Run All stops at the first error, so an error also ends the wait.
        return state if (done and state["imagesLoaded"]) or state["errors"] else None

    state = _wait(finished, 300, "all cells to run")
    assert not state["errors"], "a cell failed:\n" + "\n\n".join(state["errors"])

    # 3. A matplotlib plot is shown.
    plot = page.locator(".jp-OutputArea-output img").first
    plot.wait_for(state="visible")
    assert state["images"], "no plot image in any output"
    plot.scroll_into_view_if_needed()
    _shot(page, "2-ran-all-plot")

    # 4. The learning-rate slider is shown.
    slider = page.locator(".jupyter-widgets.widget-slider").filter(
        has=page.locator(".widget-label", has_text=re.compile(rf"^\s*{SLIDER_LABEL}", re.I))
    ).first
    slider.wait_for(state="visible")
    slider.scroll_into_view_if_needed()
    readout = slider.locator(".widget-readout")
    before_value = readout.inner_text()
    _shot(page, "3-slider")

    # 5. Keyboard on the slider handle: the value moves and training output changes.
    before = page.evaluate(_NOTEBOOK_STATE_JS)
    handle = slider.locator(".noUi-handle").first
    handle.focus()
    for _ in range(5):
        page.keyboard.press("ArrowRight")

    def changed():
        now = page.evaluate(_NOTEBOOK_STATE_JS)
        moved = readout.inner_text() != before_value
        redrawn = (now["images"], now["widgetText"]) != (before["images"], before["widgetText"])
        return now if moved and redrawn and now["imagesLoaded"] and _kernels_idle(lab) else None

    _wait(changed, 120, "the output to change after moving the slider")
    # Each key press re-trains; wait until the last re-run has drawn (one second without change).
    seen = []

    def settled():
        seen.append(page.evaluate(_NOTEBOOK_STATE_JS))
        now = seen[-1]
        steady = len(seen) > 1 and now == seen[-2]
        return now if steady and now["imagesLoaded"] and _kernels_idle(lab) else None

    after = _wait(settled, 60, "the output to settle after moving the slider", interval=1.0)
    assert not after["errors"], "re-training failed:\n" + "\n\n".join(after["errors"])
    assert after["images"], "the plot disappeared after moving the slider"
    slider.scroll_into_view_if_needed()
    _shot(page, "4-slider-moved")
