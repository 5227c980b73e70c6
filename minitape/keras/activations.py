"""Activation functions, by name (`Dense(4, activation='relu')`) or as functions, computed as
Keras 3 computes them on TensorFlow.

`softmax` and `sigmoid` remember the logits they were given (Keras keeps them on the output
as `_keras_logits`): the cross-entropy losses then start from the logits, not from the
probabilities, which saves them from clipping a saturated probability (see `logits_of`).
"""

import weakref

from .. import nn_ops
from .. import ops as o
from ..tensor import convert_to_tensor

_LOGITS = {}  # id(output) -> logits, while the output lives


def _keep_logits(output, logits):
    key = id(output)
    _LOGITS[key] = (weakref.ref(output, lambda _: _LOGITS.pop(key, None)), logits)
    return output


def logits_of(output):
    """The logits a softmax or sigmoid activation produced `output` from, or None."""
    entry = _LOGITS.get(id(output))
    return entry[1] if entry is not None and entry[0]() is output else None


__all__ = [
    "relu",
    "tanh",
    "sigmoid",
    "elu",
    "softplus",
    "linear",
    "softmax",
    "log_softmax",
    "gelu",
    "silu",
    "swish",
    "selu",
    "relu6",
    "leaky_relu",
    "softsign",
    "exponential",
    "hard_sigmoid",
    "hard_silu",
    "hard_swish",
    "mish",
    "log_sigmoid",
    "celu",
    "get",
]


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    """Keras 3's relu: x from `threshold` up (capped at `max_value`), `negative_slope` times
    (x - threshold) below it. (Keras 2 called the slope `alpha`; Keras 3 refuses that name.)"""
    x = convert_to_tensor(x)
    if threshold:
        y = o.where(x >= threshold, x, negative_slope * (x - threshold))
    else:
        y = o.relu(x) - negative_slope * o.relu(-x) if negative_slope else o.relu(x)
    return y if max_value is None else o.minimum(y, max_value)


def tanh(x):
    return o.tanh(x)


def sigmoid(x):
    """1 / (1 + exp(-x)): squashes to (0, 1), a probability."""
    return _keep_logits(o.sigmoid(x), x)


def softmax(x, axis=-1):
    """exp(x) / sum(exp(x)) along `axis`: a probability distribution."""
    if not hasattr(x, "shape"):  # (Keras reads x.shape first: AttributeError for a number)
        raise TypeError(
            f"softmax needs a tensor or array ('{type(x).__name__}' object has no attribute "
            "'shape')"
        )
    return _keep_logits(nn_ops.softmax(x, axis=axis), x)


def log_softmax(x, axis=-1):
    return nn_ops.log_softmax(x, axis=axis)


def gelu(x, approximate=False):
    """x * P(X <= x) for a standard normal X (with erf; `approximate=True`: with tanh)."""
    return nn_ops.gelu(x, approximate=approximate)


def silu(x):
    """x * sigmoid(x), also called swish."""
    return nn_ops.silu(x)


swish = silu


def selu(x):
    return nn_ops.selu(x)


def relu6(x):
    return nn_ops.relu6(x)


def leaky_relu(x, negative_slope=0.2):
    return nn_ops.leaky_relu(x, alpha=negative_slope)


def softsign(x):
    return nn_ops.softsign(x)


def exponential(x):
    return o.exp(x)


def hard_sigmoid(x):
    """relu6(x + 3) / 6: a piecewise-linear sigmoid."""
    x = convert_to_tensor(x)
    return nn_ops.relu6(x + 3.0) / 6.0


def hard_silu(x):
    """x * hard_sigmoid(x)."""
    x = convert_to_tensor(x)
    return x * hard_sigmoid(x)


hard_swish = hard_silu


def mish(x):
    """x * tanh(softplus(x))."""
    return x * o.tanh(o.softplus(x))


def log_sigmoid(x):
    return nn_ops.log_sigmoid(x)


def celu(x, alpha=1.0):
    """max(x, 0) + alpha * (exp(min(x, 0) / alpha) - 1)."""
    return o.maximum(x, 0.0) + alpha * (o.exp(o.minimum(x, 0.0) / alpha) - 1.0)


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


_BY_NAME = {
    f.__name__: f
    for f in (
        relu,
        tanh,
        sigmoid,
        elu,
        softplus,
        linear,
        softmax,
        log_softmax,
        gelu,
        silu,
        selu,
        relu6,
        leaky_relu,
        softsign,
        exponential,
        hard_sigmoid,
        hard_silu,
        mish,
        log_sigmoid,
        celu,
    )
}
_BY_NAME.update(swish=silu, hard_swish=hard_silu)


def get(identifier):
    """An activation from its name, None (linear), or a callable (returned as is)."""
    if identifier is None:
        return linear
    if isinstance(identifier, str):
        if identifier not in _BY_NAME:
            raise ValueError(
                f"Could not interpret activation function identifier: {identifier} "
                f"(minitape knows {', '.join(sorted(_BY_NAME))})"
            )
        return _BY_NAME[identifier]
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret activation function identifier: {identifier!r}")
