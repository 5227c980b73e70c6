"""layers_core.py, layers_norm.py and Conv2DTranspose: gradients by finite differences, the
training/inference switch, the seeded dropout stream. (TF's own values for every layer are
in tests/tf_golden/cases_keras_layers.py.)"""

import numpy as np
import pytest

import minitape as tf
from minitape.testing import check_grads

layers = tf.keras.layers
rng = np.random.default_rng(0)


def float64(layer):
    """Build `layer` in float64, so that finite differences are accurate."""
    layer.dtype_policy = "float64"
    return layer


LAYERS = [
    (lambda: layers.Flatten(), (2, 3, 2)),
    (lambda: layers.Reshape((3, -1)), (2, 6)),
    (lambda: layers.ReLU(max_value=1.5, negative_slope=0.1, threshold=0.2), (2, 5)),
    (lambda: layers.LeakyReLU(), (2, 5)),
    (lambda: layers.Activation("tanh"), (2, 5)),
    (lambda: layers.GlobalAveragePooling2D(), (2, 3, 3, 2)),
    (lambda: layers.LayerNormalization(), (2, 4)),
    (lambda: layers.LayerNormalization(axis=[1, 2]), (2, 3, 2)),
    (lambda: layers.Conv2DTranspose(2, 3, strides=2, padding="same"), (1, 2, 2, 1)),
    (lambda: layers.UpSampling2D((2, 3)), (1, 2, 2, 2)),
    (lambda: layers.ZeroPadding2D(((1, 0), (2, 1))), (1, 2, 3, 1)),
    (lambda: layers.Cropping2D(1), (1, 4, 4, 1)),
]


@pytest.mark.parametrize("make,shape", LAYERS, ids=lambda v: str(v) if isinstance(v, tuple) else "")
def test_layer_gradients_for_the_input(make, shape):
    layer = float64(make())
    x = rng.uniform(-2, 2, shape)
    layer(tf.constant(x))  # (builds the weights once, before the differences)
    # (tf.nn.moments holds the mean constant in the variance: the first derivative is exact,
    # the second is not, in TF as here)
    order = 1 if isinstance(layer, layers.LayerNormalization) else 2
    check_grads(layer, x, order=order)


def test_batchnorm_gradients_with_batch_statistics():
    bn = float64(layers.BatchNormalization())
    x = rng.uniform(-2, 2, (4, 3))
    bn(tf.constant(x))
    check_grads(lambda t: bn(t, training=True), x, order=1)


def test_batchnorm_moves_its_statistics_only_when_training():
    bn = layers.BatchNormalization(momentum=0.5)
    x = tf.constant([[1.0, 2.0], [3.0, 6.0]])
    bn(x)
    assert bn.moving_mean.numpy().tolist() == [0.0, 0.0]
    bn(x, training=True)
    assert bn.moving_mean.numpy().tolist() == [1.0, 2.0]  # half way to the batch mean [2, 4]
    bn.trainable = False
    bn(x, training=True)  # (a frozen layer normalizes with its moving statistics)
    assert bn.moving_mean.numpy().tolist() == [1.0, 2.0]


def test_dropout_draws_a_new_mask_each_call_and_repeats_after_reseeding():
    x = tf.ones((4, 5))
    tf.keras.utils.set_random_seed(5)
    drop = layers.Dropout(0.5)
    a, b = drop(x, training=True), drop(x, training=True)
    tf.keras.utils.set_random_seed(5)
    again = layers.Dropout(0.5)
    assert np.array_equal(again(x, training=True), a) and not np.array_equal(a, b)
    assert set(np.unique(a.numpy())) <= {0.0, 2.0}
    assert np.array_equal(drop(x), x) and np.array_equal(
        layers.Dropout(1.0)(x, training=True), 0 * x
    )


def test_dropout_mask_in_a_function_changes_per_call():
    drop = layers.Dropout(0.5, seed=1)

    @tf.function
    def f(x):
        return drop(x, training=True)

    x = tf.ones((3, 4))
    assert not np.array_equal(f(x), f(x))  # (the seed generator's state is read by ops)


def test_merge_layers_take_lists():
    a, b = tf.ones((2, 3)), tf.fill((2, 3), 2.0)
    assert layers.Concatenate()([a, b]).shape == (2, 6)
    assert layers.Add()([a, b, a]).numpy().tolist() == [[4.0] * 3] * 2
    with pytest.raises(ValueError, match="list of inputs"):
        layers.Add()(a)


def test_embedding_looks_up_rows_and_counts_negative_indices_from_the_end():
    emb = layers.Embedding(4, 2, embeddings_initializer="ones")
    emb.build()
    emb.embeddings.assign(np.arange(8, dtype=np.float32).reshape(4, 2))
    assert emb(tf.constant([[3, -1], [0, 1]])).numpy()[0].tolist() == [[6.0, 7.0], [6.0, 7.0]]
    with pytest.raises(ValueError, match="positive integer"):
        layers.Embedding(0, 2)


@pytest.mark.parametrize(
    "make",
    [
        lambda: layers.MaxPooling2D(),
        lambda: layers.AveragePooling2D(3, strides=2, padding="same"),
        lambda: layers.GlobalMaxPooling2D(),
    ],
)
def test_pooling_layer_gradients(make):
    layer = float64(make())
    check_grads(layer, rng.uniform(-2, 2, (2, 4, 5, 2)))


def test_upsampling2d_bilinear_is_a_linear_map_with_its_derivatives():
    layer = tf.keras.layers.UpSampling2D((2, 3), interpolation="bilinear", dtype="float64")
    check_grads(layer, np.random.default_rng(0).standard_normal((1, 3, 2, 2)))
    flat = layer(tf.ones((1, 3, 2, 1), tf.float64))
    assert flat.shape == (1, 6, 6, 1) and np.allclose(flat.numpy(), 1.0)  # (weights sum to 1)
