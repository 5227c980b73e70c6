"""Golden cases for what notebook 16 (test and extend your tape) says about TensorFlow: each
function records one claim the notebook makes (names course_nb16_...)."""

import numpy as np

from .cases import case


@case
def course_nb16_broadcast_gradient_is_summed(tf):
    # 16 §3: b of shape (3,) added to each row of a (4, 3) batch gets a gradient of b's shape,
    # the sum of its 4 contributions; a variable of shape () times five points keeps its shape
    # in the first and the second derivative
    b = tf.Variable(np.zeros(3))
    with tf.GradientTape() as tape:
        h = b + np.arange(12.0).reshape(4, 3)
    grad_b = tape.gradient(h, b)
    xs = np.linspace(0.2, 1.0, 5)
    w = tf.Variable(0.5, dtype=tf.float64)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = w * tf.sin(w * xs)
        d1 = inner.gradient(y, w)
    return [grad_b, d1, outer.gradient(d1, w)]


@case
def course_nb16_layer_gradients(tf):
    # 16 §4: the gradients of mean(tanh(data @ w + b)) over the rows have the shapes of w and b
    rng = np.random.default_rng(0)
    data, w0, b0 = rng.normal(size=(5, 2)), rng.normal(size=(2, 3)), rng.normal(size=3)
    w, b = tf.Variable(w0), tf.Variable(b0)
    with tf.GradientTape() as tape:
        layer = tf.reduce_mean(tf.tanh(tf.matmul(data, w) + b), axis=0, keepdims=True)
    return tape.gradient(layer, [w, b])
