"""`tf.norm` (and `tf.linalg.norm`): vector and matrix norms, as TF's linalg_ops computes them;
`tf.linalg.diag` and `diag_part` (the main diagonal), with their primitives."""

import numpy as np

from .array_ops import squeeze
from .errors import invalid
from .gen_ops import _dims, _op
from .math_ops import abs, cast, pow, reduce_max, reduce_sum, sqrt  # noqa: A004
from .tape import apply
from .tensor import _TensorLike, convert_to_tensor, read


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


# --- the diagonal of a matrix (tf.linalg.diag, diag_part) ----------------------------------
def _matrix_diag(v, rows, cols):
    out = np.zeros(v.shape[:-1] + (rows, cols), v.dtype)
    i = np.arange(v.shape[-1])
    out[..., i, i] = v
    return out


MatrixDiag = _op("MatrixDiagV3", _matrix_diag)  # (a batch of vectors, each on a diagonal)
MatrixDiagPart = _op("MatrixDiagPartV3", lambda x: np.diagonal(x, 0, -2, -1).copy())


def _padding_value(given, t, value):
    """The padding value in `t`'s dtype, as TF's op converts it (a bool tensor's is made a bool
    first; 0 for a string or a Python bool is TF's TypeError)."""
    if isinstance(given, _TensorLike) and t.dtype.name == "bool":
        value = bool(value)
    return convert_to_tensor(value, dtype=t.dtype)


def _main_diagonal_only(k, more):
    if not (isinstance(k, int) and k == 0) or more:
        raise NotImplementedError(
            "minitape's tf.linalg.diag and diag_part take the main diagonal only (k=0, with "
            "the default num_rows, num_cols, padding_value and align)"
        )


def matrix_diag(
    diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"
):
    """The square matrices (a batch of them) with `diagonal` on their main diagonal."""
    _main_diagonal_only(k, num_rows != -1 or num_cols != -1 or padding_value != 0)
    v = read(diagonal)
    _padding_value(diagonal, v, padding_value)
    if v._value.ndim < 1:
        raise invalid(
            "MatrixDiagV3",
            f"diagonal must be at least 1-dim, received shape: {_dims(v._value.shape)}",
        )
    n = v._value.shape[-1]
    return apply(MatrixDiag, v, rows=n, cols=n)


def matrix_diag_part(input, name="diag_part", k=0, padding_value=0, align="RIGHT_LEFT"):  # noqa: A002
    """The main diagonal of each matrix of `input` (its last two axes)."""
    _main_diagonal_only(k, padding_value != 0)
    x = read(input)
    _padding_value(input, x, padding_value)
    if x._value.ndim < 2:
        raise invalid(
            "MatrixDiagPartV3",
            f"input must be at least 2-dim, received shape: {_dims(x._value.shape)}",
        )
    return apply(MatrixDiagPart, x)
