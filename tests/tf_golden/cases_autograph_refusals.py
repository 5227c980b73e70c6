"""Golden cases for what TF refuses inside tf.function and minitape once ran as Python on every
call: a traced tensor as a Python bool (`bool(x)`, `assert x`), iterated (`enumerate`, `zip`,
`for v in x` without AutoGraph), its `len()` without AutoGraph, code under `do_not_convert`, a
loop with an `else`, a Keras layer's `call` (TF does not convert it); an `if` or `while` on a
tensor that is not a boolean scalar; a loop variable whose dtype or shape one iteration changes.
And what TF accepts because it converts the functions converted code calls: a method, a
lambda, a function using `global`, a callable object, a function defined inside (even under
`do_not_convert`), a `tf.cond`'s branch."""

import re

import numpy as np

from .cases import case


def refusal(fn, *args):
    """fn(*args), or (the exception's class name, its message's line that says why, without
    TF's traceback of the user's code, Keras' bold and note of the layer's arguments, or the
    printout of a graph tensor after " got ")."""
    try:
        return fn(*args)
    except Exception as e:  # noqa: BLE001
        text = re.sub("\x1b\\[[0-9;]*m", "", str(e))  # (Keras' bold)
        lines = [line.strip() for line in text.strip().splitlines()]
        lines = [line for line in lines if line and not line.startswith(("•", "Arguments"))]
        line = lines[-1].split(f"{type(e).__name__}: ", 1)[-1]
        return [type(e).__name__, line.split(" got ")[0]]


def _cases_of(tf, fns, x):
    return [refusal(tf.function(f), x) for f in fns]


@case
def autograph_refuses_a_traced_tensor_as_a_python_bool(tf):
    def explicit(x):
        return bool(x > 0)

    def asserted(x):
        assert x > 0
        return x

    def in_a_comprehension(x):
        return [1 for v in [x, -x] if v > 0]

    def in_a_lambda(x):
        return bool(x > 0)

    fns = [explicit, asserted, in_a_comprehension, lambda x: bool(x > 0), in_a_lambda]
    return _cases_of(tf, fns, tf.constant(1.0)) + [
        _cases_of(
            tf,
            [
                lambda x: x if x > 0 else -x,  # (converted by TF: one lambda a line)
                lambda x: not x > 0,
            ],
            tf.constant(-1.0),
        )
    ]


@case
def autograph_refuses_iterating_a_traced_tensor(tf):
    def enumerated(t):
        r = 0.0
        for _i, v in enumerate(t):
            r += v
        return r

    def zipped(t):
        r = 0.0
        for a, b in zip(t, t):
            r += a * b
        return r

    return _cases_of(tf, [enumerated, zipped], tf.constant([1.0, 2.0]))


@case
def autograph_refuses_len_and_iteration_without_autograph(tf):
    def length(x):
        return len(x)

    def iterated(x):
        r = 0.0
        for v in x:
            r += v
        return r

    x = tf.constant([1.0, 2.0])
    off = [refusal(tf.function(f, autograph=False), x) for f in (length, iterated)]
    on = [refusal(tf.function(f), x) for f in (length, iterated)]
    return off + on + [refusal(tf.function(length), tf.constant(1.0))]


@case
def autograph_refuses_an_if_on_a_tensor_that_is_no_bool_scalar(tf):
    def branch(x):
        if x:
            return 1
        return 2

    def loop(x):
        i = x
        while i:
            i -= 1
        return i

    def expression(x):
        return 1 if x else 2

    values = [tf.constant(3), tf.constant(float("nan")), tf.constant("a"), tf.constant([True])]
    values += [tf.constant([True, False]), tf.constant([[False]])]
    return [refusal(tf.function(branch), v) for v in values] + [
        refusal(tf.function(loop), tf.constant(3)),
        [refusal(tf.function(expression), v)[0] for v in values[:3]],
    ]


@case
def autograph_refuses_a_loop_variable_changing_dtype_or_shape(tf):
    def grows_in_for(x):
        v = tf.constant([1.0])
        for _i in tf.range(3):
            v = tf.concat([v, v], 0)
        return v

    def grows_in_while(x):
        v = tf.constant([1.0])
        i = tf.constant(0)
        while i < x:
            v = tf.concat([v, v], 0)
            i += 1
        return v

    def changes_rank(x):
        v = tf.constant([1.0])
        for _i in tf.range(x):
            v = tf.zeros((2, 2))
        return v

    def changes_dtype(x):
        v = tf.constant(0)
        for _i in tf.range(x):
            v = tf.cast(v, tf.float32) + 1.0
        return v

    def keeps_both(x):
        v = tf.constant([1.0, 2.0])
        for _i in tf.range(x):
            v = v * 2.0
        return v

    fns = [grows_in_for, grows_in_while, changes_rank, changes_dtype, keeps_both]
    return _cases_of(tf, fns, tf.constant(3))


@case
def autograph_refuses_code_it_does_not_convert(tf):
    @tf.autograph.experimental.do_not_convert
    def not_converted(x):
        if x > 0:
            return x
        return -x

    def for_else(x):
        r = 0.0
        for v in x:
            r += v
        else:
            r += 1.0
        return r

    def while_else(x):
        i = tf.constant(0)
        while i < 3:
            i += 1
        else:
            i += 10
        return i

    class Signed(tf.keras.layers.Layer):
        def call(self, x):
            if tf.reduce_sum(x) > 0:
                return x * 2.0
            return -x

    layer = Signed()
    x = tf.constant([1.0, 2.0])
    return [
        refusal(tf.function(not_converted), tf.constant(1.0)),
        refusal(tf.function(for_else), x),
        refusal(tf.function(while_else), x),
        refusal(tf.function(lambda x: layer(x)), x),
    ]


@case
def autograph_converts_what_converted_code_calls(tf):
    def absolute(y):
        if y > 0:
            return y
        return -y

    class Holder:
        def method(self, y):
            if y > 0:
                return y
            return -y

        def __call__(self, y):
            return self.method(y)

    holder = Holder()

    def by_lambda(x):
        h = lambda y: y if y > 0 else -y  # noqa: E731
        return h(x)

    def nested_under_do_not_convert(x):
        @tf.autograph.experimental.do_not_convert
        def g(y):
            if y > 0:
                return y
            return -y

        return g(x)

    fns = [
        lambda x: holder.method(x),
        lambda x: holder(x),
        by_lambda,
        nested_under_do_not_convert,
        lambda x: tf.cond(x > 0, lambda: absolute(x), lambda: x),
        lambda x: absolute(x),
    ]
    return [_cases_of(tf, fns, tf.constant(v)) for v in (2.0, -3.0)]


@case
def autograph_do_not_convert_leaves_the_function_itself_convertible(tf):
    def absolute(x):
        if x > 0:
            return x
        return -x

    wrapped = tf.autograph.experimental.do_not_convert(absolute)
    x = tf.constant(-2.0)
    return [
        refusal(tf.function(wrapped), x),
        refusal(tf.function(absolute), x),
        refusal(tf.function(lambda y: wrapped(y)), x),
        refusal(tf.function(lambda y: absolute(y)), x),
    ]


@case
def while_loop_refuses_a_loop_variable_changing_shape_in_a_graph(tf):
    def cond(i, v):
        return i < 3

    def body(i, v):
        return i + 1, tf.concat([v, v], 0)

    def why(fn):
        """The class and the words after TF's name of the tensor."""
        out = refusal(tf.function(fn))
        return out if not isinstance(out, list) else [out[0], out[1].split("` enters")[-1]]

    start = (0, tf.constant([1.0]))
    return [
        why(lambda: tf.while_loop(cond, body, start)),
        why(lambda: tf.while_loop(cond, body, start, maximum_iterations=2)),
        why(lambda: tf.while_loop(cond, lambda i, v: (i + 1, tf.zeros((2, 2))), start)),
        why(
            lambda: tf.while_loop(
                cond, body, start, shape_invariants=(tf.TensorShape([]), tf.TensorShape([1]))
            )
        ),
        tf.function(
            lambda: tf.while_loop(
                cond, body, start, shape_invariants=(tf.TensorShape([]), tf.TensorShape([None]))
            )
        )(),
        tf.while_loop(cond, body, start),  # (eagerly: no graph, no check)
    ]


@case
def autograph_refuses_an_if_on_a_tensor_in_a_train_step_under_fit(tf):
    # (Keras 3 runs train_step under do_not_convert: TF does not convert it)
    class Model(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(1)

        def call(self, x):
            return self.dense(x)

        def train_step(self, data):
            x, _ = data
            if tf.reduce_sum(x) > 0:
                return {"z": 1.0}
            return {"z": 2.0}

    model = Model()
    model.compile(optimizer="sgd", loss="mse")
    x = np.ones((4, 1), "float32")
    return refusal(lambda: model.fit(x, x, verbose=0).history)
