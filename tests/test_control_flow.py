"""Control flow runs as Python eagerly: a tape records what ran. Values and gradients derived by
hand; TF's eager quirks are in the golden record (tests/tf_golden/cases_control_flow.py)."""

import numpy as np
import pytest

import minitape as tf
from minitape.testing import check_grads


def test_cond_records_only_the_branch_taken():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cond(x > 1, lambda: x * x, lambda: tf.exp(x))
    assert [e[0].name for e in tape._entries] == ["Mul"]
    assert float(tape.gradient(y, x)) == 4.0


def test_while_loop_records_every_iteration():
    x = tf.constant(1.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        i, y = tf.while_loop(lambda i, y: i < 4, lambda i, y: (i + 1, y * x), [0, tf.constant(1.0)])
    assert int(i) == 4 and len(tape._entries) == 4
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), 4 * 1.5**3)  # d x^4 / dx


@pytest.mark.parametrize(
    "name, fn",
    [
        ("cond", lambda x: tf.cond(tf.reduce_sum(x) > 0, lambda: tf.sin(x) * x, lambda: x**3)),
        (
            "case",
            lambda x: tf.case(
                [(tf.reduce_sum(x) > 5, lambda: x), (tf.reduce_sum(x) > 0, lambda: tf.tanh(x) * x)],
                default=lambda: -x,
            ),
        ),
        (
            "while_loop",
            lambda x: tf.while_loop(
                lambda i, a: i < 3, lambda i, a: (i + 1, tf.sin(a) * x), [0, x]
            )[1],
        ),
        ("foldl", lambda x: tf.foldl(lambda a, e: a * e + tf.sin(e), x)),
        ("foldr", lambda x: tf.foldr(lambda a, e: a * e + e * e, x, initializer=x[0])),
        ("scan", lambda x: tf.scan(lambda a, e: tf.tanh(a + e) * e, x)),
        ("scan_reverse", lambda x: tf.scan(lambda a, e: a * e, x, reverse=True)),
        ("map_fn", lambda x: tf.map_fn(lambda e: e**3 + tf.exp(e), x)),
        ("vectorized_map", lambda x: tf.vectorized_map(lambda e: tf.sin(e) * e, x)),
    ],
)
def test_gradients_first_and_second_order(name, fn):
    check_grads(fn, np.array([0.7, -0.4, 1.3]))


def test_map_fn_over_rows_gradient():
    check_grads(
        lambda m: tf.map_fn(lambda r: tf.reduce_sum(r * r) * r, m), np.arange(6.0).reshape(3, 2) / 5
    )


def test_foldl_values():
    e = tf.constant([1.0, 2.0, 3.0])
    assert float(tf.foldl(lambda a, x: a - x, e)) == -4.0  # (1 - 2) - 3
    assert float(tf.foldr(lambda a, x: a - x, e)) == 0.0  # (3 - 2) - 1
    np.testing.assert_array_equal(tf.scan(lambda a, x: a + x, e, reverse=True).numpy(), [6, 5, 3])


def test_cond_inside_function_decides_on_every_call():
    # as TF's graph: the predicate is read on every call (minitape runs the Python code again,
    # since a replay could only repeat the branch taken while tracing)
    @tf.function
    def f(x):
        return tf.cond(x > 0, lambda: x * 2, lambda: -x)

    assert float(f(tf.constant(3.0))) == 6.0
    assert float(f(tf.constant(-3.0))) == 3.0
    assert f.experimental_get_tracing_count() == 1


def test_get_static_value_inside_function():
    seen = []

    @tf.function
    def f(x):
        seen.append((tf.get_static_value(x), tf.get_static_value(tf.constant(2.0))))
        return x

    f(tf.constant(1.0))
    assert seen == [(None, 2.0)]
    np.testing.assert_array_equal(tf.get_static_value(tf.constant([1, 2])), [1, 2])


def test_second_derivative_through_a_traced_while_loop():
    # y = x ** n by a loop in a tf.function: y'' = n (n - 1) x ** (n - 2), by hand
    @tf.function
    def power(x, n):
        body = lambda i, y: (i + 1, y * x)  # noqa: E731
        return tf.while_loop(lambda i, y: i < n, body, [0, tf.constant(1.0)])[1]

    @tf.function
    def inside(x, n):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = power(x, n)
            g = inner.gradient(y, x)
        return outer.gradient(g, x)

    for x0, n in [(2.0, 3), (3.0, 4), (1.5, 2)]:
        x = tf.constant(x0)
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = power(x, tf.constant(n))
            g = inner.gradient(y, x)
        expected = n * (n - 1) * x0 ** (n - 2)
        assert float(outer.gradient(g, x)) == pytest.approx(expected)
        assert float(inside(x, tf.constant(n))) == pytest.approx(expected)
