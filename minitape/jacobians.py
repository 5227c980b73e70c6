"""`GradientTape.jacobian` and `batch_jacobian`: one backward pass per element of the target,
the rows stacked into one tensor with the array ops.

They are methods of the tape, defined here rather than in `tape.py` because they assemble
their result with ops (`stack`, `reshape`, `zeros`: recorded, so an outer tape can
differentiate a Jacobian), and the ops are built on the tape: this file sits above both and
hands the two methods to `GradientTape` (the bottom of the file).
"""

import math

import numpy as np

from . import nest
from .array_ops import reshape, stack
from .creation_ops import zeros
from .tape import _ONE_SHOT, GradientTape, UnconnectedGradients, _unconnected, _zeros_for
from .tape_args import (
    check_parallel_iterations,
    check_pfor,
    checked_batch_source,
    checked_jacobian_target,
    target_tensor,
    tensor_args,
)
from .tensor import Tensor, as_seen_by_tapes


def jacobian(
    self,
    target,
    sources,
    unconnected_gradients=UnconnectedGradients.NONE,
    parallel_iterations=None,
    experimental_use_pfor=True,
):
    """J[i..., j...] = d target[i...] / d source[j...], shape target.shape + source.shape.

    One backward pass per element of the target (TF vectorises them with `pfor`)."""
    if self._entries is None:  # (TF asks first whether the tape still has a recording)
        raise RuntimeError(_ONE_SHOT)
    check_pfor(experimental_use_pfor, self._persistent, "jacobian")
    self._start_gradient()
    unconnected = _unconnected(unconnected_gradients)
    target = target_tensor(checked_jacobian_target(target, "jacobian"))
    if experimental_use_pfor:
        check_parallel_iterations(
            parallel_iterations, "jacobian", target._value.size, self._persistent
        )
    flat = [as_seen_by_tapes(s) for s in nest.flatten(sources)]  # (Keras variables too)
    flat_sources = tensor_args(flat, "Each source")
    tshape = target._value.shape
    try:
        rows = [self._grads([target], [seed], flat_sources) for seed in _unit_seeds(target)]
    finally:
        self._finish()
    out = []
    for s in flat_sources:
        sshape = s._read_value().shape
        r = [grads.get(s._id) for grads in rows]
        if all(g is None for g in r) and unconnected is UnconnectedGradients.NONE:
            out.append(None)
        elif not target._value.size:  # (one pass with an empty seed: connected)
            out.append(zeros(tshape + sshape, dtype=s.dtype))
        else:
            r = [_zeros_for(s) if g is None else g for g in r]
            out.append(reshape(stack(r), tshape + sshape))
    return nest.pack_sequence_as(sources, out)


def batch_jacobian(
    self,
    target,
    source,
    unconnected_gradients=UnconnectedGradients.NONE,
    parallel_iterations=None,
    experimental_use_pfor=True,
):
    """Per-example Jacobians: result[b, i..., j...] = d target[b, i...] / d source[b, j...].

    Assumes example b of the target depends only on example b of the source. As in TF, a
    target that does not depend on the source gives zeros (whatever
    `unconnected_gradients` says)."""
    if self._entries is None:  # (TF asks this first, in words of its own: "tocompute")
        raise RuntimeError(_ONE_SHOT.replace("to compute", "tocompute"))
    _unconnected(unconnected_gradients)
    target = target_tensor(checked_jacobian_target(target, "batch_jacobian"))
    source = checked_batch_source(as_seen_by_tapes(source))  # (a Keras 3 variable: its own)
    tshape, sshape = target._value.shape, source._read_value().shape
    for shape in (tshape, sshape):
        if len(shape) < 2:
            raise ValueError(f"Shape {tuple(shape)} must have rank at least 2")
    if tshape[0] != sshape[0]:
        raise ValueError(
            f"Need first dimension of target shape ({tuple(tshape)}) and source "
            f"shape ({tuple(sshape)}) to match."
        )
    check_pfor(experimental_use_pfor, self._persistent, "batch_jacobian")
    b, m = tshape[0], math.prod(tshape[1:])
    if experimental_use_pfor:
        check_parallel_iterations(parallel_iterations, "batch_jacobian", m, self._persistent)
    self._start_gradient()
    seeds = [np.zeros((b, m), dtype=target._value.dtype) for _ in range(m)]
    for j, seed in enumerate(seeds):
        seed[:, j] = 1  # row j of every example's Jacobian at once
    try:
        cols = [
            self._grads([target], [Tensor(seed.reshape(tshape))], [source]).get(source._id)
            for seed in seeds
        ]
    finally:
        self._finish()
    if all(g is None for g in cols):
        return zeros(tshape + sshape[1:], dtype=target.dtype)
    cols = [_zeros_for(source) if g is None else g for g in cols]
    return reshape(stack(cols, axis=1), tshape + sshape[1:])


def _unit_seeds(target):
    """One seed per element of `target`: 1 there, 0 elsewhere (for an empty target, one
    empty seed, which still tells whether a source is connected)."""
    v = target._value
    for i in range(v.size or 1):
        seed = np.zeros(v.size, v.dtype)
        if v.size:
            seed[i] = 1
        yield Tensor(seed.reshape(v.shape))


for _method in (jacobian, batch_jacobian):
    _method.__qualname__ = f"GradientTape.{_method.__name__}"
    setattr(GradientTape, _method.__name__, _method)
