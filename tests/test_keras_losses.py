"""Keras losses: values and gradients worked out by hand, Keras' shape rules, bad shapes."""
import math

import numpy as np
import pytest

import minitape as tf
from minitape.errors import InvalidArgumentError

losses = tf.keras.losses


def test_mse_averages_the_last_axis_then_the_batch():
    y_true = tf.constant([[0.0, 1.0], [1.0, 1.0]])
    y_pred = tf.constant([[1.0, 1.0], [1.0, 0.0]])
    # per example: mean([1, 0]) = 0.5 and mean([0, 1]) = 0.5
    assert losses.mean_squared_error(y_true, y_pred).numpy().tolist() == [0.5, 0.5]
    assert float(losses.MeanSquaredError()(y_true, y_pred)) == 0.5
    assert losses.mse is losses.MSE is losses.mean_squared_error


def test_mse_value_and_gradient_by_hand():
    y = tf.constant([1.0, 2.0, 3.0, 4.0])
    p = tf.Variable([1.5, 2.0, 2.0, 6.0])
    with tf.GradientTape() as tape:
        loss = losses.MeanSquaredError()(y, p)
    # (0.25 + 0 + 1 + 4) / 4 = 1.3125; d/dp = 2 (p - y) / 4
    assert float(loss) == 1.3125
    assert tape.gradient(loss, p).numpy().tolist() == [0.25, 0.0, -0.5, 1.0]


def test_mae_by_hand():
    y = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    p = tf.constant([[2.0, 2.0], [1.0, 4.5]])
    assert losses.mean_absolute_error(y, p).numpy().tolist() == [0.5, 1.25]
    assert float(losses.MeanAbsoluteError()(y, p)) == 0.875
    assert losses.mae is losses.mean_absolute_error


def test_bce_on_probabilities_by_hand():
    y = tf.constant([1.0, 0.0])
    p = tf.constant([0.9, 0.2])
    expected = -(math.log(0.9) + math.log(0.8)) / 2
    assert float(losses.BinaryCrossentropy()(y, p)) == pytest.approx(expected, rel=1e-5)
    assert float(losses.binary_crossentropy(y, p)) == pytest.approx(expected, rel=1e-5)


def test_bce_clips_like_keras():
    # a confident wrong answer: p clipped to 1e-7, then log(1e-7 + 1e-7) = log(2e-7):
    # Keras prints 15.424949 for binary_crossentropy([1.], [0.])
    assert float(losses.binary_crossentropy([1.0], [0.0])) == pytest.approx(15.424949, rel=1e-6)
    # p = 1 is clipped to float32(1 - 1e-7) = 0.99999988, so 1 - p + 1e-7 = 2.19e-7
    assert float(losses.binary_crossentropy([0.0], [1.0])) == pytest.approx(
        -math.log((1 - 0.99999988079071044921875) + 1e-7), rel=1e-5)


def test_bce_from_logits_by_hand_and_gradient_at_zero():
    y = tf.constant([1.0, 0.0])
    logits = tf.constant([2.0, -1.0])
    expected = (math.log1p(math.exp(-2.0)) + math.log1p(math.exp(-1.0))) / 2
    assert float(losses.BinaryCrossentropy(from_logits=True)(y, logits)) == pytest.approx(expected, rel=1e-6)
    # d/dx of the loss at x = 0 is sigmoid(0) - y = -0.5 for y = 1 (TF's formula gets it
    # right even where |x| has a kink)
    x = tf.Variable([0.0])
    with tf.GradientTape() as tape:
        loss = losses.BinaryCrossentropy(from_logits=True)(tf.constant([1.0]), x)
    assert tape.gradient(loss, x).numpy().tolist() == [-0.5]


def test_bce_label_smoothing():
    # labels 1 -> 1 - 0.1 + 0.05 = 0.95
    p = tf.constant([0.5, 0.9])
    got = float(losses.BinaryCrossentropy(label_smoothing=0.1)(tf.constant([1.0, 1.0]), p))
    expected = -np.mean([0.95 * math.log(q) + 0.05 * math.log(1 - q) for q in (0.5, 0.9)])
    assert got == pytest.approx(expected, rel=1e-5)


def test_trailing_axis_of_one_is_squeezed_when_both_are_tensors():
    y = tf.constant([1.0, 2.0, 3.0])
    p = tf.constant([[1.0], [2.0], [5.0]])
    assert float(losses.MeanSquaredError()(y, p)) == pytest.approx(4 / 3)
    assert float(losses.MeanSquaredError()(p, y)) == pytest.approx(4 / 3)


def test_numpy_targets_broadcast_as_in_tf():
    # Keras squeezes only when both are tensors: a numpy y_true of shape (3,) against a
    # (3, 1) prediction broadcasts to (3, 3) -- every prediction minus every target.
    # rows p_i - t_j: [0,-1,-2], [1,0,-1], [4,3,2] -> squares sum to 5 + 2 + 29 = 36
    y = np.array([1.0, 2.0, 3.0])
    p = tf.constant([[1.0], [2.0], [5.0]])
    assert float(losses.MeanSquaredError()(y, p)) == pytest.approx(36 / 9)


def test_reductions_and_sample_weight():
    y = tf.constant([[0.0], [0.0], [0.0]])
    p = tf.constant([[1.0], [2.0], [3.0]])
    assert losses.MeanSquaredError(reduction="none")(y, p).numpy().tolist() == [1.0, 4.0, 9.0]
    assert float(losses.MeanSquaredError(reduction="sum")(y, p)) == 14.0
    assert float(losses.MeanSquaredError()(y, p, sample_weight=tf.constant([1.0, 0.0, 2.0]))) == \
        pytest.approx((1 + 18) / 3)
    with pytest.raises(ValueError, match="Invalid Reduction"):
        losses.MeanSquaredError(reduction="mean")


def test_y_true_is_cast_to_the_prediction_dtype():
    loss = losses.MeanSquaredError()(np.array([1, 2]), tf.constant([1.0, 4.0]))
    assert loss.dtype == tf.float32 and float(loss) == 2.0


@pytest.mark.parametrize("loss", [losses.MeanSquaredError(), losses.MeanAbsoluteError(),
                                  losses.BinaryCrossentropy()])
def test_incompatible_shapes_name_both(loss):
    with pytest.raises(InvalidArgumentError, match=r"y_pred has shape \(4,\), y_true has shape \(3,\)"):
        loss(tf.constant([0.0, 1.0, 1.0]), tf.constant([0.5, 0.5, 0.5, 0.5]))
    with pytest.raises(InvalidArgumentError, match=r"Incompatible shapes: \[3, 2\] vs. \[2, 3\]"):
        loss(tf.zeros((2, 3)), tf.zeros((3, 2)))


def test_sigmoid_cross_entropy_needs_equal_shapes():
    with pytest.raises(ValueError, match=r"same shape \(\(2,\) vs \(3,\)\)"):
        tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.zeros(3), logits=tf.zeros(2))


def test_get_by_name():
    assert losses.get("mse") is losses.mean_squared_error
    with pytest.raises(ValueError, match="Unknown loss"):
        losses.get("hinge?")
