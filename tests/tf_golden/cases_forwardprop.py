"""Golden cases for forward mode: tf.autodiff.ForwardAccumulator, alone, nested, and with tapes
(forward over reverse, reverse over forward), as TF 2.21 computes it eagerly."""

import numpy as np

from .cases import attempt, case


def _acc(tf, x, t, f):
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        y = f(x)
    return [y, acc.jvp(y)]


@case
def fwd_basic(tf):
    x = tf.constant([1.0, 2.0])
    t = tf.constant([0.5, -1.0])
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        y = tf.sin(x) * x
    return [y, acc.jvp(y), acc.jvp(x), acc.jvp(tf.constant(1.0))]


@case
def fwd_unconnected(tf):
    x = tf.constant([1.0, 2.0])
    t = tf.constant([0.5, -1.0])
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        y = tf.constant([3.0]) * 2
    return [
        acc.jvp(y),
        acc.jvp(y, unconnected_gradients="zero"),
        acc.jvp([y, x], unconnected_gradients=tf.UnconnectedGradients.ZERO),
        attempt(acc.jvp, y, unconnected_gradients="bad"),
    ]


@case
def fwd_before_and_after(tf):
    x = tf.constant([1.0, 2.0])
    t = tf.constant([0.5, -1.0])
    before = x * 2
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        z = before * 3
        inside = x * 2
        j_inside = acc.jvp(inside)
    after = inside * 3
    return [acc.jvp(before), acc.jvp(z), j_inside, acc.jvp(inside), acc.jvp(after)]


@case(message=True)
def fwd_primal_twice(tf):
    x = tf.constant([1.0, 2.0])
    t = tf.constant([0.5, -1.0])
    return [
        attempt(tf.autodiff.ForwardAccumulator, [x, x], [t, t]),
        attempt(tf.autodiff.ForwardAccumulator, [x, x], [t]),
    ]


@case(message=True)
def fwd_tangent_dtype_mismatch(tf):
    x = tf.constant([1.0, 2.0])
    return tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 2.0], tf.float64))


@case
def fwd_argument_errors(tf):
    x = tf.constant([1.0, 2.0])
    t = tf.constant([0.5, -1.0])
    acc = tf.autodiff.ForwardAccumulator(x, t)
    return [
        attempt(tf.autodiff.ForwardAccumulator, x, [1.0, 2.0]),
        attempt(tf.autodiff.ForwardAccumulator, [1.0, 2.0], [1.0, 2.0]),
        attempt(acc.jvp, 3.0),
        attempt(acc.jvp, None),
    ]


@case(message=True)
def fwd_reenter(tf):
    x = tf.constant([1.0, 2.0])
    acc = tf.autodiff.ForwardAccumulator(x, tf.constant([0.5, -1.0]))
    with acc:
        with acc:
            pass


@case
def fwd_python_tangent_is_converted(tf):
    x = tf.constant([1.0, 2.0])
    with tf.autodiff.ForwardAccumulator([x], [[1.0, 0.0]]) as acc:
        y = x * x
    return acc.jvp(y)


@case
def fwd_nest_of_primals(tf):
    x = tf.constant([1.0, 2.0])
    s = tf.constant(3.0)
    with tf.autodiff.ForwardAccumulator(
        {"a": x, "b": s}, {"a": tf.constant([1.0, 1.0]), "b": tf.constant(2.0)}
    ) as acc:
        y = x * s
        z = s * s
    return acc.jvp({"y": y, "zs": [z, s]})


@case
def fwd_variable_primal(tf):
    v = tf.Variable([1.0, 2.0])
    t = tf.constant([0.5, -1.0])
    with tf.autodiff.ForwardAccumulator(v, t) as acc:
        y = v * v
        r = v.read_value()
    return [acc.jvp(y), acc.jvp(v), acc.jvp(r)]


@case
def fwd_variable_assigned_inside(tf):
    x = tf.constant([1.0, 2.0])
    v = tf.Variable([1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([0.5, -1.0])) as acc:
        v.assign(x * 2)
        y = v * x
    return [acc.jvp(v), acc.jvp(y)]


@case
def fwd_nested_accumulators(tf):
    x = tf.constant([1.0, 2.0])
    t = tf.constant([0.5, -1.0])
    with tf.autodiff.ForwardAccumulator(x, t) as outer:
        with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 0.0])) as inner:
            y = x**3
        j = inner.jvp(y)
    return [y, j, outer.jvp(y), outer.jvp(j), inner.jvp(j)]


@case
def fwd_nested_accumulators_different_primals(tf):
    x = tf.constant(1.5)
    w = tf.constant(-0.5)
    with tf.autodiff.ForwardAccumulator(w, tf.constant(1.0)) as outer:
        with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as inner:
            y = tf.sin(x * w) + x * x * w
        dy_dx = inner.jvp(y)
    return [dy_dx, outer.jvp(dy_dx), outer.jvp(y), inner.jvp(w * 2)]


@case
def fwd_over_reverse_hvp(tf):
    x = tf.constant([1.0, 2.0])
    t = tf.constant([0.5, -1.0])
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(x**3)
        g = tape.gradient(y, x)
    return [g, acc.jvp(g), acc.jvp(y)]


@case
def fwd_over_reverse_hvp_mlp(tf):
    x = tf.constant([[0.3, -0.2]])
    w = tf.constant([[0.5, -1.0, 0.2], [1.5, 0.3, -0.7]])
    tw = tf.constant([[1.0, 0.0, -1.0], [0.5, 0.5, 0.5]])
    with tf.autodiff.ForwardAccumulator(w, tw) as acc:
        with tf.GradientTape() as tape:
            tape.watch(w)
            loss = tf.reduce_sum(tf.tanh(x @ w) ** 2) + tf.reduce_mean(tf.nn.relu(x @ w - 0.1))
        g = tape.gradient(loss, w)
    return [loss, g, acc.jvp(g)]


@case
def fwd_reverse_over_forward(tf):
    x = tf.constant([1.0, 2.0])
    t = tf.constant([0.5, -1.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, t])
        with tf.autodiff.ForwardAccumulator(x, t) as acc:
            y = tf.reduce_sum(x**3)
        j = acc.jvp(y)
    return [j, tape.gradient(j, x), tape.gradient(j, t)]


@case
def fwd_tape_inside(tf):
    x = tf.constant([1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([0.5, -1.0])) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
        g = tape.gradient(y, x)
    return [acc.jvp(y), acc.jvp(g)]


@case
def fwd_ops_matrix(tf):
    m = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    tm = tf.constant([[0.1, 0.2], [0.3, 0.4]])
    with tf.autodiff.ForwardAccumulator(m, tm) as acc:
        outs = [
            tf.matmul(m, m),
            tf.reduce_sum(m, 0),
            tf.reduce_max(m),
            tf.transpose(m),
            tf.reshape(m, [4]),
            m[0],
            tf.concat([m, m], 1),
            tf.stack([m, m]),
            tf.tanh(m),
            tf.nn.relu(m - 2),
            tf.where(m > 2, m, 0.0),
            tf.cast(m, tf.float64),
            tf.sqrt(m),
            tf.math.log(m),
            tf.abs(-m),
            tf.reduce_mean(m),
            tf.maximum(m, 2.5),
            tf.nn.sigmoid(m),
            tf.exp(m),
            tf.clip_by_value(m, 1.5, 3.5),
        ]
    return [acc.jvp(o) for o in outs]


@case
def fwd_ops_elementwise(tf):
    x = tf.constant([0.5, 1.5, -0.7])
    t = tf.constant([1.0, -2.0, 0.5])
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        outs = [
            x / (x * x + 1),
            x**3,
            2.0**x,
            tf.cos(x),
            tf.square(x),
            tf.math.log1p(x * x),
            tf.nn.elu(x),
            tf.nn.softplus(x),
            tf.sign(x),
            -x,
            tf.minimum(x, 0.2),
            tf.reduce_min(x),
            tf.math.divide_no_nan(x, tf.constant([1.0, 0.0, 2.0])),
            tf.math.floormod(x, 0.4),
            tf.expand_dims(x, 0),
            tf.squeeze(x[None]),
            tf.broadcast_to(x, [2, 3]),
            tf.identity(x),
            tf.norm(x),
        ]
    return [acc.jvp(o) for o in outs]


@case
def fwd_no_tangent_ops(tf):
    x = tf.constant([1.2, -0.4])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([0.5, -1.0])) as acc:
        outs = [
            tf.cast(x, tf.int32),
            tf.round(x),
            tf.floor(x),
            x > 0,
            tf.argmax(x),
            tf.stop_gradient(x) * x,
            tf.math.floordiv(x, 0.5),
        ]
    return [acc.jvp(o) for o in outs]


@case
def fwd_custom_gradient_uses_forward_ops(tf):
    x = tf.constant([1.0, 2.0])

    @tf.custom_gradient
    def f(a):
        return a * a, lambda g: g * 10.0

    return _acc(tf, x, tf.constant([0.5, -1.0]), f)


@case
def fwd_recompute_grad_not_supported(tf):
    x = tf.constant([1.0, 2.0])
    acc = tf.autodiff.ForwardAccumulator(x, tf.constant([0.5, -1.0]))
    with acc:
        y = attempt(tf.recompute_grad(lambda a: a * a), x)
        z = tf.recompute_grad(lambda a: a * a)(tf.constant(3.0))
    return [y, z, acc.jvp(z)]


@case
def fwd_control_flow(tf):
    x = tf.constant([1.0, 2.0])
    t = tf.constant([0.5, -1.0])
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        y = tf.cond(x[0] > 0, lambda: x * 2, lambda: x)
        z = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * x), [0, tf.ones([2])])
        s = tf.scan(lambda a, e: a * e, x)
        m = tf.map_fn(lambda e: e**2, x)
    return [acc.jvp(y), acc.jvp(z[1]), acc.jvp(s), acc.jvp(m)]


@case
def fwd_function_inside(tf):
    @tf.function
    def f(a):
        return tf.sin(a) * a

    x = tf.constant([1.0, 2.0])
    f(x)  # (traced outside the accumulator)
    with tf.autodiff.ForwardAccumulator(x, tf.constant([0.5, -1.0])) as acc:
        y = f(x)
    return [y, acc.jvp(y)]


@case
def fwd_float64_and_scalar(tf):
    x = tf.constant(0.7, tf.float64)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(2.0, tf.float64)) as acc:
        y = tf.exp(tf.sin(x)) * x
    return [y, acc.jvp(y)]


@case
def fwd_watch_sums_tangents(tf):
    x = tf.constant([1.0, 2.0])
    acc = tf.autodiff.ForwardAccumulator(x, tf.constant([0.5, -1.0]))
    acc._watch(x, tf.constant([1.0, 1.0]))
    with acc:
        y = x * 3
    return acc.jvp(y)


@case
def fwd_jvp_equals_jacobian_times_tangent(tf):
    x = tf.constant([0.3, -1.2, 0.8])
    t = tf.constant([1.0, 2.0, -0.5])
    a = tf.constant(np.arange(9.0).reshape(3, 3) / 10, tf.float32)

    def f(v):
        return tf.tanh(tf.matmul(a, v[:, None]))[:, 0] * v

    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    jac = tape.jacobian(y, x)
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        y2 = f(x)
    return [acc.jvp(y2), tf.matmul(jac, t[:, None])[:, 0]]


@case(message=True)
def forward_mode_through_custom_gradient_calls_grad_fn(tf):
    # an accumulator through a custom gradient runs grad_fn (its JVP by double backward): a
    # forward pass through numpy still gets the right tangent, an error in grad_fn reaches the
    # caller; where the ops inside f gave the result a tangent, that one stands
    @tf.custom_gradient
    def numpy_sin(x):
        y = tf.constant(np.sin(x.numpy()))

        def grad(dy):
            return dy * tf.cos(x)

        return y, grad

    @tf.custom_gradient
    def clipped(x):
        def grad(dy):
            return tf.clip_by_value(dy, -0.5, 0.5) * 3.0

        return x * 2.0, grad

    @tf.custom_gradient
    def broken(x):
        def grad(dy):
            raise ValueError("grad_fn ran")

        return x * 2.0, grad

    def jvp(f):
        x = tf.constant([0.5, 1.0])
        with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 2.0])) as acc:
            y = f(x)
        return acc.jvp(y)

    return [jvp(numpy_sin), jvp(clipped), attempt(jvp, broken)]


@case(message=True)
def forward_over_back_hvp_of_variables_in_and_out_of_a_function(tf):
    # TF's forwardprop_test testVariablesHVP, with tf.Variables: a tape inside an accumulator
    # watching a nest of variables, the loss's shape checked with assert_is_compatible_with
    x = tf.constant([[-0.5, 1.0], [0.5, -1.0]])
    tv = [tf.Variable(tf.ones([2, 3])), tf.Variable(tf.zeros([3])), tf.Variable(tf.ones([3, 1]))]

    def loss():
        return tf.reduce_sum((tf.nn.relu(x @ tv[0] + tv[1]) @ tv[2] - 1.0) ** 2.0)

    def hvp(f, primals, tangents):
        with tf.autodiff.ForwardAccumulator(primals, tangents) as acc:
            with tf.GradientTape() as tape:
                tape.watch(primals)
                out = f(*primals)
                out.shape.assert_is_compatible_with([])
            return acc.jvp(tape.gradient(out, primals))

    def compute():
        with tf.GradientTape() as tape:
            value = loss()
        vector = tape.gradient(value, tv)
        (result,) = hvp(lambda unused_variables: loss(), [tv], [vector])
        return result

    return [compute(), tf.function(compute)()]


@case(message=True)
def tensor_shape_compatibility(tf):
    s = tf.TensorShape([2, None])
    return [
        s.is_compatible_with([2, 3]),
        s.is_compatible_with([3, 3]),
        s.is_compatible_with([2]),
        s.merge_with([None, 4]).as_list(),
        s.most_specific_compatible_shape([2, 5]).as_list(),
        tf.TensorShape([2, 3]).most_specific_compatible_shape([2, 5]).as_list(),
        s.is_fully_defined(),
        tf.TensorShape([1, 2]).is_fully_defined(),
        s.concatenate([7]).as_list(),
        s.with_rank(2).as_list(),
        s.with_rank_at_least(1).as_list(),
        s.with_rank_at_most(3).as_list(),
        tf.TensorShape([2]).assert_is_compatible_with([None]),
        attempt(tf.TensorShape([2]).assert_is_compatible_with, [3]),
        attempt(s.merge_with, [3, 4]),
        attempt(s.assert_is_fully_defined),
        attempt(s.assert_has_rank, 3),
        attempt(s.with_rank_at_least, 3),
        attempt(s.with_rank_at_most, 1),
        attempt(s.assert_same_rank, [1]),
    ]
