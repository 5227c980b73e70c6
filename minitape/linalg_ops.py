"""`tf.norm` (and `tf.linalg.norm`): vector and matrix norms, as TF's linalg_ops computes them."""

import numpy as np

from .array_ops import squeeze
from .math_ops import abs, cast, pow, reduce_max, reduce_sum, sqrt  # noqa: A004
from .tensor import (
    read,
)


def norm(tensor, ord="euclidean", axis=None, keepdims=False, name=None):
    """The norm of `tensor` as TF computes it: a vector norm over all elements or along an
    int `axis` (euclidean/2, 1, np.inf or any p > 0), or a matrix norm over a pair of axes
    (euclidean/'fro', 1: the largest column sum, np.inf: the largest row sum)."""
    is_matrix = isinstance(axis, (tuple, list)) and len(axis) == 2
    if is_matrix:
        axis = tuple(axis)
        if type(axis[0]) is not int or type(axis[1]) is not int or axis[0] == axis[1]:
            raise ValueError(
                f"'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis}"
            )
        if ord not in ("euclidean", "fro", 1, 2, np.inf):
            raise ValueError(
                f"'ord' must be a supported matrix norm in ['euclidean', 'fro', 1, 2, inf], "
                f"got {ord}"
            )
        if ord == 2:  # (TF takes the largest singular value: an SVD minitape does not have)
            raise ValueError("'ord' = 2 over two axes (the spectral norm) is not in minitape")
    else:
        if not (isinstance(axis, int) or axis is None):
            raise ValueError(
                f"'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis}"
            )
        if (not np.isreal(ord) or ord <= 0) and ord not in ("euclidean", 1, 2, np.inf):
            raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
        if axis is not None:
            axis = (axis,)
    t = read(tensor)
    kind = t._value.dtype.kind
    if kind not in "fiuc":  # (TF's conj: numbers only)
        raise TypeError(f"Expected numeric or variant tensor, got dtype {t.dtype!r}.")
    if ord in ("fro", "euclidean", 2, 2.0):
        # (x * conj(x) is |x|² for complex x, kept complex as in TF)
        square = cast(abs(t) * abs(t), t.dtype) if kind == "c" else t * t
        result = sqrt(reduce_sum(square, axis, keepdims=True))
    else:
        result = abs(t)
        if ord == 1:
            result = reduce_sum(result, None if axis is None else axis[0], keepdims=True)
            if is_matrix:
                result = reduce_max(result, axis[-1], keepdims=True)
        elif ord == np.inf:
            if is_matrix:
                result = reduce_sum(result, axis[1], keepdims=True)
            result = reduce_max(result, None if axis is None else axis[0], keepdims=True)
        else:
            result = pow(reduce_sum(pow(result, ord), axis, keepdims=True), 1.0 / ord)
    return result if keepdims else squeeze(result, axis)
