"""Math on tensors: arithmetic, casts, comparisons and logic, matmul, reductions.

Each public function checks and converts its arguments (`op_args.py`), then calls
`tape.apply` with its primitive (`gen_ops.py`). Python's operators on tensors (`+`, `*`, `@`,
`==`, ...) are these functions, installed on the tensor classes in `ops.py`.
"""

import numpy as np

from . import dtypes as _dt
from .errors import InvalidArgumentError, NotFoundError, UnimplementedError, invalid
from .gen_ops import (
    Abs,
    Add,
    AddN,
    All,
    Any,
    Cast,
    Ceil,
    ClipByValue,
    Cos,
    Cumprod,
    Cumsum,
    Div,
    DivNoNan,
    Elu,
    Exp,
    Floor,
    FloorDiv,
    FloorMod,
    Identity,
    IsFinite,
    IsInf,
    IsNan,
    Log,
    Log1p,
    LogicalNot,
    MatMul,
    Max,
    Maximum,
    Mean,
    Min,
    Minimum,
    Mul,
    Neg,
    Pow,
    Prod,
    Relu,
    Round,
    Select,
    Sigmoid,
    Sign,
    Sin,
    Softplus,
    Sqrt,
    Square,
    StopGradient,
    StringAdd,
    Sub,
    Sum,
    Tan,
    Tanh,
    Where,
    _binop,
    _dims,
)
from .op_args import (
    _BOOLS,
    _FLOATS,
    _NUMBERS,
    _REAL_FLOATS,
    _REALS,
    _SIGNED,
    _axes,
    _binary,
    _deeper_than_numpy,
    _fast_binary,
    _input,
    _int_values,
    _refuse,
    _unary,
)
from .tape import SparseGradient, apply
from .tensor import (
    Tensor,
    TensorShape,
    Variable,
    _leaves,
    _TensorLike,
    convert_to_tensor,
    operand,
    read,
    tf_type_name,
)


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
    if type(x) is not Tensor:
        if isinstance(x, SparseGradient):  # (a gather's slices: their values cast, as in TF)
            return x._cast(dtype)
        x = read(x)
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


# --- matrices ------------------------------------------------------------------
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
