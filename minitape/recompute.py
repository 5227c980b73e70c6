"""Two recipes built on `custom_gradient`: `recompute_grad` and `grad_pass_through`.

`recompute_grad(f)` trades time for memory. A tape keeps every intermediate tensor of the
forward pass until `gradient()` (the backward pass needs them). Wrapped in `recompute_grad`,
`f` runs with no tape listening, and the call is recorded as ONE op from its inputs to its
results; when the backward pass reaches that op, `f` runs again under a tape of its own,
whose gradient is the op's gradient. Only the inputs and results stay held (see
`tests/test_recompute.py` for the numbers), at the price of running `f` twice.

`grad_pass_through(f)`: the value of `f`, the gradient of the identity (a straight-through
estimator: round, quantize, or an assignment on the way forward; the gradient flows as if
nothing had happened).

Both are TF's code, on minitape's `custom_gradient`.
"""

import functools

from . import nest
from .context import STATE
from .custom_gradient import custom_gradient
from .forwardprop import has_tangent
from .math_ops import identity
from .tape import GradientTape, UnconnectedGradients

__all__ = ["recompute_grad", "grad_pass_through"]


def recompute_grad(f):
    """`f`, but its intermediates are not kept by a tape: they are recomputed for the gradient.

    Variables read inside `f` get their gradients as with `f` itself (zeros for a variable
    read but not used, as in TF: the recomputation asks for unconnected gradients as zeros)."""

    @custom_gradient
    def inner(*args, **kwargs):
        _refuse_forward_mode(f, args)
        # Only custom_gradient's own variable watcher (the innermost tape) hears f: no other
        # tape records its ops, and no forward accumulator or trace hears them.
        saved = STATE.tapes, STATE.tracer
        STATE.tapes, STATE.tracer = STATE.tapes[-1:], None
        try:
            result = f(*args, **kwargs)
        finally:
            STATE.tapes, STATE.tracer = saved

        def grad_fn(*upstream, variables=None):
            variables = list(variables or [])
            with GradientTape() as tape:
                id_args = nest.map_structure(identity, args)
                tape.watch(id_args)
                tape.watch(variables)
                recomputed = f(*id_args, **kwargs)
            grads = tape.gradient(
                recomputed,
                list(id_args) + variables,
                output_gradients=list(upstream),
                unconnected_gradients=UnconnectedGradients.ZERO,
            )
            return grads[: len(id_args)], grads[len(id_args) :]

        return result, grad_fn

    return functools.wraps(f)(inner)


def _refuse_forward_mode(f, args):
    """As TF: a forward accumulator cannot see through recompute_grad (f's ops are not
    recorded, and the JVP of its gradient is not implemented)."""
    if any(has_tangent(x) for x in nest.flatten(args)):
        raise NotImplementedError(
            f"recompute_grad tried to transpose grad of {f.__name__}. "
            "Consider not using recompute_grad in forward modeautodiff"
        )


def grad_pass_through(f):
    """`f`'s value, the identity's gradient: each input gets the gradient of the result
    (one input per result). Variables `f` uses get no gradient."""

    @custom_gradient
    def _grad_pass_through_op(*args, **kwargs):
        def grad(*upstream, variables=None):
            if variables is not None:
                return upstream, [None] * len(variables)
            return upstream

        return f(*args, **kwargs), grad

    return functools.wraps(f)(_grad_pass_through_op)
