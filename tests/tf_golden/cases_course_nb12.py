"""Golden cases for what notebook 15 (build your own tape) says about TensorFlow: each function
records one claim the notebook makes. The names, course_nb12_..., keep the number the notebook
had when they were recorded; notebook 16's cases are in cases_course_nb16.py."""

import numpy as np

from .cases import attempt, case, derivatives  # noqa: F401


@case
def course_nb12_python_floats_are_float32(tf):
    # 15 §1: a Python float becomes float32; a float64 tensor stays float64, and a Python float
    # next to it takes its dtype (the notebook compares with float64 tensors for that reason)
    x = tf.constant(3.0)
    x64 = tf.constant(3.0, dtype=tf.float64)
    return [x.dtype, x64.dtype, tf.constant(np.float64(3.0)).dtype, (x64 * 2.0 + 1.0).dtype]


@case
def course_nb12_gradients_add_up(tf):
    # 15 §4, the '=' walk's explanation: d(x·x)/dx at 3 is 6 (both factors send 3);
    # d(sin(x) + x)/dx at 1 is cos(1) + 1 (x·x·x at 2 is in course_nb12_nested_second_derivative)
    out = []
    for x0, f in ((3.0, lambda x: x * x), (1.0, lambda x: tf.sin(x) + x)):
        x = tf.constant(x0, dtype=tf.float64)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        out.append(tape.gradient(y, x))
    return out


@case
def course_nb12_watch_and_variables(tf):
    # 15 §5: an unwatched constant gets None, a watched one its gradient; a variable read
    # inside the block is watched without being asked
    c, w = tf.constant(2.0, dtype=tf.float64), tf.constant(2.0, dtype=tf.float64)
    v = tf.Variable(3.0, dtype=tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(w)
        y = c * c + w * w + v * v
    return tape.gradient(y, [c, w, v])


@case(message=True)
def course_nb12_one_shot_second_call(tf):
    # 15 §6: a second gradient() on a non-persistent tape is a RuntimeError with these words;
    # a persistent tape answers twice
    x = tf.constant(3.0, dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    first = tape.gradient(y, x)
    second = attempt(tape.gradient, y, x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
    return [first, second, tape.gradient(y, x), tape.gradient(y, x)]


@case
def course_nb12_nested_second_derivative(tf):
    # 15 §7: x·sin(x) at 1: f' = sin 1 + cos 1, f'' = 2 cos 1 - sin 1, with an outer tape
    # recording the inner gradient; x·x·x at 2: 12 and 12
    out = []
    for x0, f in ((1.0, lambda x: x * tf.sin(x)), (2.0, lambda x: x * x * x)):
        x = tf.constant(x0, dtype=tf.float64)
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = f(x)
            dy = inner.gradient(y, x)
        out.append([dy, outer.gradient(dy, x)])
    return out


@case
def course_nb12_stop_recording(tf):
    # 15 §8: y = x·x · (3x computed inside stop_recording()) at x = 3: for the tape 3x is the
    # constant 9, so the gradient is 9 · 2x = 54, not 9x² = 81
    x = tf.constant(3.0, dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        square = x * x
        with tape.stop_recording():
            linear = 3.0 * x
        y = square * linear
    return [y, tape.gradient(y, x)]


@case
def course_nb12_reset_forgets_watches(tf):
    # 15 Exercise 2: reset() forgets the recording and what was watched; a variable read after
    # it is watched again, a constant watched before it is not
    x = tf.constant(2.0, dtype=tf.float64)
    v = tf.Variable(3.0, dtype=tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        first = x * v
        tape.reset()
        second = v * v + x
    return [first, second, tape.gradient(second, v), tape.gradient(second, x)]


@case
def course_nb12_list_of_sources(tf):
    # 15 Exercise 3: a list of sources gives a list of gradients, None where unconnected
    x = tf.constant(0.5, dtype=tf.float64)
    w = tf.constant(2.0, dtype=tf.float64)
    b = tf.constant(-1.0, dtype=tf.float64)
    z = tf.constant(4.0, dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch([x, w, b, z])
        y = tf.sin(x * w) + b * b
    return tape.gradient(y, [x, w, b, z])
