"""Python's `float`, `int`, `range` and `len` as AutoGraph replaces them in the code it
converts (TF's `autograph/operators/py_builtins.py`): on a tensor, `float(x)` and `int(x)` are
casts and `range(n)` is `tf.range`, computed by the graph on every call, and `len(x)` is the
length TF knows of its first dimension; on anything else, Python's own. The converted code
calls them as `ag__.float_`, ... (`autograph.py`)."""

from .creation_ops import range as tf_range
from .dtypes import float32, int32
from .math_ops import cast, maximum
from .tensor import Tensor, Variable, constant

__all__ = ["float_", "int_", "range_", "len_"]

_UNSPECIFIED = object()


def float_(x=0):
    """`float(x)`: on a tensor, TF's cast to float32 (a tensor the graph computes, where
    Python's float would take the traced value once)."""
    if isinstance(x, (Tensor, Variable)):
        return cast(x, float32)
    return float(x)


def int_(x=0, base=_UNSPECIFIED):
    """`int(x)`: on a tensor, TF's cast to int32."""
    if isinstance(x, (Tensor, Variable)):
        if base not in (10, _UNSPECIFIED):
            raise NotImplementedError(f"base {base} not supported for int")
        return cast(x, int32)
    return int(x) if base is _UNSPECIFIED else int(x, base)


def range_(start_or_stop, stop=_UNSPECIFIED, step=_UNSPECIFIED):
    """`range(...)`: with a tensor among its arguments, `tf.range` (empty rather than an error
    where Python's range would be empty, as TF's rewrite makes it)."""
    args = [a for a in (start_or_stop, stop, step) if a is not _UNSPECIFIED]
    if not any(isinstance(a, (Tensor, Variable)) for a in args):
        return range(*args)
    if step is not _UNSPECIFIED:
        return tf_range(start_or_stop, stop, step)
    if stop is not _UNSPECIFIED:
        return tf_range(start_or_stop, maximum(start_or_stop, stop))
    return tf_range(maximum(start_or_stop, 0))


def len_(s):
    """`len(s)`: of a tensor, its first dimension (a number: minitape knows every shape, as TF
    does when it is static), and TF's ValueError for a scalar; of anything else, Python's."""
    if not isinstance(s, (Tensor, Variable)):
        return len(s)
    shape = s._read_value().shape
    if not shape:
        raise ValueError(
            f"len requires a non-scalar tensor, got one of shape {constant(shape, int32)}"
        )
    return shape[0]
