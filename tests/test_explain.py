"""minitape.explain: every cause of a missing gradient gets its own diagnosis, and fixing what
the diagnosis names makes the gradient appear.

Each cause is a pair of programs: `broken()` and `fixed()`, each returning
(tape, target, source). The broken one must be diagnosed with the cause, the exact sentence
and the recorded op where the path breaks; the fixed one (the change the sentence asks for,
nothing else) must give a gradient, and the explainer must then say so."""

import numpy as np
import pytest

import minitape as tf
from minitape import explain

NAMES = ("w", "c", "x", "y", "loss", "a", "n", "v", "unused", "dy")
XS, YS = [1.0, 2.0, 3.0], [2.0, 4.0, 6.0]
ALIVE = []  # the other tape of a mix-up: the explainer finds only tapes still alive


def named(**tensors):
    return {k: t for k, t in tensors.items() if k in NAMES}


# --- the causes: a broken program and its fix ---------------------------------------------
def constant_broken():
    c = tf.constant(3.0)
    with tf.GradientTape() as tape:
        y = c**2
    return tape, y, c, named(c=c, y=y)


def constant_fixed():
    c = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(c)
        y = c**2
    return tape, y, c, named(c=c, y=y)


def frozen_broken(watch=False):
    w = tf.Variable(2.0, trainable=False)
    with tf.GradientTape() as tape:
        if watch:
            tape.watch(w)
        y = w * 5.0
    return tape, y, w, named(w=w, y=y)


def watch_accessed_broken(watch=False):
    w = tf.Variable(2.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        if watch:
            tape.watch(w)
        y = w * 5.0
    return tape, y, w, named(w=w, y=y)


def outside_broken(inside=False):
    w = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = w * 3.0
        if inside:
            loss = (y - 1.0) ** 2
    if not inside:
        loss = (y - 1.0) ** 2
    return tape, loss, w, named(w=w, y=y, loss=loss)


def before_broken(inside=False):
    w = tf.Variable(2.0)
    if not inside:
        y = w * 3.0
    with tf.GradientTape() as tape:
        if inside:
            y = w * 3.0
        loss = y**2
    return tape, loss, w, named(w=w, loss=loss)


def stop_recording_broken(paused=True):
    w = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = w * 3.0
        if paused:
            with tape.stop_recording():
                loss = y**2
        else:
            loss = y**2
    return tape, loss, w, named(w=w, y=y, loss=loss)


def numpy_target_broken(fix=False):
    w = tf.Variable(1.0)
    xs, ys = tf.constant(XS), tf.constant(YS)
    with tf.GradientTape() as tape:
        loss = (tf.reduce_mean if fix else np.mean)((w * xs - ys) ** 2)
    return tape, loss, w, named(w=w, loss=loss)


def numpy_middle_broken(fix=False):
    w = tf.Variable(1.0)
    xs, ys = tf.constant(XS), tf.constant(YS)
    with tf.GradientTape() as tape:
        err = w * xs - ys
        if not fix:
            err = err.numpy()  # leaves TensorFlow
        loss = tf.reduce_mean(tf.square(err))
    return tape, loss, w, named(w=w, loss=loss)


def int_source_broken(fix=False):
    n = tf.constant(3.0 if fix else 3)
    with tf.GradientTape() as tape:
        tape.watch(n)
        y = n * n
    return tape, y, n, named(n=n, y=y)


def int_cast_broken(fix=False):
    w = tf.Variable(2.5)
    with tf.GradientTape() as tape:
        h = w * 2.0
        k = h if fix else tf.cast(h, tf.int32)
        y = tf.cast(k, tf.float32) * 3.0
    return tape, y, w, named(w=w, y=y)


def stop_gradient_broken(fix=False):
    w = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        h = w * w
        y = (h if fix else tf.stop_gradient(h)) * 3.0
    return tape, y, w, named(w=w, y=y)


def replaced_broken(fix=False):
    v = tf.Variable(1.0)
    if fix:
        v.assign_add(1.0)
    else:
        v = v + 1.0  # a new tensor, no longer the variable
    with tf.GradientTape() as tape:
        y = v * v
    return tape, y, v, named(v=v, y=y)


def assign_broken(fix=False):
    a = tf.Variable(2.0)
    hidden = tf.Variable(0.0, name="hidden")
    with tf.GradientTape() as tape:
        if fix:
            h = a * a
        else:
            hidden.assign(a * a)
            h = hidden
        y = h * 3.0
    return tape, y, a, named(a=a, y=y)


def nested_source_broken(fix=False):
    x = tf.constant(3.0)
    with tf.GradientTape() as outer:
        if fix:
            outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x**3
        dy = inner.gradient(y, x)
    ALIVE.append(inner)
    return outer, dy, x, named(x=x, dy=dy)


def other_tape_target_broken(fix=False):
    w = tf.Variable(2.0)
    with tf.GradientTape() as tape_a:
        w * 2.0  # this tape records something else
    with tf.GradientTape() as tape_b:
        loss = w * 3.0
    ALIVE.append(tape_b)
    return (tape_b if fix else tape_a), loss, w, named(w=w, loss=loss)


def unconnected_broken(fix=False):
    a, unused = tf.Variable(2.0), tf.Variable(1.0)
    with tf.GradientTape() as tape:
        y = a * a
        u = unused * 2.0  # a side computation
        if fix:
            y = y + u
    return tape, y, unused, named(unused=unused, y=y)


CASES = {
    # cause: (broken, fixed, expected cause, expected op, expected sentence)
    "constant": (
        constant_broken,
        constant_fixed,
        "not_watched",
        None,
        "c: d(y)/d(c) is None: c is a tf.Tensor the tape never watched (a tensor is watched "
        "only through tape.watch(c), before it is used; if c was a tf.Variable, `c = c + ...` "
        "replaced it with a tensor: use assign_add instead).",
    ),
    "frozen": (
        frozen_broken,
        lambda: frozen_broken(watch=True),
        "frozen",
        None,
        "w: d(y)/d(w) is None: w was made with trainable=False, so the tape did not watch "
        "it; call tape.watch(w) (or make it trainable).",
    ),
    "watch_accessed_variables=False": (
        watch_accessed_broken,
        lambda: watch_accessed_broken(watch=True),
        "watch_accessed_off",
        None,
        "w: d(y)/d(w) is None: the tape was made with watch_accessed_variables=False and w "
        "was not passed to tape.watch; call tape.watch(w).",
    ),
    "computed after the block": (
        outside_broken,
        lambda: outside_broken(inside=True),
        "outside_block",
        "Mul#0 (y)",
        "w: d(loss)/d(w) is None: loss was computed after the tape had stopped recording "
        "(its with block had ended); the recorded path from w stops at Mul#0 (y); compute "
        "it inside the block.",
    ),
    "computed before the block": (
        before_broken,
        lambda: before_broken(inside=True),
        "outside_block",
        None,
        "w: d(loss)/d(w) is None: w was never read while the tape was recording: what uses "
        "it ran outside the tape's with block (or inside stop_recording()); compute it "
        "inside the block.",
    ),
    "stop_recording": (
        stop_recording_broken,
        lambda: stop_recording_broken(paused=False),
        "stop_recording",
        "Mul#0 (y)",
        "w: d(loss)/d(w) is None: loss was computed inside tape.stop_recording(), so the "
        "tape did not record it; the recorded path from w stops at Mul#0 (y); compute it "
        "outside stop_recording().",
    ),
    "numpy target": (
        numpy_target_broken,
        lambda: numpy_target_broken(fix=True),
        "target_not_a_tensor",
        "Pow#2",
        "w: d(loss)/d(w) cannot be taken: loss is a numpy.float32, not a tensor, computed "
        "outside TensorFlow (numpy, .numpy() or float()); the path from w left TensorFlow "
        "at the result of Pow#2, and no tape can follow it there; use tf. functions instead.",
    ),
    "numpy in the middle": (
        numpy_middle_broken,
        lambda: numpy_middle_broken(fix=True),
        "numpy",
        "Sub#1",
        "w: d(loss)/d(w) is None: the path from w left TensorFlow at the result of Sub#1 "
        "(a numpy function, .numpy() or float() took its value), so what came back is a new "
        "constant; use tf. functions instead.",
    ),
    "integer source": (
        int_source_broken,
        lambda: int_source_broken(fix=True),
        "not_float",
        None,
        "n: d(y)/d(n) is None: n is int32, and only floating tensors carry gradients (the "
        "tape refused to watch it); make it a float (3.0, or dtype=tf.float32).",
    ),
    "cast to an integer": (
        int_cast_broken,
        lambda: int_cast_broken(fix=True),
        "not_float",
        "Mul#0",
        "w: d(y)/d(w) is None: the path from w is cut where Cast turns the result of Mul#0 "
        "into int32: only floating tensors carry gradients; keep it a float.",
    ),
    "stop_gradient": (
        stop_gradient_broken,
        lambda: stop_gradient_broken(fix=True),
        "stop_gradient",
        "Mul#0",
        "w: d(y)/d(w) is None: tf.stop_gradient was applied to the result of Mul#0, and it "
        "sends no gradient back (on purpose); remove it if the gradient should flow.",
    ),
    "variable replaced by a tensor": (
        replaced_broken,
        lambda: replaced_broken(fix=True),
        "not_watched",
        None,
        "v: d(y)/d(v) is None: v is a tf.Tensor the tape never watched (a tensor is watched "
        "only through tape.watch(v), before it is used; if v was a tf.Variable, `v = v + ...` "
        "replaced it with a tensor: use assign_add instead).",
    ),
    "assign": (
        assign_broken,
        lambda: assign_broken(fix=True),
        "assign",
        "Mul#0",
        "a: d(y)/d(a) is None: the path from a ends at the result of Mul#0, which was stored "
        "in the variable hidden by assign: assign keeps the value, not how it was computed; "
        "keep it as a tensor (h = ...) instead.",
    ),
    "nested tapes: the source watched by the other": (
        nested_source_broken,
        lambda: nested_source_broken(fix=True),
        "other_tape",
        None,
        "x: d(dy)/d(x) is None: x is watched by another tape, not by this one (nested tapes "
        "mixed up?): each tape watches for itself, so call this tape's watch(x) too, or ask "
        "the other tape.",
    ),
    "the target recorded on another tape": (
        other_tape_target_broken,
        lambda: other_tape_target_broken(fix=True),
        "other_tape",
        "Mul#0",
        "w: d(loss)/d(w) is None: loss was recorded on another tape, not on this one (nested "
        "or successive tapes mixed up?): ask the tape that recorded it, or compute loss "
        "inside this tape's block.",
    ),
    "truly unconnected": (
        unconnected_broken,
        lambda: unconnected_broken(fix=True),
        "unconnected",
        "Mul#1",
        "unused: d(y)/d(unused) is None: y does not depend on unused: its recorded path stops "
        "at Mul#1, whose result nothing recorded uses; if that is right, "
        'unconnected_gradients="zero" gives 0 instead of None.',
    ),
}


@pytest.mark.parametrize("cause", list(CASES))
def test_each_cause_is_diagnosed(cause):
    broken, _fixed, code, op, sentence = CASES[cause]
    tape, target, source, names = broken()
    d = explain.gradient(tape, target, source, names=names)[0]
    assert (d.cause, d.op, d.is_none) == (code, op, True)
    assert str(d) == sentence
    assert code in explain.CAUSES


@pytest.mark.parametrize("cause", list(CASES))
def test_fixing_the_named_break_gives_a_gradient(cause):
    broken, fixed, *_ = CASES[cause]
    tape, target, source, names = broken()
    if not isinstance(target, (np.ndarray, np.generic)):  # (a numpy target: TF raises)
        assert tape.gradient(target, source) is None  # the broken program really is broken
    tape, target, source, names = fixed()
    d = explain.gradient(tape, target, source, names=names)[0]
    assert d.cause == "connected" and not d.is_none
    assert tape.gradient(target, source) is not None


# --- what it says when the gradient exists, and what it leaves alone ----------------------
def test_a_connected_source_is_said_to_be_connected():
    x = tf.Variable(3.0, name="x")
    with tf.GradientTape() as tape:
        y = x**2 + 1.0
    e = explain.gradient(tape, y, [x], names={"y": y})
    assert str(e) == "x: d(y)/d(x) is not None: the tape has a path from x to y (2 recorded ops)."
    assert len(e) == 1 and e["x"] is e[0] and list(e) == [e[0]]


def test_the_tape_still_answers_afterwards():
    w = tf.Variable(2.0)
    with tf.GradientTape() as tape:  # one-shot: the explainer must not use it up
        y = w * w
    explain.gradient(tape, y, w)
    assert float(tape.gradient(y, w)) == 4.0


def test_the_explainer_records_nothing_on_an_active_tape():
    w = tf.Variable(2.0)
    with tf.GradientTape() as outer:
        with tf.GradientTape(persistent=True) as inner:
            y = w * w
        n = len(outer._entries)
        explain.gradient(inner, y, w)
        assert len(outer._entries) == n


def test_unconnected_zero_is_named_zero():
    a, unused = tf.Variable(2.0), tf.Variable(1.0)
    with tf.GradientTape() as tape:
        y = a * a
    d = explain.gradient(tape, y, unused, unconnected_gradients="zero", names={"y": y})[0]
    assert d.cause == "unconnected" and d.message.startswith("d(y)/d(unused) is zero:")
    assert d.message.endswith("if that is right, zero is the answer.")


def test_names_default_to_the_callers_variables():
    weight = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        total = weight * 3.0
    assert str(explain.gradient(tape, total, weight)).startswith("weight: d(total)/d(weight)")


def test_a_source_cast_itself_is_named():
    w = tf.Variable(2.5)
    with tf.GradientTape() as tape:
        y = tf.cast(tf.cast(w, tf.int32), tf.float32) * 2.0
    d = explain.gradient(tape, y, w, names={"w": w, "y": y})[0]
    assert (d.cause, d.op) == ("not_float", None)
    assert "Cast turns w into int32" in d.message


def test_a_comparison_beside_the_path_is_not_a_break():
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = tf.where(x > 0.0, x * 3.0, 0.0)
    assert explain.gradient(tape, y, x)[0].cause == "connected"


def test_the_notes_cost_nothing_when_nothing_is_cut():
    w = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.exp(w * tf.constant([1.0, 2.0])))
    assert tape._cuts == [] and [why for _, why in tape._events] == ["enter", "exit"]
    assert y is not None


# --- bad input ----------------------------------------------------------------------------
def test_bad_input_gets_the_right_error_class():
    w = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = w * w
    with pytest.raises(TypeError, match="needs a tf.GradientTape"):
        explain.gradient("tape", y, w)
    with pytest.raises(TypeError, match="needs a target"):
        explain.gradient(tape, None, w)
    with pytest.raises(TypeError, match="Each source must be a tf.Tensor"):
        explain.gradient(tape, y, [w, 3.0])
    with pytest.raises(ValueError, match="Unknown value for unconnected_gradients"):
        explain.gradient(tape, y, w, unconnected_gradients="sometimes")
    tape.gradient(y, w)  # a one-shot tape releases its recording
    with pytest.raises(RuntimeError, match="Call explain.gradient before tape.gradient"):
        explain.gradient(tape, y, w)
    with pytest.raises(RuntimeError, match="holds no recording"):
        explain.gradient(tf.GradientTape(), y, w)


# --- the picture --------------------------------------------------------------------------
def _drawn(fig):
    """(edge colours of the arrows, box edge colours, texts) of a drawn figure."""
    ax = fig.axes[0]
    arrows = [a.arrow_patch.get_edgecolor() for a in ax.texts if hasattr(a, "arrow_patch")]
    boxes = [p.get_edgecolor() for p in ax.patches]
    texts = [t.get_text() for t in ax.texts] + [t.get_text() for t in fig.texts]
    return arrows, boxes, texts


def test_the_picture_marks_the_break_and_the_missing_link():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.colors as mc
    import matplotlib.pyplot as plt

    tape, target, source, names = assign_broken()
    e = explain.gradient(tape, target, source, names=names)
    fig = explain.draw(e)
    arrows, boxes, texts = _drawn(fig)
    red, blue = mc.to_rgba("#c62828"), mc.to_rgba("#1565c0")
    assert "✗ assign" in texts  # the missing link, labelled with the cause
    assert any(str(e[0]) in t.replace("\n", " ") for t in texts)  # the sentence above it
    assert arrows.count(red) == 1  # one red dashed arrow: from Mul#0 to y
    assert blue in arrows  # the source's path, up to the break
    assert boxes.count(red) == 2  # the break (Mul#0) and the target
    plt.close(fig)


def test_the_picture_of_a_connected_source_is_green_to_the_target():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.colors as mc
    import matplotlib.pyplot as plt

    x = tf.Variable(3.0, name="x")
    with tf.GradientTape() as tape:
        y = x * 2.0 + 1.0
    fig = explain.draw(explain.gradient(tape, y, x))
    arrows, _boxes, texts = _drawn(fig)
    green = mc.to_rgba("#2e7d32")
    assert arrows.count(green) == 2 and not any(t.startswith("✗") for t in texts)
    plt.close(fig)


def test_the_picture_of_an_unrecorded_target_and_unwatched_source():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tape, target, source, names = constant_broken()
    fig = explain.draw(explain.gradient(tape, target, source, names=names), source="c")
    _arrows, _boxes, texts = _drawn(fig)
    assert "c\n(source)" in texts and "y\n(not recorded)" in texts and "✗ not watched" in texts
    plt.close(fig)


def test_an_op_without_gradient_on_the_path_is_named():
    w = tf.Variable(0.4)
    with tf.GradientTape() as tape:
        loss = (tf.round(w) * 2.0 - 3.0) ** 2
    d = explain.gradient(tape, loss, w)[0]
    assert (d.cause, d.op) == ("no_gradient", "Round#0")
    assert str(d) == (
        "w: d(loss)/d(w) is None: the recorded path from w goes through Round#0, which has no "
        "gradient (TF defines none for Round); use a differentiable op there, or a "
        "straight-through estimator."
    )
    assert tape.gradient(loss, w) is None
    with tf.GradientTape() as tape:  # the fix it names: the straight-through estimator
        loss = ((w + tf.stop_gradient(tf.round(w) - w)) * 2.0 - 3.0) ** 2
    assert explain.gradient(tape, loss, w)[0].cause == "connected"
    assert tape.gradient(loss, w) is not None


@pytest.mark.parametrize("cause", list(CASES))
def test_every_diagnosis_can_be_drawn(cause):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    broken, fixed, *_ = CASES[cause]
    for program in (broken, fixed):
        tape, target, source, names = program()
        explanation = explain.gradient(tape, target, source, names=names)
        plt.close(explain.draw(explanation))


def test_an_unwatched_source_beside_a_recorded_target_can_be_drawn():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x, c = tf.Variable(3.0, name="x"), tf.constant(4.0)
    with tf.GradientTape() as tape:
        y = x**2 + c**2
    fig = explain.draw(explain.gradient(tape, y, [x, c], names={"c": c, "y": y}), source="c")
    assert "✗ not watched" in [t.get_text() for t in fig.axes[0].texts]
    plt.close(fig)
