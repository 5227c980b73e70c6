"""Initializers: the starting values of a layer's variables, drawn as Keras 3 draws them.

A random initializer holds a seed: the one it is given, or else one it takes from Python's
`random` when it is made (`random.randint(1, 10**9)`, as Keras 3 does). Every call draws with
TF's stateless ops seeded [seed, 0], so the same initializer gives the same values each time.
`tf.keras.utils.set_random_seed(s)` seeds Python's `random` (and numpy and TF): the layers made
after it start from TF's very weights. `tf.random.set_seed(s)` alone does not: two models
built after it differ, in Keras 3 as here.
"""

import math
import random as _py_random

import numpy as np

from .. import random
from ..dtypes import as_dtype, float32
from ..ops import cast, fill, ones, zeros
from ..tensor import is_tensor
from ._config import from_config, made

__all__ = [
    "Initializer",
    "Zeros",
    "Ones",
    "Constant",
    "RandomNormal",
    "RandomUniform",
    "TruncatedNormal",
    "VarianceScaling",
    "GlorotUniform",
    "GlorotNormal",
    "HeNormal",
    "HeUniform",
    "LecunNormal",
    "LecunUniform",
    "get",
]


class Initializer:
    """`initializer(shape, dtype)` returns a tensor of that shape."""

    def __call__(self, shape, dtype=None):
        raise NotImplementedError

    def __repr__(self):
        return f"{type(self).__name__}()"


class Zeros(Initializer):
    def __call__(self, shape, dtype=None):
        return zeros(shape, dtype or float32)


class Ones(Initializer):
    def __call__(self, shape, dtype=None):
        return ones(shape, dtype or float32)


class Constant(Initializer):
    def __init__(self, value=0):
        self.value = value

    def __call__(self, shape, dtype=None):
        return fill(shape, np.asarray(self.value, dtype=as_dtype(dtype or float32).as_numpy_dtype))


def _default_seed():
    """Keras 3's `make_default_seed`: a seed from Python's global `random`."""
    return _py_random.randint(1, int(1e9))


def _stateless_seed(seed):
    """The stateless ops' seed for an integer seed: Keras 3 makes it [seed, 0] (int64), then
    brings it into int32 with floormod(seed, 2**31 - 2)."""
    return (seed % (2**31 - 2), 0)


class RandomInitializer(Initializer):
    """An initializer that draws: its `seed` is given (an integer) or taken when it is made."""

    def __init__(self, seed=None):
        self._init_seed = seed
        if seed is None:
            seed = _default_seed()
        elif not isinstance(seed, int):
            raise ValueError(
                "`seed` argument should be an instance of `keras.random.SeedGenerator()` or "
                f"an integer. Received: seed={seed}"
            )
        self.seed = seed

    def _seed(self):
        return _stateless_seed(self.seed)


class RandomNormal(RandomInitializer):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev = mean, stddev
        super().__init__(seed)

    def __call__(self, shape, dtype=None):
        return random.stateless_normal(
            shape, self._seed(), self.mean, self.stddev, as_dtype(dtype or float32)
        )


class TruncatedNormal(RandomInitializer):
    """Normal values cut at two standard deviations (a value further out is drawn again)."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev = mean, stddev
        super().__init__(seed)

    def __call__(self, shape, dtype=None):
        return random.stateless_truncated_normal(
            shape, self._seed(), self.mean, self.stddev, as_dtype(dtype or float32)
        )


def _uniform(shape, minval, maxval, dtype, seed):
    d = as_dtype(dtype or float32)
    lo, hi = np.asarray(minval, d.as_numpy_dtype), np.asarray(maxval, d.as_numpy_dtype)
    return random.stateless_uniform(shape, seed, lo, hi, d)


class RandomUniform(RandomInitializer):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval = minval, maxval
        super().__init__(seed)

    def __call__(self, shape, dtype=None):
        return _uniform(shape, self.minval, self.maxval, dtype, self._seed())


def _fans(shape):
    """(inputs, outputs) of one unit: a (3, 4) kernel maps 3 inputs to 4 outputs."""
    shape = tuple(shape)
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    receptive_field = math.prod(shape[:-2])
    return shape[-2] * receptive_field, shape[-1] * receptive_field


class VarianceScaling(RandomInitializer):
    """Values whose variance is `scale` divided by the fan (in, out or their mean): a normal
    cut at two standard deviations, a plain normal, or a uniform."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None):
        if scale <= 0.0:
            raise ValueError(f"Argument `scale` must be positive float. Received: scale={scale}")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(
                f"Invalid `mode` argument: {mode}. Please use one of "
                "{'fan_in', 'fan_out', 'fan_avg'}"
            )
        distribution = distribution.lower()
        if distribution == "normal":
            distribution = "truncated_normal"
        if distribution not in ("uniform", "truncated_normal", "untruncated_normal"):
            raise ValueError(
                f"Invalid `distribution` argument: {distribution}.Please use one of "
                "{'uniform', 'truncated_normal', 'untruncated_normal'}"
            )
        self.scale, self.mode, self.distribution = scale, mode, distribution
        super().__init__(seed)

    def __call__(self, shape, dtype=None):
        fan_in, fan_out = _fans(shape)
        scale = self.scale  # (computed in Keras 3's order: the last bits of the limit depend on it)
        if self.mode == "fan_in":
            scale /= max(1.0, fan_in)
        elif self.mode == "fan_out":
            scale /= max(1.0, fan_out)
        else:
            scale /= max(1.0, (fan_in + fan_out) / 2.0)
        d = as_dtype(dtype or float32)
        if self.distribution == "truncated_normal":
            stddev = math.sqrt(scale) / 0.87962566103423978  # (the sd of N(0, 1) cut at +-2)
            return random.stateless_truncated_normal(shape, self._seed(), 0.0, stddev, d)
        if self.distribution == "untruncated_normal":
            return random.stateless_normal(shape, self._seed(), 0.0, math.sqrt(scale), d)
        limit = math.sqrt(3.0 * scale)
        return _uniform(shape, -limit, limit, d, self._seed())


class GlorotUniform(VarianceScaling):
    """Uniform on [-limit, limit] with limit = sqrt(6 / (fan_in + fan_out)).

    Glorot & Bengio (2010): this keeps the variance of activations and of gradients roughly
    the same from layer to layer, so a deep stack neither explodes nor fades at the start."""

    def __init__(self, seed=None):
        super().__init__(1.0, "fan_avg", "uniform", seed)


class GlorotNormal(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(1.0, "fan_avg", "truncated_normal", seed)


class HeNormal(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(2.0, "fan_in", "truncated_normal", seed)


class HeUniform(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(2.0, "fan_in", "uniform", seed)


class LecunNormal(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(1.0, "fan_in", "truncated_normal", seed)


class LecunUniform(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(1.0, "fan_in", "uniform", seed)


_BY_NAME = {
    "zeros": Zeros,
    "ones": Ones,
    "constant": Constant,
    "random_normal": RandomNormal,
    "random_uniform": RandomUniform,
    "truncated_normal": TruncatedNormal,
    "variance_scaling": VarianceScaling,
    "glorot_uniform": GlorotUniform,
    "glorot_normal": GlorotNormal,
    "he_normal": HeNormal,
    "he_uniform": HeUniform,
    "lecun_normal": LecunNormal,
    "lecun_uniform": LecunUniform,
    "normal": RandomNormal,  # (Keras' aliases)
    "uniform": RandomUniform,
    "one": Ones,
    "zero": Zeros,
}


_CLASSES = {c.__name__: c for c in set(_BY_NAME.values())}


def get(identifier):
    """An initializer from its name ('glorot_uniform' or 'GlorotUniform', 'zeros', ...), from
    a config dict (`{"class_name": "Constant", "config": {"value": 2.0}}`), from a tensor or
    array (its values, for a variable of its shape), a class (made with its defaults) or a
    callable as is; None stays None, as in Keras 3."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        found = from_config(identifier, {**_BY_NAME, **_CLASSES}, "initializer")
    elif isinstance(identifier, str):
        key = (
            identifier
            if identifier in _BY_NAME
            else "".join("_" + c.lower() if c.isupper() else c for c in identifier).lstrip("_")
        )
        if key not in _BY_NAME:
            raise ValueError(
                f"Unknown initializer: '{identifier}'. Known names: {sorted(_BY_NAME)}."
            )
        found = _BY_NAME[key]
    elif is_tensor(identifier) or isinstance(identifier, (np.ndarray, np.generic)):
        found = _of_values(identifier)
    else:
        found = identifier
    return made(found, identifier, "initializer")


def _of_values(values):
    """Keras' initializer of a tensor or array: those values, cast, for a shape that is theirs."""

    def initialize_fn(shape, dtype=None):
        have = tuple(np.shape(values))
        if tuple(shape) != have:
            raise ValueError(
                f"Expected `shape` to be {have} for direct tensor as initializer. "
                f"Received shape={shape}"
            )
        return cast(values, as_dtype(dtype or float32))

    return initialize_fn
