"""recompute_grad: the same gradients as the function itself, for a fraction of the memory a tape
holds; grad_pass_through: the identity's gradient."""

import weakref

import numpy as np
import pytest

import minitape as tf
from minitape.testing import check_grads

DEPTH, WIDTH = 40, 64


MADE = {"MatMul": [], "Tanh": []}  # weak references to every layer's outputs


def _deep(x, ws):
    for w in ws:
        z = x @ w
        x = tf.tanh(z)
        MADE["MatMul"].append(weakref.ref(z))
        MADE["Tanh"].append(weakref.ref(x))
    return tf.reduce_sum(x * x)


def test_recompute_grad_keeps_one_entry_and_the_same_gradients():
    rng = np.random.default_rng(0)
    x = tf.constant(rng.standard_normal((32, WIDTH)))
    ws = [tf.Variable(rng.standard_normal((WIDTH, WIDTH)) / 8) for _ in range(DEPTH)]
    results = {}
    for label, f in (("plain", _deep), ("recompute", tf.recompute_grad(_deep))):
        MADE["MatMul"].clear(), MADE["Tanh"].clear()
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x, ws)
        alive = {k: sum(r() is not None for r in refs) for k, refs in MADE.items()}
        results[label] = len(tape._entries), alive, tape.gradient(y, [x] + ws)
    plain_entries, plain_alive, plain_grads = results["plain"]
    entries, alive, grads = results["recompute"]
    assert plain_entries == 2 * DEPTH + 2  # matmul and tanh per layer, x*x, the sum
    assert entries == 1  # the whole call, as one op
    # plain: the tape keeps every Tanh output (its rule reads it) and no MatMul output (Tanh's
    # rule does not read its input, MatMul's rule not its output), as TF does;
    # recompute: none of them (f runs again for the gradient)
    assert plain_alive == {"MatMul": 0, "Tanh": DEPTH}
    assert alive == {"MatMul": 0, "Tanh": 0}
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
