"""Golden cases: UpSampling2D's bilinear interpolation (tf.image.resize's weights, with their
gradient), metrics that keep their state in float64, and the repr of a scalar tensor."""

import numpy as np

from .cases import case


@case
def keras_upsampling2d_bilinear_values_and_gradient(tf):
    x = tf.constant((np.arange(2 * 3 * 4 * 2).reshape(2, 3, 4, 2) ** 1.5 / 10).astype(np.float32))
    out = []
    for size in [(2, 2), (3, 1), 1]:
        layer = tf.keras.layers.UpSampling2D(size, interpolation="bilinear")
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = layer(x)
            loss = tf.reduce_sum(y * y)
        out.append([y, tape.gradient(loss, x)])
    return out


@case
def keras_metrics_mean_and_sum_in_float64(tf):
    mean = tf.keras.metrics.Mean(dtype="float64")
    mean.update_state([1.0, 2.0, 4.0])
    mean.update_state(tf.constant(0.1, tf.float32))
    mean.update_state(np.float64(1) / 3, sample_weight=0.1)
    total = tf.keras.metrics.Sum(dtype=tf.float64)
    total.update_state([0.1, 0.2])
    total.update_state(np.array([1 / 3, 2 / 3]), sample_weight=[0.1, 1.0])
    return [
        mean.result(),
        mean.dtype,
        [v.dtype for v in mean.variables],
        total.result(),
        tf.keras.metrics.Mean(dtype="float64").result(),
    ]


@case
def repr_of_scalars_is_their_python_value(tf):
    # (a float32 27.3's repr prints the float it holds, 27.299999237060547; its str, and an
    # array's repr, print numpy's shortest text, 27.3)
    scalars = [tf.cast(tf.constant(27.3), dtype) for dtype in ("float16", "float32", "float64")]
    v = tf.Variable(0.1)
    return [
        [repr(x) for x in scalars],
        [str(x) for x in scalars],
        repr(v),
        repr(tf.constant([27.3, 1.5])),
        repr(tf.constant(1e-8)),
        repr(tf.constant(True)),
        repr(tf.constant(7)),
        repr(tf.constant("ab")),
    ]
