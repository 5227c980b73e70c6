"""Keras' compile / fit / train_step and the metrics, against numbers worked by hand.

(What TF 2.21 itself gives for the same code is in tests/tf_golden/cases_keras_fit.py.)"""

import numpy as np
import pytest

import minitape as tf

X = (np.arange(30, dtype="float64").reshape(10, 3) % 7) / 7 - 0.4
Y = X @ np.array([[0.5], [-1.0], [0.25]]) + 0.1


# -- Mean ----------------------------------------------------------------------------------
def test_mean_is_total_over_count():
    m = tf.keras.metrics.Mean()
    assert float(m.result()) == 0.0  # nothing seen yet: 0, not a division by zero
    m.update_state([1.0, 3.0, 5.0, 7.0])  # total 16, count 4
    assert float(m.result()) == 4.0
    m.update_state(2.0)  # a scalar counts once: 18 / 5
    assert float(m.result()) == pytest.approx(3.6)
    m.update_state(10.0, sample_weight=5)  # counts five times: 68 / 10
    assert float(m.result()) == pytest.approx(6.8)
    assert (float(m.total.numpy()), float(m.count.numpy())) == (68.0, 10.0)
    m.reset_state()
    assert float(m.result()) == 0.0
    m.update_state([[1.0, 3.0], [5.0, 7.0]])  # one value per example: the row means 2 and 6
    assert float(m.result()) == 4.0 and float(m.count.numpy()) == 2.0


def test_metric_state_is_not_trainable_and_named_under_the_metric():
    m = tf.keras.metrics.Mean(name="loss")
    assert [v.path for v in m.variables] == ["loss/total", "loss/count"]
    assert not any(v.trainable for v in m.variables)
    assert repr(m) == "<Mean name=loss>"


def test_mean_absolute_error_metric_averages_over_examples():
    mae = tf.keras.metrics.MeanAbsoluteError()
    mae.update_state([[1.0], [2.0]], [[1.5], [1.0]])  # errors 0.5 and 1
    mae.update_state([[0.0]], [[3.0]])  # error 3
    assert float(mae.result()) == pytest.approx(1.5)


# -- fit -----------------------------------------------------------------------------------
class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(4, activation="relu")
        self.out = tf.keras.layers.Dense(1)

    def call(self, x, training=False):
        return self.out(self.hidden(x))


def _compiled(cls=Net, learning_rate=0.1, **kwargs):
    tf.keras.utils.set_random_seed(0)
    model = cls()
    model.compile(optimizer=tf.keras.optimizers.SGD(learning_rate), loss="mse", **kwargs)
    return model


class Recording(Net):
    """The guide's step, noting the size of every batch it is run on (as its Python sees it:
    traced for data whose last batch is partial, None: that trace serves every batch size,
    as for tf.data's batches)."""

    sizes = None

    def train_step(self, data):
        x, y = data
        self.sizes.append(x.shape[0])
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(y=y, y_pred=y_pred)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


def test_fit_walks_the_batches_in_order_with_a_smaller_last_one():
    model = _compiled(Recording, run_eagerly=True)
    model.sizes = []
    history = model.fit(X, Y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    assert model.sizes == [4, 4, 2, 4, 4, 2]  # 3 steps an epoch
    assert int(model.optimizer.iterations.numpy()) == 6
    assert history.epoch == [0, 1]
    assert history.params == {"verbose": 0, "epochs": 2, "steps": 3}
    assert all(type(v) is float for v in history.history["loss"])
    assert model.history is history


def test_the_default_step_averages_over_examples_the_guide_over_batches():
    # with a learning rate of 0 nothing moves, so the epoch's loss can be worked out from the
    # model's predictions: Keras' own step weighs each batch's loss by its size (the mean over
    # the 10 examples), the guide's `update_state(loss)` counts each batch once
    default = _compiled(learning_rate=0.0)
    errors = (default(X).numpy() - Y.astype("float32")) ** 2
    logged = default.fit(X, Y, batch_size=4, shuffle=False, verbose=0).history["loss"][0]
    assert logged == pytest.approx(errors.mean(), rel=1e-6)

    guide = _compiled(Recording, learning_rate=0.0)
    guide.sizes = []
    logged = guide.fit(X, Y, batch_size=4, shuffle=False, verbose=0).history["loss"][0]
    by_batch = [errors[:4].mean(), errors[4:8].mean(), errors[8:].mean()]
    assert logged == pytest.approx(np.mean(by_batch), rel=1e-6)
    assert logged != pytest.approx(errors.mean(), rel=1e-3)


class ReturnsLossOnly(Net):
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(y - self(x, training=True)))
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss}


def test_a_step_that_leaves_the_loss_tracker_alone_logs_zero():
    model = _compiled(ReturnsLossOnly)
    history = model.fit(X, Y, epochs=3, batch_size=4, shuffle=False, verbose=0)
    assert history.history == {"loss": [0.0, 0.0, 0.0]}
    assert int(model.optimizer.iterations.numpy()) == 9  # it did train


def test_the_step_is_traced_unless_run_eagerly(capsys):
    class Printing(Recording):
        def train_step(self, data):
            print("step")
            return super().train_step(data)

    for run_eagerly, prints in ((False, 2), (True, 4)):
        model = _compiled(Printing, run_eagerly=run_eagerly)
        model.sizes = []
        model.fit(X[:8], Y[:8], epochs=2, batch_size=4, shuffle=False, verbose=0)
        # traced: once to build the layers, once more without creating variables; no more
        assert capsys.readouterr().out.count("step") == prints
        assert model.sizes == ([4, 4] if not run_eagerly else [4, 4, 4, 4])
    model = _compiled(Recording)
    model.sizes = []
    model.fit(X, Y, epochs=2, batch_size=4, shuffle=False, verbose=0)  # (10 examples: 4, 4, 2)
    # (TF's Python runs twice; minitape's graphs are of concrete shapes, so the batch of 2
    # runs it once more under the same trace: keras_fit_trace_count_remainder_batch)
    assert model.sizes == [None, None, None]


def test_metrics_are_the_loss_tracker_then_compile_metrics_then_the_models_own():
    class WithOwn(Net):
        def __init__(self):
            super().__init__()
            self.seen = tf.keras.metrics.Sum(name="seen")

    model = _compiled(WithOwn, metrics=["mae"])
    assert model.metrics_names == ["loss", "compile_metrics", "seen"]
    model(X)
    assert all("loss" not in v.path and "seen" not in v.path for v in model.variables)


def test_evaluate_and_predict():
    model = _compiled()
    prediction = model.predict(X, batch_size=4, verbose=0)
    assert isinstance(prediction, np.ndarray) and prediction.shape == (10, 1)
    mse = float(((prediction - Y.astype("float32")) ** 2).mean())
    assert model.evaluate(X, Y, batch_size=4, verbose=0) == pytest.approx(mse, rel=1e-6)
    assert model.evaluate(X, Y, verbose=0, return_dict=True) == {
        "loss": pytest.approx(mse, rel=1e-6)
    }


def test_fit_with_keras_defaults_shuffles_and_prints(capsys):
    # fit(x, y, epochs=2): batches of 32 (one), shuffled with the global seed, progress lines
    model = _compiled()
    history = model.fit(X, Y, epochs=2)
    printed = capsys.readouterr().out
    assert printed.startswith("Epoch 1/2\n\r\x1b[1m1/1\x1b[0m ") and "Epoch 2/2" in printed
    assert " - loss: " in printed and printed.endswith("\n")
    assert history.params == {"verbose": "auto", "epochs": 2, "steps": 1}


def test_a_step_must_return_a_dict_with_a_value():
    model = _compiled()
    model.train_step = lambda data: {"loss": None}
    with pytest.raises(ValueError, match="cannot return nothing"):
        model.fit(X, Y, verbose=0)
    with pytest.raises(ValueError, match="You must call `compile\\(\\)`"):
        Net().fit(X, Y, shuffle=False, verbose=0)
