"""Random tensors, seeded the way TF seeds them.

`set_seed(s)` makes every later sequence of draws repeat exactly. An op-level `seed=` gives
that op its own stream (repeating calls with the same seed continue the stream, as in TF).
Draws are ops (with no inputs), so `minitape.function` replays them instead of freezing them.
"""

import contextlib
import copy

import numpy as np

from . import dtypes as _dt
from .errors import invalid
from .ops import _shape_arg
from .tape import Op, apply

__all__ = ["set_seed", "normal", "uniform", "shuffle"]

_global = {"seed": None, "rng": np.random.default_rng(), "streams": {}}


@contextlib.contextmanager
def _unchanged():
    """Draws inside this block do not advance any generator (for a trace that changes nothing)."""
    saved = copy.deepcopy(_global)
    try:
        yield
    finally:
        _global.clear()
        _global.update(saved)


def _seed(seed):
    """A seed as TF takes it: None, or an integer (Python, numpy or a scalar integer tensor; a
    negative one too), as a non-negative Python int for numpy's generators."""
    if seed is None:
        return None
    from .ops import _int_arg

    return _int_arg(seed, "seed") % 2**63


def set_seed(seed):
    """Reset the global seed: all later draws (with or without op seeds) repeat."""
    seed = _seed(seed)
    _global["seed"] = seed
    _global["rng"] = np.random.default_rng(seed)
    _global["streams"] = {}


def _rng(seed):
    seed = _seed(seed)
    if seed is None:
        return _global["rng"]
    key = (_global["seed"], seed)
    if key not in _global["streams"]:
        _global["streams"][key] = np.random.default_rng([0 if key[0] is None else key[0], seed])
    return _global["streams"][key]


def _float_dtype(dtype, what):
    d = _dt.as_dtype(dtype)
    if not d.is_floating:
        # (TF fails converting the default mean 0.0 to that dtype)
        raise TypeError(
            f"Cannot convert 0.0 to EagerTensor of dtype {d.name} (random.{what} "
            "needs a floating dtype)"
        )
    return d._np


RandomNormal = Op(
    "RandomStandardNormal",
    lambda shape, mean, stddev, dtype, seed: (
        _rng(seed).standard_normal(shape) * stddev + mean
    ).astype(dtype),
)
RandomUniform = Op(
    "RandomUniform",
    lambda shape, lo, hi, dtype, seed: (
        _rng(seed).uniform(lo, hi, shape).astype(dtype)
        if np.dtype(dtype).kind == "f"
        else _rng(seed).integers(lo, hi, shape).astype(dtype)
    ),
)


def _invalid_shape(op_name):
    """A shape that is not integers reaches TF's random kernels: their InvalidArgumentError."""
    return lambda message: invalid(op_name, message)


def normal(shape, mean=0.0, stddev=1.0, dtype=_dt.float32, seed=None, name=None):
    """Samples from N(mean, stddev**2) with the given shape."""
    _seed(seed)  # (a bad seed is refused here, with TF's TypeError, not inside the op)
    return apply(
        RandomNormal,
        shape=_shape_arg(shape, _invalid_shape("RandomStandardNormal"), by_op=False),
        mean=float(mean),
        stddev=float(stddev),
        dtype=_float_dtype(dtype, "normal"),
        seed=seed,
    )


def uniform(shape, minval=0, maxval=None, dtype=_dt.float32, seed=None, name=None):
    """Samples from U[minval, maxval) (maxval defaults to 1 for floats)."""
    d = _dt.as_dtype(dtype)
    if maxval is None:
        if not d.is_floating:
            raise ValueError("Must specify maxval for integer dtype " + d.name)
        maxval = 1.0
    _seed(seed)
    return apply(
        RandomUniform,
        shape=_shape_arg(shape, _invalid_shape("RandomUniform"), by_op=False),
        lo=float(minval) if d.is_floating else int(minval),
        hi=float(maxval) if d.is_floating else int(maxval),
        dtype=d._np,
        seed=seed,
    )


RandomShuffle = Op(
    "RandomShuffle",
    lambda x, seed: x.copy() if x.ndim == 0 else x[_rng(seed).permutation(len(x))],
)  # (a scalar has nothing to shuffle: it comes back as it is, as in TF)
RandomShuffle.vjps = (None,)  # not differentiable


def shuffle(value, seed=None, name=None):
    """A copy of `value` with its first dimension shuffled (not differentiable)."""
    from .tensor import read

    return apply(RandomShuffle, read(value), seed=seed)
