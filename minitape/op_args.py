"""What the ops accept: their arguments converted and checked, and TF's error for the rest.

The dtypes each op has kernels for (`_NUMBERS`, `_FLOATS`, `_BOOLS`, ... as numpy kinds, refused
by `_refuse` in TF's words), the builders of the public functions of one or two tensors
(`_unary`, `_binary`, `_fast_binary`), and the checks of integer, axis and shape arguments.
"""

import builtins

import numpy as np

from . import dtypes as _dt
from .context import STATE
from .errors import invalid
from .gen_ops import _dims
from .tape import apply
from .tensor import (
    Tensor,
    TensorShape,
    Variable,
    _leaves,
    _TensorLike,
    convert_to_tensor,
    nest_shape,
    operand,
    read,
    tf_type_name,
)

# --- argument helpers ---------------------------------------------------------------------
# The dtypes an op has kernels for, as numpy kinds; TF refuses the others with the errors
# `_refuse` words as TF does.
_NUMBERS = "fciu"  # numbers: not bool, not string
_FLOATS = "fc"
_BOOLS = "b"
_SIGNED = "fci"  # numbers with a sign: TF has no Neg or Abs kernel for unsigned ints
_REALS = "fiu"  # ordered numbers: no complex (Maximum, Minimum, ClipByValue)
_REAL_FLOATS = "f"
_KIND_NAMES = {
    _NUMBERS: "bfloat16, half, float, double, uint8, uint16, uint32, uint64, int8, "
    "int16, int32, int64, complex64, complex128",
    _FLOATS: "bfloat16, half, float, double",
    _REAL_FLOATS: "bfloat16, half, float, double",
    _SIGNED: "bfloat16, half, float, double, int8, int16, int32, int64, complex64, complex128",
}


# The dtypes an op lists in its error, where they are not those of its kinds (by op name)
_ALLOWED_BY_OP = {}


def _refuse(op_name, x, kinds):
    dt = x._value.dtype
    if kinds == _BOOLS:
        raise invalid(
            op_name,
            f"cannot compute {op_name} as input #0(zero-based) was expected "
            f"to be a bool tensor but is a {tf_type_name(dt)} tensor",
        )
    raise invalid(
        op_name,
        f"Value for attr 'T' of {_dt.from_numpy(dt).name} is not in the list "
        "of allowed values: "
        + _ALLOWED_BY_OP.get(op_name, _KIND_NAMES.get(kinds, _KIND_NAMES[_NUMBERS])),
    )


def _scalar_types(kinds):
    """The numpy scalar types of the dtypes of `kinds` (np.float32, ...): a tensor holding
    one of them has that dtype, which its type alone tells (reading `.dtype.kind` of a numpy
    scalar costs more than the op)."""
    return frozenset(t for t in set(np.sctypeDict.values()) if np.dtype(t).kind in kinds)


def _fast_binary(op, kinds, checked, fn_name, doc):
    """The public function of a binary op: `checked(x, y)`, behind a fast path for the
    common case, a tensor and a tensor or variable holding numpy values of one dtype that
    the op takes. Anything else takes `checked`, which converts and checks, and raises
    every error."""
    scalars = _scalar_types(kinds)
    floats = "f" in kinds

    def binary(x, y, name=None):
        # (a variable's value is looked at without reading it: it is read only if the fast
        # path is taken, so that `checked` reads it as before otherwise)
        if type(x) is Tensor and type(y) is Tensor:
            xv, yv = x._value, y._value
        elif type(x) is Tensor and isinstance(y, Variable):
            xv, yv = x._value, y._snap._value
        elif type(y) is Tensor and isinstance(x, Variable):
            xv, yv = x._snap._value, y._value
        elif floats and (type(y) is float or type(y) is int):  # (`x * 2.0`, `x ** 3`)
            if type(x) is Tensor:
                dtype = x._value.dtype
            elif isinstance(x, Variable):
                dtype = x._snap._value.dtype
            else:
                return checked(x, y)
            if dtype.kind != "f":
                return checked(x, y)
            x = x if type(x) is Tensor else x._read()
            return apply(op, x, Tensor(dtype.type(y)))  # (the number in x's dtype, as `operand`)
        else:
            return checked(x, y)
        kind = type(xv)
        if (kind is type(yv) and kind in scalars) or (
            xv.dtype is yv.dtype and xv.dtype.kind in kinds
        ):
            x = x if type(x) is Tensor else x._read()
            y = y if type(y) is Tensor else y._read()
            return apply(op, x, y)
        return checked(x, y)

    binary.__name__ = binary.__qualname__ = fn_name
    binary.__doc__ = doc
    return binary


def _binary(op, fn_name, doc, kinds=_NUMBERS):
    """The public function of a binary op (`multiply`, `maximum`, ...): it makes both operands
    tensors of one dtype (Python data takes the tensor's dtype), checks that the op takes that
    dtype (`kinds`), then calls `apply`."""

    def checked(x, y):
        if type(x) is Tensor:
            if type(y) is not Tensor or y._value.dtype is not x._value.dtype:
                y = operand(y, x, op.name)
        elif type(y) is Tensor:
            x = operand(x, y, op.name)
        elif isinstance(y, Variable):  # (a variable's dtype wins too, as a tensor's)
            if isinstance(x, (list, tuple)):  # (TF's slow path: the list converted first)
                x = _input(x, kinds)
                if x._value.dtype != y._read_value().dtype:
                    raise ValueError(
                        f"Incompatible type conversion requested to type {x.dtype.name} for "
                        f"`tf.Variable of type {y.dtype.name}. (Variable: {y!r})"
                    )
            y = y._read()
            x = operand(x, y, op.name)
        else:
            x = _input(x, kinds)
            y = operand(y, x, op.name)
        if x._value.dtype.kind not in kinds:
            _refuse(op.name, x, kinds)
        return apply(op, x, y)

    return _fast_binary(op, kinds, checked, fn_name, doc)


def _input(x, kinds):
    """An op's input that is not yet a tensor, converted as TF converts it: for an op whose
    input dtype is fixed (bool, for the logical ops) to that dtype (Python data strictly, a
    TypeError "Cannot convert 1.0 to EagerTensor of dtype bool"; numpy data cast), else by
    the default rules."""
    if kinds is _BOOLS and not isinstance(x, _TensorLike):
        return convert_to_tensor(x, _dt.bool)
    return read(x)


def _unary(op, x, kinds=_NUMBERS):
    x = x if type(x) is Tensor else _input(x, kinds)
    v = x._value
    if type(v) not in _SCALAR_TYPES.get(kinds, ()) and v.dtype.kind not in kinds:  # (faster)
        _refuse(op.name, x, kinds)
    return apply(op, x)


_SCALAR_TYPES = {
    kinds: _scalar_types(kinds)
    for kinds in (_NUMBERS, _FLOATS, _BOOLS, _SIGNED, _REALS, _REAL_FLOATS)
}


def _int_values(value, what, error, attr=None, by_op=True):
    """An integer argument (an axis, a dimension, a count; or a list of them) as a numpy int
    array, the way TF converts an op input whose dtype is an attribute with int32 as its
    default (reduction axes, shapes): an integer tensor passes; numpy data is cast to int32
    (2.5 becomes 2, as TF casts it); a Python float is converted to int32 strictly
    (TypeError); other Python data is converted by the default rules, and a result that is
    not integers is refused with `error(message)` (TF's op refuses the dtype: with `attr`, in
    TF's words). Where TF's Python code converts the argument itself before an op sees it
    (tf.random's shapes, linspace's num: `by_op=False`), numpy data keeps its dtype and a
    Python float is converted as any other data. Data TF cannot convert at all (ragged
    lists, ints beyond int64, None inside a list) raises what TF's conversion raises
    (ValueError)."""
    if isinstance(value, _TensorLike):
        v = _attribute_value(value)
    elif isinstance(value, (np.ndarray, np.generic)) and by_op:
        v = convert_to_tensor(value, _dt.int32)._value
    elif type(value) is float and by_op:  # (a Python number goes to int32 strictly)
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype int32")
    elif isinstance(value, (list, tuple)) and _mixes_bools(value):
        v = convert_to_tensor(value)._value  # (refused: the op's input has no dtype to hint)
    else:  # ([] is int32; a list that holds tensors is packed, and its value heard by a trace)
        v = _attribute_value(convert_to_tensor(value, dtype_hint=_dt.int32))
    if v.dtype.kind not in "iu" or attr is not None and v.dtype.name not in ("int32", "int64"):
        if attr is not None:
            raise error(
                f"Value for attr '{attr}' of {tf_type_name(v.dtype)} is not in the list of "
                "allowed values: int32, int64"
            )
        raise error(
            f"{what} must be an integer (or a list of integers, or an integer "
            f"tensor), got {value!r}"
        )
    return v


def _mixes_bools(value):
    """Whether a Python nest mixes bools with other data ([True, 1]): convert_to_tensor takes
    it with a number dtype asked for or hinted, but TF's ops convert such an argument with no
    hint, and refuse it ("mixed types")."""
    types = {type(v) for v in _leaves(value)}
    return bool in types and len(types) > 1


def _int32_input(value, op_name, index):
    """An op input TF declares as int32 itself (Split's axis, OneHot's depth), as a numpy
    value: a tensor of another dtype is refused by the op (InvalidArgumentError), anything
    else is converted to int32 strictly (TypeError "Cannot convert 2.5 to EagerTensor of
    dtype int32"; ValueError for what cannot be converted at all)."""
    if isinstance(value, _TensorLike):
        v = value._read_value()
        if v.dtype != np.int32:
            raise invalid(
                op_name,
                f"cannot compute {op_name} as input #{index}(zero-based) was expected to be "
                f"a int32 tensor but is a {tf_type_name(v.dtype)} tensor",
            )
        return v
    return convert_to_tensor(value, _dt.int32)._value


def _attribute_value(t):
    """The value of a tensor argument that an op takes as an attribute (a shape, an axis, a
    count, a limit), not as an input it records. A trace hears of it (as of `if t:`): a replay
    could not give the attribute another value, so a traced function whose attribute comes
    from its arguments runs its Python code on every call (see `function.py`)."""
    return t._value_for_python() if STATE.tracer is not None else t._read_value()


def _single_value(x):
    """A tensor or array holding one value, of any rank, as 0-d (TF takes [1] as 1 where an
    op asks for "a tensor with a single value"); anything else as it is."""
    if isinstance(x, _TensorLike) and x._read_value().size == 1:
        return Tensor(_attribute_value(x).reshape(()))
    if isinstance(x, np.ndarray) and x.size == 1:
        return x.reshape(())
    return x


def _make_int(value, arg_name):
    """An int attribute of an op (one_hot's axis, unstack's num, squeeze's axes), taken as
    TF takes it: `int(value)` (a float is truncated), a string or anything int() refuses
    is a TypeError."""
    if not isinstance(value, str):
        try:
            return int(value)
        except (TypeError, ValueError):
            pass
    raise TypeError(f"Expected int for argument '{arg_name}' not {value!r}.")


def _int_arg(value, what, error=TypeError, attr=None, not_scalar=None, by_op=True):
    """One integer argument as a Python int (see `_int_values`); a value that is not one
    number is refused with `error`, or with `not_scalar` (the op's words) when given."""
    if type(value) is int:
        if -_INT64_LIMIT <= value < _INT64_LIMIT:
            return value
        raise ValueError(f"{what} = {value} is out of range for an int64")
    v = _int_values(value, what, error, attr, by_op)
    if v.ndim != 0:
        if not_scalar is not None:
            raise not_scalar(v)
        raise error(f"{what} must be a scalar integer, got shape {list(v.shape)}")
    return int(v)


_INT64_LIMIT = 2**63


def _axes(axis, ndim, op_name):
    """Normalise a reduction `axis` (None, int, list, tensor) to a sorted tuple or None. As in
    TF: an axis that is not an integer, out of range or given twice is an
    InvalidArgumentError of the op."""
    if axis is None:
        return None
    if type(axis) is int and -ndim <= axis < ndim:  # the common case, quickly
        return (axis % ndim,)
    err = lambda message: invalid(op_name, message)  # noqa: E731
    axes = _int_values(axis, "axis", err, "Tidx")  # (of any rank: TF reads its values)
    out = []
    for a in axes.reshape(-1).tolist():
        if not -ndim <= a < ndim:
            raise err(f"Invalid reduction dimension ({a} for input with {ndim} dimension(s)")
        if a % ndim in out:
            raise err(f"Axes contains duplicate dimension: {a % ndim}")
        out.append(a % ndim)
    return tuple(sorted(out))


def _shape_arg(shape, error=TypeError, what="shape", by_op=True):
    """A shape given as a list, tuple, TensorShape, int or int tensor, as a tuple of ints.
    A float, string, bool or None dimension is refused with `error` (TF's class differs from
    op to op: TypeError for tf.zeros, InvalidArgumentError for tf.reshape)."""
    if type(shape) in (tuple, list, TensorShape) and all(
        type(s) is int and -_INT64_LIMIT <= s < _INT64_LIMIT for s in shape
    ):
        return tuple(shape)  # the common case, quickly
    v = _int_values(shape, what, error, by_op=by_op)
    if v.ndim > 1:
        raise error(f"{what} must be a vector of integers, got a tensor of shape {list(v.shape)}")
    return tuple(v.reshape(-1).tolist())


def _new_shape(shape, op_name, by_fill=False):
    """The shape of a new tensor (tf.zeros, tf.fill, ...): integers, none negative. Python
    data must be integers (TypeError, as TF converts it to int32; InvalidArgumentError when it
    is tf.fill's own `dims`, which go straight to the op); a tensor goes to TF's Fill op as it
    is (another dtype is refused by the op), and a shape of rank 2 or more is refused by Fill."""
    if type(shape) in (tuple, list, TensorShape) and all(type(s) is int for s in shape):
        dims = tuple(shape)  # (the common case, quickly)
    else:
        bad = lambda m: invalid("Fill", m)  # noqa: E731
        by_op = by_fill or isinstance(shape, _TensorLike)
        if not by_op and isinstance(shape, (list, tuple)) and _mixes_bools(shape):
            v = convert_to_tensor(shape, _dt.int32)._value  # (TF converts it to int32)
        else:
            v = _int_values(shape, "shape", bad if by_op else TypeError, "index_type")
        if v.ndim > 1:
            raise bad(f"dims must represent a vector, got shape {_dims(v.shape)}")
        dims = tuple(v.reshape(-1).tolist())
    if builtins.any(d < 0 for d in dims):
        raise invalid(
            op_name,
            "Dimension -1 must be >= 0"
            if -1 in dims
            else f"Dimensions must be >= 0, got {list(dims)}",
        )
    return dims


def _deeper_than_numpy(value):
    return isinstance(value, (list, tuple)) and len(nest_shape(value)[0]) > 64
