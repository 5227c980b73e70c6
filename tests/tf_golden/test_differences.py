"""The pins of differences.py catch what they should: a change outside the pinned places, a
change of minitape's own answer at a pinned place, a fix, and a pin that equals TF."""

from . import serialize
from .differences import Differs, at, check, raises, tensor
from .test_golden import GOLDEN_PATH

TF = serialize.serialize(["kernel", [1.0, 2.0]])
ENTRY = Differs("names differ", {(0,): "k"})


def _minitape(name="k", values=(1.0, 2.0)):
    return serialize.serialize([name, list(values)])


def test_the_pinned_difference_alone_passes():
    assert check(ENTRY, TF, _minitape()) == []


def test_a_change_outside_the_pins_fails():
    assert check(ENTRY, TF, _minitape(values=(1.0, 0.0))) == ["result[1][1]: expected 2.0, got 0.0"]


def test_a_change_at_a_pin_fails():
    assert check(ENTRY, TF, _minitape("bias")) == ["result[0] (pinned): expected 'k', got 'bias'"]


def test_a_fix_fails_until_the_pin_goes():
    assert check(ENTRY, TF, _minitape("kernel")) == [
        "result[0]: minitape now gives TF's answer; drop the pin"
    ]


def test_a_pin_equal_to_tf_fails():
    assert check(Differs("", {(0,): "kernel"}), TF, _minitape("kernel")) == [
        "result[0]: the pin equals TF's record; drop it"
    ]


def test_a_whole_result_pin_and_its_message():
    entry = Differs("", {(): raises("TypeError", "bad")})
    tf_record = serialize.serialize(1.0)
    assert check(entry, tf_record, serialize.serialize(TypeError("bad"))) == []
    assert check(entry, tf_record, serialize.serialize(TypeError("other")))  # words pinned


def test_pins_written_as_tensors_compare_with_the_dtype_tolerance():
    entry = Differs("", {(1,): tensor("float32", [], 1.0)})
    tf_record = [{"kind": "py", "type": "str", "value": "a"}, tensor("float32", [], 0.0)]
    tf_record = {"kind": "list", "items": tf_record}
    got = {"kind": "list", "items": [tf_record["items"][0], tensor("float32", [], 0.99999994)]}
    assert check(entry, tf_record, got) == []


def test_at_walks_lists_and_dicts_and_says_none_past_the_end():
    record = serialize.serialize({"a": [1, 2]})
    assert at(record, ("a", 1)) == serialize.serialize(2)
    assert at(record, ("a", 5)) is None and at(record, ("b",)) is None


def test_the_record_holds_no_checkout_path():
    assert 'File \\"/' not in GOLDEN_PATH.read_text()
