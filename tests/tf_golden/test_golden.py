"""Replay every case of cases.py against minitape and compare with what TensorFlow 2.21 did
(golden.json, written by record.py). TensorFlow itself is never imported here."""

import json
from pathlib import Path

import pytest

import minitape

from . import cases, serialize
from .xfail import XFAIL

GOLDEN_PATH = Path(__file__).resolve().parent / "golden.json"
GOLDEN = json.loads(GOLDEN_PATH.read_text()) if GOLDEN_PATH.exists() else {"cases": {}}
RECORDED = GOLDEN["cases"]


def _param(name):
    marks = []
    if name in XFAIL and name in RECORDED and name in cases.CASES:  # (unrecorded always fails)
        marks.append(pytest.mark.xfail(strict=True, reason=XFAIL[name]))
    return pytest.param(name, id=name, marks=marks)


@pytest.mark.parametrize("name", [_param(n) for n in sorted(set(cases.CASES) | set(RECORDED))])
def test_case(name):
    if name not in cases.CASES:
        pytest.fail(
            f"{name} is in golden.json but no longer in cases.py: re-run record.py", pytrace=False
        )
    if name not in RECORDED:
        pytest.fail(f"{name} is not recorded: run record.py {name} (under .venv-tf)", pytrace=False)
    case = cases.CASES[name]
    got = serialize.run_case(case.fn, minitape)
    diffs = serialize.compare(
        RECORDED[name], got, message=case.message, rtol=case.rtol, atol=case.atol
    )
    if diffs:
        pytest.fail(
            f"minitape differs from TensorFlow {GOLDEN.get('tensorflow_version')} in "
            f"{name}:\n" + "\n".join(diffs),
            pytrace=False,
        )


def test_record_is_tensorflow_2_21():
    assert GOLDEN.get("tensorflow_version", "").startswith("2.21."), GOLDEN.get(
        "tensorflow_version"
    )


def test_xfail_names_are_cases():
    unknown = sorted(set(XFAIL) - set(cases.CASES))
    assert not unknown, f"xfail.py names cases that do not exist: {unknown}"
