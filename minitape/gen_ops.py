"""The primitives: each `Op`, a name as TF calls it and a numpy forward (TF's gen_*_ops).

An `Op` is run and recorded by `tape.apply`; its gradient rules are rows of the table in
`grads.py`; the public functions that check their arguments and call `apply` are in
`math_ops.py`, `array_ops.py` and `creation_ops.py` (gathered in `ops.py`). A `check`, when
an op has one, is called only when numpy fails, to word the error as TF's kernel does.
"""

import functools
import math
import operator
import warnings

import numpy as np

from .errors import invalid
from .tape import Op

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
    if x.dtype == np.float16:  # TF's half kernel: e^x / (1 + e^x), rounded to half at each step
        with np.errstate(over="ignore", invalid="ignore"):
            e = np.exp(x)
            return np.where(e == np.inf, np.float16(1), e / (np.float16(1) + e))[()]
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


def _sigmoid_grad(y, dy):
    if y.dtype == np.float16 and y.shape == dy.shape:
        return _sigmoid_grad_half(y, dy)
    return dy * y * (1 - y)


def _sigmoid_grad_half(y, dy):
    """TF's half kernel rounds at each step in the order of its vector loop: dy * (y * (1 - y))
    by packets of 8, then (dy * y) * (1 - y) for the elements left over at the end."""
    one = np.float16(1)
    flat_y, flat_dy = y.ravel(), dy.ravel()
    out = flat_dy * (flat_y * (one - flat_y))
    tail = flat_y.size - flat_y.size % 8
    out[tail:] = (flat_dy[tail:] * flat_y[tail:]) * (one - flat_y[tail:])
    return out.reshape(y.shape)[()]


SigmoidGrad = _op("SigmoidGrad", _sigmoid_grad)
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
