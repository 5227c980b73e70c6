"""Record TensorFlow 2.21's outcome for every call of the fuzzer, into record.json.

flock /tmp/fuzz.lock env TF_CPP_MIN_LOG_LEVEL=3 .venv-tf/bin/python tests/fuzz/record.py

Some malformed calls make TF abort the whole process (a failed CHECK in a kernel: `conv2d` of a
rank-2 input). The calls therefore run in a worker process that writes each outcome as it
goes; when the worker dies, the call it was running is recorded as ["raises", "TF aborts"] and
a new worker carries on with the next call.
"""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from fuzz import calls  # noqa: E402

RECORD = HERE / "record.json"
ABORTS = ["raises", "TF aborts"]


def worker(start, out_path):
    """Run calls[start:] under TF, appending `index<TAB>outcome` lines to out_path."""
    import tensorflow as tf

    tf.get_logger().setLevel("ERROR")
    todo = calls.generate()
    with open(out_path, "a") as out:
        for i in range(start, len(todo)):
            out.write(f"{i}\tstart\n")
            out.flush()
            tf.random.set_seed(0)
            outcome = calls.outcome_of(tf, todo[i])
            out.write(f"{i}\t{json.dumps(outcome, allow_nan=False)}\n")
            out.flush()


def main():
    import tensorflow as tf

    if not tf.__version__.startswith("2.21."):
        sys.exit(f"record.py needs TensorFlow 2.21, this is {tf.__version__}")
    start = time.perf_counter()
    todo = calls.generate()
    outcomes = {}
    out_path = HERE / ".record-progress.tsv"
    out_path.unlink(missing_ok=True)
    next_call = 0
    while next_call < len(todo):
        subprocess.run(
            [sys.executable, __file__, "--worker", str(next_call), str(out_path)],
            stderr=subprocess.DEVNULL,
            check=False,
        )
        running = None
        for line in out_path.read_text().splitlines():
            i, text = line.split("\t", 1)
            if text == "start":
                running = int(i)
            else:
                outcomes[int(i)] = json.loads(text)
                running = None
        if running is not None and running not in outcomes:
            outcomes[running] = ABORTS
            print(f"TF aborts on {calls.call_id(todo[running])}")
        next_call = max(outcomes) + 1
    out_path.unlink()
    out = {calls.call_id(c): [c, outcomes[i]] for i, c in enumerate(todo)}
    text = json.dumps(
        {"tensorflow_version": tf.__version__, "calls": out},
        allow_nan=False,
        separators=(",", ":"),
        sort_keys=True,
    )
    RECORD.write_text(text.replace('],"', '],\n"') + "\n")
    raises = sum(o[0] == "raises" for _, o in out.values())
    aborts = sum(o == ABORTS for _, o in out.values())
    print(
        f"recorded {len(out)} calls under TensorFlow {tf.__version__} in "
        f"{time.perf_counter() - start:.1f} s ({raises} raise, {aborts} of them abort TF)"
    )


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        worker(int(sys.argv[2]), sys.argv[3])
    else:
        main()
