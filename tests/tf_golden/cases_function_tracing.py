"""Golden cases for how tf.function traces: the type of a call (TF's trace key), the relaxed
shapes of reduce_retracing and of an input_signature with None, keyword order, variables of one
type, methods traced per instance, the retracing warning, get_concrete_function with
TensorSpecs, and the TypeErrors of arguments a trace key cannot hold."""

import functools
import logging
import re
import weakref

from .cases import case, derivatives


def _error(fn, *args, **kwargs):
    """[class name, message without addresses] of what fn raises (or its result)."""
    try:
        return fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001
        return [type(e).__name__, re.sub(r" at 0x[0-9a-f]+", "", str(e))]


class _Heard(logging.Handler):
    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        self.messages.append(re.sub(r" at 0x[0-9a-f]+", "", record.getMessage()))


def _listening(tf, body):
    """body(messages) with the warnings of tf's logger heard in `messages` as they come:
    [what body returned, the messages]."""
    logger = logging.getLogger("tensorflow" if tf.__name__ == "tensorflow" else "minitape")
    heard, level = _Heard(), logger.level
    logger.addHandler(heard)
    logger.setLevel(logging.WARNING)  # (the recorder may have quietened TF's logger)
    try:
        return [body(heard.messages), heard.messages]
    finally:
        logger.removeHandler(heard)
        logger.setLevel(level)


# =============================================================================================
# reduce_retracing and input_signature: traces with None dimensions
# =============================================================================================
@case
def fn_reduce_retracing_relaxes_sizes_then_rank(tf):
    # (2,) traces; (3,) traces (None,), which serves (4,) and (5,); a new rank traces an unknown
    # shape, which serves every rank; another dtype has nothing to relax against: (2,) again
    printed = []

    @tf.function(reduce_retracing=True)
    def total(x):
        printed.append(str(x.shape))
        return tf.reduce_sum(x * 2)

    shapes = [[2], [3], [4], [5], [2, 2], [3, 3], [4, 3]]
    values = [total(tf.ones(s)) for s in shapes] + [total(tf.ones([2], tf.float64))]
    unique = [p for i, p in enumerate(printed) if p not in printed[:i]]
    return [values, total.experimental_get_tracing_count(), unique, printed]


@case
def fn_reduce_retracing_keeps_python_values_apart(tf):
    # a Python argument is part of the type: only traces with the same value relax together
    printed = []

    @tf.function(reduce_retracing=True)
    def scale(x, k):
        printed.append([str(x.shape), k])
        return x * k

    calls = [([2], 1), ([2], 2), ([3], 2), ([4], 1), ([5], 1), ([6], 2)]
    values = [scale(tf.ones(s), k) for s, k in calls]
    unique = [p for i, p in enumerate(printed) if p not in printed[:i]]
    return [values, scale.experimental_get_tracing_count(), unique, printed]


@case
def fn_input_signature_none_dimension_traces_once(tf):
    printed = []

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def total(x):
        printed.append(str(x.shape))
        return tf.reduce_sum(x * 2.0)

    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
    def any_rank(x):
        printed.append(str(x.shape))
        return tf.reduce_sum(x)

    values = [total(tf.ones([n])) for n in (2, 3, 4)]
    values += [any_rank(tf.ones(s)) for s in ([], [2], [2, 3])]
    counts = [total.experimental_get_tracing_count(), any_rank.experimental_get_tracing_count()]
    unique = [p for i, p in enumerate(printed) if p not in printed[:i]]
    return [values, counts, unique, printed]


# =============================================================================================
# what makes a call the same: keyword order, variables of one type
# =============================================================================================
@case
def fn_keyword_order_does_not_retrace(tf):
    @tf.function
    def diff(a, b):
        return a - b

    @tf.function
    def diff_kw(**kw):
        return kw["a"] - kw["b"]

    one, two = tf.constant(1.0), tf.constant(2.0)
    values = [diff(a=one, b=two), diff(b=two, a=one), diff(one, b=two)]
    values += [diff_kw(a=one, b=two), diff_kw(b=two, a=one)]
    return [
        values,
        diff.experimental_get_tracing_count(),
        diff_kw.experimental_get_tracing_count(),
    ]


@case
def fn_variables_of_one_type_share_a_trace(tf):
    # a variable is traced by its shape, dtype and trainability: another variable of that type
    # is served by the same trace (and its own value is read)
    printed = []

    @tf.function
    def double(var):
        printed.append(var.dtype.name)
        return var * 2

    a, b = tf.Variable(1.0), tf.Variable(2.0)
    values = [double(a), double(b), double(a), double(tf.Variable([1.0, 2.0]))]
    values += [double(tf.Variable(1, dtype=tf.int32)), double(tf.Variable(3.0))]
    values.append(double(tf.Variable(4.0, trainable=False)))
    return [values, double.experimental_get_tracing_count(), len(printed)]


@case
def fn_the_same_variable_twice_is_another_type(tf):
    @tf.function
    def add(u, w):
        return u + w

    a, b = tf.Variable(1.0), tf.Variable(2.0)
    values = [add(a, a), add(a, b), add(b, b)]
    return [values, add.experimental_get_tracing_count()]


# =============================================================================================
# methods: one function per instance
# =============================================================================================
@case
def fn_method_traces_per_instance(tf):
    class Scale(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = None
            self.traces = 0

        @tf.function
        def __call__(self, x):
            self.traces += 1
            if self.v is None:
                self.v = tf.Variable(2.0)  # made on each instance's first call
            return self.v * x

    first, second = Scale(), Scale()
    values = [first(tf.constant(1.0)), first(tf.constant(2.0)), second(tf.constant(3.0))]
    return [
        values,
        [first.traces, second.traces],
        [
            first.__call__.experimental_get_tracing_count(),
            second.__call__.experimental_get_tracing_count(),
            Scale.__call__.experimental_get_tracing_count(),
        ],
        first.__call__ is first.__call__,
    ]


@case
def fn_method_without_variables_counts_per_instance(tf):
    class Plus:
        @tf.function
        def f(self, x):
            return x + 1

    p, q = Plus(), Plus()
    values = [p.f(tf.constant(1.0)), q.f(tf.constant(1.0)), p.f(tf.constant(2.0))]
    counts = [
        p.f.experimental_get_tracing_count(),
        q.f.experimental_get_tracing_count(),
        Plus.f.experimental_get_tracing_count(),
    ]
    return [values, counts]


# =============================================================================================
# the retracing warning
# =============================================================================================
@case
def fn_retracing_warning_fifth_and_sixth_trace(tf):
    # from the 5th of the last calls (at most 10) that traced, a warning; at most two per
    # Python function
    @tf.function
    def f(x):
        return x * 2

    def body(heard):
        warned = []
        for n in range(1, 9):
            before = len(heard)
            f(tf.ones([n]))
            warned.append(len(heard) - before)
        return warned

    return _listening(tf, body)


@case
def fn_retracing_warning_counts_calls_without_tracing(tf):
    @tf.function
    def g(x):
        return x * 2

    def body(heard):
        for n in range(1, 5):
            g(n)
        for n in range(1, 9):
            g(n)
        return g.experimental_get_tracing_count()

    return _listening(tf, body)


@case
def fn_retracing_warning_for_a_function_made_in_a_loop(tf):
    # the count is kept per Python function: a tf.function made anew on each call is warned of
    def body(heard):
        out = []
        for i in range(6):

            @tf.function
            def h(x):
                return x + 1

            out.append(h(tf.constant(float(i))))
        return out

    return _listening(tf, body)


@case
def fn_no_retracing_warning_with_reduce_retracing(tf):
    @tf.function(reduce_retracing=True)
    def f(x):
        return tf.reduce_sum(x)

    def body(heard):
        out = [f(tf.ones([n])) for n in range(1, 9)]
        return [out, f.experimental_get_tracing_count()]

    return _listening(tf, body)


# =============================================================================================
# get_concrete_function with TensorSpecs; a concrete function's variables
# =============================================================================================
@case
def fn_get_concrete_function_of_a_spec_with_none(tf):
    @tf.function
    def total(x):
        return tf.reduce_sum(x * 2.0)

    concrete = total.get_concrete_function(tf.TensorSpec([None], tf.float32))
    values = [concrete(tf.ones([3])), concrete(tf.ones([5]))]
    count = total.experimental_get_tracing_count()
    values.append(total(tf.ones([4])))  # the traced type serves the call
    again = total.get_concrete_function(tf.ones([7]))
    return [values, count, total.experimental_get_tracing_count(), again(tf.ones([2]))]


@case
def fn_get_concrete_function_of_a_spec_then_calls(tf):
    @tf.function
    def f(x):
        return x

    f(tf.constant(1.0))
    f(tf.constant([1.0]))
    counts = [f.experimental_get_tracing_count()]
    f.get_concrete_function(tf.TensorSpec([None]))
    counts.append(f.experimental_get_tracing_count())
    f(tf.constant([1.0, 2.0]))
    f.get_concrete_function(tf.constant([5.0, 6.0, 7.0]))
    counts.append(f.experimental_get_tracing_count())
    return counts


@case
def fn_concrete_function_variables(tf):
    w = tf.Variable(2.0)
    u = tf.Variable(1.0, trainable=False)

    @tf.function
    def affine(x):
        return x * w + u

    concrete = affine.get_concrete_function(tf.TensorSpec([], tf.float32))
    return [
        [v is w for v in concrete.variables],
        [v is u for v in concrete.variables],
        [v is w for v in concrete.trainable_variables],
        concrete(tf.constant(3.0)),
        affine(tf.constant(1.0)),
        affine.experimental_get_tracing_count(),
    ]


# =============================================================================================
# TypeErrors of what a trace key cannot hold; input_signature with defaulted arguments
# =============================================================================================
@case(message=True)
def fn_input_signature_with_a_defaulted_argument(tf):
    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def f(x, training=False):
        return x * 2.0 if not training else x

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def g(x, y=2.0, z=3.0):
        return x * y * z

    def refused():
        try:
            f(tf.constant(1.0), True)
        except TypeError as e:
            return ["TypeError", str(e).split(" Received args")[0]]

    def no_default():
        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def h(x, y):
            return x * y

        return h

    return [
        f(tf.constant(1.0)),
        f(tf.constant(1.0), False),
        f.experimental_get_tracing_count(),
        refused(),
        g(tf.constant(1.0)),
        _error(no_default),
    ]


@case(message=True)
def fn_arguments_a_trace_key_cannot_hold(tf):
    @tf.function
    def same(x):
        return x

    class Thing:
        pass

    thing = Thing()
    weak = _error(same, weakref.ref(thing))
    weak[1] = re.sub(r"<weakref; to '\w+'>", "<weakref>", weak[1])
    return [
        _error(same, set()),
        _error(same, {1, 2}),
        _error(same, [1, {2}]),
        _error(same, {"a": set()}),
        weak,
        _error(same, frozenset([1])),
        _error(same, thing),
    ]


@case
def fn_of_a_partial(tf):
    def scaled(x, k):
        return x * k

    f = tf.function(functools.partial(scaled, k=3.0))
    return [f(tf.constant(1.0)), f(tf.constant(2.0)), hasattr(f, "__name__"), f.__doc__ is None]


# =============================================================================================
# the gradient of a while loop inside a traced function (TF's while_v2)
# =============================================================================================
def _power_loop(tf, x, n=3, **options):
    """x ** n by a while loop (the counter a Python int, the product a float tensor)."""
    return tf.while_loop(
        lambda i, y: i < n, lambda i, y: (i + 1, y * x), (0, tf.ones_like(x)), **options
    )[1]


@case
def fn_while_loop_gradients_inside_a_function(tf):
    @tf.function
    def grads(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = _power_loop(tf, x)
        return y, tape.gradient(y, x)

    values = [grads(tf.constant(v)) for v in (2.0, 3.0, -1.5)]
    values.append(grads(tf.constant([1.0, 2.0])))
    return [values, grads.experimental_get_tracing_count()]


@case
def fn_while_loop_second_derivative_inside_a_function(tf):
    # [y, dy/dx, d2y/dx2(, d3y/dx3)] by nested tapes, all inside the function
    second = tf.function(lambda x: derivatives(tf, lambda v: _power_loop(tf, v), x))
    third = tf.function(lambda x: derivatives(tf, lambda v: _power_loop(tf, v, 4), x, order=3))
    return [second(tf.constant(v)) for v in (2.0, 3.0)] + [third(tf.constant(2.0))]


@case
def fn_while_loop_count_decided_by_the_input(tf):
    # the number of iterations depends on x: shrink until below 1, the gradient through each
    def shrink(x):
        return tf.while_loop(lambda y: y > 1.0, lambda y: (y * 0.5 + 0.1 * y * y,), (x,))[0]

    traced = tf.function(lambda x: derivatives(tf, shrink, x))
    return [traced(tf.constant(v)) for v in (0.5, 1.5, 3.0, 4.5)]


@case
def fn_two_while_loops_and_a_variable_inside_a_function(tf):
    v = tf.Variable(1.5)

    @tf.function
    def two(x):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            a = tf.while_loop(lambda i, y: i < 2, lambda i, y: (i + 1, y * x), (0, 1.0))[1]
            b = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * v + a * x), (0, a))[1]
        return b, tape.gradient(b, x), tape.gradient(b, v), tape.gradient(a, v)

    return [two(tf.constant(2.0)), two(tf.constant(0.5))]


@case
def fn_while_loop_back_prop_false_inside_a_function(tf):
    @tf.function
    def grads(x):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = _power_loop(tf, x, back_prop=False)
            z = y + x
        return y, tape.gradient(y, x), tape.gradient(z, x)

    x = tf.constant(2.0)
    with tf.GradientTape() as tape:  # eagerly, back_prop=False changes nothing
        tape.watch(x)
        y = _power_loop(tf, x, back_prop=False)
    return [grads(x), tape.gradient(y, x)]


@case
def fn_tape_around_a_function_with_a_while_loop(tf):
    @tf.function
    def power(x):
        return _power_loop(tf, x)

    @tf.function
    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = power(x)
        return tape.gradient(y, x)

    x = tf.constant(2.0)
    out = []
    for _ in range(2):  # traced, then replayed
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = power(x)
            dy = inner.gradient(y, x)
        out.append([y, dy, outer.gradient(dy, x)])
        with tf.GradientTape() as outer:
            outer.watch(x)
            g = grad(x)
        out.append([g, outer.gradient(g, x)])
    return out


@case
def fn_python_values_equal_across_types_share_a_trace(tf):
    # a Python argument is traced by equality: 1, 1.0 and True are one value (the trace made
    # with the first serves the others), 0 and False another
    printed = []

    @tf.function
    def f(x, k):
        printed.append(repr(k))
        return x * 2

    values = [f(tf.constant(1.0), k) for k in (1, 1.0, True, 0, False, 0.0, "1")]
    return [values, printed, f.experimental_get_tracing_count()]
