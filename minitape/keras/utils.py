"""`tf.keras.utils.set_random_seed`: one seed for every generator a Keras program draws from."""

import random as _py_random

import numpy as np

from .. import random
from .backend import clear_session  # noqa: F401
from .data_adapter import pack_x_y_sample_weight, unpack_x_y_sample_weight  # noqa: F401
from .progbar import Progbar  # noqa: F401

__all__ = [
    "Progbar",
    "clear_session",
    "pack_x_y_sample_weight",
    "set_random_seed",
    "unpack_x_y_sample_weight",
]


def set_random_seed(seed):
    """Seed Python's `random` (where Keras 3's initializers take their seeds when no seed is
    given), numpy's global generator and TF's global seed, as Keras 3 does: a model built after
    it starts from the same weights every time, TF's very weights."""
    if not isinstance(seed, int):
        raise ValueError(
            "Expected `seed` argument to be an integer. "
            f"Received: seed={seed} (of type {type(seed)})"
        )
    _py_random.seed(seed)
    np.random.seed(seed)
    random.set_seed(seed)
