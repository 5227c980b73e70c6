"""Loss functions, in Keras' `(y_true, y_pred)` order, as Keras 3 computes them (the
`tf.keras` of TensorFlow 2.16 and later).

Two forms:

* functions (`mean_squared_error(y_true, y_pred)`) give one loss per example: they average
  over the LAST axis only, so targets of shape (batch, 1) give a (batch,) result;
* objects (`MeanSquaredError()(y_true, y_pred)`) then reduce that to one number, by default
  the mean over everything left ("sum over batch size"). A loss that already is one number
  (or an empty vector) is returned as it is.

Before computing, the shapes are lined up: when one of `y_true`/`y_pred` has one axis more
than the other and that last axis has size 1, a rank-1 partner gets an axis added ((32,) and
(32, 1) become (32, 1) and (32, 1)); otherwise the extra axis is squeezed away. This holds
for numpy targets too. A loss object computes in float32 (Keras' default float type) unless
given `dtype=`: it casts both arguments first, float64 predictions included.
"""

import numpy as np

from .. import dtypes, nn_ops
from .. import ops as o
from ..errors import invalid
from ..nn_impl import sigmoid_cross_entropy_with_logits
from ..tape import apply
from ..tensor import Tensor, _TensorLike, convert_to_tensor, read
from ._config import from_config, made
from .activations import logits_of
from .dtype_policies import policy_dtype
from .layers import _unique_name

__all__ = [
    "Loss",
    "Reduction",
    "MeanSquaredError",
    "MeanAbsoluteError",
    "BinaryCrossentropy",
    "CategoricalCrossentropy",
    "SparseCategoricalCrossentropy",
    "mean_squared_error",
    "mean_absolute_error",
    "binary_crossentropy",
    "categorical_crossentropy",
    "sparse_categorical_crossentropy",
    "mse",
    "mae",
    "MSE",
    "MAE",
    "get",
]

EPSILON = 1e-7  # Keras' backend.epsilon(): keeps probabilities away from 0 and 1


def _as(x, dtype):
    """`x` as a tensor of `dtype` (a numpy dtype): tensors of another dtype are cast, other
    data converted."""
    if isinstance(x, _TensorLike):
        x = x if type(x) is Tensor else read(x)
        return x if x._value.dtype == dtype else o.cast(x, dtype)
    return convert_to_tensor(x, dtype=dtype)


def _cast(x, dtype):
    """Keras' `ops.cast(x, dtype)`: data that is no tensor is converted on its own first
    (so [True, 1] is refused as mixed types, and strings fail in the cast), then cast."""
    if not isinstance(x, _TensorLike):
        x = convert_to_tensor(x)
    return _as(x, dtype)


def _squeeze_or_expand(x1, x2):
    """Line up two ranks that differ by one where the longer shape ends in 1 (Keras 3)."""
    r1, r2 = x1._value.ndim, x2._value.ndim
    if r1 == r2:
        return x1, x2
    if r1 == r2 + 1 and x1._value.shape[-1] == 1:
        if r2 == 1:
            x2 = o.expand_dims(x2, -1)
        else:
            x1 = o.squeeze(x1, -1)
    elif r2 == r1 + 1 and x2._value.shape[-1] == 1:
        if r1 == 1:
            x1 = o.expand_dims(x1, -1)
        else:
            x2 = o.squeeze(x2, -1)
    return x1, x2


def _prepare(y_true, y_pred):
    """Both as tensors of y_pred's dtype, ranks lined up, shapes that broadcast for the
    `y_true - y_pred` to come (or a clear error: TF's words, and which one had which shape)."""
    if type(y_true) is Tensor and type(y_pred) is Tensor:  # (the common case, quickly:
        t, p = y_true._value, y_pred._value  # two tensors of one dtype and shape)
        if t.dtype is p.dtype and t.shape == p.shape:
            return y_true, y_pred
    y_pred = convert_to_tensor(y_pred)
    y_true = _as(y_true, y_pred._value.dtype)
    y_true, y_pred = _squeeze_or_expand(y_true, y_pred)
    t, p = y_true._value.shape, y_pred._value.shape
    if t != p:
        try:
            np.broadcast_shapes(t, p)
        except ValueError:
            raise invalid(
                "Sub",
                f"Incompatible shapes: {list(t)} vs. {list(p)} (y_true has "
                f"shape {tuple(t)}, y_pred has shape {tuple(p)})",
            ) from None
    return y_true, y_pred


def _floating(x):
    """Keras' mean of integers is a float32 mean (ops.mean): int predictions give a float loss."""
    return x if x._value.dtype.kind in "fc" else o.cast(x, dtypes.float32)


def mean_squared_error(y_true, y_pred):
    """mean((y_true - y_pred)**2) over the last axis: one value per example."""
    if type(y_true) is Tensor and type(y_pred) is Tensor:
        t, p = y_true._value, y_pred._value
        if t.dtype is p.dtype and t.dtype.kind == "f" and t.shape == p.shape and t.ndim:
            # (the common case, float tensors of one dtype and shape: the three ops below,
            # applied without the checks and conversions that hold already)
            diff = apply(o.Sub, y_true, y_pred)
            return apply(o.Mean, apply(o.Square, diff), axis=(t.ndim - 1,), keepdims=False)
    y_true, y_pred = _prepare(y_true, y_pred)
    return o.reduce_mean(_floating(o.square(y_true - y_pred)), axis=-1)


def mean_absolute_error(y_true, y_pred):
    """mean(|y_true - y_pred|) over the last axis: one value per example."""
    y_true, y_pred = _prepare(y_true, y_pred)
    return o.reduce_mean(_floating(o.abs(y_true - y_pred)), axis=-1)


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """-[y log p + (1 - y) log(1 - p)], averaged over `axis`: one value per example.

    `y_pred` holds probabilities p, or with `from_logits=True` raw scores (p = sigmoid of
    them; that form is computed stably and is the one to prefer). Probabilities are clipped
    to [1e-7, 1 - 1e-7], exactly as Keras does, so a prediction of exactly 0 or 1 gives a
    large but finite loss. `y_true` and `y_pred` must have the same shape."""
    y_pred = convert_to_tensor(y_pred)
    y_true = _cast(y_true, y_pred._value.dtype)  # (Keras casts y_true)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    t, p = y_true._value.shape, y_pred._value.shape
    if len(t) != len(p):
        raise ValueError(
            "Arguments `target` and `output` must have the same rank (ndim). "
            f"Received: target.shape={t}, output.shape={p}"
        )
    if t != p:
        raise ValueError(
            "Arguments `target` and `output` must have the same shape. "
            f"Received: target.shape={t}, output.shape={p}"
        )
    if from_logits:
        per_element = sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    else:
        p = o.clip_by_value(y_pred, EPSILON, 1.0 - EPSILON)
        per_element = -(y_true * o.log(p) + (1 - y_true) * o.log(1 - p))
    return o.reduce_mean(per_element, axis=axis)


def _from_logits(y_pred, from_logits):
    """Keras' _get_logits: an output of a softmax (or sigmoid) activation is replaced by the
    logits it came from, which the loss then uses as logits."""
    logits = logits_of(y_pred)
    return (y_pred, from_logits) if logits is None else (logits, True)


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """-sum(y_true * log(p)) over `axis`: one value per example, for one-hot (or
    probability) targets. `y_pred` holds probabilities p (renormalised to sum to 1, then
    clipped to [1e-7, 1 - 1e-7] as Keras does), or with `from_logits=True` raw scores
    (p = softmax of them; computed stably, the form to prefer)."""
    if isinstance(axis, bool):
        raise ValueError(
            f"`axis` must be of type `int`. Received: axis={axis} of type {type(axis)}"
        )
    y_pred = convert_to_tensor(y_pred)
    y_true = _cast(y_true, y_pred._value.dtype)  # (Keras casts y_true)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / y_true._value.shape[-1]
    t, p = y_true.shape, y_pred.shape
    if len(t) < 1:
        raise ValueError(
            "Arguments `target` and `output` must be at least rank 1. Received: "
            f"target.shape={t}, output.shape={p}"
        )
    if len(t) != len(p):
        raise ValueError(
            "Arguments `target` and `output` must have the same rank (ndim). "
            f"Received: target.shape={t}, output.shape={p}"
        )
    if t != p:
        raise ValueError(
            "Arguments `target` and `output` must have the same shape. "
            f"Received: target.shape={t}, output.shape={p}"
        )
    output, from_logits = _from_logits(y_pred, from_logits)
    if from_logits:
        return nn_ops.softmax_cross_entropy_with_logits(labels=y_true, logits=output, axis=axis)
    output = output / o.reduce_sum(output, axis, keepdims=True)
    output = o.clip_by_value(output, EPSILON, 1.0 - EPSILON)
    return -o.reduce_sum(y_true * o.log(output), axis)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, ignore_class=None, axis=-1):
    """-log(p[label]) for integer class labels: one value per example. As
    `categorical_crossentropy` with `y_true = one_hot(labels)`, without building it.
    Labels equal to `ignore_class` give a loss of 0 (and are left out of the mean)."""
    return _sparse_cce(y_true, y_pred, from_logits, ignore_class, axis)[0]


def _sparse_cce(y_true, y_pred, from_logits, ignore_class, axis):
    """(per-example losses, the mask of the examples not ignored, or None)."""
    y_pred = convert_to_tensor(y_pred)
    y_true = convert_to_tensor(y_true)
    if y_true._value.ndim == y_pred._value.ndim and y_true._value.shape[axis] == 1:
        y_true = o.squeeze(y_true, axis)
    valid = None
    if ignore_class is not None:
        valid = o.not_equal(y_true, o.cast(ignore_class, y_true.dtype))
        y_true = o.where(valid, y_true, 0)
        y_pred = o.where(o.expand_dims(valid, axis), y_pred, 0)
    if axis != -1 and axis != y_pred._value.ndim - 1:
        raise ValueError(f"Only axis=-1 is currently supported. Received: axis={axis}")
    output, from_logits = _from_logits(y_pred, from_logits)
    target = o.cast(y_true, "int64")
    if target._value.ndim == output._value.ndim and target._value.shape[-1] == 1:
        target = o.squeeze(target, -1)
    t, p = target.shape, output.shape
    if len(p) < 1:
        raise ValueError(f"Argument `output` must be at least rank 1. Received: output.shape={p}")
    if len(t) != len(p) - 1:
        raise ValueError(
            "Argument `output` must have rank (ndim) `target.ndim - 1`. Received: "
            f"target.shape={t}, output.shape={p}"
        )
    if t != p[:-1]:
        raise ValueError(
            "Arguments `target` and `output` must have the same shape up until the "
            f"last dimension: target.shape={t}, output.shape={p}"
        )
    if not from_logits:
        output = o.log(o.clip_by_value(output, EPSILON, 1 - EPSILON))
    losses = nn_ops.sparse_softmax_cross_entropy_with_logits(labels=target, logits=output)
    if valid is not None:
        valid = o.reshape(valid, losses._value.shape)
        losses = o.where(valid, losses, 0.0)
    return losses, valid


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error


class Reduction:
    """Names of the ways a loss object can reduce per-example losses (`tf.keras` keeps this
    class from Keras 2; Keras 3 losses take the strings, and no longer "auto")."""

    AUTO = "auto"
    NONE = "none"  # one loss per example
    SUM = "sum"  # their sum
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"  # their mean (the default)


# (a set, as Keras 3's: an unhashable reduction, such as a list, is its TypeError)
_REDUCTIONS = frozenset(
    ("sum_over_batch_size", "sum", None, "none", "mean", "mean_with_sample_weight")
)


def _reduce(losses, sample_weight, reduction):
    """Keras 3's reduction: one loss per example in, one number out (unless "none")."""
    if reduction in (None, "none") or losses._value.shape in ((), (0,)):
        return losses  # (already one number, or nothing to reduce)
    total = o.reduce_sum(losses)
    if reduction == "sum":
        return total
    if reduction == "mean_with_sample_weight" and sample_weight is not None:
        n = o.reduce_sum(sample_weight)  # the mean weighted by the sample weights
    else:
        n = losses._value.size  # the mean over every per-example loss
    return o.divide_no_nan(total, n)


class Loss:
    """A loss object: `loss(y_true, y_pred, sample_weight=None)` gives one number (by default).

    Subclasses set `fn`, a per-example function such as `mean_squared_error`, or write
    `call(self, y_true, y_pred)` returning the per-example losses, as in Keras."""

    fn = None

    def __init__(self, name=None, reduction="sum_over_batch_size", dtype=None, **fn_kwargs):
        if reduction not in _REDUCTIONS:  # (TypeError for an unhashable one)
            raise ValueError(
                "Invalid value for argument `reduction`. Expected one of "
                f"{set(_REDUCTIONS)}. Received: reduction={reduction}"
            )
        self.reduction = reduction
        self.name = name or _unique_name(type(self))  # 'halved', 'halved_1', ... as Keras
        self._dtype = policy_dtype(dtype)._np
        self._fn_kwargs = fn_kwargs

    @property
    def dtype(self):
        """The dtype the loss computes in (Keras' name for it, "float32" by default)."""
        return self._dtype.name

    def __call__(self, y_true, y_pred, sample_weight=None):
        dtype = self._dtype
        if (  # (the common case, quickly: two tensors of the loss's dtype, nothing to convert)
            type(y_true) is not Tensor
            or type(y_pred) is not Tensor
            or y_true._value.dtype is not dtype
            or y_pred._value.dtype is not dtype
        ):
            _same_structure(y_true, y_pred)
            y_true, y_pred = _as(y_true, dtype), _as(y_pred, dtype)
        losses = self.call(y_true, y_pred)
        if sample_weight is None:  # (nothing to weigh: straight to the reduction)
            return _reduce(losses, None, self.reduction)
        return self._weigh_and_reduce(losses, sample_weight)

    def _weigh_and_reduce(self, losses, sample_weight, mask=None):
        """Keras' reduce_weighted_values: a mask (the examples a loss keeps) becomes a sample
        weight, total / kept for the kept ones under a mean, so the mean is over them."""
        if mask is not None:
            mask = o.cast(mask, losses.dtype)
            if self.reduction in ("mean", "sum_over_batch_size"):
                weight = o.divide_no_nan(o.cast(mask._value.size, losses.dtype), o.reduce_sum(mask))
                mask = o.where(mask > 0, weight, 0.0)
            if sample_weight is None:
                sample_weight = mask
            else:
                sample_weight = _as(sample_weight, losses._value.dtype)
                mask, sample_weight = _squeeze_or_expand(mask, sample_weight)
                sample_weight = sample_weight * mask
        if sample_weight is not None:
            sample_weight = _as(sample_weight, losses._value.dtype)
            losses, sample_weight = _squeeze_or_expand(losses, sample_weight)
            losses = losses * sample_weight
        return _reduce(losses, sample_weight, self.reduction)

    def call(self, y_true, y_pred):
        """The per-example losses: `fn` on the two, their ranks lined up first."""
        if type(self).fn is None:
            raise NotImplementedError("A Loss subclass sets `fn` or writes `call(y_true, y_pred)`.")
        y_true, y_pred = _squeeze_or_expand(y_true, y_pred)
        return type(self).fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self):
        return {"name": self.name, "reduction": self.reduction, **self._fn_kwargs}


class MeanSquaredError(Loss):
    """mean((y_true - y_pred)**2): the loss for regression."""

    fn = staticmethod(mean_squared_error)

    def __init__(self, reduction="sum_over_batch_size", name="mean_squared_error", dtype=None):
        super().__init__(name, reduction, dtype)


class MeanAbsoluteError(Loss):
    """mean(|y_true - y_pred|): like MSE, but large errors count linearly, not squared."""

    fn = staticmethod(mean_absolute_error)

    def __init__(self, reduction="sum_over_batch_size", name="mean_absolute_error", dtype=None):
        super().__init__(name, reduction, dtype)


class BinaryCrossentropy(Loss):
    """Cross-entropy for 0/1 labels; `from_logits=True` if y_pred are raw scores (no sigmoid)."""

    fn = staticmethod(binary_crossentropy)

    def __init__(
        self,
        from_logits=False,
        label_smoothing=0.0,
        axis=-1,
        reduction="sum_over_batch_size",
        name="binary_crossentropy",
        dtype=None,
    ):
        super().__init__(
            name,
            reduction,
            dtype,
            from_logits=from_logits,
            label_smoothing=label_smoothing,
            axis=axis,
        )
        self.from_logits = from_logits


class CategoricalCrossentropy(Loss):
    """Cross-entropy for one-hot targets (y_true of shape (batch, classes)); `from_logits=True`
    if y_pred are raw scores (no softmax)."""

    fn = staticmethod(categorical_crossentropy)

    def __init__(
        self,
        from_logits=False,
        label_smoothing=0.0,
        axis=-1,
        reduction="sum_over_batch_size",
        name="categorical_crossentropy",
        dtype=None,
    ):
        super().__init__(
            name,
            reduction,
            dtype,
            from_logits=from_logits,
            label_smoothing=label_smoothing,
            axis=axis,
        )
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis


class SparseCategoricalCrossentropy(Loss):
    """Cross-entropy for integer class labels (y_true of shape (batch,) or (batch, 1));
    `from_logits=True` if y_pred are raw scores (no softmax). Labels equal to `ignore_class`
    are left out."""

    def __init__(
        self,
        from_logits=False,
        ignore_class=None,
        reduction="sum_over_batch_size",
        name="sparse_categorical_crossentropy",
        dtype=None,
    ):
        super().__init__(name, reduction, dtype, from_logits=from_logits, ignore_class=ignore_class)
        self.from_logits = from_logits
        self.ignore_class = ignore_class

    def __call__(self, y_true, y_pred, sample_weight=None):
        _same_structure(y_true, y_pred)
        y_true, y_pred = _squeeze_or_expand(_as(y_true, self._dtype), _as(y_pred, self._dtype))
        losses, mask = _sparse_cce(y_true, y_pred, self.from_logits, self.ignore_class, -1)
        return self._weigh_and_reduce(losses, sample_weight, mask)


def _same_structure(y_true, y_pred):
    """A loss object maps over `y_true` and `y_pred` together, as Keras 3 does: a Python list
    or tuple is a structure of separate values, not one array, so it must meet a structure of
    the same kind and shape (a list of labels with a tensor of predictions is a ValueError)."""
    if isinstance(y_true, (list, tuple)) and type(y_pred) is not type(y_true):
        raise ValueError(f"Expected an instance of {type(y_true).__name__}, got {y_pred!r}.")
    if isinstance(y_true, (list, tuple)) or isinstance(y_pred, (list, tuple)):
        try:
            same = _shape_of(y_true) == _shape_of(y_pred)
        except TypeError:
            same = False
        if not same:
            raise ValueError("Structures don't have the same nested structure.")


def _shape_of(structure):
    """The nesting of lists and tuples, with every other value a leaf."""
    if isinstance(structure, (list, tuple)):
        return (type(structure), tuple(_shape_of(x) for x in structure))
    return None


_BY_NAME = {
    "mean_squared_error": mean_squared_error,
    "mse": mse,
    "MSE": MSE,
    "mean_absolute_error": mean_absolute_error,
    "mae": mae,
    "MAE": MAE,
    "binary_crossentropy": binary_crossentropy,
    "categorical_crossentropy": categorical_crossentropy,
    "sparse_categorical_crossentropy": sparse_categorical_crossentropy,
}


_CLASSES = {
    c.__name__: c
    for c in (
        MeanSquaredError,
        MeanAbsoluteError,
        BinaryCrossentropy,
        CategoricalCrossentropy,
        SparseCategoricalCrossentropy,
    )
}


def get(identifier):
    """A loss from its name: a function ('mse', 'binary_crossentropy', ...) or a Loss class
    ('MeanSquaredError', made with its defaults); from a config dict (`{"class_name":
    "BinaryCrossentropy", "config": {"from_logits": True}}`); a Loss class, made; a callable
    as is; None stays None, as in Keras 3."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        table = {**_CLASSES, **{n: f for n, f in _BY_NAME.items() if n == f.__name__}}
        found = from_config(identifier, table, "loss")
    elif isinstance(identifier, str):
        found = _BY_NAME.get(identifier) or _CLASSES.get(identifier)
        if found is None:
            raise ValueError(
                f"Could not interpret loss identifier: {identifier} (minitape knows "
                f"{', '.join(sorted([*_BY_NAME, *_CLASSES]))})"
            )
    else:
        found = identifier
    return made(found, identifier, "loss")
