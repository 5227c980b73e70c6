"""Record what real TensorFlow 2.21 does for every case in cases.py, into golden.json.

    TF_CPP_MIN_LOG_LEVEL=3 .venv-tf/bin/python tests/tf_golden/record.py            # every case
    TF_CPP_MIN_LOG_LEVEL=3 .venv-tf/bin/python tests/tf_golden/record.py NAME ...   # only these

With names, only those cases are (re-)recorded and merged into the existing file; without, the
file is rewritten from scratch (cases no longer in cases.py disappear from it).
"""

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # so that `tf_golden` is importable as a package

from tf_golden import cases, serialize  # noqa: E402

GOLDEN = HERE / "golden.json"
REQUIRED = "2.21."


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="cases to re-record (default: all)")
    args = parser.parse_args(argv)

    import tensorflow as tf

    tf.get_logger().setLevel("ERROR")  # (TF's warnings are not part of the record)
    if not tf.__version__.startswith(REQUIRED):
        sys.exit(
            f"record.py needs TensorFlow {REQUIRED}x, this is {tf.__version__}: "
            f"install it with `.venv-tf/bin/pip install tensorflow-cpu==2.21.0`"
        )

    unknown = [n for n in args.names if n not in cases.CASES]
    if unknown:
        sys.exit(f"no such case in cases.py: {', '.join(unknown)}")

    if args.names and GOLDEN.exists():
        golden = json.loads(GOLDEN.read_text())
    else:
        golden = {"cases": {}}
    golden["tensorflow_version"] = tf.__version__

    names = args.names or sorted(cases.CASES)
    start = time.perf_counter()
    for name in names:
        try:
            golden["cases"][name] = serialize.run_case(cases.CASES[name].fn, tf)
        except TypeError as e:  # a result the record cannot describe: fix the case
            sys.exit(f"{name}: {e}")
    # (sorted; a record whose case is gone from cases*.py goes too)
    golden["cases"] = {n: r for n, r in sorted(golden["cases"].items()) if n in cases.CASES}

    GOLDEN.write_text(serialize.dumps(golden) + "\n")
    errors = sum(1 for n in names if (golden["cases"][n] or {}).get("kind") == "error")
    print(
        f"recorded {len(names)} case(s) under TensorFlow {tf.__version__} in "
        f"{time.perf_counter() - start:.1f} s ({errors} raise); {len(golden['cases'])} in "
        f"{GOLDEN.relative_to(Path.cwd()) if GOLDEN.is_relative_to(Path.cwd()) else GOLDEN}"
    )


if __name__ == "__main__":
    main()
