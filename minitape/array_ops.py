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
import re
import string

import numpy as np

from . import dtypes as _dt
from .context import STATE
from .errors import invalid
from .gen_ops import (
    BroadcastTo,
    Concat,
    ExpandDims,
    Identity,
    Pack,
    Reshape,
    Squeeze,
    StridedSlice,
    Transpose,
    _dims,
    _op,
    _reshape_check,
)
from .math_ops import cast, identity
from .op_args import (
    _attribute_value,
    _int32_input,
    _int_arg,
    _int_values,
    _make_int,
    _mixes_bools,
    _shape_arg,
    _single_value,
)
from .tape import apply
from .tensor import (
    Tensor,
    _leaves,
    _TensorLike,
    constant,
    convert_to_tensor,
    operand,
    read,
    register_packing,
    tf_type_name,
)

__all__ = [
    "transpose",
    "reshape",
    "expand_dims",
    "squeeze",
    "broadcast_to",
    "concat",
    "stack",
    "autopack",
    "unstack",
    "getitem",
    "gather",
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
]


# --- shapes ------------------------------------------------------------------
def transpose(a, perm=None, conjugate=False, name=None):
    a = read(a)
    n = a._value.ndim
    bad = lambda m: invalid("Transpose", m)  # noqa: E731
    perm = tuple(builtins.range(n))[::-1] if perm is None else _shape_arg(perm, bad, "perm")
    if sorted(perm) != list(builtins.range(n)):
        perm = _permutation(perm, n)
    return apply(Transpose, a, perm=perm)


def _permutation(perm, n):
    """Transpose's `perm` checked as TF's kernel checks it: n entries, a negative one counting
    from the end (once), each dimension once."""
    if len(perm) != n:
        raise invalid(
            "Transpose",
            f"transpose expects a vector of size {n}. But input(1) is a vector of size {len(perm)}",
        )
    perm = tuple(d + n if d < 0 else d for d in perm)
    for d in perm:
        if not 0 <= d < n:
            raise invalid("Transpose", f"{d} is out of range [0 .. {n})")
    for d in builtins.range(n):
        if d not in perm:
            raise invalid("Transpose", f"{d} is missing from {{{','.join(map(str, perm))}}}.")
    return perm


def reshape(tensor, shape, name=None):
    t = read(tensor)
    shape = _shape_arg(shape, lambda m: invalid("Reshape", m))
    for i, d in enumerate(shape):
        if d < -1:
            raise invalid("Reshape", f"Size {i} must be non-negative, not {d}")
    if -1 in shape:
        size, known = t._value.size, math.prod(s for s in shape if s != -1)
        if shape.count(-1) > 1 or known == 0 or size % known:
            _reshape_check(t._value, shape)
        shape = tuple(size // known if s == -1 else s for s in shape)
    if shape == t._value.shape:
        return apply(Identity, t) if STATE.tapes or STATE.tracer else t
    return apply(Reshape, t, shape=shape)


def _expand_axis(axis):
    """ExpandDims' axis (an op input of dtype attribute Tdim): one integer, of any rank."""
    if isinstance(axis, (list, tuple)):  # ([[0]] is one value, as TF reads it)
        axis = _int_values(axis, "axis", lambda m: invalid("ExpandDims", m), "Tdim")
    return _int_arg(
        _single_value(axis),
        "axis",
        lambda m: invalid("ExpandDims", m),
        "Tdim",
        lambda v: invalid("ExpandDims", "'dim' must be a tensor with a single value"),
    )


def expand_dims(input, axis, name=None):  # noqa: A002
    t = read(input)
    s = list(t._value.shape)
    n = len(s)
    axis = _expand_axis(axis)
    if not -n - 1 <= axis <= n:
        raise invalid(
            "ExpandDims", f"Tried to expand dim index {axis} for tensor with {n} dimensions."
        )
    s.insert(axis % (n + 1), 1)
    return apply(ExpandDims, t, shape=tuple(s))


def squeeze(input, axis=None, name=None):  # noqa: A002
    """`input` without its dimensions of size 1 (all of them, or those in `axis`). As TF's:
    a scalar axis is a list of one, the axis is a list attribute of the op (its entries
    are taken with int(): a float is truncated; a tensor or array is no list: TypeError)."""
    t = read(input)
    s = t._value.shape
    nd = len(s)
    if axis is None:
        new = tuple(d for d in s if d != 1)
    else:
        if np.isscalar(axis):
            axis = [axis]
        if not isinstance(axis, (list, tuple)):
            raise TypeError(f"Expected list for 'axis' argument to 'squeeze' Op, not {axis!r}.")
        axes = set()
        for a in (_make_int(a, "axis") for a in axis):
            if not -nd <= a < nd:
                raise invalid(
                    "Squeeze", f"Tried to squeeze dim index {a} for tensor with {nd} dimensions."
                )
            if s[a] != 1:
                raise invalid(
                    "Squeeze",
                    f"Can not squeeze dim[{a % nd}], expected a dimension of 1, got {s[a]}",
                )
            axes.add(a % nd)
        new = tuple(d for i, d in enumerate(s) if i not in axes)
    return apply(Squeeze, t, shape=new)


def broadcast_to(input, shape, name=None):  # noqa: A002
    t = read(input)
    shape = _shape_arg(shape, lambda m: invalid("BroadcastTo", m))
    if t._value.shape == shape:
        return t
    return apply(BroadcastTo, t, shape=shape)


def _same_dtype(values, op_name):
    if not values:
        raise ValueError(f"{op_name} needs at least one tensor.")
    first = next((v for v in values if isinstance(v, _TensorLike)), None)
    first = read(values[0]) if first is None else read(first)
    return [operand(v, first, op_name) for v in values]


def concat(values, axis, name=None):
    if not isinstance(values, (list, tuple)):
        values = [values]
    if not values:
        raise invalid(
            "ConcatV2",
            "ConcatOp : Expected a list of at least one tensor to concatenate, got an empty list",
        )
    axis = _int_arg(axis, "axis", lambda m: invalid("ConcatV2", m))
    if len(values) == 1:  # (TF: one tensor is returned as it is, whatever its rank)
        return identity(values[0])
    ts = _same_dtype(list(values), "ConcatV2")
    nd = ts[0]._value.ndim
    if nd == 0:
        raise invalid("ConcatV2", "ConcatOp : Can't concatenate scalars (use tf.stack instead)")
    if not -nd <= axis < nd:
        raise invalid(
            "ConcatV2",
            f"ConcatOp : Expected concatenating dimensions in the range "
            f"[{-nd}, {nd}), but got {axis}",
        )
    axis %= nd
    base = ts[0]._value.shape
    for i, t in enumerate(ts[1:], 1):
        s = t._value.shape
        if len(s) != nd:
            raise invalid(
                "ConcatV2",
                f"ConcatOp : Ranks of all input tensors should match: "
                f"shape[0] = {list(base)} vs. shape[{i}] = {list(s)}",
            )
        bad = [k for k, (a, b) in enumerate(zip(base, s)) if k != axis and a != b]
        if bad:
            raise invalid(
                "ConcatV2",
                f"ConcatOp : Dimension {bad[0]} in both shapes must be "
                f"equal: shape[0] = {list(base)} vs. shape[{i}] = {list(s)}",
            )
    return apply(Concat, *ts, axis=axis)


def stack(values, axis=0, name=None):
    if not isinstance(values, (list, tuple)) and axis == 0:
        return convert_to_tensor(values)  # (TF: a tensor or number is packed as it is)
    if not values:
        return Tensor(np.zeros(0, np.float32))  # (TF: an empty float32 vector)
    ts = _same_dtype(list(values), "Pack")
    base = ts[0]._value.shape
    nd = len(base) + 1
    if axis < -nd or axis >= nd:  # (TF compares in Python: a list is a TypeError)
        raise ValueError(f"Argument `axis` = {axis} not in range [{-nd}, {nd})")
    axis = _make_int(axis, "axis")
    for i, t in enumerate(ts[1:], 1):
        if t._value.shape != base:
            raise invalid(
                "Pack",
                f"Shapes of all inputs must match: values[0].shape = "
                f"{_dims(base)} != values[{i}].shape = {_dims(t._value.shape)}",
            )
    return apply(Pack, *ts, axis=axis % nd)


def autopack(value, dtype):
    """A list that holds tensors, packed by ops as TF's autopacking packs it: each level that
    holds a tensor is a Pack of its entries (tensors cast to `dtype`, other entries converted
    to it); a level without tensors is one constant. `convert_to_tensor` calls this, once it
    has checked the list, while a tape or a trace listens: the ops record, so gradients reach
    the tensors in the list."""
    if isinstance(value, (list, tuple)):
        if any(isinstance(v, _TensorLike) for v in _leaves(value)):
            return apply(Pack, *[autopack(v, dtype) for v in value], axis=0)
        return constant(value, dtype)
    if isinstance(value, _TensorLike):
        return cast(read(value), dtype)
    return constant(value, dtype)


register_packing(cast, autopack)  # (convert_to_tensor packs a list of tensors with them)


def unstack(value, num=None, axis=0, name=None):
    """The slices of `value` along `axis`, as a list (`num`, if given, must be their count).
    As TF's: without `num`, the axis is compared in Python first (a dict is a TypeError, an
    axis out of range a ValueError) and `num` read off the shape; both are then the op's int
    attributes (a float is truncated, a string refused with TypeError)."""
    t = read(value)
    shape = t._value.shape
    nd = len(shape)
    if num is None:
        if axis < -nd or axis >= nd:
            raise ValueError(f"Argument `axis` = {axis} not in range [{-nd}, {nd})")
        num = shape[axis]
    num, axis = _make_int(num, "num"), _make_int(axis, "axis")
    if not -nd <= axis < nd:
        raise invalid("Unpack", f"axis = {axis} not in range [{-nd}, {nd})")
    n = shape[axis]
    if num != n:
        raise invalid(
            "Unpack", f"Input shape axis {axis % nd} must equal {num}, got shape {_dims(shape)}"
        )
    return [t[(slice(None),) * (axis % nd) + (i,)] for i in builtins.range(n)]


def _index(part):
    """One part of an index, as TF takes it: an int, a slice, `...`, `None` (a new axis) or
    a scalar integer tensor."""
    if isinstance(part, (int, np.integer)) and not isinstance(part, (bool, np.bool_)):
        return int(part)
    if part is None or part is Ellipsis:
        return part
    if isinstance(part, slice):
        return slice(*(_index(b) for b in (part.start, part.stop, part.step)))
    if isinstance(part, _TensorLike):
        v = part._read_value()
        if v.ndim == 0 and v.dtype.kind in "iu":
            return int(v)
    raise TypeError(
        "Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and "
        f"scalar tf.int32/tf.int64 tensors are valid indices, got {part!r}"
    )


def _normalize_key(key):
    """`x[key]`'s key as numpy takes it. As in TF, a list is a tuple of indices (x[[0, 1]] is
    x[0, 1]), and a whole boolean tensor or array is a mask."""
    if isinstance(key, (_TensorLike, np.ndarray)) and np.asarray(key).dtype.kind == "b":
        return np.asarray(key)
    if isinstance(key, (list, tuple)):
        return tuple(_index(k) for k in key)
    return _index(key)


def getitem(tensor, key):
    """`x[key]`: indexing and slicing, differentiable (the gradient scatters back)."""
    t = tensor if type(tensor) is Tensor else read(tensor)
    key = _normalize_key(key)
    try:
        t._value[key]
    except IndexError as e:
        raise invalid("StridedSlice", _slice_error(str(e), t._value.ndim)) from None
    return apply(StridedSlice, t, key=key)


def _slice_error(numpy_message, ndim):
    """numpy's IndexError, in TF's words."""
    bad = re.match(r"index (-?\d+) is out of bounds for axis (\d+)", numpy_message)
    if bad:
        return f"slice index {bad[1]} of dimension {bad[2]} out of bounds."
    if numpy_message.startswith("too many indices"):
        return f"Index out of range using input dim {ndim}; input has only {ndim} dims"
    return numpy_message


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


def _gather_densely(t, indices, axis):
    """`gather(t, indices, axis=axis)` with a dense gradient, for the ops TF builds otherwise
    (sort from TopKV2, repeat from tile and a mask): a gather along axis 0 would give
    IndexedSlices, so this one gathers along axis 1 of `t` given a leading axis of length 1."""
    if axis != 0:
        return gather(t, indices, axis=axis)
    return squeeze(gather(expand_dims(t, 0), indices, axis=1), [0])


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
# The length of a tensor's first axis, as an int32 tensor: what a loop over a tensor runs
# over, in AutoGraph's `for` and in a traced loop (TF: Shape, then StridedSlice).
_LENGTH = _op("Length", lambda x: np.int32(np.shape(x)[0]))


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
    return _gather_densely(t, index, axis)


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
    if nd == 1:
        return _gather_densely(t, order, 0)
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
