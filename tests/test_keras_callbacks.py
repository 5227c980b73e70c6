"""Callbacks and the progress bar (the order of Keras' hooks and its printed lines are in
tests/tf_golden/cases_keras_training.py)."""

import numpy as np
import pytest

import minitape as tf

X = np.arange(20, dtype="float32").reshape(10, 2) / 20
Y = X.sum(axis=1, keepdims=True)


def _model():
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    return model


def test_every_hook_of_a_fit_with_validation_in_order():
    calls = []
    callback = tf.keras.callbacks.LambdaCallback(
        on_train_begin=lambda logs: calls.append("train_begin"),
        on_epoch_begin=lambda epoch, logs: calls.append(f"epoch_begin {epoch}"),
        on_train_batch_end=lambda batch, logs: calls.append(f"batch_end {batch}"),
        on_epoch_end=lambda epoch, logs: calls.append(f"epoch_end {epoch} {sorted(logs)}"),
        on_train_end=lambda logs: calls.append("train_end"),
    )
    _model().fit(
        X, Y, batch_size=5, epochs=2, verbose=0, callbacks=[callback], validation_split=0.2
    )
    assert calls == [
        "train_begin",
        "epoch_begin 0",
        "batch_end 0",
        "batch_end 1",
        "epoch_end 0 ['loss', 'val_loss']",
        "epoch_begin 1",
        "batch_end 0",
        "batch_end 1",
        "epoch_end 1 ['loss', 'val_loss']",
        "train_end",
    ]


def test_early_stopping_stops_when_the_loss_no_longer_falls():
    stop = tf.keras.callbacks.EarlyStopping(monitor="loss", min_delta=10.0)
    history = _model().fit(X, Y, epochs=5, verbose=0, callbacks=[stop])
    assert history.epoch == [0, 1] and stop.stopped_epoch == 1
    with pytest.raises(ValueError, match="mode='max'"):
        _model().fit(X, Y, epochs=1, verbose=0, callbacks=[tf.keras.callbacks.EarlyStopping("x")])


def test_progbar_lines(capsys):
    bar = tf.keras.utils.Progbar(4, verbose=2)
    bar.update(2, [("loss", 1.0)])
    assert capsys.readouterr().out == ""  # verbose=2: only the last step
    bar.update(4, [("loss", 3.0)])
    out = capsys.readouterr().out
    assert out.startswith("4/4 - 0s - ") and out.endswith("step - loss: 3.0000\n")
    bar = tf.keras.utils.Progbar(None)
    bar.update(3, [("a", 1e-5)], finalize=True)
    assert "      3/Unknown" in capsys.readouterr().out
