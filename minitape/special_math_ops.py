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

from .errors import NotFoundError
from .gen_ops import _broadcast_check, _op
from .math_ops import _reduction
from .op_args import (
    _ALLOWED_BY_OP,
    _FLOATS,
    _NUMBERS,
    _REAL_FLOATS,
    _binary,
    _input,
    _unary,
)

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
    """A numpy forward from a function of `nargs` float64 numbers (numpy's, so that a division
    by zero or an overflow gives inf or nan, as in C, not a Python exception); the result in
    the last input's dtype."""
    ufunc = np.frompyfunc(scalar_fn, nargs, 1)

    def forward(*xs):
        with np.errstate(all="ignore"):
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
    x = np.float64(x)
    if np.isnan(x):
        return x
    reflection = 0.0
    if x <= 0:
        if x == np.floor(x):
            return np.nan
        reflection = np.pi / np.tan(np.pi * (x - np.floor(x)))
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
    return np.log(x) - 0.5 / x - y - w - reflection


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
    s, q = np.float64(s), np.float64(q)
    if np.isnan(s) or np.isnan(q):
        return np.nan
    if s == 1:
        return np.inf
    if s < 1:
        return np.nan
    if q <= 0:
        if q == np.floor(q):
            even = np.isfinite(s) and s == np.floor(s) and int(s) % 2 == 0
            return np.inf if even or np.isinf(s) else np.nan
        if s != np.floor(s):
            return np.nan  # (a negative q to a fractional power)
    if np.isinf(q):
        return 0.0
    if np.isinf(s):  # (q ** -inf alone: 1 at q = 1, inf below, 0 above)
        return 1.0 if q == 1 else np.inf if q < 1 else 0.0
    total, a, i, b = np.power(q, -s), q, 0, 0.0
    while i < 9 or a <= 9:
        i, a = i + 1, a + 1
        b = np.power(a, -s)
        total += b
        if abs(b / total) < _EPS:  # (b / 0 is inf, as in C: no early stop)
            return total
    w = a
    total += b * w / (s - 1) - 0.5 * b
    a, k = 1.0, 0.0
    for c in _ZETA_TAIL:
        a *= s + k
        b /= w
        t = a * b / c
        total += t
        if abs(t / total) < _EPS:
            break
        k += 1
        a *= s + k
        b /= w
        k += 1
    return total


def _polygamma(n, x):
    n = np.float64(n)
    if not np.isfinite(n) or n != np.floor(n) or n < 0:
        return np.nan
    if n == 0:
        return _digamma(x)
    return (-1) ** (n + 1) * np.exp(math.lgamma(n + 1)) * _zeta(n + 1, x)


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
Polygamma = _op("Polygamma", _elementwise(_polygamma, 2), _broadcast_check("Polygamma"))
Zeta = _op("Zeta", _elementwise(_zeta, 2), _broadcast_check("Zeta"))
Atan2 = _op("Atan2", np.arctan2, _broadcast_check("Atan2"))
Xlogy = _op(
    "Xlogy",
    lambda x, y: np.where(x == 0, 0, x * np.log(np.where(x == 0, 1, y))).astype(x.dtype)[()],
    _broadcast_check("Xlogy"),
)
Xdivy = _op(
    "Xdivy",
    lambda x, y: np.where(x == 0, 0, x / np.where(x == 0, 1, y)).astype(x.dtype)[()],
    _broadcast_check("Xdivy"),
)
SquaredDifference = _op(
    "SquaredDifference", lambda x, y: np.square(x - y), _broadcast_check("SquaredDifference")
)
EuclideanNorm = _op(
    "EuclideanNorm",
    lambda x, axis, keepdims: np.sqrt(np.sum(np.square(x), axis=axis, keepdims=keepdims)).astype(
        x.dtype
    )[()],
)


# --- the public functions -----------------------------------------------------------------
# TF's lists of dtypes in its errors, where they are not those of the ops' kinds
_ALLOWED_BY_OP.update(
    {
        **dict.fromkeys(
            ["Acos", "Asin", "Atan", "Acosh", "Asinh", "Atanh", "Sinh", "Cosh", "Expm1", "Rsqrt"],
            "bfloat16, half, float, double, complex64, complex128",
        ),
        "Xlogy": "half, bfloat16, float, double, complex64, complex128",
        "Xdivy": "half, bfloat16, float, double, complex64, complex128",
        "Polygamma": "float, double",
        "Zeta": "float, double",
        "SquaredDifference": "bfloat16, half, float, double, int32, int64, complex64, complex128",
    }
)


def _unary_fn(op, kinds=_FLOATS):
    def fn(x, name=None):
        return _unary(op, x, kinds)

    fn.__name__ = fn.__qualname__ = op.name.lower()
    return fn


acos = _unary_fn(Acos)
asin = _unary_fn(Asin)
atan = _unary_fn(Atan)
acosh = _unary_fn(Acosh)
asinh = _unary_fn(Asinh)
atanh = _unary_fn(Atanh)
sinh = _unary_fn(Sinh)
cosh = _unary_fn(Cosh)
expm1 = _unary_fn(Expm1)
rsqrt = _unary_fn(Rsqrt)
erfc = _unary_fn(Erfc, _REAL_FLOATS)
lgamma = _unary_fn(Lgamma, _REAL_FLOATS)
digamma = _unary_fn(Digamma, _REAL_FLOATS)


def reciprocal(x, name=None):
    x = _input(x, _NUMBERS)
    if x._value.dtype.kind in "iu":  # (TF registers Reciprocal for integers, with no CPU kernel)
        raise NotFoundError(
            None,
            "Reciprocal",
            "Could not find device for node: {{node Reciprocal}} = "
            f"Reciprocal[T=DT_{x.dtype.name.upper()}]",
        )
    return _unary(Reciprocal, x, _FLOATS)


_polygamma = _binary(Polygamma, "polygamma", None, _REAL_FLOATS)
_zeta = _binary(Zeta, "zeta", None, _REAL_FLOATS)


def polygamma(a, x, name=None):
    """The a-th derivative of digamma at x (nan unless a is a whole number)."""
    return _polygamma(a, x)


def zeta(x, q, name=None):
    """The Hurwitz zeta function: the sum over k >= 0 of (k + q) ** -x."""
    return _zeta(x, q)


atan2 = _binary(Atan2, "atan2", "The angle of the point (x, y), element-wise.", _REAL_FLOATS)
xlogy = _binary(Xlogy, "xlogy", "x * log(y), and 0 where x is 0.", _FLOATS)
xdivy = _binary(Xdivy, "xdivy", "x / y, and 0 where x is 0.", _FLOATS)
squared_difference = _binary(
    SquaredDifference, "squared_difference", "(x - y) ** 2, element-wise.", _NUMBERS
)

reduce_euclidean_norm = _reduction(EuclideanNorm)
reduce_euclidean_norm.__name__ = "reduce_euclidean_norm"
reduce_euclidean_norm.__doc__ = "sqrt(sum(x ** 2)) over `axis` (all axes by default)."
