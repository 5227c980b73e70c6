"""The rest of `tf.math`'s element-wise functions, as TF 2.21 computes them: the inverse
trigonometric and hyperbolic functions, `sinh`/`cosh`, `expm1`, `rsqrt`, `reciprocal`,
`erfc`, the gamma family (`lgamma`, `digamma`, `polygamma`, `zeta`), and the binary `atan2`,
`xlogy`, `xdivy`, `squared_difference`; and `reduce_euclidean_norm`.

Built as `ops.py` builds its own: an `Op` per primitive (named as TF names it, with a numpy
forward), a public function that checks its argument's dtype as TF does, and a row per op in
`grads.py`'s table. numpy has no gamma family: `lgamma` and `erfc` take Python's `math`
functions element by element, and `digamma` and `zeta` are written out below, by the same
series as the Cephes code TF's kernels (Eigen) use, in float64.
"""

import math

import numpy as np

from . import ops as o
from .errors import NotFoundError, invalid
from .ops import _FLOATS, _REAL_FLOATS, _binary, _op, _unary
from .tape import apply
from .tensor import _TensorLike, read

__all__ = [
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atanh",
    "sinh",
    "cosh",
    "expm1",
    "rsqrt",
    "reciprocal",
    "erfc",
    "lgamma",
    "digamma",
    "polygamma",
    "zeta",
    "atan2",
    "xlogy",
    "xdivy",
    "squared_difference",
    "reduce_euclidean_norm",
]


def _elementwise(scalar_fn, nargs=1):
    """A numpy forward from a function of `nargs` Python floats (computed in float64, the
    result in the last input's dtype)."""
    ufunc = np.frompyfunc(scalar_fn, nargs, 1)

    def forward(*xs):
        out = ufunc(*[np.asarray(x, np.float64) for x in xs])
        return np.asarray(out, np.float64).astype(xs[-1].dtype)[()]

    return forward


def _lgamma(x):
    try:
        return math.lgamma(x)
    except ValueError:  # (a pole: 0, -1, -2, ...)
        return math.inf


# Cephes' psi, as Eigen's digamma: the reflection for x <= 0, the recurrence up to 10, then the
# asymptotic series
_PSI_SERIES = (
    8.33333333333333333333e-2,
    -2.10927960927960927961e-2,
    7.57575757575757575758e-3,
    -4.16666666666666666667e-3,
    3.96825396825396825397e-3,
    -8.33333333333333333333e-3,
    8.33333333333333333333e-2,
)


def _digamma(x):
    if math.isnan(x):
        return x
    reflection = 0.0
    if x <= 0:
        if x == math.floor(x):
            return math.nan
        reflection = math.pi / math.tan(math.pi * (x - math.floor(x)))
        x = 1 - x
    w = 0.0
    while x < 10:
        w += 1 / x
        x += 1
    y = 0.0
    if x < 1e17:
        z = 1 / (x * x)
        for c in _PSI_SERIES:
            y = y * z + c
        y *= z
    return math.log(x) - 0.5 / x - y - w - reflection


# Cephes' zeta (the Hurwitz zeta function), as Eigen's: a direct sum to a >= 9, then the
# Euler-Maclaurin tail with these Bernoulli-number coefficients
_ZETA_TAIL = (
    12.0,
    -720.0,
    30240.0,
    -1209600.0,
    47900160.0,
    -1.8924375803183791606e9,
    7.47242496e10,
    -2.950130727918164224e12,
    1.1646782814350067249e14,
    -4.5979787224074726105e15,
    1.8152105401943546773e17,
    -7.1661652561756670113e18,
)
_EPS = np.finfo(np.float64).eps


def _zeta(s, q):
    if math.isnan(s) or math.isnan(q):
        return math.nan
    if s == 1:
        return math.inf
    if s < 1:
        return math.nan
    if q <= 0:
        if q == math.floor(q):
            return math.inf if s == math.floor(s) and int(s) % 2 == 0 else math.nan
        if s != math.floor(s):
            return math.nan  # (a negative q to a fractional power)
    total, a, i, b = q**-s, q, 0, 0.0
    while i < 9 or a <= 9:
        i, a = i + 1, a + 1
        b = a**-s
        total += b
        if total != 0 and abs(b / total) < _EPS:  # (C's b / 0 is inf: no early stop)
            return total
    w = a
    total += b * w / (s - 1) - 0.5 * b
    a, k = 1.0, 0.0
    for c in _ZETA_TAIL:
        a *= s + k
        b /= w
        t = a * b / c
        total += t
        if total != 0 and abs(t / total) < _EPS:
            break
        k += 1
        a *= s + k
        b /= w
        k += 1
    return total


def _polygamma(n, x):
    if n != math.floor(n) or n < 0:
        return math.nan
    if n == 0:
        return _digamma(x)
    return (-1) ** (n + 1) * math.exp(math.lgamma(n + 1)) * _zeta(n + 1, x)


# --- the primitives -----------------------------------------------------------------------
Acos = _op("Acos", np.arccos)
Asin = _op("Asin", np.arcsin)
Atan = _op("Atan", np.arctan)
Acosh = _op("Acosh", np.arccosh)
Asinh = _op("Asinh", np.arcsinh)
Atanh = _op("Atanh", np.arctanh)
Sinh = _op("Sinh", np.sinh)
Cosh = _op("Cosh", np.cosh)
Expm1 = _op("Expm1", np.expm1)
Rsqrt = _op("Rsqrt", lambda x: (1 / np.sqrt(x)).astype(x.dtype)[()])
Reciprocal = _op("Reciprocal", lambda x: (1 / x).astype(x.dtype)[()])
Erfc = _op("Erfc", _elementwise(math.erfc))
Lgamma = _op("Lgamma", _elementwise(_lgamma))
Digamma = _op("Digamma", _elementwise(_digamma))
Polygamma = _op("Polygamma", _elementwise(_polygamma, 2), o._broadcast_check("Polygamma"))
Zeta = _op("Zeta", _elementwise(_zeta, 2), o._broadcast_check("Zeta"))
Atan2 = _op("Atan2", np.arctan2, o._broadcast_check("Atan2"))
Xlogy = _op(
    "Xlogy",
    lambda x, y: np.where(x == 0, 0, x * np.log(np.where(x == 0, 1, y))).astype(x.dtype)[()],
    o._broadcast_check("Xlogy"),
)
Xdivy = _op(
    "Xdivy",
    lambda x, y: np.where(x == 0, 0, x / np.where(x == 0, 1, y)).astype(x.dtype)[()],
    o._broadcast_check("Xdivy"),
)
SquaredDifference = _op(
    "SquaredDifference", lambda x, y: np.square(x - y), o._broadcast_check("SquaredDifference")
)
EuclideanNorm = _op(
    "EuclideanNorm",
    lambda x, axis, keepdims: np.sqrt(np.sum(np.square(x), axis=axis, keepdims=keepdims)).astype(
        x.dtype
    )[()],
)


# --- the public functions -----------------------------------------------------------------
# The dtypes each op has kernels for, as TF's error lists them (minitape has no complex dtype)
_WITH_COMPLEX = "bfloat16, half, float, double, complex64, complex128"
_REAL = "bfloat16, half, float, double"


def _refuse_unless_float(op, x, allowed):
    if x._value.dtype.kind != "f":
        raise invalid(
            op.name,
            f"Value for attr 'T' of {x.dtype.name} is not in the list of allowed values: {allowed}",
        )


def _unary_float(op, allowed=_WITH_COMPLEX):
    def fn(x, name=None):
        x = o._input(x, _FLOATS)
        _refuse_unless_float(op, x, allowed)
        return apply(op, x)

    return fn


def _binary_float(op, fn_name, doc, allowed):
    """A binary op's function: both operands converted as `ops._binary` converts them; a
    tensor operand that is not floating refused with the op's own list of dtypes."""
    binary = _binary(op, fn_name, doc, _REAL_FLOATS)

    def fn(x, y, name=None):
        for t in (x, y):
            if isinstance(t, _TensorLike):
                _refuse_unless_float(op, read(t), allowed)
        return binary(x, y)

    fn.__name__, fn.__doc__ = fn_name, doc
    return fn


acos = _unary_float(Acos)
asin = _unary_float(Asin)
atan = _unary_float(Atan)
acosh = _unary_float(Acosh)
asinh = _unary_float(Asinh)
atanh = _unary_float(Atanh)
sinh = _unary_float(Sinh)
cosh = _unary_float(Cosh)
expm1 = _unary_float(Expm1)
rsqrt = _unary_float(Rsqrt)
erfc = _unary_float(Erfc, _REAL)
lgamma = _unary_float(Lgamma, _REAL)
digamma = _unary_float(Digamma, _REAL)


def reciprocal(x, name=None):
    x = o._input(x, o._NUMBERS)
    if x._value.dtype.kind in "iu":  # (TF registers Reciprocal for integers, with no CPU kernel)
        raise NotFoundError(
            None,
            "Reciprocal",
            "Could not find device for node: {{node Reciprocal}} = "
            f"Reciprocal[T=DT_{x.dtype.name.upper()}]",
        )
    return _unary(Reciprocal, x, _FLOATS)


polygamma = _binary_float(
    Polygamma,
    "polygamma",
    "The a-th derivative of digamma at x (nan unless a is whole).",
    "float, double",
)
zeta = _binary_float(
    Zeta,
    "zeta",
    "The Hurwitz zeta function, the sum over k >= 0 of (k + q) ** -x.",
    "float, double",
)
atan2 = _binary_float(Atan2, "atan2", "The angle of the point (x, y), element-wise.", _REAL)
_HALF_FIRST = "half, bfloat16, float, double, complex64, complex128"
xlogy = _binary_float(Xlogy, "xlogy", "x * log(y), and 0 where x is 0.", _HALF_FIRST)
xdivy = _binary_float(Xdivy, "xdivy", "x / y, and 0 where x is 0.", _HALF_FIRST)
squared_difference = _binary(
    SquaredDifference, "squared_difference", "(x - y) ** 2, element-wise.", o._NUMBERS
)

reduce_euclidean_norm = o._reduction(EuclideanNorm)
reduce_euclidean_norm.__name__ = "reduce_euclidean_norm"
reduce_euclidean_norm.__doc__ = "sqrt(sum(x ** 2)) over `axis` (all axes by default)."
