"""The differentiable operations and the functions that create tensors.

Each primitive is an `Op` (a name as TF calls it, and a numpy forward function); the public
function checks and converts its arguments, then calls `apply`, which runs the forward and
records it on any tape that watches an input. The VJP rules for these ops live in one table,
in `grads.py`. Python's operators on tensors and variables (`+`, `*`, `@`, `x[i]`, ...) are
the functions defined here.
"""

import builtins
import functools
import math
import operator
import re
import warnings

import numpy as np

from . import dtypes as _dt
from .context import STATE
from .errors import InvalidArgumentError, NotFoundError, UnimplementedError, invalid
from .tape import Op, apply
from .tensor import (
    Tensor,
    TensorShape,
    Variable,
    _leaves,
    _TensorLike,
    constant,
    convert_to_tensor,
    nest_shape,
    operand,
    read,
    tf_type_name,
)

# TF computes inf and nan silently (log(0), 1/0, overflow); so does minitape. numpy would warn
# from inside minitape's own modules: this filter silences exactly those warnings, at no cost
# per op, and leaves numpy's warnings in the learner's own code alone.
warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"minitape(\.|$)")


def _dims(shape):
    """A shape as TF's op messages write it: [2,3]."""
    return "[" + ",".join(map(str, shape)) + "]"


def _broadcast_check(op_name):
    def check(a, b, *rest, **attrs):
        try:
            np.broadcast_shapes(np.shape(a), np.shape(b), *[np.shape(r) for r in rest])
        except ValueError:
            shapes = " vs. ".join(_dims(np.shape(v)) for v in (a, b) + rest)
            raise invalid(op_name, f"Incompatible shapes: {shapes}") from None
        if op_name in ("FloorDiv", "FloorMod") and np.asarray(b).dtype.kind in "iu":
            raise invalid(op_name, "Integer division by zero")

    return check


def _broadcast_to_check(x, shape):
    try:
        fits = np.broadcast_shapes(np.shape(x), shape) == shape
    except ValueError:
        fits = False
    if not fits:
        raise invalid(
            "BroadcastTo",
            f"Unable to broadcast tensor of shape {list(np.shape(x))} "
            f"to tensor of shape {list(shape)}",
        )


def _matmul_check(a, b, transpose_a=False, transpose_b=False):
    sa, sb = a.shape, b.shape
    if transpose_a:
        sa = sa[:-2] + (sa[-1], sa[-2])
    if transpose_b:
        sb = sb[:-2] + (sb[-1], sb[-2])
    if sa[-1] != sb[-2]:  # (else: batch dimensions that do not broadcast; numpy says so)
        raise invalid("MatMul", f"Matrix size-incompatible: In[0]: {_dims(sa)}, In[1]: {_dims(sb)}")


def _reshape_check(x, shape):
    size, known = np.size(x), math.prod(s for s in shape if s != -1)
    unknown = [i for i, s in enumerate(shape) if s == -1]
    if len(unknown) > 1:
        raise invalid(
            "Reshape", f"Only one input size may be -1, not both {unknown[0]} and {unknown[1]}"
        )
    wanted = f"requires a multiple of {known}" if unknown else f"has {known}"
    raise invalid(
        "Reshape",
        f"Input to reshape is a tensor with {size} values, but the requested shape {wanted}",
    )


def _op(name, forward, check=None):
    return Op(name, forward, check)


def _binop(name, forward):
    return Op(name, forward, _broadcast_check(name))


# x ** 2, x ** 3, x ** 1, x ** -1 multiplied out: np.power calls libm's pow per element (many
# times slower, and slower still for negative bases). x * x and 1 / x give np.power's bits;
# x * x * x is within two ulps of it, as np.power is of TF's own pow (checked against TF 2.21).
# x ** 0.5: numpy itself takes sqrt there, whose -0 and -inf differ from pow's (TF: 0 and inf).
_POW_BY_HAND = {
    2.0: lambda x: x * x,
    3.0: lambda x: x * x * x,
    1.0: lambda x: x,
    -1.0: lambda x: 1 / x,
    0.5: lambda x: np.where(x == -np.inf, np.inf, np.sqrt(x) + 0.0).astype(x.dtype)[()],
}


def _pow(x, y):
    if y.ndim == 0 and x.dtype.kind == "f" and x.dtype.itemsize >= 4:
        by_hand = _POW_BY_HAND.get(float(y))
        if by_hand is not None:
            return by_hand(x)
    return np.power(x, y)


# --- the primitives -----------------------------------------------------------------------
# (Python's operators, not np.add & co: the same ufuncs on arrays, but on numpy scalars they
# take numpy's scalar fast path, which makes a chain of scalar ops ~10x cheaper.)
Add = _binop("AddV2", operator.add)
StringAdd = _binop("AddV2", lambda x, y: np.asarray(x + y, dtype=object))  # concatenation
Sub = _binop("Sub", operator.sub)
Mul = _binop("Mul", operator.mul)
Div = _binop("RealDiv", operator.truediv)
DivNoNan = _binop("DivNoNan", lambda x, y: _div_no_nan(x, y))
Pow = _binop("Pow", _pow)
Maximum = _binop("Maximum", np.maximum)
Minimum = _binop("Minimum", np.minimum)
FloorDiv = _binop("FloorDiv", lambda x, y: _int_division(np.floor_divide, x, y))
FloorMod = _binop("FloorMod", lambda x, y: _int_division(np.mod, x, y))
Neg = _op("Neg", operator.neg)
Square = _op("Square", np.square)
Sqrt = _op("Sqrt", np.sqrt)
Exp = _op("Exp", np.exp)
Log = _op("Log", np.log)
Log1p = _op("Log1p", np.log1p)
Sin = _op("Sin", np.sin)
Cos = _op("Cos", np.cos)
Tan = _op("Tan", np.tan)
Tanh = _op("Tanh", np.tanh)


def _sigmoid(x):
    try:
        return np.exp(-np.logaddexp(0, -x)).astype(x.dtype)
    except TypeError:  # (complex numbers: logaddexp is real only; TF's kernel is 1/(1+e^-x))
        return (1 / (1 + np.exp(-x))).astype(x.dtype)


Sigmoid = _op("Sigmoid", _sigmoid)
Relu = _op("Relu", lambda x: np.maximum(x, 0))
# relu's and sqrt's VJPs as one op each, as in TF: ReluGrad passes dy where x > 0;
# SqrtGrad is dy / (2 y), but 0 where dy is 0 (so a sqrt(0) that no target uses costs no nan).
ReluGrad = _op("ReluGrad", lambda dy, x: dy * (x > 0))
EluGrad = _op("EluGrad", lambda dy, y: np.where(y > 0, dy, dy * (y + 1)).astype(dy.dtype)[()])
SqrtGrad = _op("SqrtGrad", lambda y, dy: np.where(dy == 0, dy, dy * 0.5 / y)[()])
# tanh's and sigmoid's VJPs as one op each (TF's TanhGrad, SigmoidGrad): y is the op's output,
# dy the gradient reaching it. One op instead of three, and differentiable in turn.
TanhGrad = _op("TanhGrad", lambda y, dy: dy * (1 - y * y))
SigmoidGrad = _op("SigmoidGrad", lambda y, dy: dy * y * (1 - y))
Elu = _op("Elu", lambda x: np.where(x > 0, x, np.expm1(x)).astype(x.dtype))
Softplus = _op("Softplus", lambda x: np.logaddexp(0, x).astype(x.dtype))
Abs = _op("Abs", np.abs)
Sign = _op("Sign", np.sign)
Round = _op("Round", np.round)  # half to even, as TF
Floor = _op("Floor", np.floor)
Ceil = _op("Ceil", np.ceil)
Identity = _op("Identity", lambda x: x)
Cast = _op("Cast", lambda x, dtype: x.astype(dtype))
Select = _op("SelectV2", np.where, _broadcast_check("SelectV2"))
ClipByValue = _op(
    "ClipByValue",
    lambda x, lo, hi: np.maximum(np.minimum(x, hi), lo),
    _broadcast_check("ClipByValue"),
)


# (Array methods rather than np.reshape & co: the same views, without numpy's Python-level
# dispatch, which costs more than the work on small arrays.)
def _matmul(a, b, transpose_a=False, transpose_b=False):
    a = a.swapaxes(-1, -2) if transpose_a else a
    b = b.swapaxes(-1, -2) if transpose_b else b
    if a.ndim == 2 == b.ndim and a.shape[1] == 1 == b.shape[0] and a.dtype in _OUTER_DTYPES:
        # An outer product ((m, 1) @ (1, n), as in the gradient of a layer with one output):
        # numpy's matmul takes its slow loop for it, 0 + a*b per element. The product of the
        # two broadcast, plus 0 (which turns -0.0 into 0.0, as that sum does), is the same
        # numbers, bit for bit, several times faster.
        out = np.multiply(a, b)
        out += 0
        return out
    return np.matmul(a, b)


_OUTER_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))
MatMul = _op("MatMul", _matmul, _matmul_check)
Transpose = _op("Transpose", lambda x, perm: x.transpose(perm))
Reshape = _op("Reshape", lambda x, shape: x.reshape(shape), _reshape_check)
ExpandDims = _op("ExpandDims", lambda x, shape: x.reshape(shape))
Squeeze = _op("Squeeze", lambda x, shape: x.reshape(shape))
BroadcastTo = _op("BroadcastTo", lambda x, shape: _filled(shape, x), _broadcast_to_check)
Concat = _op("ConcatV2", lambda *xs, axis: np.concatenate(xs, axis=axis))
# tf.fill's value is an input of Fill (its gradient is the sum of g); dims are its attribute
Fill = _op("Fill", lambda value, shape: _filled(shape, value))
# tf.linspace: start + (stop - start) * t, t the grid from 0 to 1 along `axis` (numpy's values)
LinSpace = _op(
    "LinSpace",
    lambda start, stop, num, axis: np.linspace(start, stop, num, axis=axis).astype(start.dtype),
)
Pack = _op("Pack", lambda *xs, axis: np.stack(xs, axis=axis))
Sum = _op("Sum", lambda x, axis, keepdims: _sum(x, axis, keepdims))
Prod = _op(
    "Prod", lambda x, axis, keepdims: np.prod(x, axis=axis, keepdims=keepdims, dtype=x.dtype)
)
AddN = _op("AddN", lambda *xs: functools.reduce(np.add, xs[1:], xs[0].copy()))
Cumsum = _op(
    "Cumsum",
    lambda x, axis, exclusive, reverse: _cumulative(
        np.cumsum, np.add.identity, x, axis, exclusive, reverse
    ),
)
Cumprod = _op(
    "Cumprod",
    lambda x, axis, exclusive, reverse: _cumulative(np.cumprod, 1, x, axis, exclusive, reverse),
)
Mean = _op(
    "Mean", lambda x, axis, keepdims: _mean(np.add.reduce(x, axis=axis, keepdims=keepdims), x)
)
Max = _op(
    "Max",
    lambda x, axis, keepdims: np.max(
        x, axis=axis, keepdims=keepdims, initial=_extreme(x.dtype, -1)
    ),
)
Min = _op(
    "Min",
    lambda x, axis, keepdims: np.min(x, axis=axis, keepdims=keepdims, initial=_extreme(x.dtype, 1)),
)
StridedSlice = _op("StridedSlice", lambda x, key: _element(x[key]))

# Ops without a gradient (a deliberate stop, or boolean/integer results). They still run
# through `apply`, so that `minitape.function` records them and replays them.
StopGradient = _op("StopGradient", lambda x: x)
LogicalNot = _op("LogicalNot", np.logical_not)
IsNan = _op("IsNan", np.isnan)
IsInf = _op("IsInf", np.isinf)
IsFinite = _op("IsFinite", np.isfinite)
All = _op("All", lambda x, axis, keepdims: np.all(x, axis=axis, keepdims=keepdims))
Any = _op("Any", lambda x, axis, keepdims: np.any(x, axis=axis, keepdims=keepdims))
Where = _op("Where", lambda c: np.argwhere(c).astype(np.int64))


def _cumulative(scan, identity, x, axis, exclusive, reverse):
    """TF's Cumsum/Cumprod: `scan` along `axis`; `reverse` scans from the end, `exclusive`
    leaves each element out of its own result (the first result is the identity)."""
    if reverse:
        x = np.flip(x, axis)
    out = scan(x, axis=axis, dtype=x.dtype)
    if exclusive:
        first = np.full_like(np.take(x, [0], axis=axis), identity)
        out = np.concatenate([first, np.delete(out, -1, axis=axis)], axis=axis)
    return np.flip(out, axis) if reverse else out


def _element(v):
    """An indexed value: a string element comes out of numpy as bare bytes, kept 0-d here."""
    return v if isinstance(v, (np.ndarray, np.generic)) else np.array(v, dtype=object)


def _extreme(dtype, sign):
    """The value a max (sign -1) or min (sign 1) of nothing gives, as in TF."""
    if dtype.kind == "f":
        return sign * np.inf
    info = np.iinfo(dtype)
    return info.max if sign > 0 else info.min


def _int_division(fn, x, y):
    """x // y or x % y; an integer division by zero fails (TF refuses it, numpy gives 0)."""
    if y.dtype.kind in "iu" and not np.all(y):
        raise ValueError("Integer division by zero")
    return fn(x, y)


def _filled(shape, x):
    """A new array of `shape` holding `x` broadcast (np.full, minus its Python overhead)."""
    out = np.empty(shape, dtype=x.dtype)
    out[...] = x
    return out


def _div_no_nan(x, y):
    """x / y, with 0 wherever y is 0 (where the quotient would be inf or nan)."""
    q = x / y
    return np.where(y == 0, q.dtype.type(0), q)[()]


def _sum(x, axis, keepdims):
    """The sum in x's own dtype (numpy would widen small integers). A scalar is its own sum."""
    return x if x.ndim == 0 else np.add.reduce(x, axis=axis, dtype=x.dtype, keepdims=keepdims)


def _mean_factor(x, total):
    """How many elements of `x` each element of the reduced `total` combines (TF's factor)."""
    return x.size // (total.size or 1)


def _mean(total, x):
    """`total / factor`; an integer mean truncates toward zero, as in TF."""
    mean = total / _mean_factor(x, total)
    return mean if mean.dtype == x.dtype else mean.astype(x.dtype)


def _scatter(g, key, shape):
    out = np.zeros(shape, dtype=g.dtype)
    if _is_basic(key):
        out[key] = g
    else:
        np.add.at(out, key, g)
    return out


IndexGrad = _op("StridedSliceGrad", _scatter)  # the VJP of indexing, itself differentiable


def _is_basic(key):
    parts = key if isinstance(key, tuple) else (key,)
    return all(isinstance(p, (int, np.integer, slice)) or p is None or p is Ellipsis for p in parts)


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


# --- arithmetic ---------------------------------------------------------------------------
def _add(x, y):
    if type(x) is not Tensor:
        x = read(x)
    kind = x._value.dtype.kind
    if kind not in _NUMBERS:
        if kind != "O":
            _refuse("AddV2", x, _NUMBERS)
        return apply(StringAdd, x, operand(y, x, "AddV2", hint=True))
    if type(y) is not Tensor or y._value.dtype is not x._value.dtype:
        y = operand(y, x, "AddV2", hint=True)
    return apply(Add, x, y)


add = _fast_binary(
    Add,
    _NUMBERS,
    _add,
    "add",
    """x + y, element-wise (shapes broadcast; strings are concatenated).

    As TF's `+`: the first tensor's dtype is only a *hint* for Python data on the other side,
    so `int_tensor + 1.5` converts 1.5 to float32 and then fails in AddV2 (where `*`, `-`, ...
    fail to convert), and `tf.add(1.5, float64_tensor)` converts 1.5 on its own.""",
)
subtract = _binary(Sub, "subtract", "x - y, element-wise (shapes broadcast).")
multiply = _binary(Mul, "multiply", "x * y, element-wise (shapes broadcast).")
_real_div = _binary(Div, "divide", None)


def _divide(x, y):
    if type(x) is Tensor and x._value.dtype.kind == "f":  # (the common case)
        if type(y) is not Tensor or y._value.dtype is not x._value.dtype:
            y = operand(y, x, "RealDiv")
        return apply(Div, x, y)
    x = (
        x
        if isinstance(x, _TensorLike) or not isinstance(y, _TensorLike)
        else operand(x, read(y), "RealDiv")
    )
    x = read(x)
    if x._value.dtype.kind in "iu":
        x, y = _int_true_div_operands(x, y)
    return _real_div(x, y)


divide = _fast_binary(
    Div,
    _REAL_FLOATS,
    _divide,
    "divide",
    """True division. As TF's `/`: integer tensors are first cast to a float (float32 for 8
    and 16 bits, float64 for 32 and 64), and both sides must have the same dtype.""",
)


def _int_true_div_operands(x, y):
    """Integer operands of a true division, cast to the float TF divides them in."""
    if isinstance(y, _TensorLike) and y.dtype != x.dtype:
        raise TypeError(f"`x` and `y` must have the same dtype, got {x.dtype!r} != {y.dtype!r}.")
    y = operand(y, x, "RealDiv")
    to = _dt.float64 if x._value.dtype.itemsize >= 4 else _dt.float32
    return cast(x, to), cast(y, to)


def _division_operands(x, y, fn_name, y_first=False):
    """The operands of tf.truediv and tf.math.divide_no_nan, as TF's Python code makes them:
    x converted on its own (or with y's dtype when only y is a tensor), y with x's dtype as a
    hint; the two must then have one dtype (TypeError), and integers are cast to the float
    TF divides them in (bool and string are no dividends: TypeError). With `y_first`
    (divide_no_nan), a y that alone is a tensor is converted first and x takes its dtype."""
    if y_first and not isinstance(x, _TensorLike) and isinstance(y, _TensorLike):
        y = read(y)
        x = convert_to_tensor(x, dtype=y.dtype)
    else:
        x = read(x)
        y = read(y) if isinstance(y, _TensorLike) else convert_to_tensor(y, dtype_hint=x.dtype)
    if x._value.dtype != y._value.dtype:
        raise TypeError(f"`x` and `y` must have the same dtype, got {x.dtype!r} != {y.dtype!r}.")
    kind = x._value.dtype.kind
    if kind not in _NUMBERS:
        raise TypeError(
            f"Invalid dtype {x.dtype!r} in {fn_name}. Expected one of {{tf.uint8, tf.int8, "
            "tf.uint16, tf.int16, tf.uint32, tf.int32, tf.uint64, tf.int64, tf.bfloat16, "
            "tf.float16, tf.float32, tf.float64, tf.complex64, tf.complex128}."
        )
    if kind in "iu":
        to = _dt.float64 if x._value.dtype.itemsize >= 4 else _dt.float32
        x, y = cast(x, to), cast(y, to)
    return x, y


def truediv(x, y, name=None):
    """tf.truediv as TF writes it: x converted on its own, y with x's dtype as a hint; the two
    must then have one dtype (TypeError), integers divided as `/` does."""
    return _real_div(*_division_operands(x, y, "__truediv__"))


_divide_no_nan = _binary(DivNoNan, "divide_no_nan", None)


def divide_no_nan(x, y, name=None):
    """x / y, but 0 wherever y is 0 (no inf or nan); integers are divided as `/` does."""
    return _divide_no_nan(*_division_operands(x, y, "tf.math.divide_no_nan", y_first=True))


floordiv = _binary(FloorDiv, "floordiv", "x // y, element-wise, rounding down.")
floormod = _binary(FloorMod, "floormod", "x % y, element-wise, with the sign of y (as Python's %).")


def negative(x, name=None):
    return _unary(Neg, x, _SIGNED)


pow = _binary(Pow, "pow", "x ** y, element-wise.")  # noqa: A001  (TF's name)


def square(x, name=None):
    return _unary(Square, x)


def sqrt(x, name=None):
    return _unary(Sqrt, x, _FLOATS)


def exp(x, name=None):
    return _unary(Exp, x, _FLOATS)


def log(x, name=None):
    return _unary(Log, x, _FLOATS)


def log1p(x, name=None):
    return _unary(Log1p, x, _FLOATS)


def sin(x, name=None):
    return _unary(Sin, x, _FLOATS)


def cos(x, name=None):
    return _unary(Cos, x, _FLOATS)


def tan(x, name=None):
    return _unary(Tan, x, _FLOATS)


def tanh(x, name=None):
    return _unary(Tanh, x, _FLOATS)


def sigmoid(x, name=None):
    return _unary(Sigmoid, x, _FLOATS)


def relu(features, name=None):
    return _unary(Relu, features)


def elu(features, name=None):
    return _unary(Elu, features, _REAL_FLOATS)


def softplus(features, name=None):
    return _unary(Softplus, features, _REAL_FLOATS)


def abs(x, name=None):  # noqa: A001
    return _unary(Abs, x)


def sign(x, name=None):
    return _unary(Sign, x, _SIGNED)


def round(x, name=None):  # noqa: A001
    x = x if type(x) is Tensor else _input(x, _NUMBERS)
    if x._value.dtype.kind == "c":  # TF registers Round for complex numbers, with no CPU kernel
        dt = _dt.from_numpy(x._value.dtype).name.upper()
        raise NotFoundError(
            None, "Round", f"Could not find device for node: {{{{node Round}}}} = Round[T=DT_{dt}]"
        )
    return _unary(Round, x)


def floor(x, name=None):
    return _unary(Floor, x, _FLOATS)


def ceil(x, name=None):
    return _unary(Ceil, x, _FLOATS)


maximum = _binary(Maximum, "maximum", "The larger of x and y, element-wise.", _REALS)
minimum = _binary(Minimum, "minimum", "The smaller of x and y, element-wise.", _REALS)


def identity(input, name=None):  # noqa: A002
    return _unary(Identity, input, _NUMBERS + "bO")


def stop_gradient(input, name=None):  # noqa: A002
    """The same value, but gradients stop here (its gradient rule is None)."""
    return apply(StopGradient, read(input))


def cast(x, dtype, name=None):
    x = x if type(x) is Tensor else read(x)
    npd = dtype._np if type(dtype) is _dt.DType else _dt.as_dtype(dtype)._np
    have = x._value.dtype
    if have == npd:
        return x
    if "O" in (have.kind, npd.kind):  # strings are never cast to or from numbers
        raise UnimplementedError(
            None,
            "Cast",
            f"Cast {tf_type_name(have)} to {tf_type_name(npd)} is not supported [Op:Cast]",
        )
    return apply(Cast, x, dtype=npd)


def where(condition, x=None, y=None, name=None):
    """Element-wise choice `condition ? x : y` (broadcasting); with only a condition, the
    indices of its true (nonzero) elements."""
    if x is None and y is None:
        c = read(condition)
        if c._value.dtype.kind not in _NUMBERS + "b":
            _refuse("Where", c, _NUMBERS)
        if c._value.ndim == 0:
            raise invalid("Where", "WhereOp : Unhandled input dimensions: 0")
        return apply(Where, c)
    c = condition if type(condition) is Tensor else _input(condition, _BOOLS)
    if c._value.dtype.kind != "b":
        raise invalid(
            "SelectV2",
            f"cannot compute SelectV2 as input #0(zero-based) was expected "
            f"to be a bool tensor but is a {tf_type_name(c._value.dtype)} tensor",
        )
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    if not isinstance(x, _TensorLike) and isinstance(y, _TensorLike):
        y = read(y)
        x = operand(x, y, "SelectV2")
    else:
        x = read(x)
        y = operand(y, x, "SelectV2")
    return apply(Select, c, x, y)


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    t = read(t)
    if t._value.dtype.kind not in _REALS:
        _refuse("ClipByValue", t, _NUMBERS)
    lo = operand(clip_value_min, t, "ClipByValue")
    hi = operand(clip_value_max, t, "ClipByValue")
    shape = t._value.shape
    # (TF computes minimum(t, max), then maximum(that, min), and checks after each that the
    # shape is still t's: a bound may not broadcast t to a larger shape)
    for bound, op_name in ((hi, "Minimum"), (lo, "Maximum")):
        bs = bound._value.shape
        if bs and bs != shape:
            try:
                out = np.broadcast_shapes(shape, bs)
            except ValueError:
                raise invalid(
                    op_name, f"Incompatible shapes: {_dims(shape)} vs. {_dims(bs)}"
                ) from None
            if out != shape:
                raise ValueError(
                    f"Shapes {TensorShape._of(shape)} and {TensorShape._of(out)} are incompatible"
                )
    return apply(ClipByValue, t, lo, hi)


# --- comparisons and logic (not differentiable: bool results) -----------------------------
def _compare(np_fn, name, kinds=_NUMBERS):
    snake = name[0].lower() + "".join("_" + c.lower() if c.isupper() else c for c in name[1:])
    return _binary(_binop(name, np_fn), snake, f"x {name} y, element-wise: a bool tensor.", kinds)


equal = _compare(np.equal, "Equal", _NUMBERS + "bO")
not_equal = _compare(np.not_equal, "NotEqual", _NUMBERS + "bO")
less = _compare(np.less, "Less")
less_equal = _compare(np.less_equal, "LessEqual")
greater = _compare(np.greater, "Greater")
greater_equal = _compare(np.greater_equal, "GreaterEqual")
logical_and = _compare(np.logical_and, "LogicalAnd", _BOOLS)
logical_or = _compare(np.logical_or, "LogicalOr", _BOOLS)


def logical_xor(x, y, name=None):
    """x XOR y, computed as TF does: (x or y) and not (x and y)."""
    return logical_and(logical_or(x, y), logical_not(logical_and(x, y)))


def logical_not(x, name=None):
    return _unary(LogicalNot, x, _BOOLS)


def is_nan(x, name=None):
    return _unary(IsNan, x, _REAL_FLOATS)


def is_inf(x, name=None):
    return _unary(IsInf, x, _REAL_FLOATS)


def is_finite(x, name=None):
    return _unary(IsFinite, x, _REAL_FLOATS)


# --- matrices and shapes ------------------------------------------------------------------
def matmul(
    a,
    b,
    transpose_a=False,
    transpose_b=False,
    adjoint_a=False,
    adjoint_b=False,
    a_is_sparse=False,
    b_is_sparse=False,
    output_type=None,
    grad_a=False,
    grad_b=False,
    name=None,
):
    """Matrix product of rank>=2 tensors (leading dimensions broadcast, as batches). For real
    numbers, as here, `adjoint_a` is `transpose_a` (the sparsity hints change nothing)."""
    if adjoint_a or adjoint_b:
        for x, transpose, adjoint in (("a", transpose_a, adjoint_a), ("b", transpose_b, adjoint_b)):
            if transpose and adjoint:
                raise ValueError(
                    f"Only one of `transpose_{x}` and `adjoint_{x}` can be True. Received "
                    f"`transpose_{x}`={transpose}, `adjoint_{x}`={adjoint}."
                )
        transpose_a, transpose_b = transpose_a or adjoint_a, transpose_b or adjoint_b
    # The fast path: two matrices (tensors or variables) of one dtype, bools for the flags;
    # the rest is converted and checked below.
    if type(transpose_a) is bool and type(transpose_b) is bool:
        av = a._value if type(a) is Tensor else a._snap._value if isinstance(a, Variable) else None
        bv = b._value if type(b) is Tensor else b._snap._value if isinstance(b, Variable) else None
        if av is not None and bv is not None and av.dtype is bv.dtype:
            if av.ndim >= 2 and bv.ndim >= 2:
                a = a if type(a) is Tensor else a._read()
                b = b if type(b) is Tensor else b._read()
                if transpose_a or transpose_b:
                    return apply(MatMul, a, b, transpose_a=transpose_a, transpose_b=transpose_b)
                return apply(MatMul, a, b)
    a = read(a)
    b = operand(b, a, "MatMul", hint=True)
    if type(transpose_a) is not bool or type(transpose_b) is not bool:
        for what, flag in (("transpose_a", transpose_a), ("transpose_b", transpose_b)):
            if not isinstance(flag, (bool, np.bool_)):
                raise TypeError(f"Expected bool for argument '{what}' not {flag!r}.")
    if a._value.ndim < 2 or b._value.ndim < 2:
        i = 0 if a._value.ndim < 2 else 1
        raise invalid("MatMul", f"In[{i}] ndims must be >= 2")
    # As in TF, the transposes are attributes of the one MatMul op (recorded when one is set).
    if transpose_a or transpose_b:
        return apply(MatMul, a, b, transpose_a=bool(transpose_a), transpose_b=bool(transpose_b))
    return apply(MatMul, a, b)


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
        raise invalid("StridedSlice", _index_error(str(e), t._value.ndim)) from None
    return apply(StridedSlice, t, key=key)


def _index_error(numpy_message, ndim):
    """numpy's IndexError, in TF's words."""
    bad = re.match(r"index (-?\d+) is out of bounds for axis (\d+)", numpy_message)
    if bad:
        return f"slice index {bad[1]} of dimension {bad[2]} out of bounds."
    if numpy_message.startswith("too many indices"):
        return f"Index out of range using input dim {ndim}; input has only {ndim} dims"
    return numpy_message


# --- reductions ---------------------------------------------------------------------------
def _reduction(op, kinds=_NUMBERS):
    def reduce(input_tensor, axis=None, keepdims=False, name=None):
        try:
            if axis is None and kinds is _BOOLS and not isinstance(input_tensor, _TensorLike):
                read(input_tensor)  # (TF finds the axes from its rank: converted as it is)
            t = input_tensor if type(input_tensor) is Tensor else _input(input_tensor, kinds)
        except InvalidArgumentError:
            if axis is not None or keepdims or not _deeper_than_numpy(input_tensor):
                raise
            # (TF holds a tensor of up to 254 dimensions; reduced over all of them it is
            # a number, which needs only the values)
            t = _input(list(_leaves(input_tensor)), kinds)
        if t._value.dtype.kind not in kinds:
            _refuse(op.name, t, kinds)
        axes = _axes(axis, t._value.ndim, op.name)
        return apply(op, t, axis=axes, keepdims=bool(keepdims))

    reduce.__name__ = "reduce_" + op.name.lower()
    return reduce


reduce_sum = _reduction(Sum)
reduce_prod = _reduction(Prod)
reduce_mean = _reduction(Mean)
reduce_max = _reduction(Max)
reduce_min = _reduction(Min)
reduce_all = _reduction(All, _BOOLS)
reduce_any = _reduction(Any, _BOOLS)


def add_n(inputs, name=None):
    """The element-wise sum of a list of tensors of one dtype and shape (TF's AddN: one op,
    however many inputs; each input's gradient is the output's)."""
    if isinstance(inputs, (Tensor, Variable)) or not isinstance(inputs, (list, tuple)):
        inputs = list(inputs)  # (TF iterates a tensor: its elements are the inputs)
    if not inputs:
        raise ValueError(
            "Inputs must be an iterable of at least one Tensor/IndexedSlices with the same "
            "dtype and shape."
        )
    xs = [read(x) for x in inputs]
    first = xs[0]._value
    if first.dtype.kind not in _NUMBERS:
        _refuse("AddN", xs[0], _NUMBERS)
    for i, x in enumerate(xs[1:], 1):
        if x._value.dtype != first.dtype:
            raise invalid(
                "AddN",
                f"cannot compute AddN as input #{i}(zero-based) was expected to be a "
                f"{tf_type_name(first.dtype)} tensor but is a "
                f"{tf_type_name(x._value.dtype)} tensor",
            )
        if x._value.shape != first.shape:
            raise invalid(
                "AddN",
                "Inputs to operation AddN of type AddN must have the same size and shape.  "
                f"Input 0: {list(first.shape)} != input {i}: {list(x._value.shape)}",
            )
    return identity(xs[0]) if len(xs) == 1 else apply(AddN, *xs)


def _scan(op):
    def scan(x, axis=0, exclusive=False, reverse=False, name=None):
        x = _input(x, _NUMBERS)
        if x._value.dtype.kind not in _NUMBERS:
            _refuse(op.name, x, _NUMBERS)
        exclusive, reverse = _bool_attr(exclusive, "exclusive"), _bool_attr(reverse, "reverse")
        if type(axis) is bool:  # (TF converts a Python bool to the int32 input: True is 1)
            axis = int(axis)
        axis = _int_values(axis, "axis", lambda m: invalid(op.name, m), attr="Tidx")
        if axis.ndim:
            raise invalid(op.name, f"ScanOp: axis must be a scalar, not {list(axis.shape)}")
        ndim, axis = x._value.ndim, int(axis)
        if not -ndim <= axis < ndim:
            raise invalid(
                op.name,
                f"ScanOp: Expected scan axis in the range [{-ndim}, {ndim}), but got {axis}",
            )
        return apply(op, x, axis=axis % ndim, exclusive=exclusive, reverse=reverse)

    scan.__name__ = op.name.lower()
    scan.__doc__ = (
        f"The running {'sum' if op is Cumsum else 'product'} along `axis`; `exclusive` leaves "
        "each element out of its own result, `reverse` runs from the end."
    )
    return scan


def _bool_attr(value, name):
    """A bool attribute of an op, as TF takes it: True or False (None: the default, False)."""
    if value is None:
        return False
    if not isinstance(value, bool):
        raise TypeError(f"Expected bool for argument '{name}' not {value!r}.")
    return value


cumsum = _scan(Cumsum)
cumprod = _scan(Cumprod)


def _deeper_than_numpy(value):
    return isinstance(value, (list, tuple)) and len(nest_shape(value)[0]) > 64


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


# --- Python operators on tensors and variables --------------------------------------------
def _equality(fn, default):
    """`==` / `!=` as TF's: None is never equal; operands whose shapes do not broadcast give
    a scalar bool tensor (`default`); an operand that cannot be converted is an error."""

    def compare(self, other):
        if other is None:
            return default
        x = read(self)
        y = operand(other, x, fn.__name__)
        try:
            np.broadcast_shapes(x._value.shape, y._value.shape)
        except ValueError:
            return Tensor(np.bool_(default))
        return fn(x, y)

    return compare


def _rev(fn, op_name):
    """`other <op> self` for a Python or numpy `other`: as TF's reflected operators, it first
    takes self's dtype (`2 * w` with a float variable w is float), then the op runs."""

    def reflected(self, other):
        self = read(self)
        return fn(operand(other, self, op_name), self)

    return reflected


def _mul_checked(x, y):
    """`x * y`, the operator. As TF's, when either side is a bool tensor both are cast to
    int32, multiplied, and the product is cast back to bool (`b * 2.5` is `b`, `b * 0.0` all
    False), where `tf.multiply` itself refuses bools, and `2 * b` refuses to make 2 a bool."""
    try:
        return multiply(x, y)
    except (TypeError, InvalidArgumentError):
        if not any(
            isinstance(t, _TensorLike) and t._read_value().dtype.kind == "b" for t in (x, y)
        ):
            raise
    return cast(multiply(cast(x, _dt.int32), cast(y, _dt.int32)), _dt.bool)


_mul_operator = _fast_binary(Mul, _NUMBERS, _mul_checked, "_mul_operator", _mul_checked.__doc__)


for _name, _fn in {
    "__add__": add,
    "__radd__": _rev(add, "AddV2"),
    "__sub__": subtract,
    "__rsub__": _rev(subtract, "Sub"),
    "__mul__": _mul_operator,
    "__rmul__": _rev(multiply, "Mul"),
    "__truediv__": divide,
    "__rtruediv__": _rev(divide, "RealDiv"),
    "__floordiv__": floordiv,
    "__rfloordiv__": _rev(floordiv, "FloorDiv"),
    "__mod__": floormod,
    "__rmod__": _rev(floormod, "FloorMod"),
    "__pow__": pow,
    "__rpow__": _rev(pow, "Pow"),
    "__matmul__": matmul,
    "__rmatmul__": _rev(matmul, "MatMul"),
    "__neg__": negative,
    "__abs__": abs,
    "__lt__": less,
    "__le__": less_equal,
    "__gt__": greater,
    "__ge__": greater_equal,
    "__eq__": _equality(equal, False),
    "__ne__": _equality(not_equal, True),
    "__getitem__": getitem,
    "__and__": logical_and,
    "__rand__": _rev(logical_and, "LogicalAnd"),
    "__or__": logical_or,
    "__ror__": _rev(logical_or, "LogicalOr"),
    "__xor__": logical_xor,
    "__rxor__": _rev(logical_xor, "LogicalXor"),
    "__invert__": logical_not,
}.items():
    setattr(_TensorLike, _name, _fn)

Tensor.__hash__ = Variable.__hash__ = _TensorLike.__hash__

# The public functions (the Op objects themselves are in `minitape.raw_ops`, as TF keeps its
# ops in `tf.raw_ops`: the top level holds functions only).
__all__ = [
    n
    for n in dir()
    if not n.startswith("_")
    and not isinstance(globals()[n], Op)
    and n
    not in {
        "np",
        "builtins",
        "math",
        "re",
        "apply",
        "Op",
        "STATE",
        "invalid",
        "UnimplementedError",
        "operand",
        "read",
        "tf_type_name",
        "convert_to_tensor",
        "Tensor",
        "Variable",
        "TensorShape",
    }
]
