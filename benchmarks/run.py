"""Side-by-side benchmark: minitape against numpy by hand, and the frameworks it teaches.

    python benchmarks/run.py            # everything (a few minutes)
    python benchmarks/run.py --quick    # fewer repeats, no course run
    python benchmarks/run.py --only W1,W5a --no-extras

Each workload runs as forward + gradient (+ the SGD update where it has one). Times are
the median over interleaved repeats, and every number that matters is a ratio to the
hand-written numpy forward+backward of the same math, measured in the same run (ratios
survive a noisy machine; absolute times don't). Before timing, every row's gradients are
checked against the numpy baseline, so no row measures a broken computation. Results go to
benchmarks/results/ (a markdown table and a bar chart).
"""

import os

# One thread everywhere, set before numpy (or any framework) is imported: the ratios should
# compare the tapes, not thread pools.
for _var in (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
    "TF_NUM_INTRAOP_THREADS",
    "TF_NUM_INTEROP_THREADS",
):
    os.environ[_var] = "1"
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import argparse  # noqa: E402
import gc  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

import workloads as W  # noqa: E402

WORKLOADS = ["W1", "W2", "W3", "W4", "W5a", "W5b"]
DESCRIPTIONS = {
    "W1": "scalar chain y = y*w + b, 1000 times (float64), d/dw, d/db",
    "W2": "MLP 10-32-32-1 tanh, batch 64, MSE, 6 gradients + SGD update (float32)",
    "W3": "the seed's linear regression: 100 points, 20 SGD steps, whole loop (float32)",
    "W4": "reduce_sum(tanh(A @ B) @ C), 512x512 float64, d/dA, d/dB, d/dC",
    "W5a": "d2/dx2 of sum(x**3), 1000 elements (float64), nested tapes",
    "W5b": "WGAN-GP penalty, critic 2-64-1 tanh, batch 64 (float32), d/d weights, nested tapes",
}
# Tolerances of the gradient check against numpy: float64 workloads must agree to rounding.
TOLERANCE = {"W1": 1e-9, "W2": 1e-4, "W3": 1e-4, "W4": 1e-9, "W5a": 1e-12, "W5b": 1e-4}
NA = "n/a (not available)"


# --- the frameworks -----------------------------------------------------------------------
def load_frameworks():
    """{row name: {workload: make(data) -> step} or a reason string}, in table order."""
    rows = {"numpy (by hand)": W.NUMPY}
    import minitape

    rows["minitape eager"] = {k: _bind(f, minitape, _eager) for k, f in W.TF_STYLE.items()}
    if callable(getattr(minitape, "function", None)):  # (not the module of the same name)
        rows["minitape.function"] = {
            k: _bind(f, minitape, minitape.function) for k, f in W.TF_STYLE.items()
        }
    else:
        rows["minitape.function"] = NA
    try:
        rows["HIPS autograd"] = W.autograd_impls()
    except ImportError:
        rows["HIPS autograd"] = "n/a (not installed)"
    try:
        import torch

        torch.set_num_threads(1)
        torch.set_num_interop_threads(1)
        rows[f"PyTorch {torch.__version__.split('+')[0]} eager"] = W.torch_impls()
    except ImportError:
        rows["PyTorch eager"] = "n/a (not installed)"
    try:
        import tensorflow as tf

        tf.config.threading.set_intra_op_parallelism_threads(1)
        tf.config.threading.set_inter_op_parallelism_threads(1)
        rows[f"TF {tf.__version__} eager"] = {
            k: _bind(f, tf, _eager) for k, f in W.TF_STYLE.items()
        }
        rows["tf.function"] = {k: _bind(f, tf, tf.function) for k, f in W.TF_STYLE.items()}
    except ImportError:
        rows["TF eager"] = rows["tf.function"] = "n/a (not installed)"
    return rows


def _eager(fn):
    return fn


def _bind(f, tf, compile):
    return lambda d: f(tf, compile, d)


def to_numpy(x):
    if hasattr(x, "detach"):  # torch
        x = x.detach()
    return np.asarray(x, dtype=np.float64)


def check(name, got, want, rtol):
    got = [to_numpy(g) for g in got]
    want = [to_numpy(g) for g in want]
    assert len(got) == len(want), f"{name}: {len(got)} results, numpy has {len(want)}"
    for i, (g, w) in enumerate(zip(got, want)):
        scale = float(np.max(np.abs(w))) or 1.0
        np.testing.assert_allclose(
            g.reshape(w.shape),
            w,
            rtol=rtol,
            atol=rtol * scale,
            err_msg=f"{name}: result {i} differs from numpy",
        )


# --- timing -------------------------------------------------------------------------------
def calibrate(step, target):
    """How many calls of `step` make one timed batch of about `target` seconds."""
    t0 = time.perf_counter()
    step()
    dt = time.perf_counter() - t0
    return max(1, int(target / max(dt, 1e-7)))


def time_workload(steps, repeats, target):
    """Median seconds per call for each step; the rows are interleaved in every repeat (in
    a rotating order) so that a slow moment of the machine hits all of them alike."""
    numbers = {name: calibrate(s, target) for name, s in steps.items()}
    samples = {name: [] for name in steps}
    names = list(steps)
    for r in range(repeats):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            s, n = steps[name], numbers[name]
            t0 = time.perf_counter()
            for _ in range(n):
                s()
            samples[name].append((time.perf_counter() - t0) / n)
    return {name: statistics.median(v) for name, v in samples.items()}


def run_workloads(rows, names, repeats, target):
    results = {}  # (row, workload) -> seconds, or a reason string
    for wl in names:
        d = W.data(wl)
        want = W.NUMPY[wl](d)()
        steps = {}
        for row, impls in rows.items():
            if isinstance(impls, str):
                results[row, wl] = impls
                continue
            step = impls[wl](d)
            check(f"{row} {wl}", step(), want, TOLERANCE[wl])  # also warms up / traces
            step()
            steps[row] = step
        print(f"{wl}: gradients agree with numpy for {len(steps)} rows; timing...", flush=True)
        for row, sec in time_workload(steps, repeats, target).items():
            results[row, wl] = sec
        gc.collect()
    return results


# --- the extras: import time, memory, the course ------------------------------------------
def import_time(module, runs=5):
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    times = []
    for _ in range(runs):
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
        if p.returncode != 0:
            return None
        times.append(float(p.stdout.strip().splitlines()[-1]))
    return statistics.median(times)


MEMORY_CHILD = """
import gc, sys, tracemalloc
sys.path.insert(0, {here!r}); sys.path.insert(0, {root!r})
import minitape, workloads as W

def rss_mb():
    with open('/proc/self/status') as f:
        for line in f:
            if line.startswith('VmRSS:'):
                return int(line.split()[1]) / 1024

step = W.w2_tf(minitape, lambda f: f, W.data('W2'))   # a training step, non-persistent tape
for _ in range(100):
    step()
tracemalloc.start()
out = []
for i in range(1, 10001):
    step()
    if i in (1000, 10000):
        gc.collect()     # count what is still alive, not cyclic garbage not yet collected
        cur, peak = tracemalloc.get_traced_memory()
        out.append((i, cur / 1e6, peak / 1e6, rss_mb()))
for row in out:
    print(*row)
"""


def memory():
    code = MEMORY_CHILD.format(here=str(HERE), root=str(ROOT))
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if p.returncode != 0:
        return f"failed: {p.stderr.strip().splitlines()[-1:]}"
    return [tuple(float(v) for v in line.split()) for line in p.stdout.split("\n") if line.strip()]


def course_time():
    books = [
        p for p in (ROOT / "notebooks").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts
    ]
    if not books:
        return "n/a (no notebooks yet)"
    t0 = time.perf_counter()
    p = subprocess.run(
        [sys.executable, "-m", "pytest", "notebooks", "-q", "-p", "no:cacheprovider"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    dt = time.perf_counter() - t0
    last = (p.stdout.strip().splitlines() or ["?"])[-1]
    return f"{dt:.1f} s for {len(books)} notebooks ({last})"


# --- report -------------------------------------------------------------------------------
def ratio_text(r):
    return f"×{r:.2f}" if r < 10 else f"×{r:.1f}" if r < 100 else f"×{r:.0f}"


def time_text(sec):
    ms = sec * 1e3
    return f"{ms:.3f} ms" if ms < 1 else f"{ms:.2f} ms" if ms < 100 else f"{ms:.0f} ms"


def markdown(rows, names, results, extras):
    base = next(iter(rows))
    lines = [
        "# minitape benchmark results",
        "",
        f"{extras['when']} · {extras['machine']} · one thread everywhere.",
        "",
        "Time per iteration (forward + gradient, plus the SGD update where the workload has "
        "one), median over interleaved repeats, and the ratio to numpy by hand in the same "
        "run. Every row's gradients were checked against numpy before timing.",
        "",
        "| | " + " | ".join(names) + " |",
        "|---|" + "---|" * len(names),
    ]
    for row in rows:
        cells = []
        for wl in names:
            v = results[row, wl]
            if isinstance(v, str):
                cells.append("n/a")
            elif row == base:
                cells.append(time_text(v))
            else:
                cells.append(f"{ratio_text(v / results[base, wl])} ({time_text(v)})")
        lines.append(f"| {row} | " + " | ".join(cells) + " |")
    na = {row: v for row, v in rows.items() if isinstance(v, str)}
    if na:
        lines += [""] + [f"- {row}: {why}" for row, why in na.items()]
    lines += ["", "Workloads:"] + [f"- {wl}: {DESCRIPTIONS[wl]}" for wl in names]
    lines += [
        "",
        "Notes: W2/W3 use each framework's own SGD (Keras `SGD` for TensorFlow and, "
        "where it has `keras`, minitape; `assign_sub` by hand otherwise; `torch.optim.SGD`; "
        "a numpy update for autograd). W3 uses Keras' `MeanSquaredError` where available, "
        "as the seed does. `function` rows trace the whole iteration (for W3 the whole "
        "20-step loop) into one graph.",
    ]
    lines += ["", "## Other measurements", ""] + [f"- {line}" for line in extras["lines"]]
    return "\n".join(lines) + "\n"


def chart(rows, names, results, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    base = next(iter(rows))
    shown = [r for r in rows if r != base and not isinstance(rows[r], str)]
    fig, ax = plt.subplots(figsize=(11, 5.5))
    width = 0.8 / max(len(shown), 1)
    colors = plt.get_cmap("tab10")
    for k, row in enumerate(shown):
        xs, ys = [], []
        for i, wl in enumerate(names):
            v = results[row, wl]
            if not isinstance(v, str):
                xs.append(i + (k - (len(shown) - 1) / 2) * width)
                ys.append(v / results[base, wl])
        ax.bar(xs, ys, width, label=row, color=colors(k))
        for x, y in zip(xs, ys):
            ax.text(
                x, y * 1.08, ratio_text(y)[1:], ha="center", va="bottom", fontsize=6.5, rotation=90
            )
    ax.axhline(1.0, color="black", lw=1, label="numpy by hand = 1")
    ax.set_yscale("log")
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names)
    ax.set_ylabel("time / numpy by hand (log scale, lower is faster)")
    ax.set_title("Forward + gradient, one thread: ratio to hand-written numpy in the same run")
    top = max((b.get_height() for b in ax.patches), default=10)
    ax.set_ylim(0.5, top * 10)
    ax.legend(fontsize=8, ncol=3, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--only", help="comma-separated workloads (default: all)")
    ap.add_argument("--quick", action="store_true", help="fewer, shorter repeats; no course run")
    ap.add_argument("--no-extras", action="store_true", help="skip import time, memory and course")
    ap.add_argument("--repeats", type=int, default=None)
    ap.add_argument("--out", default=str(HERE / "results"))
    args = ap.parse_args()
    names = args.only.split(",") if args.only else WORKLOADS
    repeats = args.repeats or (3 if args.quick else 11)
    target = 0.03 if args.quick else 0.1

    rows = load_frameworks()
    results = run_workloads(rows, names, repeats, target)

    base = next(iter(rows))
    extras = {
        "when": time.strftime("%Y-%m-%d"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, numpy {np.__version__}",
        "lines": [],
    }
    mt = results.get(("minitape eager", "W1"))
    if not isinstance(mt, (str, type(None))):
        n_ops = 2 * W.data("W1")["n"]
        extras["lines"].append(
            f"W1, per recorded op (forward + backward): minitape eager {mt / n_ops * 1e6:.2f} µs, "
            f"numpy by hand {results[base, 'W1'] / n_ops * 1e6:.2f} µs"
        )
    if not args.no_extras:
        mi, npi, tfi = import_time("minitape"), import_time("numpy"), import_time("tensorflow")
        extras["lines"].append(
            f"import time (fresh process, median of 5): minitape {mi:.3f} s (numpy alone "
            f"{npi:.3f} s), tensorflow " + (f"{tfi:.2f} s" if tfi else "n/a (not installed)")
        )
        mem = memory()
        if isinstance(mem, str):
            extras["lines"].append(f"memory: {mem}")
        else:
            (_, c1, p1, r1), (_, c10, p10, r10) = mem
            extras["lines"].append(
                f"memory, W2 training loop with a non-persistent tape: traced Python memory "
                f"{c1:.2f} MB after 1k steps, {c10:.2f} MB after 10k (peak {p10:.2f} MB); "
                f"RSS {r1:.1f} MB after 1k, {r10:.1f} MB after 10k: "
                + ("it does not grow." if c10 <= c1 + 0.1 and r10 <= r1 + 2 else "IT GROWS.")
            )
        extras["lines"].append(
            "the whole course (pytest notebooks): "
            + ("skipped (--quick)" if args.quick else course_time())
        )

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    text = markdown(rows, names, results, extras)
    (out / "results.md").write_text(text)
    chart(rows, names, results, out / "ratios.png")
    print()
    print(text)
    print(f"saved {out / 'results.md'} and {out / 'ratios.png'}")


if __name__ == "__main__":
    main()
