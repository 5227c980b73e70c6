"""Golden cases: UpSampling2D's bilinear interpolation (tf.image.resize's weights, with their
gradient), metrics that keep their state in float64, the repr of a scalar tensor, and what a
variable's `assign` returns."""

import numpy as np

from .cases import attempt, case


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


@case
def keras_dtype_policies_and_the_global_policy(tf):
    mp = tf.keras.mixed_precision
    first = mp.global_policy()
    dense = tf.keras.layers.Dense(2, name="d32")
    try:
        mp.set_global_policy("float64")
        d64 = tf.keras.layers.Dense(2, name="d64")
        y = d64(tf.ones((1, 3)))
        in_float64 = [repr(mp.global_policy()), d64.dtype, y.dtype, d64.kernel.dtype]
        loss = tf.keras.losses.MeanSquaredError()(tf.ones((2,)), tf.zeros((2,)))
        mp.set_global_policy(mp.DTypePolicy("float32"))
        after = tf.keras.layers.Dense(2, name="again")
    finally:
        mp.set_global_policy("float32")
    return [
        [repr(first), first.name, first.compute_dtype, first.variable_dtype],
        [repr(dense.dtype_policy), dense.dtype, dense.compute_dtype, dense.variable_dtype],
        in_float64,
        loss.dtype,
        repr(after.dtype_policy),
        [repr(mp.Policy("float16")), repr(mp.DTypePolicy("float64"))],
        repr(tf.keras.layers.Dense(2, dtype="float64", name="given").dtype_policy),
        attempt(mp.set_global_policy, None),
        attempt(mp.set_global_policy, "bogus"),
    ]


@case
def keras_mixed_float16_policy_on_a_dense_layer(tf):
    mp = tf.keras.mixed_precision
    try:
        mp.set_global_policy("mixed_float16")
        dense = tf.keras.layers.Dense(2, name="mixed")
        x = tf.constant([[1.0, 2.0, 3.0]])
        with tf.GradientTape() as tape:
            y = dense(x)
            loss = tf.keras.losses.MeanSquaredError()(tf.zeros((1, 2)), y)
        grads = tape.gradient(loss, dense.trainable_variables)
        return [
            repr(dense.dtype_policy),
            [dense.dtype, dense.compute_dtype, dense.variable_dtype],
            [y.dtype, loss.dtype, dense.kernel.dtype, [g.dtype for g in grads]],
        ]
    finally:
        mp.set_global_policy("float32")


@case
def assign_returns_an_unread_variable(tf):
    v = tf.Variable(1.0, name="v")
    u = v.assign(2.0)
    seen = [repr(u), u is v, isinstance(u, tf.Variable), u.name, u.trainable]
    v.assign(5.0)  # (u reads the variable now)
    seen += [u.numpy(), repr(u + 1), v.assign(3.0, read_value=False), repr(u.assign(7.0))]
    with tf.GradientTape() as tape:
        y = v.assign_add(1.0) * 3.0
    return [
        seen,
        v,
        tape.gradient(y, v),
        [w.name for w in tape.watched_variables()],
        repr(tf.Variable([1, 2]).assign_sub([1, 1])),
        str(u),
    ]


@case
def keras_variable_operators_promote_as_keras_does(tf):
    # `v * x` with a Keras variable on the left is keras.ops.multiply: both promoted to one
    # dtype (a tf.Tensor on the left keeps TF's operator and its dtype errors)
    v = tf.keras.Variable([1.0, 2.0], name="k")
    n = tf.keras.Variable([3, 4], name="n")
    h = tf.keras.Variable([1.5, 2.5], dtype="float16", name="h")
    b = tf.keras.Variable([True, False], name="b")
    i, d = tf.constant([1, 2]), tf.constant([1.0, 2.0], tf.float64)
    f16 = tf.constant([0.5, 0.25], tf.float16)
    calls = [
        lambda: v * i,
        lambda: v + d,
        lambda: v * np.array([1.0, 2.0]),
        lambda: v * 2,
        lambda: v / 2,
        lambda: n / 2,
        lambda: n / n,
        lambda: n * 1.5,
        lambda: n + i,
        lambda: n + v,
        lambda: h * v,
        lambda: h * i,
        lambda: h + f16,
        lambda: n**2,
        lambda: v < 1.5,
        lambda: n >= i,
        lambda: b + 1,
        lambda: b * v,
        lambda: n // 2,
        lambda: n % 3,
        lambda: v - [1, 1],
        lambda: n * np.array([1, 2], np.int8),
        lambda: n * np.array([1, 2], np.uint32),
        lambda: d + v,
    ]
    return [attempt(call) for call in calls]
