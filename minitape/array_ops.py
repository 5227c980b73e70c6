"""Array operations a first classifier needs: gather, one_hot, tile, repeat, split, sort,
einsum (and `tf.nn.embedding_lookup`, a gather).

As in `ops.py`: each primitive is an `Op` (named as TF names it, with a numpy forward), and
the public function checks and converts its arguments the way TF 2.21 does, then calls
`apply`. Their gradient rules are rows of the one table in `grads.py`. Several functions are
built from other ops instead, as TF builds them: `repeat` is a gather with repeated indices,
`split` takes slices, `sort` gathers with `argsort`'s indices, so they need no rule of their
own.
"""

import builtins
import math
import string

import numpy as np

from . import dtypes as _dt
from .errors import invalid
from .ops import (
    _attribute_value,
    _dims,
    _int32_input,
    _int_arg,
    _int_values,
    _make_int,
    _mixes_bools,
    _op,
    transpose,
)
from .tape import apply
from .tensor import Tensor, _TensorLike, convert_to_tensor, read, tf_type_name

__all__ = [
    "gather",
    "embedding_lookup",
    "one_hot",
    "tile",
    "repeat",
    "split",
    "sort",
    "argsort",
    "argmax",
    "argmin",
    "einsum",
    "slice_",
    "pad",
    "matrix_diag",
    "matrix_diag_part",
]

_INDEX_KINDS = "iu"


def _int_tensor(x, op_name, attr, allowed="int16, int32, int64", empty_is_int=True):
    """An index argument as an integer tensor (TF: any other dtype is refused by the op). An
    empty list is float32 data to TF's conversion: some ops take it as no integers, others
    (`empty_is_int=False`: gather) refuse it."""
    if isinstance(x, (list, tuple)) and not x and empty_is_int:
        x = np.zeros(0, np.int32)  # (an empty list: no multiples, no indices)
    hint = _dt.int32 if empty_is_int else None  # (gather converts its indices with no hint)
    if isinstance(x, (list, tuple)) and _mixes_bools(x):
        hint = None  # ([True, 1]: refused, as TF's op converts it with no dtype to go by)
    t = read(x) if isinstance(x, _TensorLike) else convert_to_tensor(x, dtype_hint=hint)
    if t._value.dtype.kind not in _INDEX_KINDS:
        raise invalid(
            op_name,
            f"Value for attr '{attr}' of {tf_type_name(t._value.dtype)} is "
            f"not in the list of allowed values: {allowed}",
        )
    return t


# --- gather ---------------------------------------------------------------------------------
def _gather_parts(shape, ishape, axis, batch_dims):
    """(batch size, elements before the axis, elements after it, index count per batch)."""
    bsize = math.prod(shape[:batch_dims])
    return (
        bsize,
        math.prod(shape[batch_dims:axis]),
        math.prod(shape[axis + 1 :]),
        math.prod(ishape[batch_dims:]),
    )


def _gather(params, indices, axis, batch_dims):
    """params[..., indices, ...] along `axis`, batch by batch over the first `batch_dims`
    axes: one numpy fancy-indexing on a (batch, before, axis, after) view."""
    shape, ishape = params.shape, indices.shape
    b, p, q, k = _gather_parts(shape, ishape, axis, batch_dims)
    view = params.reshape(b, p, shape[axis], q)
    picked = view[np.arange(b)[:, None], :, indices.reshape(b, k)]  # (b, k, p, q)
    out_shape = shape[:axis] + ishape[batch_dims:] + shape[axis + 1 :]
    return picked.transpose(0, 2, 1, 3).reshape(out_shape)


def _gather_grad(g, indices, shape, axis, batch_dims):
    """The VJP of gather: each slice of g is added back where it was taken from (slices
    taken twice get both). TF's gradient is an IndexedSlices; this is its dense value."""
    ishape = indices.shape
    b, p, q, k = _gather_parts(shape, ishape, axis, batch_dims)
    out = np.zeros((b, p, shape[axis], q), dtype=g.dtype)
    parts = g.reshape(b, p, k, q).transpose(0, 2, 1, 3)  # (b, k, p, q)
    np.add.at(out, (np.arange(b)[:, None], slice(None), indices.reshape(b, k)), parts)
    return out.reshape(shape)


Gather = _op("GatherV2", _gather)
GatherGrad = _op("GatherGrad", _gather_grad)  # itself differentiable: its VJP is a gather


def _index_error(op_name, indices, bound):
    bad = np.argwhere((indices < 0) | (indices >= bound))[0]
    where = ",".join(map(str, bad))
    value = indices[tuple(bad)]
    return invalid(op_name, f"indices[{where}] = {value} is not in [0, {bound})")


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """Slices of `params` along `axis` at `indices` (any shape): the result's shape is
    `params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis+1:]`. With
    `batch_dims=b`, the first b axes of params and indices are batch axes gathered
    pairwise. Out-of-range indices raise, as TF's CPU kernel does."""
    p = read(params)
    i = _int_tensor(indices, "GatherV2", "Tindices", empty_is_int=False)
    pnd, ind = p._value.ndim, i._value.ndim
    if axis is None:
        axis = batch_dims
    # As TF's: an axis of 0 gathers without batch dimensions (batch_dims is not looked at);
    # otherwise batch_dims is an int attribute of the op and the axis one of its inputs.
    if (axis._read_value() if isinstance(axis, _TensorLike) else axis) != 0:
        b = _make_int(batch_dims, "batch_dims")
    else:
        b = 0
    a = _int_arg(
        axis,
        "axis",
        lambda m: invalid("GatherV2", m),
        "Taxis",
        lambda v: invalid("GatherV2", f"axis must be scalar, but got shape {_dims(v.shape)}"),
    )
    if b < 0:
        b += ind
    if a < 0:
        a += pnd
    if not 0 <= b <= ind:
        raise invalid(
            "GatherV2", f"Expected batch_dims in the range [{-ind}, {ind}], but got {batch_dims}"
        )
    if not b <= a < pnd:
        if a >= pnd or a < 0:
            raise invalid("GatherV2", f"Shape must be at least rank {a + 1} but is rank {pnd}")
        raise invalid("GatherV2", f"batch_dims ({b}) must be less than or equal to axis ({a}).")
    if p._value.shape[:b] != i._value.shape[:b]:
        raise invalid(
            "GatherV2",
            f"params.shape[:{b}] {list(p._value.shape[:b])} must equal "
            f"indices.shape[:{b}] {list(i._value.shape[:b])}",
        )
    n = p._value.shape[a]
    iv = i._value
    if iv.size and (iv.min() < 0 or iv.max() >= n):
        raise _index_error("GatherV2", iv, n)
    return apply(Gather, p, i, axis=a, batch_dims=b)


def embedding_lookup(params, ids, max_norm=None, name=None):
    """Rows of the embedding table `params` at `ids` (a gather along axis 0). A list of
    tables is one table cut in consecutive pieces (TF 2's "div" strategy: the first table
    holds the first ids). With `max_norm`, each row found is scaled down to that L2 norm if
    it is longer. Only a Python list is read as pieces: anything else, a tuple included, is one
    table (as TF reads it)."""
    if isinstance(params, list):
        from .ops import concat

        tables = [read(t) for t in params]
        table = tables[0] if len(tables) == 1 else concat(tables, axis=0)
    else:
        table = read(params)
    rows = gather(table, ids)
    if max_norm is None:
        return rows
    from .clip_ops import clip_by_norm

    axes = list(builtins.range(read(ids)._value.ndim, rows._value.ndim))
    return clip_by_norm(rows, max_norm, axes=axes)


# --- one_hot --------------------------------------------------------------------------------
def _one_hot(indices, on, off, depth, axis):
    hot = indices[..., None] == np.arange(depth)  # out of [0, depth): a row of off
    out = np.where(hot, on, off).astype(np.result_type(on))
    return out if axis == -1 else np.moveaxis(out, -1, axis)


OneHot = _op("OneHot", _one_hot)


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """`on_value` at each index along a new axis of size `depth`, `off_value` elsewhere
    (1 and 0 by default, in float32 unless on_value, off_value or dtype say otherwise).
    An index outside [0, depth) gives a row of off_value. No gradient, as in TF."""
    i = _int_tensor(indices, "OneHot", "TI", "uint8, int8, int32, int64")
    axis = -1 if axis is None else _make_int(axis, "axis")  # (an int attribute of OneHot)
    depth = _int32_input(depth, "OneHot", 1)  # (an int32 input of OneHot)
    if depth.ndim:
        raise invalid("OneHot", f"depth must be a scalar, but got: {_dims(depth.shape)}")
    depth = int(depth)
    want = None if dtype is None else _dt.as_dtype(dtype)
    values = {}
    for key, v in (("on_value", on_value), ("off_value", off_value)):
        if v is not None:
            values[key] = convert_to_tensor(v, dtype_hint=want)
    for key, t in values.items():
        if want is not None and t.dtype != want:
            raise TypeError(f"dtype {t.dtype!r} of {key} does not match dtype parameter {want!r}")
    if want is None:
        want = next(iter(values.values())).dtype if values else _dt.float32
    on = values["on_value"] if "on_value" in values else convert_to_tensor(1, dtype=want)
    off = values["off_value"] if "off_value" in values else convert_to_tensor(0, dtype=want)
    if isinstance(dtype, np.ndarray) and not values:
        bool(dtype != dtype)  # (TF then compares on_value's dtype with off_value's: both are
        # the array, whose truth numpy refuses unless it holds one value)
    if on.dtype != off.dtype:
        raise TypeError(
            f"dtype {on.dtype!r} of on_value does not match dtype {off.dtype!r} of off_value"
        )
    if depth < 0:
        raise invalid("OneHot", f"depth must be non-negative, got: {depth}")
    nd = i._value.ndim + 1
    if axis != -1 and not 0 <= axis < nd:
        raise invalid(
            "OneHot", f"Expected axis to be -1 or between [0, {nd}).  But received: {axis}"
        )
    return apply(OneHot, i, on, off, depth=depth, axis=axis)


# --- tile and repeat ------------------------------------------------------------------------
Tile = _op("Tile", lambda x, multiples: np.tile(x, multiples))


def tile(input, multiples, name=None):  # noqa: A002
    """`input` repeated `multiples[k]` times along each axis k ([1, 2, 3] tiled [2] is
    [1, 2, 3, 1, 2, 3])."""
    t = read(input)
    m = _int_tensor(multiples, "Tile", "Tmultiples", "int32, int64")._value.reshape(-1).tolist()
    nd = t._value.ndim
    if len(m) != nd:
        raise invalid(
            "Tile",
            f"Expected multiples argument to be a vector of length {nd} but got length {len(m)}",
        )
    for k, v in enumerate(m):
        if v < 0:
            raise invalid("Tile", f"Expected multiples[{k}] >= 0, but got {v}")
    return apply(Tile, t, multiples=tuple(m))


def repeat(input, repeats, axis=None, name=None):  # noqa: A002
    """Each element (or slice along `axis`) repeated `repeats` times, in place
    ([1, 2] -> [1, 1, 2, 2]); `repeats` may give one count per slice. Without an axis the
    input is flattened first. A gather with repeated indices, so its gradient adds up the
    copies."""
    from .ops import reshape

    t = read(input)
    if isinstance(axis, _TensorLike):
        raise TypeError(
            f"Argument `axis` must be an int. Received `axis` = {axis.numpy()} of type EagerTensor"
        )
    if t._value.ndim == 0 and axis is not None:
        t = reshape(t, [1])  # (a scalar repeats as a vector of one, as in TF)
    # Python or numpy counts are made int32 where they can be (numpy floats truncate, as TF
    # casts them; a Python float stays a float, and is refused below)
    r = (
        read(repeats)
        if isinstance(repeats, _TensorLike)
        else convert_to_tensor(repeats, dtype_hint=_dt.int32)
    )
    if r._value.dtype.kind not in _INDEX_KINDS:
        raise TypeError(
            f"Argument `tensor` (name: repeats) must be of type integer. Received "
            f"`tensor` = {repeats!r} of dtype: {r.dtype!r}"
        )
    if r._value.ndim > 1:
        raise ValueError(f"Shape {tuple(r._value.shape)} must have rank at most 1")
    if axis is None:
        t, axis = reshape(t, [-1]), 0
    nd = t._value.ndim
    if not -nd <= axis < nd:
        raise ValueError(f"axis={axis} out of bounds: expected {-nd}<=axis<{nd}")
    axis %= nd
    n = t._value.shape[axis]
    counts = r._value.reshape(-1)
    if counts.size not in (1, n):
        raise ValueError(f"Dimensions {n} and {counts.size} are not compatible")
    index = np.repeat(np.arange(n, dtype=np.int64), np.maximum(counts, 0))
    return gather(t, index, axis=axis)


# --- split ----------------------------------------------------------------------------------
def split(value, num_or_size_splits, axis=0, num=None, name=None):
    """`value` cut along `axis` into `num_or_size_splits` equal pieces, or into pieces of the
    given sizes (one of them may be -1: the rest). Slices, so each piece's gradient goes
    back to its own place."""
    sizes = num_or_size_splits
    if isinstance(sizes, (int, np.integer)):  # (TF: a count; else sizes, as a tensor)
        op_name = "Split"
        sizes = _make_int(sizes, "num_split")
    else:
        op_name = "SplitV"
        sizes = convert_to_tensor(sizes)._value
        if sizes.ndim == 0:
            raise ValueError(
                "Rank-0 tensors are not supported as the num_or_size_splits argument "
                f"to split. Argument provided: {num_or_size_splits}"
            )
        if sizes.dtype.name not in ("int8", "int32", "int64"):
            raise invalid(
                "SplitV",
                f"Value for attr 'Tlen' of {tf_type_name(sizes.dtype)} is not in the list of "
                "allowed values: int8, int32, int64",
            )
    # (the axis is an int32 input of the op: #0 of Split, #2 of SplitV)
    axis = _int32_input(axis, op_name, 0 if op_name == "Split" else 2)
    t = read(value)
    nd = t._value.ndim
    if axis.ndim:
        raise invalid(op_name, f"split_dim must be a scalar but has rank {axis.ndim}")
    axis = int(axis)
    if not -nd <= axis < nd:
        raise invalid(
            op_name, f"-input rank(-{nd}) <= split_dim < input rank ({nd}), but got {axis}"
        )
    axis %= nd
    total = t._value.shape[axis]
    if op_name == "Split":
        count = int(sizes)
        if count < 1:
            raise invalid(
                "Split", f"Value for attr 'num_split' of {count} must be at least minimum 1"
            )
        if total % count:
            raise invalid(
                "Split",
                f"Number of ways to split should evenly divide the split "
                f"dimension, but got split_dim {axis} (size = {total}) and "
                f"num_split {count}",
            )
        sizes = [total // count] * count
    else:
        sizes = sizes.reshape(-1).tolist()
        if sizes.count(-1) > 1:
            raise invalid("SplitV", "There can only be one -1 in the input.")
        known = sum(s for s in sizes if s != -1)
        if -1 in sizes and known <= total:
            sizes[sizes.index(-1)] = total - known
        elif known != total or any(s < 0 for s in sizes):
            raise invalid(
                "SplitV",
                "Determined shape must either match input shape along "
                "split_dim exactly if fully specified, or be less than the "
                "size of the input along split_dim if not fully specified.  "
                f"Got: {known}",
            )
    pieces, start = [], 0
    for s in sizes:
        pieces.append(t[(slice(None),) * axis + (slice(start, start + s),)])
        start += s
    return pieces


# --- sort -----------------------------------------------------------------------------------
_DIRECTIONS = ("ASCENDING", "DESCENDING")


def _argsort(x, axis, descending):
    """Stable order (ties keep their order); NaN last in both directions, as TF."""
    return np.argsort(-x if descending else x, axis=axis, kind="stable").astype(np.int32)


ArgSort = _op("ArgSort", _argsort)  # (TF: TopKV2's indices) integer result: no gradient


def _sort_args(values, axis, direction, op_name):
    if direction not in _DIRECTIONS:
        raise ValueError(
            f"Argument `direction` should be one of {', '.join(_DIRECTIONS)}. "
            f"Received: direction={direction}"
        )
    # (TF: a constant scalar, converted first)
    axis_value = _attribute_value(convert_to_tensor(axis))
    if axis_value.ndim:
        raise ValueError(f"Argument `axis` must be a constant scalar. Received: axis={axis_value}.")
    axis = int(axis_value)
    t = read(values)
    nd = t._value.ndim
    if not -nd <= axis < nd:
        raise invalid("StridedSlice", f"slice index {axis} of dimension 0 out of bounds.")
    if t._value.dtype.kind == "b":
        raise invalid(
            "Neg",
            "Value for attr 'T' of bool is not in the list of allowed values: "
            "bfloat16, half, float, double, int8, int16, int32, int64, "
            "complex64, complex128",
        )
    return t, axis % nd


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """The int32 indices that sort `values` along `axis` (stable: ties keep their order)."""
    t, axis = _sort_args(values, axis, direction, "ArgSort")
    return apply(ArgSort, t, axis=axis, descending=direction == "DESCENDING")


def sort(values, axis=-1, direction="ASCENDING", name=None):
    """`values` sorted along `axis`; differentiable (each gradient goes back to the element
    that was moved there), as TF's sort, which is a top_k."""
    t, axis = _sort_args(values, axis, direction, "Sort")
    order = apply(ArgSort, t, axis=axis, descending=direction == "DESCENDING")
    nd = t._value.ndim
    if axis == nd - 1:
        return gather(t, order, axis=axis, batch_dims=axis)
    perm = list(builtins.range(nd))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    moved = gather(transpose(t, perm), transpose(order, perm), axis=nd - 1, batch_dims=nd - 1)
    return transpose(moved, perm)


# --- argmax and argmin ----------------------------------------------------------------------
def _arg_extreme(pick, nan_as):
    """np.argmax/argmin, but NaN never wins (TF's kernel keeps the first strict extreme; NaN
    compares false), and the index is the first of tied extremes."""

    def forward(x, axis, dtype):
        if x.dtype.kind == "f":
            x = np.where(np.isnan(x), nan_as, x)
        return pick(x, axis=axis).astype(dtype)

    return forward


ArgMax = _op("ArgMax", _arg_extreme(np.argmax, -np.inf))
ArgMin = _op("ArgMin", _arg_extreme(np.argmin, np.inf))
_ARG_TYPES = {"int16", "uint16", "int32", "int64"}


def _arg(op, input, axis, output_type):  # noqa: A002
    t = read(input)
    nd = t._value.ndim
    if axis is None:
        axis = 0
    if op is ArgMax:  # (TF's argmax checks its axis in Python first; argmin does not)
        if hasattr(axis, "dtype"):
            name = axis.dtype.name if isinstance(axis, _TensorLike) else None
            if name not in ("int8", "uint8", "int16", "uint16", "int32", "int64"):
                name = name or np.dtype(axis.dtype).name  # (numpy's dtypes are not TF's)
                raise TypeError(f"axis tensor dtypes {name} is not supported")
        elif not isinstance(axis, int):
            raise TypeError("axis must be int or Tensor with integer datatype")
    if t._value.dtype.kind not in "fiub":  # (no complex or string kernel)
        raise invalid(
            op.name,
            f"Value for attr 'T' of {tf_type_name(t._value.dtype)} is not in the list of "
            "allowed values: float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, "
            "half, uint32, uint64, qint8, quint8, qint32, qint16, quint16, bool",
        )
    axis = _int_arg(
        axis,
        "axis",
        lambda m: invalid(op.name, m),
        "Tidx",
        lambda v: invalid(
            op.name, f"dim must be a scalar, but received tensor of shape: {_dims(v.shape)}"
        ),
    )
    if not -nd <= axis < builtins.max(nd, 0) or nd == 0:
        raise invalid(op.name, f"Expected dimension in the range [{-nd}, {nd}), but got {axis}")
    out = _dt.as_dtype(output_type)
    if out.name not in _ARG_TYPES:
        raise invalid(
            op.name,
            f"Value for attr 'output_type' of {tf_type_name(out._np)} is not "
            "in the list of allowed values: int16, uint16, int32, int64",
        )
    if t._value.shape[axis] == 0:
        raise invalid(
            op.name, f"Reduction axis {axis % nd} is empty in shape {list(t._value.shape)}"
        )
    return apply(op, t, axis=axis % nd, dtype=out._np)


def argmax(input, axis=None, output_type=_dt.int64, name=None):  # noqa: A002
    """The index of the largest value along `axis` (0 by default): the first one of ties,
    and NaN is never the largest."""
    return _arg(ArgMax, input, axis, output_type)


def argmin(input, axis=None, output_type=_dt.int64, name=None):  # noqa: A002
    """The index of the smallest value along `axis` (0 by default), as `argmax`."""
    return _arg(ArgMin, input, axis, output_type)


# --- einsum ---------------------------------------------------------------------------------
Einsum = _op("Einsum", lambda *xs, equation: np.einsum(equation, *xs))


def _parse_equation(equation, shapes):
    """The equation with explicit output and every '...' spelled out as letters."""
    eq = equation.replace(" ", "")
    if "->" in eq:
        lhs, out = eq.split("->")
    else:
        lhs, out = eq, None
    subs = lhs.split(",")
    if len(subs) != len(shapes):
        raise ValueError(
            f"Expected {len(subs)} input tensors from equation {equation!r}, got {len(shapes)}"
        )
    free = [c for c in string.ascii_letters if c not in eq]
    ell = ""
    if "..." in eq:
        n = builtins.max(len(s) - (len(sub) - 3) for s, sub in zip(shapes, subs) if "..." in sub)
        ell = "".join(free[:n])
        subs = [
            sub.replace("...", ell[n - (len(s) - (len(sub) - 3)) :]) for sub, s in zip(subs, shapes)
        ]
    for sub, s in zip(subs, shapes):
        if len(sub) != len(s):
            raise invalid(
                "Einsum",
                f"Input tensor with shape {list(s)} has {len(sub)} subscripts "
                f"({sub!r}) in einsum equation {equation!r}",
            )
    if out is None:  # implicit output: each letter used once, in order
        counts = {c: "".join(subs).count(c) for c in "".join(subs)}
        out = ell + "".join(sorted(c for c, k in counts.items() if k == 1 and c not in ell))
    else:
        out = out.replace("...", ell)
    sizes = {}
    for sub, s in zip(subs, shapes):
        for c, d in zip(sub, s):
            if sizes.setdefault(c, d) != d and d != 1 and sizes[c] != 1:
                raise invalid(
                    "Einsum",
                    f"Expected dimension {sizes[c]} at axis "
                    f"{sub.index(c)} of the input shaped {list(s)} but got "
                    f"dimension {d}",
                )
    for c in out:
        if c not in sizes:
            raise ValueError(
                f"einsum output subscript {c!r} does not appear in the inputs of {equation!r}"
            )
    return ",".join(subs) + "->" + out


def einsum(equation, *inputs, **kwargs):
    """Sums of products named by subscripts: 'ij,jk->ik' (matmul), 'bij,bjk->bik' (batched),
    'ij->ji', 'ij->i', 'i,j->ij' (outer), 'i,i->' (dot), '...ij,jk->...ik'. The gradient of
    each operand is another einsum of the output's gradient with the other operands."""
    ts = [read(x) for x in inputs]
    if not ts:
        raise ValueError("einsum needs at least one input tensor.")
    from .ops import _same_dtype

    ts = _same_dtype(ts, "Einsum")
    eq = _parse_equation(equation, [t._value.shape for t in ts])
    return apply(Einsum, *ts, equation=eq)


# --- slice ------------------------------------------------------------------------------------
def slice_(input_, begin, size, name=None):  # (tf.slice: `slice` is Python's, used here)
    """`size[k]` elements from `begin[k]` along each axis k (-1: to the end), as TF's Slice.
    Taken with the indexing op, whose gradient puts g back where the slice came from."""
    t = read(input_)
    # (begin and size share one dtype, as TF's op converts them: Python data takes a tensor's
    # dtype, begin's if both are Python data or a variable; two tensors meet at the kernel)
    if type(size) is Tensor and not isinstance(begin, _TensorLike):
        begin = convert_to_tensor(begin, dtype=size.dtype)
    b = _int_tensor(begin, "Slice", "Index", "int32, int64", empty_is_int=False)
    if not (isinstance(begin, _TensorLike) and isinstance(size, _TensorLike)):
        size = convert_to_tensor(size, dtype=b.dtype)
    n = _int_tensor(size, "Slice", "Index", "int32, int64", empty_is_int=False)
    if b._value.dtype != n._value.dtype:
        raise invalid(
            "Slice",
            f"cannot compute Slice as input #2(zero-based) was expected to be a "
            f"{tf_type_name(b._value.dtype)} tensor but is a {tf_type_name(n._value.dtype)} tensor",
        )
    shape, nd = t._value.shape, t._value.ndim
    if b._value.shape != (nd,) or n._value.shape != (nd,):
        raise invalid(
            "Slice",
            f"Expected begin and size arguments to be 1-D tensors of size {nd}, but got shapes "
            f"{_dims(b._value.shape)} and {_dims(n._value.shape)} instead.",
        )
    key = []
    for k, (start, length, dim) in enumerate(zip(b._value.tolist(), n._value.tolist(), shape)):
        if not 0 <= start <= dim:
            raise invalid("Slice", f"Expected begin[{k}] in [0, {dim}], but got {start}")
        length = dim - start if length == -1 else length
        if not 0 <= length <= dim - start:
            raise invalid("Slice", f"Expected size[{k}] in [0, {dim - start}], but got {length}")
        key.append(slice(start, start + length))
    return t[tuple(key)]


# --- pad --------------------------------------------------------------------------------------
def _mirror_index(shape, paddings, mode):
    """For each element of the padded array, the flat index of the element of x it copies."""
    index = np.arange(math.prod(shape)).reshape(shape)
    return np.pad(index, paddings, mode="reflect" if mode == "REFLECT" else "symmetric")


def _mirror_pad_grad(g, paddings, mode, shape):
    """The gradient of MirrorPad: each element of g added to the element of x it copies."""
    out = np.zeros(math.prod(shape), g.dtype)
    np.add.at(out, _mirror_index(shape, paddings, mode).reshape(-1), g.reshape(-1))
    return out.reshape(shape)


Pad = _op(
    "Pad",
    lambda x, paddings, constant: np.pad(x, paddings, constant_values=constant).astype(x.dtype),
)
MirrorPad = _op(
    "MirrorPad",
    lambda x, paddings, mode: x.reshape(-1)[_mirror_index(x.shape, paddings, mode)],
)
MirrorPadGrad = _op("MirrorPadGrad", _mirror_pad_grad)  # (the transpose of MirrorPad)
_PAD_MODES = ("CONSTANT", "REFLECT", "SYMMETRIC")


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    """`tensor` with `paddings[k] = [before, after]` elements added on each side of axis k:
    `constant_values` ("CONSTANT"), or a mirror of the edge, without it ("REFLECT") or with it
    ("SYMMETRIC")."""
    upper = mode.upper() if isinstance(mode, str) else mode
    if upper not in _PAD_MODES:
        raise ValueError(
            'Value of argument `mode` expected to be one of "CONSTANT", "REFLECT", or '
            f'"SYMMETRIC". Received `mode` = {mode}'
        )
    t = read(tensor)
    op_name = "Pad" if upper == "CONSTANT" else "MirrorPad"
    p = _int_values(paddings, "paddings", lambda m: invalid(op_name, m), "Tpaddings")
    shape = t._value.shape
    if p.ndim != 2 or p.shape != (len(shape), 2):
        raise invalid(
            op_name,
            f"The first dimension of paddings must be the rank of inputs{_dims(p.shape)} "
            f"{_dims(shape)}",
        )
    pairs = tuple((int(a), int(b)) for a, b in p.tolist())
    for a, b in pairs:
        if a < 0 or b < 0:
            raise invalid(op_name, f"Paddings must be non-negative: {a} {b}")
    if upper == "CONSTANT":
        c = convert_to_tensor(constant_values, dtype=t.dtype)._value
        return apply(Pad, t, paddings=pairs, constant=c)
    for (a, b), dim in zip(pairs, shape):
        if upper == "REFLECT" and (a >= dim or b >= dim):
            raise invalid(
                op_name,
                f"paddings must be less than the dimension size: {a}, {b} not less than {dim}",
            )
        if upper == "SYMMETRIC" and (a > dim or b > dim):
            raise invalid(
                op_name,
                f"paddings must be no greater than the dimension size: {a}, {b} greater than {dim}",
            )
    return apply(MirrorPad, t, paddings=pairs, mode=upper)


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
