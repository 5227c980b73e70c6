"""check_grads must fail on wrong rules: otherwise every other gradient test proves nothing."""

import numpy as np
import pytest

import minitape as tf
from minitape import ops
from minitape.testing import check_grads


@pytest.fixture
def swap_rule():
    saved = {}

    def swap(op, rules):
        saved.setdefault(op, op.vjps)
        op.vjps = rules

    yield swap
    for op, rules in saved.items():
        op.vjps = rules


def test_passes_on_the_true_rule():
    check_grads(tf.sin, np.array([0.3, -1.2, 2.0]))


def test_fails_on_a_wrong_first_order_rule(swap_rule):
    swap_rule(ops.Sin, (lambda g, ans, x: g * tf.sin(x),))  # should be cos
    with pytest.raises(AssertionError, match="VJP check failed"):
        check_grads(tf.sin, np.array([0.3, -1.2, 2.0]), order=1)


def test_fails_on_a_wrong_broadcasting_rule(swap_rule):
    swap_rule(ops.Add, (lambda g, ans, x, y: g, lambda g, ans, x, y: g[0]))  # no unbroadcast
    with pytest.raises(AssertionError):
        check_grads(tf.add, np.ones((3, 4)), np.ones((4,)), order=1)


def test_fails_on_a_rule_not_written_with_differentiable_ops(swap_rule):
    # Right first derivative of tanh, but computed from a numpy constant: the tape cannot
    # see that it depends on x, so the second derivative comes out wrong.
    swap_rule(ops.Tanh, (lambda g, ans, x: g * tf.constant(1 - ans.numpy() ** 2),))
    x = np.array([0.3, -0.8])
    check_grads(tf.tanh, x, order=1)
    with pytest.raises(AssertionError):
        check_grads(tf.tanh, x, order=2)


def test_fails_on_a_wrong_custom_gradient():
    @tf.custom_gradient
    def bad_square(x):
        return x * x, lambda g: g * x  # should be 2 * x

    with pytest.raises(AssertionError):
        check_grads(bad_square, np.array([1.5, -0.5]), order=1)


def test_check_jvp_passes_on_the_true_rule():
    from minitape.testing import check_jvp

    check_jvp(tf.sin, np.array([0.3, -1.2, 2.0]))


def test_check_jvp_fails_on_a_wrong_rule(swap_rule):
    # forward mode comes from the VJP rule: a wrong VJP makes a wrong JVP, and check_jvp says so
    from minitape.testing import check_jvp

    swap_rule(ops.Sin, (lambda g, ans, x: g * tf.sin(x),))
    with pytest.raises(AssertionError, match="JVP check failed"):
        check_jvp(tf.sin, np.array([0.3, -1.2, 2.0]))


def test_compute_gradient_jacobians():
    # y = [x0 * x1, x0 + x1]: d/dx = [[x1, x0], [1, 1]]
    theoretical, numerical = tf.test.compute_gradient(
        lambda x: tf.stack([x[0] * x[1], x[0] + x[1]]), [tf.constant([2.0, 3.0], tf.float64)]
    )
    np.testing.assert_allclose(theoretical[0], [[3.0, 2.0], [1.0, 1.0]])
    np.testing.assert_allclose(numerical[0], [[3.0, 2.0], [1.0, 1.0]], rtol=1e-6)


LAYOUTS = {
    "fortran order": lambda a: np.asfortranarray(a),
    "a transpose": lambda a: np.ascontiguousarray(a.T).T,
    "a strided slice": lambda a: np.repeat(a, 2, axis=1)[:, ::2],
    "a broadcast view": lambda a: np.broadcast_to(a[:1], a.shape),
}


@pytest.mark.parametrize("layout", LAYOUTS)
def test_compute_gradient_moves_the_point_whatever_the_layout(layout):
    # the numerical Jacobian perturbs one element at a time; for an input that is not
    # C-contiguous it once perturbed a copy, and came out all zeros
    a = np.array([[1.0, -2.0, 3.0], [0.5, -1.5, 2.5]])
    x = LAYOUTS[layout](a)
    assert not x.flags.c_contiguous
    by_hand = np.diag(2 * np.ravel(x))  # d(x * x)/dx, element by element, in C order
    theoretical, numerical = tf.test.compute_gradient(lambda x: x * x, [x])
    np.testing.assert_allclose(theoretical[0], by_hand)
    np.testing.assert_allclose(numerical[0], by_hand, rtol=1e-6)


def test_compute_gradient_of_an_empty_output_checks_the_gradient_once():
    @tf.custom_gradient
    def wrong_shape(x):
        return x[:0] * 1.0, lambda dy: tf.ones([2, 2])

    @tf.custom_gradient
    def nonzero(x):
        return x[:0] * 1.0, lambda dy: tf.ones_like(x)

    x = [np.ones(3, np.float32)]
    theoretical, numerical = tf.test.compute_gradient(lambda v: v[:0] * 2.0, x)
    assert theoretical[0].shape == numerical[0].shape == (0, 3)
    with pytest.raises(
        ValueError, match=r"Empty gradient has wrong shape: expected \(3,\), got \(2, 2\)"
    ):
        tf.test.compute_gradient(wrong_shape, x)
    with pytest.raises(ValueError, match="Empty tensor with nonzero gradients"):
        tf.test.compute_gradient(nonzero, x)
    with pytest.raises(AttributeError, match="'NoneType' object has no attribute 'shape'"):
        tf.test.compute_gradient(lambda v: tf.zeros([0]), x)
