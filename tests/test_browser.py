"""End to end: the course notebooks in JupyterLab, in a real (headless) browser.

Starts `jupyter lab` from this environment on 127.0.0.1 with a token (once for the module),
drives Chromium through Playwright and checks what a learner sees:

- every notebook in notebooks/ and notebooks/solutions/, opened in the learner's edition that
  `make lab` and Binder open (tools/learner_edition.py), shows no prediction's answer before it
  runs, and runs with Run → Run All Cells: every code cell gets an execution count, no cell
  shows an uncaught exception (an error output, also inside a widget), a notebook whose saved
  version has a plot shows one, and each reveal then shows its answer;
- in each notebook of SLIDERS, the named slider is shown and moving it with the keyboard changes
  what it drives (a plot or the printed text below it); in the same run, the notebook's dropdown
  in DROPDOWNS (alone where a notebook has no slider to move) is set to its next option, and
  what it drives changes too.

Screenshots go to tests/artifacts/browser/. Needs Chromium at /usr/bin/chromium (`apt-get install
chromium fonts-liberation`); without it the tests skip, except under CI (CI=true) where they fail.
"""

import contextlib
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
# Every notebook of the course: the lessons, then their solutions.
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted(
    (ROOT / "notebooks" / "solutions").glob("*.ipynb")
)
# One slider per notebook that the browser test moves: notebook -> the start of its description.
SLIDERS = {
    "notebooks/02_linear_regression.ipynb": "learning rate",  # re-trains: loss curves, fit
    "notebooks/09_custom_training_step.ipynb": "lr",  # re-trains: the loss curve, its verdict
    "notebooks/10_tf_function_and_fit.ipynb": "batch size",  # retraces, re-times: the bars
    "notebooks/11_custom_training_loop.ipynb": "micro-batches",  # accumulated vs big batch
    "notebooks/12_control_flow.ipynb": "x",  # which branch ran: recorded ops, gradient
    "notebooks/13_forward_mode_and_jacobians.ipynb": "n_in",  # the shape whose cost is measured
    "notebooks/14_hessians_and_double_backward.ipynb": "direction",  # the loss along it, redrawn
    "notebooks/15_build_your_own_tape.ipynb": "step",  # the backward walk, one entry a step
    "notebooks/16_test_and_extend_your_tape.ipynb": "expression",  # a random expression, checked
}
# A dropdown to move in the same run as the notebook's slider: notebook -> its description.
DROPDOWNS = {
    "notebooks/03_what_gets_watched.ipynb": "broken program",  # the explainer's diagnosis, drawn
}
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
        f"{base}{path}",
        method=method,
        headers={"Authorization": f"token {token}"},
        data=b"" if method == "POST" else None,
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        body = resp.read()
    return json.loads(body) if body else None


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """One JupyterLab server for the module, on 127.0.0.1; its Jupyter/IPython/matplotlib files
    stay in a temporary directory."""
    _require_browser()
    tmp_path = tmp_path_factory.mktemp("lab")
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
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        "--ServerApp.allow_root=True",
        f"--ServerApp.root_dir={ROOT}",
        f"--LabApp.app_settings_dir={app_settings}",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        # window.jupyterapp: the checks read each cell's outputs from the notebook model, the
        # only place where an error output differs from text on stderr (both render alike).
        "--LabApp.expose_app_in_browser=True",
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
                pytest.fail(
                    f"jupyter lab exited with {proc.returncode}:\n{log_path.read_text()[-4000:]}"
                )
            try:
                _api(base, token, "/api/status")
                break
            except (urllib.error.URLError, ConnectionError, OSError):
                if time.monotonic() > deadline:
                    pytest.fail(
                        f"jupyter lab did not answer in 90 s:\n{log_path.read_text()[-4000:]}"
                    )
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


@pytest.fixture(scope="module")
def browser(lab):
    """Headless Chromium for the module; each test opens its own context (fresh cookies and
    storage)."""
    from playwright.sync_api import sync_playwright

    # Chromium too keeps its files (crash reports, dconf) out of the home directory.
    browser_home = lab["home"] / "browser"
    browser_env = {
        **os.environ,
        "HOME": str(browser_home),
        "XDG_CONFIG_HOME": str(browser_home / ".config"),
        "XDG_CACHE_HOME": str(browser_home / ".cache"),
    }
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS, env=browser_env
        )
        try:
            yield chromium
        finally:
            chromium.close()


def _wait(predicate, timeout, what, interval=0.25):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)


def _session(lab, rel):
    """The server's session (notebook ↔ kernel) for the notebook at rel, or None."""
    sessions = _api(lab["base"], lab["token"], "/api/sessions")
    return next((s for s in sessions if s["path"] == rel), None)


def _kernel_state(lab, rel):
    """What the server says the notebook's kernel is doing: 'idle', 'busy', 'starting', 'dead'…"""
    session = _session(lab, rel)
    return session["kernel"]["execution_state"] if session and session.get("kernel") else None


def _shut_down_kernel(lab, rel):
    try:
        session = _session(lab, rel)
        if session:
            _api(lab["base"], lab["token"], f"/api/sessions/{session['id']}", method="DELETE")
    except (urllib.error.URLError, OSError):
        pass  # the server is gone: the test has failed already and says why


def _shot(page, name, full_page=False):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


@contextlib.contextmanager
def _notebook_page(browser, lab, rel, name):
    """A page in a fresh browser context for the notebook at rel. A failure leaves the screenshot
    `<name>-failure.png`; afterwards the notebook's kernel is shut down, and the file must be as it
    was (autosave is off: what ran in the browser stays in the browser)."""
    path = ROOT / rel
    on_disk = path.read_bytes()
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        page.set_default_timeout(60_000)
        try:
            yield page
        except BaseException:
            with contextlib.suppress(Exception):
                _shot(page, f"{name}-failure")
            raise
    finally:
        context.close()
        _shut_down_kernel(lab, rel)
    assert path.read_bytes() == on_disk, f"{rel} was modified by the test"


def _open_notebook(page, lab, rel):
    """Open the notebook in a workspace of its own (so no tab of an earlier test is restored next
    to it) and wait until its kernel has started."""
    workspace = re.sub(r"[^A-Za-z0-9_-]", "-", rel.removesuffix(".ipynb"))
    page.goto(f"{lab['base']}/lab/workspaces/{workspace}/tree/{rel}?token={lab['token']}")
    page.locator(".jp-NotebookPanel .jp-Notebook .jp-Cell").first.wait_for()
    page.locator('.jp-Notebook-ExecutionIndicator[data-status="idle"]').wait_for(timeout=90_000)
    _wait(lambda: _kernel_state(lab, rel) == "idle", 90, f"the kernel of {rel} to start")


# Runs in the page, with the notebook's path: marks every code cell as not yet run in this test
# (the saved notebook comes with execution counts; only counts set from now on mean "it ran").
_WATCH_RUNS_JS = """
(path) => {
  const panel = [...window.jupyterapp.shell.widgets('main')]
    .find(w => w.context && w.context.path === path);
  for (const cell of panel.content.widgets) {
    const model = cell.model;
    if (model.type !== 'code') continue;
    model.ranInTest = false;
    model.stateChanged.connect((_, change) => {
      if (change.name === 'executionCount' && change.newValue !== null) model.ranInTest = true;
    });
  }
}
"""

# Runs in the page, with the notebook's path: the state of every cell and what the outputs show.
# Errors come from the notebook model, where an uncaught exception is an output of type "error"
# (JupyterLab renders it like text on stderr, so warnings or a printed traceback would look the
# same in the DOM). Output areas inside widgets (ipywidgets' Output, as used by interact) are
# JupyterLab output areas too and are searched as well.
_NOTEBOOK_STATE_JS = """
(path) => {
  const app = window.jupyterapp;
  if (!app) return null;
  const panel = [...app.shell.widgets('main')].find(w => w.context && w.context.path === path);
  if (!panel || !panel.context.isReady || !panel.sessionContext.session) return null;
  const nb = panel.content;
  const outputAreas = root => {
    const found = [];
    const walk = w => {
      if (w.node.classList.contains('jp-OutputArea') && w.model
          && typeof w.model.toJSON === 'function') found.push(w);
      for (const child of w.children()) walk(child);
    };
    walk(root);
    return found;
  };
  const cells = [], errors = [];
  nb.widgets.forEach((cell, index) => {
    const model = cell.model, code = model.type === 'code';
    const count = code ? model.executionCount : null;
    cells.push({type: model.type, count, ran: code && model.ranInTest === true,
                empty: !model.sharedModel.getSource().trim()});
    if (!code) return;
    for (const area of outputAreas(cell)) {
      const rendered = area.node.querySelectorAll(
        ':scope > .jp-OutputArea-child > .jp-OutputArea-output');
      area.model.toJSON().forEach((output, k) => {
        if (output.output_type !== 'error') return;
        errors.push({cell: index, count, inWidget: area !== cell.outputArea, ename: output.ename,
                     evalue: output.evalue, shown: rendered[k] ? rendered[k].innerText : null});
      });
    }
  });
  const images = [...nb.node.querySelectorAll('.jp-OutputArea-output img')];
  return {
    cells, errors,
    kernelIdle: panel.sessionContext.kernelDisplayStatus === 'idle',
    images: images.map(i => i.src),
    imagesLoaded: images.every(i => i.complete && i.naturalWidth > 0),
    widgetText: [...nb.node.querySelectorAll('.jupyter-widgets-output-area .jp-OutputArea-output')]
      .map(o => o.innerText),
  };
}
"""


def _state(page, rel):
    return page.evaluate(_NOTEBOOK_STATE_JS, rel)


def _run_all(page, lab, rel, timeout=300):
    """Run → Run All Cells, as a learner would. Returns the notebook's state once every code cell
    has run, the kernel is idle and the images have loaded, or as soon as an error is shown."""
    page.evaluate(_WATCH_RUNS_JS, rel)
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()

    def finished():
        state = _state(page, rel)
        if state is None:
            return None
        if state["errors"]:
            return state  # Run All stops at the first error
        kernel = _kernel_state(lab, rel)
        if kernel == "dead":
            raise AssertionError(f"the kernel of {rel} died")
        # JupyterLab does not send an empty cell to the kernel: it gets no execution count.
        ran = all(
            c["ran"] and c["count"]
            for c in state["cells"]
            if c["type"] == "code" and not c["empty"]
        )
        return (
            state
            if ran and kernel == "idle" and state["kernelIdle"] and state["imagesLoaded"]
            else None
        )

    return _wait(finished, timeout, f"all cells of {rel} to run")


def _describe_errors(rel, errors):
    lines = [f"{rel}: {len(errors)} uncaught exception(s) shown in the browser:"]
    for e in errors:
        where = f"cell {e['cell']} (In [{e['count'] or ' '}])" + (
            ", in a widget's output" if e["inWidget"] else ""
        )
        text = e["shown"] if e["shown"] is not None else "(not rendered)"
        lines.append(f"--- {where}: {e['ename']}: {e['evalue']}\n{text.rstrip()}")
    return "\n".join(lines)


def _saved_image_outputs(path):
    nb = json.loads(path.read_text())
    return sum(
        any(mime.startswith("image/") for mime in output.get("data", {}))
        for cell in nb["cells"]
        if cell["cell_type"] == "code"
        for output in cell.get("outputs", [])
    )


def _full_page_shot(page, name):
    """A screenshot of the whole notebook: the page grows until the last cell fits (JupyterLab
    scrolls inside the notebook, so a full-page screenshot of the usual page shows one screen)."""
    below = """() => {
      const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
      const scroller = panel && panel.querySelector('.jp-WindowedPanel-outer');
      const cells = panel ? panel.querySelectorAll('.jp-Notebook .jp-Cell') : [];
      if (!scroller || !cells.length) return 0;
      scroller.scrollTop = 0;  // Run All leaves the notebook scrolled to its last cell
      return Math.ceil(cells[cells.length - 1].getBoundingClientRect().bottom
                       - scroller.getBoundingClientRect().bottom);
    }"""

    def fits():
        # JupyterLab lays the notebook out again for each new size (it may grow a little): repeat.
        missing = page.evaluate(below)
        size = page.viewport_size
        if missing <= 0 or size["height"] >= 16_000:  # Chromium's limit for one screenshot
            return True
        page.set_viewport_size(
            {"width": size["width"], "height": min(size["height"] + missing + 40, 16_000)}
        )
        return False

    _wait(fits, 20, "the whole notebook to fit in the enlarged page", interval=0.2)
    _shot(page, name, full_page=True)


def _slug(rel):
    return rel.removeprefix("notebooks/").removesuffix(".ipynb").replace("/", "-")


@pytest.mark.parametrize("rel", sorted(SLIDERS.keys() | DROPDOWNS.keys()))
def test_slider_changes_what_it_drives(lab, browser, rel):
    with _notebook_page(browser, lab, rel, f"slider-{_slug(rel)}") as page:
        _run_notebook_checks(page, lab, rel, SLIDERS.get(rel))


def _run_notebook_checks(page, lab, rel, label):
    # 1. The notebook opens and its kernel starts.
    _open_notebook(page, lab, rel)
    _shot(page, f"slider-{_slug(rel)}-1-opened")

    # 2. Run → Run All Cells, as a learner would.
    state = _run_all(page, lab, rel)
    assert not state["errors"], _describe_errors(rel, state["errors"])

    # 3. A matplotlib plot is shown.
    plot = page.locator(".jp-OutputArea-output img").first
    plot.wait_for(state="visible")
    assert state["images"], "no plot image in any output"
    plot.scroll_into_view_if_needed()
    _shot(page, f"slider-{_slug(rel)}-2-ran-all-plot")

    if label is None:  # (a notebook with a dropdown to move, and no slider)
        _move_dropdown(page, lab, rel, DROPDOWNS[rel])
        return

    # 4. The slider is shown.
    slider = (
        page.locator(".widget-slider")  # (a SelectionSlider lacks the class jupyter-widgets)
        .filter(
            has=page.locator(".widget-label", has_text=re.compile(rf"^\s*{re.escape(label)}", re.I))
        )
        .first
    )
    slider.wait_for(state="visible")
    slider.scroll_into_view_if_needed()
    readout = slider.locator(".widget-readout")
    before_value = readout.inner_text()
    _shot(page, f"slider-{_slug(rel)}-3-slider")

    # 5. Keyboard on the slider handle: the value moves and what it drives changes.
    before = _state(page, rel)
    handle = slider.locator(".noUi-handle").first
    handle.focus()
    for _ in range(5):
        page.keyboard.press("ArrowRight")

    def changed():
        now = _state(page, rel)
        moved = readout.inner_text() != before_value
        redrawn = (now["images"], now["widgetText"]) != (before["images"], before["widgetText"])
        return (
            now
            if moved and redrawn and now["imagesLoaded"] and _kernel_state(lab, rel) == "idle"
            else None
        )

    _wait(changed, 120, "the output to change after moving the slider")
    # Each key press re-trains; wait until the last re-run has drawn (one second without change).
    seen = []

    def settled():
        seen.append(_state(page, rel))
        now = seen[-1]
        steady = len(seen) > 1 and now == seen[-2]
        return now if steady and now["imagesLoaded"] and _kernel_state(lab, rel) == "idle" else None

    after = _wait(settled, 60, "the output to settle after moving the slider", interval=1.0)
    assert not after["errors"], "re-running failed:\n" + _describe_errors(rel, after["errors"])
    assert after["images"], "the plot disappeared after moving the slider"
    slider.scroll_into_view_if_needed()
    _shot(page, f"slider-{_slug(rel)}-4-slider-moved")
    if rel in DROPDOWNS:
        _move_dropdown(page, lab, rel, DROPDOWNS[rel])


def _move_dropdown(page, lab, rel, label):
    """Pick the next option of the dropdown labelled `label`: its value changes, and so does
    what it drives (the widget's text and plot), without errors."""
    dropdown = (
        page.locator(".jupyter-widgets.widget-dropdown")
        .filter(
            has=page.locator(".widget-label", has_text=re.compile(rf"^\s*{re.escape(label)}", re.I))
        )
        .first
    )
    dropdown.wait_for(state="visible")
    dropdown.scroll_into_view_if_needed()
    select = dropdown.locator("select")

    def picked():
        return select.evaluate("s => s.options[s.selectedIndex].text")

    before_value = picked()
    options = select.locator("option").all_inner_texts()
    after_value = options[(options.index(before_value) + 1) % len(options)]
    before = _state(page, rel)
    _shot(page, f"slider-{_slug(rel)}-5-dropdown")
    select.select_option(label=after_value)

    def changed():
        now = _state(page, rel)
        moved = picked() == after_value
        redrawn = (now["images"], now["widgetText"]) != (before["images"], before["widgetText"])
        return (
            now
            if moved and redrawn and now["imagesLoaded"] and _kernel_state(lab, rel) == "idle"
            else None
        )

    _wait(changed, 120, "the output to change after picking another option")
    seen = []  # then until the re-run has drawn everything (one second without change)

    def settled():
        seen.append(_state(page, rel))
        now = seen[-1]
        steady = len(seen) > 1 and now == seen[-2]
        return now if steady and now["imagesLoaded"] and _kernel_state(lab, rel) == "idle" else None

    after = _wait(settled, 60, "the output to settle after picking another option", interval=1.0)
    assert not after["errors"], "re-running failed:\n" + _describe_errors(rel, after["errors"])
    assert after["images"], "the plot disappeared after picking another option"
    dropdown.scroll_into_view_if_needed()
    _shot(page, f"slider-{_slug(rel)}-6-dropdown-moved")


# The learner's edition (tools/learner_edition.py), as `make lab` and Binder open it.
EDITION = ROOT / "build" / "learner-test"
REVEALED = "| what happened:"  # (what reveal() prints)


@pytest.fixture(scope="module")
def learner_edition():
    shutil.rmtree(EDITION, ignore_errors=True)
    subprocess.run(
        [sys.executable, str(ROOT / "tools" / "learner_edition.py"), str(EDITION)], check=True
    )
    yield EDITION
    shutil.rmtree(EDITION, ignore_errors=True)


# The explanation after a reveal is folded (<details>, tests/test_course.py checks the notebooks):
# how many folds the open notebook shows, and how many of them are open.
_FOLDS_JS = """
() => {
  const notebook = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook');
  const folds = [...notebook.querySelectorAll('.jp-RenderedMarkdown details')];
  return {folded: folds.length, open: folds.filter(d => d.open).length};
}
"""


def _notebook_text(page):
    return page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook").inner_text()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.relative_to(ROOT).as_posix() for p in NOTEBOOKS])
def test_notebook_runs_in_jupyterlab(lab, browser, learner_edition, path):
    """The learner's edition of the notebook opens with no prediction's answer on screen; Run All
    Cells: every cell runs, none shows an uncaught exception, the plots are drawn, and each
    reveal shows its answer. (Warnings on stderr and exceptions a cell catches and prints are part
    of the lessons.)"""
    copy = learner_edition / path.relative_to(ROOT / "notebooks")
    rel = copy.relative_to(ROOT).as_posix()
    name = f"run-all-{_slug(path.relative_to(ROOT).as_posix())}"
    saved_images = _saved_image_outputs(path)
    cells = json.loads(path.read_text())["cells"]
    code_cells = sum(c["cell_type"] == "code" for c in cells)
    reveals = sum("hide-output" in c["metadata"].get("tags", []) for c in cells)
    explanations = sum("".join(c["source"]).startswith("<details>") for c in cells)
    with _notebook_page(browser, lab, rel, name) as page:
        _open_notebook(page, lab, rel)
        assert REVEALED not in _notebook_text(page), f"{rel} shows a reveal's answer unasked"
        folds = page.evaluate(_FOLDS_JS)
        assert folds == {"folded": explanations, "open": 0}, (
            f"{rel}: the explanations after the reveals should all be folded: {folds}"
        )
        _full_page_shot(page, f"{name}-0-opened")  # (what the learner sees first)
        state = _run_all(page, lab, rel)
        assert not state["errors"], _describe_errors(rel, state["errors"])
        assert sum(c["type"] == "code" for c in state["cells"]) == code_cells, (
            f"{rel}: the browser shows a different number of code cells than the file has"
        )
        if saved_images:

            def shows_image():
                now = _state(page, rel)
                return now if now["images"] and now["imagesLoaded"] else None

            _wait(
                shows_image,
                30,
                f"{rel} to show an image (its saved version has {saved_images} image outputs)",
            )
        assert _notebook_text(page).count(REVEALED) >= reveals, "a reveal shows no answer"
        if explanations:  # a click opens an explanation, rendered as Markdown
            notebook = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
            fold = notebook.locator(".jp-RenderedMarkdown details")
            fold.first.locator("summary").click()
            text = fold.first.inner_text()
            assert fold.first.evaluate("d => d.open") and len(text) > 60, text
            assert fold.first.locator("p").count(), f"unrendered Markdown in a fold: {text}"
        _full_page_shot(page, name)
        # Nothing late (an interact redrawing after the run) went wrong while the screenshot was
        # taken.
        state = _state(page, rel)
        assert not state["errors"], _describe_errors(rel, state["errors"])
