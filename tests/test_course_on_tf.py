"""The comparison behind `make test-tf` (tests/course_on_tf): tolerance, sanitizing, stale entries.
Small strings only; neither TensorFlow nor a kernel is needed."""

import json
import re

import pytest
from course_on_tf import compare, differences, run

SANITIZERS = compare.read_sanitizers()


@pytest.mark.parametrize(
    "expected, got",
    [
        ("loss = 0.4358", "loss = 0.4359"),  # one unit of the 4th decimal
        ("loss = 0.4358", "loss = 0.4357"),
        ("largest difference: 1e-06", "largest difference: 2e-06"),
        ("[0.1 0.2]", "[0.1 0.2]"),
        ("x = -0.0000", "x = 0.0000"),
        ("0.30000001", "0.3"),  # printed to fewer digits: claimed to that precision only
        ("tf.Tensor(6.0, shape=(), dtype=float32)", "tf.Tensor(6.0, shape=(), dtype=float32)"),
    ],
)
def test_floats_match_within_one_unit_of_their_last_digit(expected, got):
    assert compare.same(expected, got)


@pytest.mark.parametrize(
    "expected, got",
    [
        ("loss = 0.4358", "loss = 0.4360"),  # two units
        ("loss = 0.4358", "loss = 0.4358 "),  # text around numbers is exact
        ("8 entries", "9 entries"),  # integers are exact: counts, shapes, steps
        ("shape (3, 16)", "shape (3, 17)"),
        ("sequential/dense_1/kernel", "sequential/dense_2/kernel"),  # a digit in a name is text
        ("dtype=float32", "dtype=float64"),
        ("is 3.", "is 4."),  # a sentence's end, or numpy's whole float: as written
        ("1.5", "1.5 2.5"),  # a number more
        ("nan", "0.0"),
        ("correct", "not yet"),
    ],
)
def test_anything_else_must_be_equal(expected, got):
    assert not compare.same(expected, got)


def test_numbers_inside_names_are_not_numbers():
    found = compare.NUMBER.findall("float32 595x255 nb00-03 x:0 (2, 3) -1.5e-03 [1. 2.] a-1")
    assert found == ["0", "2", "3", "-1.5e-03", "1.", "2."]


def test_sanitize_cfg_is_applied_as_nbval_applies_it():
    text = "<Variable object at 0x7f3a2b1c>"
    assert compare.sanitize(text, SANITIZERS) == "<Variable object at 0xADDRESS>"
    assert compare.same(
        compare.sanitize("at 0x7f00", SANITIZERS), compare.sanitize("at 0xbeef", SANITIZERS)
    )


def test_cell_text_keeps_streams_apart_and_labels_results_and_errors():
    outputs = [
        {"output_type": "stream", "name": "stdout", "text": "a\n"},
        {"output_type": "stream", "name": "stderr", "text": "WARNING:x\n"},
        {"output_type": "stream", "name": "stdout", "text": ["b", "\n"]},
        {"output_type": "display_data", "data": {"image/png": "...", "text/plain": "<Figure>"}},
        {"output_type": "execute_result", "data": {"text/plain": "3"}, "execution_count": 1},
        {"output_type": "error", "ename": "ValueError", "evalue": "bad", "traceback": ["..."]},
    ]
    assert compare.cell_text(outputs) == (
        "a\nb\n[stderr]\nWARNING:x\n[result] <Figure>\n[result] 3\n[error] ValueError: bad\n"
    )
    assert compare.cell_text([]) == ""


def test_tf_log_lines_are_dropped_and_nothing_else():
    absl = (
        "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR\n"
        "I0000 00:00:1796212728.745983    4377 port.cc:153] oneDNN custom operations are on.\n"
    )
    kept = "WARNING:tensorflow:Calling GradientTape.gradient on a persistent tape\n"
    outputs = [
        {"output_type": "stream", "name": "stderr", "text": absl},
        {"output_type": "stream", "name": "stdout", "text": absl},  # stdout: not TF's log
        {"output_type": "stream", "name": "stderr", "text": absl + kept},
    ]
    assert run.filtered(outputs) == [
        outputs[1],
        {"output_type": "stream", "name": "stderr", "text": kept},
    ]


def test_verdicts_find_unlisted_differences_stale_entries_and_unknown_cells():
    results = {
        ("a.ipynb", "c1"): "same",
        ("a.ipynb", "c2"): "differs",
        ("a.ipynb", "c3"): "differs",
        ("a.ipynb", "c4"): "differs early",
    }
    listed = {
        ("a.ipynb", "c1"): "listed, but matches now",
        ("a.ipynb", "c3"): "listed and differs",
        ("a.ipynb", "c4"): "listed, but went wrong before its minitape-only line",
        ("a.ipynb", "gone"): "no such cell",
        ("b.ipynb", "c1"): "a notebook not run this time",
    }
    unexpected, stale, unknown = compare.verdicts(results, listed)
    assert unexpected == [("a.ipynb", "c2"), ("a.ipynb", "c4")]
    assert stale == [("a.ipynb", "c1")]
    assert unknown == [("a.ipynb", "gone")]


@pytest.mark.parametrize(
    "got, agrees",
    [
        ("y = 10.0\n[error] AttributeError: no _entries\n", True),  # stopped after a same line
        ("y = 10.00001\n[error] AttributeError: no _entries\n", True),  # within precision
        ("[error] NameError: name 'walk' is not defined\n", True),  # stopped at once
        ("y = 11.0\n[error] AttributeError: no _entries\n", False),  # went wrong before
        ("y = 10.0\nrecorded: []\n", True),  # did not stop: only `same` judges it
    ],
)
def test_a_skipped_cell_must_agree_until_it_stops(got, agrees):
    expected = "y = 10.0\nrecorded: ['Mul', 'AddV2']\n"
    assert compare.agrees_until_it_stops(expected, got) is agrees


def test_the_import_swap_changes_exactly_one_line():
    nbformat = pytest.importorskip("nbformat")
    source = "import numpy as np\n\nimport minitape as tf\nfrom minitape import viz"
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source), nbformat.v4.new_markdown_cell(source)]
    run.swapped(nb, "x.ipynb")
    assert nb.cells[0].source == source.replace("minitape as tf", "tensorflow as tf")
    assert nb.cells[1].source == source
    with pytest.raises(SystemExit, match="found 0"):
        run.swapped(nb, "x.ipynb")


def test_every_listed_cell_exists_and_has_a_reason():
    """(The run also fails on these; this catches a typo without TensorFlow.)"""
    entries = run.listed()
    for (notebook, cell), reason in entries.items():
        path = compare.ROOT / notebook
        assert path.is_file(), notebook
        cells = {c["id"]: c for c in json.loads(path.read_text())["cells"]}
        assert cells.get(cell, {}).get("cell_type") == "code", f"{notebook}: no code cell {cell}"
        assert len(reason.split()) >= 4, f"{notebook} {cell}: say why"
    assert set(differences.SKIP) <= set(run.notebooks())
    assert all(re.fullmatch(r"notebooks/.+\.ipynb", nb) for nb, _ in entries)
