"""Metrics: running summaries of a training run (`tf.keras.metrics`), as Keras 3 keeps them.

A metric is not a function of one batch: it *accumulates*. `Mean` keeps two variables, a
`total` and a `count`; every `update_state(values)` adds to both, `result()` is
total / count, and `reset_state()` sets both back to zero (what `fit` does at the start of
every epoch). So after three batches whose losses were 0.3, 0.2 and 0.1, the "loss" metric
reads 0.2: the mean over the epoch so far, not the last batch's loss.

    m = tf.keras.metrics.Mean()
    m.update_state([1.0, 3.0, 5.0, 7.0])            # total 16, count 4
    m.update_state(2.0)                             # total 18, count 5
    float(m.result())                               # 3.6
    m.update_state(10.0, sample_weight=5)           # total 68, count 10
    float(m.result())                               # 6.8

Because the state lives in variables, a training step traced by `minitape.function` updates
it on every replay (the `assign_add`s are part of the graph), as in TF.
"""

from .. import ops as o
from ..array_ops import argmax
from ..function import init_scope
from ..tensor import Tensor, _TensorLike, convert_to_tensor, read
from . import initializers
from . import losses as losses_module
from .layers import _unique_name
from .variables import Variable as KerasVariable

__all__ = [
    "Metric",
    "Mean",
    "Sum",
    "MeanMetricWrapper",
    "MeanSquaredError",
    "MeanAbsoluteError",
    "get",
]


def _float32(x):
    """`x` as a float32 tensor (metrics compute in Keras' default float type)."""
    if isinstance(x, _TensorLike):
        x = x if type(x) is Tensor else read(x)
        return x if x.dtype == "float32" else o.cast(x, "float32")
    return convert_to_tensor(x, dtype="float32")


class Metric:
    """What every metric shares: a `name`, its state variables (made by `add_variable`, not
    trainable, named '<metric name>/<variable name>'), and `update_state` / `result` /
    `reset_state`, which a subclass writes."""

    def __init__(self, name=None, dtype=None):
        self.name = name or _unique_name(type(self))
        self.dtype = dtype or "float32"
        self._variables = []

    def add_variable(self, shape=(), initializer="zeros", dtype=None, name=None):
        init = initializers.get(initializer)
        with init_scope():  # (state is made once, outside any trace or tape)
            variable = KerasVariable(
                init,
                tuple(shape),
                dtype=dtype or self.dtype,
                trainable=False,
                name=name,
                path=f"{self.name}/{name}",
            )
        self._variables.append(variable)
        return variable

    @property
    def variables(self):
        return list(self._variables)

    def update_state(self, *args, **kwargs):
        raise NotImplementedError

    def result(self):
        raise NotImplementedError

    def reset_state(self):
        """Every state variable back to zero."""
        for v in self._variables:
            v.assign(o.zeros(v.shape, v.dtype))

    def __call__(self, *args, **kwargs):
        """Update the state with one more batch and return the result so far."""
        self.update_state(*args, **kwargs)
        return self.result()

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"


def _cast(x, dtype):
    """Keras' `ops.cast`: a tensor is cast; other data is first converted by TF's rules (a
    list of Python floats is float32 data, a numpy float64 value float64), then cast."""
    if dtype == "float32":
        return _float32(x)
    t = read(x) if isinstance(x, _TensorLike) else convert_to_tensor(x)
    return t if t.dtype == dtype else o.cast(t, dtype)


def _per_example(values, sample_weight, dtype, reduce=o.reduce_mean):
    """Keras 3's `reduce_to_samplewise_values`: one value per example (`reduce`, the mean or
    for Sum the sum, over any further axes), each multiplied by its sample weight if there
    is one; and the weights. Values are cast to the metric's dtype, weights converted to it."""
    values = _cast(values, dtype)
    if sample_weight is not None:
        sample_weight = (
            _float32(sample_weight)
            if dtype == "float32"
            else convert_to_tensor(sample_weight, dtype=dtype)
        )
        values, sample_weight = losses_module._squeeze_or_expand(values, sample_weight)
        weight_ndim, values_ndim = sample_weight._value.ndim, values._value.ndim
        if values_ndim > weight_ndim:
            values = reduce(values, axis=list(range(weight_ndim, values_ndim)))
        sample_weight = o.broadcast_to(sample_weight, values.shape)
        values = values * sample_weight
        if weight_ndim > 1:
            sample_weight = reduce(sample_weight, axis=list(range(1, weight_ndim)))
    if values._value.ndim > 1:
        values = reduce(values, axis=list(range(1, values._value.ndim)))
    return values, sample_weight


class Sum(Metric):
    """The (weighted) sum of every value seen: one variable, `total`."""

    def __init__(self, name="sum", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(name="total")

    def update_state(self, values, sample_weight=None):
        values, _ = _per_example(values, sample_weight, self.dtype, o.reduce_sum)
        self.total.assign_add(o.reduce_sum(values))

    def result(self):
        return o.identity(self.total)


class Mean(Metric):
    """The (weighted) mean of every value seen: `total` / `count`.

    A batch of values counts each of them (a scalar counts once); with `sample_weight`,
    each value counts as much as its weight. `fit`'s "loss" metric is a Mean: Keras' own
    `train_step` gives it each batch's loss with the batch size as weight, so that a smaller
    last batch counts less; the guide's `metric.update_state(loss)` counts every batch once."""

    def __init__(self, name="mean", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(name="total")
        self.count = self.add_variable(name="count")

    def update_state(self, values, sample_weight=None):
        values, sample_weight = _per_example(values, sample_weight, self.dtype)
        self.total.assign_add(o.reduce_sum(values))
        if sample_weight is not None:
            n = o.reduce_sum(sample_weight)
        elif values._value.ndim >= 1:
            n = float(values._value.shape[0])
        else:
            n = 1.0
        self.count.assign_add(o.cast(n, self.dtype))

    def result(self):
        # (0 before any update: no division by zero)
        return o.divide_no_nan(self.total, self.count)


class MeanMetricWrapper(Mean):
    """The running mean of a per-example function `fn(y_true, y_pred)`: what a loss name
    given to `compile(metrics=[...])` becomes ('mae' -> the mean absolute error so far)."""

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name=name or fn.__name__, dtype=dtype)
        self._fn, self._fn_kwargs = fn, kwargs

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = _float32(y_true), _float32(y_pred)
        y_true, y_pred = losses_module._squeeze_or_expand(y_true, y_pred)
        super().update_state(self._fn(y_true, y_pred, **self._fn_kwargs), sample_weight)


class MeanSquaredError(MeanMetricWrapper):
    def __init__(self, name="mean_squared_error", dtype=None):
        super().__init__(losses_module.mean_squared_error, name=name, dtype=dtype)


class MeanAbsoluteError(MeanMetricWrapper):
    def __init__(self, name="mean_absolute_error", dtype=None):
        super().__init__(losses_module.mean_absolute_error, name=name, dtype=dtype)


def accuracy(y_true, y_pred):
    """1.0 where y_true equals y_pred, else 0.0."""
    y_true, y_pred = losses_module._squeeze_or_expand(_float32(y_true), _float32(y_pred))
    return o.cast(o.equal(y_true, y_pred), "float32")


def binary_accuracy(y_true, y_pred, threshold=0.5):
    """1.0 where y_pred > threshold agrees with the 0/1 label y_true."""
    y_true, y_pred = losses_module._squeeze_or_expand(_float32(y_true), _float32(y_pred))
    return o.cast(o.equal(y_true, o.cast(o.greater(y_pred, threshold), y_true.dtype)), "float32")


def categorical_accuracy(y_true, y_pred):
    """1.0 where the largest of y_pred's scores is at the one-hot y_true's 1."""
    return o.cast(o.equal(argmax(y_true, axis=-1), argmax(y_pred, axis=-1)), "float32")


def sparse_categorical_accuracy(y_true, y_pred):
    """1.0 where the largest of y_pred's scores is at the class index y_true."""
    y_true, y_pred = _float32(y_true), _float32(y_pred)
    if len(y_true.shape) == len(y_pred.shape) and y_true.shape[-1] == 1:
        y_true = o.squeeze(y_true, -1)
    predicted = o.cast(argmax(y_pred, axis=-1), y_true.dtype)
    return o.cast(o.equal(y_true, predicted), "float32")


class _Accuracy(MeanMetricWrapper):
    _direction = "up"  # (higher is better: what EarlyStopping's mode="auto" reads)

    def update_state(self, y_true, y_pred, sample_weight=None):
        Mean.update_state(self, self._fn(y_true, y_pred, **self._fn_kwargs), sample_weight)


class Accuracy(_Accuracy):
    def __init__(self, name="accuracy", dtype=None):
        super().__init__(accuracy, name=name, dtype=dtype)


class BinaryAccuracy(_Accuracy):
    def __init__(self, name="binary_accuracy", dtype=None, threshold=0.5):
        super().__init__(binary_accuracy, name=name, dtype=dtype, threshold=threshold)


class CategoricalAccuracy(_Accuracy):
    def __init__(self, name="categorical_accuracy", dtype=None):
        super().__init__(categorical_accuracy, name=name, dtype=dtype)


class SparseCategoricalAccuracy(_Accuracy):
    def __init__(self, name="sparse_categorical_accuracy", dtype=None):
        super().__init__(sparse_categorical_accuracy, name=name, dtype=dtype)


def accuracy_for(name, y_true, y_pred):
    """What compile's metrics=["accuracy"] (or "acc") becomes once the data is seen, as
    Keras chooses: binary accuracy for one output unit, sparse categorical for class
    indices, else categorical; named as given."""
    t_rank, p_rank = len(y_true.shape), len(y_pred.shape)
    t_last, p_last = y_true.shape[-1] if t_rank else None, y_pred.shape[-1] if p_rank else None
    if p_last == 1:
        return BinaryAccuracy(name=name)
    if t_rank < p_rank or (t_last == 1 and p_last is not None and p_last > 1):
        return SparseCategoricalAccuracy(name=name)
    return CategoricalAccuracy(name=name)


# Keras 3 gives a metric named by a string that string as its name ('mae' logs as 'mae').
_BY_NAME = {
    "mse": MeanSquaredError,
    "mean_squared_error": MeanSquaredError,
    "mae": MeanAbsoluteError,
    "mean_absolute_error": MeanAbsoluteError,
    "binary_accuracy": BinaryAccuracy,
    "categorical_accuracy": CategoricalAccuracy,
    "sparse_categorical_accuracy": SparseCategoricalAccuracy,
}


def get(identifier):
    """A metric from a name ('mae', 'mse', 'mean_squared_error', ...), an instance as is, or a
    function `fn(y_true, y_pred)` (wrapped in a MeanMetricWrapper named after it)."""
    if isinstance(identifier, Metric):
        return identifier
    if isinstance(identifier, str):
        if identifier not in _BY_NAME:
            raise ValueError(f"Could not interpret metric identifier: {identifier}")
        return _BY_NAME[identifier](name=identifier)
    if callable(identifier):
        return MeanMetricWrapper(identifier)
    raise ValueError(f"Could not interpret metric identifier: {identifier}")
