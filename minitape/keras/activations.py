"""Activation functions, by name (`Dense(4, activation='relu')`) or as functions."""
from .. import ops as o

__all__ = ["relu", "tanh", "sigmoid", "elu", "softplus", "linear", "get"]


def relu(x, alpha=0.0, max_value=None):
    """max(x, 0); with `alpha`, a "leaky" slope alpha for x < 0; `max_value` caps the output."""
    negative_part = o.relu(-x) if alpha else None
    y = o.relu(x)
    if max_value is not None:
        y = o.clip_by_value(y, 0, max_value)
    return y - alpha * negative_part if alpha else y


def tanh(x):
    return o.tanh(x)


def sigmoid(x):
    """1 / (1 + exp(-x)): squashes to (0, 1), a probability."""
    return o.sigmoid(x)


def elu(x, alpha=1.0):
    """x for x > 0, alpha * (exp(x) - 1) below: smooth, and negative outputs are allowed."""
    y = o.elu(x)
    return y if alpha == 1 else o.where(x > 0, y, alpha * y)


def softplus(x):
    """log(1 + exp(x)): a smooth relu."""
    return o.softplus(x)


def linear(x):
    """The identity: what `activation=None` means."""
    return x


_BY_NAME = {f.__name__: f for f in (relu, tanh, sigmoid, elu, softplus, linear)}


def get(identifier):
    """An activation from its name, None (linear), or a callable (returned as is)."""
    if identifier is None:
        return linear
    if isinstance(identifier, str):
        if identifier not in _BY_NAME:
            raise ValueError(f"Unknown activation function: '{identifier}'. Known names: "
                             f"{sorted(_BY_NAME)}.")
        return _BY_NAME[identifier]
    if callable(identifier):
        return identifier
    raise TypeError(f"Could not interpret activation function identifier: {identifier!r}")
