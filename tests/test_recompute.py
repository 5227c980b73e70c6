"""recompute_grad: the same gradients as the function itself, for a fraction of the memory a tape
holds; grad_pass_through: the identity's gradient."""

import numpy as np
import pytest

import minitape as tf
from minitape.testing import check_grads

DEPTH, WIDTH = 40, 64


def _deep(x, ws):
    for w in ws:
        x = tf.tanh(x @ w)
    return tf.reduce_sum(x * x)


def _held(tape, variables):
    """Entries a tape keeps, and the bytes of the distinct tensors those entries hold, besides
    the variables' own values (which the variables hold anyway)."""
    own = {id(v._read_value()) for v in variables}
    tensors = {}
    for _op, inputs, out, _attrs in tape._entries:
        for t in (*inputs, out):
            if id(t._value) not in own:
                tensors[t._id] = t._value.nbytes
    return len(tape._entries), sum(tensors.values())


def test_recompute_grad_keeps_one_entry_and_the_same_gradients():
    rng = np.random.default_rng(0)
    x = tf.constant(rng.standard_normal((32, WIDTH)))
    ws = [tf.Variable(rng.standard_normal((WIDTH, WIDTH)) / 8) for _ in range(DEPTH)]
    results = {}
    for label, f in (("plain", _deep), ("recompute", tf.recompute_grad(_deep))):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x, ws)
        held = _held(tape, ws)
        results[label] = held, tape.gradient(y, [x] + ws)
    (plain_entries, plain_bytes), plain_grads = results["plain"]
    (entries, nbytes), grads = results["recompute"]
    assert plain_entries == 2 * DEPTH + 2  # matmul and tanh per layer, x*x, the sum
    assert entries == 1  # the whole call, as one op
    # plain: every activation (32 x 64 float64 = 16 KiB, two per layer) and more;
    # recompute: x and the result only
    assert plain_bytes >= 2 * DEPTH * 32 * WIDTH * 8
    assert nbytes == 32 * WIDTH * 8 + 8
    print(f"\nentries {plain_entries} -> {entries}, bytes held {plain_bytes} -> {nbytes}")
    for a, b in zip(plain_grads, grads):
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-12)


@pytest.mark.parametrize(
    "fn",
    [
        lambda a: tf.sin(a) * a,
        lambda a: tf.reduce_sum(tf.tanh(a) ** 2) * a,
    ],
    ids=["elementwise", "reduction"],
)
def test_recompute_grad_check_grads(fn):
    check_grads(tf.recompute_grad(fn), np.array([0.4, -1.1, 2.0]), order=2)


def test_recompute_grad_two_inputs_and_the_same_one_twice():
    f = tf.recompute_grad(lambda a, b: a * b + tf.exp(a))
    check_grads(f, np.array([0.5, 1.0]), np.array([2.0, -1.0]))
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x, x)  # d/dx (x^2 + e^x) = 2x + e^x
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), 4 + np.exp(2.0), rtol=1e-6)


def test_grad_pass_through():
    x = tf.constant([0.4, 1.6])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.grad_pass_through(tf.round)(x) * tf.constant([1.0, 3.0])
    np.testing.assert_array_equal(y.numpy(), [0.0, 6.0])
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [1.0, 3.0])
