"""`tf.custom_gradient`: a function recorded as ONE op whose VJP you write.

The call runs `f` (its ops may be recorded too, but nothing reaches them), then records one op
from the tensors among the arguments, and the variables `f` read, to the result. Its VJP is
your `grad_fn`. Several results are one "bundle" op unpacked by one op per result; their
gradients are gathered back into the bundle's (`_Cotangents`) before `grad_fn` runs.
"""

import functools
import inspect

import numpy as np

from . import nest
from .forwardprop import _double_backward
from .tape import GradientTape, Op, _zeros_for, apply
from .tensor import convert_to_tensor

__all__ = ["custom_gradient"]


def custom_gradient(f):
    """Decorator: `f(*args, **kwargs)` returns `(result, grad_fn)`; the call is recorded as ONE
    op from the tensors in `args` (and the trainable variables `f` reads) to the tensors in
    `result`, whose VJP is `grad_fn` instead of the ops inside `f`.

    As in TF: `grad_fn` takes one upstream gradient per tensor of the result (zeros for
    results the target does not use) and returns one gradient per leaf of `args` (None where
    there is none). If `f` reads variables, `grad_fn` is also called with `variables=` (the
    variables read, in creation order) and returns `(input_grads, variable_grads)`; the
    variables' gradients come from it. The arguments and keyword arguments reach `f`
    unchanged; keyword arguments get no gradient.
    """

    return _OnMethods(f, _decorate)


class _OnMethods:
    """A custom-gradient function that also works as a method, as TF's decorator does: read
    from an instance, the instance is bound into `f` first, so `self` is not an input."""

    def __init__(self, f, decorate):
        self._f, self._decorate = f, decorate
        self._call = decorate(f)
        functools.update_wrapper(self, f)

    def __call__(self, *args, **kwargs):
        return self._call(*args, **kwargs)

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        return self._decorate(functools.wraps(self._f)(functools.partial(self._f, instance)))


def _decorate(f):
    """`f`, recorded as one op whose VJP is the `grad_fn` it returns (see custom_gradient)."""

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        with _VariableWatcher() as watcher:  # hears which trainable variables f reads
            result, grad_fn = f(*args, **kwargs)
        flat_args = nest.flatten(args)
        given = flat_args + nest.flatten(kwargs)
        variables = [v for v in watcher.watched_variables() if all(v is not a for a in given)]
        if variables and not _accepts_variables(grad_fn):
            raise TypeError(
                "@tf.custom_gradient grad_fn must accept keyword argument "
                f"'variables', since function uses variables: {variables}"
            )
        results = [convert_to_tensor(r) for r in nest.flatten(result)]
        inputs = [convert_to_tensor(x) for x in flat_args] + [v._read() for v in variables]
        n = len(flat_args)

        def vjp_all(g, ans, ins):
            upstream = g.parts if type(g) is _Cotangents else [g]
            upstream = [_zeros_for(r) if u is None else u for r, u in zip(results, upstream)]
            if variables:
                grads, var_grads = grad_fn(*upstream, variables=variables)
                var_grads = list(var_grads)
                if len(var_grads) != len(variables):
                    raise ValueError(
                        "Must return gradient for each variable from @custom_gradient grad_fn."
                    )
            else:
                grads, var_grads = grad_fn(*upstream), []
            flat = nest.flatten(grads)
            if len(flat) != n:
                raise ValueError(
                    f"custom_gradient function expected to return {n} gradients, "
                    f"but returned {len(flat)} instead."
                )
            return [None if gx is None else convert_to_tensor(gx) for gx in flat + var_grads]

        name = f"CustomGradient-{f.__name__}"
        if len(results) == 1:  # one result: the op's output is that result
            op = Op(name, lambda *values: results[0]._value)
            op.vjps = vjp_all
            op.jvp = _forward_rule(op, results[0])
            outputs = [apply(op, *inputs)]
        else:  # several: one bundle, unpacked by one op per result
            op = Op(name, lambda *values: np.float32(0))
            op.vjps = vjp_all
            op.jvp = lambda tangent_of, out, inputs: None
            bundle = apply(op, *inputs)
            outputs = [
                apply(_unpack_op(name, i, len(results), r), bundle) for i, r in enumerate(results)
            ]
        return nest.pack_sequence_as(result, outputs)

    return decorated


def _forward_rule(op, result):
    """The op's tangent, as TF computes it for a custom gradient: the JVP of the user's
    `grad_fn` (by double backward, so `grad_fn` runs, and what it raises reaches the caller),
    unless the ops that ran inside `f` already gave the result a tangent, which then stands
    (a forward pass through numpy has none: `grad_fn`'s is used)."""

    def jvp(tangent_of, out, inputs):
        tangents = [tangent_of(x) for x in inputs]
        by_grad_fn = None
        if any(t is not None for t in tangents):
            by_grad_fn = _double_backward(op, inputs, out, {}, tangents)
        inner = tangent_of(result)
        return by_grad_fn if inner is None else inner

    return jvp


class _VariableWatcher(GradientTape):
    """A tape that hears which trainable variables are read and records nothing (TF's
    VariableWatcher): it watches no tensor, so no op is recorded on it and `f`'s intermediates
    are not kept alive by it (what `recompute_grad` relies on)."""

    def _watch_variable(self, var):
        self._variables.setdefault(var._id, var)


class _Cotangents:
    """The gradients of a multi-result custom op's results, gathered as the backward sweep
    reaches each result (`+` merges them); None for a result no target uses."""

    __slots__ = ("parts",)

    def __init__(self, parts):
        self.parts = parts

    def __add__(self, other):
        return _Cotangents(
            [b if a is None else a if b is None else a + b for a, b in zip(self.parts, other.parts)]
        )


def _unpack_op(name, i, n, result):
    """The op taking result `i` (of `n`) out of a custom op's bundle; its gradient goes back
    into the bundle's gradient at place `i`."""
    op = Op(f"{name}:{i}", lambda bundle: result._value)
    op.vjps = (lambda g, ans, bundle: _Cotangents([g if j == i else None for j in range(n)]),)
    op.jvp = lambda tangent_of, out, inputs: tangent_of(result)
    return op


def _accepts_variables(fn):
    try:
        spec = inspect.getfullargspec(fn)
    except TypeError:
        return True
    return "variables" in spec.args or "variables" in spec.kwonlyargs or spec.varkw is not None
