"""Creating tensors: zeros, ones, fill, linspace, range, eye, and a tensor's shape, size
and rank, as TF's array_ops and math_ops make them."""

import builtins
import math

import numpy as np

from . import dtypes as _dt
from .array_ops import _expand_axis
from .context import STATE
from .errors import InvalidArgumentError, NotFoundError, invalid
from .gen_ops import Fill, LinSpace
from .math_ops import cast
from .op_args import (
    _REALS,
    _attribute_value,
    _deeper_than_numpy,
    _int_arg,
    _new_shape,
    _refuse,
    _shape_arg,
)
from .tape import Op, apply
from .tensor import (
    Tensor,
    _leaves,
    _TensorLike,
    convert_to_tensor,
    nest_shape,
    read,
    tf_type_name,
)


# --- creating tensors ---------------------------------------------------------------------
def zeros(shape, dtype=_dt.float32, name=None):
    npd = _dt.as_dtype(dtype)._np
    return Tensor(_strings_or(np.zeros(_new_shape(shape, "Fill"), dtype=npd)))


def ones(shape, dtype=_dt.float32, name=None):
    npd = _dt.as_dtype(dtype)._np
    if npd.kind == "O":  # (TF converts its 1 to the dtype)
        raise TypeError("Cannot convert 1 to EagerTensor of dtype string")
    return Tensor(np.ones(_new_shape(shape, "Fill"), dtype=npd))


def _strings_or(arr):
    """A new numpy array of zeros, or for a string dtype of empty strings (TF's zero)."""
    if arr.dtype.kind == "O":
        arr[...] = b""
    return arr


def zeros_like(input, dtype=None, name=None):  # noqa: A002
    v = read(input)._value
    if dtype is not None and not isinstance(dtype, _dt.DType):
        dtype = _like_dtype(dtype, v.dtype)
    npd = v.dtype if dtype is None else _dt.as_dtype(dtype)._np
    return Tensor(_strings_or(np.zeros(v.shape, dtype=npd)))


def ones_like(input, dtype=None, name=None):  # noqa: A002
    v = read(input)._value
    if dtype is not None and not isinstance(dtype, _dt.DType):
        dtype = _like_dtype(dtype, v.dtype)
    if v.dtype.kind == "O" and (dtype is None or _dt.as_dtype(dtype)._np == v.dtype):
        raise invalid(  # (the OnesLike op, which TF runs when the dtype stays)
            "OnesLike",
            "Value for attr 'T' of string is not in the list of allowed values: bfloat16, "
            "half, float, double, int8, uint8, int16, uint16, int32, uint32, int64, uint64, "
            "complex64, complex128, bool",
        )
    return ones(v.shape, v.dtype if dtype is None else dtype)


def _like_dtype(dtype, have):
    """zeros_like/ones_like's `dtype` when it is no DType, read as TF's Python code reads it:
    `if dtype != input.dtype` first. A tensor there is compared with the dtype by an op, which
    cannot convert a DType (ValueError); an array is compared element-wise, and the truth of
    that comparison is numpy's (ValueError unless it holds one element); anything else is
    read by as_dtype."""
    have = _dt.from_numpy(have)
    if isinstance(dtype, _TensorLike):
        raise ValueError(
            f"Attempt to convert a value ({have!r}) with an unsupported type "
            f"({type(have)}) to a Tensor."
        )
    if isinstance(dtype, np.ndarray):
        if dtype.size != 1:
            bool(np.empty(dtype.size))  # (numpy's ValueError, in numpy's words)
        try:
            same = _dt.as_dtype(dtype.reshape(-1)[0].item()) == have
        except TypeError:
            same = False
        return None if same else dtype
    return dtype


def fill(dims, value, name=None):
    v = read(value)._value
    if v.ndim != 0:
        raise invalid("Fill", f"value must be a scalar, got a tensor of shape {list(v.shape)}")
    # (dims is an input of Fill whose dtype is its attribute index_type: numpy data is cast)
    return apply(Fill, read(value), shape=_new_shape(dims, "Fill", by_fill=True))


def linspace(start, stop, num, name=None, axis=0):
    start = read(start)
    stop = convert_to_tensor(stop, dtype=start.dtype)
    if start._value.dtype.kind in "iu":  # integer ends: a float64 grid, as in TF
        start, stop = cast(start, _dt.float64), cast(stop, _dt.float64)
    if start._value.dtype.kind not in "fc":
        raise TypeError(f"linspace needs floating start/stop, got {start.dtype.name}")
    num = _int_arg(
        num,
        "num",
        lambda m: TypeError(
            f"Argument `tensor` (name: num) must be of type integer. Received `tensor` = {num}"
        ),
        not_scalar=lambda v: invalid("LinSpace", f"num must be a scalar: {list(v.shape)}"),
        by_op=False,
    )
    axis = _expand_axis(axis)
    nd = np.broadcast_shapes(start._value.shape, stop._value.shape).__len__() + 1
    if not -nd <= axis < nd:
        raise invalid("LinSpace", f"axis = {axis} not in range [{-nd}, {nd})")
    if num < 0:
        raise invalid("LinSpace", f"Requires num >= 0: {num}")
    return apply(LinSpace, start, stop, num=num, axis=axis % nd)


def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001
    if limit is None:
        start, limit = 0, start
    args = [read(v) for v in (start, limit, delta)]
    for what, a in zip(("start", "limit", "delta"), args):
        if a._value.ndim or a._value.dtype.kind not in "iuf":
            raise invalid("Range", f"{what} must be a scalar number, got {a!r}")
    if dtype is None:  # the widest of the arguments' dtypes, as TF infers it
        order = [np.int32, np.int64, np.float16, np.float32, np.float64]
        npd = builtins.max(
            (a._value.dtype for a in args), key=lambda d: order.index(d) if d in order else 0
        )
    else:
        npd = _dt.as_dtype(dtype)._np
        if npd.kind not in "iufc":  # (complex: Range refuses it, in _range_kernel)
            raise TypeError(
                f"Value passed to parameter 'start' has DataType "
                f"{_dt.from_numpy(npd).name} not in list of allowed values: "
                "bfloat16, half, float32, float64, int8, int16, int32, int64, uint16, "
                "uint32"
            )
    _range_kernel(npd)
    lo, hi, step = (a._read_value().item() for a in args)  # (traced, Range is a recorded op)
    if step == 0:
        raise invalid("Range", f"Requires delta != 0: {step}")
    if step > 0 and lo > hi:
        raise invalid("Range", f"Requires start <= limit when delta > 0: {lo}/{hi}")
    if step < 0 and lo < hi:
        raise invalid("Range", f"Requires start >= limit when delta < 0: {lo}/{hi}")
    if STATE.tracer is not None:  # in a traced function: an op (`tf.range(n)` of a traced n)
        return apply(_RANGE, *args, dtype=npd)
    return Tensor(np.arange(lo, hi, step).astype(npd))


_RANGE = Op(
    "Range", lambda start, limit, delta, dtype: np.arange(start, limit, delta).astype(dtype)
)


def _range_kernel(npd):
    """TF's Range takes most real dtypes, but has CPU kernels for float16/32/64, int32 and
    int64 only; uint8 and complex numbers it does not take at all."""
    if npd.name in ("float16", "float32", "float64", "int32", "int64"):
        return
    if npd.name in ("int8", "int16", "uint16", "uint32", "uint64"):
        raise NotFoundError(
            None,
            "Range",
            f"Could not find device for node: {{{{node Range}}}} = "
            f"Range[Tidx=DT_{npd.name.upper()}] (no CPU kernel) [Op:Range]",
        )
    raise invalid(
        "Range",
        f"Value for attr 'Tidx' of {tf_type_name(npd)} is not in the list of allowed values: "
        "bfloat16, half, float, double, int8, int16, int32, int64, uint16, uint32, uint64",
    )


def eye(num_rows, num_columns=None, batch_shape=None, dtype=_dt.float32, name=None):
    """The identity matrix (or a batch of them, shape batch_shape + [rows, columns])."""
    num_columns = num_rows if num_columns is None else num_columns
    if isinstance(num_rows, Tensor) or isinstance(num_columns, Tensor):
        # (TF: the diagonal's size is then an op, minimum(rows, columns), and is concatenated
        # to the batch shape as one value)
        sizes = [_attribute_value(read(n)) for n in (num_rows, num_columns)]
        for n in sizes:
            if n.dtype.kind not in _REALS:
                _refuse("Minimum", Tensor(n), _REALS)
            if n.ndim:
                raise invalid(
                    "ConcatV2",
                    "ConcatOp : Ranks of all input tensors should match: shape[0] = [0] vs. "
                    f"shape[1] = {list((1, *n.shape))}",
                )
        rows, cols = (int(n) for n in sizes)
    elif isinstance(num_rows, (int, np.integer)) and isinstance(num_columns, (int, np.integer)):
        rows, cols = int(num_rows), int(num_columns)
    else:
        raise TypeError(
            "Arguments `num_rows` and `num_columns` must be positive integer values. "
            f"Received: num_rows={num_rows}, num_columns={num_columns}"
        )
    if rows < 0 or cols < 0:
        raise invalid("MatrixDiagV3", f"num_rows and num_columns must be >= 0, got {rows}, {cols}")
    npd = _dt.as_dtype(dtype)._np
    if npd.kind == "O":
        raise TypeError("tf.eye has no string dtype")
    m = np.eye(rows, cols, dtype=npd)
    if batch_shape is not None:
        m = np.broadcast_to(m, _shape_arg(batch_shape) + m.shape).copy()
    return Tensor(m)


def shape(input, out_type=_dt.int32, name=None):  # noqa: A002
    # (TF's Python code takes any out_type that is false as unset: None, [], 0, an empty
    # tensor; an array's or a tensor's truth is numpy's, a ValueError unless it has one value)
    unset = out_type is None or not isinstance(out_type, _dt.DType) and not out_type
    out = _dt.int32 if unset else _dt.as_dtype(out_type)
    if out.name not in ("int32", "int64"):
        raise invalid(
            "Shape",
            f"Value for attr 'out_type' of {tf_type_name(out._np)} is not in the list of "
            "allowed values: int32, int64",
        )
    return Tensor(np.array(_shape_of(input), dtype=out._np))


def _shape_of(x):
    """The shape of `x` (read as a tensor); a Python nest deeper than numpy's 64 dimensions,
    which TF holds as a tensor, by its lengths."""
    try:
        return read(x)._value.shape
    except InvalidArgumentError:
        if not _deeper_than_numpy(x):
            raise
        read(list(_leaves(x)))  # (its values must convert)
        return tuple(nest_shape(x)[0])


def size(input, out_type=_dt.int32, name=None):  # noqa: A002
    n = math.prod(_shape_of(input))
    if type(out_type) is not _dt.DType:
        if out_type is not None:  # (TF's Python code reads out_type.as_numpy_dtype)
            raise TypeError(f"size's out_type must be a DType such as tf.int32, got {out_type!r}")
        out_type = _dt.int32
    if out_type._np.kind == "O":  # (TF converts the count to the dtype)
        raise TypeError(f"Cannot convert {n} to EagerTensor of dtype string")
    return Tensor(np.array(n, dtype=out_type._np))


def rank(input, name=None):  # noqa: A002
    return Tensor(np.int32(len(_shape_of(input))))
