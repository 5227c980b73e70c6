"""Golden cases for Keras 3's training API as TF 2.21 runs it: compile / fit / evaluate /
predict, a `train_step` overridden with a tape, the metrics, and the trap of a step that returns
{"loss": loss} without updating the loss tracker (names keras_fit_... and keras_metrics_...).

Every model is tiny and seeded (`tf.keras.utils.set_random_seed(0)`, Dense layers), the data
made with numpy from fixed numbers, and fit is run with `shuffle=False, verbose=0`. A step
counts its Python runs in a list (its traces, unless run eagerly) instead of printing."""

import numpy as np

from .cases import attempt, case

X = (np.arange(30, dtype="float64").reshape(10, 3) % 7) / 7 - 0.4
Y = X @ np.array([[0.5], [-1.0], [0.25]]) + 0.1


def _model_class(tf, step="default", runs=None):
    """A 3 -> 4 (relu) -> 1 Model subclass; `step`: "default" (Keras' own train_step), "guide"
    (the guide's tape step: compute_loss, then every metric updated), "trap" (returns
    {"loss": loss}, tracker untouched) or "renamed" (returns {"mse": loss})."""

    class Net(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.hidden = tf.keras.layers.Dense(4, activation="relu")
            self.out = tf.keras.layers.Dense(1)

        def call(self, x, training=False):
            return self.out(self.hidden(x))

    if step == "default":
        return Net

    class Stepped(Net):
        def train_step(self, data):
            if runs is not None:
                runs.append(1)
            x, y = data
            with tf.GradientTape() as tape:
                y_pred = self(x, training=True)
                if step == "guide":
                    loss = self.compute_loss(y=y, y_pred=y_pred)
                else:
                    loss = tf.reduce_mean(tf.square(y - y_pred))
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            if step == "trap":
                return {"loss": loss}
            if step == "renamed":
                return {"mse": loss}
            for metric in self.metrics:
                if metric.name == "loss":
                    metric.update_state(loss)
                else:
                    metric.update_state(y, y_pred)
            return {m.name: m.result() for m in self.metrics}

    return Stepped


def _fit(
    tf, step="default", n=10, batch_size=4, epochs=3, optimizer=None, loss="mse", **compile_kw
):
    """[history.history, its keys in order, history.epoch, history.params, optimizer steps,
    Python runs of the step] after compile + fit of a fresh seeded model."""
    runs = []
    tf.keras.utils.set_random_seed(0)
    model = _model_class(tf, step, runs)()
    model.compile(optimizer=optimizer or tf.keras.optimizers.SGD(0.1), loss=loss, **compile_kw)
    history = model.fit(
        X[:n], Y[:n], epochs=epochs, batch_size=batch_size, shuffle=False, verbose=0
    )
    return [
        history.history,
        list(history.history),
        history.epoch,
        history.params,
        int(model.optimizer.iterations.numpy()),
        len(runs),
        model.history is history,
    ]


@case
def keras_fit_default_train_step(tf):
    # Keras' own train_step: 10 examples in batches of 4 (3 steps an epoch, the last of 2);
    # the logged loss is the loss tracker's mean over the epoch's examples
    return _fit(tf)


@case
def keras_fit_default_batch_size_32(tf):
    # no batch_size: 32, so the 10 examples are one batch, one step an epoch
    return _fit(tf, batch_size=None)


@case
def keras_fit_default_train_step_adam_loss_object(tf):
    return [
        _fit(tf, optimizer=tf.keras.optimizers.Adam(0.01)),
        _fit(tf, loss=tf.keras.losses.MeanAbsoluteError(), optimizer="sgd", n=8),
        _fit(tf, loss="mean_squared_error", loss_weights=0.5),
    ]


@case
def keras_fit_guide_train_step(tf):
    # the guide's pattern: a tape, compute_loss, every metric updated, their results returned
    # (8 examples in batches of 4; traced twice: the first trace builds the layers)
    return _fit(tf, step="guide", n=8)


@case
def keras_fit_guide_train_step_remainder(tf):
    # the same with 10 examples: the last batch holds 2, and each batch's loss counts once
    return _fit(tf, step="guide")[:5]


@case
def keras_fit_trap_returns_loss_without_tracker(tf):
    # a step that returns {"loss": loss} and never updates the loss tracker: fit replaces the
    # step's dict by the metrics' results (same keys), so every epoch logs the tracker's 0.0
    return [_fit(tf, step="trap", n=8), _fit(tf, step="trap", n=8, run_eagerly=True)]


@case
def keras_fit_renamed_key_is_logged_as_returned(tf):
    # keys that differ from the metrics' ({"mse"} vs {"loss"}): the last step's value is logged
    return _fit(tf, step="renamed", n=8)


@case
def keras_fit_guide_with_compiled_metric(tf):
    # metrics=["mae"]: model.metrics is [loss tracker, compile_metrics]; the guide's dict then
    # nests {"mae": ...} under "compile_metrics", and the logs are spread out, sorted by name
    runs = []
    tf.keras.utils.set_random_seed(0)
    model = _model_class(tf, "guide", runs)()
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    names = model.metrics_names
    history = model.fit(X[:8], Y[:8], epochs=2, batch_size=4, shuffle=False, verbose=0)
    return [names, history.history, list(history.history), len(runs)]


@case
def keras_fit_default_with_compiled_metrics(tf):
    tf.keras.utils.set_random_seed(0)
    model = _model_class(tf)()
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae", "mse"])
    history = model.fit(X, Y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    return [model.metrics_names, history.history, list(history.history)]


@case
def keras_fit_trace_counts(tf):
    # how often the step's Python runs: twice on the first fit when the first trace creates
    # variables (the layers are built there, or Adam's slots), once if nothing is created, not
    # again on a second fit, once more after compile (a new step function), on every batch
    # with run_eagerly=True
    def runs(prebuild=False, optimizer=None, refit=False, **compile_kw):
        found = []
        tf.keras.utils.set_random_seed(0)
        model = _model_class(tf, "guide", found)()
        if prebuild:
            model(X[:1])
        model.compile(optimizer=optimizer or tf.keras.optimizers.SGD(0.1), loss="mse", **compile_kw)
        model.fit(X[:8], Y[:8], epochs=2, batch_size=4, shuffle=False, verbose=0)
        counts = [len(found)]
        if refit:
            model.fit(X[:8], Y[:8], epochs=1, batch_size=4, shuffle=False, verbose=0)
            counts.append(len(found))
            model.compile(optimizer="sgd", loss="mse")
            model.fit(X[:8], Y[:8], epochs=1, batch_size=4, shuffle=False, verbose=0)
            counts.append(len(found))
        return counts

    return [
        runs(refit=True),
        runs(prebuild=True),
        runs(prebuild=True, optimizer=tf.keras.optimizers.Adam(0.01)),
        runs(prebuild=True, optimizer=tf.keras.optimizers.SGD(0.1, momentum=0.9)),
        runs(run_eagerly=True),
    ]


@case
def keras_fit_trace_count_remainder_batch(tf):
    # 10 examples in batches of 4: TF traces the step for a batch of any size (tf.data gives
    # it shape (None, 3)); the Python runs and the steps taken
    return [_fit(tf, step="guide")[4:6], _fit(tf, step="guide", epochs=1)[4:6]]


@case
def keras_fit_evaluate_predict(tf):
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    history = model.fit(X, Y, epochs=2, shuffle=False, verbose=0)
    out = [history.history]
    out.append(model.evaluate(X, Y, verbose=0))
    out.append(model.evaluate(X, Y, verbose=0, batch_size=4, return_dict=True))
    prediction = model.predict(X, verbose=0, batch_size=4)
    out += [type(prediction).__name__, prediction.dtype.name, prediction]
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    out.append(model.evaluate(X, Y, verbose=0))
    return out


@case
def keras_fit_tensor_data_and_steps(tf):
    # tensors as data; 10 examples in batches of 3: 4 steps (3, 3, 3, 1)
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    history = model.fit(
        tf.constant(X), tf.constant(Y), batch_size=3, epochs=1, shuffle=False, verbose=0
    )
    return [history.history, history.params, int(model.optimizer.iterations.numpy())]


@case
def keras_fit_compute_loss(tf):
    # compute_loss is the compiled loss (times loss_weights), as a float32 number; it does not
    # touch the loss tracker
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mae", loss_weights=2.0)
    y_pred = model(X)
    loss = model.compute_loss(y=Y, y_pred=y_pred)
    return [loss, model.metrics[0].result(), [m.name for m in model.metrics]]


@case(message=True)
def keras_fit_errors(tf):
    def fresh():
        tf.keras.utils.set_random_seed(0)
        return tf.keras.Sequential([tf.keras.layers.Dense(1)])

    def fit(model, *args, **kwargs):
        kwargs = {"shuffle": False, "verbose": 0, **kwargs}
        return model.fit(*args, **kwargs).history

    def compiled(**kwargs):
        model = fresh()
        model.compile(**{"optimizer": "sgd", "loss": "mse", **kwargs})
        return model

    return [
        attempt(fit, fresh(), X, Y),  # fit before compile
        attempt(lambda: fresh().evaluate(X, Y, verbose=0)),
        attempt(fit, compiled(loss="nope"), X, Y),  # an unknown loss fails in fit
        attempt(fresh().compile, optimizer="nope", loss="mse"),
        attempt(fresh().compile, optimizer="sgd", loss="mse", nope=1),
        attempt(fit, compiled(), X, Y, nope=1),
        attempt(fit, compiled(optimizer="sgd", loss=None), X, Y),  # no loss
        attempt(compiled().evaluate, X, Y, verbose=0, nope=1),
        attempt(fit, compiled(), X, Y[:7]),
    ]


@case
def keras_fit_shuffled_by_default(tf):
    # fit shuffles by default (minitape refuses: it does not draw TF's shuffle)
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    return model.fit(X, Y, batch_size=4, epochs=2, verbose=0).history


@case
def keras_metrics_mean(tf):
    # Mean: total / count over every value seen; a scalar counts once, a sample weight counts
    # as much as itself; reset_state starts again at 0 (0.0 before any update)
    m = tf.keras.metrics.Mean()
    out = [m.name, m.result()]
    m.update_state([1.0, 3.0, 5.0, 7.0])
    out.append(m.result())
    m.update_state(2.0)
    out.append(m.result())
    m.update_state(10.0, sample_weight=5)
    out += [m.result(), m.total, m.count]
    m.update_state([[1.0, 2.0], [3.0, 5.0]], sample_weight=[1.0, 0.0])
    out.append(m.result())
    m.reset_state()
    out.append(m.result())
    m.update_state(np.array([1, 2], dtype="int32"))
    out.append(m.result())
    named = tf.keras.metrics.Mean(name="loss")
    out += [named.name, [v.name for v in named.variables], [v.path for v in named.variables]]
    out.append([v.trainable for v in named.variables])
    return out


@case
def keras_metrics_sum_and_error_metrics(tf):
    s = tf.keras.metrics.Sum()
    s.update_state([1.0, 3.0, 5.0, 7.0], sample_weight=[1, 1, 0, 0])
    mae = tf.keras.metrics.MeanAbsoluteError()
    mae.update_state([[1.0], [2.0]], [[1.5], [1.0]])
    mae.update_state([[0.0]], [[3.0]])
    mse = tf.keras.metrics.MeanSquaredError()
    mse.update_state(np.array([[1.0, 2.0]]), np.array([[0.0, 0.0]]))
    return [s.result(), s.name, mae.result(), mae.name, mse.result(), mse.name]


@case(message=True)
def keras_optimizer_apply(tf):
    # Keras 3's guide writes the update as `self.optimizer.apply(gradients, trainable_vars)`:
    # two lists; without the variables, those the optimizer was built with
    class Applying(_model_class(tf, "default")):
        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                y_pred = self(x, training=True)
                loss = self.compute_loss(y=y, y_pred=y_pred)
            trainable_vars = self.trainable_variables
            gradients = tape.gradient(loss, trainable_vars)
            self.optimizer.apply(gradients, trainable_vars)
            for metric in self.metrics:
                if metric.name == "loss":
                    metric.update_state(loss)
                else:
                    metric.update_state(y, y_pred)
            return {m.name: m.result() for m in self.metrics}

    tf.keras.utils.set_random_seed(0)
    model = Applying()
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    history = model.fit(X[:8], Y[:8], epochs=2, batch_size=4, shuffle=False, verbose=0)
    w = tf.Variable([1.0, 2.0])
    opt = tf.keras.optimizers.SGD(0.5)
    unbuilt = attempt(opt.apply, [tf.constant([1.0, 1.0])])
    first = opt.apply([tf.constant([1.0, 1.0])], [w])
    opt.apply([tf.constant([2.0, 0.0])])
    return [history.history, unbuilt, first, w, opt.apply([])]


@case
def keras_optimizer_rmsprop(tf):
    # compile's default optimizer, three steps on sum(w**2) / 2 (gradient w); then with
    # momentum, and centered
    def steps(w, opt, n=3):
        for _ in range(n):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(w**2) / 2.0
            opt.apply_gradients([(tape.gradient(loss, w), w)])
        return tf.identity(w)

    out = []
    for kwargs in ({"learning_rate": 0.1}, {"momentum": 0.9}, {"centered": True, "rho": 0.5}):
        out.append(steps(tf.Variable([10.0, -2.0, 0.5]), tf.keras.optimizers.RMSprop(**kwargs)))
    # Keras' docstring example: 10.0 becomes 9.683772 after one step at learning rate 0.1
    out.append(steps(tf.Variable(10.0), tf.keras.optimizers.RMSprop(learning_rate=0.1), n=1))
    out.append(type(tf.keras.optimizers.get("rmsprop")).__name__)
    return out


@case
def keras_fit_default_optimizer_rmsprop(tf):
    # compile(loss=...) alone: the optimizer is RMSprop with its defaults
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential(
        [tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)]
    )
    model.compile(loss="mse")
    history = model.fit(X, Y, batch_size=4, epochs=3, shuffle=False, verbose=0)
    return [type(model.optimizer).__name__, history.history]


@case
def keras_fit_step_must_return_a_dict(tf):
    # a train_step that returns its loss tensor, not a dict: fit fails after the first batch
    # (Keras turns every batch's logs into Python floats, with logs.items()); data without
    # targets for Keras' own step: the loss of y=None fails
    class ReturnsTensor(tf.keras.Sequential):
        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(y - self(x, training=True)))
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            return loss

    tf.keras.utils.set_random_seed(0)
    model = ReturnsTensor([tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    bare = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    bare.compile(optimizer="sgd", loss="mse")
    return [
        attempt(model.fit, X, Y, shuffle=False, verbose=0),
        attempt(bare.fit, X, shuffle=False, verbose=0),
    ]


@case
def keras_fit_step_sees_a_batch_of_any_size(tf):
    # fit and evaluate trace their steps for the batches tf.data gives: of a known size when
    # the data divide into whole batches, of any size (None) when the last batch is partial
    seen = []

    class Net(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(1)

        def call(self, x):
            seen.append(str(x.shape))
            return self.dense(x)

    tf.keras.utils.set_random_seed(0)
    model = Net()
    model.compile(optimizer="sgd", loss="mse")
    out = []
    for run in (
        lambda: model.fit(X[:8], Y[:8], epochs=2, batch_size=4, shuffle=False, verbose=0),
        lambda: model.fit(X, Y, epochs=2, batch_size=4, shuffle=False, verbose=0),
        lambda: model.evaluate(X, Y, verbose=0),
    ):
        seen.clear()
        run()
        out.append(sorted(set(seen)))
    return out
