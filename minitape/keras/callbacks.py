"""`tf.keras.callbacks`: code that `fit`, `evaluate` and `predict` call at fixed points.

A callback subclasses `Callback` and defines some of its hooks; the loops call them in this
order (as Keras 3 does):

    on_train_begin
      on_epoch_begin(epoch)
        on_train_batch_begin(step) / on_train_batch_end(step, logs)     for each step
        (validation: on_test_begin, on_test_batch_begin/_end..., on_test_end)
      on_epoch_end(epoch, logs)           logs: the epoch's metrics, then the val_ ones
    on_train_end(logs)

and `on_test_*` in `evaluate`, `on_predict_*` in `predict`. `self.model` is the model being
trained (set `self.model.stop_training = True` to stop after this step), `self.params` is
{'verbose', 'epochs', 'steps'}.

Every fit has a `History` (what fit returns: `history.history` maps each logged name to one
Python float per epoch) and, unless `verbose=0`, a `ProgbarLogger` that prints the progress
lines. `EarlyStopping` stops when a logged value stops improving; `LambdaCallback` makes a
callback of functions.
"""

import collections.abc
import csv
import os
import warnings

import numpy as np

from ..tensor import Tensor, Variable
from .progbar import Progbar

__all__ = [
    "CSVLogger",
    "Callback",
    "CallbackList",
    "EarlyStopping",
    "History",
    "LambdaCallback",
    "LearningRateScheduler",
    "ModelCheckpoint",
    "MonitorCallback",
    "ProgbarLogger",
    "ReduceLROnPlateau",
    "TensorBoard",
    "TerminateOnNaN",
]

_HOOKS = [
    f"on_{when}_{edge}"
    for when in ("train", "test", "predict", "epoch", "batch", "train_batch")
    + ("test_batch", "predict_batch")
    for edge in ("begin", "end")
]


class Callback:
    """The base class: every hook does nothing (the train_batch hooks call the batch hooks,
    their older names)."""

    def __init__(self):
        self.params = None
        self._model = None

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self._model = model

    @property
    def model(self):
        return self._model

    def on_batch_begin(self, batch, logs=None):
        pass

    def on_batch_end(self, batch, logs=None):
        pass

    def on_epoch_begin(self, epoch, logs=None):
        pass

    def on_epoch_end(self, epoch, logs=None):
        pass

    def on_train_batch_begin(self, batch, logs=None):
        self.on_batch_begin(batch, logs=logs)

    def on_train_batch_end(self, batch, logs=None):
        self.on_batch_end(batch, logs=logs)

    def on_test_batch_begin(self, batch, logs=None):
        pass

    def on_test_batch_end(self, batch, logs=None):
        pass

    def on_predict_batch_begin(self, batch, logs=None):
        pass

    def on_predict_batch_end(self, batch, logs=None):
        pass

    def on_train_begin(self, logs=None):
        pass

    def on_train_end(self, logs=None):
        pass

    def on_test_begin(self, logs=None):
        pass

    def on_test_end(self, logs=None):
        pass

    def on_predict_begin(self, logs=None):
        pass

    def on_predict_end(self, logs=None):
        pass


def pythonify_logs(logs):
    """Keras' `pythonify_logs`: the logs sorted by name, a dict value (compile_metrics')
    spread out in place, each value a Python float when it can be one."""
    result = {}
    for key, value in sorted((logs or {}).items()):
        if isinstance(value, dict):
            result.update(pythonify_logs(value))
        else:
            try:
                if isinstance(value, (Tensor, Variable)):
                    value = value.numpy()
                value = float(value)
            except Exception:  # noqa: BLE001  (as Keras: left as it is, an array stays one)
                pass
            result[key] = value
    return result


class CallbackList(Callback):
    """The callbacks of one fit/evaluate/predict, called together: the user's, then a History
    (`add_history`) and a ProgbarLogger (`add_progbar`) unless the list has one. `params` go
    to every callback's set_params; the logs, made plain Python floats, to every hook."""

    def __init__(self, callbacks=None, add_history=False, add_progbar=False, model=None, **params):
        super().__init__()
        self._pythonify = pythonify_logs
        self.callbacks = list(_flatten(callbacks)) if callbacks else []
        self._history = next((c for c in self.callbacks if isinstance(c, History)), None)
        self._progbar = next((c for c in self.callbacks if isinstance(c, ProgbarLogger)), None)
        if self._history is None and add_history:
            self._history = History()
            self.callbacks.append(self._history)
        if self._progbar is None and add_progbar:
            self._progbar = ProgbarLogger()
            self.callbacks.append(self._progbar)
        if model:
            self.set_model(model)
        if params:
            self.set_params(params)

    def set_params(self, params):
        self.params = params
        for callback in self.callbacks:
            callback.set_params(params)

    def set_model(self, model):
        super().set_model(model)
        if self._history:
            model.history = self._history
        for callback in self.callbacks:
            callback.set_model(model)


def _call_all(hook):
    """CallbackList's `hook`: each callback's, with the logs made plain Python floats (a batch
    hook gets them as a keyword, as Keras passes them)."""
    if hook.endswith(("epoch_begin", "epoch_end")) or "batch" in hook:

        def call(self, index, logs=None):
            logs = self._pythonify(logs)
            for callback in self.callbacks:
                if "batch" in hook:
                    getattr(callback, hook)(index, logs=logs)
                else:
                    getattr(callback, hook)(index, logs)

    else:

        def call(self, logs=None):
            logs = self._pythonify(logs)
            for callback in self.callbacks:
                getattr(callback, hook)(logs)

    call.__name__ = hook
    return call


for _hook in _HOOKS:
    setattr(CallbackList, _hook, _call_all(_hook))


def _flatten(callbacks):
    if isinstance(callbacks, (list, tuple)):
        for c in callbacks:
            yield from _flatten(c)
    else:
        yield callbacks


class History(Callback):
    """Records the logs of each epoch: `history.history` is {name: [one float per epoch]},
    `history.epoch` the epoch numbers, `history.params` how fit ran. fit returns it, and the
    model keeps the latest as `model.history`."""

    def __init__(self):
        super().__init__()
        self.history = {}

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for key, value in (logs or {}).items():
            self.history.setdefault(key, []).append(value)
        self.model.history = self


class ProgbarLogger(Callback):
    """Prints the progress lines: "Epoch 2/5" (when there is more than one epoch), then a
    Progbar per epoch (in fit; its validation prints nothing), per evaluate or per predict."""

    def __init__(self):
        super().__init__()
        self.seen, self.progbar, self.target = 0, None, None
        self.verbose, self.epochs = 1, 1
        self._called_in_fit = False

    def set_params(self, params):
        verbose = params["verbose"]
        self.verbose = 1 if verbose == "auto" else verbose
        self.epochs, self.target = params["epochs"], params["steps"]

    def on_train_begin(self, logs=None):
        self._called_in_fit = True  # (the validation inside fit is silent)

    def on_test_begin(self, logs=None):
        if not self._called_in_fit:
            self._reset_progbar()

    def on_predict_begin(self, logs=None):
        self._reset_progbar()

    def on_epoch_begin(self, epoch, logs=None):
        self._reset_progbar()
        if self.verbose and self.epochs > 1:
            print(f"Epoch {epoch + 1}/{self.epochs}", flush=True)

    def on_train_batch_end(self, batch, logs=None):
        self._update_progbar(batch, logs)

    def on_test_batch_end(self, batch, logs=None):
        if not self._called_in_fit:
            self._update_progbar(batch, logs)

    def on_predict_batch_end(self, batch, logs=None):
        self._update_progbar(batch, None)  # (not the outputs)

    def on_epoch_end(self, epoch, logs=None):
        self._finalize_progbar(logs)

    def on_test_end(self, logs=None):
        if not self._called_in_fit:
            self._finalize_progbar(logs)

    def on_predict_end(self, logs=None):
        self._finalize_progbar(logs)

    def _reset_progbar(self):
        self.seen = 0
        self.progbar = Progbar(self.target, verbose=self.verbose, stateless_metrics=set())

    def _update_progbar(self, batch, logs=None):
        self.seen = batch + 1
        if self.verbose == 1:
            self.progbar.update(self.seen, list((logs or {}).items()), finalize=False)

    def _finalize_progbar(self, logs):
        if self.target is None:
            self.target = self.progbar.target = self.seen
        self.progbar.update(self.target, list((logs or {}).items()), finalize=True)


class MonitorCallback(Callback):
    """A callback that watches one logged value, `monitor`: lower is better for a loss and
    an error metric, higher for `mode="max"` and for an accuracy (whose metric says so);
    an improvement must beat the best by more than `min_delta`."""

    def __init__(self, monitor="val_loss", mode="auto", baseline=None, min_delta=0):
        super().__init__()
        if mode not in ("auto", "min", "max"):
            warnings.warn(
                f"{type(self).__name__} mode '{mode}' is unknown, fallback to auto mode.",
                stacklevel=2,
            )
            mode = "auto"
        self.monitor, self.mode, self.best = monitor, mode, baseline
        self.min_delta, self.monitor_op = abs(min_delta), None

    def _set_monitor_op(self):
        if self.mode == "min":
            self.monitor_op = _less
        elif self.mode == "max":
            self.monitor_op = _greater
        else:
            name = self.monitor.removeprefix("val_")
            if name == "loss":
                self.monitor_op = _less
            for metric in _compiled_metrics(self.model):
                direction = getattr(metric, "_direction", None)
                if metric.name == name and direction is not None:
                    self.monitor_op = _greater if direction == "up" else _less
            if self.monitor_op is None:
                raise ValueError(
                    f"{type(self).__name__} callback received monitor={self.monitor}, but "
                    "Keras isn't able to automatically determine whether that metric should "
                    "be maximized or minimized. Pass `mode='max'` in order to monitor based "
                    "on the highest metric value, or pass `mode='min'` in order to use the "
                    "lowest value."
                )
        if self.monitor_op is _less:
            self.min_delta *= -1

    def _is_improvement(self, value, reference):
        return reference is None or self.monitor_op(value - self.min_delta, reference)


class EarlyStopping(MonitorCallback):
    """Stops training when `monitor` (a logged name, "val_loss" by default) has not improved by
    more than `min_delta` for `patience` epochs; `restore_best_weights` puts back the weights
    of the best epoch at the end."""

    def __init__(
        self,
        monitor="val_loss",
        min_delta=0,
        patience=0,
        verbose=0,
        mode="auto",
        baseline=None,
        restore_best_weights=False,
        start_from_epoch=0,
    ):
        super().__init__(monitor, mode, min_delta=min_delta)
        self.patience, self.verbose, self.baseline = patience, verbose, baseline
        self.restore_best_weights, self.start_from_epoch = restore_best_weights, start_from_epoch
        self.wait = self.stopped_epoch = 0
        self.best_weights = None

    def on_train_begin(self, logs=None):
        self.wait = self.stopped_epoch = self.best_epoch = 0
        self.best = self.best_weights = None

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self._set_monitor_op()
        current = (logs or {}).get(self.monitor)
        if current is None:
            warnings.warn(
                f"Early stopping conditioned on metric `{self.monitor}` which is not "
                f"available. Available metrics are: {','.join(list((logs or {}).keys()))}",
                stacklevel=2,
            )
        if current is None or epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights, self.best_epoch = self.model.get_weights(), epoch
        self.wait += 1
        if self._is_improvement(current, self.best):
            self.best, self.best_epoch = current, epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._is_improvement(current, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print(f"Epoch {self.stopped_epoch + 1}: early stopping", flush=True)
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                print(
                    "Restoring model weights from the end of the best epoch: "
                    f"{self.best_epoch + 1}.",
                    flush=True,
                )
            self.model.set_weights(self.best_weights)


def _less(a, b):
    return a < b


def _greater(a, b):
    return a > b


def _compiled_metrics(model):
    found = []
    for metric in getattr(model, "metrics", []):
        found += getattr(metric, "metrics", [])
    return found


class LambdaCallback(Callback):
    """A callback made of functions: `LambdaCallback(on_epoch_end=lambda epoch, logs: ...)`
    (the six hooks Keras names: on_epoch_begin/_end, on_train_begin/_end,
    on_train_batch_begin/_end; other keyword arguments become attributes)."""

    def __init__(
        self,
        on_epoch_begin=None,
        on_epoch_end=None,
        on_train_begin=None,
        on_train_end=None,
        on_train_batch_begin=None,
        on_train_batch_end=None,
        **kwargs,
    ):
        super().__init__()
        self.__dict__.update(kwargs)
        given = {
            "on_epoch_begin": on_epoch_begin,
            "on_epoch_end": on_epoch_end,
            "on_train_begin": on_train_begin,
            "on_train_end": on_train_end,
            "on_train_batch_begin": on_train_batch_begin,
            "on_train_batch_end": on_train_batch_end,
        }
        for hook, fn in given.items():
            if fn is not None:
                setattr(self, hook, fn)


class ModelCheckpoint(MonitorCallback):
    """Writes the model's weights after each epoch (`save_weights_only=True`, to a name ending
    in `.weights.h5`: minitape's own file, see saving.py), or every `save_freq` batches (an
    int), or only when `monitor` improved (`save_best_only=True`). The name may hold
    `{epoch}`, `{batch}` and logged values (`{loss:.2f}`).
    Keras can also write the whole model to a `.keras` file; minitape cannot, and says so."""

    def __init__(
        self,
        filepath,
        monitor="val_loss",
        verbose=0,
        save_best_only=False,
        save_weights_only=False,
        mode="auto",
        save_freq="epoch",
        initial_value_threshold=None,
    ):
        super().__init__(monitor, mode, initial_value_threshold)
        self.filepath, self.verbose = os.fspath(filepath), verbose
        self.save_best_only, self.save_weights_only = save_best_only, save_weights_only
        if save_freq != "epoch" and not isinstance(save_freq, int):
            raise ValueError(
                f"Unrecognized save_freq: {save_freq}. "
                "Expected save_freq are 'epoch' or integer values"
            )
        if save_weights_only and not self.filepath.endswith(".weights.h5"):
            raise ValueError(
                "When using `save_weights_only=True` in `ModelCheckpoint`, the filepath "
                "provided must end in `.weights.h5` (Keras weights format). Received: "
                f"filepath={self.filepath}"
            )
        if not save_weights_only:
            raise NotImplementedError(
                "minitape's Keras writes no .keras files (the whole model): save the weights "
                "with ModelCheckpoint(..., save_weights_only=True) and a name ending in "
                ".weights.h5, or keep the best ones with "
                "EarlyStopping(restore_best_weights=True)."
            )
        self.save_freq = save_freq
        self._batches_seen_since_last_saving = 0
        self._last_batch_seen = None
        self._current_epoch = 0

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        if self._should_save_on_batch(batch):
            self._save(self._current_epoch, batch, logs)

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self._set_monitor_op()
        if self.save_freq == "epoch":
            self._save(epoch, None, logs)

    def _should_save_on_batch(self, batch):
        """Keras' count: every `save_freq` batches seen, across epochs."""
        if self.save_freq == "epoch":
            return False
        if self._last_batch_seen is None or batch <= self._last_batch_seen:
            add_batches = batch + 1  # (a new epoch: batches count from zero)
        else:
            add_batches = batch - self._last_batch_seen
        self._batches_seen_since_last_saving += add_batches
        self._last_batch_seen = batch
        if self._batches_seen_since_last_saving >= self.save_freq:
            self._batches_seen_since_last_saving = 0
            return True
        return False

    def _save(self, epoch, batch, logs):
        logs = logs or {}
        if batch is None or "batch" in logs:
            filepath = self.filepath.format(epoch=epoch + 1, **logs)
        else:
            filepath = self.filepath.format(epoch=epoch + 1, batch=batch + 1, **logs)
        if self._should_save(epoch, logs, filepath):
            self.model.save_weights(filepath, overwrite=True)

    def _should_save(self, epoch, logs, filepath):
        """Keras' rule (and its words, with verbose=1)."""
        if not self.save_best_only:
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: saving model to {filepath}", flush=True)
            return True
        current = logs.get(self.monitor)
        if current is None:
            warnings.warn(f"Can save best model only with {self.monitor} available.", stacklevel=3)
            return True
        best = "None" if self.best is None else f"{self.best:.5f}"
        if self._is_improvement(current, self.best):
            if self.verbose > 0:
                print(
                    f"\nEpoch {epoch + 1}: {self.monitor} improved from {best} to "
                    f"{current:.5f}, saving model to {filepath}",
                    flush=True,
                )
            self.best = current
            return True
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from {best}", flush=True)
        return False


def _learning_rate(model):
    return float(model.optimizer.learning_rate.numpy())


class LearningRateScheduler(Callback):
    """Sets the learning rate at the start of each epoch to `schedule(epoch, lr)` (or
    `schedule(epoch)`), a float, and logs it as "learning_rate" at the end."""

    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule, self.verbose = schedule, verbose

    def on_epoch_begin(self, epoch, logs=None):
        try:
            learning_rate = self.schedule(epoch, _learning_rate(self.model))
        except TypeError:  # (a schedule of the epoch alone, the older form)
            learning_rate = self.schedule(epoch)
        if not isinstance(learning_rate, (float, np.float32, np.float64)):
            raise ValueError(
                f"The output of the `schedule` function should be a float. Got: {learning_rate}"
            )
        self.model.optimizer.learning_rate = learning_rate
        if self.verbose > 0:
            print(
                f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to "
                f"{learning_rate}.",
                flush=True,
            )

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["learning_rate"] = _learning_rate(self.model)


class ReduceLROnPlateau(MonitorCallback):
    """Multiplies the learning rate by `factor` when `monitor` has not improved for
    `patience` epochs (not below `min_lr`; then waits `cooldown` epochs); logs the learning
    rate as "learning_rate"."""

    def __init__(
        self,
        monitor="val_loss",
        factor=0.1,
        patience=10,
        verbose=0,
        mode="auto",
        min_delta=1e-4,
        cooldown=0,
        min_lr=0.0,
        **kwargs,
    ):
        super().__init__(monitor, mode, min_delta=min_delta)
        if factor >= 1.0:
            raise ValueError(
                f"ReduceLROnPlateau does not support a factor >= 1.0. Received factor={factor}"
            )
        self.factor, self.min_lr, self.patience = factor, min_lr, patience
        self.verbose, self.cooldown = verbose, cooldown
        self.cooldown_counter = self.wait = 0

    def on_train_begin(self, logs=None):
        self.best, self.cooldown_counter, self.wait = None, 0, 0

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self._set_monitor_op()
        logs = logs if logs is not None else {}
        logs["learning_rate"] = _learning_rate(self.model)
        current = logs.get(self.monitor)
        if current is None:
            warnings.warn(
                f"Learning rate reduction is conditioned on metric `{self.monitor}` which is "
                f"not available. Available metrics are: {','.join(list(logs.keys()))}.",
                stacklevel=2,
            )
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self._is_improvement(current, self.best):
            self.best, self.wait = current, 0
        elif not self.cooldown_counter > 0:
            self.wait += 1
            if self.wait >= self.patience and self._reduce(epoch):
                self.cooldown_counter, self.wait = self.cooldown, 0

    def _reduce(self, epoch):
        old = _learning_rate(self.model)
        if not old > np.float32(self.min_lr):
            return False
        new = max(old * self.factor, self.min_lr)
        self.model.optimizer.learning_rate = new
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate to {new}.")
        return True


class TerminateOnNaN(Callback):
    """Stops training (or raises, with `raise_error=True`) after a batch whose loss is NaN
    or infinite."""

    def __init__(self, raise_error=False):
        super().__init__()
        self.raise_error = raise_error

    def on_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is not None and (np.isnan(loss) or np.isinf(loss)):
            if self.raise_error:
                raise RuntimeError(
                    f"NaN or Inf loss encountered at batch {batch}. Loss value: {loss}. "
                    "Terminating training immediately."
                )
            print(f"Batch {batch}: Invalid loss, terminating training", flush=True)
            self.model.stop_training = True


class CSVLogger(Callback):
    """Writes each epoch's logs to a CSV file: a header "epoch" and the logged names, sorted
    (with val_ columns even before validation logs any), then a row per epoch."""

    def __init__(self, filename, separator=",", append=False):
        super().__init__()
        self.sep, self.filename, self.append = separator, os.fspath(filename), append
        self.writer = self.keys = self.csv_file = None
        self.append_header = True

    def on_train_begin(self, logs=None):
        if self.append and os.path.exists(self.filename):
            with open(self.filename) as f:
                self.append_header = not f.readline()
        if self.csv_file and not self.csv_file.closed:
            self.csv_file.close()
        self.csv_file = open(self.filename, "a" if self.append else "w")  # noqa: SIM115
        self.writer = self.keys = None

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        if self.keys is None:
            self.keys = sorted(logs)
            if self.keys and not any(k.startswith("val_") for k in self.keys):
                self.keys += [f"val_{k}" for k in self.keys]
        if not self.writer:
            dialect = type("Dialect", (csv.excel,), {"delimiter": self.sep})
            self.writer = csv.DictWriter(
                self.csv_file, fieldnames=["epoch"] + self.keys, dialect=dialect
            )
            if self.append_header:
                self.writer.writeheader()
        row = {"epoch": epoch}
        row.update((key, _csv_value(logs.get(key, "NA"))) for key in self.keys)
        self.writer.writerow(row)
        self.csv_file.flush()

    def on_train_end(self, logs=None):
        if self.csv_file and not self.csv_file.closed:
            self.csv_file.close()
        self.writer = None


def _csv_value(value):
    if isinstance(value, str) or (isinstance(value, np.ndarray) and value.ndim == 0):
        return value
    if isinstance(value, collections.abc.Iterable):
        return f'"[{", ".join(map(str, value))}]"'
    return value


class TensorBoard(Callback):
    """Keras writes TensorBoard's event files; minitape does not, and says so when the
    callback is made."""

    def __init__(self, log_dir="logs", *args, **kwargs):
        raise NotImplementedError(
            "minitape's Keras writes no TensorBoard logs: read the History fit returns "
            "(history.history), or write each epoch's logs with CSVLogger(filename)."
        )
