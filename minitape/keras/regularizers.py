"""`tf.keras.regularizers`: penalties on a layer's weights (or outputs) added to the loss.

`Dense(4, kernel_regularizer=tf.keras.regularizers.l2(0.01))` makes the layer's `losses`
hold `0.01 * sum(kernel ** 2)`, computed from the kernel's current value each time `losses`
is read; a training loop adds `sum(model.losses)` to its loss, and `fit` does it for you.
"""

import math
import re

from ..ops import abs as _abs
from ..ops import cast, convert_to_tensor, reduce_sum, square
from ._config import from_config, made

__all__ = ["Regularizer", "L1", "L2", "L1L2", "l1", "l2", "l1_l2", "get"]


class Regularizer:
    """The base class: `regularizer(x)` is a scalar penalty for the tensor `x`."""

    def __call__(self, x):
        return 0.0

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _factor(value, name):
    """Keras 3's check: a non-negative, finite float (or int)."""
    if not isinstance(value, (float, int)) or math.isinf(value) or math.isnan(value) or value < 0:
        raise ValueError(
            f"Invalid value for argument {name}: expected a non-negative float."
            f"Received: {name}={value}"
        )
    return float(value)


class L1(Regularizer):
    """`l1 * sum(abs(x))`. (Keras 3 keeps `l1` as a float32 tensor, so a float64 weight's
    penalty uses float32(l1) widened.)"""

    def __init__(self, l1=0.01):
        self.l1 = convert_to_tensor(_factor(0.01 if l1 is None else l1, "l1"))

    def __call__(self, x):
        x = convert_to_tensor(x)
        return cast(self.l1, x.dtype) * reduce_sum(_abs(x))

    def get_config(self):
        return {"l1": float(self.l1)}


class L2(Regularizer):
    """`l2 * sum(square(x))`: weight decay, added to the loss."""

    def __init__(self, l2=0.01):
        self.l2 = _factor(0.01 if l2 is None else l2, "l2")

    def __call__(self, x):
        x = convert_to_tensor(x)
        return cast(self.l2, x.dtype) * reduce_sum(square(x))

    def get_config(self):
        return {"l2": self.l2}


class L1L2(Regularizer):
    """Both penalties: `l1 * sum(abs(x)) + l2 * sum(square(x))` (each only if non-zero)."""

    def __init__(self, l1=0.0, l2=0.0):
        self.l1 = _factor(0.0 if l1 is None else l1, "l1")
        self.l2 = _factor(0.0 if l2 is None else l2, "l2")

    def __call__(self, x):
        x = convert_to_tensor(x)
        regularization = convert_to_tensor(0.0, dtype=x.dtype)
        if self.l1 != 0.0:
            regularization += cast(self.l1, x.dtype) * reduce_sum(_abs(x))
        if self.l2 != 0.0:
            regularization += cast(self.l2, x.dtype) * reduce_sum(square(x))
        return regularization

    def get_config(self):
        return {"l1": self.l1, "l2": self.l2}


l1, l2, l1_l2 = L1, L2, L1L2


def _snake_case(name):
    """Keras' `to_snake_case` ('L1L2' stays 'l1l2')."""
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", re.sub(r"\W+", "", name))
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()


_CLASSES = {c.__name__: c for c in (Regularizer, L1, L2, L1L2)}
_BY_NAME = {**_CLASSES, **{_snake_case(n): c for n, c in _CLASSES.items()}}


def get(identifier):
    """A regularizer from its name ('l1', 'l2', 'L1L2', ...), a config dict, a class (made
    with its defaults) or a callable as is; None stays None."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        found = from_config(identifier, _BY_NAME, "regularizer")
    elif isinstance(identifier, str):
        found = _BY_NAME.get(identifier)
    else:
        found = identifier
    return made(found, identifier, "regularizer")
