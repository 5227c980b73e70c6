"""Replay every case of cases.py against minitape and compare with what TensorFlow 2.21 did
(golden.json, written by record.py). TensorFlow itself is never imported here."""

import json
from pathlib import Path

import pytest

import minitape

from . import cases, serialize
from .differences import DIFFERENCES, check

GOLDEN_PATH = Path(__file__).resolve().parent / "golden.json"
GOLDEN = json.loads(GOLDEN_PATH.read_text()) if GOLDEN_PATH.exists() else {"cases": {}}
RECORDED = GOLDEN["cases"]


@pytest.mark.parametrize("name", sorted(set(cases.CASES) | set(RECORDED)))
def test_case(name):
    if name not in cases.CASES:
        pytest.fail(
            f"{name} is in golden.json but no longer in cases.py: re-run record.py", pytrace=False
        )
    if name not in RECORDED:
        pytest.fail(f"{name} is not recorded: run record.py {name} (under .venv-tf)", pytrace=False)
    case = cases.CASES[name]
    got = serialize.run_case(case.fn, minitape)
    tolerances = {"rtol": case.rtol, "atol": case.atol}
    if name in DIFFERENCES:  # everything but the pinned places as TF, those as pinned
        diffs = check(DIFFERENCES[name], RECORDED[name], got, case.message, **tolerances)
    else:
        diffs = serialize.compare(RECORDED[name], got, message=case.message, **tolerances)
    if diffs:
        known = f" (differences.py: {DIFFERENCES[name].reason})" if name in DIFFERENCES else ""
        pytest.fail(
            f"minitape differs from TensorFlow {GOLDEN.get('tensorflow_version')} in "
            f"{name}{known}:\n" + "\n".join(diffs),
            pytrace=False,
        )


def test_record_is_tensorflow_2_21():
    assert GOLDEN.get("tensorflow_version", "").startswith("2.21."), GOLDEN.get(
        "tensorflow_version"
    )


def test_differences_name_cases():
    unknown = sorted(set(DIFFERENCES) - set(cases.CASES))
    assert not unknown, f"differences.py names cases that do not exist: {unknown}"
