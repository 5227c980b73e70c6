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

from .tape import GradientTape
from .tensor import Tensor, constant

__all__ = ["check_grads", "check_vjp"]


def _as_list(y):
    return list(y) if isinstance(y, (list, tuple)) else [y]


def _values(ts):
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
    grads = tape.gradient(ys, xs, output_gradients=[constant(u) for u in us],
                          unconnected_gradients="zero")
    vs = _random_like(rng, args)
    tape_side = _vdot(_values(grads), vs)

    def at(sign):
        shifted = [constant(np.asarray(a, np.float64) + sign * eps * v) for a, v in zip(args, vs)]
        return _values(_as_list(f(*shifted)))

    plus, minus = at(+1), at(-1)
    numeric_side = _vdot(us, [(p - m) / (2 * eps) for p, m in zip(plus, minus)])
    if not np.isclose(tape_side, numeric_side, rtol=rtol, atol=atol):
        raise AssertionError(f"VJP check failed: tape gives {tape_side!r}, finite differences "
                             f"give {numeric_side!r} (difference {tape_side - numeric_side:.3g})")


def _vjp_function(f, nargs):
    """(x..., u...) -> the VJP of f at x weighted by u, as a differentiable function."""
    def vjp(*xs_and_us):
        xs, us = list(xs_and_us[:nargs]), list(xs_and_us[nargs:])
        with GradientTape() as tape:
            tape.watch(xs)
            ys = _as_list(f(*xs))
        return tape.gradient(ys, xs, output_gradients=us, unconnected_gradients="zero")
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
        check_grads(_vjp_function(f, len(args)), *args, *us, order=order - 1,
                    seed=seed + 1, eps=eps, rtol=rtol, atol=atol)

