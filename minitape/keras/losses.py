"""Loss functions, in Keras' `(y_true, y_pred)` order.

Two forms, as in Keras:

* functions (`mean_squared_error(y_true, y_pred)`) give one loss per example: they average
  over the LAST axis only, so targets of shape (batch, 1) give a (batch,) result;
* objects (`MeanSquaredError()(y_true, y_pred)`) then reduce that to one number, by default
  the mean over everything left ("sum over batch size").

Before computing, the objects line the shapes up as Keras does: if one of `y_true`/`y_pred`
has an extra trailing axis of size 1 (shapes (32,) and (32, 1)), it is squeezed away. (Keras
only does this when both are tensors; a numpy `y_true` of shape (32,) against a prediction of
shape (32, 1) silently broadcasts to (32, 32) -- in TF as here.)
"""

import numpy as np

from .. import ops as o
from ..errors import invalid
from ..nn_impl import sigmoid_cross_entropy_with_logits
from ..tensor import convert_to_tensor, is_tensor

__all__ = ["Loss", "Reduction", "MeanSquaredError", "MeanAbsoluteError", "BinaryCrossentropy",
           "mean_squared_error", "mean_absolute_error", "binary_crossentropy", "mse", "mae", "MSE",
           "MAE", "get"]

EPSILON = 1e-7   # Keras' backend.epsilon(): keeps log() away from 0


def _prepare(y_true, y_pred, op_name):
    """Both as tensors of y_pred's dtype, with shapes that broadcast (or a clear error)."""
    y_pred = convert_to_tensor(y_pred)
    y_true = convert_to_tensor(y_true)
    if y_true._value.dtype != y_pred._value.dtype:
        y_true = o.cast(y_true, y_pred.dtype)
    try:
        if y_pred._value.shape != y_true._value.shape:
            np.broadcast_shapes(y_pred._value.shape, y_true._value.shape)
    except ValueError:
        raise invalid(op_name, f"Incompatible shapes: {list(y_pred.shape)} vs. "
                               f"{list(y_true.shape)} (y_pred has shape {tuple(y_pred.shape)}, "
                               f"y_true has shape {tuple(y_true.shape)})") from None
    return y_true, y_pred


def mean_squared_error(y_true, y_pred):
    """mean((y_pred - y_true)**2) over the last axis: one value per example."""
    y_true, y_pred = _prepare(y_true, y_pred, "SquaredDifference")
    return o.reduce_mean(o.square(y_pred - y_true), axis=-1)


def mean_absolute_error(y_true, y_pred):
    """mean(|y_pred - y_true|) over the last axis: one value per example."""
    y_true, y_pred = _prepare(y_true, y_pred, "Sub")
    return o.reduce_mean(o.abs(y_pred - y_true), axis=-1)


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """-[y log p + (1 - y) log(1 - p)], averaged over `axis`: one value per example.

    `y_pred` holds probabilities p, or with `from_logits=True` raw scores (p = sigmoid of
    them; that form is computed stably and is the one to prefer). Probabilities are clipped
    to [1e-7, 1 - 1e-7] and 1e-7 is added inside each log, exactly as Keras does, so a
    prediction of exactly 0 or 1 gives a large but finite loss."""
    y_true, y_pred = _prepare(y_true, y_pred, "Mul")
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        per_element = sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    else:
        p = o.clip_by_value(y_pred, EPSILON, 1.0 - EPSILON)
        per_element = -(y_true * o.log(p + EPSILON) + (1 - y_true) * o.log(1 - p + EPSILON))
    return o.reduce_mean(per_element, axis=axis)


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error


class Reduction:
    """How a loss object turns per-example losses into its result."""
    AUTO = "auto"
    NONE = "none"                                  # one loss per example
    SUM = "sum"                                    # their sum
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"    # their mean (the default)
    _ALL = (AUTO, NONE, SUM, SUM_OVER_BATCH_SIZE)


def _squeeze_or_expand(y_pred, y_true):
    """Drop a trailing axis of size 1 from whichever of the two has one axis more."""
    diff = y_pred._value.ndim - y_true._value.ndim
    if diff == 1 and y_pred._value.shape[-1] == 1:
        y_pred = o.squeeze(y_pred, -1)
    elif diff == -1 and y_true._value.shape[-1] == 1:
        y_true = o.squeeze(y_true, -1)
    return y_pred, y_true


class Loss:
    """A loss object: `loss(y_true, y_pred, sample_weight=None)` gives one number (by default).

    Subclasses set `fn`, a per-example function such as `mean_squared_error`."""

    fn = None

    def __init__(self, reduction=Reduction.AUTO, name=None, **fn_kwargs):
        if reduction not in Reduction._ALL:
            raise ValueError(f"Invalid Reduction Key: {reduction}. Expected keys are "
                             f"{set(Reduction._ALL)}")
        self.reduction = reduction
        self.name = name or type(self).__name__
        self._fn_kwargs = fn_kwargs

    def __call__(self, y_true, y_pred, sample_weight=None):
        if is_tensor(y_true) and is_tensor(y_pred):
            y_pred, y_true = _squeeze_or_expand(convert_to_tensor(y_pred), convert_to_tensor(y_true))
        losses = type(self).fn(y_true, y_pred, **self._fn_kwargs)
        if sample_weight is not None:
            losses = losses * o.cast(convert_to_tensor(sample_weight), losses.dtype)
        if self.reduction == Reduction.NONE:
            return losses
        total = o.reduce_sum(losses)
        if self.reduction == Reduction.SUM:
            return total
        n = losses._value.size
        return total / n if n else o.zeros_like(total)

    def get_config(self):
        return {"reduction": self.reduction, "name": self.name, **self._fn_kwargs}


class MeanSquaredError(Loss):
    """mean((y_pred - y_true)**2): the loss for regression."""
    fn = staticmethod(mean_squared_error)

    def __init__(self, reduction=Reduction.AUTO, name="mean_squared_error"):
        super().__init__(reduction, name)


class MeanAbsoluteError(Loss):
    """mean(|y_pred - y_true|): like MSE, but large errors count linearly, not squared."""
    fn = staticmethod(mean_absolute_error)

    def __init__(self, reduction=Reduction.AUTO, name="mean_absolute_error"):
        super().__init__(reduction, name)


class BinaryCrossentropy(Loss):
    """Cross-entropy for 0/1 labels; `from_logits=True` if y_pred are raw scores (no sigmoid)."""
    fn = staticmethod(binary_crossentropy)

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction=Reduction.AUTO, name="binary_crossentropy"):
        super().__init__(reduction, name, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits


_BY_NAME = {"mean_squared_error": mean_squared_error, "mse": mse, "MSE": MSE,
            "mean_absolute_error": mean_absolute_error, "mae": mae, "MAE": MAE,
            "binary_crossentropy": binary_crossentropy}


def get(identifier):
    """A loss function from its name ('mse', 'binary_crossentropy', ...), or a callable."""
    if isinstance(identifier, str):
        if identifier not in _BY_NAME:
            raise ValueError(f"Unknown loss function: '{identifier}'. Known names: {sorted(_BY_NAME)}.")
        return _BY_NAME[identifier]
    if callable(identifier):
        return identifier
    raise TypeError(f"Could not interpret loss function identifier: {identifier!r}")
