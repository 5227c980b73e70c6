"""Run the course on real TensorFlow and compare every cell's printed output with the committed one.

    .venv-tf/bin/python tests/course_on_tf/run.py              # every notebook (`make test-tf`)
    .venv-tf/bin/python tests/course_on_tf/run.py notebooks/07_gans.ipynb
    .venv-tf/bin/python tests/course_on_tf/run.py --show-listed notebooks/07_gans.ipynb

The course promises that its `import minitape as tf` code runs unchanged on TensorFlow and prints
the same. Each lesson and solution notebook is run here with that one line changed to
`import tensorflow as tf` (other imports of minitape, `from minitape import viz` and the like,
stay: minitape is importable beside TF), in a kernel of this Python (the side environment
`.venv-tf`, `requirements-tf.txt`), started in the notebook's folder as nbval starts it. Each
code cell's text output is compared with the committed one as `compare.py` says (nbval's
sanitizing, floats within one unit of their last printed digit). A cell that raises goes on to
the next one (its error is its output).

Cells tagged `nbval-ignore-output` (widgets) are run and not compared. The cells listed in
`differences.py` are run and not compared: SKIP (minitape-only cells) and DIFFERS (where TF
prints something else). A listed cell that now prints the committed output fails the run, so
the lists cannot go stale; so does a listed cell id that is no longer in its notebook.

Prints one line per notebook with its time, a diff for every cell that differs, and exits 1 on
any unexpected difference or stale entry.
"""

import os
import re
import subprocess
import sys
import time
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(HERE), str(ROOT / "tools")]

import compare  # noqa: E402
from differences import DIFFERS, SKIP  # noqa: E402

SWAP = ("import minitape as tf", "import tensorflow as tf")
TF_VERSION = "2.21."
SHOW_LISTED = False  # --show-listed: a diff for the listed cells too (to word their reasons)
CELL_TIMEOUT = 600  # seconds (07's CycleGAN cell takes about 40 s under TF)

# TF's C++ logging quiet, so that only what a cell prints is compared (the one notice logged
# before TF reads this setting is dropped by `filtered`). `execute` also puts the repository on
# the kernel's PYTHONPATH: minitape importable beside TF, for `from minitape import viz` & co.
KERNEL_ENV = {"TF_CPP_MIN_LOG_LEVEL": "3"}


def notebooks():
    """Every lesson and solution notebook, as paths relative to the repository."""
    found = sorted((ROOT / "notebooks").glob("*.ipynb"))
    found += sorted((ROOT / "notebooks" / "solutions").glob("*.ipynb"))
    return [p.relative_to(ROOT).as_posix() for p in found]


def listed():
    """{(notebook, cell id): reason} for every SKIP and DIFFERS entry."""
    entries = {(nb, cell): reason for nb, cells in SKIP.items() for cell, reason in cells.items()}
    for key, reason in DIFFERS.items():
        if key in entries:
            raise SystemExit(f"{key} is in both SKIP and DIFFERS")
        entries[key] = reason
    return entries


def swapped(nb, name):
    """The notebook with `import minitape as tf` replaced by TF's import (it must be there)."""
    count = 0
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        lines = cell.source.split("\n")
        for i, line in enumerate(lines):
            if line.strip() == SWAP[0]:
                lines[i] = line.replace(*SWAP)
                count += 1
        cell.source = "\n".join(lines)
    if count != 1:
        raise SystemExit(f"{name}: expected one `{SWAP[0]}` line, found {count}")
    return nb


def execute(nb, folder):
    """Run `nb` in a fresh kernel of this Python started in `folder`; returns its seconds per cell
    id. A cell that raises keeps its error as output and the run goes on."""
    from execute_notebooks import Client, CurrentEnvKernelManager  # Jupyter: .venv-tf only

    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}  # figures inline
    env.update(KERNEL_ENV)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    seconds = {}

    class Timed(Client):
        async def async_execute_cell(self, cell, cell_index, *args, **kwargs):
            start = time.perf_counter()
            try:
                return await super().async_execute_cell(cell, cell_index, *args, **kwargs)
            finally:
                seconds[cell.get("id")] = time.perf_counter() - start

    client = Timed(
        nb,
        kernel_name="python3",
        kernel_manager_class=CurrentEnvKernelManager,
        timeout=CELL_TIMEOUT,
        allow_errors=True,
        record_timing=False,
        resources={"metadata": {"path": str(folder)}},
    )
    client.execute(env=env, stderr=subprocess.DEVNULL)  # (the kernel process's own stderr)
    return seconds


def compare_cells(name, committed, ran, sanitizers, listed_cells, skipped):
    """({(name, cell id): status}, [report lines]) for the code cells of one run; the status is
    compare.verdicts' "same", "differs" or "differs early" (a SKIP cell that printed something
    else before its minitape-only line stopped it)."""
    results, report = {}, []
    for old, new in zip(committed.cells, ran.cells):
        if old.cell_type != "code" or "nbval-ignore-output" in old.metadata.get("tags", []):
            continue
        want = compare.sanitize(compare.cell_text(old.outputs), sanitizers)
        got = compare.sanitize(compare.cell_text(filtered(new.outputs)), sanitizers)
        key = (name, old.id)
        if compare.same(want, got):
            results[key] = "same"
            if want != got:
                report.append(f"  cell {old.id} matches within the printed precision")
        elif key in skipped and not compare.agrees_until_it_stops(want, got):
            results[key] = "differs early"
            report.append(
                f"  cell {old.id} (in SKIP) differs before its minitape-only line stops it:\n"
                + indent(compare.diff(want, got), 4)
            )
        else:
            results[key] = "differs"
            if key not in listed_cells or SHOW_LISTED:
                report.append(f"  cell {old.id} differs:\n" + indent(compare.diff(want, got), 4))
    return results, report


# TF's C++ log lines that TF_CPP_MIN_LOG_LEVEL does not silence: `import tensorflow` logs the
# oneDNN notice before absl's logging is set up, and absl then writes everything to the process's
# stderr, which ipykernel forwards into the cell's output. Only lines in absl's own format go
# (a severity letter and the date, time, thread, file:line] prefix, or absl's notice about it).
ABSL_LINE = re.compile(
    r"^(?:WARNING: All log messages before absl::InitializeLog\(\) is called are written to "
    r"STDERR|[IWEF]\d{4} \d\d:\d\d:\d+\.\d+ +\d+ [\w.]+:\d+\] .*)\n",
    re.MULTILINE,
)


def filtered(outputs):
    """The cell's outputs without TF's C++ log lines in its stderr."""
    kept = []
    for out in outputs:
        if out.get("output_type") == "stream" and out.get("name") == "stderr":
            out = {**out, "text": ABSL_LINE.sub("", compare.joined(out.get("text")))}
            if not out["text"]:
                continue
        kept.append(out)
    return kept


def indent(text, n):
    return "\n".join(" " * n + line for line in text.splitlines())


def main(argv):
    try:
        tf_version = version("tensorflow-cpu")
    except PackageNotFoundError:
        tf_version = "none"
    if not tf_version.startswith(TF_VERSION):
        print(f"this needs tensorflow-cpu {TF_VERSION}x (found {tf_version}): run it in .venv-tf")
        return 2
    from execute_notebooks import _read  # Jupyter: .venv-tf only

    global SHOW_LISTED
    SHOW_LISTED = "--show-listed" in argv
    argv = [a for a in argv if a != "--show-listed"]
    names = [Path(a).resolve().relative_to(ROOT).as_posix() for a in argv] or notebooks()
    sanitizers = compare.read_sanitizers()
    entries = listed()
    skipped = {(nb, cell) for nb, cells in SKIP.items() for cell in cells}
    results, total = {}, time.perf_counter()
    for name in names:
        path = ROOT / name
        committed = _read(path)
        start = time.perf_counter()
        ran = swapped(_read(path), name)
        seconds = execute(ran, path.parent)
        took = time.perf_counter() - start
        got, report = compare_cells(name, committed, ran, sanitizers, entries, skipped)
        results.update(got)
        bad, _, _ = compare.verdicts(got, entries)
        slowest = max(seconds, key=seconds.get)
        print(
            f"{'ok  ' if not bad else 'FAIL'} {name:<45} {len(got):3d} cells compared, "
            f"{sum(key in entries for key in got):2d} listed, {len(bad)} differ  {took:4.0f} s "
            f"(slowest cell {slowest}: {seconds[slowest]:.0f} s)",
            flush=True,
        )
        for line in report:
            print(line, flush=True)
    unexpected, stale, unknown = compare.verdicts(results, entries)
    for key in stale:
        print(f"STALE {key[0]} cell {key[1]}: now prints the committed output; remove its entry")
    for key in unknown:
        print(f"UNKNOWN {key[0]} cell {key[1]}: listed, but no such compared cell")
    print(
        f"{len(names)} notebooks, {len(results)} cells compared, {len(unexpected)} differ "
        f"unlisted, {len(stale)} stale and {len(unknown)} unknown entries "
        f"({time.perf_counter() - total:.0f} s)"
    )
    return 1 if unexpected or stale or unknown else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
