"""minitape/course/checks.py, the course's self-checks, judges fairly: every exercise rejects a
wrong answer and accepts the right one in more than one spelling; a count must be a whole
number; the tolerance is one unit of the decimals the exercise asks for, whatever the learner
typed; 07.3 and 08.3 are worked out from the notebook's own networks."""

from functools import partial

import numpy as np
import pytest

import minitape as tf
from minitape.course import checks

# The worked solutions' answers (notebooks/solutions), as plain Python.
RIGHT = {
    "00.1": 3,
    "00.2": 6.0,
    "01.1": 6.0,
    "01.2": 2.2232441902160645,
    "01.3": 3,
    "02.1": 0.5,
    "02.2": 2.94,
    "02.3": [1.9194968938827515, 10.025815963745117],
    "03.1": [True, False, True],
    "03.2": [-10.0, True],
    "03.3": [4.0, True],
    "04.1": [3.0, 0.5403022766113281],
    "04.2": 6,
    "04.3": 0.4,
    "04.4": [6, 12],
    "05.1": -3.0647151470184326,
    "05.2": [[0.0, 2.0], [2.0, 1.0]],
    "05.3": [850.0001220703125, 280.0000305175781],
    "05.4": [48.0, -0.4794255495071411],
    "05.5": 1.1309010982513428,
    "06.1": (9.0, 1.0),
    "06.2": -6.0,
    "06.3": (2, 1.0),
    "06.4": [-3.5999999046325684, 0.0],
    "07.1": {"D_X", "D_Y", "F"},
    "07.2": (-0.006692850962281227, -0.9933071732521057),
    "08.1": 16.0,
    "08.2": [4.799999713897705, -6.399996280670166],
    "08.4": (1.0, 1.1999999284744263, 1.5999990701675415),
    "09.1": 0.000699999975040555,
    "09.2": [[0.23076924681663513, 0.3076923191547394], [0.9230769872665405]],
    "09.3": 0,
    "10.1": [12.0, 27.0, 1],
    "10.2": [1, 2, 0.02711479738354683],
    "10.3": [0.3980003595352173, 0.20646701753139496, 0.18722715973854065],
    "11.1": 1.5,
    "11.2": [0.75, 0.25],
    "11.3": [4096.0, 0],
    "12.1": [10.125, 5.0625],
    "12.2": [2.0, None],
    "12.3": 2,
    "12.4": 4,
    "13.1": 11.416147232055664,
    "13.2": [15, 30],
    "13.3": [
        [0.8539001941680908, -0.298292875289917],
        [0.36141347885131836, 0.0],
        [1.8388736248016357, -0.894878625869751],
    ],
    "14.1": [4.0, 2.0, -16.0],
    "14.2": [-1.5, 1.2974424362182617],
    "14.3": 0.16925963759422302,
    "15.1": [1.4174242246593913, 0.46956439926573423],
    "15.2": [6.0, None],
    "15.3": [1.0806046117362795, 0.2701511529340699, -2.0, None],
    "16.1": -3.0647152602918295,
    "16.2": [2.9846152603318945, -0.4999999998981482],
    "16.3": [0.04818363466766618, 1.0],
}

# Wrong answers that an earlier version accepted, and other near misses.
WRONG = {
    "00.1": [3.4, 2, "3"],
    "11.1": [0.75],  # (with the ½ of tf.nn.l2_loss)
    "11.2": [[0.5, 0.5]],  # (the two means averaged)
    "13.2": [[15.4, 29.6], [15, 31]],
    "14.3": [0.3385],  # (along (0, 1, 1), not made a unit vector)
    "09.3": [0.4, 1],
    "10.2": [[2, 2, 0.0271], [1, 1, 0.0271]],
    "10.3": [[0.0, 0.0, 0.0], [0.333, 0.151, 0.117]],  # (the shortcut's; batches of 32)
    "03.1": [[True, True, True], [1, 0, 0]],
    "07.1": [{"D_X", "F"}, ["D_X", "D_Y", "G"]],
    "15.2": [[6.0, 0.0]],
    "16.3": [[0.0806, 0.995]],  # (the tanh network's loss and accuracy, not relu's)
    "12.2": [[2.0, 0.0], [None, 4.0]],
    "12.3": [4, 1, 2.5],
    "04.3": [0.8],  # (what a tape that kept every input and output would hold)
}


def _other_spelling(answer):
    """The same answer written another way: arrays for lists, float32 for floats, floats for
    ints, 0 and 1 for bools, a list in another order and case for a set."""
    if isinstance(answer, set):
        return [f"  {a.lower()} " for a in sorted(answer, reverse=True)]
    if isinstance(answer, bool):
        return int(answer)
    if isinstance(answer, int):
        return float(answer)
    if isinstance(answer, float):
        return np.float32(answer) if abs(answer) < 1e3 else np.float64(answer)
    if any(a is None for a in answer):
        return tuple(answer)
    if all(isinstance(a, bool) for a in answer):
        return np.array(answer)
    try:
        return tf.constant(np.array(answer, dtype=np.float64))
    except ValueError:  # (ragged: a tuple of arrays)
        return tuple(np.array(a, dtype=np.float32) for a in answer)


def _leaves(answer):
    if isinstance(answer, (list, tuple)):
        return [leaf for a in answer for leaf in _leaves(a)]
    return [answer]


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_the_right_answer_passes_in_two_spellings(name):
    answer = RIGHT[name]
    assert checks.is_correct(name, answer)
    assert checks.is_correct(name, _other_spelling(answer)), _other_spelling(answer)


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_an_answer_two_units_off_is_rejected(name):
    answer = RIGHT[name]
    decimals = checks.ANSWERS[name][0]
    if isinstance(answer, set):
        assert not checks.is_correct(name, set(sorted(answer)[1:]))
        return
    flat = np.array([np.nan if a is None else float(a) for a in _leaves(answer)])
    flat[0] += 2 * 10.0**-decimals if decimals else 1
    assert not checks.is_correct(name, flat), flat


@pytest.mark.parametrize("name", sorted(WRONG))
def test_wrong_answers_seen_before_are_rejected(name):
    for wrong in WRONG[name]:
        assert not checks.is_correct(name, wrong), wrong


def test_the_tolerance_is_one_unit_of_the_last_decimal_asked_for():
    # 01.2 is asked to 3 decimals: 2.2232... is 2.223
    for near in (2.223, 2.2232, 2.2236, 2.2224, 2.224):
        assert checks.is_correct("01.2", near), near
    for far in (2.2219, 2.2245, 2.22, 2.23, 2.0):
        assert not checks.is_correct("01.2", far), far


def test_a_count_must_be_a_whole_number():
    assert checks.is_correct("04.2", 6) and checks.is_correct("04.2", np.int64(6))
    assert checks.is_correct("04.2", 6.0)
    for wrong in (5.6, 6.4, 6.0001, 5, 7):
        assert not checks.is_correct("04.2", wrong), wrong


def test_08_3_is_worked_out_from_the_notebooks_own_critic():
    rng = np.random.default_rng(0)
    points = tf.constant(rng.standard_normal((8, 2)).astype(np.float32))
    for seed in (1, 2):  # a critic made again (a cell re-run) has another answer
        tf.random.set_seed(seed)
        critic = tf.keras.Sequential(
            [tf.keras.layers.Dense(4, activation="tanh"), tf.keras.layers.Dense(1)]
        )
        with tf.GradientTape() as tape:
            tape.watch(points)
            scores = critic(points)
        norm = tf.norm(tape.gradient(scores, points), axis=-1)
        penalty = float(tf.reduce_mean((norm - 1.0) ** 2))
        assert checks.is_correct("08.3", penalty, using=(tf, critic, points))
        assert checks.is_correct("08.3", np.float32(penalty), using=(tf, critic, points))
        assert not checks.is_correct("08.3", penalty + 0.01, using=(tf, critic, points))
    assert not checks.is_correct("08.3", penalty)  # (nothing to work it out from)


def test_07_3_is_worked_out_from_the_notebooks_own_networks():
    bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)

    def generator_loss(fake_output):
        return bce(tf.ones_like(fake_output), fake_output)

    noise = tf.constant(np.linspace(-1.0, 1.0, 8, dtype=np.float32).reshape(8, 1))
    for seed in (1, 2):  # networks made again (a cell re-run) have another answer
        tf.keras.utils.set_random_seed(seed)
        generator = tf.keras.Sequential(
            [tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)]
        )
        discriminator = tf.keras.Sequential(
            [tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)]
        )
        with tf.GradientTape(persistent=True) as tape:
            loss = generator_loss(discriminator(generator(noise)))
        by_parts = [tape.gradient(loss, v) for v in discriminator.trainable_variables]
        total = float(np.sum([np.sum(g.numpy()) for g in by_parts]))
        using = (tf, generator, discriminator, generator_loss, noise)
        assert checks.is_correct("07.3", total, using=using)
        assert checks.is_correct("07.3", np.float32(total), using=using)
        assert not checks.is_correct("07.3", total + 0.01, using=using)
    assert not checks.is_correct("07.3", total)  # (nothing to work it out from)


def test_reveal_agrees_whatever_the_spelling(capsys):
    for guess, outcome in [("Up", "up"), (" up ", "up"), (1, True), ([1, 0], [True, False])]:
        checks.reveal(guess, outcome)
        assert capsys.readouterr().out.endswith("you were right\n"), (guess, outcome)
    checks.reveal("down", "up")
    assert "not what you guessed" in capsys.readouterr().out


def test_a_staged_hint_teaches_the_method_first_and_tells_only_after_a_second_miss(
    capsys, monkeypatch
):
    monkeypatch.setattr(checks, "_MISSES", checks.collections.Counter())
    method, telling = checks.HINTS["13.2"]
    checks.check("13.2", ...)  # (not an answer yet: no miss counted)
    checks.check("13.2", [1, 2])
    first = capsys.readouterr().out.splitlines()[-1]
    assert method in first and telling not in first, first
    assert "more telling" in first
    checks.check("12.3", 4)  # a miss of another exercise does not advance 13.2's hints
    checks.check("13.2", [2, 3])
    second = capsys.readouterr().out.splitlines()[-1]
    assert telling in second and method not in second, second
    checks.check("13.2", [3, 4])  # the last hint stays
    assert telling in capsys.readouterr().out
    checks.check("13.2", RIGHT["13.2"])
    assert capsys.readouterr().out == "Exercise 2: correct\n"


def test_every_staged_hint_has_a_method_hint_then_a_more_telling_one():
    staged = {name for name, hints in checks.HINTS.items() if not isinstance(hints, str)}
    assert {"00.1", "02.1", "13.2"} <= staged
    for name in staged:
        assert len(checks.HINTS[name]) >= 2 and all(isinstance(h, str) for h in checks.HINTS[name])
    assert checks.hint("01.1", 5) == checks.HINTS["01.1"]  # a single hint, every time


def test_none_and_nan_are_different_answers(monkeypatch):
    nan = float("nan")
    answers = dict(checks.ANSWERS)
    for name, answer in [
        ("99.1", None),
        ("99.2", nan),
        ("99.3", [2.0, None]),
        ("99.4", [2.0, nan]),
    ]:
        answers[name] = (3, checks.fingerprint(name, answer, 3))
    monkeypatch.setattr(checks, "ANSWERS", answers)
    assert checks.is_correct("99.1", None) and not checks.is_correct("99.1", nan)
    assert not checks.is_correct("99.1", np.float32(nan)) and not checks.is_correct("99.1", [None])
    assert checks.is_correct("99.2", nan) and checks.is_correct("99.2", np.array(nan))
    assert not checks.is_correct("99.2", None)
    assert checks.is_correct("99.3", (2.0001, None)) and not checks.is_correct("99.3", [2.0, nan])
    assert checks.is_correct("99.4", np.array([2.0, nan])) and not checks.is_correct(
        "99.4", [2, None]
    )
    # and in the course's own exercises with a missing gradient in their answer
    for name in ("12.2", "15.2", "15.3"):
        with_nan = [nan if a is None else a for a in RIGHT[name]]
        assert not checks.is_correct(name, with_nan), name


def test_reveal_tells_none_from_nan(capsys):
    checks.reveal(None, float("nan"))
    assert "not what you guessed" in capsys.readouterr().out
    checks.reveal(float("nan"), None)
    assert "not what you guessed" in capsys.readouterr().out
    checks.reveal(None, None)
    assert capsys.readouterr().out.endswith("you were right\n")


# -- notebook 15's checks of the learner's own record and backward walk ------------------------
class _Tensor:
    """Notebook 15's Tensor, as the learner has it at section 3."""

    ids = iter(range(1, 10**9))

    def __init__(self, value):
        self.value = np.asarray(value, dtype=np.float64)
        self.id = next(self.ids)

    def __add__(self, other):
        return _Tensor(self.value + other.value)


_TAPES = []


class _Tape:
    def __init__(self):
        self.entries, self.watched = [], set()

    def __enter__(self):
        _TAPES.append(self)
        return self

    def __exit__(self, *exc):
        _TAPES.remove(self)


def _record(name, forward, inputs, rules, watch_output=True, every_tape=True, append=True):
    inputs = [x if isinstance(x, _Tensor) else _Tensor(x) for x in inputs]
    out = _Tensor(forward(*[x.value for x in inputs]))
    for tape in _TAPES if every_tape else _TAPES[-1:]:
        if any(x.id in tape.watched for x in inputs) and append:
            tape.entries.append((name, inputs, out, rules))
            if watch_output:
                tape.watched.add(out.id)
    return out


def _backward(entries, watched, target, add=True, newest_first=True):
    grads = {target.id: _Tensor(np.ones_like(target.value))}
    for _, inputs, out, rules in reversed(entries) if newest_first else entries:
        g = grads.get(out.id)
        if g is None:
            continue
        for x, rule in zip(inputs, rules):
            if x.id in watched:
                gx = rule(g)
                grads[x.id] = grads[x.id] + gx if add and x.id in grads else gx
    return grads


def _said(capsys, check, fn, *classes):
    check(fn, *classes)
    return capsys.readouterr().out


def test_check_record_passes_a_right_record_and_names_each_wrong_piece(capsys):
    def said(**wrong):
        return _said(capsys, checks.check_record, partial(_record, **wrong), _Tensor, _Tape)

    assert said() == "record: correct\n"
    assert "must be written down" in said(append=False)
    assert "output of a recorded op must be watched" in said(watch_output=False)
    assert "each recording tape decides" in said(every_tape=False)
    assert "replace the ..." in _said(capsys, checks.check_record, lambda *a: None, _Tensor, _Tape)


def test_check_backward_passes_a_right_walk_and_names_each_wrong_piece(capsys):
    def said(**wrong):
        return _said(capsys, checks.check_backward, partial(_backward, **wrong), _Tensor)

    assert said() == "backward: correct\n"
    assert "not 6" in said(add=False)  # the '=' walk
    assert "newest first" in said(newest_first=False)
    assert "replace the ..." in _said(capsys, checks.check_backward, lambda *a: None, _Tensor)
