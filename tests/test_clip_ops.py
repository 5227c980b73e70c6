"""clip_by_norm, clip_by_global_norm, global_norm and nn.l2_loss: values by hand, gradients."""

import math

import numpy as np
import pytest

import minitape as tf
from minitape.errors import InvalidArgumentError


def test_l2_loss_is_half_the_sum_of_squares_and_its_gradient_is_x():
    x = tf.Variable([[1.0, -2.0], [3.0, 0.5]])
    with tf.GradientTape() as tape:
        loss = tf.nn.l2_loss(x)
    assert float(loss) == (1 + 4 + 9 + 0.25) / 2
    assert tape.gradient(loss, x).numpy().tolist() == [[1.0, -2.0], [3.0, 0.5]]
    with pytest.raises(InvalidArgumentError, match="int32"):
        tf.nn.l2_loss(tf.constant([1, 2]))


def test_clip_by_norm_scales_down_only_long_vectors():
    assert tf.clip_by_norm(tf.constant([3.0, 4.0]), 1.0).numpy() == pytest.approx([0.6, 0.8])
    assert tf.clip_by_norm(tf.constant([0.3, 0.4]), 1.0).numpy() == pytest.approx([0.3, 0.4])
    assert tf.clip_by_norm(tf.zeros(3), 1.0).numpy().tolist() == [0.0, 0.0, 0.0]
    # along an axis: each row on its own
    rows = tf.clip_by_norm(tf.constant([[3.0, 4.0], [0.0, 0.5]]), 2.0, axes=[1])
    assert rows.numpy() == pytest.approx(np.array([[1.2, 1.6], [0.0, 0.5]]))


def test_clip_by_norm_gradient_by_hand_and_finite_at_zero():
    # above the threshold, y = c x / |x|: dy_i/dx_j = c (d_ij / |x| - x_i x_j / |x|^3);
    # with the weights u = (1, 0) and x = (3, 4), |x| = 5: d(y_0)/dx = (1/5 - 9/125, -12/125)
    x = tf.Variable([3.0, 4.0])
    with tf.GradientTape() as tape:
        y = tf.clip_by_norm(x, 1.0)[0]
    assert tape.gradient(y, x).numpy() == pytest.approx([1 / 5 - 9 / 125, -12 / 125])
    z = tf.Variable([0.0, 0.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.clip_by_norm(z, 1.0))
    assert tape.gradient(y, z).numpy().tolist() == [1.0, 1.0]  # no NaN from sqrt at 0


def test_global_norm_and_clip_by_global_norm_by_hand():
    a, b = tf.constant([3.0, 0.0]), tf.constant([[4.0]])
    assert float(tf.linalg.global_norm([a, None, b])) == 5.0
    clipped, norm = tf.clip_by_global_norm([a, None, b], 2.5)
    assert float(norm) == 5.0 and clipped[1] is None
    assert clipped[0].numpy().tolist() == [1.5, 0.0] and clipped[2].numpy().tolist() == [[2.0]]
    small, _ = tf.clip_by_global_norm((a, b), 10.0)  # below the threshold: unchanged
    assert small[0].numpy().tolist() == [3.0, 0.0] and small[1].numpy().tolist() == [[4.0]]


def test_clip_by_global_norm_with_a_nonfinite_norm_gives_nan():
    clipped, norm = tf.clip_by_global_norm([tf.constant([np.inf, 1.0])], 1.0)
    assert math.isinf(float(norm)) and np.isnan(clipped[0].numpy()).all()


def test_clip_by_global_norm_wants_a_sequence():
    with pytest.raises(TypeError, match="should be a sequence"):
        tf.clip_by_global_norm(tf.constant([1.0]), 1.0)
    with pytest.raises(TypeError, match="should be a sequence"):
        tf.clip_by_global_norm((g for g in [tf.constant(1.0)]), 1.0)


def test_clip_by_global_norm_gradient_flows():
    # y = sum(x * c / max(|x|, c)) with x = (3, 4), c = 1: sum(x)/|x|;
    # d/dx_j = 1/|x| - sum(x) x_j / |x|^3
    x = tf.Variable([3.0, 4.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.clip_by_global_norm([x], 1.0)[0][0])
    assert tape.gradient(y, x).numpy() == pytest.approx([1 / 5 - 7 * 3 / 125, 1 / 5 - 7 * 4 / 125])
