"""Golden cases for control flow inside tf.function (AutoGraph): an `if`, `while` or `for` on
a tensor becomes a graph cond or while loop, decided on every call; its outputs are tensors,
the Python of both branches runs once (at tracing), and a gradient inside the function gives
zeros (not None) for what the branch or iterations that did not run would have used. Also
tf.cond / tf.while_loop in a graph, tf.autograph.to_code, and tf.Module.name_scope."""

import numpy as np

from .cases import attempt, case


def _kinds(values):
    """Whether each value is a tensor (what a graph returns) or a Python number."""
    return [type(v).__name__ in ("EagerTensor", "Tensor") for v in values]


@case
def autograph_if_returns_a_tensor_from_both_branches(tf):
    # `return 0.0` in one branch: a tensor all the same; one trace decides on every call
    @tf.function
    def relu(x):
        if x > 0:
            return x
        else:
            return 0.0

    out = [relu(tf.constant(2.0)), relu(tf.constant(-1.0))]
    return [out, _kinds(out), relu.experimental_get_tracing_count()]


@case
def autograph_side_effects_of_both_branches_at_tracing_only(tf):
    log = []

    @tf.function
    def f(x):
        if x > 0:
            log.append("then")
            y = x * 2.0
        else:
            log.append("else")
            y = -x
        return y

    out = [f(tf.constant(v)) for v in (2.0, -3.0, 5.0)]
    return [out, log, f.experimental_get_tracing_count()]


@case
def autograph_while_body_traced_once(tf):
    log = []

    @tf.function
    def double_until(x, limit):
        while x < limit:
            log.append("body")
            x = x * 2.0
        return x

    out = [double_until(tf.constant(1.0), tf.constant(v)) for v in (10.0, 100.0, 0.5)]
    return [out, log, double_until.experimental_get_tracing_count()]


@case
def autograph_gradient_inside_of_the_untaken_branch_is_zero(tf):
    # eagerly the tensor the other branch uses has no gradient (None); in the graph it is 0
    @tf.function
    def f(x, a):
        with tf.GradientTape() as tape:
            tape.watch([x, a])
            if x > 0:
                y = x * 2.0
            else:
                y = a * 3.0
        return y, tape.gradient(y, [x, a])

    def eager(x, a):
        with tf.GradientTape() as tape:
            tape.watch([x, a])
            y = x * 2.0 if x > 0 else a * 3.0
        return y, tape.gradient(y, [x, a])

    one = tf.constant(1.0)
    return [
        f(tf.constant(2.0), one),
        f(tf.constant(-2.0), one),
        f.experimental_get_tracing_count(),
        eager(tf.constant(2.0), one),
    ]


@case
def autograph_variable_read_only_in_the_untaken_branch(tf):
    w = tf.Variable(3.0)

    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            if x > 0:
                y = x * 2.0
            else:
                y = w * 3.0
        return y, tape.gradient(y, w)

    return [f(tf.constant(2.0)), f(tf.constant(-2.0))]


@case
def function_tf_cond_gradient_of_the_untaken_branch(tf):
    # tf.cond itself: in a function the untaken branch's tensor gets 0, eagerly None
    def step(x, a):
        with tf.GradientTape() as tape:
            tape.watch([x, a])
            y = tf.cond(x > 0, lambda: x * 2.0, lambda: a * 3.0)
        return y, tape.gradient(y, [x, a])

    x, a = tf.constant(2.0), tf.constant(1.0)
    return [tf.function(step)(x, a), step(x, a)]


@case
def autograph_while_zero_iterations_gradient(tf):
    @tf.function
    def power(x, a, n):
        with tf.GradientTape() as tape:
            tape.watch([x, a])
            y = x
            i = 0
            while i < n:
                y = y * a
                i += 1
        return y, tape.gradient(y, [x, a])

    x, a = tf.constant(2.0), tf.constant(3.0)
    return [power(x, a, tf.constant(0)), power(x, a, tf.constant(2))]


@case
def autograph_tape_around_the_call_untaken_branch(tf):
    # a tape around the call records the cond as TF's graph does: zero for the other branch
    @tf.function
    def f(x, a):
        if x > 0:
            return x * 2.0
        return a * 3.0

    out = []
    for value in (2.0, -2.0):
        x, a = tf.constant(value), tf.constant(1.0)
        with tf.GradientTape() as tape:
            tape.watch([x, a])
            y = f(x, a)
        out.append([y, tape.gradient(y, [x, a])])
    return [out, f.experimental_get_tracing_count()]


@case
def while_loop_one_element_list_body_returns_a_bare_tensor(tf):
    # eagerly the bare tensor is iterated over (a scalar: TypeError); in a graph it is packed
    # into the loop variables' list
    def body(v):
        return v * 2.0

    def loop(x):
        return tf.while_loop(lambda v: v < 10.0, body, [x])

    return [attempt(loop, tf.constant(1.0)), attempt(tf.function(loop), tf.constant(1.0))]


@case
def autograph_for_over_tf_range_a_list_and_a_tensor(tf):
    @tf.function
    def over_range(x, n):
        s = x
        for i in tf.range(n):
            s = s + tf.cast(i, tf.float32)
        return s

    @tf.function
    def over_list(x):
        for k in [1.0, 2.0, 3.0]:
            x = x * k
        return x

    @tf.function
    def over_tensor(x):
        s = 0.0
        for v in x:
            s = s + v
        return s

    one = tf.constant(1.0)
    return [
        [over_range(one, tf.constant(4)), over_range(one, tf.constant(0))],
        over_range.experimental_get_tracing_count(),
        over_list(tf.constant(1.0)),
        [over_tensor(tf.constant([1.0, 2.0, 3.0])), over_tensor(tf.constant([4.0, 5.0, 6.0]))],
        over_tensor.experimental_get_tracing_count(),
    ]


@case
def autograph_if_on_a_python_value_stays_python(tf):
    log = []

    @tf.function
    def f(x, flag):
        if flag:
            log.append("then")
            return x
        else:
            log.append("else")
            return -x

    @tf.function
    def g(x, n):
        if n > 1:
            return 1
        return x

    out = [f(tf.constant(1.0), True), f(tf.constant(2.0), True)]
    return [out, log, [g(tf.constant(1.0), 2), g(tf.constant(1.0), 0)]]


@case
def autograph_errors_when_the_branches_disagree(tf):
    @tf.function
    def only_then(x):
        if x > 0:
            y = x * 2.0
        return y

    @tf.function
    def only_then_unused(x):
        if x > 0:
            y = x * 2.0
            z = y + 1.0  # noqa: F841
        return x

    @tf.function
    def returns_in_one_branch(x):
        if x > 0:
            return x

    @tf.function
    def dtypes_differ(x):
        if x > 0:
            y = x
        else:
            y = 1
        return y

    one = tf.constant(1.0)
    return [
        attempt(only_then, one),
        only_then_unused(one),
        attempt(returns_in_one_branch, one),
        attempt(dtypes_differ, one),
    ]


@case
def autograph_break_and_continue_in_tensor_loops(tf):
    @tf.function
    def with_break(n):
        s = 0
        for i in tf.range(n):
            if i > 2:
                break
            s += i
        return s

    @tf.function
    def with_continue(n):
        s = 0
        i = 0
        while i < n:
            i += 1
            if i % 2 == 0:
                continue
            s += i
        return s

    return [
        [with_break(tf.constant(10)), with_break(tf.constant(2))],
        [with_continue(tf.constant(5)), with_continue(tf.constant(6))],
        [
            with_break.experimental_get_tracing_count(),
            with_continue.experimental_get_tracing_count(),
        ],
    ]


@case
def autograph_return_inside_a_tensor_loop(tf):
    @tf.function
    def first_above_two(n):
        for i in tf.range(n):
            if i > 2:
                return i
        return -1

    return [attempt(first_above_two, tf.constant(10)), attempt(first_above_two, tf.constant(1))]


@case
def autograph_loop_variable_first_assigned_in_the_loop(tf):
    @tf.function
    def last_double(n):
        i = 0
        while i < n:
            t = i * 2
            i += 1
        return t

    return attempt(last_double, tf.constant(3))


@case
def function_autograph_false_tensor_if(tf):
    # without AutoGraph a Python `if` on a traced tensor is TF's OperatorNotAllowedInGraphError
    def absolute(x):
        if x > 0:
            return x
        return -x

    f = tf.function(absolute, autograph=False)
    return [attempt(f, tf.constant(2.0)), attempt(f, tf.constant(-3.0))]


@case
def function_tf_cond_python_bool_predicate(tf):
    # eagerly any truth value will do; in a graph a Python bool is refused
    def pick(x):
        return tf.cond(True, lambda: x, lambda: -x)

    return [attempt(pick, tf.constant(1.0)), attempt(tf.function(pick), tf.constant(1.0))]


@case
def function_tf_cond_traces_both_branches(tf):
    log = []

    @tf.function
    def f(x):
        return tf.cond(x > 0, lambda: (log.append(1), x)[1], lambda: (log.append(2), -x)[1])

    return [f(tf.constant(1.0)), f(tf.constant(-4.0)), log]


@case
def autograph_to_code_shows_the_operators(tf):
    def step(x, n):
        if x > 0:
            y = x * 2.0
        else:
            y = -x
        while y < n:
            y = y * 2.0
        for _ in tf.range(n):
            y = y + 1.0
        return y

    code = tf.autograph.to_code(step)
    return [
        isinstance(code, str),
        [
            word in code
            for word in ("ag__.if_stmt(", "ag__.while_stmt(", "ag__.for_stmt(", "def get_state")
        ],
    ]


@case
def module_name_scope(tf):
    class Dense(tf.Module):
        pass

    m = tf.Module(name="my_mod")
    with m.name_scope as entered:
        inside = entered
    return [m.name_scope.name, inside, Dense().name_scope.name, Dense(name="x").name_scope.name]


@case(message=True)
def name_scopes_prefix_variable_names(tf):
    # tf.name_scope and a module's scope (taken where the module is made) as TF runs them eagerly
    names = []
    with tf.name_scope("outer") as outer:
        names.append(outer)
        names.append(tf.Variable(1.0).name)
        with tf.name_scope("inner") as inner:
            names += [inner, tf.Variable(1.0, name="v").name]
        with tf.name_scope("top/") as top:
            names += [top, tf.Variable(1.0, name="w").name]
        with tf.name_scope("") as root:
            names += [root, tf.Variable(1.0, name="r").name]
        made_inside = tf.Module(name="m")
    plain = tf.Module(name="p")
    with plain.name_scope as scope:
        names += [scope, tf.Variable(2.0, name="k").name]
    with made_inside.name_scope as scope:
        names += [scope, tf.Variable(2.0).name, made_inside.name_scope.name]
    names += [tf.Variable(3.0, name="after").name, tf.name_scope("x").name]
    return names + [attempt(tf.name_scope, None), attempt(tf.name_scope, 3)]


@case
def module_submodules_of_a_cycle_and_unsortable_keys(tf):
    class M(tf.Module):
        pass

    a, b, c = M(name="a"), M(name="b"), M(name="c")
    a.b, b.c, c.a = b, c, a
    a.me = a
    d = M(name="d")
    d.x = [d, b]
    e = M(name="e")
    e.vars = {1: tf.Variable(1.0), "a": tf.Variable(2.0)}
    return [
        [m.name for m in a.submodules],
        [m.name for m in b.submodules],
        [m.name for m in d.submodules],
        type(attempt(lambda: e.trainable_variables)).__name__,
    ]


@case
def autograph_training_step_with_an_if_inside_the_tape(tf):
    # a step whose loss goes through an `if` on a tensor: the gradient is graph control flow
    # too, so the step is traced once and its Python runs only then
    w = tf.Variable(2.0)
    opt = tf.keras.optimizers.SGD(0.1)
    log = []

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            loss = (w * x - 1.0) ** 2
            if loss > 1.0:
                log.append("big loss")
                loss = tf.sqrt(loss)
        grads = tape.gradient(loss, [w])
        opt.apply_gradients(zip(grads, [w]))
        return loss

    losses = [step(tf.constant(v)) for v in (2.0, 0.5, 1.5, 0.2)]
    return [losses, w, log, step.experimental_get_tracing_count()]


@case
def autograph_gradient_inside_through_nested_ifs_and_a_loop(tf):
    # nested ifs and a while loop inside the tape: values and zeros as TF, and how often the
    # Python of the branches runs
    log = []

    @tf.function
    def f(x, n):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x
            if x > 0:
                if x > 10:
                    log.append("big")
                    y = y * 3.0
                else:
                    y = y * 2.0
            i = 0
            while i < n:
                log.append("body")
                y = y * x
                i += 1
        return y, tape.gradient(y, x)

    out = [f(tf.constant(v), tf.constant(n)) for v, n in ((20.0, 1), (2.0, 2), (-1.0, 0))]
    return [out, log, f.experimental_get_tracing_count()]


@case
def autograph_branches_and_loops_that_assign_variables(tf):
    # an `if` whose branches only assign, and a `while` on a variable its body assigns (no
    # loop variables at all): both decided on every call, the variable read anew each time
    counter = tf.Variable(0.0)
    level = tf.Variable(0.0)

    @tf.function
    def count(x):
        if x > 0:
            counter.assign_add(1.0)
        else:
            counter.assign_sub(1.0)
        return counter.read_value()

    @tf.function
    def fill(limit):
        while level < limit:
            level.assign_add(1.0)
        return level.read_value()

    counts = [count(tf.constant(v)) for v in (1.0, 1.0, -1.0)]
    fills = [fill(tf.constant(v)) for v in (3.0, 5.0, 2.0)]
    return [
        counts,
        fills,
        [counter, level],
        [count.experimental_get_tracing_count(), fill.experimental_get_tracing_count()],
    ]


@case
def autograph_method_with_a_python_flag_and_a_tensor_if(tf):
    class Scale(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(2.0)

        @tf.function
        def __call__(self, x, training=False):
            if training:
                x = x * 0.5
            if tf.reduce_sum(x) > 0:
                y = x * self.w
            else:
                y = -x
            return y

    m = Scale()
    out = [m(tf.constant(3.0)), m(tf.constant(-3.0)), m(tf.constant(3.0), training=True)]
    return [out, m.__call__.experimental_get_tracing_count()]


@case
def autograph_random_draws_in_the_branches(tf):
    # each branch's random op keeps its own stream across calls (with and without op seeds)
    out = []
    for seeds in ((3, 4), (None, None)):
        tf.random.set_seed(5)

        @tf.function
        def f(x):
            if x > 0:
                y = x + tf.random.uniform((), seed=seeds[0])  # noqa: B023
            else:
                y = x - tf.random.uniform((), seed=seeds[1])  # noqa: B023
            return y

        out.append([f(tf.constant(v)) for v in (1.0, 1.0, -1.0, 1.0, -1.0)])
    return out


@case
def autograph_gradient_inside_through_an_elif_chain(tf):
    # if / elif / else (nested conds) inside the tape: each call's own branch, zeros for the
    # others, and the Python of every branch once, at tracing
    log = []

    @tf.function
    def piecewise(x, a):
        with tf.GradientTape() as tape:
            tape.watch([x, a])
            if x < 0:
                log.append("negative")
                y = -x * a
            elif x < 1:
                log.append("middle")
                y = x * x
            else:
                log.append("large")
                y = a * 3.0
        return y, tape.gradient(y, [x, a])

    a = tf.constant(2.0)
    out = [piecewise(tf.constant(v), a) for v in (-2.0, 0.5, 3.0, 0.25)]
    return [out, log, piecewise.experimental_get_tracing_count()]


@case
def autograph_the_branch_or_body_that_would_fail_does_not_run(tf):
    # TF traces symbolically: the branch not taken (indexing past the end) and the body of a
    # loop over an empty range never run, even at the first call
    @tf.function
    def pick(x, i):
        if i < 3:
            y = x[i]
        else:
            y = x[0] * 0.0
        return y

    @tf.function
    def total(x, n):
        s = x
        for i in tf.range(n):
            s = s + tf.cast(i, tf.float32)
        return s

    x = tf.constant([1.0, 2.0, 3.0])
    return [
        [pick(x, tf.constant(5)), pick(x, tf.constant(1)), pick.experimental_get_tracing_count()],
        [total(tf.constant(1.0), tf.constant(0)), total(tf.constant(1.0), tf.constant(4))],
    ]


@case
def autograph_gradient_inside_through_a_loop_over_a_tensor(tf):
    # a small recurrent cell over the rows of its input, inside the tape: the gradient with
    # respect to the weight and to every input row, for sequences of several lengths
    w = tf.Variable(1.5)

    @tf.function
    def rnn(xs):
        with tf.GradientTape() as tape:
            tape.watch(xs)
            h = tf.constant(0.0)
            for x in xs:
                h = tf.tanh(w * h + x)
            loss = h * h
        return loss, tape.gradient(loss, [w, xs])

    out = [rnn(tf.constant(v)) for v in ([0.5, -1.0, 2.0], [1.0, 0.3, 0.2], [0.7], [])]
    return [out, rnn.experimental_get_tracing_count()]


def _clip_if_large(tf, x, log):
    """A helper a traced function calls: TF's AutoGraph converts it too."""
    if x > 1.0:
        log.append("clipped")
        x = tf.sqrt(x)
    return x


@case
def autograph_converts_the_functions_a_traced_function_calls(tf):
    log = []

    @tf.function
    def f(x):
        return _clip_if_large(tf, x * 2.0, log)

    out = [f(tf.constant(v)) for v in (2.0, 0.25, 8.0)]
    return [out, log, f.experimental_get_tracing_count()]


@case
def autograph_a_tensor_made_in_a_branch_used_outside_it(tf):
    # kept in a Python list by the branch, it exists only in that branch's graph
    @tf.function
    def f(x):
        outs = []
        if x > 0:
            outs.append(x * 2.0)
        else:
            outs.append(-x)
        return outs[0]

    return attempt(f, tf.constant(1.0))


@case
def autograph_converts_float_int_and_range_on_tensors(tf):
    # inside tf.function, AutoGraph makes float(x) and int(x) casts (tensors, computed on every
    # call by the graph: the Python body runs once) and range(n) of a tensor a tf.range
    runs = []

    @tf.function
    def step(x):
        runs.append(1)
        loss = tf.reduce_sum(x * x)
        return float(loss), int(loss), float(x), float(3) + int("7") + sum(range(3))

    @tf.function
    def total(a, b):
        s = tf.constant(0)
        for i in range(a, b):
            s += i
        return s

    @tf.function
    def count_up(x, n):
        for _ in range(n):
            x += 1.0
        return x

    out = [step(tf.constant([1.0, 2.0, 3.0])), step(tf.constant([2.0, 3.0, 4.0]))]
    out += [len(runs), step.experimental_get_tracing_count()]
    out += [total(tf.constant(2), tf.constant(5)), total(tf.constant(5), tf.constant(2))]
    return out + [count_up(tf.constant(1.0), tf.constant(3.0))]


@case(message=True)
def autograph_to_code_refusals(tf):
    # what to_code refuses, and how: objects without code (a tf.function included: TF asks for
    # its python_function), and Python that AutoGraph does not convert
    import functools

    def plain(x):
        return x

    def gen(x):
        yield x

    def while_else(x):
        while x < 3:
            x = x + 1
        else:
            x = x * 2
        return x

    def for_else(x):
        for _ in range(3):
            x = x + 1
        else:
            x = x * 2
        return x

    class Callable:
        def __call__(self, x):
            return x

    out = [str(attempt(tf.autograph.to_code, e)) for e in (None, 3, "abc", len)]
    for e in (functools.partial(plain, 1), Callable(), tf.function(plain), np.sum):
        out.append(type(attempt(tf.autograph.to_code, e)).__name__)  # (their reprs hold addresses)
    for fn in (gen, while_else, for_else):
        e = attempt(tf.autograph.to_code, fn)
        out += [isinstance(e, NotImplementedError), str(e)]
    return out


@case
def autograph_converts_wrappers_and_functions_defined_inside(tf):
    # a functools.wraps wrapper is converted as its own code, and a function defined inside a
    # converted one is converted with it: its `if` on a tensor is a graph cond (one trace)
    import functools

    def deco(f):
        @functools.wraps(f)
        def wrapper(*args):
            return f(*args)

        return wrapper

    @deco
    def sign(x):
        if x > 0:
            x = x * 2.0
        else:
            x = -x
        return x

    def outer(x):
        def inner(y):
            if y > 0:
                y = y * 2.0
            else:
                y = -y
            return y

        return inner(x)

    runs = []

    @tf.function
    def f(x):
        runs.append(1)
        return outer(x) + sign(x)

    code = tf.autograph.to_code(outer)
    wrapper_code = tf.autograph.to_code(sign)
    return [
        f(tf.constant(1.0)),
        f(tf.constant(-3.0)),
        len(runs),
        f.experimental_get_tracing_count(),
        code.count("if_stmt("),
        "def tf__wrapper" in wrapper_code,
    ]


@case
def autograph_to_code_of_a_lambda(tf):
    code = attempt(tf.autograph.to_code, lambda x: x * 2.0)
    return [type(code).__name__]
