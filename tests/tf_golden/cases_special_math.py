"""Golden cases for tf.math's special functions (special_math_ops.py): values, first and second
derivatives, forward mode, and the dtypes TF refuses."""

from .cases import attempt, case, derivatives, grads_of

UNARY = {
    "acos": [-0.9, -0.3, 0.0, 0.5, 0.99],
    "asin": [-0.9, -0.3, 0.0, 0.5, 0.99],
    "atan": [-3.0, -0.3, 0.0, 0.5, 20.0],
    "acosh": [1.05, 1.5, 3.0, 40.0],
    "asinh": [-3.0, -0.3, 0.0, 0.5, 20.0],
    "atanh": [-0.9, -0.3, 0.0, 0.5, 0.99],
    "sinh": [-3.0, -0.3, 0.0, 0.5, 5.0],
    "cosh": [-3.0, -0.3, 0.0, 0.5, 5.0],
    "expm1": [-3.0, -1e-5, 0.0, 1e-5, 5.0],
    "rsqrt": [0.01, 0.5, 2.0, 100.0],
    "reciprocal": [-4.0, -0.5, 0.25, 3.0],
    "erfc": [-2.0, -0.3, 0.0, 0.5, 3.0],
    "lgamma": [0.1, 0.5, 1.0, 2.5, 7.0, -0.5, -2.5],
    "digamma": [0.1, 0.5, 1.0, 2.5, 7.0, -0.5, -2.5],
}


def _unary_case(name, points):
    @case(name=f"special_math_{name}_and_its_derivatives")
    def run(tf):
        fn = getattr(tf.math, name)
        out = []
        for dtype in (tf.float32, tf.float64):
            out.append(derivatives(tf, fn, tf.constant(points, dtype)))
        return out

    return run


for _name, _points in UNARY.items():
    _unary_case(_name, _points)


@case
def special_math_top_level_names(tf):
    x = tf.constant([0.25, 0.5])
    return [getattr(tf, n)(x) for n in ("acos", "acosh", "asin", "asinh", "atan", "atanh")] + [
        tf.sinh(x),
        tf.cosh(x),
        tf.atan2(x, x + 1.0),
    ]


@case
def special_math_polygamma_and_zeta(tf):
    x = tf.constant([-2.5, -1.0, -0.5, 0.0, 1e-3, 0.5, 1.0, 2.5, 10.0], tf.float64)
    out = [tf.math.polygamma(tf.constant(n, tf.float64), x) for n in (0.0, 1.0, 2.0, 3.0, 1.5)]
    out += [tf.math.zeta(tf.constant(s, tf.float64), x) for s in (2.0, 3.0, 2.5)]
    q = tf.constant([0.5, 2.0])
    out.append(grads_of(tf, lambda q: tf.math.polygamma(tf.constant([1.0, 2.0]), q), q))
    out.append(grads_of(tf, lambda q: tf.math.zeta(tf.constant(3.0), q), q))
    return out


@case
def special_math_binary_ops_and_their_gradients(tf):
    x = tf.constant([[0.0, 1.5, -2.0], [0.5, 0.0, 3.0]])
    y = tf.constant([2.0, 0.5, 4.0])
    return [
        grads_of(tf, tf.math.atan2, x, y),
        grads_of(tf, tf.math.xlogy, x, y),
        grads_of(tf, tf.math.xdivy, x, y),
        grads_of(tf, tf.math.squared_difference, x, y),
        tf.math.xlogy(tf.constant([0.0, 0.0]), tf.constant([0.0, -1.0])),
        tf.math.xdivy(tf.constant([0.0, 1.0]), tf.constant([0.0, 0.0])),
        tf.math.squared_difference(tf.constant([1, 5]), tf.constant(3)),
    ]


@case
def special_math_euclidean_norm(tf):
    x = tf.constant([[3.0, -4.0, 0.0], [1.0, 2.0, 2.0]])
    out = [
        tf.math.reduce_euclidean_norm(x),
        tf.math.reduce_euclidean_norm(x, 1),
        tf.math.reduce_euclidean_norm(x, 0, keepdims=True),
        tf.math.reduce_euclidean_norm(tf.constant([[3, 4]]), 1),
    ]
    out.append(derivatives(tf, lambda x: tf.math.reduce_euclidean_norm(x, 1), x))
    zero = tf.zeros([2])  # (TF's gradient there is nan: x / (norm / g))
    out.append(grads_of(tf, tf.math.reduce_euclidean_norm, zero))
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
        norm = tf.math.reduce_euclidean_norm(x, 1)
    return out + [acc.jvp(norm)]


@case
def special_math_forward_mode(tf):
    x = tf.constant([0.3, 0.6], tf.float64)
    out = []
    for name in ("acos", "asinh", "expm1", "rsqrt", "reciprocal", "lgamma", "digamma", "erfc"):
        with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, -2.0], tf.float64)) as acc:
            y = getattr(tf.math, name)(x)
        out.append(acc.jvp(y))
    return out


@case(message=True)
def special_math_dtypes_tf_refuses(tf):
    ints = tf.constant([1, 2])
    return [
        attempt(tf.math.acos, ints),
        attempt(tf.math.lgamma, ints),
        attempt(tf.math.erfc, ints),
        attempt(tf.math.atan2, ints, ints),
        attempt(tf.math.xlogy, ints, ints),
        type(attempt(tf.math.reciprocal, ints)).__name__,  # (TF: no CPU kernel for integers)
    ]


# --- the array and nn ops TF's gradient tests reach for ---------------------------------------
def _weighted(tf, y):
    return tf.reshape(tf.range(tf.size(y), dtype=y.dtype), tf.shape(y))


def _grad(tf, f, x):
    """f(x) and the gradient of sum(f(x) * w) for a weight w = 0, 1, 2, ... over f(x)."""
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return [y, tape.gradient(y, x, output_gradients=_weighted(tf, y))]


@case(message=True)
def slice_values_gradients_and_errors(tf):
    x = tf.reshape(tf.range(24.0), [2, 3, 4])
    return [
        _grad(tf, lambda v: tf.slice(v, [0, 1, 1], [2, 2, -1]), x),
        tf.slice(x, tf.constant([1, 0, 0], tf.int64), [1, 1, 2]),
        attempt(tf.slice, x, [0, 1, 1], [2, 2, -2]),
        attempt(tf.slice, x, [0, 1, 1], [2, 3, 1]),
        attempt(tf.slice, x, [0, -1, 1], [2, 1, 1]),
        attempt(tf.slice, x, [0, 1], [2, 2]),
        type(attempt(tf.slice, x, [0.0, 1, 1], [2, 2, 1])).__name__,
        attempt(tf.slice, x, tf.constant([1, 0, 0], tf.int64), tf.constant([1, 1, 2])),
    ]


@case(message=True)
def pad_modes_gradients_and_errors(tf):
    m = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    out = [
        _grad(tf, lambda v, mode=mode: tf.pad(v, [[1, 1], [2, 1]], mode), m)
        for mode in ("CONSTANT", "REFLECT", "SYMMETRIC", "reflect")
    ]
    out += [
        tf.pad(m, [[1, 0], [0, 2]], constant_values=-1),
        tf.pad(tf.constant([1, 2]), [[1, 1]], constant_values=7),
        derivatives(tf, lambda v: tf.pad(v, [[2, 1], [1, 0]], "SYMMETRIC") ** 2, m),
        attempt(tf.pad, m, [[1, 1], [1, 1]], "WRAP"),
        attempt(tf.pad, m, [[2, 0], [0, 0]], "REFLECT"),
        attempt(tf.pad, m, [[3, 0], [0, 0]], "SYMMETRIC"),
        attempt(tf.pad, m, [[-1, 0], [0, 0]]),
        attempt(tf.pad, m, [[1, 0]]),
        attempt(tf.pad, tf.constant([1, 2]), [[1, 1]], constant_values=7.5),
        type(attempt(tf.pad, m, [[1.0, 0], [0, 0]])).__name__,
    ]
    return out


@case(message=True)
def linalg_diag_diag_part_and_trace(tf):
    v = tf.constant([1.0, 2.0, 3.0])
    m = tf.reshape(tf.range(12.0), [3, 4])
    return [
        _grad(tf, tf.linalg.diag, v),
        _grad(tf, tf.linalg.diag, tf.constant([[1.0, 2.0], [3.0, 4.0]])),
        _grad(tf, tf.linalg.diag_part, m),
        tf.linalg.diag_part(tf.reshape(tf.range(12.0), [2, 2, 3])),
        _grad(tf, tf.linalg.trace, m),
        attempt(tf.linalg.diag_part, v),
        attempt(tf.linalg.diag, tf.constant(1.0)),
    ]


@case(message=True)
def matmul_adjoint(tf):
    a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    b = tf.constant([[5.0, 6.0], [7.0, 8.0]])
    return [
        tf.matmul(a, b, adjoint_a=True),
        tf.matmul(a, b, adjoint_b=True),
        tf.matmul(a, b, a_is_sparse=True, output_type=tf.float32),
        grads_of(tf, lambda a, b: tf.matmul(a, b, adjoint_a=True, transpose_b=True), a, b),
        attempt(tf.matmul, a, b, transpose_a=True, adjoint_a=True),
        attempt(tf.matmul, a, b, transpose_b=True, adjoint_b=True),
    ]


@case(message=True)
def bias_add_moments_variance_and_newaxis(tf):
    x = tf.constant([[1.0, 2.0, -1.0], [3.0, 6.0, 0.5]])
    b = tf.constant([0.5, -1.0, 2.0])
    return [
        grads_of(tf, tf.nn.bias_add, x, b),
        tf.nn.bias_add(tf.ones([1, 2, 3]), tf.constant([1.0, 2.0]), data_format="NCHW"),
        attempt(tf.nn.bias_add, x, tf.constant([1.0, 2.0])),
        attempt(tf.nn.bias_add, x, tf.ones([1, 3])),
        attempt(tf.nn.bias_add, tf.ones([3]), tf.ones([3])),
        attempt(tf.nn.bias_add, x, tf.constant([1, 2, 3])),
        tf.nn.moments(x, axes=[0]),
        tf.nn.moments(x, axes=[0, 1], keepdims=True),
        tf.nn.moments(tf.constant([[1, 2], [3, 6]]), axes=[0]),
        derivatives(tf, lambda v: tf.nn.moments(v, axes=[1])[1], x),
        derivatives(tf, lambda v: tf.math.reduce_variance(v, axis=1), x),
        derivatives(tf, lambda v: tf.math.reduce_std(v, axis=0, keepdims=True), x),
        tf.math.reduce_std(x),
        attempt(tf.math.reduce_variance, tf.constant([1, 2])),
        x[:, tf.newaxis].shape.as_list(),
        tf.newaxis,
    ]


@case(message=True)
def debugging_assert(tf):
    return [
        tf.debugging.Assert(True, ["x"]),
        tf.debugging.Assert(tf.constant(True), ["x"]),
        attempt(tf.debugging.Assert, tf.constant(False), ["x is", tf.constant([1.0, 2.0])]),
        attempt(tf.Assert, tf.constant(False), ["msg", tf.range(5)], summarize=2),
        attempt(tf.Assert, tf.constant(False), [tf.constant(2.5)], summarize=-1),
    ]
