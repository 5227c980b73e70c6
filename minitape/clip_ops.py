"""Gradient clipping: `clip_by_norm` (one tensor) and `clip_by_global_norm` (a list together).

Exploding gradients make a training step jump far away. Clipping rescales a gradient whose
norm is above `clip_norm` down to exactly `clip_norm`, keeping its direction. Everything is
written with minitape ops, as TF writes it, so the clipping is itself differentiable.
"""

from collections.abc import Sequence

import numpy as np

from .array_ops import stack
from .creation_ops import ones_like
from .indexed_slices import IndexedSlices
from .math_ops import cast, identity, maximum, minimum, reduce_sum, sqrt, where
from .nn_impl import l2_loss
from .tensor import constant, convert_to_tensor

__all__ = ["clip_by_norm", "clip_by_global_norm", "global_norm"]


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """`t * clip_norm / max(norm(t), clip_norm)`: unchanged if its L2 norm is at most
    `clip_norm`, otherwise scaled down to that norm (the norm over `axes`, default all)."""
    if isinstance(t, IndexedSlices):  # (TF clips the slices' values, repeats not added up)
        return IndexedSlices(clip_by_norm(t.values, clip_norm, axes), t.indices, t.dense_shape)
    values = convert_to_tensor(t)
    if np.isscalar(clip_norm):  # (as TF: a negative norm counts as 0)
        if clip_norm < 0:
            clip_norm = 0
    else:
        clip_norm = cast(maximum(clip_norm, 0), values.dtype)
    l2sum = reduce_sum(values * values, axes, keepdims=True)
    # The norm is sqrt(l2sum), but sqrt's gradient at 0 is infinite: take the root only
    # where l2sum > 0 (the "double where" trick keeps NaN out of the gradient).
    pred = l2sum > 0
    l2sum_safe = where(pred, l2sum, ones_like(l2sum))
    l2norm = where(pred, sqrt(l2sum_safe), l2sum)
    return identity(values * clip_norm / maximum(l2norm, clip_norm))


def _tensor_list(t_list):
    if not isinstance(t_list, Sequence) or isinstance(t_list, str):
        raise TypeError(f"`t_list` should be a sequence of tensors. Received {type(t_list)}.")
    return [
        None if t is None else t if isinstance(t, IndexedSlices) else convert_to_tensor(t)
        for t in t_list
    ]


def global_norm(t_list, name=None):
    """The L2 norm of all the tensors together, as if concatenated: sqrt(sum of all squares).
    None entries are ignored."""
    values = [t for t in _tensor_list(t_list) if t is not None]
    if not values:
        return constant(0.0)
    half_squared_norm = reduce_sum(stack([l2_loss(_values(v)) for v in values]))
    return sqrt(half_squared_norm * 2.0)


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """Scale every tensor by the same factor `clip_norm / max(global_norm, clip_norm)`.

    Returns `(clipped_list, global_norm)`. Unlike clipping each gradient alone, this keeps the
    direction of the whole update. None entries (missing gradients) stay None. If the global
    norm is inf or NaN, every clipped value is NaN, as in TF."""
    values = _tensor_list(t_list)
    if use_norm is None:
        use_norm = global_norm(values)
    use_norm = convert_to_tensor(use_norm)
    scale_for_finite = clip_norm * minimum(
        1.0 / use_norm, constant(1.0, use_norm.dtype) / clip_norm
    )
    scale = scale_for_finite + (use_norm - use_norm)  # NaN if the norm is not finite
    clipped = [None if v is None else _scaled(v, scale) for v in values]
    return clipped, use_norm


def _values(t):
    """What a norm is taken of: a tensor, or the values of IndexedSlices (as in TF, a
    repeated index's rows count one by one)."""
    return t.values if isinstance(t, IndexedSlices) else t


def _scaled(t, scale):
    if isinstance(t, IndexedSlices):
        return IndexedSlices(_scaled(t.values, scale), t.indices, t.dense_shape)
    return identity(t * cast(scale, t.dtype))
