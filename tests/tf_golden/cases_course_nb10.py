"""Golden cases for what notebook 10 (`tf.function` and `fit`) says about TensorFlow: each
function records one claim the notebook makes (names course_nb10_step_...; the older
course_nb10_... cases in cases_course.py back notebook 12, numbered 10 when they were written)."""

import numpy as np

from .cases import case


def _compiled_step_runs(tf, optimizer, steps=3):
    """A one-layer model's training step with a tape inside, compiled; called `steps` times.
    Returns how often its Python ran, its trace count and its losses."""
    x = tf.constant(np.linspace(-1.0, 1.0, 8, dtype=np.float32).reshape(4, 2))
    y = tf.constant(np.array([[1.0], [0.0], [-1.0], [2.0]], dtype=np.float32))
    w = tf.Variable(np.array([[0.5], [-0.5]], dtype=np.float32))
    runs = []

    @tf.function
    def step(x, y):
        runs.append(1)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(x @ w - y))
        optimizer.apply_gradients([(tape.gradient(loss, w), w)])
        return loss

    losses = [step(x, y) for _ in range(steps)]
    return [len(runs), step.experimental_get_tracing_count(), losses]


@case
def course_nb10_step_traced_twice_when_its_first_call_creates_variables(tf):
    # 10 §2 and Exercise 2: a compiled step whose first call creates variables (Adam's moments,
    # SGD's momentum) is traced twice, its Python running twice; plain SGD creates none: once
    return [
        _compiled_step_runs(tf, tf.keras.optimizers.SGD(0.1)),
        _compiled_step_runs(tf, tf.keras.optimizers.SGD(0.1, momentum=0.9)),
        _compiled_step_runs(tf, tf.keras.optimizers.Adam(0.01)),
    ]


@case
def course_nb10_step_tape_inside_tf_function(tf):
    # 10 Exercise 1: a tape inside a tf.function gives the eager gradient; two float32 scalars
    # share one trace
    @tf.function
    def slope(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x**3
        return tape.gradient(y, x)

    values = [slope(tf.constant(2.0)), slope(tf.constant(3.0))]
    return [values, slope.experimental_get_tracing_count()]
