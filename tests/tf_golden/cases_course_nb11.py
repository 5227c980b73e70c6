"""Golden cases for what notebooks 13 (forward mode, Jacobians and vector-Jacobian products) and
14 (Hessians and double backward) say about TensorFlow: each function records one claim a notebook
makes. The names (course_nb11_...) keep the number notebook 13 had when they were recorded; the
cases of what 14 adds are in cases_course_nb14.py."""

import numpy as np  # noqa: F401

from .cases import attempt, case, derivatives  # noqa: F401


def _chain_weights():
    # 13 §1: the weights of the chain x -> W1 x -> tanh -> W2 (.) the notebook uses
    rng = np.random.default_rng(10)
    return np.round(rng.normal(size=(4, 3)), 1), np.round(rng.normal(size=(2, 4)), 1)


def _matvec(tf, A, x):
    return tf.reshape(A @ tf.reshape(x, [-1, 1]), [-1])


def _chain(tf):
    W1, W2 = (tf.constant(w, dtype=tf.float32) for w in _chain_weights())
    return lambda x: _matvec(tf, W2, tf.tanh(_matvec(tf, W1, x)))


@case
def course_nb11_chain_jacobian_is_a_product(tf):
    # 13 §1: tape.jacobian of the chain R³ -> R⁴ -> R⁴ -> R² is the 2×3 matrix J3·J2·J1
    chain = _chain(tf)
    x = tf.constant([0.5, -1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = chain(x)
    return [y, tape.jacobian(y, x)]


@case
def course_nb11_forward_accumulator_jvp(tf):
    # 13 §2: ForwardAccumulator(primals, tangents) carries J·v along with the forward pass;
    # acc.jvp of a tensor computed before the accumulator started, or not from x, is None
    # (zeros when asked for with unconnected_gradients="zero")
    chain = _chain(tf)
    x = tf.constant([0.5, -1.0, 2.0])
    v = tf.constant([1.0, 0.0, -1.0])
    y_early = chain(x)
    with tf.autodiff.ForwardAccumulator(primals=x, tangents=v) as acc:
        y = chain(x)
        c = tf.constant([0.1, 0.2]) * 2.0
    return [
        y,
        acc.jvp(y),
        acc.jvp(y_early),
        acc.jvp(c),
        acc.jvp(c, unconnected_gradients="zero"),
    ]


@case
def course_nb11_output_gradients_is_a_vjp(tf):
    # 13 §3: gradient(y, x, output_gradients=u) is uᵀJ; without output_gradients a vector target
    # is weighted by ones (the gradient of its sum)
    chain = _chain(tf)
    x = tf.constant([0.5, -1.0, 2.0])
    u = tf.constant([1.0, -2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = chain(x)
    return [
        tape.gradient(y, x, output_gradients=u),
        tape.gradient(y, x),
        tape.gradient(tf.reduce_sum(y), x),
    ]


def _layer(tf):
    x = tf.constant([[1.0, -0.5, 2.0], [0.3, 0.8, -1.2]])
    W = tf.constant(np.round(np.random.default_rng(4).normal(size=(3, 4)), 1), dtype=tf.float32)
    b = tf.constant([0.1, -0.2, 0.0, 0.3])
    return x, W, b


@case
def course_nb11_layer_jacobian_rows_and_columns(tf):
    # 13 §4: the Jacobian of tanh(x @ W + b) with respect to W has shape y.shape + W.shape,
    # (2, 4, 3, 4); assembled row by row (one VJP per output element) and column by column (one
    # JVP per element of W) it is the same
    x, W, b = _layer(tf)

    def layer(w):
        return tf.tanh(x @ w + b)

    with tf.GradientTape(persistent=True) as tape:
        tape.watch(W)
        y = layer(W)
    J = tape.jacobian(y, W)
    eye_out, eye_in = np.eye(8, dtype=np.float32), np.eye(12, dtype=np.float32)
    rows = [tape.gradient(y, W, output_gradients=eye_out[i].reshape(2, 4)) for i in range(8)]
    cols = []
    for j in range(12):
        with tf.autodiff.ForwardAccumulator(W, tf.constant(eye_in[j].reshape(3, 4))) as acc:
            cols.append(acc.jvp(layer(W)))
    return [
        J,
        tf.reshape(tf.stack(rows), [2, 4, 3, 4]),
        tf.reshape(tf.stack(cols, axis=-1), [2, 4, 3, 4]),
    ]


def _logistic(tf):
    X = tf.constant(
        [[1.0, 0.5, -1.0], [0.2, -1.0, 0.4], [-0.7, 0.3, 1.5], [1.2, 1.0, 0.1], [-0.4, -0.8, -0.6]]
    )
    t = tf.constant([1.0, -1.0, 1.0, 1.0, -1.0])

    def loss(w):
        return tf.reduce_mean(tf.math.log(1.0 + tf.exp(-t * _matvec(tf, X, w))))

    return loss


def _gradient_under_a_tape(tf, loss, w):
    """The gradient g of loss at w, taken by an inner tape while a persistent outer tape records
    it (reverse over reverse): (outer, g)."""
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(w)
        with tf.GradientTape() as inner:
            inner.watch(w)
            value = loss(w)
        g = inner.gradient(value, w)
    return outer, g


@case
def course_nb11_hvp_forward_over_reverse_and_reverse_over_reverse(tf):
    # 14 §1: a ForwardAccumulator around a GradientTape gives H·v (forward over reverse); two
    # nested tapes give it too (reverse over reverse, output_gradients=v); both equal H @ v
    loss = _logistic(tf)
    w = tf.constant([0.3, -0.2, 0.5])
    v = tf.constant([1.0, 2.0, -1.0])
    with tf.autodiff.ForwardAccumulator(w, v) as acc:
        with tf.GradientTape() as tape:
            tape.watch(w)
            value = loss(w)
        g = tape.gradient(value, w)
    hvp_fwd = acc.jvp(g)
    outer, g = _gradient_under_a_tape(tf, loss, w)
    hvp_rev = outer.gradient(g, w, output_gradients=v)
    H = outer.jacobian(g, w)
    return [g, hvp_fwd, hvp_rev, H]


@case
def course_nb11_double_backward_gives_a_jvp(tf):
    # 14 §3: g(u) = uᵀJ, from gradient(y, x, output_gradients=u) recorded by a tape watching u,
    # is linear in u; its gradient with output_gradients=v is J·v, for any u
    x = tf.constant([[0.5, -1.0, 2.0]])
    W = tf.constant([[0.1, 0.2], [0.3, -0.4], [0.5, 0.6]])
    v = tf.constant([[1.0, 0.0, -1.0]])
    with tf.GradientTape(persistent=True) as inner:
        inner.watch(x)
        y = tf.tanh(x @ W)
    results = []
    for u in (tf.ones_like(y), tf.constant([[3.0, -7.0]])):
        with tf.GradientTape() as outer:
            outer.watch(u)
            g = inner.gradient(y, x, output_gradients=u)
        results.append(outer.gradient(g, u, output_gradients=v))
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        y2 = tf.tanh(x @ W)
    return results + [acc.jvp(y2)]


@case(message=True)
def course_nb11_softsign_has_no_forward_mode(tf):
    # 14 §3: softsign's gradient op has no gradient of its own, so forward mode through softsign
    # fails, naming the gradient op: LookupError
    x = tf.constant([1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 0.0])):
        return attempt(tf.nn.softsign, x)


@case
def course_nb11_exercises(tf):
    # 13 Exercises 1 and 3 (a JVP, a VJP with output_gradients) and 14 Exercise 1 (a
    # Hessian-vector product, forward over reverse)
    x = tf.constant([1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([3.0, -1.0])) as acc:
        f = x[0] ** 2 * x[1] + tf.sin(x[1])
    ex1 = acc.jvp(f)
    p = tf.constant([1.0, 2.0, 3.0])
    with tf.autodiff.ForwardAccumulator(p, tf.constant([1.0, 0.0, -1.0])) as acc:
        with tf.GradientTape() as tape:
            tape.watch(p)
            value = tf.reduce_sum(p**3) + p[0] * p[1] * p[2]
        g = tape.gradient(value, p)
    ex3 = acc.jvp(g)
    xs = tf.constant([[1.0, 2.0, -1.0], [0.5, 0.0, 1.5]])
    W = tf.constant([[0.2, -0.3], [0.4, 0.1], [-0.5, 0.6]])
    u = tf.constant([[1.0, 0.0], [2.0, -1.0]])
    with tf.GradientTape() as tape:
        tape.watch(W)
        y = tf.tanh(xs @ W)
    ex4 = tape.gradient(y, W, output_gradients=u)
    return [ex1, ex3, ex4]
