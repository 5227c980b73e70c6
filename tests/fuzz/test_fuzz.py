"""Replay every call of the differential fuzzer (calls.py, recorded under TensorFlow 2.21 in
record.json by record.py) against minitape: the same value where TF returns, the same exception
class where TF raises, and never an internal exception class that TF does not raise."""

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

import minitape

from . import calls
from .known import KNOWN

RECORD = json.loads((Path(__file__).resolve().parent / "record.json").read_text())
CALLS = RECORD["calls"]

# Exception classes that say "minitape's insides" (or numpy's) rather than "your mistake".
INTERNAL = {
    "AttributeError",
    "KeyError",
    "IndexError",
    "ZeroDivisionError",
    "OverflowError",
    "RecursionError",
    "AxisError",
    "UFuncTypeError",
    "UFuncNoLoopError",
    "_UFuncNoLoopError",
    "_UFuncBinaryResolutionError",
    "_UFuncInputCastingError",
    "_UFuncOutputCastingError",
    "ComplexWarning",
    "LinAlgError",
    "AssertionError",
    "UnboundLocalError",
    "NameError",
    "NotImplementedError",
    "StopIteration",
    "MemoryError",  # (TF's std::bad_alloc for a 0-d tensor as squeeze's list of axes)
    "broken result",
}


# Where TF itself fails with one of those (an AttributeError on a Python float's missing
# `.dtype`, a RecursionError, an AssertionError inside Keras), minitape raises the error of the
# family a learner's mistake belongs to instead (README, "Where minitape differs").
USER_ERRORS = {"TypeError", "ValueError", "InvalidArgumentError"}


def _close(a, b):
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return sorted(a) == sorted(b) and all(_close(a[k], b[k]) for k in a)
    if isinstance(a, float) and isinstance(b, float):
        return abs(a - b) <= 2e-3 * max(abs(a), abs(b)) + 2e-3
    return a == b and type(a) is type(b)


def minitape_outcome(call_id):
    """What minitape does with one recorded call, in the record's form."""
    call, _ = CALLS[call_id]
    minitape.random.set_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return calls.outcome_of(minitape, call)


def mismatch(call_id, got):
    """How minitape's outcome `got` differs from TF's for one recorded call ('' if it does not)."""
    expected = CALLS[call_id][1]
    if (
        got[0] in ("raises", "broken result")
        and got[1].split(":")[0] in INTERNAL
        and got != expected
    ):
        return f"leak: {got[1]} (TF: {expected})"
    if (
        expected[0] == "raises"
        and expected[1] in INTERNAL
        and got[0] == "raises"
        and got[1] in USER_ERRORS
    ):
        return ""  # TF leaks its insides; minitape says what was wrong (README)
    if expected == ["raises", "TF aborts"] and got[0] == "raises" and got[1] in USER_ERRORS:
        return ""  # TF's kernel fails a CHECK and ends the process; minitape names the mistake
    if not _close(expected, got):
        return f"TF {expected} != minitape {got}"
    return ""


@pytest.mark.parametrize("chunk", range(8))
def test_fuzz(chunk):
    failures = []
    for call_id in sorted(CALLS)[chunk::8]:
        got = minitape_outcome(call_id)
        problem = mismatch(call_id, got)
        if call_id in KNOWN:
            pinned = KNOWN[call_id][1]
            if not problem:
                failures.append(f"{call_id}: now matches TF, delete it from known.py")
            elif problem.startswith("leak"):
                failures.append(f"{call_id}: {problem}")
            elif not _close(pinned, got):
                failures.append(f"{call_id}: minitape's outcome was {pinned}, is now {got}")
        elif problem:
            failures.append(f"{call_id}: {problem}")
    assert not failures, f"{len(failures)} call(s) differ from TF:\n" + "\n".join(failures)


def test_record_is_tensorflow_2_21_and_complete():
    assert RECORD["tensorflow_version"].startswith("2.21.")
    assert len(CALLS) >= 2000
    assert not (set(KNOWN) - set(CALLS)), "known.py names calls that are not recorded"
    assert np.all([c[1][0] in ("raises", "returns") for c in CALLS.values()])
