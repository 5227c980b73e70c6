"""Golden cases for what notebook 03 §7 (the explainer) and §8 (the `tf.where` caveat) say about
TensorFlow (names course_nb03_...). The explainer itself is minitape's; what is checked here is
the claim it rests on: each broken program of §7 gives no gradient in TensorFlow too (None, or
for a numpy target an AttributeError), and the fix its diagnosis names gives the gradient."""

import numpy as np

from .cases import attempt, case

XS, YS = [1.0, 2.0, 3.0], [2.0, 4.0, 6.0]


def _programs(tf):
    """The programs of notebook 03 §7, as there: program(fixed) -> (tape, target, source)."""
    xs, ys = tf.constant(XS), tf.constant(YS)

    def not_watched(fixed):
        c = tf.constant(3.0)
        with tf.GradientTape() as tape:
            if fixed:
                tape.watch(c)
            y = c**2
        return tape, y, c

    def outside_the_block(fixed):
        w = tf.Variable(2.0)
        with tf.GradientTape() as tape:
            y = w * 3.0
            if fixed:
                loss = (y - 1.0) ** 2
        if not fixed:
            loss = (y - 1.0) ** 2
        return tape, loss, w

    def numpy_detour(fixed):
        w = tf.Variable(1.0)
        with tf.GradientTape() as tape:
            err = w * xs - ys
            loss = tf.reduce_mean(tf.square(err) if fixed else np.square(err.numpy()))
        return tape, loss, w

    def integer(fixed):
        n = tf.constant(3.0 if fixed else 3)
        with tf.GradientTape() as tape:
            tape.watch(n)
            y = n * n
        return tape, y, n

    def replaced_by_a_tensor(fixed):
        v = tf.Variable(1.0)
        if fixed:
            v.assign_add(1.0)
        else:
            v = v + 1.0
        with tf.GradientTape() as tape:
            y = v * v
        return tape, y, v

    def through_assign(fixed):
        a, hidden = tf.Variable(2.0), tf.Variable(0.0, name="hidden")
        with tf.GradientTape() as tape:
            if fixed:
                h = a * a
            else:
                hidden.assign(a * a)
                h = hidden
            y = h * 3.0
        return tape, y, a

    def unconnected(fixed):
        a, unused = tf.Variable(2.0), tf.Variable(1.0)
        with tf.GradientTape() as tape:
            y = a * a
            side = unused * 2.0
            if fixed:
                y = y + side
        return tape, y, unused

    def frozen(fixed):
        scale = tf.Variable(2.0, trainable=fixed)
        with tf.GradientTape() as tape:
            y = scale * 5.0
        return tape, y, scale

    def not_watching_variables(fixed):
        w = tf.Variable(2.0)
        with tf.GradientTape(watch_accessed_variables=False) as tape:
            if fixed:
                tape.watch(w)
            y = w * 5.0
        return tape, y, w

    def stop_gradient(fixed):
        w = tf.Variable(2.0)
        with tf.GradientTape() as tape:
            h = w * w
            y = (h if fixed else tf.stop_gradient(h)) * 3.0
        return tape, y, w

    def inside_stop_recording(fixed):
        w = tf.Variable(2.0)
        with tf.GradientTape() as tape:
            y = w * 3.0
            if fixed:
                loss = y**2
            else:
                with tape.stop_recording():
                    loss = y**2
        return tape, loss, w

    def numpy_target(fixed):
        w = tf.Variable(1.0)
        with tf.GradientTape() as tape:
            loss = (tf.reduce_mean if fixed else np.mean)((w * xs - ys) ** 2)
        return tape, loss, w

    def nested_tapes(fixed):
        x = tf.constant(3.0)
        with tf.GradientTape() as outer:
            if fixed:
                outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = x**3
            dy_dx = inner.gradient(y, x)
        return outer, dy_dx, x

    def rounded(fixed):
        w = tf.Variable(0.4)
        with tf.GradientTape() as tape:
            w_used = w + tf.stop_gradient(tf.round(w) - w) if fixed else tf.round(w)
            loss = (w_used * 2.0 - 3.0) ** 2
        return tape, loss, w

    return [
        not_watched,
        outside_the_block,
        numpy_detour,
        integer,
        replaced_by_a_tensor,
        through_assign,
        unconnected,
        frozen,
        not_watching_variables,
        stop_gradient,
        inside_stop_recording,
        numpy_target,
        nested_tapes,
        rounded,
    ]


@case
def course_nb03_explained_programs_broken_then_fixed(tf):
    # 03 §7: every broken program gives no gradient (None; a numpy target: AttributeError),
    # and the fix the diagnosis names gives one (6, 30, -28/3, 6, 4, 12, 2, 5, 5, 12, 36,
    # -28/3, 18, -12 by hand)
    out = []
    for program in _programs(tf):
        tape, target, source = program(False)
        broken = attempt(tape.gradient, target, source)
        broken = "AttributeError" if isinstance(broken, AttributeError) else broken
        tape, target, source = program(True)
        out.append([broken, tape.gradient(target, source)])
    return out
