"""Golden cases for what notebook 14 (Hessians and double backward) adds about TensorFlow to the
cases it shares with notebook 13 (cases_course_nb11.py): each function records one claim the
notebook makes (names course_nb14_...)."""

import numpy as np

from .cases import case
from .cases_course_nb11 import _gradient_under_a_tape, _logistic


@case
def course_nb14_curvature_along_a_direction(tf):
    # 14 §2: one forward-over-reverse Hessian-vector product gives the slope g·d and the curvature
    # dᵀHd of the loss along a unit direction d; the loss along d, L(w + s·d), for the plot
    loss = _logistic(tf)
    w = tf.constant([0.3, -0.2, 0.5])
    angle = np.radians(30)
    d = tf.constant([np.cos(angle), np.sin(angle), 0.0], dtype=tf.float32)
    with tf.autodiff.ForwardAccumulator(w, d) as acc:
        with tf.GradientTape() as tape:
            tape.watch(w)
            value = loss(w)
        g = tape.gradient(value, w)
    along = [loss(w + s * d) for s in (-6.0, -1.0, 0.0, 2.5, 6.0)]
    return [value, tf.reduce_sum(g * d), tf.reduce_sum(d * acc.jvp(g)), along]


@case
def course_nb14_jacobian_with_and_without_pfor(tf):
    # 14, On real TensorFlow: tape.jacobian of the gradient (the Hessian of §1) gives the same
    # numbers with experimental_use_pfor=False, which loops over the rows as minitape does
    loss = _logistic(tf)
    w = tf.constant([0.3, -0.2, 0.5])
    outer, g = _gradient_under_a_tape(tf, loss, w)
    return [outer.jacobian(g, w), outer.jacobian(g, w, experimental_use_pfor=False)]


@case
def course_nb14_exercises(tf):
    # 14 Exercises 2 (a JVP by the double-backward trick, no ForwardAccumulator) and 3 (the
    # curvature dᵀHd by reverse over reverse)
    x = tf.constant([0.5, -1.0])
    v = tf.constant([2.0, 1.0])
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = tf.stack([x[0] * x[1], tf.exp(x[0]) + x[1] ** 2])
    u = tf.ones_like(y)
    with tf.GradientTape() as outer:
        outer.watch(u)
        g = inner.gradient(y, x, output_gradients=u)
    ex2 = outer.gradient(g, u, output_gradients=v)
    loss = _logistic(tf)
    w = tf.constant([0.3, -0.2, 0.5])
    d = tf.constant([0.0, 1.0, 1.0]) / np.sqrt(2.0)
    outer, g = _gradient_under_a_tape(tf, loss, w)
    ex3 = tf.reduce_sum(d * outer.gradient(g, w, output_gradients=d))
    return [ex2, ex3]
