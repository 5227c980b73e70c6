"""Keras losses: values and gradients worked out by hand, Keras 3's shape, dtype and reduction
rules (numbers that TF 2.21's tf.keras prints), bad shapes."""

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
    # a confident wrong answer: p is clipped to 1e-7, and -log(1e-7) = 16.118095
    # (TF 2.21 prints 16.11809539794922 for binary_crossentropy([1.], [0.]))
    assert float(losses.binary_crossentropy([1.0], [0.0])) == pytest.approx(
        16.11809539794922, rel=1e-6
    )
    # p = 1 is clipped to float32(1 - 1e-7) = 0.99999988, so 1 - p = 2**-23 (TF: 15.942384719848633)
    assert float(losses.binary_crossentropy([0.0], [1.0])) == pytest.approx(
        -math.log(2.0**-23), rel=1e-6
    )
    assert float(losses.binary_crossentropy([0.0], [1.0])) == pytest.approx(
        15.942384719848633, rel=1e-6
    )


def test_bce_from_logits_by_hand_and_gradient_at_zero():
    y = tf.constant([1.0, 0.0])
    logits = tf.constant([2.0, -1.0])
    expected = (math.log1p(math.exp(-2.0)) + math.log1p(math.exp(-1.0))) / 2
    assert float(losses.BinaryCrossentropy(from_logits=True)(y, logits)) == pytest.approx(
        expected, rel=1e-6
    )
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


def test_a_trailing_axis_of_one_lines_up_with_a_vector():
    y = tf.constant([1.0, 2.0, 3.0])
    p = tf.constant([[1.0], [2.0], [5.0]])
    assert float(losses.MeanSquaredError()(y, p)) == pytest.approx(4 / 3)
    assert float(losses.MeanSquaredError()(p, y)) == pytest.approx(4 / 3)


def test_numpy_targets_are_lined_up_too():
    # Keras 3 expands the (3,) targets to (3, 1), numpy or not: no (3, 3) broadcast.
    # (TF 2.21: 1.3333333730697632 for MSE, 0.6666666865348816 for MAE)
    y = np.array([1.0, 2.0, 3.0])
    p = tf.constant([[1.0], [2.0], [5.0]])
    assert float(losses.MeanSquaredError()(y, p)) == pytest.approx(4 / 3)
    assert float(losses.MeanAbsoluteError()(y, p)) == pytest.approx(2 / 3)
    # BCE too: -(log 0.9 + log 0.8 + log 0.6) / 3 (TF: 0.27977654337882996)
    got = float(
        losses.BinaryCrossentropy()(np.array([1.0, 0.0, 1.0]), tf.constant([[0.9], [0.2], [0.6]]))
    )
    assert got == pytest.approx(-(math.log(0.9) + math.log(0.8) + math.log(0.6)) / 3, rel=1e-6)


def test_reductions_and_sample_weight():
    y = tf.constant([[0.0], [0.0], [0.0]])
    p = tf.constant([[1.0], [2.0], [3.0]])
    assert losses.MeanSquaredError(reduction="none")(y, p).numpy().tolist() == [1.0, 4.0, 9.0]
    assert losses.MeanSquaredError(reduction=None)(y, p).numpy().tolist() == [1.0, 4.0, 9.0]
    assert float(losses.MeanSquaredError(reduction="sum")(y, p)) == 14.0
    assert float(losses.MeanSquaredError(reduction="mean")(y, p)) == pytest.approx(14 / 3)
    w = tf.constant([1.0, 0.0, 1.0])
    # the weighted losses 1, 0, 9: over the batch size, or over the sum of the weights
    assert float(losses.MeanSquaredError()(y, p, sample_weight=w)) == pytest.approx(10 / 3)
    assert (
        float(losses.MeanSquaredError(reduction="mean_with_sample_weight")(y, p, sample_weight=w))
        == 5.0
    )
    # weights summing to 0: TF's divide_no_nan gives 0, not nan
    assert (
        float(
            losses.MeanSquaredError(reduction="mean_with_sample_weight")(
                y, p, sample_weight=tf.zeros(3)
            )
        )
        == 0.0
    )
    with pytest.raises(
        ValueError, match="Invalid value for argument `reduction`.*Received: reduction=auto"
    ):
        losses.MeanSquaredError(reduction="auto")


def test_one_number_per_batch_is_returned_as_is():
    # a 1-D target gives ONE per-example loss: Keras 3 returns it without a sum or a division,
    # so the tape records just Sub, Square and Mean (as TF 2.21's graph of this loss shows)
    p = tf.Variable([1.5, 2.0, 2.0, 6.0])
    with tf.GradientTape() as tape:
        loss = losses.MeanSquaredError()(tf.constant([1.0, 2.0, 3.0, 4.0]), p)
    assert [op.name for op, *_ in tape._entries] == ["Sub", "Square", "Mean"]
    assert float(loss) == 1.3125
    empty = losses.MeanSquaredError()(tf.zeros((0, 1)), tf.zeros((0, 1)))
    assert empty.shape == (0,)


def test_losses_compute_in_float32_unless_told():
    y64, p64 = tf.constant([1.0, 2.0], tf.float64), tf.constant([1.5, 2.0], tf.float64)
    assert losses.MeanSquaredError()(y64, p64).dtype == tf.float32
    assert losses.MeanSquaredError(dtype="float64")(y64, p64).dtype == tf.float64
    assert losses.MeanSquaredError().dtype == "float32"
    assert losses.mean_squared_error(y64, p64).dtype == tf.float64  # the function keeps it
    # the gradient still reaches a float64 variable, through the cast
    v = tf.Variable([1.5, 2.0], dtype=tf.float64)
    with tf.GradientTape() as tape:
        loss = losses.MeanSquaredError()(y64, v)
    g = tape.gradient(loss, v)
    assert g.dtype == tf.float64 and g.numpy().tolist() == [0.5, 0.0]


def test_y_true_is_cast_to_the_prediction_dtype():
    loss = losses.MeanSquaredError()(np.array([1, 2]), tf.constant([1.0, 4.0]))
    assert loss.dtype == tf.float32 and float(loss) == 2.0
    assert float(losses.MeanSquaredError()([1, 2], [1.5, 2.0])) == 0.125


@pytest.mark.parametrize("loss", [losses.MeanSquaredError(), losses.MeanAbsoluteError()])
def test_incompatible_shapes_name_both(loss):
    with pytest.raises(
        InvalidArgumentError,
        match=r"Incompatible shapes: \[3\] vs. \[4\] \(y_true has "
        r"shape \(3,\), y_pred has shape \(4,\)\)",
    ):
        loss(tf.constant([0.0, 1.0, 1.0]), tf.constant([0.5, 0.5, 0.5, 0.5]))
    with pytest.raises(InvalidArgumentError, match=r"Incompatible shapes: \[2, 3\] vs. \[3, 2\]"):
        loss(tf.zeros((2, 3)), tf.zeros((3, 2)))


def test_binary_crossentropy_needs_equal_shapes_as_keras_says():
    bce = losses.BinaryCrossentropy()
    with pytest.raises(
        ValueError,
        match=r"must have the same shape. Received: target.shape=\(3,\), "
        r"output.shape=\(4,\)",
    ):
        bce(tf.constant([0.0, 1.0, 1.0]), tf.constant([0.5, 0.5, 0.5, 0.5]))
    with pytest.raises(ValueError, match=r"must have the same rank \(ndim\)"):
        losses.binary_crossentropy(tf.zeros(3), tf.zeros((3, 2)))


def test_sigmoid_cross_entropy_needs_equal_shapes():
    with pytest.raises(ValueError, match=r"same shape, received \(\(2,\) vs \(3,\)\)"):
        tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.zeros(3), logits=tf.zeros(2))


def test_a_subclass_writes_call_as_in_keras():
    class Halved(losses.Loss):
        def call(self, y_true, y_pred):
            return tf.reduce_mean(tf.square(y_pred - y_true), axis=-1) / 2

    y, p = tf.constant([[0.0, 0.0], [0.0, 0.0]]), tf.constant([[1.0, 1.0], [2.0, 2.0]])
    assert float(Halved()(y, p)) == 1.25  # per example 0.5 and 2.0, then their mean
    assert Halved(reduction="sum")(y, p).numpy() == 2.5
    first, second = Halved().name, Halved().name  # Keras names them as it names layers
    assert first.startswith("halved") and second.startswith("halved_") and first != second
    with pytest.raises(NotImplementedError, match="sets `fn` or writes `call"):
        losses.Loss()(y, p)


def test_get_by_name():
    assert losses.get("mse") is losses.mean_squared_error
    with pytest.raises(ValueError, match="Could not interpret loss identifier: hinge"):
        losses.get("hinge?")


# --- categorical cross-entropies (Keras 3 on TF; TF's own values in tf_golden/cases_nn.py) ---
def test_categorical_crossentropy_by_hand():
    y = [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]
    p = tf.constant([[0.2, 0.5, 0.3], [0.25, 0.25, 0.5]])
    cce = tf.keras.losses.CategoricalCrossentropy()
    assert cce(tf.constant(y), p).numpy() == pytest.approx(-(np.log(0.5) + np.log(0.25)) / 2)
    # probabilities that do not sum to 1 are renormalised first
    q = tf.constant([[0.4, 1.0, 0.6], [0.5, 0.5, 1.0]])
    assert cce(tf.constant(y), q).numpy() == pytest.approx(-(np.log(0.5) + np.log(0.25)) / 2)
    z = tf.constant([[0.0, np.log(2.0), 0.0], [0.0, 0.0, 0.0]])
    by_logits = tf.keras.losses.CategoricalCrossentropy(from_logits=True)(tf.constant(y), z)
    assert by_logits.numpy() == pytest.approx(-(np.log(0.5) + np.log(1 / 3)) / 2)
    smooth = tf.keras.losses.categorical_crossentropy(tf.constant(y), p, label_smoothing=0.3)
    t0 = np.array([0.1, 0.8, 0.1])
    assert smooth.numpy()[0] == pytest.approx(-np.sum(t0 * np.log([0.2, 0.5, 0.3])))
    with pytest.raises(ValueError, match="same rank"):
        cce(tf.constant([1.0, 0.0, 0.0]), p)


def test_sparse_categorical_crossentropy_by_hand():
    p = tf.constant([[0.2, 0.5, 0.3], [0.25, 0.25, 0.5]])
    scce = tf.keras.losses.SparseCategoricalCrossentropy()
    expected = -(np.log(0.5) + np.log(0.25)) / 2
    assert scce(tf.constant([1, 0]), p).numpy() == pytest.approx(expected)
    assert scce(tf.constant([[1], [0]]), p).numpy() == pytest.approx(expected)  # (batch, 1)
    with tf.GradientTape() as tape:
        tape.watch(p)
        loss = scce(tf.constant([1, 0]), p)
    # the loss is -log_softmax(log p)[label] = -log(p[label] / sum(p)), averaged over 2: its
    # gradient is (1 / sum(p) - onehot / p) / 2, and each row of p sums to 1
    assert np.allclose(tape.gradient(loss, p).numpy(), [[0.5, -0.5, 0.5], [-1.5, 0.5, 0.5]])
    # ignore_class: the ignored example's loss is 0 and the mean is over the others
    ignoring = tf.keras.losses.SparseCategoricalCrossentropy(ignore_class=0)
    assert ignoring(tf.constant([1, 0]), p).numpy() == pytest.approx(-np.log(0.5))
    with pytest.raises(ValueError, match="rank"):
        scce(tf.constant([[1, 0, 1]]), p)


def test_crossentropy_uses_the_logits_of_a_softmax_layer():
    """As Keras: the output of a softmax activation is replaced by its logits, so a saturated
    softmax gives the exact loss instead of one clipped at log(1e-7)."""
    layer = tf.keras.layers.Dense(2, activation="softmax", kernel_initializer="ones")
    layer.build((None, 1))
    layer.kernel.assign([[100.0, -100.0]])
    p = layer(tf.constant([[1.0]]))
    loss = tf.keras.losses.SparseCategoricalCrossentropy()(tf.constant([1]), p)
    assert loss.numpy() == pytest.approx(200.0)  # -log_softmax([100, -100])[1]
    clipped = tf.keras.losses.SparseCategoricalCrossentropy()(tf.constant([1]), p * 1.0)
    assert clipped.numpy() == pytest.approx(-np.log(1e-7), rel=1e-5)


def test_a_loss_object_maps_over_python_structures_as_keras_3():
    # a list of labels is a structure, not an array: it must meet a list of the same shape
    mse = tf.keras.losses.MeanSquaredError()
    y = tf.constant([0.2, 0.7, 0.9])
    with pytest.raises(ValueError, match="Expected an instance of list"):
        mse([0.0, 1.0, 1.0], y)
    with pytest.raises(ValueError, match="Structures don't have the same nested structure"):
        tf.keras.losses.SparseCategoricalCrossentropy()([1, 0], [[0.2, 0.7], [0.9, 0.4]])
    assert abs(float(mse([0.0, 1.0, 1.0], [0.2, 0.7, 0.9])) - 0.14 / 3) < 1e-6
    assert abs(float(tf.keras.losses.mse([0.0, 1.0, 1.0], y)) - 0.14 / 3) < 1e-6  # (functions)


def test_get_takes_none_classes_and_config_dicts_as_keras_3_does():
    get = tf.keras.losses.get
    assert get(None) is None
    assert type(get("MeanSquaredError")) is tf.keras.losses.MeanSquaredError
    assert type(get(tf.keras.losses.MeanAbsoluteError)) is tf.keras.losses.MeanAbsoluteError
    bce = get({"class_name": "BinaryCrossentropy", "config": {"from_logits": True}})
    assert bce.get_config()["from_logits"] is True
    assert get({"class_name": "mean_squared_error"}) is tf.keras.losses.mean_squared_error
    for bad, words in [({}, "Unknown `config`"), (1.5, "Could not interpret loss identifier")]:
        with pytest.raises(ValueError, match=words):
            get(bad)
