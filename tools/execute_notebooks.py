"""Re-execute the course notebooks in place, the way `make test` (nbval) re-runs them.

    .venv/bin/python tools/execute_notebooks.py                      # every notebook
    .venv/bin/python tools/execute_notebooks.py notebooks/05_higher_order.ipynb

`make notebooks` (or `make notebooks NB=...`) calls this. Each notebook runs top to bottom in a
fresh kernel of the Python running this script (nbval's --nbval-current-env kernel), started in
the notebook's own folder. The notebooks seed their own random numbers, so their text outputs
come out the same on every run. What is written back holds nothing that changes from run to run:

- no execution timestamps in the cells' metadata;
- `kernelspec` is the course's python3 kernel; `language_info` comes from the kernel, but a
  patch release of Python alone (3.11.7 vs 3.11.9) does not rewrite it;
- widget state (`metadata.widgets`) is kept only in a notebook that displays a widget, so
  GitHub and JupyterLab still draw it; the widgets' model ids, random on every run, are replaced
  by ids derived from the notebook's name and the order in which the widgets were created;
- a cell without an id gets one from its name and position (cells keep the ids they have).

A notebook whose cell raises (without the `raises-exception` tag) is not written back.
"""

import base64
import io
import json
import os
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path
from queue import Empty

import nbformat
from ipykernel.kernelspec import RESOURCES, get_kernel_dict
from jupyter_client import AsyncKernelManager
from jupyter_client.kernelspec import KernelSpec, KernelSpecManager
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from traitlets import default

ROOT = Path(__file__).resolve().parents[1]
CELL_TIMEOUT = 600  # seconds
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


class CurrentEnvKernelSpecs(KernelSpecManager):
    """'python3' is always ipykernel in this script's own Python, as nbval's current-env kernel
    is; a python3 kernelspec elsewhere on the Jupyter path (e.g. in ~/.local) is not used."""

    def get_kernel_spec(self, kernel_name):
        return KernelSpec(resource_dir=RESOURCES, **get_kernel_dict())


class CurrentEnvKernelManager(AsyncKernelManager):
    @default("kernel_spec_manager")
    def _kernel_spec_manager_default(self):
        return CurrentEnvKernelSpecs(data_dir=self.data_dir)


def _sliced(get_msg):
    """Read a kernel channel in polls of at most 1 s.

    pyzmq's asyncio poll can miss a wake-up (cells that display widgets show it) and nbclient
    then waits for the whole cell timeout before reading a reply that had already arrived
    (jupyter/nbclient#312); short polls pick it up. (tests/test_binder_env.py runs notebooks in
    the Binder environment with this client too.)
    """

    async def get(timeout=None):
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = 1.0 if deadline is None else min(1.0, max(0.0, deadline - time.monotonic()))
            try:
                return await get_msg(timeout=left)
            except Empty:
                if deadline is not None and time.monotonic() >= deadline:
                    raise

    return get


class Client(NotebookClient):
    async def async_start_new_kernel_client(self):
        kc = await super().async_start_new_kernel_client()
        for channel in (kc.shell_channel, kc.iopub_channel):
            channel.get_msg = _sliced(channel.get_msg)
        return kc


def _read(path):
    """The notebook at `path`; a cell without an id gets one from its position (nbformat would
    make up a random one), unless taken."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    if (raw.get("nbformat"), raw.get("nbformat_minor", 0)) >= (4, 5):
        taken = {cell.get("id") for cell in raw["cells"]}
        for i, cell in enumerate(raw["cells"]):
            if not cell.get("id"):
                new = f"{path.stem}-{i:02d}"
                while new in taken:
                    new += "a"
                cell["id"] = new
                taken.add(new)
    return nbformat.reads(json.dumps(raw), as_version=4)


def _minor(info):
    return (info.get("name"), str(info.get("version")).split(".")[:2])


def _stable_language_info(new, old):
    """The kernel's language_info, keeping the old version string for the same Python 3.x."""
    if old and _minor(old) == _minor(new):
        new = {**new, "version": old["version"]}
    return new


def _rename(obj, ids):
    """obj with every model id in `ids` (old -> new) replaced, in keys and in strings
    (a widget refers to another as "IPY_MODEL_<id>")."""
    if isinstance(obj, dict):
        return {ids.get(k, k): _rename(v, ids) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_rename(v, ids) for v in obj]
    if isinstance(obj, str):
        return re.sub(r"[0-9a-f]{32}", lambda m: ids.get(m.group(0), m.group(0)), obj)
    return obj


def _displays_widgets(nb):
    return any(
        WIDGET_VIEW in out.get("data", {})
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.outputs
    )


def _stable_widgets(nb, stem):
    """Drop widget state nobody sees; give the widgets ids that do not change between runs."""
    widgets = nb.metadata.get("widgets")
    if not widgets:
        return
    if not _displays_widgets(nb):
        del nb.metadata["widgets"]
        return
    # nbclient lists the models in the order the kernel created them.
    created = list(widgets[WIDGET_STATE]["state"])
    ids = {
        old: uuid.uuid5(uuid.NAMESPACE_URL, f"minitape/{stem}/{n}").hex
        for n, old in enumerate(created)
    }
    nb.metadata["widgets"] = nbformat.from_dict(_rename(widgets, ids))
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            view = out.get("data", {}).get(WIDGET_VIEW)
            if view:
                view["model_id"] = ids.get(view["model_id"], view["model_id"])


def _compact_png(data):
    """A figure's PNG (base64) in 256 colours: a plot has few, and the file is about a quarter
    of matplotlib's (the figures are drawn at twice their pixel size: see `execute`)."""
    from PIL import Image

    image = Image.open(io.BytesIO(base64.b64decode(data)))
    if image.mode == "P":  # already compacted
        return data
    out = io.BytesIO()
    image.quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(out, "PNG", optimize=True)
    return base64.b64encode(out.getvalue()).decode("ascii")


def _compact_figures(nb):
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            if "image/png" in output.get("data", {}):
                output["data"]["image/png"] = _compact_png(output["data"]["image/png"])


def execute(path):
    """Run the notebook at `path` and write it back; raises CellExecutionError if a cell fails."""
    nb = _read(path)
    old_language_info = nb.metadata.get("language_info")
    nb.metadata.pop("widgets", None)  # rebuilt from this run's widgets
    client = Client(
        nb,
        kernel_name="python3",
        kernel_manager_class=CurrentEnvKernelManager,
        timeout=CELL_TIMEOUT,
        record_timing=False,
        resources={"metadata": {"path": str(path.parent)}},  # the kernel starts there
        # Figures at twice their size in pixels, with their size set (matplotlib-inline's
        # "retina"): sharp on a high-DPI screen, in JupyterLab and the web edition alike.
        extra_arguments=["--InlineBackend.figure_formats=retina"],
    )
    # ipykernel draws figures inline unless MPLBACKEND says otherwise: make sure nothing does.
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    # The kernel process's own stderr (its start-up warnings) is dropped, as nbval drops it;
    # what a cell prints to sys.stderr still lands in the notebook.
    client.execute(env=env, stderr=subprocess.DEVNULL)

    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata["language_info"] = _stable_language_info(
        nb.metadata.get("language_info", {}), old_language_info
    )
    for cell in nb.cells:
        cell.metadata.pop("execution", None)  # timestamps, from an earlier run with record_timing
    _stable_widgets(nb, path.stem)
    _compact_figures(nb)
    nbformat.validate(nb)
    nbformat.write(nb, path)


def main(argv):
    if any(a.startswith("-") for a in argv) or any(not Path(a).is_file() for a in argv):
        print(__doc__.split("\n\n")[1], file=sys.stderr)  # (the usage lines)
        missing = [a for a in argv if not a.startswith("-") and not Path(a).is_file()]
        if missing:
            print(f"no such notebook: {', '.join(missing)}", file=sys.stderr)
        return 2
    if argv:
        paths = [Path(a).resolve() for a in argv]
    else:
        paths = sorted(
            p for p in (ROOT / "notebooks").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts
        )
    failed = []
    for path in paths:
        shown = os.path.relpath(path)
        start = time.perf_counter()
        try:
            execute(path)
        except CellExecutionError as err:
            failed.append(shown)
            print(f"FAILED   {shown}\n{err}", file=sys.stderr)
            continue
        print(f"executed {shown} ({time.perf_counter() - start:.0f} s)")
    if failed:
        print(
            f"{len(failed)} notebook(s) failed, left as they were: {', '.join(failed)}",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
