"""Golden cases for what the course (notebooks/) says about TensorFlow beyond the nbNN_ cases of
cases.py: each function records one claim a notebook makes, under the notebook's number."""

import inspect

import numpy as np

from .cases import attempt, case, derivatives


@case
def course_nb05_linear_has_unconnected_second_derivative(tf):
    # 05 §3: the derivative of 3·x is the constant 3, so the second derivative has no path to x
    # (None); asked for zeros, it is 0. (Unlike x**3, whose Pow rule keeps a graph: its 4th and
    # 5th derivatives are computed zeros, 0.0 and -0.0: nb05_tower_of_tapes_default_*.)
    x = tf.constant(2.0)
    return [
        derivatives(tf, lambda t: 3 * t, x, order=2),
        derivatives(tf, lambda t: 3 * t, x, order=2, unconnected="zero"),
    ]


@case
def course_nb05_jacobian_uses_pfor_by_default(tf):
    # 05 §7: TF vectorises jacobian and batch_jacobian with pfor unless told otherwise
    return [
        inspect.signature(tf.GradientTape.jacobian).parameters["experimental_use_pfor"].default,
        inspect.signature(tf.GradientTape.batch_jacobian)
        .parameters["experimental_use_pfor"]
        .default,
    ]


def _penalty_gradient(tf, eps):
    w = tf.Variable([[1.0], [1.0]])
    points = tf.constant([[0.5, -0.5], [2.0, 1.0]])  # row 0: the ReLU is off (a flat spot)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(points)
            scores = tf.nn.relu(points @ w - 1.0)
        g = inner.gradient(scores, points)
        norm = tf.sqrt(tf.reduce_sum(tf.square(g), axis=-1) + eps)
        gp = tf.reduce_mean((norm - 1.0) ** 2)
    return [g, norm, gp, outer.gradient(gp, w)]


@case
def course_nb08_sqrt_norm_of_a_zero_gradient_is_nan(tf):
    # 08 §3: a row whose input gradient is exactly 0 makes d sqrt / d(sum of squares) infinite,
    # and 0 · inf = NaN reaches every weight; an epsilon under the root keeps it finite
    return [_penalty_gradient(tf, 0.0), _penalty_gradient(tf, 1e-12)]


@case
def course_nb09_is_finite_and_the_exercise_4_gradients(tf):
    # 09 §3 and Exercise 4: is_finite is False for NaN, inf and -inf; d sqrt(a) / da at 0 is inf
    # (not NaN)
    values = tf.constant([1.0, np.nan, np.inf, -np.inf])
    a, b, c = tf.Variable(0.0), tf.Variable(2.0), tf.Variable(-1.0)
    with tf.GradientTape() as tape:
        loss = tf.sqrt(a) * b + tf.abs(c) * b
    grads = tape.gradient(loss, [a, b, c])
    return [
        tf.math.is_finite(values),
        tf.math.is_nan(values),
        tf.math.is_inf(values),
        grads,
        [bool(tf.reduce_all(tf.math.is_finite(g))) for g in grads],
    ]


@case
def course_nb09_keras_dense_variable_names(tf):
    # 06-09 print variables: Keras 3 names a Dense kernel 'kernel', its path adds the layers
    dense = tf.keras.layers.Dense(3, name="hidden")
    dense.build((None, 2))
    model = tf.keras.Sequential(
        [tf.keras.layers.Dense(2, name="first"), tf.keras.layers.Dense(1, name="second")],
        name="net",
    )
    model(np.zeros((1, 3), np.float32))
    return [
        [dense.kernel.name, dense.kernel.path, dense.bias.name, dense.bias.path],
        [v.name for v in model.trainable_variables],
        [v.path for v in model.trainable_variables],
    ]


@case(message=True)
def course_nb09_check_numerics(tf):
    # 09: tf.debugging.check_numerics names the tensor that went bad, forwards and backwards;
    # enable_check_numerics stops at the first op whose output is not finite.
    x = tf.constant([0.0, 1.0])
    results = [
        tf.debugging.check_numerics(tf.constant([1.0, 2.0]), "fine"),
        attempt(tf.debugging.check_numerics, tf.constant([1.0, np.nan]), "loss"),
        attempt(tf.debugging.check_numerics, tf.constant([np.inf, 1.0]), "loss"),
        attempt(tf.debugging.check_numerics, tf.constant([1, 2]), "ints"),
    ]
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.sqrt(tf.debugging.check_numerics(x, "x"))
    results.append(attempt(tape.gradient, y, x))
    tf.debugging.enable_check_numerics()
    try:
        results.append(attempt(tf.math.log, x))
        results.append(tf.math.log(x + 1.0))
    finally:
        tf.debugging.disable_check_numerics()
    results.append(tf.math.log(x))
    return results
