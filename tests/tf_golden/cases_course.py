"""Golden cases for what the course (notebooks/) says about TensorFlow beyond the nbNN_ cases of
cases.py: each function records one claim a notebook makes, under the notebook's number."""

import inspect
import weakref

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
def course_nb09_is_finite_and_the_exercise_3_gradients(tf):
    # 09 §3 and Exercise 3: is_finite is False for NaN, inf and -inf; d sqrt(a) / da at 0 is inf
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


# --- 10: control flow and the tape ---------------------------------------------------------
def _tent(tf, x):
    # 10: x² left of 1, 3 - 2x from 1 on (a Python `if` on a tensor, run eagerly)
    if x < 1.0:
        return x**2
    return 3.0 - 2.0 * x


def _scaled(tf, x, a, b):
    return a * x if x < 1.0 else b * x


def _tent_cond(tf, x):
    return tf.cond(x < 1.0, lambda: x**2, lambda: 3.0 - 2.0 * x)


def _scaled_cond(tf, x, a, b):
    return tf.cond(x < 1.0, lambda: a * x, lambda: b * x)


def _branch_gradients(tf, tent, scaled):
    """The tent's value and gradient left of, at and right of its corner; then which of two
    variables, each used by one branch only, gets a gradient on either side."""
    out = []
    for value in [0.5, 1.0, 2.0]:
        x = tf.Variable(value)
        with tf.GradientTape() as tape:
            y = tent(tf, x)
        out.append([y, tape.gradient(y, x)])
    a, b = tf.Variable(3.0), tf.Variable(5.0)
    for value in [0.5, 2.0]:
        x = tf.constant(value)
        with tf.GradientTape() as tape:
            y = scaled(tf, x, a, b)
        out.append(tape.gradient(y, [a, b]))
    return out


@case
def course_nb10_python_if_records_the_branch_that_ran(tf):
    # 10: the gradient is the taken branch's (at x = 1 exactly, `x < 1` is False: the right
    # branch's -2); a variable used only by the other branch gets None
    return _branch_gradients(tf, _tent, _scaled)


@case
def course_nb10_cond_records_the_branch_that_ran(tf):
    # 10: eagerly, tf.cond runs one branch, and only its ops reach the gradient
    return _branch_gradients(tf, _tent_cond, _scaled_cond)


@case
def course_nb10_halving_loop_gradient_ignores_the_trip_count(tf):
    # 10: halve x while x > 1 (a Python while and tf.while_loop): y = x / 2^n, and the tape
    # gives 1 / 2^n; across x = 4 the value jumps down, the gradient only halves
    def halve_python(x):
        while x > 1.0:
            x = x / 2.0
        return x

    def halve_while_loop(x):
        return tf.while_loop(lambda h: h > 1.0, lambda h: [h / 2.0], [x])[0]

    out = []
    for halve in (halve_python, halve_while_loop):
        for value in [1.5, 3.0, 3.9, 4.1, 10.0]:
            x = tf.constant(value)
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = halve(x)
            out.append([y, tape.gradient(y, x)])
    return out


@case
def course_nb10_function_python_argument_traces_per_value(tf):
    # 10: inside tf.function a Python `if` on a Python argument is decided while tracing;
    # each new value of the argument traces again
    @tf.function
    def tent(x, left):
        return x**2 if left else 3.0 - 2.0 * x

    out = []
    for value in [0.5, 2.0, 0.7]:
        x = tf.constant(value)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tent(x, value < 1.0)
        out.append([y, tape.gradient(y, x), tent.experimental_get_tracing_count()])
    return out


@case
def course_nb10_function_where_decides_on_every_call(tf):
    # 10: tf.where inside tf.function computes both sides and picks per call: one trace,
    # the right value and gradient at every call
    @tf.function
    def tent(x):
        return tf.where(x < 1.0, x**2, 3.0 - 2.0 * x)

    out = []
    for value in [0.5, 2.0, 0.7]:
        x = tf.constant(value)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tent(x)
        out.append([y, tape.gradient(y, x), tent.experimental_get_tracing_count()])
    return out


def _tent_if_function(tf):
    """10's tent with a Python `if` on a tensor, as a tf.function."""

    @tf.function
    def tent(x):
        if x < 1.0:
            return x**2
        return 3.0 - 2.0 * x

    return tent


def _value_and_gradient(tf, f, value):
    x = tf.constant(value)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return [y, tape.gradient(y, x)]


@case
def course_nb10_function_tensor_if_at_the_tracing_call(tf):
    # 10: a Python `if` on a tensor inside tf.function, at the call that traces: the branch
    # for that value (a new function for each value)
    return [_value_and_gradient(tf, _tent_if_function(tf), value) for value in [0.5, 2.0]]


@case
def course_nb10_function_tensor_if_on_a_later_call(tf):
    # 10: after tracing at 0.5, a call at 2.0: the `if` is decided again (3 - 2x: y = -1,
    # dy/dx = -2), with one trace (TF: autograph's graph op; minitape: the Python code again)
    tent = _tent_if_function(tf)
    return [
        _value_and_gradient(tf, tent, value) + [tent.experimental_get_tracing_count()]
        for value in [0.5, 2.0]
    ]


@case
def course_nb10_exercise_1_growing_loop(tf):
    # 10 Exercise 1: multiply by 1.5 while below 10, from 2: four steps, y = 10.125, dy/dx = 1.5⁴
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        (y,) = tf.while_loop(lambda h: h < 10.0, lambda h: (h * 1.5,), (x,))
    return [y, tape.gradient(y, x)]


@case
def course_nb10_exercise_2_branch_not_taken(tf):
    # 10 Exercise 2: eagerly, tf.cond runs one branch; a variable read only in the other gets None
    a, b = tf.Variable(3.0), tf.Variable(4.0)
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        y = tf.cond(x > 1.0, lambda: x * a, lambda: x * b)
    return tape.gradient(y, [a, b])


@case
def course_nb10_exercise_3_traces_of_a_flag(tf):
    # 10 Exercise 3: a Python flag is part of the signature: True, False, True, True trace twice
    @tf.function
    def tent_by_flag(x, left):
        return x**2 if left else 3.0 - 2.0 * x

    values = [tent_by_flag(tf.constant(0.5), left) for left in (True, False, True, True)]
    return [values, tent_by_flag.experimental_get_tracing_count()]


# --- 04 §6: recompute_grad ------------------------------------------------------------------
def _deep_stack(tf, depth, segment, width=8, batch=4):
    """A stack of `depth` layers tanh(h @ W), plain (segment None) or with recompute_grad around
    each block of `segment` layers: layer calls forward and backward, layer outputs alive after
    the forward, the most alive at any time during the step, the loss and the gradients."""
    rng = np.random.default_rng(0)
    ws = [
        tf.Variable((rng.standard_normal((width, width)) / np.sqrt(width)).astype(np.float32))
        for _ in range(depth)
    ]
    x = tf.constant(rng.standard_normal((batch, width)).astype(np.float32))
    calls, alive, peak = [0], [], [0]

    def layer(h, w):
        calls[0] += 1
        out = tf.tanh(h @ w)
        alive.append(weakref.ref(out))
        peak[0] = max(peak[0], sum(r() is not None for r in alive))
        return out

    def block(lo, hi):
        def run(h):
            for w in ws[lo:hi]:
                h = layer(h, w)
            return h

        return run

    if segment is None:
        blocks = [block(0, depth)]
    else:
        blocks = [tf.recompute_grad(block(i, i + segment)) for i in range(0, depth, segment)]
    with tf.GradientTape() as tape:
        h = x
        for b in blocks:
            h = b(h)
        loss = tf.reduce_mean(h**2)
    del h
    forward = calls[0]
    held = sum(r() is not None for r in alive)
    grads = tape.gradient(loss, ws)
    return [forward, calls[0] - forward, held, peak[0], loss, grads]


@case
def course_nb04_recompute_grad_deep_stack(tf):
    # 04 §6: 40 layers; recompute_grad around the whole stack, or around blocks of k layers,
    # gives the same gradients, calls every layer once more during the backward, holds fewer
    # layer outputs after the forward, and has its peak at 40/k + k
    plain = _deep_stack(tf, 40, None)
    out = [plain[:5]]
    for k in [40, 1, 2, 4, 5, 8, 10, 20]:
        run = _deep_stack(tf, 40, k)
        same = all(
            np.allclose(g.numpy(), p.numpy(), rtol=1e-6, atol=0.0) for g, p in zip(run[5], plain[5])
        )
        out.append([k, *run[:5], same])
    return out


@case
def course_nb04_exercise_4_best_segment(tf):
    # 04 Exercise 4: 36 layers, blocks of k: the peak of layer outputs alive, per k
    return [[k, _deep_stack(tf, 36, k)[3]] for k in [1, 2, 3, 4, 6, 9, 12, 18, 36]]


def _kept_alive(tf, f, binary):
    """Which of an op's input `a` and output `out` a tape keeps alive once the program drops
    them: `a` comes from a Mul (whose rule does not read its output) and `out` goes into a
    Neg (whose rule reads nothing), so only `f`'s own gradient rule can hold them."""
    import gc

    x = tf.constant([[0.3, 0.7], [0.2, 0.4]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        a = x * 2.0
        out = f(a, a * 3.0) if binary else f(a)
        end = tf.negative(out)
    refs = weakref.ref(a), weakref.ref(out)
    del a, out
    gc.collect()
    alive = [r() is not None for r in refs]
    first = tape.gradient(end, x)  # the gradient still works from what was kept
    return [alive, first]


_UNARY_KEEPS = {
    "exp": lambda tf: tf.exp,
    "sin": lambda tf: tf.sin,
    "cos": lambda tf: tf.cos,
    "tanh": lambda tf: tf.tanh,
    "sigmoid": lambda tf: tf.sigmoid,
    "relu": lambda tf: tf.nn.relu,
    "relu6": lambda tf: tf.nn.relu6,
    "elu": lambda tf: tf.nn.elu,
    "leaky_relu": lambda tf: tf.nn.leaky_relu,
    "softplus": lambda tf: tf.nn.softplus,
    "softmax": lambda tf: tf.nn.softmax,
    "square": lambda tf: tf.square,
    "sqrt": lambda tf: tf.sqrt,
    "log": lambda tf: tf.math.log,
    "abs": lambda tf: tf.abs,
    "negative": lambda tf: tf.negative,
    "identity": lambda tf: tf.identity,
    "reduce_sum": lambda tf: tf.reduce_sum,
    "reduce_mean": lambda tf: tf.reduce_mean,
    "reduce_max": lambda tf: tf.reduce_max,
    "reshape": lambda tf: lambda v: tf.reshape(v, [4]),
    "transpose": lambda tf: tf.transpose,
    "cast": lambda tf: lambda v: tf.cast(v, tf.float64),
    "slice": lambda tf: lambda v: v[0],
    "check_numerics": lambda tf: lambda v: tf.debugging.check_numerics(v, "m"),
}
_BINARY_KEEPS = {
    "add": lambda tf: tf.add,
    "subtract": lambda tf: tf.subtract,
    "multiply": lambda tf: tf.multiply,
    "divide": lambda tf: tf.divide,
    "pow": lambda tf: tf.pow,
    "maximum": lambda tf: tf.maximum,
    "matmul": lambda tf: tf.matmul,
    "concat": lambda tf: lambda p, q: tf.concat([p, q], 0),
    "stack": lambda tf: lambda p, q: tf.stack([p, q]),
}


@case
def course_nb04_a_tape_keeps_what_each_gradient_rule_reads(tf):
    # 04 §3: for each op, whether a tape keeps its input and its output alive after the program
    # drops them: only the tensors the op's gradient reads (Exp its output, Mul its inputs,
    # Sin its input, Transpose neither)
    return {
        **{k: _kept_alive(tf, f(tf), False) for k, f in _UNARY_KEEPS.items()},
        **{k: _kept_alive(tf, f(tf), True) for k, f in _BINARY_KEEPS.items()},
    }


@case
def course_nb04_exp_of_an_intermediate_frees_it(tf):
    # 04 §3 and Exercise 3: a = data * 2; b = exp(a): the tape keeps b (Exp's rule reads its
    # output) and frees a; the persistent tape still gives the gradient, 2·exp(2·data)
    import gc

    data = tf.constant([0.0, 0.5, 1.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(data)
        a = data * 2.0
        b = tf.exp(a)
    a_ref, b_ref = weakref.ref(a), weakref.ref(b)
    del a, b
    gc.collect()
    alive = [a_ref() is not None, b_ref() is not None]
    grad = tape.gradient(b_ref(), data)
    del tape
    gc.collect()
    return [alive, grad, b_ref() is not None]


@case
def course_nb06_persistent_inside_warns_once_per_calling_line(tf):
    # 06 §3: the warning about gradient() inside a persistent tape's block is logged the first
    # time for each line of the program that calls it, not once in all
    import logging

    seen = []

    class Heard(logging.Handler):
        def emit(self, record):
            seen.append("persistent tape inside its context" in record.getMessage())

    logger = logging.getLogger("tensorflow" if tf.__name__ == "tensorflow" else "minitape")
    heard, level = Heard(), logger.level
    logger.addHandler(heard)
    logger.setLevel(logging.WARNING)  # (the recorder may have quietened TF's logger)
    x = tf.constant(2.0)

    def inside():
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            return tape.gradient(x * x, x)

    try:
        counts = []
        for _ in range(3):
            inside()  # the same line three times
            counts.append(sum(seen))
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            tape.gradient(x * x, x)  # another line
        counts.append(sum(seen))
    finally:
        logger.removeHandler(heard)
        logger.setLevel(level)
    return counts


@case
def course_nb08_a_sequential_casts_its_input_to_its_first_layers_dtype(tf):
    # 08 §4: make_critic("float64") sets the dtype on its layers only (Keras 3's Sequential takes
    # no dtype); the model casts its input to its first layer's dtype, so float64 points stay
    # float64 all the way (a float32 cast would spoil the float64 finite differences)
    def model(dtype):
        return tf.keras.Sequential(
            [
                tf.keras.layers.Dense(2, activation="tanh", dtype=dtype, kernel_initializer="ones"),
                tf.keras.layers.Dense(1, dtype=dtype, kernel_initializer="ones"),
            ]
        )

    x = tf.constant([[0.1234567890123, 1e-9]], dtype=tf.float64)
    return [model("float64")(x), model("float32")(x)]


@case
def course_nb02_gradient_with_respect_to_the_prediction(tf):
    # 02 §3: an intermediate computed inside the block from watched variables is a source like
    # any other: dloss/dpred has pred's shape, 2 (pred - y) / n; an intermediate computed from
    # constants alone was never recorded (None)
    x = tf.constant([-1.0, 0.0, 0.5, 1.0])
    y = tf.constant([8.0, 10.0, 11.5, 12.0])
    w, b = tf.Variable(1.0), tf.Variable(1.0)
    mse = tf.keras.losses.MeanSquaredError()
    with tf.GradientTape() as tape:
        pred = w * x + b
        loss = mse(y, pred)
        unrecorded = tf.constant(2.0) * tf.constant(3.0)
        total = loss + unrecorded
    return tape.gradient(total, [pred, w, b, unrecorded, loss])


@case
def course_nb09_where_does_not_stop_a_nan_gradient(tf):
    # 09 §3 (and 10's caveat): tf.where(p > 0, log(p), 0) is finite but its gradient at 0
    # is nan (the zero sent to the branch not taken meets log's infinite slope); a second
    # where on the input fixes it
    p = tf.constant([0.0, 4.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(p)
        guarded = tf.where(p > 0, tf.math.log(p), 0.0)
        fixed = tf.where(p > 0, tf.math.log(tf.where(p > 0, p, 1.0)), 0.0)
    return [guarded, tape.gradient(guarded, p), fixed, tape.gradient(fixed, p)]


@case(message=True)
def course_nb05_second_derivative_of_softsign_is_a_lookup_error(tf):
    # 05 §3: the tower of tapes through tf.nn.softsign stops at the second derivative with
    # LookupError (its gradient op, SoftsignGrad, has no gradient); the same function written
    # with ops that have gradients, x / (1 + |x|), gives -2 / (1 + x)^3 at 0.5
    x = tf.constant(0.5)
    return [
        attempt(derivatives, tf, tf.nn.softsign, x),
        derivatives(tf, lambda t: t / (1 + tf.abs(t)), x)[2],
    ]


@case
def course_nb11_per_example_gradients_with_vectorized_map(tf):
    # 13 §4: a tape inside tf.vectorized_map gives one W-shaped gradient per example, stacked;
    # they add up to the batch's gradient
    x_batch = tf.constant([[1.0, -0.5, 2.0], [0.3, 0.8, -1.2]])
    W = tf.constant([[0.5, -0.2, 0.1, 0.0], [0.3, 0.4, -0.6, 0.2], [-0.1, 0.2, 0.3, -0.4]])
    b = tf.constant([0.1, -0.2, 0.0, 0.3])

    def example_gradient(x_row):
        with tf.GradientTape() as tape:
            tape.watch(W)
            loss_one = tf.reduce_sum(tf.tanh(x_row[None] @ W + b) ** 2)
        return tape.gradient(loss_one, W)

    per_example = tf.vectorized_map(example_gradient, x_batch)
    with tf.GradientTape() as tape:
        tape.watch(W)
        loss_batch = tf.reduce_sum(tf.tanh(x_batch @ W + b) ** 2)
    return [per_example, tape.gradient(loss_batch, W)]


@case
def course_nb07_keras_variables_are_not_tf_variables(tf):
    # 07 §5 (bug 3): in Keras 3 a layer's variable holds a tf.Variable (.value) but is not one;
    # tape.watch refuses it (ValueError), watching .value works, a tape watches it when it is
    # read, gradient() and optimizers take it, and watched_variables() lists the tf.Variable
    dense = tf.keras.layers.Dense(2, name="d", kernel_initializer="ones")
    x = tf.constant([[1.0, 2.0, 3.0]])
    dense(x)
    k = dense.kernel
    facts = [isinstance(k, tf.Variable), isinstance(k.value, tf.Variable), k.name, k.path]
    facts += [str(k.dtype), tuple(k.shape), repr(k).split(", value=")[0]]
    try:
        with tf.GradientTape() as tape:
            tape.watch(k)
        refused = None
    except ValueError as e:
        refused = "ValueError: ..." + str(e).split(" of type ")[1]
    with tf.GradientTape() as tape:
        tape.watch(k.value)
        y = tf.reduce_sum(dense(x))
    watched = [v.name for v in tape.watched_variables()]
    grads = tape.gradient(y, dense.trainable_variables)
    tf.keras.optimizers.SGD(0.5).apply_gradients(zip(grads, dense.trainable_variables))
    try:
        hash(k)
        hashable = True
    except TypeError:
        hashable = False
    return [facts, refused, watched, grads, k.numpy(), hashable, hasattr(k, "ref")]


@case(message=True)
def course_nb06_custom_gradient_that_reads_a_variable(tf):
    # 06 §5: a custom-gradient function that reads a trainable variable needs a grad_fn that
    # takes `variables` (TypeError when it runs otherwise) and returns (input grads, variable
    # grads)
    w = tf.Variable(3.0, name="w")
    x = tf.constant(2.0)

    @tf.custom_gradient
    def without(x):
        def grad(upstream):
            return upstream * w

        return w * x, grad

    @tf.custom_gradient
    def with_variables(x):
        def grad(upstream, variables=None):
            return upstream * w, [upstream * x]

        return w * x, grad

    with tf.GradientTape() as tape:
        tape.watch(x)
        y = with_variables(x)
    return [attempt(without, x), tape.gradient(y, [x, w])]


def _total_with_signature(tf, spec_shape):
    @tf.function(input_signature=[tf.TensorSpec(spec_shape, tf.float32)])
    def total(x):
        return tf.reduce_sum(x * 2.0)

    return total


@case(message=True)
def course_nb10_input_signature_fixes_the_trace(tf):
    # 09 §4: with input_signature, one trace serves every call that fits it; a tensor of another
    # shape or dtype is refused (TypeError, 'Can not cast TensorSpec(...)') instead of retraced
    total = _total_with_signature(tf, [3])
    values = [total(tf.constant([1.0, 2.0, 3.0])), total(tf.constant([4.0, 5.0, 6.0]))]
    refusals = []
    for bad in (tf.constant([1.0, 2.0]), tf.constant([1, 2, 3])):
        try:
            total(bad)
        except TypeError as error:
            refusals.append(str(error).split(" Received args")[0])
    return [values, total.experimental_get_tracing_count(), refusals]


@case
def course_nb10_function_traces_once_per_length(tf):
    # without reduce_retracing, each new length traces again, and the Python print runs each time
    printed = []

    @tf.function
    def total(x):
        printed.append(tuple(x.shape))
        return tf.reduce_sum(x * 2.0)

    values = [total(tf.ones([n])) for n in (2, 3, 4, 5)]
    return [values, total.experimental_get_tracing_count(), len(printed)]


@case
def function_reduce_retracing_relaxes_the_shape(tf):
    # reduce_retracing=True: the second length traces once more with the dimension unknown (the
    # Python code sees shape (None,)), and that graph serves every later length
    printed = []

    @tf.function(reduce_retracing=True)
    def total(x):
        printed.append(str(tuple(x.shape)))
        return tf.reduce_sum(x * 2.0)

    values = [total(tf.ones([n])) for n in (2, 3, 4, 5, 6)]
    return [values, total.experimental_get_tracing_count(), printed]


@case
def function_input_signature_with_a_none_dimension_traces(tf):
    # a [None] dimension lets calls of every length through: TF traces once
    total = _total_with_signature(tf, [None])
    values = [total(tf.ones([n])) for n in (2, 3, 4)]
    return [values, total.experimental_get_tracing_count()]
