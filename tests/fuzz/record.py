"""Record TensorFlow 2.21's outcome for every call of the fuzzer, into record.json.

TF_CPP_MIN_LOG_LEVEL=3 .venv-tf/bin/python tests/fuzz/record.py
"""

import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from fuzz import calls  # noqa: E402

RECORD = HERE / "record.json"


def main():
    import tensorflow as tf

    tf.get_logger().setLevel("ERROR")
    if not tf.__version__.startswith("2.21."):
        sys.exit(f"record.py needs TensorFlow 2.21, this is {tf.__version__}")
    start = time.perf_counter()
    out = {}
    for call in calls.generate():
        tf.random.set_seed(0)
        out[calls.call_id(call)] = [call, calls.outcome_of(tf, call)]
    text = json.dumps(
        {"tensorflow_version": tf.__version__, "calls": out},
        allow_nan=False,
        separators=(",", ":"),
        sort_keys=True,
    )
    RECORD.write_text(text.replace('],"', '],\n"') + "\n")
    raises = sum(o[0] == "raises" for _, o in out.values())
    print(
        f"recorded {len(out)} calls under TensorFlow {tf.__version__} in "
        f"{time.perf_counter() - start:.1f} s ({raises} raise)"
    )


if __name__ == "__main__":
    main()
