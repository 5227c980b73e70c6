"""`compile`, `fit`, `evaluate`, `predict`: Keras 3's training loop, which a Model inherits.

    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    history = model.fit(x, y, epochs=3)  # batches of 32, shuffled, progress lines printed
    history.history                     # {'loss': [...]}: one Python float per epoch

`fit` is a loop that the course otherwise writes by hand. For each epoch it resets the
metrics, then for each batch of (x, y) -- shuffled as TF shuffles them unless
`shuffle=False`, the last batch smaller if the data does not divide evenly (data_adapter.py)
-- it calls `train_step(data)`, which does what a hand-written step does:

    with tf.GradientTape() as tape:
        y_pred = self(x, training=True)
        loss = self.compute_loss(y=y, y_pred=y_pred)      # the loss given to compile()
    grads = tape.gradient(loss, self.trainable_variables)
    self.optimizer.apply_gradients(zip(grads, self.trainable_variables))

and then updates the metrics. Around the steps it calls the callbacks (callbacks.py: the
History it returns, the progress lines of `verbose`, your own), and with validation data it
runs `evaluate` after each epoch, logging its results with a `val_` prefix.

Overriding `train_step` is how a Keras model keeps `fit` (its batching, its History) while
writing the step with its own tape: a GAN's two updates, a gradient penalty, clipping.

Three things Keras does that a custom `train_step` meets:

* **The step is traced.** Unless `compile(run_eagerly=True)`, `fit` wraps the step in
  `tf.function`, so a `print` in `train_step` runs while tracing, not on every batch. TF
  traces it twice when the first call creates variables (the model's layers are built in
  there, or Adam's slots): once to create them, once more without. (TF traces one graph for
  batches of any size; minitape traces per batch shape, so a smaller last batch adds one
  trace: the one place where the counts differ.)
* **The loss shown is a metric.** `model.metrics` starts with a `Mean` named "loss" (the
  loss tracker). Keras' own `train_step` feeds it each batch's loss; a custom step must update
  it (the guide's loop over `self.metrics`), because:
* **At the end of each epoch, fit logs the metrics, not what the step returned**, whenever
  the step's dict has the same keys as `model.metrics`' results. A step that returns
  `{"loss": loss}` without updating the tracker has the same keys ({"loss"}), so the History
  shows the tracker's value: 0.0 every epoch. (If the keys differ, the last step's dict is
  logged as it is.)

Keras 3 splits this in two classes, kept here: `Trainer` (what every backend shares: compile,
the loss, the metrics) and `TensorFlowTrainer` (the TensorFlow backend's steps and loops).
"""

import inspect
import warnings

import numpy as np

from .. import nest
from ..function import function
from ..ops import cast, concat, multiply, reduce_sum, shape, stack
from ..tape import GradientTape
from ..tensor import Tensor, Variable
from . import losses as losses_module
from . import metrics as metrics_module
from . import optimizers as optimizers_module
from .callbacks import CallbackList, pythonify_logs
from .data_adapter import EpochIterator, train_validation_split, unpack_x_y_sample_weight
from .mixed_precision import LossScaleOptimizer

__all__ = ["Trainer", "TensorFlowTrainer"]


class _LossFunctionWrapper(losses_module.Loss):
    """A loss *function* given to compile ('mse', or your own `fn(y_true, y_pred)`), made a
    Loss object: the per-example values, averaged over the batch (Keras 3 does the same)."""

    def __init__(self, fn):
        super().__init__(name=getattr(fn, "__name__", None))
        self._fn = fn

    def call(self, y_true, y_pred):
        y_true, y_pred = losses_module._squeeze_or_expand(y_true, y_pred)
        values = self._fn(y_true, y_pred)
        if values is None:  # (TF fails converting it to a tensor)
            raise ValueError("None values not supported.")
        return values


class _CompileLoss:
    """The loss given to compile, found by name when first used (so an unknown name fails
    in fit, as in Keras 3), as a float32 number, times `loss_weights` if given."""

    def __init__(self, loss, loss_weights):
        if isinstance(loss_weights, dict) and len(loss_weights) == 1:
            loss_weights = list(loss_weights.values())  # (one output: Keras reads no key)
        if isinstance(loss_weights, (list, tuple)) and len(loss_weights) == 1:
            loss_weights = loss_weights[0]  # (one output: a list of its one weight)
        if loss_weights is not None and not isinstance(loss_weights, (int, float)):
            raise NotImplementedError(
                "minitape's models have one output: pass loss_weights as one number (or a "
                f"list of one), not {loss_weights!r}."
            )
        self._user_loss, self._weight, self._loss = loss, loss_weights, None

    def __call__(self, y_true, y_pred, sample_weight=None):
        if self._loss is None:
            if isinstance(self._user_loss, (list, tuple, dict)):
                raise NotImplementedError(
                    "minitape's compile takes one loss for one output, not a list or dict."
                )
            loss = losses_module.get(self._user_loss)
            self._loss = (
                loss if isinstance(loss, losses_module.Loss) else _LossFunctionWrapper(loss)
            )
        value = cast(self._loss(y_true, y_pred, sample_weight), "float32")
        return value if self._weight is None else multiply(value, self._weight)


def _one_output(given):
    """Metrics given as {output name: metrics} for a model's one output: those metrics."""
    if not isinstance(given, dict) or not given:
        return given
    (value,) = given.values()
    return value if isinstance(value, (list, tuple)) else [value]


class _CompileMetrics(metrics_module.Metric):
    """The metrics given to compile, as one metric named "compile_metrics" whose result is a
    dict (Keras 3's CompileMetrics: `model.metrics` is [loss tracker, compile_metrics]).
    `metrics` ignore the sample weights, `weighted_metrics` use them; a weighted metric named
    as an unweighted one is logged as "weighted_" + its name."""

    def __init__(self, metrics, weighted_metrics):
        super().__init__(name="compile_metrics")
        for arg, given in (("metrics", metrics), ("weighted_metrics", weighted_metrics)):
            if given and not isinstance(given, (list, tuple, dict)):
                raise ValueError(
                    f"Expected `{arg}` argument to be a list, tuple, or dict. Received "
                    f"instead: {arg}={given} of type {type(given)}"
                )
            if isinstance(given, dict) and len(given) > 1:
                raise NotImplementedError(
                    f"minitape's models have one output: pass {arg} as a list, such as "
                    f"{arg}=['mae'], not a dict of outputs."
                )
        # (a dict for the one output, {name: metrics}: its metrics, as Keras reads it)
        metrics, weighted_metrics = (_one_output(given) for given in (metrics, weighted_metrics))
        self._given = (list(metrics or []), list(weighted_metrics or []))
        self.unweighted = [_metric(m) for m in self._given[0]]
        self.weighted = [_metric(m) for m in self._given[1]]
        self.metrics = self.unweighted + self.weighted
        self.names = []
        for m, given in zip(self.metrics, self._given[0] + self._given[1]):
            name = given if isinstance(given, str) else m.name
            if name in self.names:
                name = "weighted_" + name if any(m is w for w in self.weighted) else name
                index = sum(1 for n in self.names if n == name or n.startswith(name + "_"))
                name = name if index == 0 else f"{name}_{index}"
            self.names.append(name)

    @property
    def variables(self):
        return [v for m in self.metrics if m is not None for v in m.variables]

    def update_state(self, y_true, y_pred, sample_weight=None):
        if any(m is None for m in self.metrics):  # "accuracy": chosen on the first data
            self.unweighted, self.weighted = (
                [m or metrics_module.accuracy_for(g, y_true, y_pred) for m, g in zip(ms, given)]
                for ms, given in zip((self.unweighted, self.weighted), self._given)
            )
            self.metrics = self.unweighted + self.weighted
        for m in self.unweighted:
            m.update_state(y_true, y_pred)
        for m in self.weighted:
            m.update_state(y_true, y_pred, sample_weight)

    def result(self):
        return {name: m.result() for name, m in zip(self.names, self.metrics)}

    def reset_state(self):
        for m in self.metrics:
            if m is not None:
                m.reset_state()


def _metric(identifier):
    """A compiled metric, or None for "accuracy"/"acc" (chosen when the data is seen)."""
    if isinstance(identifier, str) and identifier.lower() in ("accuracy", "acc"):
        return None
    return metrics_module.get(identifier)


class Trainer:
    """compile, the loss and the metrics (Keras 3's `Trainer`, shared by every backend)."""

    compiled = False
    _compile_loss = None
    _compile_metrics = None
    _loss_tracker = None
    _run_eagerly = False
    steps_per_execution = 1
    train_function = test_function = predict_function = None

    def compile(
        self,
        optimizer="rmsprop",
        loss=None,
        loss_weights=None,
        metrics=None,
        weighted_metrics=None,
        run_eagerly=False,
        steps_per_execution=1,
        jit_compile="auto",
        auto_scale_loss=True,
    ):
        """Choose the optimizer (object or name: 'rmsprop', the default, 'sgd', 'adam'), the
        loss (object, function or name: 'mse', 'binary_crossentropy', ...) and metrics (names:
        'mae', 'mse'; or Metric objects). Each compile makes a new loss tracker and a new step
        function. A model whose policy is 'mixed_float16' gets its optimizer wrapped in a
        LossScaleOptimizer, unless `auto_scale_loss=False`. `jit_compile` is accepted and
        ignored."""
        self.steps_per_execution = steps_per_execution  # (steps run between callbacks)
        self.optimizer = optimizers_module.get(optimizer)
        if (
            auto_scale_loss
            and self.dtype_policy.name == "mixed_float16"
            and self.optimizer
            and not isinstance(self.optimizer, LossScaleOptimizer)
        ):
            self.optimizer = LossScaleOptimizer(self.optimizer, name="loss_scale_optimizer")
        self._compile_loss = None if loss is None else _CompileLoss(loss, loss_weights)
        self.loss = loss
        self._compile_metrics = (
            None
            if metrics is None and weighted_metrics is None
            else _CompileMetrics(metrics, weighted_metrics)
        )
        self.run_eagerly = run_eagerly
        self.stop_training = False
        self.compiled = True
        self._loss_tracker = metrics_module.Mean(name="loss")
        self.train_function = self.test_function = self.predict_function = None

    @property
    def run_eagerly(self):
        return self._run_eagerly

    @run_eagerly.setter
    def run_eagerly(self, value):
        self._run_eagerly = value

    @property
    def metrics(self):
        """The loss tracker (a Mean named "loss"), then compile's metrics (as one
        "compile_metrics"), then any Metric stored as an attribute of the model."""
        found = []
        if self.compiled:
            if self._loss_tracker is not None:
                found.append(self._loss_tracker)
            if self._compile_metrics is not None:
                found.append(self._compile_metrics)
        own = (self._loss_tracker, self._compile_metrics)
        for value in vars(self).values():
            if isinstance(value, metrics_module.Metric) and all(value is not m for m in own):
                found.append(value)
        return found

    @property
    def metrics_names(self):
        return [m.name for m in self.metrics]

    def reset_metrics(self):
        for m in self.metrics:
            m.reset_state()

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        """The loss given to compile, of (y, y_pred): what a custom train_step calls to use
        it. (It does not update the "loss" metric: the step does that.)"""
        del x, training  # (the default does not use them)
        losses = []
        if self._compile_loss is not None:
            loss = self._compile_loss(y, y_pred, sample_weight)
            if loss is not None:
                losses.append(loss)
        for loss in getattr(self, "losses", ()):  # (the layers' add_loss and regularizers)
            loss = reduce_sum(loss)
            losses.append(loss if loss.dtype.is_floating else cast(loss, "float32"))
        if not losses:
            raise ValueError("No loss to compute. Provide a `loss` argument in `compile()`.")
        return losses[0] if len(losses) == 1 else reduce_sum(stack(losses))

    def _compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        """compute_loss, also when an override does not take `training` (older Keras)."""
        if "training" in inspect.signature(self.compute_loss).parameters:
            return self.compute_loss(x, y, y_pred, sample_weight, training=training)
        return self.compute_loss(x, y, y_pred, sample_weight)

    def compute_metrics(self, x, y, y_pred, sample_weight=None):
        """Update compile's metrics with this batch; return every metric's result."""
        del x
        if self._compile_metrics is not None:
            self._compile_metrics.update_state(y, y_pred, sample_weight)
        return self.get_metrics_result()

    def get_metrics_result(self):
        """{name: result} for every metric in `self.metrics` (compile_metrics spread out)."""
        results = {}
        for metric in self.metrics:
            result = metric.result()
            if isinstance(result, dict):
                results.update(result)
            else:
                results[metric.name] = result
        return results

    def _get_metrics_result_or_logs(self, logs):
        """What fit logs at the end of an epoch: the metrics' results if `logs` (the last
        step's dict) has the same keys, otherwise `logs` itself."""
        metric_logs = self.get_metrics_result()
        if isinstance(logs, dict) and set(logs.keys()) == set(metric_logs.keys()):
            return metric_logs
        return logs

    def _flatten_metrics_in_order(self, logs):
        """evaluate's list: the values in `self.metrics`' order (one value: just it)."""
        names = []
        for metric in self.metrics:
            if isinstance(metric, _CompileMetrics):
                names += metric.names
            else:
                names.append(metric.name)
        results = [logs[name] for name in names if name in logs]
        results += [logs[key] for key in sorted(logs) if key not in names]
        return results[0] if len(results) == 1 else results

    def _assert_compile_called(self, method_name=None):
        if not self.compiled:
            raise ValueError("You must call `compile()` before using the model.")


class TensorFlowTrainer(Trainer):
    """The steps and loops of Keras 3's TensorFlow backend: train_step, fit, evaluate,
    predict."""

    def train_step(self, data):
        """One step of Keras' own: forward, loss, the loss tracker, gradients, update,
        metrics. Returns the metrics' results (a dict of tensors)."""
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self._compute_loss(
                x=x, y=y, y_pred=y_pred, sample_weight=sample_weight, training=True
            )
            # every example counts once: a batch of 2 weighs half as much as one of 4
            self._loss_tracker.update_state(loss, sample_weight=shape(nest.flatten(x)[0])[0])
            if self.optimizer is not None:
                loss = self.optimizer.scale_loss(loss)  # (a LossScaleOptimizer's scale)
        if self.trainable_weights:
            trainable_weights = self.trainable_weights
            gradients = tape.gradient(loss, trainable_weights)
            self.optimizer.apply_gradients(zip(gradients, trainable_weights))
        else:
            warnings.warn("The model does not have any trainable weights.", stacklevel=2)
        return self.compute_metrics(x, y, y_pred, sample_weight=sample_weight)

    def test_step(self, data):
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        y_pred = self(x, training=False)
        loss = self._compute_loss(
            x=x, y=y, y_pred=y_pred, sample_weight=sample_weight, training=False
        )
        self._loss_tracker.update_state(loss, sample_weight=shape(nest.flatten(x)[0])[0])
        return self.compute_metrics(x, y, y_pred, sample_weight=sample_weight)

    def predict_step(self, data):
        x, _, _ = unpack_x_y_sample_weight(data)
        return self(x, training=False)

    def _make_function(self, step):
        """The step, traced by `minitape.function` unless `run_eagerly` (Keras 3 wraps it in
        tf.function the same way). Made once per compile."""

        def one_step_on_data(data):
            return step(data)

        return one_step_on_data if self.run_eagerly else function(one_step_on_data)

    @staticmethod
    def _for_batches(step_function, epoch_iterator):
        """`step_function`, told whether its batches' size is known: as Keras' tf.data
        pipeline gives them, a step is traced for (None, ...) when the last batch is partial,
        and that one trace serves every batch (a traced function's `_any_batch_size`)."""
        if hasattr(step_function, "_any_batch_size"):
            step_function._any_batch_size = epoch_iterator.any_batch_size
        return step_function

    def make_train_function(self, force=False):
        if self.train_function is None or force:
            self.train_function = self._make_function(self.train_step)
        return self.train_function

    def make_test_function(self, force=False):
        if self.test_function is None or force:
            self.test_function = self._make_function(self.test_step)
        return self.test_function

    def make_predict_function(self, force=False):
        if self.predict_function is None or force:
            self.predict_function = self._make_function(self.predict_step)
        return self.predict_function

    def fit(
        self,
        x=None,
        y=None,
        batch_size=None,
        epochs=1,
        verbose="auto",
        callbacks=None,
        validation_split=0.0,
        validation_data=None,
        shuffle=True,
        class_weight=None,
        sample_weight=None,
        initial_epoch=0,
        steps_per_epoch=None,
        validation_steps=None,
        validation_batch_size=None,
        validation_freq=1,
    ):
        """Train for `epochs` passes over the data, `batch_size` examples per step (32 by
        default; the last batch holds what is left), the examples shuffled before each epoch
        unless `shuffle=False`. Returns a History: `.history['loss']` has one float per
        epoch, the mean of the loss over that epoch's examples (as the "loss" metric saw it),
        and `val_loss` (and `val_` metrics) with `validation_split` or `validation_data`."""
        self._assert_compile_called("fit")
        if validation_split and validation_data is None:
            (x, y, sample_weight), validation_data = train_validation_split(
                (x, y, sample_weight), validation_split
            )
        if validation_data is not None:
            val_x, val_y, val_sample_weight = unpack_x_y_sample_weight(validation_data)
        epoch_iterator = EpochIterator(
            x, y, sample_weight, batch_size, steps_per_epoch, shuffle, class_weight
        )
        callbacks = _callback_list(callbacks, self, verbose, epochs, epoch_iterator, fit=True)
        self.stop_training = False
        self._for_batches(self.make_train_function(), epoch_iterator)
        callbacks.on_train_begin()
        training_logs, logs = None, {}
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            callbacks.on_epoch_begin(epoch)
            for begin, end, batches in epoch_iterator.enumerate_epoch(self.steps_per_execution):
                callbacks.on_train_batch_begin(begin)
                for data in batches:  # (steps_per_execution steps between callbacks)
                    logs = self._checked_logs(self.train_function(data), "train_step")
                callbacks.on_train_batch_end(end, logs)
                if self.stop_training:
                    break
            # the metrics' results, not the last step's dict, when the keys match
            epoch_logs = dict(self._get_metrics_result_or_logs(logs))
            if validation_data is not None and _should_eval(epoch, validation_freq):
                val_logs = self.evaluate(
                    val_x,
                    val_y,
                    sample_weight=val_sample_weight,
                    batch_size=validation_batch_size or batch_size,
                    steps=validation_steps,
                    callbacks=callbacks,
                    return_dict=True,
                )
                epoch_logs.update({f"val_{name}": value for name, value in val_logs.items()})
            callbacks.on_epoch_end(epoch, epoch_logs)
            training_logs = epoch_logs
            if self.stop_training:
                break
        callbacks.on_train_end(logs=training_logs)
        return self.history

    def evaluate(
        self,
        x=None,
        y=None,
        batch_size=None,
        verbose="auto",
        sample_weight=None,
        steps=None,
        callbacks=None,
        return_dict=False,
        **kwargs,
    ):
        """The loss (and metrics) over (x, y), in batches, without training: a float, or a
        list (a dict with `return_dict=True`) if there are metrics."""
        self._assert_compile_called("evaluate")
        if kwargs:
            raise ValueError(f"Arguments not recognized: {kwargs}")
        epoch_iterator = EpochIterator(x, y, sample_weight, batch_size, steps)
        callbacks = _callback_list(callbacks, self, verbose, 1, epoch_iterator)
        self._for_batches(self.make_test_function(), epoch_iterator)
        self.stop_evaluating = False
        callbacks.on_test_begin()
        logs = {}
        self.reset_metrics()
        for begin, end, batches in epoch_iterator.enumerate_epoch(self.steps_per_execution):
            callbacks.on_test_batch_begin(begin)
            for data in batches:
                logs = self._checked_logs(self.test_function(data), "test_step")
            callbacks.on_test_batch_end(end, logs)
            if self.stop_evaluating:
                break
        logs = pythonify_logs(self._get_metrics_result_or_logs(logs))
        callbacks.on_test_end(logs)
        return logs if return_dict else self._flatten_metrics_in_order(logs)

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None):
        """The model's outputs for x, computed in batches, as numpy arrays (one array, or the
        structure predict_step returns, each part joined over the batches)."""
        epoch_iterator = EpochIterator(x, batch_size=batch_size, steps_per_epoch=steps)
        callbacks = _callback_list(callbacks, self, verbose, 1, epoch_iterator)
        self._for_batches(self.make_predict_function(), epoch_iterator)
        self.stop_predicting = False
        callbacks.on_predict_begin()
        structure, parts = None, []  # parts: for each leaf of the outputs, its batches
        for begin, end, batches in epoch_iterator.enumerate_epoch(self.steps_per_execution):
            callbacks.on_predict_batch_begin(begin)
            for data in batches:
                batch_outputs = self.predict_function(data)
                structure, leaves = batch_outputs, nest.flatten(batch_outputs)
                parts = parts or [[] for _ in leaves]
                for collected, leaf in zip(parts, leaves):
                    collected.append(leaf)
            callbacks.on_predict_batch_end(end, {"outputs": batch_outputs})
            if self.stop_predicting:
                break
        callbacks.on_predict_end()
        return nest.pack_sequence_as(structure, [_joined(collected) for collected in parts])

    @staticmethod
    def _checked_logs(logs, step_name):
        """A step's logs as Keras 3 takes them: a dict with at least one value that is not
        None (TF's step function cannot return nothing), whose items fit logs."""
        if not [leaf for leaf in nest.flatten(logs) if leaf is not None]:
            raise ValueError(
                f"The `{step_name}` returned {logs!r}, with no value: Keras' step function "
                "cannot return nothing (TF: Attr 'Toutput_types' of 'OptionalFromValue' Op "
                "passed list of length 0 less than minimum 1). Return a dict of metric "
                "results, such as {'loss': loss}."
            )
        if not isinstance(logs, dict):
            raise AttributeError(
                f"'{type(logs).__name__}' object has no attribute 'items' (the `{step_name}` "
                "must return a dict of metric results, such as {'loss': loss})"
            )
        return logs


def _joined(parts):
    value = parts[0] if len(parts) == 1 else concat(parts, axis=0)
    return value.numpy() if isinstance(value, (Tensor, Variable)) else np.asarray(value)


def _should_eval(epoch, validation_freq):
    epoch = epoch + 1  # (one-based)
    if isinstance(validation_freq, int):
        return epoch % validation_freq == 0
    if isinstance(validation_freq, (list, tuple)):
        return epoch in validation_freq
    raise ValueError(
        "Expected `validation_freq` to be a list or int. "
        f"Received: validation_freq={validation_freq} of the type {type(validation_freq)}."
    )


def _callback_list(callbacks, model, verbose, epochs, epoch_iterator, fit=False):
    """The CallbackList of one fit/evaluate/predict (the one given, inside fit's
    validation): the user's callbacks, a History in fit, a ProgbarLogger unless verbose=0."""
    if isinstance(callbacks, CallbackList):
        return callbacks
    return CallbackList(
        callbacks,
        add_history=fit,
        add_progbar=verbose != 0,
        model=model,
        verbose=verbose,
        epochs=epochs,
        steps=epoch_iterator.num_batches,
    )
