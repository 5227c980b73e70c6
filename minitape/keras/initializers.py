"""Initializers: the starting values of a layer's variables.

They draw from `minitape.random`, so `tf.random.set_seed(s)` before building a model makes its
initial weights repeat exactly (the numbers are not TF's: the random generators differ).
"""

import math

import numpy as np

from .. import random
from ..dtypes import as_dtype, float32
from ..ops import cast, fill, ones, zeros
from ..tensor import is_tensor
from ._config import from_config

__all__ = [
    "Initializer",
    "Zeros",
    "Ones",
    "Constant",
    "RandomNormal",
    "RandomUniform",
    "GlorotUniform",
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


class RandomNormal(Initializer):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def __call__(self, shape, dtype=None):
        return random.normal(shape, self.mean, self.stddev, dtype or float32, seed=self.seed)


class RandomUniform(Initializer):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def __call__(self, shape, dtype=None):
        return random.uniform(shape, self.minval, self.maxval, dtype or float32, seed=self.seed)


def _fans(shape):
    """(inputs, outputs) of one unit: a (3, 4) kernel maps 3 inputs to 4 outputs."""
    shape = tuple(shape)
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    receptive_field = math.prod(shape[:-2])
    return shape[-2] * receptive_field, shape[-1] * receptive_field


class GlorotUniform(Initializer):
    """Uniform on [-limit, limit] with limit = sqrt(6 / (fan_in + fan_out)).

    Glorot & Bengio (2010): this keeps the variance of activations and of gradients roughly
    the same from layer to layer, so a deep stack neither explodes nor fades at the start."""

    def __init__(self, seed=None):
        self.seed = seed

    def __call__(self, shape, dtype=None):
        fan_in, fan_out = _fans(shape)
        limit = math.sqrt(6.0 / max(1.0, fan_in + fan_out))
        return random.uniform(shape, -limit, limit, dtype or float32, seed=self.seed)


_BY_NAME = {
    "zeros": Zeros,
    "ones": Ones,
    "constant": Constant,
    "random_normal": RandomNormal,
    "random_uniform": RandomUniform,
    "glorot_uniform": GlorotUniform,
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
    if isinstance(found, type):
        return found()
    if callable(found):
        return found
    raise ValueError(f"Could not interpret initializer identifier: {identifier}")


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
