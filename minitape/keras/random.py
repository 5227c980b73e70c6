"""`tf.keras.random`: Keras 3's random draws, and the `SeedGenerator` a layer draws from.

Keras 3 draws with TF's stateless ops. A `SeedGenerator` holds its state in a non-trainable
int64 variable, `[seed, counter]`; each draw uses the state, then adds one to the counter, so
a Dropout layer drops different units on each call yet repeats them all after
`keras.utils.set_random_seed`. The seed it starts from is the one it is given, or else one
taken from Python's `random` when it is made (as the initializers take theirs). The state
becomes the stateless ops' int32 seed with floormod(state, 2**31 - 2), as Keras does.
"""

import numpy as np

from .. import random as _tf_random
from ..dtypes import as_dtype, float32, int32, int64
from ..ops import add, cast, convert_to_tensor, floormod, identity, where, zeros_like
from .initializers import _default_seed
from .variables import Variable as KerasVariable

__all__ = ["SeedGenerator", "normal", "uniform", "truncated_normal", "dropout"]

_generator_counts = {}


class SeedGenerator:
    """A seed that moves on after every draw: pass it as `seed=` to the draws below."""

    def __init__(self, seed=None, name=None):
        if name is None:
            n = _generator_counts.get("seed_generator", 0)
            _generator_counts["seed_generator"] = n + 1
            name = "seed_generator" if n == 0 else f"seed_generator_{n}"
        self.name = name
        self._initial_seed = seed
        if seed is None:
            seed = _default_seed()
        if not isinstance(seed, int):
            raise ValueError(f"Argument `seed` must be an integer. Received: seed={seed}")
        self.state = KerasVariable(
            np.array([seed, 0], np.int64),
            (2,),
            dtype=int64,
            trainable=False,
            name="seed_generator_state",
            path=f"{name}/seed_generator_state",
        )

    def next(self):
        """The state as it is now (an int64 pair); the counter moves on by one. (Ops only, so
        that a tf.function replays the draw with the state of each call.)"""
        value = identity(self.state.value)
        self.state.assign(add(value, np.array([0, 1], np.int64)))
        return value


_global = []


def _draw_seed(seed):
    """The stateless ops' int32 seed pair for Keras' `seed=`: an int, a SeedGenerator, or
    None (Keras' global generator)."""
    if isinstance(seed, SeedGenerator):
        pair = seed.next()
    elif isinstance(seed, int) and not isinstance(seed, bool):
        pair = convert_to_tensor(np.array([seed, 0], np.int64))
    elif seed is None:
        if not _global:
            _global.append(SeedGenerator())
        pair = _global[0].next()
    else:
        raise ValueError(
            "Argument `seed` must be either an integer or an instance of `SeedGenerator`. "
            f"Received: seed={seed} (of type {type(seed)})"
        )
    return cast(floormod(pair, np.int64(2**31 - 2)), int32)


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    d = as_dtype(dtype or float32)
    return _tf_random.stateless_normal(shape, _draw_seed(seed), mean, stddev, d)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    d = as_dtype(dtype or float32)
    return _tf_random.stateless_truncated_normal(shape, _draw_seed(seed), mean, stddev, d)


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    d = as_dtype(dtype or float32)
    lo, hi = np.asarray(minval, d.as_numpy_dtype), np.asarray(maxval, d.as_numpy_dtype)
    return _tf_random.stateless_uniform(shape, _draw_seed(seed), lo, hi, d)


def dropout(inputs, rate, noise_shape=None, seed=None):
    """Keras' dropout: TF's stateless dropout with the seed drawn as above. A unit is kept
    where a uniform draw of the noise shape is >= rate, and scaled by 1 / (1 - rate)."""
    inputs = convert_to_tensor(inputs)
    if rate == 1.0:
        return zeros_like(inputs)
    if rate == 0.0:
        return inputs
    pair = _draw_seed(seed)
    shape = tuple(inputs.shape)
    if noise_shape is not None:
        shape = tuple(s if n is None else n for s, n in zip(shape, noise_shape))
    d = inputs.dtype
    draws = _tf_random.stateless_uniform(shape, pair, dtype=d)
    scale = convert_to_tensor(1 / (1 - rate), dtype=d)
    return where(draws >= convert_to_tensor(rate, dtype=d), inputs * scale, zeros_like(inputs))
