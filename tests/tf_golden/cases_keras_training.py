"""Golden cases for `fit`, `evaluate` and `predict` with Keras 3's defaults and options, as TF
2.21 runs them: the seeded shuffle, the progress lines, the callbacks and the order of their
hooks, validation, sample and class weights, steps, the argument checks, and what a step may
return (names keras_train_...).

The data are the fixed numbers of cases_keras_fit; every model is seeded. Progress lines are
recorded with their timings replaced by "T" (they are the machine's) and the padding that
depends on the timings' widths dropped; everything else, escape codes included, is Keras'."""

import contextlib
import io
import re

import numpy as np

from .cases import attempt, case
from .cases_keras_fit import X, Y

LABELS = np.array([0, 1, 1, 0, 2, 1, 0, 2, 1, 1])


def spy(tf, seen):
    """A 1-unit Sequential, compiled to run eagerly, whose steps append to `seen` the first
    column of each batch they get (as ints; "test"/"predict" first for those steps)."""

    def firsts(x):
        return [int(v) for v in x.numpy()[:, 0]]

    class Spy(tf.keras.Sequential):
        def train_step(self, data):
            seen.append(firsts(data[0]))
            return {"a": tf.constant(0.0)}

        def test_step(self, data):
            seen.append(["test"] + firsts(data[0]))
            return {"a": tf.constant(0.0)}

        def predict_step(self, data):
            seen.append(["predict"] + firsts(data))
            return data

    model = Spy([tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse", run_eagerly=True)
    return model


def _model(tf, units=1, metrics=None, **compile_kw):
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential([tf.keras.layers.Dense(units)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=metrics, **compile_kw)
    return model


def _printed(fn, *args, **kwargs):
    """[what fn returned, what it printed], the printed text with its timings made "T"."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = fn(*args, **kwargs)
    text = re.sub(r"\x08+", "", out.getvalue())
    text = re.sub(r"\d+(ms|us|s)/step", "T/step", text)
    text = re.sub(r"\x1b\[1m\d+s\x1b\[0m", "\x1b[1mT\x1b[0m", text)
    text = re.sub(r" - \d+s - ", " - T - ", text)
    text = re.sub(r" +(?=[\r\n])", "", text)
    return [result, text]


@case
def keras_train_fit_defaults_shuffle_seeded(tf):
    # fit(x, y, epochs=3) with every default: batches of 32, the examples shuffled, verbose
    # progress lines; the shuffle is seeded by the global seed, the same order each epoch
    model = _model(tf)
    history, text = _printed(model.fit, X, Y, epochs=3)
    return [history.history, history.params, text]


@case
def keras_train_fit_shuffle_orders(tf):
    # the order of the examples, seen by a step run eagerly, under several seeds and sizes,
    # for two fits in a row and under tf.random.set_seed alone
    seen = []

    out = []
    for seed, n, batch in ((0, 10, 4), (3, 33, 8), (42, 7, 32)):
        tf.keras.utils.set_random_seed(seed)
        tf.random.uniform([2])  # (an eager draw first changes nothing)
        model = spy(tf, seen)
        xs = np.arange(n, dtype="float32").reshape(n, 1)
        del seen[:]
        model.fit(xs, xs, batch_size=batch, epochs=2, verbose=0)
        model.fit(xs, xs, batch_size=batch, epochs=1, verbose=0)
        out.append(list(seen))
    tf.random.set_seed(5)
    model = spy(tf, seen)
    del seen[:]
    model.fit(np.arange(6.0).reshape(6, 1), np.zeros((6, 1)), batch_size=4, verbose=0)
    return out + [list(seen)]


@case
def keras_train_progress_lines(tf):
    # verbose=1 ("auto"), 2 and 0 in fit; evaluate and predict print their bar by default
    model = _model(tf, metrics=["mae"])
    out = [_printed(model.fit, X, Y, batch_size=4, epochs=2, shuffle=False)[1]]
    out.append(_printed(model.fit, X, Y, batch_size=4, epochs=2, shuffle=False, verbose=2)[1])
    out.append(_printed(model.fit, X, Y, batch_size=4, shuffle=False, verbose=1)[1])
    out.append(_printed(model.fit, X, Y, batch_size=4, shuffle=False, verbose=0)[1])
    out.append(_printed(model.evaluate, X, Y, batch_size=4))
    prediction, text = _printed(model.predict, X, batch_size=4)
    return out + [prediction, text, _printed(model.evaluate, X, Y, verbose=2)[1]]


@case
def keras_train_progress_lines_with_validation(tf):
    model = _model(tf)
    return [
        _printed(model.fit, X, Y, batch_size=4, epochs=2, validation_split=0.2)[1],
        _printed(
            model.fit, X, Y, batch_size=4, epochs=2, verbose=2, validation_data=(X[:3], Y[:3])
        )[1],
    ]


def _recorder(tf, calls):
    class Recorder(tf.keras.callbacks.Callback):
        pass

    def hook(name):
        def on(self, *args, **kwargs):
            logs = kwargs.get("logs", args[-1] if args else None)
            index = args[0] if len(args) == 2 or (len(args) == 1 and "logs" in kwargs) else None
            keys = None if logs is None else sorted(logs)
            calls.append([name, index, keys])

        return on

    for when in ("train", "test", "predict", "epoch", "train_batch", "test_batch"):
        for edge in ("begin", "end"):
            setattr(Recorder, f"on_{when}_{edge}", hook(f"{when}_{edge}"))
    for edge in ("begin", "end"):
        setattr(Recorder, f"on_predict_batch_{edge}", hook(f"predict_batch_{edge}"))
    return Recorder()


@case
def keras_train_callback_hook_order(tf):
    # which hook runs when, with the step or epoch number and the logs' keys
    model = _model(tf, metrics=["mae"])
    calls = []
    recorder = _recorder(tf, calls)
    history = model.fit(
        X,
        Y,
        batch_size=4,
        epochs=2,
        shuffle=False,
        verbose=0,
        callbacks=[recorder],
        validation_data=(X[:5], Y[:5]),
    )
    fit_calls = list(calls)
    del calls[:]
    model.evaluate(X, Y, batch_size=8, verbose=0, callbacks=[recorder])
    evaluate_calls = list(calls)
    del calls[:]
    model.predict(X, batch_size=8, verbose=0, callbacks=[recorder])
    return [
        fit_calls,
        evaluate_calls,
        list(calls),
        recorder.params,
        recorder.model is model,
        history.history,
    ]


@case
def keras_train_callback_logs_values(tf):
    # the logs a callback gets: Python floats, after each batch and each epoch
    seen = []
    callback = tf.keras.callbacks.LambdaCallback(
        on_train_batch_end=lambda batch, logs: seen.append(["batch", batch, logs]),
        on_epoch_end=lambda epoch, logs: seen.append(["epoch", epoch, logs]),
    )
    model = _model(tf)
    model.fit(X, Y, batch_size=4, epochs=2, shuffle=False, verbose=0, callbacks=[callback])
    return [seen, [type(v).__name__ for v in seen[0][2].values()]]


@case
def keras_train_callbacks_empty_and_history(tf):
    model = _model(tf)
    history = tf.keras.callbacks.History()
    first = model.fit(X, Y, epochs=2, verbose=0, callbacks=[])
    second = model.fit(X, Y, epochs=2, verbose=0, callbacks=[history])
    return [
        first.history,
        second is history,
        history.history,
        history.epoch,
        model.history is history,
    ]


@case
def keras_train_early_stopping(tf):
    # the loss of a diverging model stops improving at once; patience lets it go on
    def run(lr, **kw):
        tf.keras.utils.set_random_seed(0)
        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        model.compile(optimizer=tf.keras.optimizers.SGD(lr), loss="mse")
        stop = tf.keras.callbacks.EarlyStopping(**kw)
        history, text = _printed(
            model.fit, X, Y, epochs=8, batch_size=5, shuffle=False, verbose=0, callbacks=[stop]
        )
        return [history.history, history.epoch, stop.stopped_epoch, stop.best, text]

    return [
        run(1.5, monitor="loss"),
        run(1.5, monitor="loss", patience=2, verbose=1),
        run(0.1, monitor="loss", min_delta=0.01, verbose=1),
        run(1.5, monitor="loss", patience=1, restore_best_weights=True, verbose=1),
        run(0.1, monitor="val_loss"),
        run(0.1, monitor="loss", mode="max", patience=1),
    ]


@case
def keras_train_early_stopping_restores_weights(tf):
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.SGD(1.5), loss="mse")
    stop = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=2, restore_best_weights=True)
    model.fit(X, Y, epochs=8, batch_size=5, shuffle=False, verbose=0, callbacks=[stop])
    return [stop.best_epoch, model.get_weights()]


@case
def keras_train_stop_training_from_a_callback(tf):
    class StopAfterTwoBatches(tf.keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            if batch == 1:
                self.model.stop_training = True

    model = _model(tf)
    history = model.fit(
        X, Y, batch_size=2, epochs=3, shuffle=False, verbose=0, callbacks=[StopAfterTwoBatches()]
    )
    return [history.history, history.epoch, int(model.optimizer.iterations.numpy())]


@case
def keras_train_validation(tf):
    # validation_split holds out the last examples (before shuffling); validation_data as
    # (x, y) or (x, y, sample_weight); validation_freq; validation_batch_size
    def fit(**kw):
        model = _model(tf, metrics=["mae"])
        history = model.fit(X, Y, batch_size=4, epochs=3, verbose=0, **kw)
        return [history.history, history.params]

    return [
        fit(validation_split=0.3),
        fit(validation_split=0.3, shuffle=False),
        fit(validation_data=(X[:4], Y[:4])),
        fit(validation_data=(X[:4], Y[:4], np.array([1.0, 2.0, 0.0, 1.0]))),
        fit(validation_data=(X[:4], Y[:4]), validation_freq=2),
        fit(validation_data=(X[:4], Y[:4]), validation_freq=[1, 3], validation_batch_size=1),
        attempt(fit, validation_split=0.95),
    ]


@case
def keras_train_sample_and_class_weights(tf):
    weights = np.array([1.0, 0.5, 2.0, 0.0, 1.0, 1.0, 3.0, 0.5, 1.0, 2.0])
    out = []
    model = _model(tf, metrics=["mae"], weighted_metrics=["mse"])
    out.append(model.fit(X, Y, batch_size=4, epochs=2, verbose=0, sample_weight=weights).history)
    out.append(model.evaluate(X, Y, batch_size=4, verbose=0, sample_weight=weights))
    model = _model(tf, units=3, metrics=["mae"])
    targets = np.eye(3)[LABELS]
    history = model.fit(
        X, targets, batch_size=4, epochs=2, verbose=0, class_weight={0: 1.0, 1: 0.5, 2: 3.0}
    )
    out.append(history.history)
    model = _model(tf)
    out.append(attempt(model.fit, X, Y, verbose=0, sample_weight=weights, class_weight={0: 1.0}))
    model = _model(tf)
    history = model.fit(
        X, LABELS[:, None].astype("float32"), epochs=2, verbose=0, class_weight={1: 2.0}
    )
    return out + [history.history]


@case
def keras_train_initial_epoch_and_steps(tf):
    def fit(**kw):
        model = _model(tf)
        history = model.fit(X, Y, verbose=0, shuffle=False, **kw)
        return [history.history, history.epoch, history.params, int(model.optimizer.iterations)]

    model = _model(tf)
    return [
        fit(epochs=4, initial_epoch=2, batch_size=4),
        fit(epochs=3, steps_per_epoch=2, batch_size=4),
        fit(epochs=2, steps_per_epoch=3, batch_size=4),
        fit(epochs=2, steps_per_epoch=5, batch_size=4),
        fit(epochs=2, steps_per_epoch=2),
        model.evaluate(X, Y, verbose=0, steps=2, batch_size=3),
        model.evaluate(X, Y, verbose=0, steps=3),
        model.predict(X, verbose=0, steps=2, batch_size=3),
        model.predict(X, verbose=0, steps=4),
    ]


@case
def keras_train_loss_weights_and_weighted_metrics(tf):
    def fit(**compile_kw):
        model = _model(tf, **compile_kw)
        return model.fit(X, Y, batch_size=4, epochs=2, verbose=0, shuffle=False).history

    return [
        fit(loss_weights=0.5),
        fit(loss_weights=[2.0]),
        fit(weighted_metrics=["mae"]),
        fit(metrics=["mae"], weighted_metrics=["mae"]),
    ]


@case
def keras_train_argument_checks(tf):
    def fit(**kw):
        model = _model(tf)
        history = model.fit(X, Y, verbose=0, shuffle=False, **kw)
        return [history.history, history.params]

    model = _model(tf)
    return [
        attempt(fit, batch_size=-1),
        fit(batch_size=0),
        attempt(fit, batch_size=2.5),
        fit(epochs=0),
        fit(epochs=-1),
        attempt(fit, epochs=2.5),
        fit(batch_size=20),
        attempt(model.predict, X, verbose=0, batch_size=-1),
        attempt(model.evaluate, X, Y, verbose=0, batch_size=-1),
    ]


def _stepped(tf, returns, kind="train"):
    """A Sequential whose train_step (or test_step, predict_step) returns `returns(loss, y)`."""

    class Stepped(tf.keras.Sequential):
        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                y_pred = self(x, training=True)
                loss = tf.reduce_mean(tf.square(y - y_pred))
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            return returns(loss, y_pred) if kind == "train" else {"loss": loss}

        def test_step(self, data):
            x, y = data
            loss = tf.reduce_mean(tf.square(y - self(x)))
            return returns(loss, None) if kind == "test" else {"loss": loss}

        def predict_step(self, data):
            y_pred = self(data[0] if isinstance(data, tuple) else data)
            return returns(y_pred, None) if kind == "predict" else y_pred

    tf.keras.utils.set_random_seed(0)
    model = Stepped([tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    return model


@case
def keras_train_step_return_shapes(tf):
    # what fit logs for each kind of thing a train_step may return
    def fit(returns, **kw):
        model = _stepped(tf, returns)
        return model.fit(X, Y, batch_size=5, epochs=2, verbose=0, shuffle=False, **kw).history

    return [
        fit(lambda loss, y: {"loss": loss, "double": 2 * loss}),
        fit(lambda loss, y: {"loss": loss, "nested": {"inner": loss + 1}}),
        fit(lambda loss, y: {"loss": loss, "count": 3}),
        fit(lambda loss, y: {"loss": loss, "vector": tf.stack([loss, loss])}),
        attempt(fit, lambda loss, y: {}),
        attempt(fit, lambda loss, y: None),
        attempt(fit, lambda loss, y: {"loss": None}),
        attempt(fit, lambda loss, y: (loss, loss)),
        attempt(fit, lambda loss, y: [loss]),
    ]


@case
def keras_train_test_and_predict_step_return_shapes(tf):
    def evaluate(returns):
        model = _stepped(tf, returns, kind="test")
        return model.evaluate(X, Y, batch_size=4, verbose=0, return_dict=True)

    def predict(returns):
        model = _stepped(tf, returns, kind="predict")
        out = model.predict(X, batch_size=4, verbose=0)
        return [type(out).__name__, out]

    return [
        evaluate(lambda loss, _: {"loss": loss, "half": loss / 2}),
        attempt(evaluate, lambda loss, _: {}),
        attempt(evaluate, lambda loss, _: None),
        predict(lambda y, _: (y, 2 * y)),
        predict(lambda y, _: {"a": y, "b": y + 1}),
        predict(lambda y, _: [y]),
    ]


@case
def keras_train_optimizer_clipping_only_above_zero_and_weight_decay(tf):
    # Keras clips only with a value > 0 (0.0 and -1.0 leave the gradients alone); a clipvalue
    # that is an array of strings fails on its truth value; weight_decay shrinks each
    # variable by w * weight_decay * lr before the step
    def step(opt):
        w = tf.Variable([1.0, -2.0])
        result = attempt(opt.apply_gradients, [(tf.constant([0.5, 3.0]), w)])
        return result if isinstance(result, Exception) else w

    out = []
    for kw in (
        {"clipvalue": 0.0},
        {"clipnorm": 0.0},
        {"global_clipnorm": 0.0},
        {"clipvalue": -1.0},
        {"clipvalue": 1.0},
        {"weight_decay": 0.1},
        {"clipvalue": np.array(["a", "b"])},
    ):
        out.append(
            [step(tf.keras.optimizers.Adam(0.1, **kw)), step(tf.keras.optimizers.SGD(0.1, **kw))]
        )
    return out


@case
def keras_train_optimizer_apply_zips_gradients_and_variables(tf):
    # apply(grads, variables) pairs them as zip does: extra variables (or gradients) are left
    w1, w2 = tf.Variable(1.0), tf.Variable(2.0)
    tf.keras.optimizers.SGD(0.1).apply([tf.constant(1.0)], [w1, w2])
    first = [w1.numpy(), w2.numpy()]
    tf.keras.optimizers.SGD(0.1).apply([tf.constant(1.0), tf.constant(1.0)], [w1])
    return [first, w1, w2]


@case
def keras_train_metrics_sum_and_mean_weighted_over_extra_axes(tf):
    # per-example weights over values with more axes: Sum sums the extra axes, Mean averages
    out = []
    for cls in (tf.keras.metrics.Sum, tf.keras.metrics.Mean):
        for values in ([[1.0, 2.0], [3.0, 4.0]], np.ones((2, 3, 2))):
            metric = cls()
            metric.update_state(values, sample_weight=[1.0, 2.0])
            out.append(metric.result())
    return out


@case(message=True)
def keras_train_compiled_loss_returning_none(tf):
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss=lambda y_true, y_pred: None)
    return attempt(model.fit, X, Y, verbose=0)


@case
def keras_train_steps_per_execution(tf):
    # several steps between callbacks: the hooks see the first and last step of each group
    # (the last one past the data when it ends sooner), the logs of the last step
    calls = []
    model = _model(tf, steps_per_execution=2)
    history = model.fit(
        X,
        Y,
        batch_size=2,
        epochs=2,
        verbose=0,
        shuffle=False,
        callbacks=[_recorder(tf, calls)],
    )
    fit_calls = list(calls)
    del calls[:]
    model.evaluate(X, Y, batch_size=4, verbose=0, callbacks=[_recorder(tf, calls)])
    evaluated = list(calls)
    prediction = model.predict(X, batch_size=3, verbose=0)
    printed = _printed(model.fit, X, Y, batch_size=4, epochs=1, shuffle=False)[1]
    return [history.history, fit_calls, evaluated, prediction, printed]


@case(message=True)
def keras_train_model_checkpoint(tf):
    # Keras writes the weights of each epoch (here the best by loss) to a file
    import os
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "best.weights.h5")
        model = _model(tf)

        def fit():
            checkpoint = tf.keras.callbacks.ModelCheckpoint(
                path, monitor="loss", save_best_only=True, save_weights_only=True
            )
            model.fit(X, Y, epochs=2, verbose=0, shuffle=False, callbacks=[checkpoint])
            return os.path.exists(path)

        return attempt(fit)


@case
def keras_train_accuracy_metrics(tf):
    # the accuracy metrics, and compile(metrics=["accuracy"]) choosing one from the data
    labels = LABELS[:6]
    scores = np.array([[2.0, 0.1, 0.3], [0.1, 0.2, 0.9], [0.3, 2.0, 0.1]] * 2, "float32")
    out = []
    for metric, y_true, y_pred in (
        (tf.keras.metrics.SparseCategoricalAccuracy(), labels, scores),
        (tf.keras.metrics.SparseCategoricalAccuracy(), labels[:, None], scores),
        (tf.keras.metrics.CategoricalAccuracy(), np.eye(3)[labels], scores),
        (tf.keras.metrics.BinaryAccuracy(), [[1.0], [0.0], [1.0]], [[0.7], [0.6], [0.2]]),
        (tf.keras.metrics.BinaryAccuracy(threshold=0.65), [1, 0, 1], [0.7, 0.6, 0.2]),
        (tf.keras.metrics.Accuracy(), [1, 2, 3, 4], [1, 2, 0, 4]),
    ):
        metric.update_state(y_true, y_pred)
        out.append([metric.name, metric.result()])

    def fit(units, y, loss):
        tf.keras.utils.set_random_seed(0)
        model = tf.keras.Sequential([tf.keras.layers.Dense(units)])
        model.compile(optimizer="sgd", loss=loss, metrics=["accuracy", "acc"])
        history = model.fit(X, y, epochs=2, batch_size=4, verbose=0, shuffle=False)
        return [history.history, model.evaluate(X, y, verbose=0, return_dict=True)]

    binary = (LABELS == 1).astype("float32")[:, None]
    out.append(fit(1, binary, tf.keras.losses.BinaryCrossentropy(from_logits=True)))
    sparse = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    out.append(fit(3, LABELS, sparse))
    categorical = tf.keras.losses.CategoricalCrossentropy(from_logits=True)
    out.append(fit(3, np.eye(3)[LABELS], categorical))
    return out


@case
def keras_train_loop_from_scratch(tf):
    # Keras' guide "Writing a training loop from scratch", on small data: a shuffled
    # dataset (no op seed: the global seed's), a tf.function step with optimizer.apply and a
    # SparseCategoricalAccuracy updated inside it, reset after each epoch
    tf.keras.utils.set_random_seed(1)
    x_train = (np.arange(64 * 4, dtype="float32").reshape(64, 4) % 13) / 6 - 1
    y_train = (x_train[:, 0] + x_train[:, 1] > 0).astype("int64")
    model = tf.keras.Sequential(
        [tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(2)]
    )
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    train_acc_metric = tf.keras.metrics.SparseCategoricalAccuracy()
    train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train))
    train_dataset = train_dataset.shuffle(buffer_size=1024).batch(16)

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            logits = model(x, training=True)
            loss_value = loss_fn(y, logits)
        grads = tape.gradient(loss_value, model.trainable_weights)
        optimizer.apply(grads, model.trainable_weights)
        train_acc_metric.update_state(y, logits)
        return loss_value

    out = []
    for _ in range(3):
        for x_batch, y_batch in train_dataset:
            loss_value = train_step(x_batch, y_batch)
        out.append([loss_value, train_acc_metric.result()])
        train_acc_metric.reset_state()
    return out


@case
def keras_train_fit_shuffle_within_batches(tf):
    # shuffle="batch": the batches in order, the examples of each shuffled, the same way in
    # every epoch under a global seed
    seen = []

    out = []
    for seed, n in ((3, 10), (0, 13)):
        tf.keras.utils.set_random_seed(seed)
        model = spy(tf, seen)
        xs = np.arange(n, dtype="float32").reshape(n, 1)
        del seen[:]
        model.fit(xs, xs, batch_size=4, epochs=2, verbose=0, shuffle="batch")
        out.append(list(seen))
    return out


@case
def keras_train_guide_own_metrics_and_compile(tf):
    # Keras' guide "Customizing what happens in fit()": the model's own trackers listed by
    # a `metrics` property (reset each epoch), unpack_x_y_sample_weight, a test_step; and
    # a GAN-style compile override with two optimizers, fit on a dataset
    keras = tf.keras
    keras.utils.set_random_seed(2)

    class CustomModel(keras.Model):
        def __init__(self):
            super().__init__()
            self.loss_tracker = keras.metrics.Mean(name="loss")
            self.mae_metric = keras.metrics.MeanAbsoluteError(name="mae")
            self.d = keras.layers.Dense(1)

        def call(self, x):
            return self.d(x)

        def train_step(self, data):
            x, y, _ = keras.utils.unpack_x_y_sample_weight(data)
            with tf.GradientTape() as tape:
                y_pred = self(x, training=True)
                loss = tf.reduce_mean(tf.square(y - y_pred))
            gradients = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply(gradients, self.trainable_variables)
            self.loss_tracker.update_state(loss)
            self.mae_metric.update_state(y, y_pred)
            return {"loss": self.loss_tracker.result(), "mae": self.mae_metric.result()}

        def test_step(self, data):
            x, y = data
            y_pred = self(x, training=False)
            self.loss_tracker.update_state(tf.reduce_mean(tf.square(y - y_pred)))
            self.mae_metric.update_state(y, y_pred)
            return {m.name: m.result() for m in self.metrics}

        @property
        def metrics(self):
            return [self.loss_tracker, self.mae_metric]

    class Two(keras.Model):
        def __init__(self):
            super().__init__()
            self.a, self.b = keras.layers.Dense(1), keras.layers.Dense(1)

        def compile(self, a_opt, b_opt, loss_fn):
            super().compile()
            self.a_opt, self.b_opt, self.loss_fn = a_opt, b_opt, loss_fn

        def call(self, x):
            return self.b(self.a(x))

        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                la = self.loss_fn(y, self.a(x))
            a_vars = self.a.trainable_weights
            self.a_opt.apply_gradients(zip(tape.gradient(la, a_vars), a_vars))
            with tf.GradientTape() as tape:
                lb = self.loss_fn(y, self(x))
            b_vars = self.b.trainable_weights
            self.b_opt.apply_gradients(zip(tape.gradient(lb, b_vars), b_vars))
            return {"la": la, "lb": lb}

    model = CustomModel()
    model.compile(optimizer="adam")
    history = model.fit(X, Y, epochs=3, verbose=0, sample_weight=np.ones(10))
    two = Two()
    two.compile(
        keras.optimizers.SGD(0.05), keras.optimizers.SGD(0.05), keras.losses.MeanSquaredError()
    )
    ds = tf.data.Dataset.from_tensor_slices((X.astype("float32"), Y.astype("float32")))
    return [
        history.history,
        model.evaluate(X, Y, verbose=0),
        two.fit(ds.batch(4), epochs=2, verbose=0, shuffle=False).history,
        keras.utils.pack_x_y_sample_weight((X[:1],)),
        keras.utils.pack_x_y_sample_weight(1.0, 2.0),
    ]


@case
def keras_train_learning_rate_callbacks_and_terminate_on_nan(tf):
    def fit(callbacks, lr=0.1, epochs=5):
        tf.keras.utils.set_random_seed(0)
        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        model.compile(optimizer=tf.keras.optimizers.SGD(lr), loss="mse")
        history, text = _printed(
            model.fit,
            X,
            Y,
            epochs=epochs,
            batch_size=5,
            shuffle=False,
            verbose=0,
            callbacks=callbacks,
        )
        return [history.history, history.epoch, text, float(model.optimizer.learning_rate.numpy())]

    halve = tf.keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr / 2, verbose=1)
    by_epoch = tf.keras.callbacks.LearningRateScheduler(lambda epoch: 0.1 / (epoch + 1))
    plateau = tf.keras.callbacks.ReduceLROnPlateau(
        monitor="loss", factor=0.5, patience=1, min_delta=0.5, verbose=1, cooldown=1
    )
    floor = tf.keras.callbacks.ReduceLROnPlateau(
        monitor="loss", factor=0.1, patience=0, min_lr=0.05
    )
    return [
        fit([halve]),
        fit([by_epoch]),
        fit([plateau]),
        fit([floor]),
        fit([tf.keras.callbacks.TerminateOnNaN()], lr=1e20, epochs=3),
        attempt(fit, [tf.keras.callbacks.TerminateOnNaN(raise_error=True)], lr=1e20, epochs=3),
        attempt(fit, [tf.keras.callbacks.LearningRateScheduler(lambda epoch: 1)]),
        attempt(tf.keras.callbacks.ReduceLROnPlateau, factor=1.0),
    ]


@case(message=True)
def keras_train_csv_logger_and_tensorboard(tf):
    # CSVLogger writes a row per epoch (val_ columns "NA" without validation; append keeps
    # one header); TensorBoard writes event files (minitape refuses it)
    import os
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "log.csv")
        # (the loss alone: a float32 mae's text can differ in its last digit)
        model = _model(tf)
        fit = model.fit
        fit(
            X, Y, epochs=2, verbose=0, shuffle=False, callbacks=[tf.keras.callbacks.CSVLogger(path)]
        )
        first = open(path).read()
        logger = tf.keras.callbacks.CSVLogger(path, separator=";", append=True)
        fit(X, Y, epochs=2, verbose=0, shuffle=False, validation_split=0.2, callbacks=[logger])
        second = open(path).read()
        board = attempt(tf.keras.callbacks.TensorBoard, log_dir=os.path.join(folder, "logs"))
    return [first, second, isinstance(board, Exception) and board]
