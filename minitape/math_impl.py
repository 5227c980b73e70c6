"""Two `tf.math` reductions built from other ops, as TF builds them: `reduce_variance` and
`reduce_std` (the mean of the squared deviations from the mean, and its square root). Their
gradients are those of the ops they are made of."""

from . import math_ops as o
from .op_args import _NUMBERS, _input

__all__ = ["reduce_variance", "reduce_std"]


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """The variance over `axis` (all axes by default), dividing by the count (not count - 1)."""
    x = _input(input_tensor, _NUMBERS)
    means = o.reduce_mean(x, axis=axis, keepdims=True)
    if means.dtype.is_integer:
        raise TypeError(
            f"Input must be either real or complex. Received integer type {means.dtype}."
        )
    return o.reduce_mean(o.square(x - means), axis=axis, keepdims=keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    """The standard deviation over `axis`: the square root of `reduce_variance`."""
    return o.sqrt(reduce_variance(input_tensor, axis=axis, keepdims=keepdims))
