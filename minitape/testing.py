"""`check_grads`: test a function's gradients against finite differences, to any order.

The idea (from HIPS autograd): pick a random direction `v` in input space and a random
weighting `u` of the outputs. Then two numbers must agree:

    <u, J v>  by a central difference:  <u, f(x + eps v) - f(x - eps v)> / (2 eps)
    <J^T u, v> by the tape:             the VJP (gradient with output_gradients=u), dotted with v

For order 2, the VJP itself is a differentiable function of (x, u) -- computed with a tape --
so we check *it* the same way, which differentiates through a nested tape. A rule that is
right to first order but not written with differentiable ops fails there.
"""

import numpy as np

from .forwardprop import ForwardAccumulator
from .tape import GradientTape
from .tensor import Tensor, constant, convert_to_tensor

__all__ = ["check_grads", "check_vjp", "check_jvp", "compute_gradient"]


def _as_list(y):
    return list(y) if isinstance(y, (list, tuple)) else [y]


def _dense(t):
    """A gradient as a tensor (a gather's IndexedSlices densified), anything else as is."""
    return convert_to_tensor(t) if hasattr(type(t), "__tf_tensor__") else t


def _values(ts):
    ts = [_dense(t) for t in ts]
    return [np.asarray(t._value if isinstance(t, Tensor) else t, dtype=np.float64) for t in ts]


def _random_like(rng, arrays):
    return [rng.standard_normal(np.shape(a)) for a in arrays]


def _vdot(xs, ys):
    return float(sum(np.vdot(x, y) for x, y in zip(xs, ys)))


def check_vjp(f, args, rng, eps=1e-6, rtol=1e-5, atol=1e-7):
    """One random-projection check of f's VJP at `args` (float64 numpy arrays)."""
    xs = [constant(np.asarray(a, dtype=np.float64)) for a in args]
    with GradientTape() as tape:
        tape.watch(xs)
        ys = _as_list(f(*xs))
    us = _random_like(rng, _values(ys))
    grads = tape.gradient(
        ys, xs, output_gradients=[constant(u) for u in us], unconnected_gradients="zero"
    )
    vs = _random_like(rng, args)
    tape_side = _vdot(_values(grads), vs)

    def at(sign):
        shifted = [constant(np.asarray(a, np.float64) + sign * eps * v) for a, v in zip(args, vs)]
        return _values(_as_list(f(*shifted)))

    plus, minus = at(+1), at(-1)
    numeric_side = _vdot(us, [(p - m) / (2 * eps) for p, m in zip(plus, minus)])
    if not np.isclose(tape_side, numeric_side, rtol=rtol, atol=atol):
        raise AssertionError(
            f"VJP check failed: tape gives {tape_side!r}, finite differences "
            f"give {numeric_side!r} (difference {tape_side - numeric_side:.3g})"
        )


def _vjp_function(f, nargs):
    """(x..., u...) -> the VJP of f at x weighted by u, as a differentiable function."""

    def vjp(*xs_and_us):
        xs, us = list(xs_and_us[:nargs]), list(xs_and_us[nargs:])
        with GradientTape() as tape:
            tape.watch(xs)
            ys = _as_list(f(*xs))
        grads = tape.gradient(ys, xs, output_gradients=us, unconnected_gradients="zero")
        return [_dense(g) for g in grads]

    return vjp


def check_grads(f, *args, order=2, seed=0, eps=1e-6, rtol=1e-5, atol=1e-7):
    """Check the tape's derivatives of `f` at `args` up to `order` against finite differences.

    `f` takes tensors and returns a tensor (or a list of tensors); `args` are numpy arrays or
    numbers, used in float64. Raises AssertionError naming the mismatch.
    """
    rng = np.random.default_rng(seed)
    args = [np.asarray(a, dtype=np.float64) for a in args]
    check_vjp(f, args, rng, eps, rtol, atol)
    if order > 1:
        ys = _as_list(f(*[constant(a) for a in args]))
        us = _random_like(rng, _values(ys))
        check_grads(
            _vjp_function(f, len(args)),
            *args,
            *us,
            order=order - 1,
            seed=seed + 1,
            eps=eps,
            rtol=rtol,
            atol=atol,
        )


def check_jvp(f, *args, seed=0, eps=1e-6, rtol=1e-5, atol=1e-7):
    """Check forward mode on `f` at `args`: along a random tangent v, the accumulator's JVP
    of every output must equal the central difference (f(x + eps v) - f(x - eps v)) / 2 eps,
    element by element. `args` are used in float64. Raises AssertionError naming the output."""
    rng = np.random.default_rng(seed)
    args = [np.asarray(a, dtype=np.float64) for a in args]
    vs = _random_like(rng, args)
    xs = [constant(a) for a in args]
    with ForwardAccumulator(xs, [constant(v) for v in vs]) as acc:
        ys = _as_list(f(*xs))
    jvps = _values(acc.jvp(ys, unconnected_gradients="zero"))

    def at(sign):
        return _values(_as_list(f(*[constant(a + sign * eps * v) for a, v in zip(args, vs)])))

    for k, (j, p, m) in enumerate(zip(jvps, at(+1), at(-1))):
        numeric = (p - m) / (2 * eps)
        if not np.allclose(j, numeric, rtol=rtol, atol=atol):
            raise AssertionError(
                f"JVP check failed for output {k}: forward mode gives {j!r}, "
                f"finite differences give {numeric!r}"
            )


# --- tf.test.compute_gradient ---------------------------------------------------------------
_GRADIENT_DTYPES = ("float16", "float32", "float64", "complex64", "complex128")


def compute_gradient(f, x, delta=None):
    """TF's `tf.test.compute_gradient`: the Jacobians of `y = f(*x)` with respect to each
    argument, by the tape ("theoretical") and by central differences ("numerical").

    Returns `(theoretical, numerical)`, two tuples with one 2-d numpy array per argument, of
    shape (y.size, x_i.size) and x_i's dtype; row r of the theoretical one is the gradient of
    y's element r (zeros where y does not depend on x_i). `delta` (default 1/1024, exactly
    representable) is added and subtracted in x's own dtype, as TF does: a float16 input
    may not move at all."""
    if not isinstance(x, (list, tuple)):
        raise ValueError(
            "`x` must be a list or tuple of values convertible to a Tensor "
            f"(arguments to `f`), not a {type(x)}"
        )
    if delta is None:
        delta = 1.0 / 1024
    xs = [convert_to_tensor(v) for v in x]
    y = f(*xs)
    return tuple(zip(*[_jacobians(f, y.shape, y.dtype, xs, i, delta) for i in range(len(xs))]))


def _jacobians(f, y_shape, y_dtype, xs, param, delta):
    t = xs[param].dtype
    assert t.name in _GRADIENT_DTYPES, (
        f"Cannot compute gradient for unsupported type {t.name} of argument {param}"
    )
    assert y_dtype.name in _GRADIENT_DTYPES, (
        f"Cannot compute gradient for unsupported type {y_dtype.name} of y"
    )
    return (
        _theoretical_jacobian(f, y_shape, y_dtype, xs, param),
        _numeric_jacobian(f, int(np.prod(y_shape)), y_dtype, xs, param, delta),
    )


def _theoretical_jacobian(f, y_shape, y_dtype, xs, param):
    x = xs[param]
    jacobian = np.zeros((int(np.prod(y_shape)), x._value.size), dtype=x._value.dtype)
    dy = np.zeros(tuple(y_shape), dtype=y_dtype._np)
    for row in range(jacobian.shape[0]):
        dy.flat[row] = 1
        with GradientTape() as tape:
            tape.watch(x)
            y = f(*xs)
        grad = tape.gradient(y, x, output_gradients=constant(dy))
        if grad is not None:
            jacobian[row, :] = np.ravel(_dense(grad)._value)
        dy.flat[row] = 0
    if jacobian.shape[0] == 0:  # an empty y: TF runs the gradient once anyway, and checks it
        with GradientTape() as tape:
            tape.watch(x)
            y = f(*xs)
        grad = tape.gradient(y, x, output_gradients=constant(dy))
        if grad is None:
            raise AttributeError(
                "'NoneType' object has no attribute 'shape' (the gradient of the empty y with "
                f"respect to argument {param} is None: y does not depend on it)"
            )
        if tuple(grad.shape) != tuple(x.shape):
            expected, got = tuple(x.shape), tuple(grad.shape)
            raise ValueError(f"Empty gradient has wrong shape: expected {expected}, got {got}")
        if np.any(grad._value):
            raise ValueError("Empty tensor with nonzero gradients")
    return jacobian


def _numeric_jacobian(f, y_size, y_dtype, xs, param, delta):
    # C-ordered copies: for an input in another layout (Fortran order, a transpose, a broadcast
    # view) reshape(-1) would be a copy, and the point would never move
    values = [np.array(t._value, order="C") for t in xs]
    x = values[param]
    flat = x.reshape(-1)  # (a view of a C-ordered array: changing it changes x)
    scale = np.asarray(2 * delta, dtype=y_dtype._np)[()]
    jacobian = np.zeros((y_size, x.size), dtype=x.dtype)
    for col in range(x.size):
        original = flat[col]
        flat[col] += delta
        y_pos = np.asarray(f(*[constant(v) for v in values])._value)
        flat[col] = original
        flat[col] -= delta
        y_neg = np.asarray(f(*[constant(v) for v in values])._value)
        flat[col] = original
        jacobian[:, col] = ((y_pos - y_neg) / scale).ravel()
    return jacobian
