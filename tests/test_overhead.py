"""The per-op cost of the tape, counted in Python function calls (not timed: a count does not
depend on the machine or on what else runs on it). Each budget is what the code costs now;
a change that makes one of these paths call more functions fails here, and either finds a
cheaper way or raises the budget on purpose, with the benchmark's numbers to show for it
(benchmarks/README.md)."""

import sys

import numpy as np
import pytest

import minitape as tf

BUDGETS = {  # Python function calls, the op's numpy forward included where it is one
    "recorded binary op (tensor * tensor)": 3,
    "recorded binary op (tensor * variable)": 4,
    "recorded binary op (tensor * 2.0)": 4,
    "recorded matmul (tensor @ variable)": 5,
    "variable read (v.value())": 2,
    "backward step, nothing records (Mul)": 4,
    "backward step, recorded by an outer tape (Mul)": 14,
    "new tape (make, enter, leave)": 4,
    "gradient() of one op": 12,
    "Keras SGD apply_gradients (two variables)": 15,
    "Keras MeanSquaredError()(y_true, y_pred)": 11,
}


def calls(fn):
    """How many Python functions run during `fn()`, not counting `fn` itself."""
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        count += event == "call"

    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return count - 1


def _chain(n, outer=False):
    """A watched x and w, y = x * w * w * ... (n multiplications) on a persistent tape; with
    `outer`, an outer tape watches them too, so the backward sweep is recorded."""
    x, w = tf.constant(np.float64(0.5)), tf.constant(np.float64(0.9))
    tapes = [tf.GradientTape(persistent=True) for _ in range(2 if outer else 1)]
    for t in tapes:
        t.__enter__()
        t.watch([x, w])
    y = x
    for _ in range(n):
        y = y * w
    for t in reversed(tapes):
        t.__exit__(None, None, None)
    inner = tapes[-1]
    if outer:
        tapes[0].__enter__()  # (the outer tape listens while the inner one differentiates)
    try:
        return calls(lambda: inner.gradient(y, [x, w]))
    finally:
        if outer:
            tapes[0].__exit__(None, None, None)


def measure():
    x, w = tf.constant(np.float64(0.5)), tf.constant(np.float64(0.9))
    v = tf.Variable(np.float64(2.0))
    m, mv = tf.constant(np.ones((3, 3))), tf.Variable(np.ones((3, 3)))
    got = {}
    with tf.GradientTape() as tape:
        tape.watch([x, w])
        v.value(), mv.value()  # (first reads: the tape starts watching them)
        got["recorded binary op (tensor * tensor)"] = calls(lambda: x * w)
        got["recorded binary op (tensor * variable)"] = calls(lambda: x * v)
        got["recorded binary op (tensor * 2.0)"] = calls(lambda: x * 2.0)
        got["recorded matmul (tensor @ variable)"] = calls(lambda: tf.matmul(m, mv))
        got["variable read (v.value())"] = calls(lambda: v.value())
    got["backward step, nothing records (Mul)"] = _chain(11) - _chain(10)
    got["backward step, recorded by an outer tape (Mul)"] = _chain(11, True) - _chain(10, True)

    def new_tape():
        with tf.GradientTape():
            pass

    got["new tape (make, enter, leave)"] = calls(new_tape)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * w
    got["gradient() of one op"] = calls(lambda: tape.gradient(y, [x]))
    opt, mse = tf.keras.optimizers.SGD(0.1), tf.keras.losses.MeanSquaredError()
    w, b = tf.Variable(1.0), tf.Variable(1.0)
    grads = [tf.constant(0.5), tf.constant(0.25)]
    opt.apply_gradients(zip(grads, [w, b]))  # (the first call builds the optimizer)
    got["Keras SGD apply_gradients (two variables)"] = calls(
        lambda: opt.apply_gradients(zip(grads, [w, b]))
    )
    y_true, y_pred = tf.constant(np.ones(100, np.float32)), tf.constant(np.zeros(100, np.float32))
    got["Keras MeanSquaredError()(y_true, y_pred)"] = calls(lambda: mse(y_true, y_pred))
    return got


@pytest.mark.parametrize("what", list(BUDGETS))
def test_the_cost_of_the_tape_stays_within_its_budget(what):
    got = measure()[what]
    assert got <= BUDGETS[what], (
        f"{what}: {got} Python function calls, budget {BUDGETS[what]}. Is the new work "
        "needed on this path? (If it is, raise the budget with the benchmark's numbers.)"
    )


def test_the_counter_counts_calls():
    def two():
        return abs(one()) + one()

    def one():
        return 1

    assert calls(two) == 2 and calls(one) == 0
