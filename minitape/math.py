"""`tf.math`: element-wise math, reductions and comparisons (the top level's functions too)."""

from .array_ops import argmax, argmin  # noqa: F401
from .nn_ops import erf, log_sigmoid, log_softmax, reduce_logsumexp, softmax  # noqa: F401
from .ops import (  # noqa: F401
    abs,
    add,
    add_n,
    ceil,
    cos,
    cumprod,
    cumsum,
    divide,
    divide_no_nan,
    equal,
    exp,
    floor,
    floordiv,
    floormod,
    greater,
    greater_equal,
    is_finite,
    is_inf,
    is_nan,
    less,
    less_equal,
    log,
    log1p,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    maximum,
    minimum,
    multiply,
    negative,
    not_equal,
    pow,
    reduce_all,
    reduce_any,
    reduce_max,
    reduce_mean,
    reduce_min,
    reduce_prod,
    reduce_sum,
    round,
    sigmoid,
    sign,
    sin,
    softplus,
    sqrt,
    square,
    subtract,
    tan,
    tanh,
    truediv,
)


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """The mean squared deviation from the mean over `axis` (TF's formula: the mean, kept
    for broadcasting, then the mean of the squared differences; integers are refused)."""
    from .ops import convert_to_tensor

    x = convert_to_tensor(input_tensor)
    means = reduce_mean(x, axis=axis, keepdims=True)
    if means.dtype.is_integer:
        raise TypeError(
            f"Input must be either real or complex. Received integer type {means.dtype}."
        )
    return reduce_mean(square(x - means), axis=axis, keepdims=keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    """The square root of `reduce_variance`: the standard deviation over `axis`."""
    return sqrt(reduce_variance(input_tensor, axis=axis, keepdims=keepdims))
