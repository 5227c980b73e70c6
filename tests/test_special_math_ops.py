"""tf.math's special functions (special_math_ops.py): every gradient rule against finite
differences to second order, over shapes and broadcasting; values against known numbers
(the golden cases check them against TF)."""

import math

import numpy as np
import pytest
from test_grads import _broadcastable_pairs  # (the shapes that broadcast together)

import minitape as tf
from minitape.testing import check_grads

rng = np.random.default_rng(11)


def rand(shape, low=-2.0, high=2.0):
    return rng.uniform(low, high, size=shape)


def inside_one(shape):
    return rand(shape, -0.9, 0.9)


def above_one(shape):
    return rand(shape, 1.2, 3.0)


def positive(shape):
    return rand(shape, 0.5, 2.0)


def away_from_zero(shape):
    return rng.uniform(0.3, 2.0, size=shape) * rng.choice([-1.0, 1.0], size=shape)


UNARY = {
    "acos": (tf.math.acos, inside_one),
    "asin": (tf.math.asin, inside_one),
    "atan": (tf.math.atan, rand),
    "acosh": (tf.math.acosh, above_one),
    "asinh": (tf.math.asinh, rand),
    "atanh": (tf.math.atanh, inside_one),
    "sinh": (tf.math.sinh, rand),
    "cosh": (tf.math.cosh, rand),
    "expm1": (tf.math.expm1, rand),
    "rsqrt": (tf.math.rsqrt, positive),
    "reciprocal": (tf.math.reciprocal, away_from_zero),
    "erfc": (tf.math.erfc, rand),
    "lgamma": (tf.math.lgamma, positive),
    "digamma": (tf.math.digamma, positive),
    "polygamma_2": (lambda x: tf.math.polygamma(tf.constant(2.0, tf.float64), x), positive),
    "zeta_3": (lambda q: tf.math.zeta(tf.constant(3.0, tf.float64), q), positive),
    "euclidean_norm": (tf.math.reduce_euclidean_norm, away_from_zero),
    "euclidean_norm_axis": (lambda x: tf.math.reduce_euclidean_norm(x, -1), away_from_zero),
    "euclidean_norm_kept": (
        lambda x: tf.math.reduce_euclidean_norm(x, 0, keepdims=True),
        away_from_zero,
    ),
}


@pytest.mark.parametrize("shape", [(), (4,), (3, 4)])
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary(name, shape):
    fn, gen = UNARY[name]
    if ("axis" in name or "kept" in name) and shape == ():
        pytest.skip("a scalar has no axis to reduce")
    check_grads(fn, gen(shape))


BINARY = {
    "atan2": (tf.math.atan2, rand, away_from_zero),
    "xlogy": (tf.math.xlogy, rand, positive),
    "xdivy": (tf.math.xdivy, rand, away_from_zero),
    "squared_difference": (tf.math.squared_difference, rand, rand),
}


@pytest.mark.parametrize("shapes", list(_broadcastable_pairs()), ids=str)
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_broadcasting(name, shapes):
    fn, gen_a, gen_b = BINARY[name]
    check_grads(fn, gen_a(shapes[0]), gen_b(shapes[1]))


def test_known_values():
    # Euler's constant, pi^2/6, and Python's own lgamma and erfc
    x = tf.constant([1.0, 0.5, 3.5], tf.float64)
    assert tf.math.digamma(x).numpy()[0] == pytest.approx(-0.5772156649015329, rel=1e-15)
    assert tf.math.polygamma(tf.constant(1.0, tf.float64), x).numpy()[0] == pytest.approx(
        math.pi**2 / 6, rel=1e-15
    )
    assert tf.math.lgamma(x).numpy().tolist() == [math.lgamma(v) for v in (1.0, 0.5, 3.5)]
    assert tf.math.erfc(x).numpy().tolist() == [math.erfc(v) for v in (1.0, 0.5, 3.5)]
    # digamma(x + 1) = digamma(x) + 1/x, at a negative point too (the reflection)
    for v in (-2.5, 0.3, 7.0):
        d = tf.math.digamma(tf.constant([v, v + 1], tf.float64)).numpy()
        assert d[1] - d[0] == pytest.approx(1 / v, rel=1e-12)


def test_xlogy_and_xdivy_are_zero_where_x_is_zero():
    zero, y = tf.constant([0.0, 0.0]), tf.constant([0.0, 2.0])
    assert tf.math.xlogy(zero, y).numpy().tolist() == [0.0, 0.0]
    assert tf.math.xdivy(zero, y).numpy().tolist() == [0.0, 0.0]


def test_integer_inputs_are_refused_as_tf_refuses_them():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int32"):
        tf.math.acos(tf.constant([1, 2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int32"):
        tf.math.lgamma(tf.constant([1, 2]))
