"""Golden cases for the convolutions' other arguments: tf.nn.conv2d channels first (NCHW, which
TF 2.21's oneDNN CPU kernel takes), grouped (a filter with fewer input channels than the
input), dilated with strides; tf.nn.depthwise_conv2d; Keras' Conv2D with data_format,
dilation_rate and groups, and their errors. Each value with its first and second
derivatives, as the conv2d cases of `cases_nn.py`."""

import numpy as np

from .cases import attempt, case
from .cases_nn import conv_derivatives


def _det(shape, seed):
    return np.random.default_rng(seed).uniform(-2.0, 2.0, size=shape).astype("float32")


def _with_derivatives(tf, conv, xs, fs):
    """conv_derivatives of `conv` at seeded x and f of shapes xs and fs."""
    return conv_derivatives(tf, conv, tf.constant(_det(xs, 1)), tf.constant(_det(fs, 2)))


@case(rtol=1e-4, atol=1e-4)
def conv2d_channels_first(tf):
    return _with_derivatives(
        tf,
        lambda x, f: tf.nn.conv2d(x, f, [1, 1, 2, 1], "SAME", "NCHW", [1, 1, 1, 2]),
        (2, 3, 5, 6),
        (2, 3, 3, 2),
    )


@case(rtol=1e-4, atol=1e-4)
def conv2d_grouped(tf):
    return _with_derivatives(
        tf, lambda x, f: tf.nn.conv2d(x, f, 1, "VALID"), (1, 4, 5, 4), (2, 2, 2, 6)
    )


@case(rtol=1e-4, atol=1e-4)
def conv2d_dilated_with_strides(tf):
    return _with_derivatives(
        tf, lambda x, f: tf.nn.conv2d(x, f, 2, "VALID", dilations=2), (1, 7, 7, 2), (2, 2, 2, 3)
    )


@case(rtol=1e-4, atol=1e-4)
def depthwise_conv2d_same(tf):
    return _with_derivatives(
        tf,
        lambda x, f: tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], "SAME"),
        (2, 4, 5, 3),
        (3, 2, 3, 2),
    )


@case(rtol=1e-4, atol=1e-4)
def depthwise_conv2d_strided_and_dilated(tf):
    return [
        _with_derivatives(
            tf,
            lambda x, f: tf.nn.depthwise_conv2d(x, f, [1, 2, 2, 1], "VALID"),
            (1, 6, 7, 2),
            (2, 3, 2, 3),
        ),
        _with_derivatives(
            tf,
            lambda x, f: tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], "SAME", dilations=[2, 2]),
            (1, 5, 5, 2),
            (2, 2, 2, 1),
        ),
    ]


@case(rtol=1e-4, atol=1e-4)
def depthwise_conv2d_channels_first(tf):
    return _with_derivatives(
        tf,
        lambda x, f: tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], "VALID", "NCHW"),
        (1, 2, 4, 5),
        (2, 2, 2, 2),
    )


@case
def conv2d_and_depthwise_errors(tf):
    x = tf.zeros([1, 4, 4, 4])
    return [
        attempt(tf.nn.conv2d, x, tf.zeros([2, 2, 3, 2]), 1, "VALID"),
        attempt(tf.nn.conv2d, x, tf.zeros([2, 2, 2, 3]), 1, "VALID"),
        attempt(tf.nn.conv2d, x, tf.zeros([2, 2, 4, 1]), 1, "VALID", "nchw"),
        attempt(tf.nn.conv2d, x, tf.zeros([2, 2, 4, 1]), [1, 2, 1, 1], "VALID", "NCHW"),
        attempt(tf.nn.depthwise_conv2d, x, tf.zeros([2, 2, 3, 2]), [1, 1, 1, 1], "VALID"),
        attempt(tf.nn.depthwise_conv2d, x, tf.zeros([2, 2, 4, 2]), [1, 1], "VALID"),
        attempt(
            tf.nn.depthwise_conv2d,
            tf.zeros([1, 3, 3, 1], tf.int32),
            tf.zeros([2, 2, 1, 1], tf.int32),
            [1, 1, 1, 1],
            "VALID",
        ),
        attempt(
            tf.nn.depthwise_conv2d, x, tf.zeros([2, 2, 4, 1], tf.float64), [1, 1, 1, 1], "VALID"
        ),
    ]


def _layer(tf, **kw):
    tf.keras.utils.set_random_seed(3)
    layer = tf.keras.layers.Conv2D(4, 3, **kw)
    x = tf.constant(_det((2, 6, 7, 4), 4))
    with tf.GradientTape() as tape:
        y = layer(x)
        loss = tf.reduce_sum(y * y)
    return [y, layer.kernel.shape, tape.gradient(loss, layer.trainable_variables)]


@case(rtol=1e-4, atol=1e-4)
def keras_conv2d_dilation_groups_and_channels_first(tf):
    return [
        _layer(tf, dilation_rate=2),
        _layer(tf, dilation_rate=(1, 2), padding="same"),
        _layer(tf, groups=2),
        _layer(tf, groups=4, strides=2),
        _layer(tf, data_format="channels_first"),
    ]


@case(message=True)
def keras_conv2d_argument_errors(tf):
    return [
        attempt(_layer, tf, groups=3),
        attempt(_layer, tf, groups=0),
        attempt(_layer, tf, strides=2, dilation_rate=2),
        attempt(_layer, tf, data_format="channels_middle"),
        attempt(lambda: tf.keras.layers.Conv2D(6, 3, groups=3)(tf.zeros([1, 4, 4, 4]))),
    ]
