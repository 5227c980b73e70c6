"""`tf.linalg`: matrix products and norms."""

import numpy as np

from .array_ops import einsum  # noqa: F401
from .clip_ops import global_norm  # noqa: F401
from .linalg_ops import matrix_diag as diag  # noqa: F401
from .linalg_ops import matrix_diag_part as diag_part  # noqa: F401
from .ops import expand_dims as _expand_dims
from .ops import eye, matmul, norm, transpose  # noqa: F401
from .ops import reduce_sum as _reduce_sum
from .ops import squeeze as _squeeze
from .tensor import convert_to_tensor as _convert


def matvec(a, b, transpose_a=False, name=None):
    """The matrix `a` (or a batch of them) times the vector `b`: as TF, `matmul` of `a` and `b`
    with a dimension of 1 appended, which is then squeezed away. Its gradient is matmul's."""
    a, b = _convert(a), _convert(b)
    if transpose_a is None:  # (as TF: None is False, anything else but a bool a TypeError)
        transpose_a = False
    elif not isinstance(transpose_a, (bool, np.bool_)):
        raise TypeError(f"Expected bool for argument 'transpose_a' not {transpose_a!r}.")
    return _squeeze(matmul(a, _expand_dims(b, -1), transpose_a=transpose_a), axis=-1)


def trace(x, name=None):
    """The sum of each matrix's main diagonal (of `x`'s last two axes), as TF computes it."""
    return _reduce_sum(diag_part(x), axis=-1)
